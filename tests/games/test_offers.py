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


def test_the_games_that_name_cells_by_file_and_rank_say_so_in_their_offers():
    """Their boards carry files and ranks (explorer/render/boards.names_cells reads the declaration, not a
    table of names): a game from outside the package that declares it gets them too."""
    from explorer.games import Game, parse_spec
    from explorer.games.base import GENERIC, Params as NoParams
    from explorer.render.boards import board_label, labelled_text, names_cells

    assert {name for name, cls in registered().items() if cls.offers.named_cells} == {
        "tictactoe", "dodgem", "teeko", "dobutsu", "domineering"}

    class Lines(Game):  # a plug-in's class: a 2x2 board in square_board's notation, declaring named cells
        name = "lines-named-cells-test"
        Params = NoParams
        offers = dataclasses.replace(GENERIC, named_cells=True)

        def format(self, position):
            return "A|X./.O"

    game, plain = Lines(), parse_spec("toads-and-frogs")
    assert names_cells(game) and not names_cells(plain)
    assert labelled_text(game, None) == "2 X .\n1 . O\n  a b"
    assert ">a<" in board_label(game, None) and ">2<" in board_label(game, None)
    assert labelled_text(plain, plain.start()) is None
