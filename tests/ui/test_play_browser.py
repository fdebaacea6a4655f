"""Play and Compare in a real browser (Chromium through Playwright): whole games against the perfect
player, by the move list and by clicks on the board, and the side-by-side rule-set diff."""

from __future__ import annotations

import base64
import json
import random
import re
from urllib.parse import parse_qs, unquote, urlparse

import pytest

from explorer.solved import build
from tests.ui.test_browser import ARTIFACTS, browser, server, settle  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser]


def test_play_a_whole_game_and_the_perfect_player_never_slips(server, browser):  # noqa: F811
    """Chopsticks attack-only as B (a win for B), each move a click on the drawing: a tap's chip."""
    solved = build("chopsticks:attack-only")  # a loss for A: B wins with best play
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(f"{server}/?game=chopsticks:attack-only&view=Play&side=B&opp=perfect")
    page.get_by_text("your move").first.wait_for(timeout=60_000)
    links = page.locator(".st-key-play_board .gg-diagram a[data-move]")
    for _ in range(40):
        settle(page)
        if page.get_by_text("Game over").count():
            break
        links.first.wait_for(timeout=30_000)
        before = _game_so_far(page)
        if before and len(before.split(".")) == 3:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "ui-play-chopsticks.png"), full_page=True)
        hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
        targets = [solved.graph.find(parse_qs(urlparse(h).query)["pos"][0]) for h in hrefs]
        best = min(range(len(hrefs)), key=lambda i: (str(solved.value(targets[i])) != "loss",
                                                     solved.remoteness(targets[i]) or 0))
        move = links.nth(best).get_attribute("data-move")
        page.locator(f'.st-key-play_board .gg-diagram a[data-move="{move}"]').click()
        _wait_for_new_ply(page, before, 1)
    settle(page)
    assert page.get_by_text("Game over").count() == 1
    assert "you won" in page.get_by_text("Game over").inner_text()
    assert page.get_by_text(re.compile(r"opponent 0")).count() >= 1
    assert "play=" in page.url  # the game so far is in the link


def _game_so_far(page) -> str | None:
    """The `play=` value in the page's URL (None before the page has written one)."""
    return parse_qs(urlparse(page.url).query, keep_blank_values=True).get("play", [None])[0]


def _wait_for_new_ply(page, before: str | None, human: int) -> None:
    """Until the page has played the click and the opponent's answer: the URL holds more plies and
    it is the human's turn again (an even number of plies for A, odd for B), or the game is over."""
    page.wait_for_function(
        f"""() => {{
            const play = new URLSearchParams(location.search).get('play');
            if (play === {json.dumps(before)}) return false;
            const plies = play ? play.split('.').length : 0;
            return plies % 2 === {human} || document.body.innerText.includes('Game over');
        }}""", timeout=30_000)
    settle(page)


def test_play_a_whole_game_by_clicking_the_board_and_the_perfect_player_never_slips(server, browser):  # noqa: F811
    """Tic-tac-toe as X, each move a click on an empty cell of the board (chosen at random, seeded), so
    that the perfect O gets chances; every O reply must keep O's value, checked from the rules and the solver."""
    solved = build("tictactoe")
    game = solved.game
    rng = random.Random(3)
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(f"{server}/?game=tictactoe&view=Play&side=A&opp=perfect")
    page.get_by_text("your move").first.wait_for(timeout=60_000)
    cells = page.locator(".st-key-play_board .gg-diagram a[data-move]")
    clicks = 0
    for _ in range(6):
        settle(page)
        if page.get_by_text("Game over").count():
            break
        cells.first.wait_for(timeout=30_000)
        before = _game_so_far(page)
        moves = [cells.nth(i).get_attribute("data-move") for i in range(cells.count())]
        if not moves:   # the board was being redrawn: look again
            continue
        choice = rng.choice(moves)
        page.locator(f'.st-key-play_board .gg-diagram a[data-move="{choice}"]').click()
        _wait_for_new_ply(page, before, 0)
        clicks += 1
    settle(page)
    assert page.get_by_text("Game over").count() == 1
    play = _game_so_far(page) or ""
    assert clicks >= 3 and len(play.split(".")) >= 5
    position, human_slips = game.start(), 0
    for ply, part in enumerate(play.split(".")):
        after = game.moves(position)[int(part) - 1].position
        value_before = solved.value(solved.graph.node_of(position))
        value_after = solved.value(solved.graph.node_of(after)).for_previous_player()
        if ply % 2:   # O, the perfect player
            assert value_after == value_before, (ply, game.format(position), game.format(after))
        else:
            human_slips += value_after < value_before
        position = after
    assert game.outcome(position) is not None
    assert page.get_by_text(f"Slips so far: you {human_slips}, opponent 0").count() == 1
    # the board shows the last position as played (a finished board is a plain image)
    assert f"Game over at {game.format(position)}" in page.get_by_text("Game over").inner_text()
    source = page.locator(".st-key-play_board img").get_attribute("src")
    svg = base64.b64decode(source.split(",", 1)[1]).decode() if ";base64," in source else unquote(source)
    assert svg.count("<path") == game.format(position).count("X")
    assert svg.count("<circle") == game.format(position).count("O")
    page.screenshot(path=str(ARTIFACTS / "ui-play-board.png"), full_page=True)
    page.close()


def test_side_by_side_diff_shows_the_position_under_both_rule_sets(server, browser):  # noqa: F811
    from explorer.analysis.diff import diff

    first, second = build("chopsticks"), build("chopsticks:rollover")
    report = diff(first, second)
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(f"{server}/?game=chopsticks&view=Compare+rules")
    field = page.get_by_label("Or type a spec of the same game")
    field.wait_for(timeout=60_000)
    settle(page)
    field.fill("chopsticks:rollover")
    field.press("Enter")
    page.get_by_text("This rule set: chopsticks:standard").wait_for(timeout=60_000)
    settle(page)
    for row in (report["positions_changed"][0], report["positions_changed"][-1]):
        if row is not report["positions_changed"][0]:
            box = page.get_by_label("Position to compare")
            box.click()
            box.fill(row["key"])
            page.get_by_role("option", name=re.compile(re.escape(row["key"]))).first.click()
            page.wait_for_timeout(500)
            settle(page)
        here = page.locator(".st-key-diff_first .gg-diff-value").inner_text()
        there = page.locator(".st-key-diff_second .gg-diff-value").inner_text()
        assert row["key"] in here and row["key"] in there
        for text, value, remoteness in ((here, row["before"], row["before_remoteness"]),
                                        (there, row["after"], row["after_remoteness"])):
            shown = value if remoteness is None else f"{value} in {remoteness}"
            assert f": {shown}" in text and "differs" in text
        assert row["before"] != row["after"]
    # a click on a row of the list (its selection box, first column) compares that position
    row = report["positions_changed"][2]
    table = page.locator("[data-testid=stDataFrame]").first
    box = table.bounding_box()
    page.mouse.click(box["x"] + 18, box["y"] + 35 * 3 + 17)    # header, then rows 35 px high
    for column in ("first", "second"):  # the page draws the two columns one after the other
        page.wait_for_function(f"() => document.querySelector('.st-key-diff_{column} .gg-diff-value')"
                               f".innerText.includes({json.dumps(row['key'])})", timeout=30_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ui-diff.png"), full_page=True)
    page.close()
