"""Play's settings from a link (`side=`, `opp=`): a value that is not one of the page's choices is
never replaced silently. One warning line names it (quoted, cut when long, shown literally: no HTML,
no Markdown) and says what is used instead; the game carries on with the moves in the link."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from tests.support.ui_support import isolated, markdown, page, text_of  # noqa: E402,F401 - the autouse fixture
from explorer.ui.play_panel import OPPONENTS  # noqa: E402
from explorer.ui.widgets import ECHO_LIMIT, echo  # noqa: E402

HOSTILE = [
    "<b>bold</b><script>alert(1)</script>",
    "[click](http://evil.example/x) **loud** `code`",
    "B" * 5000,
    "\u202eB\u200b",          # a right-to-left override and a zero-width space around a valid value
    "🙂 Ω ß",
    "b",                       # near a valid value: still not one
]


def warnings(at) -> list[str]:
    return [text_of(w.value) for w in at.warning]


@pytest.mark.parametrize("bad", HOSTILE)
def test_a_bad_side_is_named_in_one_line_and_the_game_carries_on_as_a(bad):
    at = page(game="tictactoe", view="Play", side=bad, opp="perfect", play="5")
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    said = warnings(at)
    assert len(said) == 1, said
    assert echo(bad) in said[0] and "not A (X) or B (O)" in said[0] and "you play A (X) instead" in said[0], said
    assert len(said[0]) < ECHO_LIMIT + 200  # a long value is cut, not repeated whole
    assert "You (X) against the perfect player (O)" in markdown(at) or any(
        "You (X) against the perfect player" in h.value for h in at.subheader)
    assert at.query_params["side"] == "A" and at.query_params["play"].startswith("5")  # the moves are kept
    # Shown literally: the Markdown sent escapes every character that would format, link or embed.
    raw = at.warning[0].value
    assert "<b>" not in raw and "](" not in raw and "**" not in raw


@pytest.mark.parametrize("bad", HOSTILE[:3])
def test_a_bad_opponent_is_named_in_one_line_and_the_perfect_player_is_used(bad):
    at = page(game="tictactoe", view="Play", side="B", opp=bad)
    assert not at.exception, [e.value for e in at.exception]
    said = warnings(at)
    assert len(said) == 1, said
    assert echo(bad) in said[0] and f"not one of {', '.join(OPPONENTS)}" in said[0], said
    assert "the perfect player is used instead" in said[0]
    assert at.query_params["opp"] == "perfect" and at.query_params["side"] == "B"


def test_good_settings_give_no_warning():
    at = page(game="tictactoe", view="Play", side="B", opp="random")
    assert not at.exception and not at.warning, [w.value for w in at.warning]
