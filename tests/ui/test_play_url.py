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


# -- the moves (`play=`): a link broken at some ply keeps the plies before it ------------------------------

def test_a_bad_ply_keeps_the_moves_before_it_and_says_which_was_refused():
    """X takes the centre (5), O a corner (1), then a ply 99 that no position of tic-tac-toe has: the first
    two are played, one line names ply 3 and why, and the URL is cut to the moves that were played."""
    at = page(game="tictactoe", view="Play", side="A", opp="perfect", play="5.1.99.3")
    assert not at.exception, [e.value for e in at.exception]
    said = [text_of(e.value) for e in at.error]
    assert len(said) == 1, said
    assert "stops making sense at ply 3 ('99')" in said[0] and "7 legal moves, numbered 1 to 7" in said[0], said
    assert "The 2 moves before it are played" in said[0], said
    assert at.query_params["play"] == "5.1"
    # The next good move plays on from there, and the line goes away.
    buttons = [b for b in at.button if b.key and b.key.startswith("play_move_")]
    assert len(buttons) == 7
    buttons[0].click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.query_params["play"].startswith("5.1.")


@pytest.mark.parametrize("bad", [b for b in HOSTILE if "." not in b])  # a dot would end the ply
def test_a_hostile_ply_is_quoted_literally_and_the_moves_before_it_are_kept(bad):
    at = page(game="tictactoe", view="Play", side="B", opp="perfect", play=f"5.{bad}")
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.error) == 1, [e.value for e in at.error]
    said, raw = text_of(at.error[0].value), at.error[0].value
    assert f"ply 2 ({echo(bad)})" in said and "a move is a number from 1 to 8" in said, said
    assert "The move before it is played" in said
    assert "<b>" not in raw and "](" not in raw and "**" not in raw
    assert at.query_params["play"] == "5"  # X's centre is kept; O, the user, is to move


def test_a_ply_after_the_end_is_refused_and_the_finished_game_kept():
    """X takes the top row (a3, b3, c3) while O plays a2 and c2, then the link holds one ply more."""
    at = page(game="tictactoe", view="Play", side="A", opp="random", play="1.3.1.3.1.1")
    said = [text_of(e.value) for e in at.error]
    assert len(said) == 1 and "at ply 6 ('1'): the game was already over" in said[0], said
    assert at.query_params["play"] == "1.3.1.3.1"
