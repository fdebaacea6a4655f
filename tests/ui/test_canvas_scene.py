"""A saved scene reopens the canvas its link was copied from (issue 35, the stranger's findings): the link's
expansions are replayed as the double-clicks made them, each placing what it brought around its node, so the
reopened canvas has the same places (and band names) as the original, not a fresh layout of the whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend

SPEC = "chopsticks:standard"


@pytest.mark.parametrize("layout", ["layered", "concentric"])
def test_a_reopened_scene_has_the_places_of_the_canvas_it_was_copied_from(tmp_path, monkeypatch, layout):
    from streamlit.testing.v1 import AppTest

    from explorer.ui import backend as ui_backend
    from explorer.ui.position import shown

    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")  # nothing listens there: the mirror answers
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    ui_backend.connection.clear()
    expansions = ["A|1-3|0-2", "B|1-3|0-3"]
    at = AppTest.from_file(str(Path(canvas.__file__).parent.parent / "app.py"), default_timeout=300)
    at.query_params.update(game=SPEC, exp=json.dumps(expansions), layout=layout)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    reopened = at.session_state[canvas.GROWN]
    assert list(reopened.grown) == expansions

    # the original: the canvas started, laid out, then each node double-clicked (panel._on_event's path)
    solved = load_or_build(SPEC)
    _, key, k, direction, _ = reopened.scope
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(SPEC)))
    grown = canvas.start(solved.game, solved, backend, key, k, direction, False, reopened.scope, 0,
                         shown(solved, solved.graph.find(key)))
    grown.layout = canvas.layout_for(layout, grown, key, animate=False)
    for there in expansions:
        canvas.grow_layout(grown, there, canvas.expand(grown, solved.game, solved, backend, there, "both", False, key))
    assert set(reopened.nodes) == set(grown.nodes)
    assert reopened.layout["positions"] == grown.layout["positions"]
    assert reopened.layout["fit"] is True and "ggExpand" not in reopened.layout  # one layout of the whole canvas
    assert reopened.nodes[key]["data"].get("_rows") == grown.nodes[key]["data"].get("_rows")
    placed = ("_bend", "_name_at", "_no_name")
    assert {i: [e["data"].get(p) for p in placed] for i, e in reopened.edges.items()} == \
        {i: [e["data"].get(p) for p in placed] for i, e in grown.edges.items()}
