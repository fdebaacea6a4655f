"""Dodgem: rules, notation, ranking, and the published outcomes (Winning Ways; desJardins 1996)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import implicit
from explorer.core.errors import InvalidParameter, InvalidPosition
from explorer.games import parse_spec
from explorer.games.dodgem.rules import Dodgem, DodgemParams, DodgemPosition
from explorer.graph import generate
from explorer.solved import build
from explorer.core.values import Value
from tests.support.brute_force import explore, solve_by_definition


def test_start_and_moves_follow_winning_ways():
    game = parse_spec("dodgem")
    start = game.start()
    assert game.format(start) == "A|b../b../.rr"
    # Blue moves right or up/down onto empty squares; Red up or left/right.
    labels = sorted(m.label for m in game.moves(start))
    assert labels == sorted(["a2-b2", "a2-a1", "a3-b3"])
    red = DodgemPosition(1, start.blue, start.red)
    assert sorted(m.label for m in game.moves(red)) == sorted(["b1-b2", "b1-a1", "c1-c2"])
    # Off the far edge: only forward, only from the far column/row.
    edge = game.parse("A|..b/.../r..")
    assert [m.label for m in game.moves(edge)] == ["c3-off", "c3-c2"]
    assert game.format(game.moves(edge)[0].position) == "B|.../.../r.."


def test_no_move_on_your_turn_wins():
    game = parse_spec("dodgem")
    gone = game.parse("A|.../.../r..")  # blue has driven both cars off
    assert game.outcome(gone) == Value.WIN and game.moves(gone) == []
    blocked = game.parse("A|.../r../br.")  # the last blue car is walled in by red cars and the edge
    assert not game.moves(blocked) and game.outcome(blocked) == Value.WIN
    assert game.outcome(game.start()) is None


def test_notation_round_trips_and_rejects_bad_text():
    game = parse_spec("dodgem:4x4")
    assert game.format(game.parse(" b|B.../b.../b.../.rrr ")) == "B|b.../b.../b.../.rrr"
    for text, why in [("A|b../b..", "rows"), ("A|bbbb/..../..../....", "blue cars"), ("X|...", "malformed"), ("", "malformed")]:
        with pytest.raises(InvalidPosition, match=why):
            game.parse(text)
    with pytest.raises(InvalidParameter, match="size=9"):
        Dodgem(DodgemParams(size=9))


def test_no_board_symmetry_is_claimed():
    assert not parse_spec("dodgem").has_symmetry()


@pytest.mark.parametrize("spec", ["dodgem:3x3", "dodgem(size=2)"])
def test_brute_force_definition_equals_both_solvers(spec, tmp_path):
    """3x3 by the fixed-point definition over a plain BFS, against the edge solver and the
    implicit solver; the start is a first-player win in 3x3 (Winning Ways)."""
    game = parse_spec(spec)
    explored = explore(game, symmetry=False)
    expected = solve_by_definition(explored.succ, explored.terminal)
    solved = build(game, symmetry=False)
    values = implicit.solve(game, tmp_path / "v")
    assert solved.graph.num_positions == len(expected)
    for node in range(solved.graph.num_positions):
        position = solved.graph.position(node)
        got = (solved.value(node), int(solved.solution.remoteness[node]))
        assert got == expected[position]
        assert (values.value(position), values.remoteness(position) if got[1] >= 0 else -1) == got
    if spec == "dodgem:3x3":
        assert expected[game.start()][0] == Value.WIN


def test_array_and_generic_paths_agree_on_3x3():
    game = parse_spec("dodgem")
    arrays, generic = generate(game, symmetry=False, use_arrays=True), generate(game, symmetry=False, use_arrays=False)
    assert arrays.num_positions == generic.num_positions and arrays.num_moves == generic.num_moves
    assert sorted(arrays.keys()) == sorted(generic.keys())
    for node in range(0, arrays.num_positions, 97):
        key = arrays.key(node)
        other = generic.find(key)
        assert sorted(arrays.label(e) for e in arrays.edge_range(node)) == \
            sorted(generic.label(e) for e in generic.edge_range(other))


def test_4x4_is_a_draw_and_both_solvers_agree(tmp_path):
    """desJardins (1996): 4x4 never ends with perfect play. Every reachable position of the
    edge graph has the implicit solver's value and remoteness."""
    game = parse_spec("dodgem:4x4")
    solved = build(game, symmetry=False)
    values = implicit.solve(game, tmp_path / "v")
    assert solved.value(0) == Value.DRAW and values.value(game.start()) == Value.DRAW
    codes = solved.graph.codes  # the codes are the ranks
    assert np.array_equal(np.asarray(values.values)[codes], solved.solution.value)
    assert np.array_equal(np.asarray(values.remoteness_array)[codes].astype(np.int32), solved.solution.remoteness)


@functools.cache
def dodgem_5x5():
    """The game and its kernels, made once for every example below (their context tables, built in Python,
    were made again for each of the 200)."""
    game = parse_spec("dodgem:5x5")
    return game, game.implicit_kernels()


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_5x5_ranking_python_equals_compiled(data):
    """The 5x5 ranking (2.4e8 indices) sampled: Python and numba rank/unrank and moves agree."""
    from explorer.games.dodgem import kernels as k

    game, kernels = dodgem_5x5()
    index = data.draw(st.integers(0, game.index_space() - 1))
    position = game.unrank(index)
    assert game.rank(position) == index
    mover, blue, red = k.unrank(kernels.ctx, index)
    assert (mover, blue, red) == (position.to_move, sum(1 << s for s in position.blue), sum(1 << s for s in position.red))
    out = np.empty(kernels.max_unmoves, dtype=np.int64)
    count = kernels.successors(kernels.ctx, index, out)
    assert list(out[:count]) == [game.rank(m.position) for m in game.moves(position)]
    assert kernels.move_count(kernels.ctx, index) == count
    count = kernels.predecessors(kernels.ctx, index, out)
    assert sorted(out[:count]) == sorted(game.rank(p) for p in game.unmoves(position))
    for p in game.unmoves(position):
        assert position in [m.position for m in game.moves(p)]


@pytest.mark.parametrize("spec", ["dodgem:3x3", "dodgem:4x4"])
def test_the_first_pass_walks_every_index_to_the_cells_of_its_moves(spec):
    """Dodgem's own first pass (first_cells: positions walked in rank order, moves counted by bit
    masks) gives every index of the whole index space, and of ranges cut anywhere, the cell
    solve_cells' per-index first pass gives: undecided with its number of moves, or a win when the
    mover has none. The moves are counted from the successors (checked against the rules above),
    one index at a time; the first level's queue is the finished positions in ascending order."""
    from explorer.games.dodgem import kernels as k
    from explorer.kernels.retrograde import (CODE_BITS, FIRST_LEVEL_QUEUED, MORE, OPEN, SCAN, WIN, new_state,
                                             no_seeds)

    kernels = parse_spec(spec).implicit_kernels()
    size = kernels.size
    out = np.empty(kernels.max_unmoves, dtype=np.int64)
    moves = np.array([kernels.successors(kernels.ctx, i, out) for i in range(size)])
    assert all(kernels.move_count(kernels.ctx, i) == moves[i] for i in range(0, size, 7))
    expected = np.where(moves > 0, (moves << CODE_BITS) | OPEN, WIN)
    rng = np.random.default_rng(size)
    ranges = [(0, size), (1, size - 1)] + [tuple(sorted(rng.choice(size + 1, 2, replace=False))) for _ in range(8)]
    seeds, seed_runs = no_seeds()
    for lo, hi in ranges:
        cells = np.empty(hi - lo, dtype=np.uint16)
        queue = np.empty(hi - lo, dtype=np.int32)
        state = new_state()
        status = k.solve(kernels.ctx, kernels.max_unmoves, cells, queue, state, 0, lo, seeds, seed_runs)
        # Stopped after the first pass (MORE), or done where the range holds no finished position (its queue is empty).
        assert status == MORE or (status == 0 and 0 not in moves[lo:hi]), (lo, hi, status)
        assert np.array_equal(cells, expected[lo:hi]), (lo, hi)
        finished = np.flatnonzero(moves[lo:hi] == 0)
        if state[SCAN] < hi - lo:  # a first level of more than a quarter of the range: read from the cells
            assert state[2] == 0 and len(finished) > (hi - lo) // FIRST_LEVEL_QUEUED, (lo, hi)
        else:
            assert np.array_equal(queue[:state[2]], finished), (lo, hi)


@pytest.mark.parametrize("n", [2, 3])
def test_the_ranking_is_tier_first_by_cars_left(n):
    """Tier b*n + r is one range of indices holding every position with b blue and r red cars, Blue's
    turns before Red's, each tier's blue sets then red sets in colex order; the compiled ranking agrees."""
    from explorer.games.dodgem import kernels as k

    game = parse_spec(f"dodgem(size={n})")
    tiers = game.tiers()
    kernels = game.implicit_kernels()
    assert len(tiers.names) == n * n and tiers.offsets[-1] == game.index_space()
    for tier, (lo, hi) in enumerate(zip(tiers.offsets, tiers.offsets[1:])):
        b, r = divmod(tier, n)
        positions = [game.decode(i) for i in range(lo, hi)]
        assert {(len(p.blue), len(p.red)) for p in positions} == {(b, r)}, tiers.names[tier]
        half = (hi - lo) // 2
        assert [p.to_move for p in positions] == [0] * half + [1] * half
        assert positions[:half] == sorted(positions[:half], key=lambda p: (p.blue[::-1], p.red[::-1]))
        for i in range(lo, hi, 5):
            assert k.unrank(kernels.ctx, i)[0] == positions[i - lo].to_move
    assert tiers.names[-1] == f"{n - 1} blue, {n - 1} red car{'s' if n != 2 else ''}"


def test_files_of_the_old_ranking_are_other_files(tmp_path):
    """The ranking's version keys every file of Dodgem's indices (Game.stored_id): the value file's
    folder, the tier folder and the cached graph are not the mover-first ranking's, and a value file
    marked with another version is refused in one line. Games without a version keep their keys."""
    import json

    from explorer import tiered
    from explorer.core import private
    from explorer.core.errors import GameGraphError
    from explorer.solved import CACHE_FORMAT, CACHE_KIND, cache_path

    game = parse_spec("dodgem(size=2)")
    assert game.ranking_version == 2 and game.stored_id == "dodgem(size=2)|ranking 2"
    assert parse_spec("connect4(width=4,height=3)").stored_id == "connect4(width=4,height=3,connect=4)"
    unversioned = f"{implicit.FORMAT}|{game.id}"
    assert implicit.folder_for(game) != private.cache_path(implicit.CACHE_KIND, game.name, unversioned)
    assert tiered.folder_for(game) != private.cache_path(tiered.CACHE_KIND, game.name, f"{tiered.FORMAT}|{game.id}")
    assert cache_path(game, False) != private.cache_path(CACHE_KIND, game.name, f"{CACHE_FORMAT}|{game.id}|False", ".npz")
    folder = tmp_path / "v"
    implicit.solve(game, folder)
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["ranking"] == 2
    implicit.ValueFile(game, folder)  # read
    del meta["ranking"]  # as the mover-first ranking wrote it
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(GameGraphError, match="ranking version 0, not 2"):
        implicit.ValueFile(game, folder)
