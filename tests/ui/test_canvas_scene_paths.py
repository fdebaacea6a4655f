"""The saved scene keeps what the canvas's search added (issue 35: "Copy link" dropped the positions a search added
with their path). A search that adds a path writes `path=` into the address (each position with how many of the
scene's expansions came before it); a link with it reopens the same canvas, the searches made again in their place
among the expansions, so the same positions stand at the same places. A crafted `path=` is refused from its length
before it is read, or is one escaped line, and the page still draws its canvas (AppTest, the networkx mirror)."""

from __future__ import annotations

import json

from explorer.solved import load_or_build
from explorer.ui import canvas, state
from explorer.ui.backend import Backend
from explorer.ui.canvas import panel, search
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend
from tests.support.ui_support import isolated, page, text_of  # noqa: F401 - the fixture

GAME = "tictactoe"
FAR = "XO./.X./..O"   # four moves from the start: not on a k=1 canvas


def _param(at, name: str):
    value = at.query_params[name] if name in at.query_params else None
    return value[0] if isinstance(value, list) else value


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def test_a_search_that_adds_a_path_is_in_the_address_and_reopens():
    at = page(game=GAME, view="Neighbourhood", k="1")
    assert not at.exception, [e.value for e in at.exception]
    before = set(at.session_state[canvas.GROWN].nodes)
    assert _param(at, "path") is None
    at.text_input(key="canvas_find").set_value(FAR).run()
    assert not at.exception, [e.value for e in at.exception]
    grown = at.session_state[canvas.GROWN]
    solved = load_or_build(GAME)
    key = solved.graph.key(solved.graph.find(FAR))
    assert key in grown.nodes and len(grown.nodes) > len(before)
    assert json.loads(_param(at, "path")) == [[key, 0]]
    again = page(game=GAME, view="Neighbourhood", k="1", path=_param(at, "path"))
    assert not again.exception, [e.value for e in again.exception]
    reopened = again.session_state[canvas.GROWN]
    assert set(reopened.nodes) == set(grown.nodes) and set(reopened.edges) == set(grown.edges)
    assert json.loads(_param(again, "path")) == [[key, 0]]   # the reopened canvas's link keeps it too
    assert "searched positions" not in _captions(again)


def test_searches_are_made_again_among_the_expansions_in_their_order():
    """An expansion of a position the search brought can only be made after the search: the scene says so
    (`path=[[key, 1]]` after the first expansion), and the reopened canvas has its places."""
    from explorer.ui.position import shown

    solved = load_or_build(GAME)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(GAME)))
    focus = solved.graph.key(0)
    scope = (solved.graph.graph_id, focus, 1, "both", "networkx")
    grown = canvas.start(solved.game, solved, backend, focus, 1, "both", False, scope, 0,
                         shown(solved, solved.graph.find(focus)))
    grown.layout = canvas.layout_for("layered", grown, focus, animate=False)
    first = next(k for k in grown.nodes if k != focus)
    canvas.grow_layout(grown, first, canvas.expand(grown, solved.game, solved, backend, first, "both", False, focus))
    drawn = set(grown.nodes)
    found, _, added = search.find(grown, solved.game, solved, backend, FAR, focus)
    assert added
    on_path = next(k for k in sorted(set(grown.nodes) - drawn) if k != found[0])   # a position the search brought
    canvas.grow_layout(grown, on_path, canvas.expand(grown, solved.game, solved, backend, on_path, "both", False, focus))
    expanded = list(grown.grown)
    assert expanded == [first, on_path]
    path = panel._paths_out(grown, expanded)
    assert json.loads(path) == [[found[0], 1]]
    at = page(game=GAME, view="Neighbourhood", k="1", layout="layered", exp=json.dumps(expanded), path=path)
    assert not at.exception, [e.value for e in at.exception]
    reopened = at.session_state[canvas.GROWN]
    assert "not on this canvas" not in _captions(at)   # the search came before the expansion that needs it
    assert list(reopened.grown) == expanded and set(reopened.nodes) == set(grown.nodes)
    assert reopened.layout["positions"] == {k: p for k, p in grown.layout["positions"].items() if k in grown.nodes}


def test_a_crafted_path_is_refused_in_one_escaped_line():
    too_long = json.dumps([["X" * 300, 0]] * 20)   # valid JSON: refused from its length alone
    assert len(too_long) > state.PATH_TEXT_LIMIT
    at = page(game=GAME, view="Neighbourhood", k="1", path=too_long)
    assert not at.exception and f"more than the {state.PATH_TEXT_LIMIT:,} a scene may hold" in text_of(_captions(at))
    assert len(at.session_state[canvas.GROWN].nodes) > 1   # the page draws its canvas
    many = json.dumps([[f"p{i}", 0] for i in range(state.SCENE_PATHS + 1)])
    assert len(many) < state.PATH_TEXT_LIMIT
    at = page(game=GAME, view="Neighbourhood", k="1", path=many)
    assert f"adds {state.SCENE_PATHS + 1} searched positions, more than the {state.SCENE_PATHS}" in text_of(_captions(at))
    for bad in ("<b>not json</b>", json.dumps([["x.../...", state.SCENE_EXPANSIONS + 1]]), json.dumps(["x"]),
                json.dumps([["x", True]]), json.dumps({"x": 0})):
        at = page(game=GAME, view="Neighbourhood", k="1", path=bad)
        assert not at.exception, [e.value for e in at.exception]
        lines = [text_of(c.value) for c in at.caption if "searched positions (path=" in text_of(c.value)]
        assert len(lines) == 1 and "are not a list of [position, n] pairs" in lines[0], bad
        assert "\n" not in lines[0].strip()
    assert "<b>" not in _captions(page(game=GAME, view="Neighbourhood", k="1", path="<b>not json</b>"))
    at = page(game=GAME, view="Neighbourhood", k="1", path=json.dumps([["no such board", 0]]))
    assert "1 of the link's 1 searched positions could not be added with a path from here" in text_of(_captions(at))
    assert len(at.session_state[canvas.GROWN].nodes) > 1 and _param(at, "path") is None
