"""The solver against independent references: random graphs with cycles, and every shipped game.

References live in tests/support/brute_force.py: the depth-bounded fixed-point
definition (a), memoised minimax (b) for tic-tac-toe, and Bouton's theorem for Nim.
"""

from __future__ import annotations

import functools
import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.games import parse_spec
from explorer.games.chopsticks.rules import Chopsticks
from explorer.graph import generate
from explorer.algorithms.reverse import reverse_csr_scipy
from explorer.solver import solve_levels
from explorer.solver import solve
from explorer.core.values import Value
from tests.support.brute_force import (explore, graph_adjacency, graph_from_edges, minimax, optimal_by_definition,
                               solve_by_definition)

WIN, LOSS, TIE, DRAW = Value.WIN, Value.LOSS, Value.TIE, Value.DRAW
CHOPSTICKS_PRESETS = sorted(Chopsticks.presets)


# -- random graphs --------------------------------------------------------------
@st.composite
def random_graphs(draw, max_nodes: int = 14):
    """(num_nodes, edges, terminal): cycles, self-loops, terminal wins/losses/ties;
    every non-terminal node has at least one move, terminal nodes none."""
    n = draw(st.integers(1, max_nodes))
    kinds = draw(st.lists(st.sampled_from(["move", "move", "move", "loss", "win", "tie"]), min_size=n, max_size=n))
    terminal = {u: {"loss": LOSS, "win": WIN, "tie": TIE}[k] for u, k in enumerate(kinds) if k != "move"}
    edges = []
    for u in range(n):
        if u not in terminal:
            targets = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4))
            edges += [(u, v) for v in targets]
    return n, edges, terminal


def solved_pair(n, edges, terminal, merge=True):
    graph = graph_from_edges(n, edges, terminal, merge=merge)
    return graph, solve(graph)


def assert_matches_plain(graph, solution):
    """The compiled solver equals the plain level-by-level numpy one, array for array."""
    plain = solve_levels(graph)
    assert np.array_equal(solution.value, plain.value)
    assert np.array_equal(solution.remoteness, plain.remoteness)
    assert np.array_equal(solution.optimal, plain.optimal)
    ours, scipy_ = graph.predecessors_csr, reverse_csr_scipy(graph.num_positions, graph.succ_indptr, graph.succ_indices)
    assert np.array_equal(ours[0], scipy_[0]) and np.array_equal(ours[1], scipy_[1])
    assert (solution.value.dtype, solution.remoteness.dtype, solution.optimal.dtype) == (np.int8, np.int32, bool)


def assert_matches_definition(graph, solution):
    assert_matches_plain(graph, solution)
    succ, terminal = graph_adjacency(graph)
    expected = solve_by_definition(succ, terminal)
    for u in range(graph.num_positions):
        got = (Value(int(solution.value[u])), int(solution.remoteness[u]))
        assert got == expected[u], f"node {u}: solver {got}, definition {expected[u]}; succ={succ}, terminal={terminal}"
    optimal = optimal_by_definition(succ, expected)
    sources = graph.edge_sources()
    for e in range(graph.num_moves):
        edge = (int(sources[e]), int(graph.succ_indices[e]))
        assert bool(solution.optimal[e]) == (edge in optimal), f"edge {edge}: optimal={solution.optimal[e]}"


def assert_invariants(graph, solution):
    """The defining properties of each value, checked position by position."""
    value, rem = solution.value, solution.remoteness
    sources = graph.edge_sources()
    for u in range(graph.num_positions):
        v, r = Value(int(value[u])), int(rem[u])
        kids = [int(c) for c in graph.successors(u)]
        kid_vals = [Value(int(value[c])) for c in kids]
        kid_rems = [int(rem[c]) for c in kids]
        if graph.terminal[u] >= 0:
            assert (v, r) == (Value(int(graph.terminal[u])), 0)
            assert not kids
            continue
        assert kids, f"non-terminal node {u} without moves"
        losses = [kr for kv, kr in zip(kid_vals, kid_rems) if kv == LOSS]
        ties = [kr for kv, kr in zip(kid_vals, kid_rems) if kv == TIE]
        if v == WIN:
            assert r >= 1 and losses and min(losses) == r - 1, (u, r, losses)
        elif v == LOSS:
            assert all(kv == WIN for kv in kid_vals), (u, kid_vals)
            assert max(kid_rems) == r - 1, (u, r, kid_rems)
        elif v == TIE:
            assert not losses, (u, "a tie with a winning move")
            assert r >= 1 and ties and min(ties) == r - 1, (u, r, ties)
        else:
            assert r == -1
            assert not losses and not ties, (u, kid_vals)
            assert DRAW in kid_vals, (u, "a draw must keep a move to a draw")
            assert not all(kv == WIN for kv in kid_vals)
    # Optimal moves: keep the value, at remoteness r-1 (any draw-keeping move for draws).
    for e in range(graph.num_moves):
        u, c = int(sources[e]), int(graph.succ_indices[e])
        keeps = Value(int(value[c])).for_previous_player() == Value(int(value[u]))
        on_time = value[u] == DRAW or rem[c] == rem[u] - 1
        assert bool(solution.optimal[e]) == (keeps and on_time), (u, c)
    # Every non-terminal position has at least one optimal move.
    has_optimal = np.zeros(graph.num_positions, dtype=bool)
    has_optimal[sources[solution.optimal]] = True
    assert np.all(has_optimal | (graph.terminal >= 0))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_graphs())
def test_random_graphs_match_definition(case):
    graph, solution = solved_pair(*case)
    assert_matches_definition(graph, solution)
    assert_invariants(graph, solution)


@settings(max_examples=150, deadline=None)
@given(random_graphs(max_nodes=40))
def test_larger_random_graphs_match_definition(case):
    graph, solution = solved_pair(*case)
    assert_matches_definition(graph, solution)
    assert_invariants(graph, solution)


@settings(max_examples=100, deadline=None)
@given(random_graphs())
def test_parallel_edges_change_nothing(case):
    n, edges, terminal = case
    _, merged = solved_pair(n, edges, terminal, merge=True)
    graph, parallel = solved_pair(n, edges + edges, terminal, merge=False)
    assert_matches_plain(graph, parallel)
    assert np.array_equal(merged.value, parallel.value)
    assert np.array_equal(merged.remoteness, parallel.remoteness)


@pytest.mark.parametrize("seed", range(6))
def test_big_random_graphs_match_definition(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 1500))
    kinds = rng.choice(4, size=n, p=[0.82, 0.08, 0.05, 0.05])  # move, loss, win, tie
    terminal = {u: (None, LOSS, WIN, TIE)[k] for u, k in enumerate(kinds) if k}
    edges = []
    for u in range(n):
        if u not in terminal:
            degree = int(rng.integers(1, 5))
            local = rng.integers(max(0, u - 30), min(n, u + 30), size=degree)  # long chains, many cycles
            edges += [(u, int(v)) for v in local]
    graph, solution = solved_pair(n, edges, terminal)
    assert_matches_definition(graph, solution)
    assert_invariants(graph, solution)
    assert len(set(solution.value.tolist())) >= 3  # the case is not degenerate


# -- hand-made graphs whose answers are obvious -------------------------------------
def values_of(n, edges, terminal):
    _, solution = solved_pair(n, edges, terminal)
    return [(str(Value(int(v))), int(r)) for v, r in zip(solution.value, solution.remoteness)]


def test_hand_made_graphs():
    # 0 -> 1 (loss): win in 1.
    assert values_of(2, [(0, 1)], {1: LOSS}) == [("win", 1), ("loss", 0)]
    # A pure cycle and a self-loop: draws.
    assert values_of(2, [(0, 1), (1, 0)], {}) == [("draw", -1), ("draw", -1)]
    assert values_of(1, [(0, 0)], {}) == [("draw", -1)]
    # 0 may stay in its loop or move to a win for the opponent: a draw, not a loss.
    assert values_of(2, [(0, 0), (0, 1)], {1: WIN})[0] == ("draw", -1)
    # 0's only move reaches a win for the opponent: a loss in 1.
    assert values_of(2, [(0, 1)], {1: WIN})[0] == ("loss", 1)
    # 0 can tie (via 1) or loop forever: prefers the tie; 1 -> terminal tie.
    assert values_of(3, [(0, 0), (0, 1), (1, 2)], {2: TIE}) == [("tie", 2), ("tie", 1), ("tie", 0)]
    # A tie reachable only through a position the opponent wins: 0 -> 1, 1 -> {tie, loss}: 1 wins, 0 loses.
    assert values_of(4, [(0, 1), (1, 2), (1, 3)], {2: TIE, 3: LOSS})[:2] == [("loss", 2), ("win", 1)]
    # The loser delays: 0 -> {1 (win in 1), 3 (win terminal)}; the slowest is 1 -> 2 loss.
    assert values_of(4, [(0, 1), (0, 3), (1, 2)], {2: LOSS, 3: WIN})[0] == ("loss", 2)
    # The winner hurries: 0 -> {2 (loss in 2), 4 (loss now)}.
    assert values_of(5, [(0, 2), (0, 4), (2, 3), (3, 4)], {4: LOSS})[0] == ("win", 1)


# -- the shipped games ------------------------------------------------------------
GAME_SPECS = [f"chopsticks:{p}" for p in CHOPSTICKS_PRESETS] + [
    "chopsticks(fingers=3)", "chopsticks:rollover(fingers=4,swaps=true)",
    "tictactoe", "nim:small", "nim(heaps=2-3-4)", "nim:marienbad",
    "mutorere", "mutorere:free-putahi", "ponghauki"]


@functools.cache
def solved_game(spec: str, symmetry: bool):
    game = parse_spec(spec)
    graph = generate(game, symmetry=symmetry)
    return graph, solve(graph)


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("spec", GAME_SPECS)
def test_games_match_definition_on_independent_exploration(spec, symmetry):
    """The solver on the generated graph equals (a) on a graph explored here by plain BFS."""
    game = parse_spec(spec)
    graph, solution = solved_game(spec, symmetry)
    symmetry = symmetry and game.has_symmetry()
    explored = explore(game, symmetry=symmetry)
    expected = solve_by_definition(explored.succ, explored.terminal)
    assert graph.num_positions == len(expected)
    seen = set()
    for node in range(graph.num_positions):
        position = graph.position(node)
        seen.add(position)
        got = (Value(int(solution.value[node])), int(solution.remoteness[node]))
        assert got == expected[position], f"{spec}: {game.format(position)} solver {got}, definition {expected[position]}"
    assert seen == set(expected)
    assert_invariants(graph, solution)
    assert_matches_plain(graph, solution)


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("spec", GAME_SPECS[:4] + ["tictactoe", "nim:small"])
def test_game_optimal_moves_match_definition(spec, symmetry):
    graph, solution = solved_game(spec, symmetry)
    assert_matches_definition(graph, solution)


PUBLISHED = {  # start value for the player to move
    "chopsticks:magic-fingers": LOSS,  # a second-player win
    "chopsticks:standard": DRAW,
    "chopsticks:even-split": DRAW,
    "chopsticks:rollover-even-split": DRAW,
    "chopsticks:tap-dead-transfer": DRAW,
}


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("spec", sorted(PUBLISHED))
def test_published_chopsticks_results(spec, symmetry):
    game = parse_spec(spec)
    graph, solution = solved_game(spec, symmetry)
    assert graph.key(0) == "A|1-1|1-1"
    assert Value(int(solution.value[0])) == PUBLISHED[spec]
    explored = explore(game, symmetry=symmetry)
    assert solve_by_definition(explored.succ, explored.terminal)[game.start()][0] == PUBLISHED[spec]


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
def test_tictactoe_matches_minimax(symmetry):
    game = parse_spec("tictactoe")
    graph, solution = solved_game("tictactoe", symmetry)
    memo: dict = {}
    for node in range(graph.num_positions):
        expected = minimax(game, graph.position(node), memo)
        got = (Value(int(solution.value[node])), int(solution.remoteness[node]))
        assert got == expected, f"{graph.key(node)}: solver {got}, minimax {expected}"
    assert (Value(int(solution.value[0])), int(solution.remoteness[0])) == (TIE, 9)
    assert not np.any(solution.value == DRAW)


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("spec", ["nim:small", "nim(heaps=2-3-4)", "nim:marienbad", "nim(heaps=5-6)", "nim(heaps=4)"])
def test_nim_matches_bouton(spec, symmetry):
    graph, solution = solved_game(spec, symmetry)
    losses = 0
    for node in range(graph.num_positions):
        heaps = graph.position(node).heaps
        xor = functools.reduce(operator.xor, heaps, 0)
        expected = LOSS if xor == 0 else WIN
        assert Value(int(solution.value[node])) == expected, f"{graph.key(node)}: xor={xor}"
        losses += expected == LOSS
    assert losses >= 1 and losses < graph.num_positions
    # Remoteness of a loss is even (every line ends on the loser's turn), of a win odd.
    assert np.all(solution.remoteness % 2 == np.where(solution.value == WIN, 1, 0))
