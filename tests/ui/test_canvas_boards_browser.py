"""The Boards box ("Boards on the nodes") drawn at once, in the browser (issue 35; canvas/ahead.py boards_of and
grouped_ahead's `boards`, static/canvas_view.js 19), on a grouped canvas (tic-tac-toe at k=4, drawn as clusters) and on
a plain one: in the click's own task on the checkbox the nodes already carry their pictures (or have lost them), the only
layout of the whole canvas that runs is the page's own from what was sent ahead (the server's answer's is skipped:
nothing moves again), every node ends where the server placed it, the component is not mounted anew, and the server has
the boards as drawn (its next payload offers the other way). Then off again, the same way. Before, the click waited for
the server's run and its layout (a grouped canvas: seconds). Screenshots: tests/artifacts/canvas-boards-*.png."""

from __future__ import annotations

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_ahead_browser import AHEAD
from tests.ui.test_canvas_browser import CY, cy, open_canvas, settle, wait_still

# The page's own listener (canvas_view.js, capture phase, added when the page loaded) runs first; this one, added later
# in the same phase of the same click (the checkbox stops the click's propagation), reads what it drew: how many nodes
# carry a picture then.
WATCH = """() => { window.__boards = null; if (window.__boardsWatched) return; window.__boardsWatched = true;
    const frame = document.querySelector('iframe[src*="streamlit_cytoscape"]');
    document.addEventListener('click', e => { if (window.__boards !== null) return;
        const cy = frame.contentDocument.getElementById('cy')._cyreg.cy;
        window.__boards = cy.nodes('[_image]').length; }, { capture: true }); }"""
RUNS = f"""() => {{ const cy = {CY}; window.__runs = []; window.__same = true; if (window.__runsWatched) return;
    window.__runsWatched = true;
    cy.on('layoutstart', e => {{ const o = e.layout.options;
        if (o.fit !== false || o.ggLaidOut) window.__runs.push([o.name, !!o.ggLaidOut]); }}); }}"""


def _ready(frame, on: bool) -> None:
    """Until the payload of the canvas drawn offers the boards turned `on`."""
    frame.wait_for_function(f"""() => {{ const cy = {CY}; try {{ const d = {AHEAD};
        return !!d.boards && d.boards.on === {str(on).lower()} && d.count[0] === cy.nodes().length &&
               d.count[1] === cy.edges().length; }} catch (e) {{ return false; }} }}""", timeout=90_000)


def _toggle_at_once(page, frame, on: bool) -> None:
    _ready(frame, on)
    shape = cy(frame, f"{AHEAD}.boards")
    wait_still(frame)
    frame.evaluate(RUNS)
    page.evaluate(WATCH)
    page.get_by_text("Boards on the nodes").first.click()
    page.wait_for_function("() => window.__boards !== null", timeout=10_000)
    drawn = page.evaluate("() => window.__boards")
    total = cy(frame, "cy.nodes().length")
    pictured = sum(1 for d in shape["nodes"].values() if "_image" in d)
    if on:   # in the click's own task: the pictures the server's answer gives, on the very nodes
        assert drawn == pictured > 0, (drawn, pictured, total)
    else:
        assert drawn == 0, drawn
    settle(page)
    wait_still(frame)
    _ready(frame, not on)   # the server drew the canvas so too: its next payload offers the other way
    assert frame.evaluate("() => window.__same") is True   # the same frame: not mounted anew
    assert frame.evaluate("() => window.__runs") == [[shape["options"]["name"], True]]   # ours only
    if shape["options"]["name"] == "preset":
        for key, x, y in cy(frame, "cy.nodes().map(n => [n.id(), n.position().x, n.position().y])"):
            p = shape["options"]["positions"][key]
            assert abs(x - p["x"]) < 0.5 and abs(y - p["y"]) < 0.5, key   # where the server placed it
    images = cy(frame, "cy.nodes().map(n => [n.id(), !!n.data('_image')])")
    assert [k for k, has in images if has != (on and ("_image" in shape["nodes"].get(k, {})))] == []


@pytest.mark.parametrize("url, name", [("game=tictactoe&view=Neighbourhood&k=4", "grouped"),
                                       ("game=tictactoe&view=Neighbourhood&k=2", "plain")])
def test_boards_are_drawn_at_once_and_taken_off_at_once(server, browser, url, name):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 1100})
    frame_element, frame = open_canvas(page, f"{server}/?{url}", warm=True)
    frame_element.scroll_into_view_if_needed()
    grouped = cy(frame, "cy.nodes().some(n => !!n.data('_cluster'))")
    assert grouped is (name == "grouped")
    _toggle_at_once(page, frame, True)
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-boards-{name}-on.png"))
    _toggle_at_once(page, frame, False)
    page.close()
