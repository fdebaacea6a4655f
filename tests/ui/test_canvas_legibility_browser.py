"""What the canvas's default view draws is legible, in a real browser (Chromium through Playwright), on the
canvas a stranger found hard to read (issue 18, session 12): Dodgem 4x4 solved into a value file only, whose
page draws a part of 30 positions at zoom 0.63.

- Every node label and move name drawn is at least canvas.MIN_LABEL_PX high on screen; a smaller one is
  hidden (static/canvas_view.js, 11), not drawn as a speck. The move names were 6 px, and drawn down to 5 px:
  Cytoscape's own min-zoomed-font-size rounds the zoom up to a power of two. Zoomed out past that size, a
  label is drawn only enlarged to MIN_LABEL_PX on screen, where it covers no node and no other caption (21, issue 35).
- The part fits whole a little under the readable zoom (0.58 at 1400x1300) and opens whole (canvas_view.js 7,
  WHOLE_SHARE): its moves' names, under MIN_LABEL_PX at their size there, are hidden; at the readable zoom they are
  drawn (session 28; before, the default view was the window at the readable zoom and drew some).
- With boards on, the view at the readable zoom shows each node whole or not at all (board and label):
  it cut the top row in half (canvas_view.js, 7).
Screenshots go to tests/artifacts/canvas-legible-*.png.
"""

from __future__ import annotations

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import CY, open_canvas, settle, wait_canvas, wait_still
from tests.ui.test_canvas_view_browser import part_server  # noqa: F401 - the fixture

URL = "/?game=dodgem:4x4&view=Neighbourhood"

# Each label and move name as drawn now: its element, its font size on screen (the style's size times the
# zoom) and whether it is drawn (a non-empty label whose text is not made transparent).
DRAWN_TEXT = f"""() => {{ const cy = {CY}; const z = cy.zoom();
    const shown = e => (e.style('label') !== '' || (e.isEdge() && e.style('source-label') !== ''))
                       && parseFloat(e.style('text-opacity')) > 0;
    return cy.elements().map(e => ({{ id: e.id(), edge: e.isEdge(), px: parseFloat(e.style('font-size')) * z,
                                      drawn: shown(e) }})); }}"""

# Each node's box (board or disc, and label) on screen against the part of the canvas one sees: the canvas less
# the info panel on its left. `cut`: the box runs across one of its edges, or across the canvas's own left
# edge, which the folded panel (a thin strip) lets show through (a stranger's Dodgem 4x4 at k=2, session 13).
CUT_NODES = f"""() => {{ const cy = {CY}; const doc = cy.container().ownerDocument;
    const box = cy.container().getBoundingClientRect(); const panel = doc.getElementById('infopanel');
    const p = panel && getComputedStyle(panel).display !== 'none' ? panel.getBoundingClientRect() : null;
    const left = p && p.width > 1 ? p.right - box.left : 0;
    const across = (lo, hi, edge) => lo < edge - 0.5 && edge + 0.5 < hi;
    return cy.nodes().filter(n => {{ const b = n.renderedBoundingBox({{includeLabels: true, includeOverlays: false}});
        return across(b.x1, b.x2, left) || across(b.x1, b.x2, 0) || across(b.x1, b.x2, box.width)
               || across(b.y1, b.y2, 0) || across(b.y1, b.y2, box.height);
    }}).map(n => n.id()); }}"""


def _shot(frame_element, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-legible-{name}.png"))


def test_what_the_default_view_draws_is_legible_and_specks_are_hidden(part_server, browser):  # noqa: F811
    from explorer.ui.canvas import LABEL_FONT, MIN_LABEL_PX, READABLE_ZOOM
    from tests.ui.test_canvas_readable_browser import MEASURE
    from tests.ui.test_canvas_view_browser import WHOLE_SHARE

    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, part_server + URL)
    wait_still(frame)
    frame.wait_for_timeout(600)  # the labels under their size are drawn once the view is still (21)
    texts = frame.evaluate(DRAWN_TEXT)
    drawn = [t for t in texts if t["drawn"]]
    assert all(t["px"] >= MIN_LABEL_PX - 1e-6 for t in drawn), [t for t in drawn if t["px"] < MIN_LABEL_PX]
    assert any(not t["edge"] for t in drawn), texts
    _shot(frame_element, "default-dodgem")
    opened = frame.evaluate(f"() => {CY}.zoom()")
    if opened < READABLE_ZOOM - 0.005:
        # The part (30 positions) fits whole at 0.58, a little under the readable zoom: it opens whole (canvas_view.js 7,
        # WHOLE_SHARE: no node out of sight), its labels drawn at MIN_LABEL_PX where clear and the moves' names, 6.9 px
        # at their size there, hidden (named on hover and in the info panel), as at any zoom where they would be specks.
        # The default view asked here before (some names drawn) was the window at the readable zoom, with nodes past the
        # canvas's edge; the names' size is checked at that zoom instead (session 28).
        assert opened >= READABLE_ZOOM * WHOLE_SHARE - 1e-6, opened
        assert not [t for t in drawn if t["edge"]], [t for t in drawn if t["edge"]][:5]
        frame.evaluate(f"() => {{ const cy = {CY}; cy.zoom({{ level: {READABLE_ZOOM}, "
                       f"renderedPosition: {{ x: cy.width() / 2, y: cy.height() / 2 }} }}); }}")
        wait_still(frame)
        frame.wait_for_timeout(600)
        texts = frame.evaluate(DRAWN_TEXT)
        drawn = [t for t in texts if t["drawn"]]
        assert all(t["px"] >= MIN_LABEL_PX - 1e-6 for t in drawn), [t for t in drawn if t["px"] < MIN_LABEL_PX]
    # at the readable zoom the moves' names are drawn, at MIN_LABEL_PX or more (they were 6 px: MOVE_FONT)
    assert any(t["edge"] for t in drawn) and any(not t["edge"] for t in drawn), texts
    # Zoomed out past the least size (by the zoom buttons or Ctrl + wheel), where a label at its own size would be a
    # speck: none is drawn so. Once the view is still, a label may be drawn enlarged to MIN_LABEL_PX on screen where it
    # covers no node and no other caption (canvas_view.js, 21); `px` is the size drawn (its font size, enlarged or not,
    # times the zoom). The move names stay hidden. Then back to the labels at their size on zooming in.
    frame.evaluate(f"() => {{ const cy = {CY}; cy.zoom(cy.zoom() * 0.7); }}")
    wait_still(frame)
    frame.wait_for_timeout(600)  # the labels (21), then the bands' names, are placed once the view is still
    zoom = frame.evaluate(f"() => {CY}.zoom()")
    assert LABEL_FONT * zoom < MIN_LABEL_PX, zoom                     # the case: labels at their size are specks
    texts = frame.evaluate(DRAWN_TEXT)
    drawn = [t for t in texts if t["drawn"]]
    assert all(t["px"] >= MIN_LABEL_PX - 1e-6 for t in drawn), [t for t in drawn if t["px"] < MIN_LABEL_PX][:5]
    assert not [t for t in drawn if t["edge"]], [t for t in drawn if t["edge"]][:5]
    seen = frame.evaluate(MEASURE)
    assert seen["bad"] == [], (len(seen["bad"]), seen["bad"][:4])
    _shot(frame_element, "zoomed-out-dodgem")
    frame.evaluate(f"() => {{ const cy = {CY}; cy.zoom(cy.zoom() / 0.7); }}")
    wait_still(frame)
    frame.wait_for_timeout(600)
    zoom = frame.evaluate(f"() => {CY}.zoom()")
    texts = frame.evaluate(DRAWN_TEXT)
    drawn = [t for t in texts if t["drawn"]]
    assert any(t["edge"] for t in drawn) and any(not t["edge"] for t in drawn), texts
    # (no label left enlarged: each node's label back at LABEL_FONT)
    assert all(abs(t["px"] - LABEL_FONT * zoom) < 1e-6 for t in texts if not t["edge"]), zoom
    page.close()


@pytest.mark.parametrize("width, height", [(1400, 1300), (1200, 900)])
def test_with_boards_on_the_view_cuts_no_node(part_server, browser, width, height):  # noqa: F811
    from explorer.ui.canvas import READABLE_ZOOM

    page = browser.new_page(viewport={"width": width, "height": height})
    frame_element, frame = open_canvas(page, part_server + URL)
    page.get_by_text("Boards on the nodes").click()
    settle(page)
    frame_element, frame = wait_canvas(page, "cy.nodes('[_image]').length === cy.nodes().length")
    wait_still(frame)
    assert abs(frame.evaluate(f"() => {CY}.zoom()") - READABLE_ZOOM) < 0.02  # the case: too large to fit readably
    _shot(frame_element, f"boards-dodgem-{width}")
    assert frame.evaluate(CUT_NODES) == []
    assert frame.evaluate(f"() => {CY}.nodes('[_focus]').renderedPosition().y") > 0
    page.close()


@pytest.mark.parametrize("width, height", [(1280, 720), (1100, 800)])
def test_with_boards_on_a_small_neighbourhood_cuts_no_node(server, browser, width, height):  # noqa: F811
    """The stranger's case (session 13): Dodgem 4x4's whole graph, its start's neighbourhood at k=2 (23
    positions), boards on: a node at the left edge showed half, through the folded info panel."""
    page = browser.new_page(viewport={"width": width, "height": height})
    open_canvas(page, server + "/?game=dodgem:4x4&view=Neighbourhood&k=2", warm=True)
    page.get_by_text("Boards on the nodes").click()
    settle(page)
    frame_element, frame = wait_canvas(page, "cy.nodes('[_image]').length === cy.nodes().length")
    wait_still(frame)
    _shot(frame_element, f"boards-dodgem-k2-{width}")
    assert frame.evaluate(CUT_NODES) == []
    page.close()
