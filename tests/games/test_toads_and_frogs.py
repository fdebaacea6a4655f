"""Toads and Frogs: rules, notation, both generators, and two independent engines agreeing.

Published values checked here:
- Jeff Erickson, "New Toads and Frogs Results", Games of No Chance (MSRI Publ. 29, 1996),
  and the help text of his implementation (HELP_TOADS): T□F = *, T□TF = 1/2, □TF = 0, FT□ = 1;
  TT□FF: Left moving first wins.
- Winning Ways ch. 1 and A. N. Siegel, Combinatorial Game Theory (AMS 2013) II.6–II.8 as
  worked through on the "Combinatorial Games" blog: TFTF□ = 0, TF□TF = 0, TFT□F = *,
  T□TFF = {0|*} = ↑.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.cgt import parse_value
from explorer.cgt.evaluate import NotShort, board_values, supports_cgt, value_of
from explorer.core.errors import InvalidParameter, InvalidPosition
from explorer.games import parse_spec
from explorer.games.toads_and_frogs import Strip, strip_options
from explorer.graph import generate
from explorer.solver import solve
from explorer.core.values import Value
from tests.explorer.test_graph import assert_generators_agree

PUBLISHED = {
    "T.F": "*", "T.TF": "1/2", ".TF": "0", "FT.": "1",          # Erickson, HELP_TOADS
    "TFTF.": "0", "TF.TF": "0", "TFT.F": "*", "T.TFF": "^",      # Winning Ways / Siegel II.8
}


@pytest.mark.parametrize("board,value", sorted(PUBLISHED.items()))
def test_published_values(board, value):
    game = parse_spec(f"toads-and-frogs(board={board})")
    assert value_of(game, board) is parse_value(value)


def test_erickson_opening_left_first_wins():
    solved = solve(generate(parse_spec("toads-and-frogs(board=TT.FF)")))
    assert Value(int(solved.value[0])) == Value.WIN


BOARDS = ["TT..FF", "T..F", "TTT..FFF", "T.T.F.F", "TF.TF.", "TT...F", "T.F.T.F"]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("first", ["toads", "frogs"])
def test_outcome_classes_agree_with_the_win_loss_solver(board, first):
    """The CGT outcome class of each strip and the retrograde solver's value of each
    (strip, mover) position are computed by unrelated code; they must agree everywhere."""
    game = parse_spec(f"toads-and-frogs(board={board},first={first})")
    graph = generate(game)
    solution = solve(graph)
    positions = [graph.position(i) for i in range(graph.num_positions)]
    values = board_values(game, {p.cells for p in positions})
    for node, position in enumerate(positions):
        mover_wins = Value(int(solution.value[node])) == Value.WIN
        assert Value(int(solution.value[node])) in (Value.WIN, Value.LOSS)  # short: no draws, no ties
        outcome = values[position.cells].outcome
        expected = outcome in ("L", "N") if position.to_move == 0 else outcome in ("R", "N")
        assert mover_wins == expected, f"{game.format(position)}: solver {mover_wins}, CGT {outcome}"


@pytest.mark.parametrize("board", ["TT..FF", "T.F.T.F", "TTT..FFF"])
@pytest.mark.parametrize("first", ["toads", "frogs"])
def test_array_and_generic_generators_agree(board, first):
    assert_generators_agree(parse_spec(f"toads-and-frogs(board={board},first={first})"), symmetry=True)


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="TF.", min_size=1, max_size=8), st.sampled_from(["toads", "frogs"]))
def test_random_strips_generators_and_notation(board, first):
    game = parse_spec(f"toads-and-frogs(board={board},first={first})")
    arrays, _ = assert_generators_agree(game, symmetry=True)
    for node in range(arrays.num_positions):
        position = arrays.position(node)
        assert game.parse(game.format(position)) == position


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="TF.", min_size=1, max_size=10))
def test_mirror_symmetry_negates_the_value(board):
    """Reversing the strip and swapping toads with frogs swaps the players: G becomes -G."""
    game = parse_spec(f"toads-and-frogs(board={board})")
    mirrored = board[::-1].translate(str.maketrans("TF", "FT"))
    assert value_of(game, mirrored) is -value_of(game, board)


def test_moves_slide_and_jump():
    assert strip_options("T.F", 0) == [("T 1→2", ".TF")]
    assert strip_options("TF.", 0) == [("T 1→3", ".FT")]
    assert strip_options("TF.", 1) == []
    assert strip_options(".TF", 1) == [("F 3→1", "FT.")]
    assert strip_options("TT.", 0) == [("T 2→3", "T.T")]


def test_notation_and_parameters():
    game = parse_spec("toads-and-frogs(board=TT..FF)")
    assert game.format(game.start()) == "T|TT..FF"
    assert game.parse("f|T.T.FF") == Strip(1, "T.T.FF")
    for bad in ["T|TT.FF", "X|TT..FF", "T|TTT.FF", "TT..FF", "", "T|" + "T" * 5000]:
        with pytest.raises(InvalidPosition):
            game.parse(bad)
    with pytest.raises(InvalidParameter):
        parse_spec("toads-and-frogs(board=TX..FF)")
    with pytest.raises(InvalidParameter):
        parse_spec("toads-and-frogs(board=" + "T" * 41 + ")")
    assert supports_cgt(game) and not supports_cgt(parse_spec("chopsticks"))


@pytest.mark.parametrize("length", [41, 81, 198, 300, 5000])
def test_a_strip_too_long_is_refused_with_its_real_length(length):
    """An 81-cell strip was refused as "(60 characters)": the text was cut before the message measured it, and
    a position of 300 cells said "not 198". Every length a refusal names is the text's own."""
    import re

    game = parse_spec("toads-and-frogs")
    for text, cells in [("T" * length, game.parse_board), ("T|" + "T" * length, game.parse)]:
        with pytest.raises(InvalidPosition) as refused:
            cells(text)
        message = str(refused.value)
        named = [int(n.replace(",", "")) for n in re.findall(r"\(([\d,]+) characters\)", message)]
        assert named == ([len(text)] if len(repr(text)) > 60 else []), message  # errors.shown cuts past 60
        counts = [int(n.replace(",", "")) for n in re.findall(r"(?:has|not) ([\d,]+)(?: cells|\b)", message)]
        assert all(n in (length, 6) for n in counts), message  # the strip's cells, or the board's 6
    board = str(pytest.raises(InvalidPosition, game.parse_board, "T" * length).value)
    assert f"{length:,} cells" in board and "at most 40" in board, board


def test_loopy_games_have_no_short_value():
    from explorer.games.base import Move

    class Loop:
        """Two boards that move to each other: no short game."""
        name = "loop"
        cgt_board = staticmethod(lambda position: position[1])
        cgt_position = staticmethod(lambda board, side: (side, board))
        canonical = staticmethod(lambda position: position)
        outcome = staticmethod(lambda position: None)
        moves = staticmethod(lambda position: [Move("flip", (1 - position[0], 1 - position[1]))])
        format_board = staticmethod(str)
        parse_board = staticmethod(int)

    with pytest.raises(NotShort):
        value_of(Loop(), 0)
