"""Pong Hau K'i against Straffin's analysis (Mathematics Magazine 68, 1995; see explorer/games/ponghauki.py).

Straffin's position graph itself is not reproduced here; the facts checked
are those the secondary sources quote from it: a draw, three forced opening
moves, one kind of lost position, and two-move lookahead enough not to lose.
Each is checked on the solver's graph and, where a value is involved, against
the fixed-point definition on an independently explored graph.
"""

from __future__ import annotations

from collections import Counter

from explorer.games import parse_spec
from explorer.games.blocking import BoardPosition
from explorer.solved import build
from explorer.core.values import Value
from tests.support.brute_force import explore, solve_by_definition

GAME = parse_spec("ponghauki")


def swap_colours(p: BoardPosition) -> BoardPosition:
    return BoardPosition(1 - p.to_move, p.cells.translate(str.maketrans("RB", "BR")))


def test_start_is_a_draw_by_solver_and_definition():
    explored = explore(GAME, symmetry=False)
    solved = solve_by_definition(explored.succ, explored.terminal)
    assert solved[GAME.start()][0] == Value.DRAW
    assert build(GAME).value(0) == Value.DRAW == build(GAME, symmetry=False).value(0)


def test_board_and_reachable_counts():
    # 5 places for the gap times C(4,2) ways to colour the rest: 30 boards, 60 positions with the mover.
    assert len(list(GAME.iter_positions())) == 60
    full = build(GAME, symmetry=False)
    unreachable = set(GAME.iter_positions()) - {full.graph.position(u) for u in range(full.graph.num_positions)}
    # Unreachable: the lost positions of the player who moved last (they could not have moved into them).
    assert all(GAME.outcome(swap_colours(p)) is None for p in unreachable)
    assert len(unreachable) == 60 - full.graph.num_positions


def test_the_first_three_moves_are_forced():
    solved = build(GAME, symmetry=True)
    node = 0
    for _ in range(3):
        successors = solved.graph.successors(node)
        assert len(successors) == 1  # Red's two first moves are mirror images
        node = int(successors[0])
    # After them play reaches the start position's colour-swap (Red's pieces where Blue's began, mirrored).
    assert solved.graph.position(node).to_move == 1


def test_only_one_kind_of_position_is_lost():
    lost = [p for p in GAME.iter_positions() if GAME.outcome(p) is not None]
    kinds = {min(GAME.canonical(p), GAME.canonical(swap_colours(p))) for p in lost}
    assert len(kinds) == 1
    (kind,) = kinds
    # The loser's pieces hold one side line; the gap is the other bottom corner, shut in by the
    # opponent on the centre and the corner above it (e.g. R|BR/B/.R).
    assert kind.cells[2] != "." and "." in (kind.cells[3], kind.cells[4])


def test_two_move_lookahead_never_loses():
    """Straffin: every losing move from a drawn position is punished at once (the opponent wins in 1)."""
    solved = build(GAME, symmetry=False)
    g = solved.graph
    mistakes = Counter()
    for u in range(g.num_positions):
        if solved.value(u) != Value.DRAW:
            continue
        for v in g.successors(u).tolist():
            if solved.value(v) != Value.DRAW:
                assert solved.value(v) == Value.WIN and solved.remoteness(v) == 1, g.key(v)
                mistakes[g.key(u)] += 1
    assert mistakes  # there are mistakes to avoid


def test_notation_and_moves():
    start = GAME.parse("R|BB/./RR")
    assert start == GAME.start()
    assert sorted(m.label for m in GAME.moves(start)) == ["bl>c", "br>c"]
    assert GAME.format(GAME.canonical(GAME.parse("B|R./B/BR"))) == GAME.format(GAME.canonical(GAME.parse("B|.R/B/RB")))
