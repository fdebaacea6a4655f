"""How much two workers could gain on Dodgem by tiers: exact tier sizes and a list schedule, no solving.

Issue 21 asks for Dodgem 5x5 solved 1.6x faster on a two-worker cluster than in one
process. Tiers only run side by side when neither needs the other, so the bound is the
tier DAG's, and it can be computed exactly from the tier sizes without solving anything.

Two tierings are compared:
- **coarse**, (blue cars, red cars): a car leaving the board is the only move between tiers.
  Four cars each on 5x5 is one loopy tier of 151 of the 240 million positions.
- **fine**, (blue cars, red cars, blue column sum, red row sum). Blue moves right, up or
  down, and Red up, left or right (explorer/games/dodgem/rules.py), so no move lowers
  Blue's column sum or Red's row sum: a forward step raises one of them by one, a
  sideways step keeps both, and a car leaving the board moves to a tier with one car
  fewer. Every move stays in its tier or goes to a child, and the tiers on one
  anti-diagonal of (column sum, row sum) do not depend on each other.

Work is counted as positions (the one-process solve's cost is about linear in them). The
makespan is a greedy list schedule on `--workers` workers, the tier with the longest chain
of work above it first; the critical path is the longest chain of work, a bound no number
of workers beats. The sizes are counted per blue set with a polynomial over the rows (red
cars per row and their row sum), O(C(n^2, n-1) * n^3), and their total equals the game's
index count (tests/project/test_dodgem_tiers.py checks that, and the tiers of every
position and move on the small boards against the rules).

    python -m bench.bench_dodgem_tiers --sizes 4 5

`--solve SPEC` solves instead, alternately, `gamegraph solve SPEC --implicit` (one process) and
`--tiered` (the game's tiers by cars left, the CLI's default LocalCluster: a worker process per core), each in
a fresh state folder through bench.bench_tiered.run, `--rounds` times: wall and CPU time, peak RSS,
the load average, and whether the tiered solve's value counts and start (value, remoteness) equal
the implicit one's (exit status 1 if not). Printed only (bench/README.md is not touched).

    python -m bench.bench_dodgem_tiers --solve dodgem:5x5
"""

from __future__ import annotations

import argparse
import heapq
import sys
from collections import defaultdict
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

Tier = tuple[int, ...]


def fine_tier(n: int, blue, red) -> Tier:
    """(blue cars, red cars, blue column sum, red row sum) of a position's cars (square = row * n + column)."""
    return len(blue), len(red), sum(s % n for s in blue), sum(s // n for s in red)


def fine_sizes(n: int) -> dict[Tier, int]:
    """Positions (both players to move) of every fine tier of Dodgem n x n with at most n-1 cars a side."""
    cells, most = n * n, n - 1
    sizes: dict[Tier, int] = defaultdict(int)
    for b in range(most + 1):
        for blue in combinations(range(cells), b):
            column_sum, taken = sum(s % n for s in blue), set(blue)
            # (red cars, red row sum) -> red sets, row by row: j cars among a row's free squares
            ways: dict[tuple[int, int], int] = {(0, 0): 1}
            for row in range(n):
                free = sum(1 for column in range(n) if row * n + column not in taken)
                grown: dict[tuple[int, int], int] = defaultdict(int)
                for (cars, row_sum), count in ways.items():
                    for j in range(min(free, most - cars) + 1):
                        grown[cars + j, row_sum + j * row] += count * comb(free, j)
                ways = grown
            for (r, row_sum), count in ways.items():
                sizes[b, r, column_sum, row_sum] += 2 * count
    return dict(sizes)


def coarse_sizes(fine: dict[Tier, int]) -> dict[Tier, int]:
    sizes: dict[Tier, int] = defaultdict(int)
    for (b, r, _, _), count in fine.items():
        sizes[b, r] += count
    return dict(sizes)


def fine_children(n: int, tier: Tier) -> list[Tier]:
    """The tiers a move from `tier` may reach besides itself (some may be empty)."""
    b, r, column_sum, row_sum = tier
    return [(b, r, column_sum + 1, row_sum), (b, r, column_sum, row_sum + 1),
            (b - 1, r, column_sum - (n - 1), row_sum), (b, r - 1, column_sum, row_sum - (n - 1))]


def coarse_children(n: int, tier: Tier) -> list[Tier]:
    b, r = tier
    return [(b - 1, r), (b, r - 1)]


def schedule(work: dict[Tier, int], children: Callable[[Tier], list[Tier]], workers: int) -> tuple[int, int]:
    """(makespan, critical path) of solving every tier after its children on `workers` workers.
    O(T log T + edges) for T tiers."""
    parents: dict[Tier, list[Tier]] = defaultdict(list)
    waiting = {}
    for tier in work:
        below = [child for child in children(tier) if child in work]
        waiting[tier] = len(below)
        for child in below:
            parents[child].append(tier)
    above: dict[Tier, int] = {}  # the tier's work plus the longest chain of work that waits for it
    for tier in sorted(work, key=lambda t: sum(t[:2]) * 10_000 - sum(t[2:]), reverse=True):
        above[tier] = work[tier] + max((above[p] for p in parents[tier]), default=0)
    ready = [(-above[t], t) for t in work if waiting[t] == 0]
    heapq.heapify(ready)
    running: list[tuple[int, Tier]] = []
    now, idle = 0, workers
    while ready or running:
        while ready and idle:
            _, tier = heapq.heappop(ready)
            heapq.heappush(running, (now + work[tier], tier))
            idle -= 1
        now, tier = heapq.heappop(running)
        idle += 1
        for parent in parents[tier]:
            waiting[parent] -= 1
            if waiting[parent] == 0:
                heapq.heappush(ready, (-above[parent], parent))
    return now, max(above.values())


def rows(n: int, workers: int) -> list[list[str]]:
    fine = fine_sizes(n)
    total = sum(fine.values())
    out = []
    for name, sizes, children in (("(blue cars, red cars)", coarse_sizes(fine), coarse_children),
                                  ("(blue cars, red cars, blue column sum, red row sum)", fine, fine_children)):
        makespan, critical = schedule(sizes, lambda t: children(n, t), workers)
        largest = max(sizes.values())
        out.append([f"{n}×{n}", f"{total:,}", name, f"{len(sizes):,}", f"{largest:,} ({largest / total:.1%})",
                    f"{critical / total:.1%}", f"{makespan / total:.1%}", f"{total / makespan:.2f}×"])
    return out


def solve_both(spec: str, rounds: int) -> bool:
    """The implicit and the tiered solve of `spec`, alternately, `rounds` times each; printed. Whether
    every tiered solve's counts and start equal the implicit solve's."""
    import shutil
    import tempfile

    from bench.bench_tiered import run

    scratch = Path(tempfile.mkdtemp(prefix="dodgem-tiers-"))
    print("| workload | tiers | wall s | CPU s | peak RSS MB | start | load before / after | counts and start |")
    print("|---|---:|---:|---:|---:|---|---|---|")
    equal, reference = True, None
    try:
        for _ in range(rounds):
            for mode in ("implicit", "tiered"):
                result = run(f"{mode}:{spec}", scratch)
                meta = result["meta"]
                found = (meta["counts"], meta["start"]["value"], meta["start"]["remoteness"])
                if mode == "implicit":
                    reference, verdict = found, "(the reference)"
                else:
                    same = found == reference
                    equal &= same
                    verdict = "equal" if same else f"**differ**: {found} against {reference}"
                print(f"| `{result['workload']}` | {result['tiers']} | {result['wall']:.1f} | {result['cpu']:.1f} | "
                      f"{result['peak_mb']:.0f} | {result['start']} | {result['load']:.2f} / {result['load_after']:.2f} "
                      f"| {verdict} |", flush=True)
                for home in scratch.iterdir():  # a 5x5 value file is half a gigabyte: one at a time
                    shutil.rmtree(home, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return equal


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5], choices=range(3, 6), metavar="N",
                        help="board sizes, 3 to 5 (default 4 5)")
    parser.add_argument("--workers", type=int, default=2, choices=range(1, 65), metavar="W",
                        help="workers of the schedule, 1 to 64 (default 2)")
    parser.add_argument("--solve", metavar="SPEC", help="solve SPEC implicit and tiered, alternately, and compare")
    parser.add_argument("--rounds", type=int, default=1, choices=range(1, 10), metavar="R",
                        help="with --solve: solves of each kind, 1 to 9 (default 1)")
    args = parser.parse_args(argv)
    if args.solve:
        sys.exit(0 if solve_both(args.solve, args.rounds) else 1)
    print("| Dodgem | positions | tiers by | tiers | largest tier | critical path | "
          f"{args.workers} workers: makespan | at most |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for n in args.sizes:
        for row in rows(n, args.workers):
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
