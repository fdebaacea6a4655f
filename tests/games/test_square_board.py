"""The square-board notation (explorer/games/square_board.py): one helper, Teeko's and Dodgem's."""

from __future__ import annotations

import random

import pytest

from explorer.core.errors import InvalidPosition
from explorer.games import parse_spec
from explorer.games.square_board import FILES, SquareBoardNotation, cell_name, row_col


def test_cell_names_are_a_chessboards_and_read_back():
    assert [cell_name(c, 3) for c in range(9)] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    for size in range(2, len(FILES) + 1):
        for cell in range(size * size):
            row, col = row_col(cell_name(cell, size))
            assert row * size + col == cell


@pytest.mark.parametrize("spec", ["teeko", "teeko:small", "dodgem:3x3", "dodgem:5x5"])
def test_both_games_write_and_read_their_boards_through_the_helper(spec):
    """Teeko and Dodgem keep no notation code of their own: each game's text is the helper's, read
    back by the helper, on random positions of the game's whole index space."""
    from explorer.games.dodgem import rules as dodgem
    from explorer.games.teeko import rules as teeko

    game = parse_spec(spec)
    module = teeko if game.name == "teeko" else dodgem
    assert isinstance(module.NOTATION, SquareBoardNotation)
    assert not hasattr(type(game), "_NOTATION")  # no second pattern beside the helper's
    rng = random.Random(7)
    for _ in range(300):
        position = game.decode(rng.randrange(game.code_space()))
        text = game.format(position)
        assert text == module.NOTATION.format(game.n, position.to_move, tuple(position[1:]))
        mover, kinds = module.NOTATION.parse(game, text, game.n, most=game.n * game.n, because="")
        assert (mover, kinds) == (position.to_move, tuple(position[1:]))


class _Game:
    """What the helper asks of a game: `invalid`, its one-line error."""

    def invalid(self, text, why):
        return InvalidPosition(f"invalid position {text!r}: {why}")


@pytest.mark.parametrize("text, why", [("", "malformed"), ("C|.../.../...", "malformed"), ("X|..../...", "3 rows of 3 cells"),
                                       ("X|../..", "3 rows of 3 cells"), ("X|xxx/.../...", "3 X marks; each player has 2 with this test"),
                                       ("X|.../.../....", "3 rows of 3 cells")])
def test_bad_text_is_one_clear_line(text, why):
    notation = SquareBoardNotation(movers="XO", pieces="xo", names=("X", "O"), noun="marks")
    with pytest.raises(InvalidPosition) as info:
        notation.parse(_Game(), text, 3, most=2, because="this test")
    assert why in str(info.value) and len(str(info.value).splitlines()) == 1


def test_letters_are_read_in_either_case_and_written_in_the_games():
    notation = SquareBoardNotation(movers="XO", pieces="xo", names=("crosses", "noughts"))
    mover, kinds = notation.parse(_Game(), " o | X.. / .o. / ... ", 3, most=3, because="")
    assert (mover, kinds) == (1, ((6,), (4,)))
    assert notation.format(3, mover, kinds) == "O|x../.o./..."
