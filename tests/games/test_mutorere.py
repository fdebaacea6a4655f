"""Mū tōrere against its published analyses (cited in explorer/games/mutorere.py).

The figures are checked against two independent computations: the solver on
the generated graph, and the fixed-point definition (tests/support/brute_force.py) on a
graph explored here by plain BFS over the rules.
"""

from __future__ import annotations

from collections import Counter

import pytest

from explorer.core.errors import InvalidPosition
from explorer.games import parse_spec
from explorer.solved import build
from explorer.core.values import Value
from tests.support.brute_force import explore, solve_by_definition

GAME = parse_spec("mutorere")


def definition_counts(symmetry: bool) -> tuple[int, Counter, Value]:
    explored = explore(GAME, symmetry=symmetry)
    solved = solve_by_definition(explored.succ, explored.terminal)
    counts = Counter(str(v) for v, _ in solved.values())
    start = GAME.canonical(GAME.start()) if symmetry else GAME.start()
    return len(solved), counts, solved[start][0]


def test_gamescrafters_counts_without_symmetry():
    """GamesCrafters (quoted by Wikipedia): 1180 reachable positions, 208 wins, 128 losses, 844 draws; start a draw."""
    published = (1180, {"win": 208, "loss": 128, "draw": 844}, Value.DRAW)
    size, counts, start = definition_counts(symmetry=False)
    assert (size, dict(counts), start) == published
    solved = build(GAME, symmetry=False)
    assert solved.graph.num_positions == 1180
    assert {k: v for k, v in solved.solution.counts().items() if v} == published[1]
    assert solved.value(0) == Value.DRAW


def test_scientific_gems_86_states_up_to_symmetry():
    """Smith (2018): 86 reachable states up to symmetry: 40 boards with either mover, plus 6 lost boards."""
    solved = build(GAME, symmetry=True)
    assert solved.graph.num_positions == 86 == definition_counts(symmetry=True)[0]
    movers = Counter(solved.graph.position(u).cells for u in range(86))
    both = [board for board, n in movers.items() if n == 2]
    once = [board for board, n in movers.items() if n == 1]
    assert (len(both), len(once)) == (40, 6)
    lost = {solved.graph.position(u).cells for u in range(86) if solved.graph.terminal[u] >= 0}
    assert set(once) == lost


def test_jelliss_46_boards_up_to_rotation_and_reflection():
    """Jelliss: 46 distinct boards (8 centre empty, 19 black centre, 19 white centre); Ascher's 92 = 46 x 2 movers."""
    boards = {GAME.canonical(p).cells for p in GAME.iter_positions()}
    assert len(boards) == 46
    assert Counter(b[8] for b in boards) == {".": 8, "B": 19, "W": 19}
    assert len({GAME.canonical(p) for p in GAME.iter_positions()}) == 92
    assert len(list(GAME.iter_positions())) == 2 * 630  # 70 + 280 + 280 boards, either mover


def test_the_putahi_rule():
    # At the start only kewai 1 and 4 touch a white piece, so only they may enter the centre.
    start = GAME.start()
    assert sorted(m.label for m in GAME.moves(start)) == ["1>c", "4>c"]
    free = parse_spec("mutorere:free-putahi")
    assert sorted(m.label for m in free.moves(start)) == ["1>c", "2>c", "3>c", "4>c"]
    # Without the rule Black blocks White at once by moving 2 (or 3) into the centre: the reason for the rule.
    assert build(free).value(0) == Value.WIN and build(free).remoteness(0) == 1


def test_moves_along_the_ring_and_out_of_the_centre():
    p = GAME.parse("W|BBB.WWWW/B")
    assert sorted(m.label for m in GAME.moves(p)) == ["5>4"]
    p = GAME.parse("B|BBB.WWWW/B")
    assert sorted(m.label for m in GAME.moves(p)) == ["3>4", "c>4"]
    lost = GAME.parse("W|WWWWB.BB/B")  # the empty kewai 6 lies between black pieces, the centre is black
    assert GAME.outcome(lost) == Value.LOSS and GAME.moves(lost) == []
    assert GAME.outcome(GAME.parse("B|WWWWB.BB/B")) is None


def test_unmoves_invert_moves():
    for p in GAME.iter_positions():
        for move in GAME.moves(p):
            assert p in GAME.unmoves(move.position)
        for before in GAME.unmoves(p):
            assert p in [m.position for m in GAME.moves(before)]


@pytest.mark.parametrize("text,why", [("B|BBBBWWWW", "9 points"), ("X|BBBBWWWW/.", "mover"),
                                      ("B|BBBBBWWW/.", "holds 4"), ("B|BBBBWWW../W", "9 points")])
def test_bad_notation(text, why):
    with pytest.raises(InvalidPosition, match=why):
        GAME.parse(text)


def test_scientific_gems_traps():
    """Smith (2018): for each player one "big trap" (a forced win in 5) and four "small traps"
    (a win in 1), up to symmetry; no longer forced win exists."""
    solved = build(GAME, symmetry=True)
    for player in (0, 1):
        wins = Counter(solved.remoteness(u) for u in range(solved.graph.num_positions)
                       if solved.graph.to_move[u] == player and solved.value(u) == Value.WIN)
        assert wins[5] == 1 and wins[1] == 4 and max(wins) == 5
