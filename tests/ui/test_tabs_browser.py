"""The tab bar in a real browser (Chromium through Playwright): at 1,400 px wide every tab of the
game with the most of them (Chopsticks: 13) is in sight at full size and opens with a click.
Streamlit scrolled the bar and hid the last tabs behind an arrow; explorer/ui/app.py wraps it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from tests.ui.test_browser import ARTIFACTS, browser, server, settle  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there


def test_every_tab_is_in_sight_and_legible_at_1400_px(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{server}/?game=chopsticks:standard")
    page.get_by_role("tab").first.wait_for(timeout=120_000)
    settle(page)
    bar = page.evaluate("""() => {
        const list = document.querySelector('.st-key-view [role=tablist]');
        const box = list.getBoundingClientRect();
        return { scroll: list.scrollWidth, client: list.clientWidth, left: box.left, right: box.right,
                 tabs: [...list.querySelectorAll('[role=tab]')].map(t => {
                     const b = t.getBoundingClientRect();
                     return { name: t.innerText.trim(), left: b.left, right: b.right, width: b.width,
                              text: t.scrollWidth, font: parseFloat(getComputedStyle(t).fontSize) }; }) };
    }""")
    assert len(bar["tabs"]) == 13
    assert bar["scroll"] <= bar["client"] + 1, "the tab bar scrolls: some tabs are hidden"
    for tab in bar["tabs"]:
        assert bar["left"] - 1 <= tab["left"] and tab["right"] <= bar["right"] + 1, tab
        assert tab["font"] >= 13 and tab["text"] <= tab["width"] + 1, tab  # full size, not cut
    last = bar["tabs"][-1]["name"]
    page.get_by_role("tab", name=last).click()
    settle(page)
    assert parse_qs(urlparse(page.url).query).get("view") == [last]
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".st-key-view").screenshot(path=str(ARTIFACTS / "ui-tabs-1400.png"))
    page.close()
