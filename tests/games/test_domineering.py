"""Domineering: published values, sums of separate regions, and the two engines agreeing.

Published: the 2×2 square is ±1 (Winning Ways ch. 2; Lachmann, Moore and Rapaport,
"Who wins Domineering on rectangular boards?", MSRI Publ. 42 (2002): "the 2×2 board is a
win for the first player"); a column of n cells is ⌊n/2⌋ moves for Vertical, a row of n
cells -⌊n/2⌋ (Winning Ways ch. 2).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.cgt import number, parse_value
from explorer.cgt.evaluate import board_values, canonical_board, value_of
from explorer.core.errors import InvalidParameter, InvalidPosition
from explorer.games import parse_spec
from explorer.graph import generate
from explorer.solver import solve
from explorer.core.values import Value
from tests.explorer.test_graph import assert_generators_agree


def domineering(rows, cols, first="vertical"):
    return parse_spec(f"domineering(rows={rows},cols={cols},first={first})")


def test_the_two_by_two_square_is_plus_or_minus_one():
    assert value_of(domineering(2, 2), 0) is parse_value("+-1")


@pytest.mark.parametrize("n", range(1, 8))
def test_strips_count_moves(n):
    assert value_of(domineering(n, 1), 0) is number(n // 2)
    assert value_of(domineering(1, n), 0) is number(-(n // 2))


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 3), (3, 4), (2, 5)])
@pytest.mark.parametrize("first", ["vertical", "horizontal"])
def test_outcome_classes_agree_with_the_win_loss_solver(rows, cols, first):
    game = domineering(rows, cols, first)
    graph = generate(game, symmetry=False)
    solution = solve(graph)
    positions = [graph.position(i) for i in range(graph.num_positions)]
    values = board_values(game, {p.filled for p in positions})
    for node, position in enumerate(positions):
        mover_wins = Value(int(solution.value[node])) == Value.WIN
        outcome = values[canonical_board(game, position.filled)].outcome
        expected = outcome in ("L", "N") if position.to_move == 0 else outcome in ("R", "N")
        assert mover_wins == expected, f"{game.format(position)}: solver {mover_wins}, CGT {outcome}"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, (1 << 6) - 1), st.integers(0, (1 << 6) - 1))
def test_separate_regions_add_up(left_fill, right_fill):
    """A 3×5 board whose middle column is covered is the sum of two 3×2 boards."""
    small, wide = domineering(3, 2), domineering(3, 5)

    def embed(fill, offset):
        return sum(1 << (r * 5 + c + offset) for r in range(3) for c in range(2) if fill >> (r * 2 + c) & 1)

    middle = sum(1 << (r * 5 + 2) for r in range(3))
    board = embed(left_fill, 0) | middle | embed(right_fill, 3)
    assert value_of(wide, board) is value_of(small, left_fill) + value_of(small, right_fill)


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (3, 4)])
def test_reflections_keep_the_value(rows, cols):
    game = domineering(rows, cols)
    graph = generate(game, symmetry=False)
    boards = {graph.position(i).filled for i in range(graph.num_positions)}
    values = board_values(game, boards, symmetry=False)  # every board evaluated on its own
    for board in boards:
        for image in game._reflections(board):
            assert values[image] is values[board]
        assert value_of(game, board) is values[board]  # and the reduced evaluation agrees


@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 3), (2, 4)])
@pytest.mark.parametrize("symmetry", [True, False])
def test_array_and_generic_generators_agree(rows, cols, symmetry):
    assert_generators_agree(domineering(rows, cols), symmetry=symmetry)


def test_symmetry_reduction_keeps_every_value():
    game = domineering(3, 3)
    full, reduced = solve(generate(game, symmetry=False)), None
    reduced_graph = generate(game, symmetry=True)
    reduced = solve(reduced_graph)
    full_graph = generate(game, symmetry=False)
    index = {reduced_graph.key(i): i for i in range(reduced_graph.num_positions)}
    for node in range(full_graph.num_positions):
        twin = index[game.key(full_graph.position(node))]
        assert full.value[node] == reduced.value[twin] and full.remoteness[node] == reduced.remoteness[twin]


def test_notation_and_parameters():
    game = domineering(2, 3)
    assert game.format(game.start()) == "V|.../..."
    position = game.parse("h|##./...")
    assert game.format(position) == "H|##./..." and game.parse(game.format(position)) == position
    for bad in ["V|..../...", "V|.../..", "X|.../...", "V|#../...", "V|.x./...", ""]:
        with pytest.raises(InvalidPosition):
            game.parse(bad)
    with pytest.raises(InvalidParameter):
        parse_spec("domineering(rows=6,cols=6)")


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 2), (4, 4), (1, 5), (5, 1)])
def test_moves_name_cells_with_rank_one_at_the_bottom(rows, cols):
    """`show` named the top row's cells a1-b1: the notation lists rows top to bottom and every game whose
    moves name cells counts ranks from the bottom (explorer/games/square_board.py), a1 bottom-left. Each move
    names the two cells it covers, read off the notation with rank r the (rows - r)-th row from the top, the
    lower or left cell first; the page's drawing puts its link on the domino's top or left cell."""
    import re

    from explorer.ui.boards import domineering as drawing

    game = domineering(rows, cols)
    start = game.start()
    for side in (0, 1):
        position = game.cgt_position(0, side)
        for move in game.moves(position):
            grid = game.format(move.position).split("|", 1)[1].split("/")
            covered = {f"{'abcdefgh'[c]}{rows - r}" for r, line in enumerate(grid) for c, cell in enumerate(line)
                       if cell == "#"}
            first, second = move.label.split(" ")[1].split("-")
            assert {first, second} == covered, (move.label, grid)
            assert (first[1:], first[0]) < (second[1:], second[0]) or first[0] < second[0], move.label
            svg = drawing.svg(game, position, {move.label: "?move=x"})
            x, y = map(float, re.search(r'class="gg-mark-line" x="([\d.]+)" y="([\d.]+)"', svg).groups())
            top = rows - max(int(first[1:]), int(second[1:]))
            assert (x - 6, y - 6) == (drawing.PAD + "abcdefgh".index(first[0]) * drawing.CELL, drawing.PAD + top * drawing.CELL)
    assert game.start() == start


def test_the_bottom_rank_is_rank_one_in_a_two_row_board():
    game = domineering(2, 3)
    assert [m.label for m in game.moves(game.cgt_position(0, 1))][:2] == ["H a2-b2", "H b2-c2"]  # the top row
    assert game.parse("V|##./...") in [m.position for m in game.moves(game.cgt_position(0, 1)) if m.label == "H a2-b2"]
    assert [m.position for m in game.moves(game.cgt_position(0, 1)) if m.label == "H a1-b1"] == [game.parse("V|.../##.")]
