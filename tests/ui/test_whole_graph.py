"""The whole-graph overview's data (explorer/ui/whole_graph.py): the layered layout puts every position in
its value and remoteness column without overlaps, the moves are the graph's, and a graph larger than the
overview can draw is cut to the part nearest the start. The drawing itself: tests/ui/test_values_browser.py."""

from __future__ import annotations

import base64

import numpy as np
import pytest

pytest.importorskip("streamlit")
from explorer.core.values import Value  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui import whole_graph  # noqa: E402


@pytest.mark.parametrize("spec", ["chopsticks", "tictactoe", "dodgem", "nim:small", "chopsticks:attack-only"])
def test_each_position_has_its_own_place_in_its_value_and_remoteness_column(spec):
    solved = build(spec)
    value, remoteness = solved.solution.value, solved.solution.remoteness
    x, y = whole_graph.layered_layout(value, remoteness)
    places = set(zip(x.tolist(), y.tolist()))
    assert len(places) == solved.graph.num_positions  # no two dots on one spot
    classes = {}
    for i in range(len(value)):
        classes.setdefault((int(value[i]), int(remoteness[i])), set()).add(float(x[i]))
    spans = {k: (min(xs), max(xs)) for k, xs in classes.items()}
    ordered = sorted(spans.items(), key=lambda item: item[1][0])
    for (_, (_, right)), (_, (left, _)) in zip(ordered, ordered[1:]):
        assert right < left  # columns do not interleave
    order = [k for k, _ in ordered]
    wins = [r for v, r in order if v == int(Value.WIN)]
    losses = [r for v, r in order if v == int(Value.LOSS)]
    assert wins == sorted(wins) and losses == sorted(losses, reverse=True)
    kinds = [v for v, _ in order]
    if int(Value.WIN) in kinds and int(Value.LOSS) in kinds:
        assert max(i for i, v in enumerate(kinds) if v == int(Value.WIN)) < min(
            i for i, v in enumerate(kinds) if v == int(Value.LOSS))


def test_best_moves_are_one_optimal_move_per_position_and_all_moves_are_the_graph():
    solved = build("tictactoe")
    graph = solved.graph
    view = whole_graph.overview(solved, "best")
    assert view.nodes == graph.num_positions and view.total_edges == graph.num_moves
    non_terminal = int((graph.terminal < 0).sum())
    assert view.edges == non_terminal and len(set(view.sources.tolist())) == non_terminal
    for s, t in zip(view.sources.tolist(), view.targets.tolist()):
        edge = next(e for e in graph.edge_range(s) if int(graph.succ_indices[e]) == t)
        assert solved.solution.optimal[edge]
    every = whole_graph.overview(solved, "all")
    pairs = {(s, int(graph.succ_indices[e])) for s in range(graph.num_positions) for e in graph.edge_range(s)}
    assert set(zip(every.sources.tolist(), every.targets.tolist())) == pairs
    assert whole_graph.overview(solved, "none").edges == 0


def test_a_graph_too_large_is_cut_to_the_positions_nearest_the_start():
    solved = build("chopsticks")
    cap = solved.graph.num_positions // 3
    view = whole_graph.overview(solved, "all", node_cap=cap, edge_cap=50)
    assert view.nodes == cap and view.total_nodes == solved.graph.num_positions
    assert view.edges == 50 and max(view.sources.max(), view.targets.max()) < cap
    np.testing.assert_array_equal(view.remoteness, solved.solution.remoteness[:cap])


def test_the_payload_round_trips_the_arrays():
    view = whole_graph.overview(build("nim:small"), "all")
    data = whole_graph.payload(view, "sig")
    back = np.frombuffer(base64.b64decode(data["x"]), "<f4")
    np.testing.assert_array_equal(back, view.x)
    codes = np.frombuffer(base64.b64decode(data["value"]), np.uint8)
    assert [data["names"][c] for c in codes] == [str(Value(int(v))) for v in build("nim:small").solution.value]


def test_every_column_is_labelled_with_its_value_and_remoteness():
    solved = build("chopsticks:attack-only")
    view = whole_graph.overview(solved, "none")
    labels = whole_graph.column_labels(view.value, view.remoteness, view.x)
    expected = {str(Value(int(v))) if r < 0 else f"{Value(int(v))} {r}"
                for v, r in zip(solved.solution.value.tolist(), solved.solution.remoteness.tolist())}
    assert {text for _, _, text in labels} == expected
    names = [str(Value(int(v))) if r < 0 else f"{Value(int(v))} {r}"
             for v, r in zip(solved.solution.value.tolist(), solved.solution.remoteness.tolist())]
    for lx, ly, text in labels:
        xs = [float(view.x[i]) for i, name in enumerate(names) if name == text]
        assert min(xs) <= lx <= max(xs) and ly < 0, text  # under its own column


@pytest.mark.parametrize("edges, least", [(500, 4.5), (10_000, 3.0), (200_000, 1.5)])
def test_the_moves_stand_out_from_the_background(edges, least):
    """The moves were drawn 12-35% grey, a contrast of about 1.6:1 even on a small graph: too faint to
    follow. A few moves are now line art (WCAG's 4.5:1), a dense graph's lighter and thinner so that
    they shade the picture without covering it."""
    assert whole_graph.edge_contrast(edges) >= least
    colour, width = whole_graph.edge_look(edges)
    assert width >= 0.6
    assert whole_graph.edge_contrast(500) > whole_graph.edge_contrast(200_000)  # denser, lighter


def test_the_payload_carries_the_look_of_its_moves():
    view = whole_graph.overview(build("nim:small"), "all")
    data = whole_graph.payload(view, "sig")
    assert (data["edge"]["color"], data["edge"]["size"]) == whole_graph.edge_look(view.edges)
