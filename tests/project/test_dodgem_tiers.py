"""bench/bench_dodgem_tiers.py, the two-worker bound of issue 21 for Dodgem: its tier sizes must be the
game's own positions, counted by its ranking, and its fine tiers (cars, Blue's column sum, Red's row
sum) must hold against the rules: every move stays in its tier or goes to a tier it names as a child."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bench import bench_dodgem_tiers as plan
from explorer.games import parse_spec


def _tier(game, position):
    return plan.fine_tier(game.n, position.blue, position.red)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_tier_sizes_add_up_to_the_games_ranking(n):
    assert sum(plan.fine_sizes(n).values()) == parse_spec(f"dodgem(size={n})").code_space()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_coarse_tiers_are_the_games_declared_tiers(n):
    """The bench's tiers by cars left are the ones the game declares (Dodgem.tiers, tier b*n + r), size for size."""
    tiers = parse_spec(f"dodgem(size={n})").tiers()
    declared = {divmod(t, n): hi - lo for t, (lo, hi) in enumerate(zip(tiers.offsets, tiers.offsets[1:]))}
    assert declared == plan.coarse_sizes(plan.fine_sizes(n))
    assert all(set(tiers.children[b * n + r]) <= {(b - 1) * n + r, b * n + r - 1} for b, r in declared)


@pytest.mark.parametrize("n", [2, 3])
def test_the_tier_sizes_are_the_count_of_every_ranked_position(n):
    game = parse_spec(f"dodgem(size={n})")
    counted = Counter(_tier(game, game.decode(index)) for index in range(game.code_space()))
    assert counted == Counter(plan.fine_sizes(n))


@pytest.mark.parametrize("n, sample", [(3, None), (4, 3000), (5, 1000)])
def test_every_move_stays_in_its_tier_or_goes_to_a_named_child(n, sample):
    game = parse_spec(f"dodgem(size={n})")
    indices = range(game.code_space())
    if sample is not None:
        indices = random.Random(n).sample(indices, sample)
    moves = 0
    for index in indices:
        position = game.decode(index)
        tier = _tier(game, position)
        allowed = {tier, *plan.fine_children(n, tier)}
        for move in game.moves(position):
            assert _tier(game, move.position) in allowed, (game.format(position), move.label)
            moves += 1
    assert moves > 0


def test_the_schedule_never_beats_its_bounds_and_finds_the_fine_tiers_parallel():
    for n in (3, 4):
        fine = plan.fine_sizes(n)
        total = sum(fine.values())
        for sizes, children in ((plan.coarse_sizes(fine), plan.coarse_children), (fine, plan.fine_children)):
            one, critical_one = plan.schedule(sizes, lambda t: children(n, t), 1)
            two, critical = plan.schedule(sizes, lambda t: children(n, t), 2)
            assert one == total and critical_one == critical  # one worker does all the work, in order
            assert max(critical, total / 2) <= two <= total
        coarse_two, _ = plan.schedule(plan.coarse_sizes(fine), lambda t: plan.coarse_children(n, t), 2)
        fine_two, _ = plan.schedule(fine, lambda t: plan.fine_children(n, t), 2)
        assert total / coarse_two < 1.4 < 1.9 < total / fine_two
