"""Silent bad input found by a stranger's walk (issue 35), in Chromium: the link `...&k=1&k=` opened the canvas at k=2
without a word, and more than 200 characters pasted into the canvas's Find box did nothing (Streamlit's box, given
max_chars, drops a change past it in the browser). Now the link's repeated k is said in one line and its first value
drawn, and the long search is refused in one line under the box, which keeps its first 200 characters. (The page's
other bad parameters: tests/ui/test_url_bad_input.py, AppTest.)"""

from __future__ import annotations

from explorer.ui.canvas import search
from tests.ui.test_browser import browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import open_canvas, settle


def test_a_repeated_k_in_the_link_is_said_and_its_first_value_drawn(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=1&k=")
    line = page.get_by_text("The link gives k= 2 times").first
    line.wait_for(timeout=30_000)
    assert "the page reads the first value that is not empty: k='1'" in line.inner_text()
    page.get_by_text("starting from those within 1 of").first.wait_for(timeout=30_000)   # k=1, not the default 2
    assert "k=1" in page.url and "k=&" not in page.url and not page.url.endswith("k=")
    page.close()


def test_a_search_past_its_limit_pasted_into_the_find_box_is_said(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=1")
    box = page.locator('input[aria-label="Find on the canvas"]').first
    long = "X../.../...," * 30   # 330 characters, as a paste puts them: one change of the box
    box.fill(long)
    assert box.input_value() == long   # the browser took the paste (Streamlit's max_chars dropped it: the box stayed empty)
    box.press("Enter")
    said = page.get_by_text(f"a search of {len(long.strip()):,} characters is refused: at most {search.MAX_TEXT}").first
    said.wait_for(timeout=60_000)
    settle(page)
    assert f"the box keeps its first {search.MAX_TEXT} characters" in said.inner_text()
    page.wait_for_function(f"() => document.querySelector('input[aria-label=\"Find on the canvas\"]').value.length"
                           f" === {search.MAX_TEXT}", timeout=30_000)
    page.close()
