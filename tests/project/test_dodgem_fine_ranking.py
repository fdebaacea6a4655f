"""bench/dodgem_fine_ranking, the measured prototype of issue 21 (a perfect ranking of each of Dodgem's
fine tiers): on 3x3, its proof holds (tier sizes equal bench_dodgem_tiers.fine_sizes, a bijection onto
each tier's indices, unrank(rank(p)) = p, the plain Python reference equal to the kernels) and fails
on a spoiled table; its un-moves are the current kernels' un-moves, ranked its way."""

from __future__ import annotations

import numpy as np

from bench.dodgem_fine_ranking import prove, ranking, solve
from explorer.games.dodgem import kernels as current
from explorer.games.dodgem.rules import Dodgem, DodgemParams


def test_the_proof_holds_on_every_3x3_position(capsys):
    assert prove.check(3, None, 10 ** 9, np.random.default_rng(21)), capsys.readouterr().out


def test_the_proof_fails_on_a_table_with_two_red_sets_swapped(capsys):
    assert not prove.check(3, None, 10 ** 9, np.random.default_rng(21), mutate=True)
    out = capsys.readouterr().out
    assert "MUTATED" in out and "unrank(rank(p)) == p: 2,846 of 2,846" not in out


def test_the_un_moves_are_the_current_kernels_un_moves_ranked_by_tier_and_globally():
    ctx = Dodgem(DodgemParams(size=3)).implicit_kernels().ctx
    t, meta = ranking.build(3)
    out, tiers, indices, spread = (np.empty(16, np.int64) for _ in range(4))
    for index in range(meta["total"]):
        mover, blue, red = current.unrank(ctx, index)
        expected = sorted(solve.rank_global(t, *current.unrank(ctx, int(p)))
                          for p in out[:current.predecessors(ctx, index, out)])
        count = ranking.predecessors(t, mover, blue, red, tiers, indices, ranking.by_tier)
        by_tier = sorted(int(ranking.global_index(t, tier, i)) for tier, i in zip(tiers[:count], indices[:count]))
        count = ranking.predecessors(t, mover, blue, red, spread, spread, ranking.as_global)
        assert by_tier == sorted(spread[:count]) == expected, (index, mover, blue, red)
        assert solve.move_count(t, solve.rank_global(t, mover, blue, red)) == current.move_count(ctx, index)
