"""Bad input in a link is said, never swallowed (issue 35, "Bad input", a stranger's walk): `?...&k=1&k=` opened the
canvas at k=2 without a word (Streamlit reads the last of a repeated parameter, and an empty k was taken for none), an
empty `layout=`, `game=` or `pos=` was dropped silently. Now a parameter given twice with different values, or given
empty, is one escaped line naming it, the value given and what the page uses instead; the page stays usable (its
canvas is drawn) and the address holds what it reads. Each of the canvas's parameters is also tried with a huge value,
unicode digits, HTML, a negative and a float: one line each, never a traceback (AppTest, the networkx mirror)."""

from __future__ import annotations

import re
import sys

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.canvas import search
from tests.support.ui_support import isolated, page, text_of  # noqa: F401 - the fixture

GAME = "tictactoe"
# Every parameter the canvas reads from a link beside k, and the control or setting it sets
CANVAS_PARAMS = ("layout", "colour", "size", "dir", "grow", "boards", "labels", "seen", "group", "exp", "path", "open")


def _param(at, name: str):
    value = at.query_params[name] if name in at.query_params else None
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _lines(at) -> list[str]:
    """Every line the page said about its link: the notes above the page, the canvas's warning and notes."""
    said = [text_of(e.value) for kind in (at.info, at.warning, at.error) for e in kind]
    said += [text_of(c.value) for c in at.caption]
    return [line for line in "\n".join(said).split("\n") if "link" in line.lower()]


def _escaped(at) -> None:
    """Nothing the link held reaches the page as Markdown or HTML: every `<` of a line the page wrote is escaped."""
    for kind in (at.info, at.warning, at.error, at.caption):
        for element in kind:
            assert not re.search(r"(?<!\\)<", element.value), element.value


def _named(text: str, name: str) -> int:
    """How often the page's lines name the parameter `name` with its value ("k='-1'", "(exp='[[…", "(exp=) is")."""
    return len(re.findall(rf"\b{name}=('|\))", text))


def _usable(at) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.session_state[canvas.GROWN].nodes) > 1   # the canvas is drawn


def test_a_repeated_k_is_said_and_the_first_value_is_read():
    """The stranger's `k=1&k=`: the page read '' (the last) as no k and opened at 2, silently."""
    at = page(game=GAME, view="Neighbourhood", k=["1", ""])
    _usable(at)
    said = [line for line in _lines(at) if "k=" in line]
    assert len(said) == 1, _lines(at)
    assert "2 times" in said[0] and "'1', ''" in said[0] and "k='1'" in said[0], said
    assert at.session_state["hood_k"] == 1 and _param(at, "k") == "1"
    one = page(game=GAME, view="Neighbourhood", k="1")
    assert set(at.session_state[canvas.GROWN].nodes) == set(one.session_state[canvas.GROWN].nodes)   # k=1 drawn
    again = at.run()   # said once: the address holds one k now
    assert not [line for line in _lines(again) if "times" in line]


def test_a_repeated_game_and_position_are_said_and_the_first_is_read():
    at = page(game=[GAME, "dodgem", "<b>x</b>"], pos=["", "X../.../..."], view="Neighbourhood")
    _usable(at)
    _escaped(at)
    said = [line for line in _lines(at) if "times" in line]
    assert len(said) == 1, _lines(at)
    assert "game= 3 times" in said[0] and "pos= 2 times" in said[0] and "<b>x</b>" in said[0], said
    assert _param(at, "game") == GAME and _param(at, "pos") == "X../.../..."
    solved = load_or_build(GAME)
    assert at.session_state[canvas.GROWN].scope[1] == solved.graph.key(solved.graph.find("X../.../..."))


def test_a_parameter_repeated_with_one_value_is_read_without_a_word():
    at = page(game=GAME, view="Neighbourhood", k=["1", "1"])
    _usable(at)
    assert not _lines(at) and _param(at, "k") == "1" and at.session_state["hood_k"] == 1


@pytest.mark.parametrize("name, says", [("game", "the page opens chopsticks:standard"),
                                        ("pos", "the page shows the game's start position")])
def test_an_empty_game_or_position_is_said(name, says):
    params = {"game": GAME, "pos": "X../.../...", "view": "Neighbourhood", name: " "}
    at = page(**params)
    _usable(at)
    said = _lines(at)
    assert len(said) == 1 and f"{name}=' ' is empty: {says}" in said[0], said
    assert name not in at.query_params or _param(at, name).strip()   # the address no longer holds it


def test_an_empty_k_and_scene_are_one_line_each_naming_what_is_used():
    """An empty `k=` and an empty scene parameter were each taken for none, without a word."""
    at = page(game=GAME, view="Neighbourhood", k="", **{name: "" for name in CANVAS_PARAMS})
    _usable(at)
    text = " ".join(_lines(at))
    assert "k='', which is not a whole number from 1 to 10: the canvas uses k=2" in text, text
    for name in ("k", *CANVAS_PARAMS):
        assert _named(text, name) == 1 and f"{name}=''" in text, (name, text)
    assert text.count("layout=''") == 1 and "layout='' is not one of layered, force, concentric: the canvas uses " \
        "layered" in text
    assert _param(at, "k") == "2" and all(_param(at, name) != "" for name in CANVAS_PARAMS)   # the address corrected
    again = at.run()   # the address corrected: the controls' line is said once (the canvas keeps its own notes)
    assert not again.warning and all(_named(" ".join(_lines(again)), name) <= 1 for name in CANVAS_PARAMS)


HOSTILE = {
    "huge": "9" * 20_000,
    "unicode digits": "٣",          # Arabic-Indic three (str.isdigit() is True)
    "fullwidth digits": "１２",
    "html": '<script>alert(1)</script><img src=x onerror=alert(1)>',
    "negative": "-1",
    "float": "1.5",
}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_every_canvas_parameter_with_a_hostile_value_is_one_escaped_line(kind):
    """Every parameter is named, each once, escaped and cut, and the canvas is drawn with its defaults. Each value
    was refused before, but the canvas showed only its last three notes: with group=, open= and path= refused too,
    the refused exp= went unsaid."""
    value = HOSTILE[kind]
    at = page(game=GAME, view="Neighbourhood", k=value, **{name: value for name in CANVAS_PARAMS})
    _usable(at)
    _escaped(at)
    said = _lines(at)
    text = " ".join(said)
    for name in ("k", *CANVAS_PARAMS):
        assert _named(text, name) == 1, (name, said)
    assert all(len(line) < 2_000 and "\n" not in line for line in said)
    if kind == "huge":
        assert "characters shown of 20,000" in text   # cut, saying how long it was
    assert at.session_state["hood_k"] == 2 and at.session_state["canvas_layout"] == "layered"


def test_a_scene_nested_past_pythons_stack_is_one_line():
    """`exp=[[[[…` (3,000 deep, inside the scene's length limit) makes json.loads raise RecursionError under Python's
    default limit of 1,000 (explorer/cgt/forms.py raises the limit to 20,000 once imported, which hid it): the
    canvas's panel failed as a whole ("The neighbourhood is not available: RecursionError")."""
    import explorer.cgt.forms  # noqa: F401 - imported first, so that the page's run leaves the limit as set here

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000)
    try:
        at = page(game=GAME, view="Neighbourhood", exp="[" * 3_000, path="[" * 3_000, open="[" * 3_000)
    finally:
        sys.setrecursionlimit(limit)
    _usable(at)
    text = " ".join(_lines(at))
    assert "(exp='[[[[" in text and "(path='[[[[" in text and "(open='[[[[" in text, text


def test_a_search_longer_than_its_limit_is_said_and_the_box_keeps_what_it_may_hold():
    """The Find box's limit: a longer text is refused in one line under the box, and the box keeps its first
    MAX_TEXT characters (the rest would travel with every rerun). In the browser, Streamlit's own max_chars dropped
    such a paste without a word: the box has none now (the browser test: test_url_bad_input_browser.py)."""
    at = page(game=GAME, view="Neighbourhood", k="1")
    box = at.text_input(key="canvas_find")
    assert not box.proto.max_chars   # (Streamlit's box drops a longer paste in the browser, silently)
    box.set_value("X" * (search.MAX_TEXT + 300)).run()
    _usable(at)
    said = [text_of(c.value) for c in at.caption if "is refused" in text_of(c.value)]
    assert len(said) == 1 and f"a search of {search.MAX_TEXT + 300:,} characters is refused: at most " \
        f"{search.MAX_TEXT}" in said[0], said
    assert at.text_input(key="canvas_find").value == "X" * search.MAX_TEXT


def test_clusters_opened_on_a_canvas_not_grouped_are_said():
    """`open=` names clusters, but `group=off` (or a canvas small enough to open ungrouped): they were dropped without
    a word."""
    at = page(game=GAME, view="Neighbourhood", k="1", group="off", open='["value:win", "<b>x</b>"]')
    _usable(at)
    _escaped(at)
    said = [line for line in _lines(at) if "cluster" in line]
    assert len(said) == 1 and "The link opens 2 clusters, but the canvas is not grouped" in said[0], _lines(at)
    assert _param(at, "open") is None


@pytest.mark.parametrize("view", ["", "9" * 5_000, "<script>alert(1)</script>", "-1", "1.5", "٣"])
def test_a_view_that_names_no_tab_is_one_line_saying_how_long_it_was(view):
    """A long `view=` was cut to 40 characters without saying so, as if the link had held only those."""
    at = page(game=GAME, view=view)
    assert not at.exception, [e.value for e in at.exception]
    _escaped(at)
    said = [text_of(i.value) for i in at.info if "no tab called" in text_of(i.value)]
    assert len(said) == 1 and "the page opens on Neighbourhood" in said[0], [i.value for i in at.info]
    assert "view" not in at.query_params
    if len(view) > 40:
        assert "40 characters shown of 5,000" in said[0], said


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_find_box_emptied_or_blank_takes_the_last_searchs_line_away(blank):
    """A stranger's walk: after a refused search, spaces typed into Find left the refusal under the box, now about
    nothing. A box emptied or blank is an action as any other: the last search's line goes, and nothing is said."""
    at = page(game=GAME, view="Neighbourhood", k="1")
    at.text_input(key="canvas_find").set_value("Q../.../...").run()
    assert [text_of(c.value) for c in at.caption if "Q../.../..." in text_of(c.value)], "the refusal is said first"
    at.text_input(key="canvas_find").set_value(blank).run()
    _usable(at)
    assert not [text_of(c.value) for c in at.caption if "Q../.../..." in text_of(c.value)]
