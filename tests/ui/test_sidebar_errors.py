"""The sidebar's refusals (a typed position, the game's parameters) go away once the next request succeeds.

A stranger typed a bad position, then chose the start: the page showed the start and, above it, the
refusal of the old text, which stayed until the box itself was changed."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from tests.support.ui_support import isolated, page, text_of  # noqa: E402,F401 - the autouse fixture

SUBMIT = "FormSubmitter:goto-Go to position"


def errors(at) -> list[str]:
    return [text_of(e.value) for e in at.error]


def typed(at, text: str):
    at.text_input(key="goto_text").set_value(text)
    return at.button(key=SUBMIT).click().run()


def button(at, label: str):
    return next(b for b in at.button if b.label == label)


def test_a_refused_position_goes_away_when_the_start_is_chosen():
    at = typed(page(game="chopsticks:standard", pos="B|1-1|1-2"), "hello")
    assert any("invalid chopsticks position 'hello'" in e for e in errors(at)), errors(at)
    assert at.query_params["pos"] == "B|1-1|1-2"
    button(at, "Start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["pos"] == "A|1-1|1-1" and not errors(at), errors(at)


def test_a_refused_position_goes_away_when_a_good_one_is_typed_or_a_move_is_followed():
    at = typed(page(game="chopsticks:standard"), "hello")
    assert errors(at)
    at = typed(at, "B|1-1|1-2")
    assert at.query_params["pos"] == "B|1-1|1-2" and not errors(at), errors(at)
    at = typed(at, "nonsense")
    assert errors(at)
    move = next(b for b in at.button if b.key and b.key.startswith("move_"))
    move.click().run()
    assert at.query_params["pos"] != "B|1-1|1-2" and not errors(at), errors(at)


def test_a_refused_position_stays_while_the_page_does():
    """A widget that asks nothing new (the quick list's kind) leaves the refusal where it is, still true."""
    at = typed(page(game="chopsticks:standard"), "hello")
    at.selectbox(key="list_kind").select("on cycles").run()
    assert any("'hello'" in e for e in errors(at)), errors(at)


def test_refused_parameters_go_away_with_the_next_position_and_the_boxes_show_the_game_again():
    at = page(game="nim:small")
    at.text_input(key="param_nim_heaps").set_value("1-x").run()
    assert any("heaps" in e and "not a valid" in e for e in errors(at)), errors(at)
    at = typed(at, at.text_input(key="goto_text").placeholder)  # the start, typed: a request that succeeds
    assert not at.exception and not errors(at), errors(at)
    assert at.query_params["game"] == "nim:small"
    assert at.text_input(key="param_nim_heaps").value != "1-x"
