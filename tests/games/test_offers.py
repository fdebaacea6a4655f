"""A game's Offers declaration against what its methods actually give.

Hints and limits read the declaration (cheap: no numba, no kernels), the solvers the kernels:
the two must agree for every built-in game and every preset, or a hint names the wrong remedy.
"""

from __future__ import annotations

import dataclasses

import pytest

from explorer.games.base import Offers
from explorer.games.registry import registered


def _ranked_instances():
    for name, cls in registered().items():
        if not cls.offers.implicit_kernels:
            continue
        for preset in [None, *cls.presets]:
            yield pytest.param(cls, preset, id=f"{name}:{preset or 'default'}")


@pytest.mark.parametrize("cls, preset", list(_ranked_instances()))
def test_the_declared_fold_and_implicit_size_are_the_kernels(cls, preset):
    game = cls(preset=preset) if preset else cls()
    kernels = game.implicit_kernels()
    assert kernels is not None
    assert game.offers.folded == kernels.folded
    assert game.implicit_size() == kernels.size
    assert kernels.size == (game.index_space() // 2 if kernels.folded else game.index_space())


def test_some_game_folds_so_the_check_above_covers_the_fold():
    assert any(cls.offers.folded for cls in registered().values())


def test_games_without_a_ranking_have_no_implicit_size():
    for cls in registered().values():
        if not cls.offers.ranking:
            assert cls().implicit_size() is None


def test_folded_needs_implicit_kernels():
    class Folded:  # a stand-in class: the check reads only the declaration here
        pass

    declared = dataclasses.replace(Offers(arrays=False, compiled_moves=False, ranking=False, unmoves=False,
                                          implicit_kernels=False, symmetry=False, cgt=None, board=None,
                                          player_names=None, swap_players=False, diagram_label=False),
                                   folded=True)
    assert declared.missing(Folded) == "declares folded=True without implicit_kernels=True"
