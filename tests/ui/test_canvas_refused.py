"""A double-click on a node the server's canvas does not hold is answered at once (issue 35): one line says so and
the canvas's layout is sent again marked `ggRefused` (a layout that differs, so the component hears it and the page's
script takes back what it showed ahead, static/canvas_view.js, 15), on a plain canvas and on a grouped one (a
position or a cluster it does not hold). Before, nothing changed, no answer came, and the page waited 20 s."""

from __future__ import annotations

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas import clusters, panel


@pytest.fixture()
def chopsticks(monkeypatch):
    solved = load_or_build("chopsticks:standard")
    backend = Backend("arrays", "the solved arrays")
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, 3, "both", False, ("s",), 0)
    grown.layout = {**canvas.layout_for("layered", grown, key), "run": 1}
    session = {canvas.GROWN: grown, "canvas_expand": "both"}
    monkeypatch.setattr(panel.st, "session_state", session)
    return solved, backend, key, grown, session


def _double_click(solved, backend, key, session, node: str, stamp: int) -> None:
    session["w"] = {"action": "expand", "data": {"node_ids": [node]}, "timestamp": stamp}
    panel._on_event(solved.game, "chopsticks:standard", solved, backend, key, "w")


def test_a_node_the_server_does_not_hold_is_refused_at_once(chopsticks):
    solved, backend, key, grown, session = chopsticks
    before = dict(grown.layout)
    nodes = dict(grown.nodes)
    _double_click(solved, backend, key, session, "<b>no such</b>", 1)
    assert grown.nodes == nodes   # nothing expanded
    assert [line for line in grown.said if "is not on the canvas the server holds" in line]
    assert grown.layout != before and grown.layout["ggRefused"] == "<b>no such</b>"   # a new layout: sent
    assert {k: v for k, v in grown.layout.items() if k not in ("run", "ggRefused")} == {
        k: v for k, v in before.items() if k != "run"}   # nothing moves
    # a later expansion's layout does not carry the refusal
    leaf = list(grown.nodes)[-1]
    _double_click(solved, backend, key, session, leaf, 2)
    assert len(grown.nodes) > len(nodes) and "ggRefused" not in grown.layout


def test_a_grouped_canvas_refuses_a_position_or_a_cluster_it_does_not_hold(chopsticks):
    solved, backend, key, grown, session = chopsticks
    session[panel.GROUP] = "value"
    view, placed = clusters.view_layout(grown, "value", [], key, "layered")
    session[panel.OPENED] = (grown.generation, "value", [])
    session[panel.GROUP_VIEW] = ("signature", view.elements(), {**placed, "run": 3}, 3, view)
    _double_click(solved, backend, key, session, "no such position", 1)
    kept = session[panel.GROUP_VIEW]
    assert kept[2]["run"] == 4 and kept[3] == 4 and kept[2]["ggRefused"] == "no such position" and kept[4] is view
    assert [line for line in grown.said if "is not on the canvas the server holds" in line]
    _double_click(solved, backend, key, session, clusters.node_id("v win 99 Z"), 2)
    assert session[panel.GROUP_VIEW][2]["run"] == 5 and session[panel.OPENED][2] == []   # nothing opened
    assert [line for line in grown.said if "v win 99 Z" in line]
