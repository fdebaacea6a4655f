"""The Neighbourhood tab's level of detail in the page (AppTest; issue 35): a big canvas opens grouped, a small one
not; the saved scene's `group=` and `open=` reopen the same grouped canvas, and a crafted or stale one is refused in
one escaped line (from its size first) while the page draws its canvas."""

from __future__ import annotations

import json

from explorer.ui import state
from explorer.ui.canvas import clusters, panel
from tests.support.ui_support import isolated, page, text_of  # noqa: F401 - the fixture

GAME = "tictactoe"


def _drawn(at) -> dict:
    """The grouped canvas the page drew: its elements (panel's GROUP_VIEW), or None when not grouped."""
    kept = at.session_state[panel.GROUP_VIEW] if panel.GROUP_VIEW in at.session_state else None
    return kept[1] if kept and at.session_state[panel.GROUP] != "off" else None


def _captions(at) -> str:
    return text_of("\n".join(c.value for c in at.caption))


def test_a_big_canvas_opens_grouped_and_a_small_one_does_not():
    at = page(game=GAME, view="Neighbourhood", k="4")
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[panel.GROUP] == "value"
    grown = at.session_state[panel.GROWN]
    drawn = _drawn(at)
    ids = [n["data"]["id"] for n in drawn["nodes"]]
    assert len(grown.nodes) == 162 and 2 < len(ids) < 30
    assert sum(n["data"].get("_count", 1) for n in drawn["nodes"]) == len(grown.nodes)  # the focus counts one
    assert "Grouped (value & remoteness)" in _captions(at)
    assert "group" not in at.query_params and "open" not in at.query_params  # the default, not written
    run = at.session_state[panel.GROUP_VIEW][2]["run"]
    at.button(key="canvas_relayout").click().run()  # "Lay out again" lays the grouped canvas out again
    assert at.session_state[panel.GROUP_VIEW][2]["run"] == run + 1 and not at.exception
    small = page(game=GAME, view="Neighbourhood", k="1")
    assert small.session_state[panel.GROUP] == "off" and _drawn(small) is None


def test_a_scene_reopens_its_grouping_and_opened_clusters():
    at = page(game=GAME, view="Neighbourhood", k="4")
    groups = clusters.clusters_of(at.session_state[panel.GROWN].nodes, at.session_state[panel.GROWN].edges, "cycles",
                                  at.session_state[panel.GROWN].scope[1])
    some = sorted(groups, key=lambda c: -len(groups[c]))[:2]
    again = page(game=GAME, view="Neighbourhood", k="4", group="cycles", open=json.dumps(some))
    assert not again.exception, [e.value for e in again.exception]
    assert again.session_state[panel.GROUP] == "cycles"
    drawn = _drawn(again)
    ids = {n["data"]["id"] for n in drawn["nodes"]}
    for cluster in some:
        assert clusters.node_id(cluster) not in ids and set(groups[cluster]) <= ids
    assert json.loads(again.query_params["open"][0] if isinstance(again.query_params["open"], list)
                      else again.query_params["open"]) == some
    assert "not clusters of this canvas" not in _captions(again)


def test_a_crafted_scene_is_refused_in_one_escaped_line():
    too_long = json.dumps(["v win 3 X" + "*" * 50] * 80)
    assert len(too_long) > state.OPENED_TEXT_LIMIT
    at = page(game=GAME, view="Neighbourhood", k="4", open=too_long)
    assert not at.exception and f"more than the {state.OPENED_TEXT_LIMIT:,}" in _captions(at)
    many = json.dumps([f"v win {i} X" for i in range(state.OPENED_CLUSTERS + 1)])
    assert len(many) < state.OPENED_TEXT_LIMIT
    at = page(game=GAME, view="Neighbourhood", k="4", open=many)
    assert f"opens {state.OPENED_CLUSTERS + 1} clusters, more than the {state.OPENED_CLUSTERS}" in _captions(at)
    at = page(game=GAME, view="Neighbourhood", k="4", open="{**not** a list}")
    shown = "\n".join(c.value for c in at.caption)
    assert "are not a list of clusters" in text_of(shown) and "**not**" not in shown  # echoed escaped
    at = page(game=GAME, view="Neighbourhood", k="4", open=json.dumps(["v win 3 X", "no such cluster"]))
    assert "1 of the link's 2 opened clusters is not a cluster of this canvas: left out." in _captions(at)
    assert clusters.node_id("v win 3 X") not in {n["data"]["id"] for n in _drawn(at)["nodes"]}  # the good one opened
    at = page(game=GAME, view="Neighbourhood", k="4", group="<b>everything</b>")
    assert not at.exception and at.session_state[panel.GROUP] == "value"
    shown = "\n".join(c.value for c in at.caption)
    assert "is not one of off, value, distance, cycles: the canvas uses value." in text_of(shown)
    assert "<b>" not in shown


def test_a_bad_time_for_what_a_grouped_canvas_sends_ahead_is_one_line_and_the_canvas_is_drawn(monkeypatch):
    """GAMEGRAPH_UI_AHEAD_SECONDS (explorer.core.settings.ui_ahead_seconds) wrong: the grouped canvas says so in
    one escaped line and is drawn with its rings made in the default time."""
    monkeypatch.setenv("GAMEGRAPH_UI_AHEAD_SECONDS", "<b>soon</b>")
    at = page(game=GAME, view="Neighbourhood", k="4")
    assert not at.exception, [e.value for e in at.exception]
    said = [e.value for e in at.error if "GAMEGRAPH\\_UI\\_AHEAD\\_SECONDS" in e.value]   # (Markdown escaped)
    assert len(said) == 1 and "\n" not in said[0] and "\\<b\\>soon\\</b\\>" in said[0], said   # shown as text
    assert _drawn(at) is not None
    monkeypatch.setenv("GAMEGRAPH_UI_AHEAD_SECONDS", "0.5")
    at = page(game=GAME, view="Neighbourhood", k="4")
    assert not [e.value for e in at.error if "AHEAD" in e.value] and _drawn(at) is not None
