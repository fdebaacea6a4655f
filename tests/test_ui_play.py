"""Playing on the page (AppTest): the opponent answers, slips are marked, the URL holds the game."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from tests.ui_support import isolated, page  # noqa: E402,F401 - the autouse fixture
from explorer.solved import build  # noqa: E402


def move_buttons(at):
    return [b for b in at.button if b.key and b.key.startswith("play_move_")]


def test_a_whole_game_against_the_perfect_player():
    """attack-only is a loss for the first player: playing B's best moves against the perfect A wins,
    and the perfect player never slips."""
    solved = build("chopsticks:attack-only")
    assert str(solved.value(0)) == "loss"
    at = page(game="chopsticks:attack-only", view="Play", side="B", opp="perfect")
    assert not at.exception, [e.value for e in at.exception]
    for _ in range(60):
        buttons = move_buttons(at)
        if not buttons:
            break
        # The winning move: to a position lost for the opponent, fastest first.
        targets = [b.label.split(" → ")[1] for b in buttons]
        best = min(range(len(buttons)), key=lambda i: (str(solved.value(solved.graph.find(targets[i]))) != "loss",
                                                        solved.remoteness(solved.graph.find(targets[i])) or 0))
        buttons[best].click().run()
        assert not at.exception, [e.value for e in at.exception]
    assert any("Game over" in s.value for s in at.success)
    assert "you **win**" in at.success[0].value
    table = at.dataframe[0].value
    assert not any((table["who"] == "opponent") & (table["slip"] == "SLIP"))
    plies = at.query_params["play"][0] if isinstance(at.query_params["play"], list) else at.query_params["play"]
    assert plies and all(part.isdigit() for part in plies.split("."))


def test_a_broken_link_is_one_line():
    at = page(game="chopsticks:attack-only", view="Play", play="1.99")
    assert not at.exception
    assert any("stops making sense" in e.value for e in at.error)
