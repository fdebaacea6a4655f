"""A saved scene holds every setting that makes the canvas what it is (issue 35: a reopened link's canvas differed
from the one whose link was copied). The moves followed (`dir=`: which positions the canvas starts with), what an
expansion adds (`grow=`: what each of the link's expansions brings), the boards, the move labels and whose side the
values are seen from go into the address when not the default, and a link with them reopens the same node set with
the same controls; the last position a search added is ringed again (`_found`), which the page's default view keeps
in sight. A stale or forged value is one escaped line, and the page draws its canvas (AppTest, the networkx mirror)."""

from __future__ import annotations

import json

from explorer.ui import canvas
from tests.support.ui_support import isolated, page, text_of  # noqa: F401 - the fixture

GAME = "tictactoe"
FAR = "XO./.X./..O"   # four moves from the start: not on a k=1 canvas
SET = {"hood_dir": "out", "canvas_expand": "out", "canvas_perspective": "each"}


def _param(at, name: str):
    value = at.query_params[name] if name in at.query_params else None
    return value[0] if isinstance(value, list) else value


def _captions(at) -> str:
    return "\n".join(text_of(c.value) for c in at.caption)


def test_the_settings_go_into_the_address_and_reopen_the_same_canvas():
    at = page(game=GAME, view="Neighbourhood", k="2")
    assert not at.exception, [e.value for e in at.exception]
    assert all(_param(at, p) is None for p in ("dir", "grow", "boards", "labels", "seen"))  # the defaults: unwritten
    for key, value in SET.items():
        at.selectbox(key=key).set_value(value).run()
        assert not at.exception, [e.value for e in at.exception]
    at.checkbox(key="canvas_boards").check().run()
    at.checkbox(key="hood_labels").uncheck().run()
    grown = at.session_state[canvas.GROWN]
    assert grown.scope[3] == "out"  # (the canvas follows the moves forward only)
    link = {p: _param(at, p) for p in ("dir", "grow", "boards", "labels", "seen")}
    assert link == {"dir": "out", "grow": "out", "boards": "on", "labels": "off", "seen": "each"}, link
    again = page(game=GAME, view="Neighbourhood", k="2", **link)
    assert not again.exception, [e.value for e in again.exception]
    for key, value in SET.items():
        assert again.session_state[key] == value, key
    assert again.session_state["canvas_boards"] is True and again.session_state["hood_labels"] is False
    reopened = again.session_state[canvas.GROWN]
    assert set(reopened.nodes) == set(grown.nodes) and set(reopened.edges) == set(grown.edges)
    assert {p: _param(again, p) for p in link} == link   # the reopened canvas's address holds them too
    assert "is not one of" not in _captions(again)


def test_a_link_with_grow_reopens_its_expansions_with_what_they_added():
    """Without `grow=`, a link's expansions made under "successors" were made again with both ways: more positions."""
    at = page(game=GAME, view="Neighbourhood", k="1")
    at.selectbox(key="canvas_expand").set_value("in").run()
    grown = at.session_state[canvas.GROWN]
    focus = grown.scope[1]
    there = next(k for k in grown.nodes if k != focus)
    both = page(game=GAME, view="Neighbourhood", k="1", exp=json.dumps([there]))
    backward = page(game=GAME, view="Neighbourhood", k="1", exp=json.dumps([there]), grow=_param(at, "grow"))
    assert _param(at, "grow") == "in"
    assert set(backward.session_state[canvas.GROWN].nodes) < set(both.session_state[canvas.GROWN].nodes)


def test_the_last_searched_position_is_ringed_again():
    at = page(game=GAME, view="Neighbourhood", k="1")
    at.text_input(key="canvas_find").set_value(FAR).run()
    grown = at.session_state[canvas.GROWN]
    ringed = [k for k, n in grown.nodes.items() if n["data"].get("_found") == 1]
    assert len(ringed) == 1
    again = page(game=GAME, view="Neighbourhood", k="1", path=_param(at, "path"))
    reopened = again.session_state[canvas.GROWN]
    assert [k for k, n in reopened.nodes.items() if n["data"].get("_found") == 1] == ringed
    assert reopened.layout.get("ggFind") is None   # the first layout is laid out and fitted, not skipped


def test_a_forged_setting_is_one_escaped_line():
    at = page(game=GAME, view="Neighbourhood", k="1", dir="<b>sideways</b>", boards="yes", seen="x" * 5000)
    assert not at.exception, [e.value for e in at.exception]
    said = [text_of(c.value) for c in at.caption if "The link's" in text_of(c.value)]
    said += [text_of(w.value) for w in at.warning if "The link's" in text_of(w.value)]
    assert len(said) == 1, said
    line = said[0]
    assert "dir=" in line and "boards=" in line and "seen=" in line and "\n" not in line.strip()
    assert "<b>" not in "".join(w.value for w in at.warning) and len(line) < 1200
    assert at.session_state["hood_dir"] == "both" and at.session_state["canvas_boards"] is False
    assert len(at.session_state[canvas.GROWN].nodes) > 1   # the page draws its canvas
