"""The canvas with its boards turned the other way, sent ahead (canvas/ahead.py boards_of and grouped_ahead's `boards`;
issue 35), without a browser: the nodes' data sent, applied as the page's script applies them (static/canvas_view.js,
19: keys a node no longer has taken off), and the layout sent are exactly what the server draws after the click
(elements.set_boards, then the layout made again; on a grouped canvas clusters.view_layout at the boards' size), and
the canvas is left as it was. (tests/ui/test_canvas_boards_browser.py: the page uses them.)"""

from __future__ import annotations

import copy
import math

import pytest

from explorer.ui import canvas
from explorer.ui.canvas import clusters
from explorer.ui.canvas.ahead import ahead, boards_of, grouped_ahead
from explorer.ui.canvas.panel import LAYOUTS
from tests.ui.test_canvas_ahead import _canvas
from tests.ui.test_canvas_ahead_grouped import _grouped


def _drawn(nodes: dict, sent: dict) -> dict:
    """The nodes' data once the page's script has set what was sent (a key the sent data lack taken off)."""
    return {k: (sent[k] if k in sent else e["data"]) for k, e in nodes.items()}


@pytest.mark.parametrize("layout", ["layered", "concentric"])
def test_boards_turned_on_then_off_are_what_the_server_then_draws(layout):
    solved, backend, key, grown = _canvas("tictactoe", 2, layout)
    grown.layout_name = layout
    for on in (True, False):
        kept = copy.deepcopy(grown)
        shape = boards_of(grown, solved.game, solved, key)
        assert grown.nodes == kept.nodes and grown.edges == kept.edges   # left as it was
        assert shape is not None and shape["on"] is on
        # what the server does on the click (panel._canvas_fragment)
        canvas.set_boards(grown, solved.game, solved, on)
        grown.boards = on
        options = canvas.layout_for(layout, grown, key, animate=True)
        grown.layout = options
        assert shape["options"] == options
        assert shape["rows"] == grown.nodes[key]["data"]["_rows"]
        assert _drawn(kept.nodes, shape["nodes"]) == {k: e["data"] for k, e in grown.nodes.items()}
        assert all(("_image" in e["data"]) is on for e in grown.nodes.values())
        for ident, edge in grown.edges.items():
            drawn = {**kept.edges[ident]["data"], **shape["edges"].get(ident, {})}
            assert drawn == edge["data"], ident


def test_the_payload_carries_the_boards_and_a_large_canvas_gets_none():
    solved, backend, key, grown = _canvas("tictactoe", 2, "layered")
    grown.layout_name = "layered"
    assert ahead(grown, solved.game, solved, backend, "both", key, layouts=LAYOUTS)["boards"]["on"] is True
    assert "boards" not in ahead(grown, solved.game, solved, backend, "both", key, layouts=LAYOUTS, limit_bytes=1)
    solved, backend, key, grown = _canvas("chopsticks:standard", 6, "layered")
    if len(grown.nodes) >= canvas.LARGE:  # (pictures are drawn below LARGE positions only)
        assert boards_of(grown, solved.game, solved, key) is None


@pytest.mark.parametrize("layout", ["layered", "concentric"])
def test_a_grouped_canvas_s_boards_are_the_view_the_server_then_draws(layout):
    solved, backend, key, grown, opened, view, placed = _grouped("tictactoe", 4, "value", layout, False)
    kept = copy.deepcopy(grown)
    payload, made = grouped_ahead(grown, solved.game, solved, backend, "both", key, "value", opened, layout,
                                  canvas.NODE_SIZE, view, placed, limit_seconds=math.inf, limit_bytes=math.inf)
    assert grown.nodes == kept.nodes and grown.edges == kept.edges   # left as it was
    shape = payload["boards"]
    assert shape["on"] is True
    # the server's view after the click: the canvas with boards, grouped at the boards' size
    canvas.set_boards(grown, solved.game, solved, True)
    grown.boards = True
    after, options = clusters.view_layout(grown, "value", list(opened), key, layout, canvas.BOARD_SIZE)
    assert made[("boards", "")][2].elements() == after.elements() and made[("boards", "")][3] == options
    assert shape["options"] == options and shape["rows"] == after.nodes[key]["data"].get("_rows", "")
    assert _drawn(view.nodes, shape["nodes"]) == {k: e["data"] for k, e in after.nodes.items()}
    assert any("_image" in e["data"] for e in after.nodes.values())
    for ident, edge in after.edges.items():
        assert {**view.edges[ident]["data"], **shape["edges"].get(ident, {})} == edge["data"], ident


def test_the_copy_with_boards_is_the_canvas_the_server_then_holds():
    """ahead.with_boards is the server's canvas after the click, before it is laid out again (panel._canvas_fragment:
    the boards set, the layout dropped): every field of Grown equal, none dropped by a list of fields written out by
    hand (it had left out the expansions handled, the layouts counted and the canvas's notes), and the canvas itself
    untouched."""
    import dataclasses

    from explorer.ui.canvas.ahead import with_boards

    solved, backend, key, grown = _canvas("tictactoe", 2, "layered")
    grown.layout_name, grown.handled, grown.layout_runs = "layered", 3, 5
    grown.notes.append("a note about how the canvas started")
    grown.said.append("the last action's line")
    kept = copy.deepcopy(grown)
    sent = with_boards(grown, solved.game, solved, True)
    assert all(getattr(grown, f.name) == getattr(kept, f.name) for f in dataclasses.fields(grown))  # left as it was
    server = copy.deepcopy(grown)
    canvas.set_boards(server, solved.game, solved, True)
    server.boards, server.layout = True, None
    differ = [f.name for f in dataclasses.fields(server) if getattr(sent, f.name) != getattr(server, f.name)]
    assert differ == [], differ
