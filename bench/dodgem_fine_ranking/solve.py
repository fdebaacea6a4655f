"""The whole implicit 5x5 solve over the fine ranking (as one tier: a global index = the tier's offset
+ its index, tiers in id order) against the same generic solve over the current ranking, through the
repository's own loop (explorer.implicit.solve_range -> explorer.kernels.retrograde.solve_cells via
implicit_wrapper, the generic first pass in both), alternately. Checks that both give the same value
counts and the same start value and remoteness; `--size 4` also every position's value and remoteness.
Red's un-moves look the blue set's part up once (ranking.predecessors); without that the fine solve took
42.5 / 43.5 s CPU against 24.2 / 24.6 (load 3.2-6.5), with it 40.7 / 40.9 against 26.4 / 25.9 (load 3.7-5.2).

    .venv/bin/python -m bench.dodgem_fine_ranking.solve --size 4 --rounds 1
    .venv/bin/python -m bench.dodgem_fine_ranking.solve              # 5x5, 2 rounds: about 8 min, 2.2 GB RSS
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from types import SimpleNamespace

import numpy as np
from numba import njit

from bench.dodgem_fine_ranking import ranking as fine
from explorer.games.dodgem import kernels as old
from explorer.games.dodgem.rules import Dodgem, DodgemParams
from explorer.kernels.retrograde import count_values, decode, implicit_wrapper, no_seeds
from explorer.implicit import solve_range


@njit(inline="always")
def global_unrank(t, index):
    """(tier id, index in it) of a global index: the guide (a bucket of 2^gshift indices -> its first
    tier) and a short scan of the tiers' offsets."""
    tiers, count = t[fine.H_GTID], np.int64(t[fine.H_GGUIDE] - t[fine.H_GTID])
    k = np.int64(t[t[fine.H_GGUIDE] + (index >> t[fine.H_GSHIFT])])
    while k + 1 < count and fine.global_index(t, t[tiers + k + 1], 0) <= index:
        k += 1
    tid = np.int64(t[tiers + k])
    return tid, index - fine.global_index(t, tid, 0)


@njit(inline="always")
def _global_rank(t, mover, blue, red):
    tid, index = fine.rank(t, mover, blue, red)
    return fine.global_index(t, tid, index)


@njit
def rank_global(t, mover, blue, red):
    return _global_rank(t, mover, blue, red)


@njit(inline="always")
def predecessors(t, index, out):
    """The un-moves of a global index, ranked globally (the blue set's part looked up once when Red
    moved last: ranking.predecessors)."""
    tid, local = global_unrank(t, index)
    mover, blue, red = fine.unrank(t, tid, local)
    return fine.predecessors(t, mover, blue, red, out, out, fine.as_global)


@njit(inline="always")
def move_count(t, index):
    """The current kernels' move count (the table ends with the same edge masks as their context)."""
    tid, local = global_unrank(t, index)
    mover, blue, red = fine.unrank(t, tid, local)
    return old._count_moves(t, mover, blue, red)


@njit(inline="always")
def terminal(t, index):
    return 3 if move_count(t, index) == 0 else -1


@njit(inline="always")
def valid(t, index):
    return True


def run(label, game, kernels):
    cpu, wall = time.process_time(), time.perf_counter()
    load = os.getloadavg()[0]
    cells = solve_range(game, kernels, 0, kernels.size, *no_seeds())
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    value = np.empty(kernels.size, dtype=np.int8)
    decode(cells, value)
    remoteness = cells.view(np.int16 if cells.dtype == np.uint16 else np.int32)
    tally = count_values(value)
    counts = tuple(int(x) for x in tally)
    start = game.start()
    if kernels.fine:
        at = rank_global(kernels.ctx, start.to_move, sum(1 << s for s in start.blue), sum(1 << s for s in start.red))
    else:
        at = game.rank(start)
    print(f"  {label:8s} wall {wall:6.1f} s  CPU {cpu:6.1f} s  load before {load:.2f}  counts {counts}  "
          f"start {int(value[at])}/{int(remoteness[at])}", flush=True)
    run.last = (value, remoteness.copy())
    return counts, int(value[at]), int(remoteness[at]), cpu, wall


@njit
def fine_of_old(ctx, t, size):
    """The fine global index of every current index."""
    out = np.empty(size, np.int64)
    for i in range(size):
        mover, blue, red = old.unrank(ctx, i)
        out[i] = _global_rank(t, mover, blue, red)
    return out


def make(n):
    game = Dodgem(DodgemParams(size=n))
    k = game.implicit_kernels()
    t, meta = fine.build(n)
    common = dict(max_moves=k.max_moves, max_unmoves=k.max_unmoves, folded=False)
    current = SimpleNamespace(ctx=k.ctx, size=k.size, fine=False, **common, solve=CURRENT)
    finer = SimpleNamespace(ctx=t, size=meta["total"], fine=True, **common, solve=FINE)
    return game, current, finer


CURRENT = implicit_wrapper(old.predecessors, old.valid, old.move_count, old.terminal)
FINE = implicit_wrapper(predecessors, valid, move_count, terminal)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=5, choices=(3, 4, 5))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    n = args.size
    print("compiling on 3x3 (warm-up):")
    game, current, finer = make(3)
    run("current", game, current)
    run("fine", game, finer)
    game, current, finer = make(n)
    print(f"Dodgem {n}x{n}, the repository's generic implicit solve (solve_cells, generic first pass)")
    results = {"current": [], "fine": []}
    for round_ in range(args.rounds):
        order = [("current", current), ("fine", finer)] if round_ % 2 == 0 else [("fine", finer),
                                                                                  ("current", current)]
        for label, kernels in order:
            results[label].append(run(label, game, kernels))
    same = {r[:3] for r in results["current"] + results["fine"]}
    ok = len(same) == 1
    print(f"counts and start equal in every run: {ok}")
    if n <= 4:  # position by position
        run("current", game, current)
        value_old, remoteness_old = run.last
        run("fine", game, finer)
        value_new, remoteness_new = run.last
        where = fine_of_old(current.ctx, finer.ctx, current.size)
        same = bool(np.array_equal(value_new[where], value_old) and np.array_equal(remoteness_new[where], remoteness_old))
        ok &= same
        print(f"every position's value and remoteness equal: {same}")
    for label in results:
        print(f"  {label}: CPU {[round(r[3], 1) for r in results[label]]} s, wall {[round(r[4], 1) for r in results[label]]} s")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
