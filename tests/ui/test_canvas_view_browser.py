"""The canvas's view in a real browser (Chromium through Playwright), for the defects a stranger found
(issue 18, session 11): the default view, refitting after boards or a layout change, the wheel, move
names on their moves. Screenshots go to tests/artifacts/canvas-view-*.png for people to look at.

The view's rules (explorer/ui/static/canvas_view.js, 7 and 8):
- a drawing that fits the free area (the canvas less the info panel) at a readable zoom is shown whole;
  one that does not is shown at that zoom around the page's position, and never with an empty band on
  one side while nodes lie out of sight on the other;
- turning boards on or off, or another layout, ends in that view again; an expansion keeps the user's;
- a plain wheel scrolls the page and shows a hint; Ctrl + wheel, or a wheel after a click on the canvas,
  zooms, never below half the zoom that fits the whole drawing.
"""

from __future__ import annotations

import time

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server, serving_ui  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import (ANSWERED, CY, HIDDEN, _choose, click_node, current_frame, cy, expand_node,
                                          node_point, open_canvas, settle, wait_canvas, wait_still)

# The default view, measured: the zoom; the zoom that fits the whole drawing into the free area (the
# canvas less the open info panel and a margin); the nodes under an overlay or out of the canvas; whether
# the focus is in the free area; and for each side, how far the drawing (nodes and labels) reaches past
# the free area's edge (> 0: cut off there) or falls short of it (< 0: an empty band that wide).
VIEW = f"""() => {{ const cy = {CY}; const box = document.getElementById('cy').getBoundingClientRect();
    const panel = document.getElementById('infopanel'); const p = panel && panel.getBoundingClientRect();
    const left = p && p.width > 1 && getComputedStyle(panel).display !== 'none' ? p.right - box.left : 0;
    const free = {{ x1: left + 6, y1: 6, x2: box.width - 6, y2: box.height - 6 }};
    const bb = cy.elements().boundingBox();
    const fit = Math.min((free.x2 - free.x1 - 60) / bb.w, (free.y2 - free.y1 - 60) / bb.h);
    const r = cy.elements().renderedBoundingBox();
    const f = cy.nodes('[_focus]'); const fp = f.length ? f.renderedPosition() : null;
    return {{ zoom: cy.zoom(), fit, nodes: cy.nodes().length, hidden: ({HIDDEN})().length,
             focus: !!fp && fp.x > free.x1 && fp.x < free.x2 && fp.y > free.y1 && fp.y < free.y2,
             left: free.x1 - r.x1, right: r.x2 - free.x2, top: free.y1 - r.y1, bottom: r.y2 - free.y2 }}; }}"""
BAND = 40  # px: the widest empty strip allowed beside a drawing cut off on the other side
WHOLE_SHARE = 0.85  # canvas_view.js's: the least zoom, as a share of the readable one, at which a drawing opens whole


def check_default_view(frame, what: str) -> dict:
    """The canvas shows the default view: whole when it fits readably, or fits at WHOLE_SHARE of the readable zoom
    (canvas_view.js 7: a drawing a little too large for it, its labels drawn at their least size where clear), else
    readable, the focus in sight and no empty band opposite a cut-off side."""
    from explorer.ui.canvas import READABLE_ZOOM

    wait_still(frame)
    view = frame.evaluate(VIEW)
    if view["fit"] >= READABLE_ZOOM:
        assert view["hidden"] == 0, (what, view)                 # whole, nothing under the panel or bars
    elif view["zoom"] < READABLE_ZOOM - 0.02:                   # whole, a little under the readable zoom
        assert view["zoom"] >= READABLE_ZOOM * WHOLE_SHARE * 0.99, (what, view)
        assert view["hidden"] == 0, (what, view)
    else:
        assert abs(view["zoom"] - READABLE_ZOOM) < 0.02, (what, view)
        assert view["focus"], (what, view)
        for side, opposite in (("left", "right"), ("right", "left"), ("top", "bottom"), ("bottom", "top")):
            if view[side] > 1:   # cut off on this side: the other side has no empty band
                assert view[opposite] > -BAND, (what, side, view)
    return view


@pytest.fixture(scope="module")
def part_server(shared_part_home):
    """The explorer over a home where dodgem:4x4 is solved into a value file only (the page shows a part): the
    run's one such home (tests/support/browser.py), shared with test_canvas_legibility_browser."""
    with serving_ui(shared_part_home) as url:
        yield url


def _shot(frame_element, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-view-{name}.png"))


def test_the_value_file_part_opens_whole_or_filling_the_free_area(part_server, browser):  # noqa: F811
    """dodgem:4x4's part (30 positions) opened centred on its position at zoom 0.7 showed 19 of them, one
    half under the info panel, and left 170 px on the right empty."""
    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{part_server}/?game=dodgem:4x4&view=Neighbourhood")
    view = check_default_view(frame, "dodgem:4x4 part")
    assert view["nodes"] >= 20
    _shot(frame_element, "part-dodgem")
    page.close()


@pytest.mark.parametrize("url", ["game=chopsticks:standard&pos=A|1-2|1-3&k=3", "game=tictactoe&k=1",
                                 "game=dodgem&k=3"])
def test_every_canvas_opens_in_the_default_view(server, browser, url):  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?view=Neighbourhood&{url}")
    check_default_view(frame, url)
    _shot(frame_element, "default-" + url.split("&")[0].split("=")[1].split(":")[0])
    page.close()


def _pan_away(frame) -> None:
    """The user's own view: zoomed in and panned far off the drawing's middle."""
    frame.evaluate(f"() => {{ const cy = {CY}; cy.zoom(cy.zoom() * 1.6); cy.panBy({{ x: -600, y: -400 }}); }}")
    wait_still(frame)


def _toggle_boards(page, frame, drawn: str, what: str):
    """Pan away, turn boards on or off, wait until `drawn` holds in the new canvas, and check it refitted."""
    _pan_away(frame)
    page.get_by_text("Boards on the nodes").click()
    settle(page)
    frame_element, frame = wait_canvas(page, drawn)
    check_default_view(frame, what)
    return frame_element, frame


def test_boards_and_another_layout_refit_the_view_and_an_expansion_keeps_it(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=2", warm=True)
    check_default_view(frame, "first")
    frame_element, frame = _toggle_boards(page, frame, "cy.nodes('[_image]').length === cy.nodes().length", "boards on")
    _shot(frame_element, "boards-refit")
    frame_element, frame = _toggle_boards(page, frame, "cy.nodes().every(n => n.style('background-image') === 'none')",
                                          "boards off")
    for layout in ("concentric around the focus", "force-directed", "layered by remoteness"):
        _pan_away(frame)
        _choose(page, "Layout", layout)
        frame_element, frame = current_frame(page)
        check_default_view(frame, layout)
    # An expansion keeps the user's view (zoomed in here): no refit.
    frame.evaluate(f"() => {{ const cy = {CY}; cy.zoom(cy.zoom() * 1.5); }}")
    wait_still(frame)
    target = cy(frame, "cy.nodes().filter(n => n.outdegree() === 0 && n.data('game over') !== 'yes' && "
                       "n.renderedPosition().x > cy.width() * 0.4 && n.renderedPosition().x < cy.width() - 80 && "
                       "n.renderedPosition().y > 80 && n.renderedPosition().y < cy.height() - 80).map(n => n.id())[0]")
    assert target, "no node to expand in sight"
    zoom, before = cy(frame, "cy.zoom()"), cy(frame, "cy.nodes().length")
    page.mouse.dblclick(*node_point(frame_element, frame, target))
    frame_element, frame = wait_canvas(page, f"cy.nodes().length > {before}")
    frame_element, frame = wait_canvas(page, ANSWERED)
    settle(page)
    wait_still(frame)
    assert cy(frame, "cy.zoom()") >= zoom * 0.5   # at most zoomed out to take the new nodes in, never refitted
    assert abs(cy(frame, "cy.zoom()") - cy(frame, "cy.minZoom()")) > 1e-6
    page.close()


# The names of the selected node's moves (which the component highlights), as drawn: on the move
# (Cytoscape's main label, mid-move) and/or at a spot along it (its source label), the turn of the main
# label, the box of what is drawn; and every node's disc and label.
SELECTED_NAMES = f"""() => {{ const cy = {CY};
    const nodeBoxes = cy.nodes().map(n => [n.id(), n.boundingBox({{includeLabels: false, includeOverlays: false}}),
                                           n.boundingBox({{includeNodes: false, includeLabels: true, includeOverlays: false}})]);
    const only = (main, source) => ({{includeNodes: false, includeEdges: false, includeLabels: true, includeMainLabels: main,
                                      includeSourceLabels: source, includeTargetLabels: false, includeOverlays: false}});
    const names = cy.edges('.highlight, :selected').map(e => {{
        const main = e.style('label') !== '', source = e.style('source-label') !== '';
        const b = e.boundingBox(only(main, source && !main));
        return {{ move: e.data('move'), main, source, turn: e.style('text-rotation'), box: [b.x1, b.y1, b.x2, b.y2],
                  ends: [e.source().id(), e.target().id()] }}; }});
    return {{ selected: cy.nodes(':selected').map(n => n.id()), names,
             nodes: nodeBoxes.map(([id, d, l]) => [id, [d.x1, d.y1, d.x2, d.y2], [l.x1, l.y1, l.x2, l.y2]]) }}; }}"""


def check_selected_names(frame, what: str) -> None:
    """The selected node's moves are named once each, level, and a name at its own spot (the server's
    placement) covers no node's disc or label. (Not checked: names over one another. With boards on, a move
    leaves a square board's border, farther out than the circle place_move_names measures from on a
    diagonal, so in the concentric layout three names near the selected node overlapped.)"""
    wait_still(frame)
    drawn = frame.evaluate(SELECTED_NAMES)
    assert drawn["selected"] and len(drawn["names"]) >= 2, (what, drawn["selected"])
    spots = []
    for name in drawn["names"]:
        assert not (name["main"] and name["source"]), (what, name)          # drawn once, not twice
        if name["main"]:
            assert name["turn"] == "none", (what, name)                      # level, not turned along the move
        elif name["source"]:
            spots.append(name)
    assert spots, (what, drawn["names"])
    for name in spots:
        for key, disc, label in drawn["nodes"]:
            assert not _overlap(name["box"], disc), (what, name["move"], key)
            assert not _overlap(name["box"], label), (what, name["move"], key, "label")


def test_boards_on_an_expanded_drawing_fill_the_free_area(server, browser):  # noqa: F811
    """A stranger expanded two Chopsticks nodes and turned boards on: the drawing, too wide for the free
    area, was cut off on the right while a band 73 px wide beside the info panel stayed empty (the fit's
    padding, and the node action bar's width cut away all down the panel's side); so with either layout."""
    from explorer.ui.canvas import READABLE_ZOOM

    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?game=chopsticks:standard&view=Neighbourhood", warm=True)
    for key in ("A|0-2|0-2", "B|2-4|0-2"):
        frame_element, frame = expand_node(page, frame_element, frame, key)
    assert cy(frame, "cy.nodes(':selected').length") == 1          # the panel is open, its node action bar too
    frame_element, frame = _toggle_boards(page, frame, "cy.nodes('[_image]').length === cy.nodes().length",
                                          "expanded, boards on")
    view = frame.evaluate(VIEW)
    assert view["fit"] < READABLE_ZOOM and view["right"] > 1, view     # the case: too wide, cut off on the right
    _shot(frame_element, "boards-expanded-chopsticks")
    # The selected node's move names (a stranger saw them turned along their moves, over the labels, twice:
    # Cytoscape.js kept a name's old place beside the new one when the boards moved everything).
    check_selected_names(frame, "expanded, boards on")
    for layout in ("concentric around the focus", "layered by remoteness"):
        _pan_away(frame)
        _choose(page, "Layout", layout)
        frame_element, frame = current_frame(page)
        check_default_view(frame, "expanded, boards on, " + layout)
        check_selected_names(frame, "expanded, boards on, " + layout)
    frame.evaluate(f"() => {{ const cy = {CY}; cy.zoom({{ level: 1.2, renderedPosition: cy.nodes(':selected').renderedPosition() }}); }}")
    wait_still(frame)
    _shot(frame_element, "names-selected-chopsticks")
    page.close()


def _scrolled(page) -> float:
    """How far the page is scrolled (Streamlit scrolls its main section, not the window)."""
    return page.evaluate("() => Math.max(document.scrollingElement.scrollTop, ...[...document.querySelectorAll("
                         "'[data-testid=stMain], [data-testid=stAppViewContainer], section.main')].map(e => e.scrollTop))")


def test_a_plain_wheel_scrolls_the_page_and_ctrl_wheel_zooms_down_to_a_floor(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    frame_element, frame = open_canvas(page, f"{server}/?game=chopsticks:standard&view=Neighbourhood&k=2")
    # the canvas's top to the window's: the page scrolled down by about the canvas's top (issue 35 moved the canvas onto
    # the first screen, and `scroll_into_view_if_needed` then scrolled the page only 47 px, too little to scroll back)
    frame_element.evaluate("e => e.scrollIntoView({block: 'start'})")
    time.sleep(0.5)
    box = frame_element.bounding_box()
    middle = (box["x"] + box["width"] / 2, max(box["y"] + 60, min(box["y"] + box["height"] / 2, 940)))
    zoom = cy(frame, "cy.zoom()")
    scrolled = _scrolled(page)
    assert scrolled > 100, "the page must be scrolled down to the canvas for this test"
    page.mouse.move(*middle)
    page.mouse.wheel(0, -300)   # a plain wheel up, over the canvas
    time.sleep(0.8)
    assert abs(cy(frame, "cy.zoom()") - zoom) < 1e-9                      # the canvas did not zoom
    assert _scrolled(page) < scrolled - 50                               # the page scrolled
    assert frame.evaluate("() => getComputedStyle(document.getElementById('ggZoomHint')).opacity") == "1"
    assert "scroll to zoom" in frame.evaluate("() => document.getElementById('ggZoomHint').textContent")
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-view-wheel-hint.png"))

    # Ctrl + wheel zooms; many steps out stop at the floor: the drawing at least half its fitted size.
    frame_element.scroll_into_view_if_needed()
    time.sleep(0.5)
    box = frame_element.bounding_box()
    middle = (box["x"] + box["width"] / 2, max(box["y"] + 60, min(box["y"] + box["height"] / 2, 940)))
    page.mouse.move(*middle)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -400)
    time.sleep(0.5)
    zoomed_in = cy(frame, "cy.zoom()")
    assert zoomed_in > zoom * 1.02
    for _ in range(25):
        page.mouse.wheel(0, 400)
        time.sleep(0.05)
    page.keyboard.up("Control")
    time.sleep(0.5)
    fitted = cy(frame, "Math.min(cy.width() / cy.elements().boundingBox().w, cy.height() / cy.elements().boundingBox().h)")
    least = cy(frame, "cy.zoom()")
    assert least < zoomed_in and least >= 0.5 * fitted - 1e-6, (least, fitted)

    # A click on the canvas arms the plain wheel until the pointer leaves the canvas.
    frame.locator("#viewbarFit").click()
    time.sleep(1.0)
    empty = cy(frame, "(() => { const w = cy.width(), h = cy.height(); for (let y = 40; y < h - 40; y += 20) "
                      "for (let x = w - 120; x > w / 2; x -= 20) { const m = cy.renderer().findNearestElement(x, y, true); "
                      "if (!m) return [x, y]; } return [w - 120, 40]; })()")
    inner = frame.evaluate("() => { const r = document.getElementById('cy').getBoundingClientRect(); return [r.left, r.top]; }")
    box = frame_element.bounding_box()
    spot = (box["x"] + inner[0] + empty[0], box["y"] + inner[1] + empty[1])
    page.mouse.click(*spot)
    before = cy(frame, "cy.zoom()")
    page.mouse.wheel(0, -200)
    time.sleep(0.6)
    assert cy(frame, "cy.zoom()") > before * 1.02
    page.mouse.move(box["x"] - 30 if box["x"] > 40 else box["x"] + box["width"] + 30, spot[1])
    page.mouse.move(*spot)
    after = cy(frame, "cy.zoom()")
    page.mouse.wheel(0, -200)
    time.sleep(0.6)
    assert abs(cy(frame, "cy.zoom()") - after) < 1e-9        # disarmed once the pointer left
    # The buttons still zoom.
    frame.locator("#viewbarPlus").click()
    frame.wait_for_function(f"() => {CY}.zoom() > {after * 1.1}", timeout=10_000)
    page.close()


# Each move's name as drawn: its box (Cytoscape's source label), the boxes of every node's disc and label,
# and how far the name's centre is from its move's drawn line (sampled from Cytoscape's own points).
NAMES = f"""() => {{ const cy = {CY};
    const nodeBoxes = cy.nodes().map(n => [n.id(), n.boundingBox({{includeLabels: false, includeOverlays: false}}),
                                           n.boundingBox({{includeNodes: false, includeLabels: true, includeOverlays: false}})]);
    return cy.edges('[_name_at >= 0]').map(e => {{
        const b = e.boundingBox({{includeNodes: false, includeEdges: false, includeLabels: true, includeMainLabels: false,
                                  includeSourceLabels: true, includeTargetLabels: false, includeOverlays: false}});
        const c = {{ x: (b.x1 + b.x2) / 2, y: (b.y1 + b.y2) / 2 }};
        const rs = e._private.rscratch, pts = rs.allpts || [];
        let off = Infinity;
        if (pts.length === 6) {{ for (let i = 0; i <= 200; i++) {{ const t = i / 200, u = 1 - t;
            const x = u * u * pts[0] + 2 * t * u * pts[2] + t * t * pts[4], y = u * u * pts[1] + 2 * t * u * pts[3] + t * t * pts[5];
            off = Math.min(off, Math.hypot(x - c.x, y - c.y)); }} }}
        else if (pts.length >= 4) {{ for (let i = 0; i <= 200; i++) {{ const t = i / 200;
            const x = pts[0] + t * (pts[pts.length - 2] - pts[0]), y = pts[1] + t * (pts[pts.length - 1] - pts[1]);
            off = Math.min(off, Math.hypot(x - c.x, y - c.y)); }} }}
        return {{ id: e.id(), move: e.data('move'), box: [b.x1, b.y1, b.x2, b.y2], off,
                  ends: [e.source().id(), e.target().id()] }};
    }}).concat([{{ nodes: nodeBoxes.map(([id, d, l]) => [id, [d.x1, d.y1, d.x2, d.y2], [l.x1, l.y1, l.x2, l.y2]]) }}]); }}"""


def _overlap(a, b, slack: float = 1.5) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


@pytest.mark.parametrize("url", ["game=tictactoe&k=2", "game=chopsticks:standard&k=2", "game=domineering&k=2"])
def test_move_names_sit_on_their_moves_and_overlap_nothing(server, browser, url):  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?view=Neighbourhood&{url}")
    wait_still(frame)
    *names, nodes = frame.evaluate(NAMES)
    nodes = nodes["nodes"]
    assert len(names) >= 3
    for i, name in enumerate(names):
        assert name["off"] < 4, name                                 # on its own move, as drawn
        for other in names[i + 1:]:
            assert not _overlap(name["box"], other["box"]), (name["move"], other["move"])
        for key, disc, label in nodes:
            assert not _overlap(name["box"], disc), (name["move"], key)
            if label[2] > label[0]:
                assert not _overlap(name["box"], label), (name["move"], key, "label")
    _shot(frame_element, "names-" + url.split("&")[0].split("=")[1].split(":")[0])
    page.close()


# A node against the info panel (frame px): whether the panel is open, its right edge, the node's left edge
# (its disc, without the label) and the canvas's left edge.
AGAINST_PANEL = f"""(key) => {{ const cy = {CY}; const n = cy.getElementById(key);
    const box = document.getElementById('cy').getBoundingClientRect();
    const panel = document.getElementById('infopanel');
    const b = n.renderedBoundingBox({{includeLabels: false, includeOverlays: false}});
    return {{ open: panel.getAttribute('data-expanded') === 'true', panel_right: panel.getBoundingClientRect().right,
             node_left: box.left + b.x1, canvas_left: box.left }}; }}"""


def test_a_click_pans_the_node_clear_of_the_info_panel(server, browser):  # noqa: F811
    """A click on a node opens the info panel over the drawing's left part, which covered the node clicked:
    the view pans so that the node is beside the panel (canvas_view.js, 10)."""
    from playwright.sync_api import Error as PlaywrightError

    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?game=chopsticks:standard&view=Neighbourhood")
    key = cy(frame, "cy.nodes().filter(n => !n.data('_focus'))[0].id()")
    # the node near the canvas's left edge, where the panel opens (clear of the closed panel, a narrow strip)
    frame.evaluate(f"(key) => {{ const cy = {CY}; const p = cy.getElementById(key).renderedPosition(); "
                   "cy.panBy({x: 60 - p.x, y: cy.height() / 2 - p.y}); }", key)
    frame_element, frame = click_node(page, key, frame_element, frame)
    frame.wait_for_function(f"(key) => ({AGAINST_PANEL})(key).open", arg=key, timeout=10_000)
    try:  # the panel's opening, then the view's glide
        frame.wait_for_function(f"(key) => {{ const v = ({AGAINST_PANEL})(key); return v.node_left > v.panel_right; }}",
                                arg=key, timeout=10_000)
    except PlaywrightError:
        pass  # said by the assertion below, with the figures
    wait_still(frame)
    view = frame.evaluate(AGAINST_PANEL, key)
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-view-click-beside-panel.png"))
    assert view["panel_right"] > view["canvas_left"] + 60 + 20, view  # the open panel covers where the node was
    assert view["node_left"] > view["panel_right"], view               # and the node is beside it now
    assert cy(frame, f"cy.getElementById({key!r}).selected()")          # still the one selected
    page.close()
