"""The implicit solve's generic first pass alone (every index: unrank, count the moves), one thread, index
order, the current ranking against the fine one (tiers in id order as one index space, solve.py),
alternately, two rounds. CPU beside wall, load average.

    .venv/bin/python -m bench.dodgem_fine_ranking.first_pass    # 5x5: about 15 s
"""

from __future__ import annotations

import os
import time

from numba import njit

from bench.dodgem_fine_ranking import solve
from explorer.games.dodgem import kernels as old
from explorer.games.dodgem.rules import Dodgem, DodgemParams


# Two loops, not one taking the move count as an argument: numba does not inline a function passed in,
# and that one loop measured 2.0 s / 4.1 s of CPU against these two's 1.5 s / 3.7 s (load 4-5).
@njit
def current_pass(ctx, size):
    """The moves of every index of [0, size) of the current ranking, summed."""
    total = 0
    for i in range(size):
        total += old.move_count(ctx, i)
    return total


@njit
def fine_pass(t, size):
    """The same over the fine ranking's global indices."""
    total = 0
    for i in range(size):
        total += solve.move_count(t, i)
    return total


def main():
    game = Dodgem(DodgemParams(size=5))
    ctx = game.implicit_kernels().ctx
    t, meta = solve.fine.build(5)
    size = meta["total"]
    current_pass(ctx, 1000), fine_pass(t, 1000)  # compile
    for round_ in range(2):
        runs = [("current", current_pass, ctx), ("fine", fine_pass, t)]
        for label, function, table in runs[::1 - 2 * (round_ % 2)]:
            load = os.getloadavg()[0]
            cpu, wall = time.process_time(), time.perf_counter()
            moves = function(table, size)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"  {label:8s} first pass (unrank + move count, {size:,} indices): CPU {cpu:5.1f} s, wall {wall:5.1f} s "
                  f"({cpu / size * 1e9:.1f} ns CPU an index), load {load:.2f}, moves {moves:,}", flush=True)


if __name__ == "__main__":
    main()
