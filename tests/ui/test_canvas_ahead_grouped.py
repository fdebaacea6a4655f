"""A grouped canvas's rings sent ahead (canvas/ahead.py, grouped_ahead; issue 35), without a browser: for each closed
cluster and each position drawn as itself, the ring applied to the grouped canvas drawn (what the page's script does,
static/canvas_view.js, 15) gives exactly the grouped canvas the server then draws (clusters.view_layout after the
cluster is opened, or after the position is expanded): the same elements with the same data, every node at the same
place. The canvas is left as it was, the time limit cuts, and the views handed back are the ones the rings were
made from. (tests/ui/test_canvas_ahead_grouped_browser.py: the page uses them.)"""

from __future__ import annotations

import copy
import math

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas import clusters
from explorer.ui.canvas.ahead import grouped_ahead
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend


def _grouped(spec: str, k: int, grouping: str, layout: str, mirror: bool):
    solved = load_or_build(spec)
    backend = (Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec))) if mirror
               else Backend("arrays", "the solved arrays"))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, k, "both", False, ("s",), 0)
    groups = clusters.clusters_of(grown.nodes, grown.edges, grouping, key)
    # a cluster opened first (the smallest of those holding one of the positions farthest out, whose expansions
    # add): positions drawn as themselves besides the focus, and rings of a canvas with a cluster opened
    far = set(list(grown.nodes)[-20:])
    opened = [min((c for c, members in groups.items() if far & set(members)), key=lambda c: (len(groups[c]), c))]
    view, placed = clusters.view_layout(grown, grouping, opened, key, layout)
    return solved, backend, key, grown, opened, view, placed


def _applied(view, placed, ring, payload) -> tuple[dict, dict]:
    """The grouped canvas drawn with `ring` applied as the page's script applies it: (id -> data, key -> place)."""
    data = {i: e["data"] for pool in (view.nodes, view.edges) for i, e in pool.items()}
    places = {k: (p["x"], p["y"]) for k, p in placed.get("positions", {}).items()}
    for ident in ring.get("gone", []):
        data.pop(ident)
        places.pop(ident, None)
    own = ring.get("own", {})
    for ident in ring["n"]:
        data[ident] = own.get(ident) or payload["nodes"][ident]
    for ident in ring["e"]:
        data[ident] = own.get(ident) or payload["edges"][ident]
    data.update(ring.get("d", {}))
    for pool in ("p", "m"):
        places.update({k: tuple(p) for k, p in ring.get(pool, {}).items()})
    return data, places


CASES = [("tictactoe", 4, "value", "layered", False), ("tictactoe", 4, "value", "concentric", True),
         ("chopsticks:standard", 4, "cycles", "layered", False), ("dodgem(size=3)", 3, "distance", "force", False)]


@pytest.mark.parametrize("spec, k, grouping, layout, mirror", CASES)
def test_each_grouped_ring_gives_the_canvas_the_server_then_draws(spec, k, grouping, layout, mirror):
    solved, backend, key, grown, opened, view, placed = _grouped(spec, k, grouping, layout, mirror)
    kept = copy.deepcopy(grown)
    payload, made = grouped_ahead(grown, solved.game, solved, backend, "both", key, grouping, opened, layout,
                                  canvas.NODE_SIZE, view, placed, limit_seconds=math.inf,
                                  limit_bytes=math.inf)
    assert grown.nodes == kept.nodes and grown.edges == kept.edges and grown.grown == kept.grown   # left as it was
    assert payload["grouped"] and payload["focus"] == key and not payload["cut"]
    assert payload["count"] == [len(view.nodes), len(view.edges)]
    closed = {i for i in view.nodes if clusters.is_cluster(i)}
    drawn = {i for i in view.nodes if not clusters.is_cluster(i)}
    assert set(payload["ring"]) == closed | drawn and len(drawn) > 1 and closed
    expanded = 0
    for ident, ring in payload["ring"].items():
        real = copy.deepcopy(kept)
        if ident in closed:
            after, there = clusters.view_layout(real, grouping, opened + [clusters.cluster_name(ident)], key, layout)
            assert ident in ring["gone"]   # the cluster goes, its positions come
        else:
            new = canvas.expand(real, solved.game, solved, backend, ident, "both", False, key)
            if not new and len(real.edges) == len(kept.edges):
                assert ring == {"n": [], "e": []}, ident
                continue
            expanded += 1
            after, there = clusters.view_layout(real, grouping, opened, key, layout)
        data, places = _applied(view, placed, ring, payload)
        want = {i: e["data"] for pool in (after.nodes, after.edges) for i, e in pool.items()}
        assert set(data) == set(want), ident
        for i in want:
            assert data[i] == want[i], (ident, i)
        if "positions" in there:
            assert places == {k: (p["x"], p["y"]) for k, p in there["positions"].items()}, ident
        else:
            assert "p" not in ring and "m" not in ring   # the browser's force layout places them
        source, now, view_made, placed_made = made[("open" if ident in closed else "expand", ident)]
        assert now == (opened + [clusters.cluster_name(ident)] if ident in closed else opened)
        assert view_made.elements() == after.elements() and placed_made == there
    assert expanded, "no position drawn as itself had anything to add"


def test_the_time_limit_leaves_the_rest_to_the_round_trip():
    solved, backend, key, grown, opened, view, placed = _grouped("tictactoe", 4, "value", "layered", False)
    payload, made = grouped_ahead(grown, solved.game, solved, backend, "both", key, "value", opened, "layered",
                                  canvas.NODE_SIZE, view, placed, limit_seconds=0)
    assert payload["cut"] and len(payload["ring"]) == 1 and len(made) == 1   # the first ring only
    first = next(iter(payload["ring"]))   # a cluster first, the smallest
    groups = clusters.clusters_of(grown.nodes, grown.edges, "value", key)
    assert clusters.is_cluster(first) and ("open", first) in made
    assert len(groups[clusters.cluster_name(first)]) == min(len(groups[clusters.cluster_name(i)])
                                                           for i in view.nodes if clusters.is_cluster(i))
    two, _ = grouped_ahead(grown, solved.game, solved, backend, "both", key, "value", opened, "layered",
                           canvas.NODE_SIZE, view, placed, limit_seconds=math.inf, limit_bytes=math.inf)
    second = list(two["ring"])[1]   # then a position drawn as itself, the newest
    assert second == [k for k in view.nodes if not clusters.is_cluster(k)][-1]
    whole, _ = grouped_ahead(grown, solved.game, solved, backend, "both", key, "value", opened, "layered",
                             canvas.NODE_SIZE, view, placed, limit_seconds=math.inf, limit_bytes=1)
    assert whole["cut"] and len(whole["ring"]) == 1   # past the bytes too
