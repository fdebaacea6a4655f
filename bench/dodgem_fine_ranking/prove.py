"""Proof of the fine ranking (ranking.py): tier sizes equal bench.bench_dodgem_tiers.fine_sizes; on every
3x3 and 4x4 position a bijection onto the tiers' indices and unrank(rank(p)) = p; 10^6 random 5x5
positions round-trip; the plain Python reference equals the kernels. Prints ALL OK (exit 0) or FAILED (1).

    .venv/bin/python -m bench.dodgem_fine_ranking.prove             # 3x3, 4x4, 5x5: about 1.5 min
    SIZES="3 4" .venv/bin/python -m bench.dodgem_fine_ranking.prove  # the small boards only
    MUTATE=1 .venv/bin/python -m bench.dodgem_fine_ranking.prove     # two red-list entries swapped: FAILED
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

import os

from bench.dodgem_fine_ranking import ranking as fine
from bench.bench_dodgem_tiers import fine_sizes, fine_tier
from explorer.games.dodgem import kernels as old
from explorer.games.dodgem.rules import Dodgem, DodgemParams


@njit
def current_positions(ctx, indices):
    """(movers, blue masks, red masks) of indices of the current ranking (explorer.games.dodgem.kernels)."""
    k = len(indices)
    movers, blues, reds = np.empty(k, np.int64), np.empty(k, np.int64), np.empty(k, np.int64)
    for i in range(k):
        movers[i], blues[i], reds[i] = old.unrank(ctx, indices[i])
    return movers, blues, reds


@njit
def rank_all(t, movers, blues, reds):
    k = len(movers)
    tids, idxs = np.empty(k, np.int64), np.empty(k, np.int64)
    for i in range(k):
        tids[i], idxs[i] = fine.rank(t, movers[i], blues[i], reds[i])
    return tids, idxs


@njit
def round_trip_failures(t, movers, blues, reds, tids, idxs):
    bad = 0
    for i in range(len(movers)):
        m, b, r = fine.unrank(t, tids[i], idxs[i])
        if m != movers[i] or b != blues[i] or r != reds[i]:
            bad += 1
    return bad


def squares(mask):
    return tuple(s for s in range(mask.bit_length()) if mask >> s & 1)


def check(n: int, sample: int | None, reference_sample: int, rng, mutate: bool = False) -> bool:
    """Whether the ranking of Dodgem n x n passes, printing each fact: every position (sample None) or
    `sample` random ones, the reference on up to `reference_sample` of them; `mutate` spoils the table."""
    ok = True
    t, meta = fine.build(n)
    if mutate:  # the proof must fail: two red sets of one list swapped (unrank only)
        at = t[fine.H_REDLIST] + (t[fine.H_REC] - t[fine.H_REDLIST]) // 2  # the next section is the records
        t[at], t[at + 1] = t[at + 1], t[at]
        print(f"  MUTATED: red list entries {at}, {at + 1} swapped")
    expected = fine_sizes(n)
    same = meta["sizes"] == expected
    ok &= same
    print(f"{n}x{n}: {len(meta['sizes'])} tiers, {meta['total']:,} indices, table {t.nbytes / 1e6:.2f} MB; "
          f"tier sizes equal bench_dodgem_tiers.fine_sizes: {same}")
    game = Dodgem(DodgemParams(size=n))
    ctx = game.implicit_kernels().ctx
    size = game.code_space()
    indices = np.arange(size, dtype=np.int64) if sample is None else rng.integers(0, size, sample, dtype=np.int64)
    movers, blues, reds = current_positions(ctx, indices)
    tids, idxs = rank_all(t, movers, blues, reds)
    # every rank in range of its tier, and its tier the position's fine tier
    sizes = np.zeros(n * n * ((n - 1) ** 2 + 1) ** 2, dtype=np.int64)
    for tier, count in meta["sizes"].items():
        sizes[fine.tier_id(n, *tier)] = count
    in_range = bool(np.all((idxs >= 0) & (idxs < sizes[tids])))
    ok &= in_range
    label = "every position" if sample is None else f"{sample:,} random positions"
    print(f"  {label}: every index within its tier's size: {in_range}")
    some = rng.choice(len(movers), min(len(movers), 20000), replace=False)
    tiers_right = all(fine.tier_id(n, *fine_tier(n, squares(int(blues[i])), squares(int(reds[i])))) == tids[i]
                      for i in some)
    ok &= tiers_right
    print(f"  tier id = fine_tier(position) on {len(some):,} of them: {tiers_right}")
    if sample is None:  # bijection: each (tier, index) hit exactly once, and every index of every tier hit
        keys = np.unique((np.int64(np.asarray(tids)) << 32) + idxs)
        bijective = len(keys) == size == sizes.sum() // 1 and meta["total"] == size
        ok &= bijective
        print(f"  bijection: {len(keys):,} distinct (tier, index) for {size:,} positions = the tiers' total "
              f"{sizes.sum():,}: {bijective}")
    bad = round_trip_failures(t, movers, blues, reds, tids, idxs)
    ok &= bad == 0
    print(f"  unrank(rank(p)) == p: {len(movers) - bad:,} of {len(movers):,}")
    ref = fine.Reference(n)
    picks = range(len(movers)) if reference_sample >= len(movers) else rng.choice(len(movers), reference_sample, False)
    disagree = 0
    t0 = time.perf_counter()
    for i in picks:
        m, b, r = int(movers[i]), squares(int(blues[i])), squares(int(reds[i]))
        tier, index = ref.rank(m, b, r)
        if fine.tier_id(n, *tier) != tids[i] or index != idxs[i] or ref.unrank(tier, index) != (m, b, r):
            disagree += 1
    ok &= disagree == 0
    print(f"  plain Python reference (rank and unrank) equal to the kernels on {len(picks):,} positions: "
          f"{disagree == 0} ({disagree} differ; {time.perf_counter() - t0:.0f} s)")
    return ok


def main():
    rng = np.random.default_rng(21)
    words = os.environ.get("SIZES", "3 4 5").split()
    if not words or any(word not in ("3", "4", "5") for word in words):
        sys.exit(f"SIZES takes board sizes among 3 4 5, not {os.environ.get('SIZES')!r}")
    sizes = [int(x) for x in words]
    ok = True
    for n in sizes:
        ok &= check(n, None if n < 5 else 10 ** 6, 10 ** 9 if n < 5 else 100_000, rng, bool(os.environ.get("MUTATE")))
    print("ALL OK" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
