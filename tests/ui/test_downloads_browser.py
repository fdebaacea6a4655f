"""The Downloads tab in Chromium at a 1,000 and a 1,440 px window (issue 37): every button's name reads whole (three
fixed columns cut "Build a strategy certificate" to "Build a strategy certifi…" and "Positions + moves (JSON
lines)" at 1,000 px), and the neighbourhood's PNG comes at the resolution chosen."""

from __future__ import annotations

import struct

import pytest

from tests.ui.test_browser import browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import settle

CUT = """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stDownloadButton] button, '
                                          + '[data-testid=stMain] [data-testid=stButton] button')]
    .filter(b => [b, ...b.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1))
    .map(b => b.innerText)"""


@pytest.mark.parametrize("width", [1000, 1440])
def test_every_download_button_reads_whole_and_the_png_has_the_resolution_chosen(server, browser, width):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": 1000}, accept_downloads=True)
    page.goto(f"{server}/?game=tictactoe&pos=X../.../...&view=Downloads")
    page.get_by_text("The whole game").wait_for(timeout=180_000)
    settle(page)
    assert page.get_by_role("button", name="Build a strategy certificate").count() == 1
    assert page.evaluate(CUT) == []
    sizes = {}
    for dpi, name in ((150, None), (300, "300 dpi (print)")):
        if name:
            page.get_by_role("combobox", name="PNG resolution").click()
            page.get_by_role("option", name=name).click()
            settle(page)
        with page.expect_download() as got:
            page.get_by_role("button", name="PNG", exact=True).click()
        with open(got.value.path(), "rb") as png:
            sizes[dpi] = struct.unpack(">II", png.read(24)[16:24])
    assert sizes[300][0] == pytest.approx(2 * sizes[150][0], rel=0.03), sizes
    page.close()
