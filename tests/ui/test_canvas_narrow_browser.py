"""Issue 18, an outside tester's findings at a narrow window (a canvas about 940 px wide), in a real browser
(Chromium through Playwright): the opened info panel over the node clicked and its neighbours, an expansion that
dropped the zoom below the labels' readable size, and the force-directed layout's and the Cypher console's views
with nodes under the folded panel's strip. Screenshots go to tests/artifacts/canvas-narrow-*.png.
"""

from __future__ import annotations

import time

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import (CY, click_node, current_frame, cy, expand_node,
                                          open_canvas, open_console, serving_ui_with, settle, wait_canvas, wait_still)
from tests.ui.test_canvas_leftovers_browser import CUT, _boards_on, each_layout

NARROW = {"width": 940, "height": 1000}  # the tester's window: a canvas of about 480 px beside the sidebar

# Of the nodes `keys`, those not wholly inside the canvas or overlapping the opened info panel (its box, in px
# of the canvas, with the label): [key, x1, x2, y1, y2].
COVERED = f"""(keys) => {{ const cy = {CY}; const box = document.getElementById('cy').getBoundingClientRect();
    const p = document.getElementById('infopanel').getBoundingClientRect();
    const panel = {{x1: p.left - box.left, x2: p.right - box.left, y1: p.top - box.top, y2: p.bottom - box.top}};
    return keys.map(k => cy.getElementById(k)).filter(n => {{
        const b = n.renderedBoundingBox({{includeLabels: true, includeOverlays: false}});
        const inside = b.x1 >= -0.5 && b.x2 <= box.width + 0.5 && b.y1 >= -0.5 && b.y2 <= box.height + 0.5;
        const under = b.x1 < panel.x2 && panel.x1 < b.x2 && b.y1 < panel.y2 && panel.y1 < b.y2;
        return !inside || under; }}).map(n => {{ const b = n.renderedBoundingBox({{includeLabels: true}});
        return [n.id(), Math.round(b.x1), Math.round(b.x2), Math.round(b.y1), Math.round(b.y2)]; }}); }}"""

PANEL_OPEN = ("() => { const p = document.getElementById('infopanel'); "
              "return p.getAttribute('data-expanded') === 'true' && p.getBoundingClientRect().width > 100; }")


def _shot(frame_element, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-narrow-{name}.png"))


def _panel_settled(frame) -> None:
    frame.wait_for_function(PANEL_OPEN, timeout=10_000)
    time.sleep(0.6)  # the panel's width grows over a transition; the view glides after it
    wait_still(frame)


def _neighbourhood(frame, key: str) -> list[str]:
    return cy(frame, f"cy.getElementById({key!r}).closedNeighborhood().nodes().map(n => n.id())")


def _pick(page, label: str, option: str):
    """Picks `option` in the selectbox `label` by typing it (in a 940 px window the click on an option of the
    narrow box missed); the canvas's frame once still."""
    page.get_by_label(label, exact=False).first.click()
    page.keyboard.type(option)
    page.keyboard.press("Enter")
    settle(page)
    frame_element, frame = current_frame(page)
    time.sleep(0.5)
    wait_still(frame)
    return frame_element, frame


def _target(frame, expandable: bool) -> str:
    """A node in sight right of where the panel opens, not the focus: the one with the fewest moves drawn (the
    tester's choice), not a game's end if `expandable`."""
    order = "a.degree() - b.degree()"
    key = cy(frame, "(() => { const w = cy.width(), h = cy.height(); const ok = cy.nodes().filter(n => "
                    "!n.data('_focus') && n.renderedPosition().x > 200 && n.renderedPosition().x < w - 60 && "
                    "n.renderedPosition().y > 60 && n.renderedPosition().y < h - 60"
                    + (" && n.data('game over') !== 'yes'" if expandable else "")
                    + f").sort((a, b) => {order}); return ok.length ? ok[0].id() : null; }})()")
    assert key, "no node in sight right of the panel's place"
    return key


@pytest.mark.parametrize("how", ["click", "double-click"])
def test_the_opened_panel_leaves_the_node_and_its_neighbours_clear(server, browser, how):  # noqa: F811
    """Dodgem, k=2, boards on, a window of 940 px: the tester double-clicked a node and the info panel opened over
    5 of the 19 nodes, some cut at the canvas's left edge. Now, once the panel is open (a click, or a double-click
    that also expands), the node and all its neighbours are clear of it and inside the canvas, at no lower a zoom
    than half the readable one (the boards are drawn at any zoom)."""
    from explorer.ui.canvas import READABLE_ZOOM

    page = browser.new_page(viewport=NARROW)
    frame_element, frame = open_canvas(page, f"{server}/?game=dodgem&view=Neighbourhood&k=2", warm=True)
    frame_element, frame = _boards_on(page)
    zoom = cy(frame, "cy.zoom()")
    key = _target(frame, expandable=how == "double-click")
    before = cy(frame, "cy.nodes().length")
    if how == "click":
        frame_element, frame = click_node(page, key, frame_element, frame)
    else:
        frame_element, frame = expand_node(page, frame_element, frame, key)
        assert cy(frame, "cy.nodes().length") > before
    _panel_settled(frame)
    assert cy(frame, f"cy.getElementById({key!r}).selected()")
    assert frame.evaluate(f"({COVERED})", _neighbourhood(frame, key)) == [], (how, key)
    # boards on: a board reads where its label is too small to draw, so the view may go to half the readable zoom
    # (a 474 px canvas has about 180 px beside the opened panel)
    assert cy(frame, "cy.zoom()") >= min(zoom, READABLE_ZOOM) * 0.5 * 0.999
    _shot(frame_element, f"panel-dodgem-{how}")
    page.close()


@pytest.mark.parametrize("layout", ["force-directed", "layered by remoteness"])
def test_an_expansion_keeps_the_zoom_readable_and_fit_still_shows_all(server, browser, layout):  # noqa: F811
    """Chopsticks, k=2 from A|1-2|1-3, a window of 940 px: an expansion (a double-click, which opens the panel too) took the zoom
    from 0.6 to 0.3, to keep everything that was in sight clear of the panel, and every label was hidden (under the
    readable size). Now the zoom stays readable, no label is hidden, and the node expanded and what it brought are
    in sight clear of the panel; the Fit button still shows every node."""
    from explorer.ui.canvas import LABEL_FONT, MIN_LABEL_PX, READABLE_ZOOM

    page = browser.new_page(viewport=NARROW)
    frame_element, frame = open_canvas(page, f"{server}/?game=chopsticks:standard&pos=A|1-2|1-3&view=Neighbourhood&k=2",
                                       warm=True)
    if layout != "layered by remoteness":
        frame_element, frame = _pick(page, "Layout", layout)
        # the tester's view: the readable zoom around the focus (a force layout too wide for this canvas at that
        # zoom is now shown whole, smaller: the zoom a user reads it at is set here)
        frame.evaluate(f"() => {{ const cy = {CY}; cy.zoom({READABLE_ZOOM}); cy.center(cy.nodes('[_focus]')); }}")
        wait_still(frame)
    zoom = cy(frame, "cy.zoom()")
    assert zoom >= READABLE_ZOOM * 0.96
    key = _target(frame, expandable=True)
    before = set(cy(frame, "cy.nodes().map(n => n.id())"))
    frame_element, frame = expand_node(page, frame_element, frame, key)
    _panel_settled(frame)
    time.sleep(0.5)
    wait_still(frame)
    brought = [k for k in cy(frame, "cy.nodes().map(n => n.id())") if k not in before]
    assert brought
    after = cy(frame, "cy.zoom()")
    assert after >= min(zoom, READABLE_ZOOM) * 0.999, (zoom, after)
    assert LABEL_FONT * after >= MIN_LABEL_PX
    assert cy(frame, "cy.elements('.gg-speck').length") == 0  # every label drawn
    assert frame.evaluate(f"({COVERED})", [key, *brought]) == []
    _shot(frame_element, f"expanded-chopsticks-{layout.split()[0]}")
    # the Fit button: every node inside the canvas
    frame.locator("#viewbarFit").click()
    time.sleep(1.0)
    wait_still(frame)
    assert cy(frame, "cy.nodes().filter(n => { const b = n.renderedBoundingBox({includeLabels: true}); "
                     "return b.x1 < -0.5 || b.y1 < -0.5 || b.x2 > cy.width() + 0.5 || b.y2 > cy.height() + 0.5; })"
                     ".length") == 0
    page.close()


@pytest.mark.parametrize("game", ["chopsticks", "dodgem"])
def test_the_force_layout_cuts_no_node_at_a_narrow_canvas(server, browser, game):  # noqa: F811
    """The force-directed layout's view in a 940 px window (k=2, Chopsticks from A|1-2|1-3, Dodgem) drew "A|4-1|1-3" under the folded "No selected elements"
    strip (it read "4-1|1-3") and cut a node at the right edge. fcose starts from random places: several layouts,
    boards off and on, and in none is a node cut by the strip or the canvas's edges (where no window at the
    readable zoom cuts none, the whole drawing is fitted)."""
    page = browser.new_page(viewport=NARROW)
    where = "chopsticks:standard&pos=A|1-2|1-3" if game == "chopsticks" else game
    frame_element, frame = open_canvas(page, f"{server}/?game={where}&view=Neighbourhood&k=2")
    frame_element, frame = _pick(page, "Layout", "force-directed")
    for boards, run, frame_element, frame in each_layout(page, frame_element, frame, 4):
        assert cy(frame, "cy.width()") < 600
        assert frame.evaluate(CUT) == [], (game, boards, run)
        if run == 3:
            _shot(frame_element, f"force-{game}-{'boards' if boards else 'keys'}")
    page.close()


@pytest.fixture(scope="module")
def chopsticks_ui(neo4j_server, tmp_path_factory):
    """The explorer served against the test Neo4j, with Magic Fingers (382 positions) loaded: the tester's game."""
    with serving_ui_with("chopsticks:magic-fingers", neo4j_server, tmp_path_factory.mktemp("home")) as url:
        yield url


@pytest.mark.neo4j
def test_the_console_canvas_cuts_no_node(chopsticks_ui, browser):  # noqa: F811
    """A path result in the Cypher console at a 1,300 px window: 4 nodes were half under the folded panel's strip
    (the console's canvas had none of the neighbourhood's view keeping). Several runs (fcose is random): none."""
    page = browser.new_page(viewport={"width": 1300, "height": 1200})
    open_console(page, chopsticks_ui, "chopsticks:magic-fingers",
                 "MATCH path = (p:Position {game: $game, key: $key})-[:MOVE*1..3]->(q) RETURN path LIMIT 30")
    for run in range(3):
        page.get_by_role("button", name="Run", exact=True).click()
        settle(page)
        frame_element, frame = wait_canvas(page, "cy.edges().length > 0")
        frame.wait_for_function(f"() => {CY}.scratch('_gg') === true", timeout=30_000)
        time.sleep(0.5)
        wait_still(frame)
        assert cy(frame, "cy.nodes().length") >= 10
        assert frame.evaluate(CUT) == [], run
    _shot(frame_element, "console-path")
    page.close()


# Each canvas control's label and shown value, cut or whole: [what, text, px of text, px shown] of those cut (a
# value's text wider than its box, a label's wider than its line), for the controls in `root` (the page's canvas
# controls, or the opened "More" popover).
CONTROLS_CUT = """(root) => {
    const scope = root ? document.querySelector('[data-testid=stPopoverBody]') : document;
    const out = [];
    const boxes = [...scope.querySelectorAll('[data-testid=stSelectbox], [data-testid=stNumberInput], '
                                            + '[data-testid=stCheckbox], [data-testid=stButton], [data-testid=stPopover]')]
        .filter(b => !b.closest('[data-testid=stSidebar]') && (root || !b.closest('[data-testid=stPopoverBody]')));
    for (const b of boxes) {
        const label = b.querySelector('[data-testid=stWidgetLabel] p, [data-testid=stMarkdownContainer] p, button p');
        if (label && label.scrollWidth > label.clientWidth + 1)
            out.push(['label', label.innerText, label.scrollWidth, label.clientWidth]);
        const input = b.querySelector('input[type=text], input[type=number]');
        if (input && input.scrollWidth > input.clientWidth + 1)
            out.push(['value', input.value, input.scrollWidth, input.clientWidth]);
    }
    return {count: boxes.length, cut: out};
}"""


@pytest.mark.parametrize("width, height", [(1000, 800), (1440, 900)])
def test_every_canvas_control_reads_whole(server, browser, width, height):  # noqa: F811
    """At a 1,000 px window the canvas controls stood ten abreast in a 540 px column and were cut ("nothi…",
    "layered by r…", "Boar…"); at 1,440 px "Boards on the no…". Now every label and every value shown, at the
    longest values (a CGT game's temperature, the concentric layout), is whole, those in the "More" popover too."""
    page = browser.new_page(viewport={"width": width, "height": height})
    open_canvas(page, f"{server}/?game=domineering(rows=2,cols=3)&view=Neighbourhood&layout=concentric"
                      "&colour=temperature&size=temperature")
    seen = page.evaluate(f"({CONTROLS_CUT})", False)
    assert seen["count"] >= 7 and seen["cut"] == [], (width, seen)
    assert page.get_by_label("Layout", exact=False).first.input_value() == "concentric around the focus"
    page.get_by_role("button", name="More").click()
    size_by = page.locator('[data-testid=stPopoverBody] input[aria-label="Size by"]')
    size_by.wait_for()
    time.sleep(0.5)
    seen = page.evaluate(f"({CONTROLS_CUT})", True)
    assert seen["count"] == 4 and seen["cut"] == [], (width, seen)
    assert size_by.input_value() == "temperature (CGT)"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"canvas-narrow-controls-{width}.png"))
    page.close()


def test_the_info_panel_text_reads_at_1000_px(server, browser):  # noqa: F811
    """A stranger at a 1000 px window opened the info panel: its text was 8.4 px (the component sizes its text by the
    frame's width: 1rem is 3 px + 1% of it). Now every key, value, title and button of the panel is at least 11 px,
    and the panel keeps its width (no wider than a third of the canvas), so it covers no more of the drawing."""
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=2", warm=True)
    key = _target(frame, expandable=False)
    frame_element, frame = click_node(page, key, frame_element, frame)
    _panel_settled(frame)
    sizes = frame.evaluate("() => [...document.querySelectorAll('.infopanel__key, .infopanel__val, .infopanel__name, "
                           ".infopanel__action-btn')].filter(e => e.offsetParent !== null && e.textContent.trim())"
                           ".map(e => [e.textContent.trim().slice(0, 20), parseFloat(getComputedStyle(e).fontSize)])")
    assert len(sizes) >= 8, sizes
    assert all(px >= 11 for _, px in sizes), sizes
    width = frame.evaluate("() => [document.getElementById('infopanel').getBoundingClientRect().width, "
                           "document.getElementById('cy').getBoundingClientRect().width]")
    assert width[0] <= width[1] / 3, width
    _shot(frame_element, "panel-text-1000")
    page.close()
