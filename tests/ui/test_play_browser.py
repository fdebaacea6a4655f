"""The Play tab in Chromium at a 1,000 and a 1,440 px window: every button's name reads whole. Two fixed columns
cut "Undo my last move" to "Undo my …", and columns counted from the text's length cut tic-tac-toe's move list
("X b3 → XX./.O./...") at 1,000 px; the buttons now flow in rows that wrap, each as wide as its name. The page's
link to the explorer names the board as played, not its stored form."""

from __future__ import annotations

import pytest

from tests.ui.test_browser import browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import settle
from tests.ui.test_downloads_browser import CUT


@pytest.mark.parametrize("width", [1000, 1440])
@pytest.mark.parametrize("game, play, shown", [("tictactoe", "1", "X../.O./..."), ("teeko:small", "", None)])
def test_every_play_button_reads_whole_and_the_explore_link_names_the_board_as_played(server, browser, width,  # noqa: F811
                                                                                      game, play, shown):
    page = browser.new_page(viewport={"width": width, "height": 1000})
    page.goto(f"{server}/?game={game}&view=Play&side=A&opp=perfect&play={play}")
    page.get_by_role("button", name="Undo my last move").wait_for(timeout=180_000)
    settle(page)
    moves = page.locator("[data-testid=stMain] [data-testid=stButton] button", has_text="→")
    assert moves.count() > 3
    assert page.evaluate(CUT) == []
    if shown is not None:
        link = page.get_by_role("link", name="Explore this position")
        assert link.get_attribute("href").endswith("pos=" + shown.replace("/", "%2F"))
    page.close()
