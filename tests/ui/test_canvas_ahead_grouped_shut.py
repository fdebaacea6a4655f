"""A grouped canvas's collapses and other layouts sent ahead (canvas/ahead.py grouped_ahead; issue 35: "collapsing
... and changing layout happen without a whole page rerun"), without a browser. For each position drawn as itself,
"Collapse what it expanded" has a ring (`shut`): for a position that expanded, what collapsing it changes once the
positions it brought are taken out of the clusters; for one of an opened cluster that expanded nothing, its cluster
closed again (`closing`, one ring for all its members). Applied to the grouped canvas drawn as the page's script
applies it (static/canvas_view.js 15), each gives exactly the grouped canvas the server then draws. Each other layout
(`layouts`) gives the server's places and moves' data under that layout. The views handed back are those."""

from __future__ import annotations

import copy
import math

import pytest

from explorer.ui import canvas
from explorer.ui.canvas import clusters
from explorer.ui.canvas.ahead import grouped_ahead
from explorer.ui.canvas.panel import LAYOUTS
from tests.ui.test_canvas_ahead_grouped import _applied, _grouped

CASES = [("tictactoe", 4, "value", "layered"), ("tictactoe", 4, "value", "concentric"),
         ("chopsticks:standard", 4, "cycles", "force")]


def _expanded_member(spec, k, grouping, layout):
    """The grouped canvas with a cluster opened and one of its positions expanded (as a double-click does), drawn."""
    solved, backend, key, grown, opened, _, _ = _grouped(spec, k, grouping, layout, False)
    groups = clusters.clusters_of(grown.nodes, grown.edges, grouping, key)
    for member in groups[opened[0]]:
        if canvas.expand(grown, solved.game, solved, backend, member, "both", False, key):
            break
    else:
        pytest.fail(f"no position of {opened[0]} had anything to add")
    groups = clusters.clusters_of(grown.nodes, grown.edges, grouping, key)
    # and a second cluster of two or more opened, the smallest: positions that close their cluster again
    opened = opened + [min((c for c, members in groups.items() if len(members) >= 2 and c not in opened),
                           key=lambda c: (len(groups[c]), c))]
    view, placed = clusters.view_layout(grown, grouping, opened, key, layout)
    assert member in view.nodes   # drawn as itself (its cluster is open)
    return solved, backend, key, grown, opened, view, placed, member


def _data(pools) -> dict:
    return {i: e["data"] for pool in pools for i, e in pool.items()}


@pytest.mark.parametrize("spec, k, grouping, layout", CASES)
def test_each_collapse_ring_gives_the_canvas_the_server_then_draws(spec, k, grouping, layout):
    solved, backend, key, grown, opened, view, placed, member = _expanded_member(spec, k, grouping, layout)
    kept = copy.deepcopy(grown)
    payload, made = grouped_ahead(grown, solved.game, solved, backend, "both", key, grouping, opened, layout,
                                  canvas.NODE_SIZE, view, placed, limit_seconds=math.inf, limit_bytes=math.inf)
    assert grown.nodes == kept.nodes and grown.edges == kept.edges and grown.grown == kept.grown   # left as it was
    groups = clusters.clusters_of(grown.nodes, grown.edges, grouping, key)
    drawn = [i for i in view.nodes if not clusters.is_cluster(i)]
    closes = {i for i in drawn if i not in grown.grown and any(i in groups.get(c, ()) for c in opened)}
    assert set(payload["shut"]) == {i for i in drawn if i in grown.grown} | closes
    assert isinstance(payload["shut"][member], dict) and closes and member not in closes
    for ident, ring in payload["shut"].items():
        real = copy.deepcopy(kept)
        if isinstance(ring, str):   # its cluster closed again: the ring shared by its members
            assert ident in closes
            cluster = clusters.cluster_name(ring)
            assert ident in groups[cluster] and cluster in opened
            ring = payload["closing"][ring]
            now = [c for c in opened if c != cluster]
            assert clusters.node_id(cluster) in ring["n"] and ident in ring["gone"]
            what, name = "close", cluster
        else:
            assert canvas.collapse(real, ident)   # (the server's collapse, panel._on_event)
            now, what, name = opened, "shut", ident
        after, there = clusters.view_layout(real, grouping, now, key, layout)
        data, places = _applied(view, placed, ring, payload)
        want = _data((after.nodes, after.edges))
        assert set(data) == set(want), ident
        for i in want:
            assert data[i] == want[i], (ident, i)
        if "positions" in there:
            assert places == {k: (p["x"], p["y"]) for k, p in there["positions"].items()}, ident
        source, opened_made, view_made, placed_made = made[(what, name)]
        assert opened_made == now and view_made.elements() == after.elements() and placed_made == there


@pytest.mark.parametrize("spec, k, grouping, layout", CASES)
def test_each_other_layout_of_a_grouped_canvas_is_sent_ahead(spec, k, grouping, layout):
    solved, backend, key, grown, opened, view, placed, _ = _expanded_member(spec, k, grouping, layout)
    payload, made = grouped_ahead(grown, solved.game, solved, backend, "both", key, grouping, opened, layout,
                                  canvas.NODE_SIZE, view, placed, limit_seconds=math.inf, limit_bytes=math.inf,
                                  layouts=LAYOUTS)
    switch = payload["layouts"]
    assert switch["names"] == LAYOUTS and switch["current"] == layout
    assert set(switch["shapes"]) == set(LAYOUTS) - {layout}
    for name, shape in switch["shapes"].items():
        after, there = clusters.view_layout(copy.deepcopy(grown), grouping, opened, key, name)
        # what the page's script does (canvas_view.js 16): the moves' data merged, the bands' names on the focus
        data = {i: dict(d) for i, d in _data((view.nodes, view.edges)).items()}
        for ident, changed in shape["edges"].items():
            data[ident].update(changed)
        data[key]["_rows"] = shape["rows"]
        want = _data((after.nodes, after.edges))
        assert set(data) == set(want), name
        for ident, element in want.items():   # (data are merged in the browser: a key is never taken out, _straight)
            assert {k: data[ident].get(k) for k in element} == element, (name, ident)
        assert shape["options"] == there
        source, now, view_made, placed_made = made[("layout", name)]
        assert now == opened and view_made.elements() == after.elements() and placed_made == there


def test_the_time_limit_cuts_collapses_and_layouts_too():
    solved, backend, key, grown, opened, view, placed, _ = _expanded_member("tictactoe", 4, "value", "layered")
    payload, made = grouped_ahead(grown, solved.game, solved, backend, "both", key, "value", opened, "layered",
                                  canvas.NODE_SIZE, view, placed, limit_seconds=0, layouts=LAYOUTS)
    assert payload["cut"] and len(made) == 1 and not payload["shut"] and "layouts" not in payload
