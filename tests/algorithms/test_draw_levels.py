"""Draw levels: the compiled pass equals GamesmanClassic's control flow, and both meet the definition."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from explorer.algorithms.draw_levels import (DEAD, DRAW_LOSE, DRAW_WIN, NONPURE, NOT_A_DRAW, _levels_plain,
                                           draw_levels)
from explorer.analysis.draws import SHARP, analyse
from explorer.commands.up import preset_specs
from explorer.games import parse_spec
from explorer.kernels.draw_levels import draw_levels as kernel
from explorer.solved import build
from explorer.solver import solve
from explorer.core.values import Value
from tests.support.brute_force import graph_from_edges
from tests.explorer.test_solver import random_graphs

DRAW, WIN = int(Value.DRAW), int(Value.WIN)


def both(graph, value):
    """(plain, compiled) results for one solved graph."""
    pred_indptr, pred_indices = graph.predecessors_csr
    arrays = (graph.succ_indptr, graph.succ_indices, pred_indptr, pred_indices, value)
    return _levels_plain(*arrays), kernel(*arrays)


def assert_same(plain, compiled):
    for a, b in zip(plain, compiled):
        assert np.array_equal(a, b)


def assert_definition(graph, value, kind, level, remoteness):
    """Each class checked against its children, position by position (GamesmanClassic's SanityCheckDatabase,
    made exact about levels and remoteness)."""
    n = graph.num_positions
    parents: dict[int, list[int]] = {u: [] for u in range(n)}
    for u in range(n):
        for c in graph.successors(u):
            parents[int(c)].append(u)
    for u in range(n):
        children = [int(c) for c in graph.successors(u)]
        if value[u] != DRAW:
            assert kind[u] == NOT_A_DRAW and level[u] == -1 and remoteness[u] == -1
            continue
        wins = [c for c in children if value[c] == WIN]
        if kind[u] == DRAW_WIN:
            best = min((level[c], remoteness[c]) for c in children if kind[c] == DRAW_LOSE)
            assert best == (level[u], remoteness[u] - 1)
        elif kind[u] == DRAW_LOSE:
            assert all(kind[c] != DRAW_LOSE for c in children)  # pure: no pressure both ways
            dwins = [c for c in children if kind[c] == DRAW_WIN]
            if remoteness[u] == 0:
                if level[u] == 0:
                    assert wins
                else:
                    assert not wins and min(level[c] for c in dwins) == level[u] - 1
            else:
                assert not wins and all(kind[c] == DRAW_WIN for c in children if value[c] == DRAW)
                assert {level[c] for c in dwins} == {level[u]}
                assert remoteness[u] == 1 + max(remoteness[c] for c in dwins)
        elif kind[u] == NONPURE:
            assert level[u] == -1 and remoteness[u] == -1
        else:
            assert kind[u] == DEAD and not wins and all(kind[c] == DEAD for c in children)
    # Non-pure spreads to every draw with a move into it.
    for u in np.flatnonzero(kind == NONPURE):
        assert all(kind[p] == NONPURE for p in parents[int(u)] if value[p] == DRAW)


def levels_of(n, edges, terminal):
    graph = graph_from_edges(n, edges, terminal)
    value = solve(graph).value
    plain, compiled = both(graph, value)
    assert_same(plain, compiled)
    assert_definition(graph, value, *plain)
    return [(int(k), int(lv), int(r)) for k, lv, r in zip(*plain)]


def test_hand_made_graphs():
    L = Value.LOSS  # a terminal loss for its mover: moving there wins
    # 0 <-> 1, 0 -> 2 (2 is lost for its mover, so 0 wins): not a draw at all.
    assert levels_of(3, [(0, 1), (1, 0), (0, 2)], {2: L})[:2] == [(NOT_A_DRAW, -1, -1), (NOT_A_DRAW, -1, -1)]
    W = Value.WIN  # a terminal win for its mover: moving there is a blunder
    # a=0 <-> b=1, a -> W=2: a is on the level-0 fringe, b presses it.
    assert levels_of(3, [(0, 1), (1, 0), (0, 2)], {2: W})[:2] == [(DRAW_LOSE, 0, 0), (DRAW_WIN, 0, 1)]
    # ... and c=3 <-> d=4, c -> b: c can hand its opponent the level-0 draw-win, a level-1 fringe.
    result = levels_of(5, [(0, 1), (1, 0), (0, 2), (3, 4), (4, 3), (3, 1)], {2: W})
    assert result[3:] == [(DRAW_LOSE, 1, 0), (DRAW_WIN, 1, 1)]
    # p=0 and c=1 both can blunder and both move to each other: pressure both ways, non-pure.
    assert levels_of(3, [(0, 2), (0, 1), (1, 2), (1, 0)], {2: W})[:2] == [(NONPURE, -1, -1)] * 2
    # A cycle with no way out: dead.
    assert levels_of(2, [(0, 1), (1, 0)], {}) == [(DEAD, -1, -1)] * 2


@settings(max_examples=300, deadline=None)
@given(random_graphs(max_nodes=18))
def test_random_graphs_agree_and_meet_the_definition(case):
    levels_of(*case)


@pytest.mark.parametrize("seed", range(8))
def test_big_random_graphs_agree_and_meet_the_definition(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(300, 2000))
    kinds = rng.choice(3, size=n, p=[0.9, 0.02, 0.08])  # move, loss, win
    terminal = {u: (None, Value.LOSS, Value.WIN)[k] for u, k in enumerate(kinds) if k}
    edges = [(u, int(v)) for u in range(n) if u not in terminal
             for v in rng.integers(max(0, u - 12), min(n, u + 12), size=int(rng.integers(1, 4)))]
    result = levels_of(n, edges, terminal)
    kinds_seen = {k for k, _, _ in result}
    assert DRAW_WIN in kinds_seen or NONPURE in kinds_seen  # the case is not degenerate


def test_random_graphs_reach_every_class_and_several_levels():
    """The generator above is strong enough to find what the definition distinguishes."""
    seen, levels = set(), set()
    for seed in range(40):
        rng = np.random.default_rng(1000 + seed)
        n = 60
        terminal = {u: Value.WIN for u in rng.choice(n, size=3, replace=False).tolist()}
        edges = [(u, int(v)) for u in range(n) if u not in terminal
                 for v in rng.integers(0, n, size=int(rng.integers(1, 3)))]
        for k, lv, _ in levels_of(n, edges, terminal):
            seen.add(k)
            levels.add(lv)
    assert {DRAW_WIN, DRAW_LOSE, NONPURE, DEAD} <= seen and max(levels) >= 2


LOOPY = [spec for spec in preset_specs() if parse_spec(spec).name not in ("tictactoe", "nim", "domineering",
                                                                          "toads-and-frogs")]


@pytest.mark.parametrize("spec", LOOPY)
def test_every_loopy_preset(spec):
    solved = build(spec)
    graph, value = solved.graph, solved.solution.value
    plain, compiled = both(graph, value)
    assert_same(plain, compiled)
    assert_definition(graph, value, *plain)
    result = draw_levels(solved.graph, solved.solution.value)
    assert_same(plain, (result.kind, result.level, result.remoteness))
    # The level-0 fringe is exactly the sharp draws that stayed pure.
    sharp = analyse(solved).kind == SHARP
    fringe = (result.kind == DRAW_LOSE) & (result.level == 0) & (result.remoteness == 0)
    assert np.array_equal(fringe, sharp & (result.kind != NONPURE))
    assert sum(row["positions"] for row in result.table()) == int((value == DRAW).sum())


def test_pong_hau_ki_is_pure_at_level_zero():
    """Pong Hau K'i: 24 drawn positions, half of them a move from blundering, the other half pressing."""
    result = draw_levels(build("ponghauki").graph, build("ponghauki").solution.value)
    assert result.counts() == {"draw-win": 12, "draw-lose": 12, "non-pure": 0, "dead": 0}
    assert set(result.level[result.level >= 0].tolist()) == {0}
