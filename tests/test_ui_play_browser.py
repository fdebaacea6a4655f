"""A whole game against the perfect player in a real browser (Chromium through Playwright)."""

from __future__ import annotations

import re

import pytest

from explorer.solved import build
from tests.test_ui_browser import browser, server, settle  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser]


def test_play_a_whole_game_and_the_perfect_player_never_slips(server, browser):  # noqa: F811
    solved = build("chopsticks:attack-only")  # a loss for A: B wins with best play
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(f"{server}/?game=chopsticks:attack-only&view=Play&side=B&opp=perfect")
    page.get_by_text("your move").first.wait_for(timeout=60_000)
    for _ in range(40):
        settle(page)
        if page.get_by_text("Game over").count():
            break
        buttons = page.get_by_role("button", name=re.compile("→"))
        labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
        targets = [solved.graph.find(text.split("→")[1].strip()) for text in labels]
        best = min(range(len(labels)), key=lambda i: (str(solved.value(targets[i])) != "loss",
                                                      solved.remoteness(targets[i]) or 0))
        buttons.nth(best).click()
        page.wait_for_timeout(300)
    settle(page)
    assert page.get_by_text("Game over").count() == 1
    assert "you win" in page.get_by_text("Game over").inner_text()
    assert page.get_by_text(re.compile(r"opponent 0")).count() >= 1
    assert "play=" in page.url  # the game so far is in the link
