"""The fine ranking (ranking.py) against the current kernels (explorer.games.dodgem.kernels) on Dodgem 5x5:
rank, unrank, and a popped position (unrank + every un-move ranked), in compiled loops.

Same `--count` random positions (uniform over the 240,060,402 indices) for both; loops alternate old/new,
`--rounds` rounds; CPU (process_time) beside wall, load average before each round.

    .venv/bin/python -m bench.dodgem_fine_ranking.timing                      # 10^7 positions, 3 rounds
    .venv/bin/python -m bench.dodgem_fine_ranking.timing --count 100000 --rounds 1
    .venv/bin/python -m bench.dodgem_fine_ranking.timing --full-check         # + every 5x5 index: 1.5 min
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from numba import njit

from bench.dodgem_fine_ranking import ranking as fine
from bench.dodgem_fine_ranking.prove import current_positions, rank_all
from explorer.games.dodgem import kernels as old
from explorer.games.dodgem.rules import Dodgem, DodgemParams


@njit
def old_rank_loop(ctx, movers, blues, reds):
    total = 0
    for i in range(len(movers)):
        total += old.rank(ctx, movers[i], blues[i], reds[i])
    return total


@njit
def new_rank_loop(t, movers, blues, reds):
    total = 0
    for i in range(len(movers)):
        tid, index = fine.rank(t, movers[i], blues[i], reds[i])
        total += tid + index
    return total


@njit
def old_unrank_loop(ctx, indices):
    total = 0
    for i in range(len(indices)):
        m, b, r = old.unrank(ctx, indices[i])
        total += m + (b ^ r)
    return total


@njit
def new_unrank_loop(t, tids, indices):
    total = 0
    for i in range(len(indices)):
        m, b, r = fine.unrank(t, tids[i], indices[i])
        total += m + (b ^ r)
    return total


@njit
def old_pop_loop(ctx, indices):
    """What the retrograde does per popped position: unrank, un-moves, rank each."""
    out = np.empty(32, np.int64)
    total = 0
    for i in range(len(indices)):
        count = old.predecessors(ctx, indices[i], out)
        for j in range(count):
            total += out[j]
    return total


@njit
def new_pop_loop(t, tids, indices):
    out_tier, out_index = np.empty(32, np.int64), np.empty(32, np.int64)
    total = 0
    for i in range(len(indices)):
        m, b, r = fine.unrank(t, tids[i], indices[i])
        count = fine.predecessors(t, m, b, r, out_tier, out_index, fine.by_tier)
        for j in range(count):
            total += out_tier[j] + out_index[j]
    return total


@njit
def unmove_count(ctx, indices):
    out = np.empty(32, np.int64)
    total = 0
    for i in range(len(indices)):
        total += old.predecessors(ctx, indices[i], out)
    return total


@njit
def full_unrank_check(t, tiers, offsets, sizes):
    """rank(unrank(tier, i)) == (tier, i) for every index of every tier, the position's cars legal."""
    bad = 0
    for k in range(len(tiers)):
        for i in range(sizes[k]):
            m, b, r = fine.unrank(t, tiers[k], i)
            tid, index = fine.rank(t, m, b, r)
            if tid != tiers[k] or index != i or (b & r) != 0:
                bad += 1
    return bad


def timed(function, *args):
    cpu, wall = time.process_time(), time.perf_counter()
    result = function(*args)
    return time.process_time() - cpu, time.perf_counter() - wall, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10 ** 7)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--full-check", action="store_true", help="also unrank/rank every 5x5 index")
    args = parser.parse_args()
    if args.count < 1000 or args.rounds < 1:
        parser.error("--count takes at least 1000 positions and --rounds at least 1")
    t, meta = fine.build(5)
    ctx = Dodgem(DodgemParams(size=5)).implicit_kernels().ctx
    if args.full_check:
        tiers = np.array([fine.tier_id(5, *k) for k in meta["sizes"]], np.int64)
        sizes = np.array(list(meta["sizes"].values()), np.int64)
        cpu, wall, bad = timed(full_unrank_check, t, tiers, np.zeros_like(tiers), sizes)
        print(f"every 5x5 index of every tier ({sizes.sum():,}): rank(unrank) identity, cars disjoint; "
              f"{bad} failures ({wall:.1f} s)")
    rng = np.random.default_rng(2026)
    indices = rng.integers(0, 240_060_402, args.count, dtype=np.int64)
    movers, blues, reds = current_positions(ctx, indices)
    tids, idxs = rank_all(t, movers, blues, reds)
    unmoves = unmove_count(ctx, indices)
    print(f"{args.count:,} random 5x5 positions, {unmoves / args.count:.2f} un-moves each; "
          f"fine table {t.nbytes / 1e6:.1f} MB, current ctx {ctx.nbytes / 1e6:.2f} MB")
    pairs = [("rank", (old_rank_loop, ctx, movers, blues, reds), (new_rank_loop, t, movers, blues, reds), 1),
             ("unrank", (old_unrank_loop, ctx, indices), (new_unrank_loop, t, tids, idxs), 1),
             ("popped position (unrank + un-moves ranked)", (old_pop_loop, ctx, indices),
              (new_pop_loop, t, tids, idxs), 1)]
    for _, a, b, _ in pairs:  # compile / warm
        a[0](*[x[:1000] if isinstance(x, np.ndarray) and len(x) == args.count else x for x in a[1:]])
        b[0](*[x[:1000] if isinstance(x, np.ndarray) and len(x) == args.count else x for x in b[1:]])
    results = {name: {"old": [], "new": []} for name, *_ in pairs}
    for round_ in range(args.rounds):
        print(f"round {round_ + 1}: load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
        for name, a, b, _ in pairs:
            order = [("old", a), ("new", b)] if round_ % 2 == 0 else [("new", b), ("old", a)]
            for label, (function, *rest) in order:
                cpu, wall, _ = timed(function, *rest)
                results[name][label].append((cpu, wall))
                print(f"  {name:45s} {label}: {cpu / args.count * 1e9:6.1f} ns CPU, "
                      f"{wall / args.count * 1e9:6.1f} ns wall per position")
    print("best of rounds (ns per position, CPU / wall):")
    for name in results:
        o = min(results[name]["old"]), min(results[name]["new"])
        print(f"  {name:45s} old {o[0][0] / args.count * 1e9:6.1f} / {o[0][1] / args.count * 1e9:6.1f}   "
              f"new {o[1][0] / args.count * 1e9:6.1f} / {o[1][1] / args.count * 1e9:6.1f}   "
              f"new/old CPU {o[1][0] / o[0][0]:.2f}x")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
