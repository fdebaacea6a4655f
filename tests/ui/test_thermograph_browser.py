"""The thermograph's expander keeps the reader's choice (issue 37): closed by a click, it stays closed,
also through the page's next run (a new position); opened again, it stays open. Unkeyed, every rerun
made it anew, open."""

from __future__ import annotations

import time

import pytest

from tests.ui.test_browser import browser, server, settle  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser


def _states(details, seconds: float = 1.5) -> str:
    """The expander's open (o) or closed (c) state sampled every 50 ms."""
    seen = []
    for _ in range(int(seconds / 0.05)):
        seen.append("o" if details.evaluate("d => d.open") else "c")
        time.sleep(0.05)
    return "".join(seen)


def test_the_thermograph_stays_as_the_reader_left_it(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 1100})
    page.goto(f"{server}/?game=toads-and-frogs")
    expander = "[data-testid=stExpander] details:has(summary:has-text('Thermograph'))"
    page.wait_for_selector(expander, timeout=180_000)
    settle(page)
    details = page.locator(expander).first
    details.scroll_into_view_if_needed()
    assert details.evaluate("d => d.open")  # open at first
    details.locator("summary").click()
    settle(page)
    assert set(_states(details)) == {"c"}
    page.get_by_role("button", name="Random", exact=True).click()  # the page runs again, on another position
    settle(page)
    details = page.locator(expander).first
    assert set(_states(details)) == {"c"}, "the thermograph opened again by itself"
    details.locator("summary").click()
    settle(page)
    assert set(_states(details)) == {"o"}
    page.close()
