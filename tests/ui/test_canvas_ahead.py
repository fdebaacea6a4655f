"""The canvas's next ring, sent ahead (canvas/ahead.py, issue 35), without a browser: each node's ring is exactly what
the server's expansion of it then adds (the same positions, moves and data, at the same places), each expanded node's
collapse exactly what collapsing it takes away, the canvas is left as it was, the cap is kept, and the JSON cannot
close the page element it is put in. (tests/ui/test_canvas_ahead_browser.py: the page uses it.)"""

from __future__ import annotations

import copy
import json

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas.ahead import ahead, ahead_json, collapse_of
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend


def _canvas(spec: str, k: int, layout: str, mirror: bool = True):
    solved = load_or_build(spec)
    backend = (Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec))) if mirror
               else Backend("arrays", "the solved arrays"))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, k, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for(layout, grown, key)
    return solved, backend, key, grown


@pytest.mark.parametrize("spec, k, layout", [("tictactoe", 2, "layered"), ("chopsticks:standard", 2, "concentric"),
                                              ("dodgem(size=3)", 1, "layered"), ("tictactoe", 1, "force"),
                                              ("tictactoe", 1, "layered")])
@pytest.mark.parametrize("mirror", [True, False])
def test_each_ring_is_what_the_expansion_adds_where_it_places_it(spec, k, layout, mirror):
    """... and where a layered band needed room, the nodes it moved (`m`) and the bands' names (`d`, the focus's
    `_rows`) as the answer's (issue 35: tic-tac-toe at k=1, a new band between two drawn ones)."""
    solved, backend, key, grown = _canvas(spec, k, layout, mirror)
    # one expansion first, so that rings are asked of a canvas that grew (and a collapse can be sent)
    first = next(n for n in reversed(list(grown.nodes)) if n != key)
    canvas.grow_layout(grown, first, canvas.expand(grown, solved.game, solved, backend, first, "both", False, key))
    kept = copy.deepcopy(grown)
    payload = ahead(grown, solved.game, solved, backend, "both", key)
    assert grown.nodes == kept.nodes and grown.edges == kept.edges and grown.shown == kept.shown   # left as it was
    assert grown.grown == kept.grown and grown.base == kept.base
    assert payload["count"] == [len(grown.nodes), len(grown.edges)] and payload["focus"] == key
    assert set(payload["ring"]) == set(grown.nodes) and not payload["cut"]
    assert any(r["n"] for r in payload["ring"].values())
    shifted = 0
    for centre, ring in payload["ring"].items():
        real = copy.deepcopy(kept)
        new = canvas.expand(real, solved.game, solved, backend, centre, "both", False, key)
        canvas.grow_layout(real, centre, new)
        assert ring["n"] == sorted(new), centre
        assert ring["e"] == sorted(set(real.edges) - set(kept.edges)), centre
        own = ring.get("own", {})
        for ident in ring["n"]:
            data = own.get(ident) or payload["nodes"][ident]
            assert data == kept_data(real.nodes[ident]["data"]), (centre, ident)
        for ident in ring["e"]:
            data = own.get(ident) or payload["edges"][ident]
            assert data["move"] == real.edges[ident]["data"]["move"], (centre, ident)   # named as the answer names it
        if layout != "force" and new:
            for ident in new:
                place = real.layout["positions"][ident]
                assert ring["p"][ident] == [place["x"], place["y"]], (centre, ident)
            before = kept.layout["positions"]
            moved = {n: [p["x"], p["y"]] for n, p in real.layout["positions"].items() if n in before and p != before[n]}
            assert ring.get("m", {}) == moved, centre
            shifted += bool(moved)
            rows = real.nodes[key]["data"].get("_rows")
            assert ring.get("d", {}).get(key, {}).get("_rows", kept.nodes[key]["data"].get("_rows")) == rows, centre
        elif new:
            assert "p" not in ring   # the browser's force layout places them
    if (spec, k, layout) == ("tictactoe", 1, "layered"):
        assert shifted   # (some rings open room: a band between two drawn ones)
    assert payload["collapse"] == {first: collapse_of(kept, first)}
    gone = canvas.collapse(copy.deepcopy(kept), first)
    assert payload["collapse"][first] == sorted(gone) and gone


def kept_data(data: dict) -> dict:
    """A node's data as an expansion makes it: the layout's own keys (the layered bands' names on the focus) aside."""
    return {k: v for k, v in data.items() if k != "_rows"}


def test_the_cap_leaves_the_oldest_nodes_to_the_round_trip():
    solved, backend, key, grown = _canvas("tictactoe", 2, "layered")
    payload = ahead(grown, solved.game, solved, backend, "both", key, limit_nodes=5)
    assert payload["cut"] and list(payload["ring"]) == list(reversed(list(grown.nodes)))[:5]
    small = ahead(grown, solved.game, solved, backend, "both", key, limit_bytes=1)
    assert small["cut"] and len(small["ring"]) < len(grown.nodes)


def test_the_json_cannot_close_its_element():
    text = ahead_json({"focus": "</script><script>alert(1)</script>", "ring": {}})
    assert "<" not in text and json.loads(text)["focus"] == "</script><script>alert(1)</script>"


@pytest.mark.parametrize("spec, k", [("tictactoe", 2), ("chopsticks:standard", 2)])
def test_each_other_layout_is_the_one_the_server_then_makes(spec, k):
    from explorer.ui.canvas.layout import PLACED
    from explorer.ui.canvas.panel import LAYOUTS

    solved, backend, key, grown = _canvas(spec, k, "layered")
    grown.layout_name = "layered"
    kept = copy.deepcopy(grown)
    payload = ahead(grown, solved.game, solved, backend, "both", key, layouts=LAYOUTS)
    assert grown.edges == kept.edges and grown.nodes == kept.nodes   # the canvas's data left as drawn
    sent = payload["layouts"]
    assert sent["current"] == "layered" and set(sent["shapes"]) == {"concentric", "force"}
    assert sent["names"] == LAYOUTS
    for name, shape in sent["shapes"].items():
        real = copy.deepcopy(kept)
        options = canvas.layout_for(name, real, key, animate=True)
        assert shape["options"] == options
        assert shape["rows"] == real.nodes[key]["data"]["_rows"]
        for ident, edge in real.edges.items():   # what is drawn, with the changes sent, is what the server has
            drawn = {k: kept.edges[ident]["data"].get(k) for k in PLACED}
            drawn.update(shape["edges"].get(ident, {}))
            assert {k: v for k, v in drawn.items() if k in edge["data"]} == {k: edge["data"][k] for k in PLACED
                                                                             if k in edge["data"]}, (name, ident)


def test_a_canvas_too_costly_to_lay_out_ahead_gets_no_layouts():
    from explorer.ui.canvas.panel import LAYOUTS

    solved, backend, key, grown = _canvas("tictactoe", 2, "layered")
    grown.layout_name = "layered"
    import explorer.ui.canvas.ahead as ahead_module

    work = len(grown.nodes) * len(grown.edges)
    assert "layouts" in ahead(grown, solved.game, solved, backend, "both", key, layouts=LAYOUTS)
    old, ahead_module.AHEAD_LAYOUT_WORK = ahead_module.AHEAD_LAYOUT_WORK, work - 1
    try:
        assert "layouts" not in ahead(grown, solved.game, solved, backend, "both", key, layouts=LAYOUTS)
    finally:
        ahead_module.AHEAD_LAYOUT_WORK = old
