"""The explorer page in a real browser: `gamegraph ui` serves it, Chromium (via Playwright) uses it.

Checks what AppTest cannot: the page loads over HTTP, the drawing and the
value show, clicking a move button navigates and the URL follows, and opening a
position from the neighbourhood canvas (the streamlit-cytoscape component) moves the page.
A screenshot is kept in tests/artifacts/ui.png for people to look at.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

# (the other browser modules import these from here)
from tests.support.browser import (CHROMIUM, CHROMIUM_ARGS, ROOT, close_pages, free_port, serving_ui,  # noqa: F401
                                   settle, wait_healthy)
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"Chromium is not installed at {CHROMIUM}"),
]


@pytest.fixture(scope="module")
def server(shared_server):
    """The run's one explorer (tests/support/browser.py), for the modules that import this fixture: a game an
    earlier module opened is in its memory and state folder, not built again."""
    return shared_server


@pytest.fixture(scope="module")
def browser(shared_browser):
    """The run's one Chromium (tests/support/browser.py), for the modules that import this fixture. A test closes
    its page at its end; the pages a failed test left open are closed with the module, so that they do not keep
    the next modules' Chromium busy (each page's Streamlit session and canvas live on while it is open)."""
    yield shared_browser
    close_pages(shared_browser)


def position_in_url(page) -> str | None:
    return parse_qs(urlparse(page.url).query).get("pos", [None])[0]


def test_start_value_then_click_a_move(server, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(f"{server}/?game=chopsticks:standard")
    page.get_by_text("Value for A (to move)").wait_for(timeout=60_000)
    settle(page)
    value_line = page.locator(".gg-value").inner_text()
    assert "draw" in value_line                           # the start of standard Chopsticks is a draw
    page.locator(".gg-diagram svg").first.wait_for(timeout=30_000)  # the hands are drawn, taps on them
    # The start has one move (symmetry merges the taps): L>L, shown as played (B's left hand hit:
    # B|1-1|2-1, whose canonical key is B|1-1|1-2).
    page.get_by_role("button", name=re.compile(r"L>L → B\|1-1\|2-1")).click()
    page.get_by_text("Value for B (to move)").wait_for(timeout=30_000)
    settle(page)
    assert position_in_url(page) == "B|1-1|2-1"
    assert page.get_by_text("B|1-1|2-1", exact=True).count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ui.png"), full_page=True)
    page.close()


def test_clicking_the_neighbourhood_canvas_moves_there(server, browser):
    """The Neighbourhood tab's canvas (tests/ui/test_canvas_browser.py has the rest): select a
    position on it, open it from its panel, and the page moves there."""
    from tests.ui.test_canvas_browser import node_point, open_canvas

    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    frame_element, frame = open_canvas(page, f"{server}/?game=chopsticks:standard&pos=A|1-2|1-3&view=Neighbourhood")
    frame.evaluate("() => { const cy = document.getElementById('cy')._cyreg.cy; "
                   "cy.fit(cy.getElementById('B|1-2|1-4'), 200); }")
    time.sleep(0.5)
    page.mouse.click(*node_point(frame_element, frame, "B|1-2|1-4"))
    frame.get_by_role("button", name="Open this position").click()
    page.get_by_text("Value for B (to move)").wait_for(timeout=60_000)
    settle(page)
    assert position_in_url(page) == "B|1-2|1-4"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ui-neighbourhood.png"), full_page=True)
    page.close()


def test_downloads_give_the_diagram_shown(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 1800}, accept_downloads=True)
    page.goto(f"{server}/?game=chopsticks:standard&pos=A|1-2|1-3&view=Downloads")
    page.get_by_role("button", name="PNG", exact=True).wait_for(timeout=60_000)
    settle(page)
    files = {}
    for label in ("DOT", "PNG", "Position + moves (JSON)"):
        with page.expect_download(timeout=30_000) as info:
            page.get_by_role("button", name=label, exact=True).click()
        path = tmp_path / info.value.suggested_filename
        info.value.save_as(path)
        files[label] = path.read_bytes()
        settle(page)  # a download must not rerun the page; if it ever does, the next button is the new one
    assert files["DOT"].startswith(b"digraph") and b"A|1-2|1-3" in files["DOT"]
    assert files["PNG"].startswith(b"\x89PNG")
    assert b'"key": "A|1-2|1-3"' in files["Position + moves (JSON)"]
    page.close()


def test_clicking_a_piece_on_the_board_plays_its_move(server, browser):
    """Pong Hau K'i: the ringed piece on tl slides to the centre (B|BR/./RB, tl>c -> R|.R/B/RB)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(f"{server}/?game=ponghauki&pos=B|BR/./RB")
    page.get_by_text("Value for Blue (to move)").wait_for(timeout=60_000)
    settle(page)
    piece = page.locator('.gg-diagram a[data-move="tl>c"]').first
    piece.wait_for(timeout=30_000)
    piece.click()
    page.get_by_text("Value for Red (to move)").wait_for(timeout=30_000)
    settle(page)
    assert position_in_url(page) == "R|.R/B/RB"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ui-ponghauki.png"), full_page=True)
    page.close()


@pytest.mark.parametrize("query", [
    "game=chopsticks:standard&pos=![i](http://127.0.0.1:9/t.png)",
    "game=chopsticks:standard&pos=[Session expired](http://127.0.0.1:9/login)",
    "game=[Session expired](http://127.0.0.1:9/login)",
    "game=chopsticks:standard&view=[Session expired](http://127.0.0.1:9/login)",
])
def test_markdown_in_the_url_loads_no_image_and_makes_no_link(server, browser, query):
    """Issue 19: the URL's values reach the page's error lines as text, never as Markdown."""
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    asked = []
    page.on("request", lambda request: asked.append(request.url) if request.url.startswith("http://127.0.0.1:9/")
            else None)
    page.goto(f"{server}/?{query}")
    page.locator("[data-testid=stAlert]").first.wait_for(timeout=60_000)
    settle(page)
    alerts = " ".join(page.locator("[data-testid=stAlert]").all_inner_texts())
    assert "127.0.0.1:9" in alerts, alerts                        # the value is quoted, as text
    assert page.locator("[data-testid=stAlert] img").count() == 0
    assert page.locator("[data-testid=stAlert] a").count() == 0
    assert page.locator('a[href*="127.0.0.1:9"], img[src*="127.0.0.1:9"]').count() == 0
    assert asked == []
    page.close()
