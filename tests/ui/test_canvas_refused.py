"""A double-click on a node the server's canvas does not hold is answered at once (issue 35): one line says so, and
the page hears it (panel.REFUSED counts the refusals, sent below the canvas as #gg-refused, whose change makes the
page's script take back what it showed ahead, static/canvas_view.js, 15), on a plain canvas and on a grouped one (a
position or a cluster it does not hold); nothing else changes. Before, nothing changed, no answer came, and the page
waited 20 s. (tests/ui/test_canvas_refused_browser.py: the page takes the ring back.)"""

from __future__ import annotations

import json
import re

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


def _sent(monkeypatch, solved, backend, key, grown) -> list:
    """What _send_ahead puts in the page as #gg-refused."""
    pages = []
    monkeypatch.setattr(panel.st, "html", lambda text, **_: pages.append(text))
    panel._send_ahead(grown, solved.game, solved, backend, key, {})
    found = re.search(r'id="gg-refused">(.*?)</script>', pages[-1])
    return json.loads(found.group(1))


def test_a_node_the_server_does_not_hold_is_refused_at_once(chopsticks, monkeypatch):
    solved, backend, key, grown, session = chopsticks
    layout = dict(grown.layout)
    nodes = dict(grown.nodes)
    assert _sent(monkeypatch, solved, backend, key, grown) == [0, ""]
    _double_click(solved, backend, key, session, "</script><b>no such</b>", 1)
    assert grown.nodes == nodes and grown.layout == layout   # nothing expanded, nothing moves
    assert [line for line in grown.said if "is not on the canvas the server holds" in line]
    sent = _sent(monkeypatch, solved, backend, key, grown)
    assert sent == [1, "</script><b>no such</b>"]   # the page hears it (and the node's name cannot close the element)
    _double_click(solved, backend, key, session, "no such either", 2)
    assert _sent(monkeypatch, solved, backend, key, grown)[0] == 2   # each refusal changes what is sent
    leaf = list(grown.nodes)[-1]
    _double_click(solved, backend, key, session, leaf, 3)
    assert len(grown.nodes) > len(nodes) and session[panel.REFUSED][0] == 2   # a held one expands as before


def test_a_grouped_canvas_refuses_a_position_or_a_cluster_it_does_not_hold(chopsticks):
    solved, backend, key, grown, session = chopsticks
    session[panel.GROUP] = "value"
    session[panel.OPENED] = (grown.generation, "value", [])
    _double_click(solved, backend, key, session, "no such position", 1)
    assert session[panel.REFUSED] == (1, "no such position")
    _double_click(solved, backend, key, session, clusters.node_id("v win 99 Z"), 2)
    assert session[panel.REFUSED] == (2, "v win 99 Z") and session[panel.OPENED][2] == []   # nothing opened
    assert [line for line in grown.said if "v win 99 Z" in line]
    real = next(iter(clusters.clusters_of(grown.nodes, grown.edges, "value", key)))
    _double_click(solved, backend, key, session, clusters.node_id(real), 3)
    assert session[panel.OPENED][2] == [real] and session[panel.REFUSED][0] == 2   # a cluster it holds opens
