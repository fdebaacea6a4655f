"""Values on the board, the value history and the whole-graph overview in a real browser (Chromium through
Playwright), on several games: every move drawn is coloured by its value (checked against the solver), Play's
"Show move values" toggle is off until switched on, the value history is drawn in Play and in History, and the
WebGL overview draws every position and opens the one clicked."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, quote, urlparse

import pytest

from explorer.render import palette
from explorer.solved import build
from tests.ui.test_browser import ARTIFACTS, browser, server, settle  # noqa: F401 - fixtures
from tests.support.browser import switch_on

pytestmark = [pytest.mark.browser]
SLOW = 120_000  # the first visit of a game builds it and its mirror


def _open(browser, server, query: str):  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(f"{server}/?{query}")
    page.locator("[data-testid=stTab]").first.wait_for(timeout=SLOW)
    settle(page)
    return page


def _rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.parametrize("spec,key", [("tictactoe", "X../.O./..."), ("chopsticks:standard", "A|1-2|1-3"),
                                      ("nim:small", None), ("dodgem", None)])
def test_every_move_on_the_explorer_board_has_its_value_colour_and_remoteness(server, browser, spec, key):  # noqa: F811
    solved = build(spec)
    node = solved.graph.find(key) if key else 0
    page = _open(browser, server, f"game={quote(spec)}" + (f"&pos={quote(key)}" if key else ""))
    moves = page.locator(".st-key-board_svg a.gg-move, .gg-diagram a.gg-move")
    moves.first.wait_for(timeout=SLOW)
    # The board shows the URL's position in the orientation named (not its stored symmetric twin).
    position = solved.game.parse(key) if key else solved.graph.position(node)
    expected = {}
    for move in solved.game.moves(position):
        child = solved.graph.node_of(move.position)
        expected[move.label] = (str(solved.value(child).for_previous_player()), solved.remoteness(child))
    seen = {}
    for i in range(moves.count()):
        link = moves.nth(i)
        label = link.get_attribute("data-move")
        value = link.get_attribute("data-value")
        seen[label] = (value, None if link.get_attribute("data-remoteness") == "" else
                       int(link.get_attribute("data-remoteness")))
        title = link.locator("title").first.text_content()
        assert value in title and "for the mover" in title
        painted = link.locator(".gg-mark, .gg-mark-strong, .gg-mark-line").first
        style = painted.evaluate("e => { const s = getComputedStyle(e); return [s.fill, s.stroke]; }")
        assert _rgb(palette.COLOURS[value]) in style or _rgb(palette.FILLS[value]) in style, (label, style)
    assert seen == expected
    assert page.get_by_text("Moves coloured by their value").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".gg-diagram").first.screenshot(path=str(ARTIFACTS / f"values-{spec.split(':')[0]}.png"))
    page.close()


def test_play_hides_move_values_until_asked_and_draws_the_value_history(server, browser):  # noqa: F811
    page = _open(browser, server, "game=tictactoe&view=Play&side=A&opp=perfect&play=5.1")
    board = page.locator(".st-key-play_board .gg-diagram a[data-move]")
    board.first.wait_for(timeout=SLOW)
    assert page.locator(".st-key-play_board a.gg-move").count() == 0  # off by default: GamesmanUni's hint
    switch_on(page, "play_move_values", "Show move values")
    page.locator(".st-key-play_board a.gg-move").first.wait_for(timeout=SLOW)
    settle(page)
    coloured = page.locator(".st-key-play_board a.gg-move")
    assert coloured.count() == board.count() > 0
    values = {coloured.nth(i).get_attribute("data-value") for i in range(coloured.count())}
    assert values <= set(palette.VALUES) and values
    chart = page.locator(".st-key-play_value_history canvas, .st-key-play_value_history svg")
    chart.first.wait_for(timeout=SLOW)
    box = page.locator(".st-key-play_value_history").bounding_box()
    column = page.locator(".st-key-play_value_history").evaluate(
        "e => e.parentElement.getBoundingClientRect().width")
    assert box["width"] <= column + 1  # the chart stays inside its column
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "values-play.png"), full_page=True)
    # a look at another tab and back: the values stay on (the tabs run only the open one's panel, and the
    # switch, not drawn in that run, had lost its value)
    for tab in ("Graph", "Play"):
        page.get_by_role("tab", name=tab, exact=True).click()
        settle(page)
    page.locator(".st-key-play_board a.gg-move").first.wait_for(timeout=SLOW)
    assert page.locator(".st-key-play_move_values input[type=checkbox]").is_checked()
    assert page.locator(".st-key-play_board a.gg-move").count() == board.count() > 0
    page.close()


def test_history_draws_the_value_history_of_the_walk(server, browser):  # noqa: F811
    page = _open(browser, server, "game=nim:small&view=History")
    for _ in range(2):
        page.locator("button", has_text="→").first.click()
        settle(page)
    page.locator(".st-key-history_value_history canvas, .st-key-history_value_history svg").first.wait_for(
        timeout=SLOW)
    assert page.get_by_text("Value history").count() >= 1
    page.close()


@pytest.mark.parametrize("spec", ["tictactoe", "chopsticks:standard", "dodgem"])
def test_the_whole_graph_draws_every_position_and_a_click_opens_one(server, browser, spec):  # noqa: F811
    solved = build(spec)
    page = _open(browser, server, f"game={quote(spec)}&view={quote('Whole graph')}")
    holder = page.locator(".gg-whole[data-drawn-ms]")
    holder.wait_for(timeout=SLOW)
    assert int(holder.get_attribute("data-nodes")) == solved.graph.num_positions
    target = solved.graph.num_positions // 2
    # Where sigma drew that position, from its own camera, then a real mouse click there.
    holder.scroll_into_view_if_needed()
    x, y = holder.evaluate("(e, id) => { const v = e.__ggView; const a = v.graph.getNodeAttributes(id);"
                           " const p = v.renderer.graphToViewport(a);"
                           " const r = e.querySelector('.gg-whole-canvas').getBoundingClientRect();"
                           " return [r.left + p.x, r.top + p.y]; }", target)
    page.mouse.move(x, y)
    page.wait_for_timeout(300)
    assert re.search(r"position #\d+", page.locator(".gg-whole-tip").inner_text())
    page.mouse.click(x, y)
    wanted = solved.graph.key(target)
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('pos') === {wanted!r}",
                           timeout=SLOW)
    settle(page)
    assert parse_qs(urlparse(page.url).query)["pos"][0] == wanted
    page.wait_for_selector(f'.gg-whole[data-here="{target}"]', timeout=SLOW)  # the big dot moved there
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".gg-whole").screenshot(path=str(ARTIFACTS / f"whole-{spec.split(':')[0]}.png"))
    page.close()
