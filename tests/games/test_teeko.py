"""Teeko: goals, notation, the tiered ranking, the compiled kernels, un-moves, and the solvers.

Rules and published results: Guy L. Steele Jr., "Summary of the solving of the game of
Teeko" (1999), https://pcarrier.com/teeko/archives/text/teeko-summary.txt: standard Teeko
(44 goals) is a draw, advanced Teeko (58 goals) a first-player win. The full games are
checked against those results by the long test at the end (GAMEGRAPH_LONG=1).
"""

from __future__ import annotations

import functools
import os
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import implicit
from explorer.core.errors import InvalidParameter, InvalidPosition
from explorer.core.values import Value
from explorer.games import parse_spec
from explorer.games.teeko.rules import STEELE_SUMMARY, Teeko, TeekoParams, TeekoPosition, neighbours, winning_shapes
from explorer.solved import build
from tests.support.brute_force import explore, solve_by_definition

SMALL = "teeko:small"                  # 3x3, three pieces each, three in a row (5,710 indices)
REDUCED = "teeko(size=4,pieces=3)"     # 4x4, three pieces each (376,857 indices)
SQUARES = ["teeko(size=4)", "teeko(size=4,rules=advanced)", "teeko", "teeko:advanced"]  # four pieces: squares


def cells_of(mask: int) -> tuple[int, ...]:
    return tuple(c for c in range(mask.bit_length()) if mask >> c & 1)


# -- goals ---------------------------------------------------------------------------------
def test_goal_counts_are_scarnes_44_and_58():
    """Steele: standard Teeko has 44 goal configurations, advanced 58 (the 14 larger squares)."""
    standard, advanced = winning_shapes(5, 4, "standard"), winning_shapes(5, 4, "advanced")
    assert len(set(standard)) == 44 and len(set(advanced)) == 58 and set(standard) < set(advanced)
    lines = [s for s in standard if _is_line(s, 5)]
    assert len(lines) == 28  # 10 horizontal, 10 vertical, 8 diagonal
    extra = set(advanced) - set(standard)
    spans = sorted(max(c % 5 for c in cells_of(s)) - min(c % 5 for c in cells_of(s)) for s in extra)
    assert spans == [2] * 9 + [3] * 4 + [4]  # the 3x3, 4x4 and 5x5 squares' corners
    assert len(winning_shapes(3, 3, "standard")) == 8 and winning_shapes(3, 3, "advanced") == winning_shapes(3, 3, "standard")
    assert STEELE_SUMMARY.startswith("https://")


def _is_line(mask: int, n: int) -> bool:
    cells = cells_of(mask)
    steps = {b - a for a, b in zip(cells, cells[1:])}
    return len(steps) == 1


def _red_elsewhere(game: Teeko, shape: int) -> tuple[int, ...]:
    """Four red cells off the goal that form no goal themselves."""
    free = [c for c in range(game.cells) if not shape >> c & 1]
    for red in combinations(free, game.pieces):
        if not game.won(red):
            return red
    raise AssertionError("no red placement")


@pytest.mark.parametrize("rules", ["standard", "advanced"])
def test_every_goal_wins_and_only_goals_win(rules):
    game = parse_spec(f"teeko:{rules}")
    for shape in winning_shapes(5, 4, "advanced"):
        black = cells_of(shape)
        position = TeekoPosition(1, black, _red_elsewhere(game, shape))  # Black just completed it
        counts = rules == "advanced" or shape in winning_shapes(5, 4, "standard")
        assert game.won(black) == counts
        if counts:
            assert game.outcome(position) == Value.LOSS and game.moves(position) == []
        else:
            assert game.outcome(position) is None and game.moves(position)
    # Four pieces that are no goal: a bent line, a tilted square, a 2x3 rectangle's corners.
    for cells in [(0, 1, 2, 8), (2, 6, 8, 12), (0, 3, 5, 8)]:
        assert not game.won(cells)


def test_three_pieces_win_with_three_in_a_row_only():
    game = parse_spec(SMALL)
    assert game.outcome(game.parse("R|b.r/.br/..b")) == Value.LOSS     # diagonal
    assert game.outcome(game.parse("B|rrr/.b./b.b")) == Value.LOSS     # Red's top row
    assert game.outcome(game.parse("B|r.r/bb./.br")) is None            # an L is not a goal
    with pytest.raises(InvalidParameter, match="pieces=4 is too many for size=3"):
        TeekoParams(size=3, pieces=4)


# -- moves -----------------------------------------------------------------------------------
def test_drops_then_king_steps():
    game = parse_spec("teeko")
    start = game.start()
    assert game.format(start) == "B|...../...../...../...../....."
    drops = game.moves(start)
    assert len(drops) == 25 and drops[0].label == "a1" and drops[12].label == "c3"
    assert game.format(drops[12].position) == "R|...../...../..b../...../....."
    # Red's last drop starts the movement phase with Black to move.
    last = game.parse("R|b..../.b.../..r../...br/rb...")
    after = {m.label: game.format(m.position) for m in game.moves(last)}
    assert len(after) == 25 - 7 and after["e5"] == "B|b...r/.b.../..r../...br/rb..."
    moving = game.parse("B|b...r/.b.../..r../...br/rb...")
    labels = [m.label for m in game.moves(moving)]
    assert "a5-a4" in labels and "a5-b5" in labels and "b4-c3" not in labels  # c3 is red
    occupied = {game_cell(n) for n in ("a5", "b4", "d2", "b1", "e5", "c3", "e2", "a1")}
    steps = [(a, b) for a in sorted(game_cell(n) for n in ("a5", "b4", "d2", "b1")) for b in range(25)
             if b not in occupied and max(abs(a // 5 - b // 5), abs(a % 5 - b % 5)) == 1]
    assert [(game_cell(l[:2]), game_cell(l[3:])) for l in labels] == steps
    assert all(game.format(m.position).startswith("R|") for m in game.moves(moving))


def game_cell(name: str) -> int:
    return (int(name[1:]) - 1) * 5 + "abcde".index(name[0])


def test_a_walled_in_player_never_happens_on_the_published_board():
    """The rule 'no legal move loses' is for tiny boards: on 5x5 every four cells that are no goal
    have at least five king neighbours off them, more than Red's four pieces can fill."""
    nb = neighbours(5)
    goals = set(winning_shapes(5, 4, "standard"))
    for cells in combinations(range(25), 4):
        mask = sum(1 << c for c in cells)
        if mask in goals:
            continue
        around = 0
        for c in cells:
            around |= nb[c]
        assert bin(around & ~mask).count("1") >= 5, cells


# -- notation --------------------------------------------------------------------------------
def test_notation_round_trips_and_rejects_bad_text():
    game = parse_spec("teeko")
    text = "B|b...r/.b.../..r../...br/rb..."
    assert game.format(game.parse(text)) == text
    assert game.format(game.parse(" r | ..... / ..... / ..B.. / ..... / ..... ")) == "R|...../...../..b../...../....."
    bad = [("B|...../.....", "5 rows of 5 cells"), ("X|...../...../...../...../.....", "malformed"),
           ("", "malformed"), ("R|bbbbb/...../...../...../rrrr.", "5 black pieces"),
           ("B|bb.../...../...../...../.....", "Black first"),
           ("B|b..../...../...../...../.....", "Red is to move after 1 black and 0 red drops"),
           ("R|br.../...../...../...../.....", "Black is to move"),
           ("R|bbbb./...../...../...../rrrr.", "both players have a winning shape"),
           ("B|bbbb./...../r.r../...../r.r..", "Black is to move but already has a winning shape")]
    for text, why in bad:
        with pytest.raises(InvalidPosition) as info:
            game.parse(text)
        assert why in str(info.value) and len(str(info.value).splitlines()) == 1, str(info.value)


# -- ranking and tiers -----------------------------------------------------------------------
def test_index_space_per_tier():
    """Tier k: C(25, ceil(k/2)) * C(25 - ceil(k/2), floor(k/2)); movement: 2 * C(25,4) * C(21,4)."""
    tiers = parse_spec("teeko").tiers()
    sizes = [b - a for a, b in zip(tiers.offsets, tiers.offsets[1:])]
    assert sizes == [1, 25, 600, 6900, 75900, 531300, 3542000, 16824500, 151420500]
    assert tiers.names[0] == "0 pieces dropped" and tiers.names[-1] == "movement"
    assert tiers.children == ((1,), (2,), (3,), (4,), (5,), (6,), (7,), (8,), ())
    assert parse_spec("teeko").index_space() == 172_401_726
    small = parse_spec(SMALL).tiers()
    assert [b - a for a, b in zip(small.offsets, small.offsets[1:])] == [1, 9, 72, 252, 756, 1260, 3360]


def test_rank_round_trips_on_every_index_of_the_small_game():
    game = parse_spec(SMALL)
    for i in range(game.index_space()):
        position = game.unrank(i)
        assert game.rank(position) == i
        if game.is_valid_index(i):
            assert game.parse(game.format(position)) == position
        else:  # the player to move already has a goal
            assert game.won(position.black if position.to_move == 0 else position.red)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), spec=st.sampled_from(SQUARES))
def test_rank_round_trips_on_random_indices(data, spec):
    game = parse_spec(spec)
    index = data.draw(st.integers(0, game.index_space() - 1))
    position = game.unrank(index)
    assert game.rank(position) == index


@functools.cache
def kernel_rows(spec: str):
    game = parse_spec(spec)
    k = game.implicit_kernels()
    out = np.empty(max(k.max_moves, k.max_unmoves), dtype=np.int64)
    labels = np.empty(k.max_moves, dtype=np.int64)
    rows = []
    for i in range(k.size):
        count = k.labelled_successors(k.ctx, i, out, labels)
        succ, names = list(out[:count]), [game.batch_label(x) for x in labels[:count]]
        count = k.predecessors(k.ctx, i, out)
        rows.append((succ, names, list(out[:count]), k.move_count(k.ctx, i), k.terminal(k.ctx, i), k.valid(k.ctx, i)))
    return rows


def brute_force_unmoves(game) -> dict[int, set[int]]:
    preds: dict[int, set[int]] = {i: set() for i in range(game.index_space())}
    for i in range(game.index_space()):
        if game.is_valid_index(i) and game.outcome(game.unrank(i)) is None:
            for move in game.moves(game.unrank(i)):
                preds[game.rank(move.position)].add(i)
    return preds


def test_unmoves_and_kernels_equal_brute_force_on_every_index_of_the_small_game():
    game = parse_spec(SMALL)
    expected = brute_force_unmoves(game)
    tiers = game.tiers()
    for i, (succ, names, preds, count, terminal, valid) in enumerate(kernel_rows(SMALL)):
        assert valid == game.is_valid_index(i)
        if not valid:
            continue
        position = game.unrank(i)
        got = [game.rank(p) for p in game.unmoves(position)]
        assert len(got) == len(set(got)) and set(got) == expected[i], game.format(position)
        assert len(preds) == len(set(preds)) and set(preds) == expected[i], game.format(position)
        outcome = game.outcome(position)
        moves = game.moves(position)
        assert terminal == (-1 if outcome is None else int(outcome))
        assert succ == [game.rank(m.position) for m in moves] and names == [m.label for m in moves]
        assert count == len(moves)
        tier = int(np.searchsorted(tiers.offsets, i, side="right")) - 1
        for target in succ:  # every move stays in its tier or goes to a declared child
            to = int(np.searchsorted(tiers.offsets, target, side="right")) - 1
            assert to == tier or to in tiers.children[tier]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), spec=st.sampled_from(SQUARES + [REDUCED]))
def test_kernels_equal_the_rules_on_random_indices(data, spec):
    """The full games (both rule sets) and 4x4 with squares, sampled: numba and Python agree."""
    game = parse_spec(spec)
    k = game.implicit_kernels()
    index = data.draw(st.integers(0, game.index_space() - 1))
    position = game.unrank(index)
    valid = k.valid(k.ctx, index)
    assert valid == game.is_valid_index(index)
    if not valid:
        return
    out = np.empty(max(k.max_moves, k.max_unmoves), dtype=np.int64)
    count = k.successors(k.ctx, index, out)
    assert list(out[:count]) == [game.rank(m.position) for m in game.moves(position)]
    assert k.move_count(k.ctx, index) == count
    outcome = game.outcome(position)
    assert k.terminal(k.ctx, index) == (-1 if outcome is None else int(outcome))
    count = k.predecessors(k.ctx, index, out)
    before = [game.rank(p) for p in game.unmoves(position)]
    assert sorted(out[:count]) == sorted(before) and len(set(before)) == len(before)
    for p in game.unmoves(position):  # each un-move is a legal unfinished position with a move here
        assert game.is_valid_index(game.rank(p)) and game.outcome(p) is None
        assert position in [m.position for m in game.moves(p)]


# -- the board drawing (explorer/ui/boards/teeko.py) ------------------------------------------
def test_every_move_is_one_link_on_the_board():
    """Drops are links on empty points, steps are arrows; the SVG parses (a tenth of the small game)."""
    import re
    import xml.dom.minidom

    from explorer.ui.boards import teeko as board

    game = parse_spec(SMALL)
    for position in list(explore(game, symmetry=False).succ)[::10]:  # every tenth, drops and steps
        links = {m.label: f"?game=teeko&pos={i}" for i, m in enumerate(game.moves(position))}
        svg = board.svg(game, position, links)
        xml.dom.minidom.parseString(svg)
        assert sorted(re.findall(r'data-move="([^"]+)"', svg)) == sorted(links)
    assert "Black to move" in board.svg(game, game.start(), {})


# -- solving ---------------------------------------------------------------------------------
def test_small_game_by_definition_equals_the_edge_solver():
    """3x3 with three pieces: the fixed-point definition over a plain BFS, position by position."""
    game = parse_spec(SMALL)
    explored = explore(game, symmetry=False)
    expected = solve_by_definition(explored.succ, explored.terminal)
    solved = build(game, symmetry=False)
    assert solved.graph.num_positions == len(expected)
    for node in range(solved.graph.num_positions):
        assert (solved.value(node), int(solved.solution.remoteness[node])) == expected[solved.graph.position(node)]
    assert expected[game.start()][0] == Value.DRAW


def test_implicit_solve_equals_the_edge_solver_on_every_reachable_position(tmp_path):
    """4x4 with three pieces (drops, movement, wins and draws): the one-tier case of the solver
    (explorer.implicit.solve) against the edge solver (explorer.solved) on every reachable position."""
    game = parse_spec(REDUCED)
    values = implicit.solve(game, tmp_path / "v")
    solved = build(game, symmetry=False)
    codes = solved.graph.codes  # the codes are the ranks
    assert np.array_equal(np.asarray(values.values)[codes], solved.solution.value)
    assert np.array_equal(np.asarray(values.remoteness_array)[codes].astype(np.int32), solved.solution.remoteness)
    counts = solved.solution.counts()
    assert counts["win"] and counts["loss"] and counts["draw"]
    assert solved.value(0) == Value.WIN  # three in a row on 4x4: Black's third drop, unstoppable
    assert solved.remoteness(0) == 5


# -- the published results (long: about 1.7e8 indices each) ----------------------------------
@pytest.mark.skipif(os.environ.get("GAMEGRAPH_LONG") != "1", reason="long solve: set GAMEGRAPH_LONG=1")
@pytest.mark.parametrize("preset, value, remoteness", [("standard", Value.DRAW, None), ("advanced", Value.WIN, 13)])
def test_published_results(preset, value, remoteness, tmp_path):
    """Steele (1999), https://pcarrier.com/teeko/archives/text/teeko-summary.txt: "Standard Teeko
    (44 goal positions), as defined by John Scarne, is a draw. Advanced Teeko (58 goal positions)
    is a first-player win"; in 13 turns, by the table of https://mathworld.wolfram.com/Teeko.html.
    Solved by the tiered solver where it exists, else the implicit mode (about 22 minutes each for
    the implicit mode on a busy 2-core machine)."""
    game = parse_spec(f"teeko:{preset}")
    try:
        from explorer import tiered
    except ImportError:
        result = implicit.solve(game, tmp_path / "v")
    else:
        result = tiered.solve(game, tmp_path / "v")
    assert result.value(game.start()) == value
    if remoteness is not None:
        assert result.remoteness(game.start()) == remoteness


# -- the description (the page's header) -------------------------------------------------------
@pytest.mark.parametrize("size, pieces, rules", [(3, 3, "standard"), (4, 3, "standard"), (4, 4, "advanced"),
                                                 (5, 3, "standard"), (5, 4, "standard"), (5, 4, "advanced")])
def test_the_description_is_the_game_these_parameters_make(size, pieces, rules):
    """A reduced board says its size and pieces, from the parameters (not a text per preset)."""
    game = Teeko(TeekoParams(rules=rules, size=size, pieces=pieces))
    count = {3: "three", 4: "four"}[pieces]
    assert f"{size}x{size} board" in game.description and f"{count} pieces each" in game.description
    assert f"{count} in a row" in game.description
    assert ("corners of any square" in game.description) == (rules == "advanced" and pieces == 4)
    assert ("reduced" in game.description) == ((size, pieces) != (5, 4))
    assert Teeko.description.startswith("John Scarne's Teeko")  # the class keeps the full game's, for lists
