"""The canvas answers without a whole page run (issue 35): the Neighbourhood tab is a Streamlit fragment,
so expanding a node, changing the layout or turning boards on runs the fragment alone, while opening a
position and changing k (the downloads' setting too) still run the whole page.

What ran is read from the server's own messages: each run ends with a ForwardMsg `script_finished`
whose status says whether the whole script ran (FINISHED_SUCCESSFULLY) or a fragment alone
(FINISHED_FRAGMENT_RUN_SUCCESSFULLY). The messages are decoded from the page's websocket frames.
"""

from __future__ import annotations

import json
import time
from urllib.parse import quote

import pytest
from playwright.sync_api import expect
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.support.browser import finished_status, open_choice
from tests.ui.test_browser import ARTIFACTS, browser, position_in_url, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import (CY, click_node, click_panel_button, current_frame, cy, expand_node,
                                          open_canvas, settle, wait_canvas)

WHOLE = ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY
FRAGMENT = ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
EARLY = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN


def _choose(page, label: str, option: str) -> None:
    """Picks `option` in the selectbox labelled `label`, again when a click landed while Streamlit redrew the
    box and opened nothing (tests/support/browser.py: open_choice, as the bench opens its boxes), and waits for
    the run."""
    open_choice(page, label, page.get_by_role("option", name=option)).click()
    # the box shows the choice once Streamlit took it: a click lost while the box redrew is then told apart from a
    # choice that ran nothing
    expect(page.get_by_role("combobox", name=label).first).to_have_value(option, timeout=30_000)
    settle(page)


class Runs:
    """The statuses of the runs that ended since `clear`, from the page's websocket."""

    def __init__(self, page):
        self.statuses: list[int] = []
        self.page = page
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        status = finished_status(payload)
        if status is not None:
            self.statuses.append(status)

    def clear(self) -> None:
        self.statuses = []

    def wait(self, timeout: float = 60.0) -> list[int]:
        """The runs that ended, once the last one ended for good: a run cut short for another (st.rerun, or a
        widget's new value arriving while it ran) ends first as FINISHED_EARLY_FOR_RERUN, and the run it made way
        for can take seconds on a busy machine (ci14 read [] here). It waits through Playwright, whose sync API
        delivers the websocket's frames only while one of its own calls runs: time.sleep would see none."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.statuses and self.statuses[-1] != EARLY:
                self.page.wait_for_timeout(1000)  # a run that asks for another ends first, then the one it asked for
                if self.statuses[-1] != EARLY:
                    break
            self.page.wait_for_timeout(100)
        return [s for s in self.statuses if s in (WHOLE, FRAGMENT)]


def test_expand_layout_and_boards_run_the_canvas_alone(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    runs = Runs(page)
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=2", warm=True)
    # a position two moves away: its successors are not drawn yet
    far = cy(frame, "cy.nodes().filter(n => !n.data('_focus')).sort((a, b) => b.position('y') - a.position('y'))[0].id()")
    runs.clear()
    frame_element, frame = expand_node(page, frame_element, frame, far)
    assert runs.wait() == [FRAGMENT], f"an expansion ran the whole page (run statuses: {runs.statuses})"
    runs.clear()
    _choose(page, "Layout", "concentric around the focus")
    wait_canvas(page, "cy.nodes().length > 0")
    assert runs.wait() == [FRAGMENT], f"a layout change ran the whole page (run statuses: {runs.statuses})"
    runs.clear()
    page.get_by_text("Boards on the nodes").first.click()
    wait_canvas(page, "cy.nodes().some(n => !!n.data('_image'))")
    settle(page)
    assert runs.wait() == [FRAGMENT], f"turning boards on ran the whole page (run statuses: {runs.statuses})"
    page.close()


def test_opening_a_position_and_k_run_the_whole_page(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    runs = Runs(page)
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=1", warm=True)
    runs.clear()
    page.locator('input[aria-label^="k ("]').first.fill("2")
    page.keyboard.press("Enter")
    wait_canvas(page, "cy.nodes().length > 10")
    settle(page)
    assert WHOLE in runs.wait(), f"a new k ran only the canvas (the downloads keep the old one) (run statuses: {runs.statuses})"
    # opening a position moves the page: the sidebar and the position's panels follow it
    frame_element, frame = current_frame(page)
    other = cy(frame, "cy.nodes().filter(n => !n.data('_focus'))[0].id()")
    shown = cy(frame, f"cy.getElementById({other!r}).data('position')")
    frame_element, frame = click_node(page, other, frame_element, frame)
    runs.clear()
    click_panel_button(frame, "Open this position")
    page.wait_for_function(f"() => new URL(location.href).searchParams.get('pos') === {shown!r}", timeout=30_000)
    settle(page)
    assert WHOLE in runs.wait(), f"opening a position ran only the canvas (run statuses: {runs.statuses})"
    assert position_in_url(page) == shown
    wait_canvas(page, f"cy.getElementById({other!r}).length === 1 && cy.getElementById({other!r}).data('_focus') === 1")
    expect(page.get_by_text("on the canvas").first).to_be_visible()
    page.close()


def test_search_marks_and_centres_a_position_and_adds_its_path(server, browser):  # noqa: F811
    """Find on the canvas (issue 35): a position four moves from the start, not drawn at k=1, is added with
    its path, ringed and brought into the middle of the canvas, in a run of the canvas alone; bad text is
    one escaped line under it."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    runs = Runs(page)
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=1", warm=True)
    before = cy(frame, "cy.nodes().length")
    box = page.locator('input[aria-label="Find on the canvas"]').first
    runs.clear()
    box.fill("XO./.X./..O")
    box.press("Enter")
    wait_canvas(page, "cy.nodes('[_found = 1]').length === 1")
    frame_element, frame = current_frame(page)
    frame.wait_for_function(f"() => !{CY}.animated()")
    time.sleep(0.5)
    assert runs.wait() == [FRAGMENT], f"a search ran the whole page (run statuses: {runs.statuses})"
    assert cy(frame, "cy.nodes().length") >= before + 3  # the position and the two positions before it
    found = cy(frame, "cy.nodes('[_found = 1]')[0].id()")
    # the path: a chain of drawn moves from the page's position to it
    assert cy(frame, f"cy.elements().aStar({{root: cy.nodes('[_focus]'), goal: cy.getElementById({found!r}), "
                     "directed: true}).found")
    # in the middle of what the canvas shows (clear of the info panel's strip on the left)
    x, y = cy(frame, f"(() => {{ const p = cy.getElementById({found!r}).renderedPosition(); return [p.x, p.y]; }})()")
    width, height = cy(frame, "[cy.width(), cy.height()]")
    assert width * 0.3 < x < width * 0.8 and height * 0.25 < y < height * 0.75, (x, y, width, height)
    page.screenshot(path=str(ARTIFACTS / "canvas-search-1440.png"))
    box.fill("value=win remoteness<3 <b>x</b>")
    box.press("Enter")
    line = page.get_by_text("is not a position of", exact=False).first
    line.wait_for(timeout=60_000)
    assert "<b>x</b>" in line.inner_text()  # shown as typed, not as markup
    assert page.locator("b", has_text="x").count() == 0
    page.close()


def test_a_scene_url_round_trips_and_a_crafted_one_is_refused(server, browser):  # noqa: F811
    """Saved scenes (issue 35): the address holds the canvas's expansions, layout and colouring, so that it
    reopens the same canvas in another tab; a scene too long or not a list is one escaped line and the
    page still draws its canvas."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=1", warm=True)
    far = cy(frame, "cy.nodes().filter(n => !n.data('_focus'))[0].id()")
    frame_element, frame = expand_node(page, frame_element, frame, far)
    _choose(page, "Layout", "concentric around the focus")
    _choose(page, "Colour by", "remoteness")
    page.wait_for_function("() => { const p = new URL(location.href).searchParams; return p.get('exp') !== null && "
                           "p.get('layout') === 'concentric' && p.get('colour') === 'remoteness'; }", timeout=30_000)
    link = page.url
    frame_element, frame = current_frame(page)
    drawn = sorted(cy(frame, "cy.nodes().map(n => n.id())"))
    other = browser.new_page(viewport={"width": 1440, "height": 900})
    _, again = open_canvas(other, link)
    assert sorted(cy(again, "cy.nodes().map(n => n.id())")) == drawn  # the expansion came back with it
    expect(other.get_by_label("Layout", exact=False).first).to_have_value("concentric around the focus")
    expect(other.get_by_label("Colour by", exact=False).first).to_have_value("remoteness")
    other.close()
    # crafted: far too many expansions (refused from its length), then garbage
    for exp, says in ((quote(json.dumps(["X../.../..."] * 2_000)), "more than the 8,000"),
                      ("%3Cb%3Enot%20json%3C%2Fb%3E", "is not a list of positions")):
        page.goto(f"{server}/?game=tictactoe&view=Neighbourhood&k=1&exp={exp}")
        line = page.get_by_text(says, exact=False).first
        line.wait_for(timeout=90_000)
        assert "\n" not in line.inner_text().strip()
        _, frame = current_frame(page)
        frame.wait_for_function(f"() => {CY}.nodes().length > 1", timeout=30_000)
    assert page.locator("b", has_text="not json").count() == 0
    page.close()
