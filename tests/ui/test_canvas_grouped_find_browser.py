"""Find on a grouped canvas centres what it found (issue 35; canvas/panel.py _grouped, static/canvas_view.js 14): on
tic-tac-toe at k=4, drawn as clusters, a position five moves out (not drawn: added with its path, which regroups the
canvas) and then a filter are each ringed and brought into the middle of the canvas's clear part, as on a plain canvas.
Before, the regrouped canvas was laid out and fitted anew, round the page's position: the match was ringed wherever
it fell. Screenshots: tests/artifacts/canvas-grouped-find-*.png.

On a plain canvas, a position added with its path is shown with the path (static/canvas_view.js 14, showFound): a
stranger typed a position four moves out at k=1 and the view stayed on it alone at zoom 2 to 3, the path out of sight."""

from __future__ import annotations

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import CY, cy, current_frame, open_canvas, settle, wait_canvas, wait_still

# The box of what was found (rendered px) against the canvas's part clear of the info panel.
PLACE = f"""() => {{ const cy = {CY}; const found = cy.nodes('[_found = 1]');
    const b = found.renderedBoundingBox({{includeLabels: true, includeOverlays: false}});
    const box = document.getElementById('cy').getBoundingClientRect();
    const p = document.getElementById('infopanel').getBoundingClientRect();
    const left = p.width > 100 ? p.right - box.left : 0;
    return {{ count: found.length, x: (b.x1 + b.x2) / 2, y: (b.y1 + b.y2) / 2, left, width: cy.width(),
              height: cy.height(), zoom: cy.zoom() }}; }}"""


def _centred(seen: dict, where: str) -> None:
    free = seen["width"] - seen["left"]
    assert seen["left"] + 0.3 * free < seen["x"] < seen["left"] + 0.7 * free, (where, seen)
    assert 0.3 * seen["height"] < seen["y"] < 0.7 * seen["height"], (where, seen)


def _find(page, text: str, count: str):
    box = page.locator('input[aria-label="Find on the canvas"]').first
    box.fill(text)
    box.press("Enter")
    frame_element, frame = wait_canvas(page, f"cy.nodes('[_found = 1]').length {count}", timeout=90)
    settle(page)
    frame_element, frame = current_frame(page)
    frame.wait_for_function(f"() => !{CY}.animated()")
    page.wait_for_timeout(800)  # (the info panel opens on the one found, then the view goes to it again)
    wait_still(frame)
    return frame_element, frame


def test_find_on_a_grouped_canvas_centres_what_it_found(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=4", warm=True)
    assert cy(frame, "cy.nodes('[?_cluster]').length") > 5   # drawn grouped
    before = cy(frame, "cy.nodes().map(n => n.data('_count') || 1).reduce((a, b) => a + b, 0)")
    # a position five moves out: not on the canvas at k=4, added with its path from the start
    frame_element, frame = _find(page, "XOX/.O./X..", "=== 1")
    after = cy(frame, "cy.nodes().map(n => n.data('_count') || 1).reduce((a, b) => a + b, 0)")
    assert after == before + 1, (before, after)   # the position itself (its path was drawn already)
    _centred(frame.evaluate(PLACE), "a position added with its path")
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-grouped-find-position.png"))
    # a filter over what is drawn: several clusters ringed, their box in the middle
    frame_element, frame = _find(page, "value=win remoteness<2", "> 1")
    _centred(frame.evaluate(PLACE), "a filter")
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-grouped-find-filter.png"))
    page.close()


# The nodes of a shortest path of drawn moves from the focus to what was found, each [key, whole in the canvas and under
# no overlay]; the zoom.
PATH = f"""() => {{ const cy = {CY}; const found = cy.nodes('[_found = 1]');
    const route = cy.elements().aStar({{root: cy.nodes('[_focus]'), goal: found, directed: true}});
    const box = document.getElementById('cy').getBoundingClientRect();
    const bars = ['infopanel', 'nodeActions', 'toolbar', 'viewbar'].map(id => document.getElementById(id))
        .filter(el => el && getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden')
        .map(el => el.getBoundingClientRect()).filter(r => r.width > 1 && r.height > 1);
    const path = route.found ? route.path.nodes().map(n => {{
        const b = n.renderedBoundingBox({{includeLabels: true, includeOverlays: false}});
        const x1 = box.left + b.x1, x2 = box.left + b.x2, y1 = box.top + b.y1, y2 = box.top + b.y2;
        const inside = x1 >= box.left - 0.5 && y1 >= box.top - 0.5 && x2 <= box.right + 0.5 && y2 <= box.bottom + 0.5;
        return [n.id(), inside && !bars.some(r => x1 < r.right && r.left < x2 && y1 < r.bottom && r.top < y2)]; }}) : [];
    return {{ path, zoom: cy.zoom() }}; }}"""


@pytest.mark.parametrize("width", [1000, 1440])
@pytest.mark.parametrize("spec, text", [("tictactoe", "XO./.X./..O"), ("chopsticks:standard", "A|1-2|1-3")],
                         ids=["tictactoe", "chopsticks"])
def test_find_shows_what_it_added_with_its_path(server, browser, spec, text, width):  # noqa: F811
    """A position four moves from the start, not drawn at k=1: added with its path from the focus, then in sight with
    every node of that path, whole and clear of the overlays, at a zoom whose labels are drawn (MIN_LABEL_PX)."""
    from explorer.ui.canvas import LABEL_FONT, MIN_LABEL_PX

    page = browser.new_page(viewport={"width": width, "height": 900})
    open_canvas(page, f"{server}/?game={spec}&view=Neighbourhood&k=1", warm=True)
    frame_element, frame = _find(page, text, "=== 1")
    assert page.get_by_text("added with its path", exact=False).count() >= 1
    seen = frame.evaluate(PATH)
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-find-path-{spec.split(':')[0]}-{width}.png"))
    assert len(seen["path"]) >= 4, seen                                   # the focus, the moves between, what was found
    assert seen["zoom"] * LABEL_FONT >= MIN_LABEL_PX, (width, seen)
    assert [key for key, clear in seen["path"] if not clear] == [], (width, round(seen["zoom"], 3), seen["path"])
    page.close()
