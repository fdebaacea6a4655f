"""Strongly connected components and on-cycle flags against networkx."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.algorithms import scc as components
from explorer.algorithms.scc import strongly_connected
from explorer.games import parse_spec
from explorer.graph import generate
from explorer.algorithms.scc import scipy_strongly_connected
from explorer.core.values import Value
from tests.support.brute_force import graph_adjacency, graph_from_edges, networkx_cycles


def assert_matches_networkx(graph):
    succ, _ = graph_adjacency(graph)
    components, on_cycle = networkx_cycles(succ)
    labels, flags = strongly_connected(graph)
    n = graph.num_positions
    assert labels.shape == (n,) and flags.shape == (n,) and flags.dtype == bool
    assert labels.min(initial=0) >= 0 and set(labels.tolist()) == set(range(len(components)))
    ours = {}
    for node, label in enumerate(labels.tolist()):
        ours.setdefault(label, set()).add(node)
    assert {frozenset(c) for c in ours.values()} == components
    assert set(np.flatnonzero(flags).tolist()) == on_cycle
    assert_matches_scipy(graph, labels, flags)


def assert_matches_scipy(graph, labels, flags):
    """Same partition as scipy's Pearce algorithm (ids may differ) and the same flags."""
    theirs, their_flags = scipy_strongly_connected(graph)
    assert np.array_equal(flags, their_flags)
    assert labels.dtype == np.int32 and labels.max(initial=-1) == theirs.max(initial=-1)
    pairs = set(zip(labels.tolist(), theirs.tolist()))
    assert len(pairs) == len(set(labels.tolist())), "one of our components is split by scipy or vice versa"


def test_deep_graphs_need_no_recursion():
    """A 300,000-position chain closed into a cycle, plus a long tail: Tarjan's depth is the whole graph."""
    n = 300_000
    edges = [(u, u + 1) for u in range(n - 1)] + [(n - 1, 0), (n, n + 1)]
    graph = graph_from_edges(n + 2, edges, {n + 1: Value.LOSS})
    labels, flags = strongly_connected(graph)
    assert flags[:n].all() and not flags[n:].any()
    assert len(set(labels[:n].tolist())) == 1 and len(set(labels.tolist())) == 3
    assert_matches_scipy(graph, labels, flags)


@st.composite
def digraphs(draw, max_nodes=25):
    n = draw(st.integers(1, max_nodes))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    return n, edges


@settings(max_examples=300, deadline=None)
@given(digraphs())
def test_random_graphs(case):
    n, edges = case
    # The component code ignores outcomes; nodes without moves are marked terminal losses.
    sources = {u for u, _ in edges}
    graph = graph_from_edges(n, edges, {u: Value.LOSS for u in range(n) if u not in sources})
    assert_matches_networkx(graph)


def test_self_loop_alone_is_a_cycle_and_a_chain_is_not():
    graph = graph_from_edges(4, [(0, 1), (1, 2), (2, 2)], {3: Value.LOSS})
    labels, flags = strongly_connected(graph)
    assert flags.tolist() == [False, False, True, False]
    assert len(set(labels.tolist())) == 4
    graph = graph_from_edges(3, [(0, 1), (1, 0), (1, 2)], {2: Value.LOSS})
    labels, flags = strongly_connected(graph)
    assert flags.tolist() == [True, True, False] and labels[0] == labels[1] != labels[2]


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("spec", ["chopsticks:standard", "chopsticks:magic-fingers", "chopsticks:attack-only",
                                  "chopsticks:rollover-even-split", "chopsticks(fingers=7,swaps=true)",
                                  "tictactoe", "nim:marienbad"])
def test_games(spec, symmetry):
    game = parse_spec(spec)
    graph = generate(game, symmetry=symmetry)
    assert_matches_networkx(graph)
    _, flags = strongly_connected(graph)
    if spec.startswith(("tictactoe", "nim", "chopsticks:attack-only")):
        assert not flags.any()  # these games always progress
    else:
        assert flags.any()


# -- the two implementations: plain-Python Tarjan (small graphs) and scipy (large ones) --------------
def partition(labels) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for node, label in enumerate(labels.tolist()):
        groups.setdefault(label, set()).add(node)
    return {frozenset(g) for g in groups.values()}


@settings(max_examples=300, deadline=None)
@given(digraphs(max_nodes=40))
def test_tarjan_and_scipy_find_the_same_components(case):
    n, edges = case
    sources = {u for u, _ in edges}
    graph = graph_from_edges(n, edges, {u: Value.LOSS for u in range(n) if u not in sources})
    args = (graph.num_positions, graph.succ_indptr, graph.succ_indices)
    ours, theirs = components.tarjan_labels(*args), components.scipy_labels(*args)
    assert ours.dtype == np.int32 and set(ours.tolist()) == set(range(len(set(ours.tolist()))))
    assert partition(ours) == partition(theirs)


@pytest.mark.parametrize("spec", ["chopsticks:standard", "chopsticks(fingers=9)", "tictactoe", "nim:marienbad"])
def test_tarjan_and_scipy_agree_on_games(spec):
    graph = generate(parse_spec(spec), symmetry=False)
    args = (graph.num_positions, graph.succ_indptr, graph.succ_indices)
    assert partition(components.tarjan_labels(*args)) == partition(components.scipy_labels(*args))


def test_a_long_chain_does_not_hit_the_recursion_limit():
    n = 30_000  # far deeper than Python's recursion limit
    graph = graph_from_edges(n, [(i, i + 1) for i in range(n - 1)] + [(n - 1, 0)], {})
    labels = components.tarjan_labels(graph.num_positions, graph.succ_indptr, graph.succ_indices)
    assert set(labels.tolist()) == {0}


def test_both_paths_are_taken_by_size(monkeypatch):
    """Below explorer.algorithms.dispatch's threshold (the tests set it to 0 to run the kernels everywhere)."""
    monkeypatch.setenv("GAMEGRAPH_KERNELS_FROM", "1000000000")
    graph = generate(parse_spec("chopsticks:standard"))
    called = []
    monkeypatch.setattr(components, "scipy_labels", lambda *a: called.append("scipy") or components.tarjan_labels(*a))
    strongly_connected(graph)
    assert called == []
    monkeypatch.setattr(components, "SMALL_GRAPH", 0)
    strongly_connected(graph)
    assert called == ["scipy"]
