"""Issue 18's canvas leftovers, in a real browser (Chromium through Playwright): move names over nodes in the
force-directed layout, the layered layout after an expansion and a layout round trip, the wheel's zoom
step, the collapse button, and the force-directed layout's room for every node. Screenshots go to
tests/artifacts/canvas-leftovers-*.png for people to look at.
"""

from __future__ import annotations

import math
import time

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import (CY, OVERLAPS, _choose, act, click_node, click_panel_button, current_frame,
                                          cy, expand_node, node_point, open_canvas, settle, wait_canvas, wait_nodes,
                                          wait_still)

NODE_BOX = "{includeNodes: true, includeEdges: false, includeLabels: true, includeOverlays: false}"
LABEL_BOX = "{includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false}"
BODY_BOX = "{includeNodes: true, includeEdges: false, includeLabels: false, includeOverlays: false}"

# The names drawn (text-opacity above 0, a non-empty label) over a node's disc or board, or over its label:
# [move, node] pairs. The two are boxes of their own (as the page places names, canvas_view.js): a name in the
# empty corner of their union, beside a label narrower than its node, covers neither. A name that only touches
# a box (1 px) is read.
NAMES_OVER_NODES = f"""() => {{ const cy = {CY}; const out = [];
    const boxes = cy.nodes().flatMap(n => [[n.id(), n.boundingBox({BODY_BOX})], [n.id(), n.boundingBox({LABEL_BOX})]])
        .filter(([id, a]) => a.w > 0 && a.h > 0 && isFinite(a.w));
    cy.edges().forEach(e => {{
        if (!(parseFloat(e.style('text-opacity')) > 0)) return;
        const b = e.boundingBox({LABEL_BOX});
        if (!(b.w > 0 && b.h > 0 && isFinite(b.w))) return;
        boxes.forEach(([id, a]) => {{
            if (a.x1 < b.x2 - 1 && b.x1 + 1 < a.x2 && a.y1 < b.y2 - 1 && b.y1 + 1 < a.y2) out.push([e.data('move'), id]);
        }});
    }});
    return out; }}"""


def _shot(frame_element, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-leftovers-{name}.png"))


def _relayout(page):
    page.get_by_role("button", name="Lay out again").click()
    settle(page)
    frame_element, frame = current_frame(page)
    time.sleep(0.5)
    wait_still(frame)
    return frame_element, frame


def _boards_on(page):
    page.get_by_text("Boards on the nodes").click()
    settle(page)
    frame_element, frame = wait_canvas(page, "cy.nodes('[_image]').length === cy.nodes().length")
    time.sleep(0.5)
    wait_still(frame)
    return frame_element, frame


def each_layout(page, frame_element, frame, runs: int):
    """(boards, run, frame_element, frame) after each of `runs` layouts with boards off, then `runs` with boards on:
    a layout placed by the browser (fcose) starts from random places, so a test looks at several."""
    for boards in (False, True):
        if boards:
            frame_element, frame = _boards_on(page)
        for run in range(runs):
            if run:
                frame_element, frame = _relayout(page)
            yield boards, run, frame_element, frame


@pytest.fixture(scope="module", params=["tictactoe", "dodgem"])
def force_layouts(request, server, browser):  # noqa: F811
    """k=2 from the game's start in the force-directed layout (fcose, in the browser), laid out three times with
    boards off, then three times with boards on (fcose starts from random places, so several layouts are looked
    at): (game, page, the canvas's frame element and frame after the last, and what each layout drew: its
    [move, node] names over nodes, its tucked and its drawn names, and its pairs of overlapping node boxes).
    Both tests below judge the same six layouts, each its own property; the page stays for the first's
    pointer checks."""
    game = request.param
    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?game={game}&view=Neighbourhood&k=2")
    _choose(page, "Layout", "force-directed")
    frame_element, frame = current_frame(page)
    wait_still(frame)
    drawn = []
    for boards, run, frame_element, frame in each_layout(page, frame_element, frame, 3):
        frame.wait_for_function(f"() => {CY}.scratch('_gg') === true", timeout=30_000)
        time.sleep(0.3)  # the names are looked at in the task after the layout's last frame
        boxes = frame.evaluate(f"() => {CY}.nodes().map(n => n.boundingBox({NODE_BOX}))")
        drawn.append({"boards": boards, "run": run, "names_over_nodes": frame.evaluate(NAMES_OVER_NODES),
                      "tucked": cy(frame, "cy.edges('.gg-tucked').length"),
                      "named": cy(frame, "cy.edges().filter(e => !e.hasClass('gg-tucked')).length"),
                      "overlapping": frame.evaluate(f"({OVERLAPS})", boxes)})
        if run == 2:
            kind = "boards" if boards else "keys"
            _shot(frame_element, f"force-{game}-{kind}")
            _shot(frame_element, f"force-nodes-{game}-{kind}")
    yield game, page, frame_element, frame, drawn
    page.close()


def test_force_layout_draws_no_move_name_over_a_node(force_layouts):
    """The force-directed layout (fcose, in the browser) drew moves' names under the nodes' labels. A name over
    a node's box is hidden until the move or one of its ends is under the pointer or selected. fcose starts
    from random places, so several layouts are looked at, with boards off and on."""
    game, page, frame_element, frame, drawn = force_layouts
    assert len(drawn) == 6
    for layout in drawn:
        assert layout["names_over_nodes"] == [], (game, layout["boards"], layout["run"])
        assert layout["named"] > 0, (game, layout["boards"], layout["run"])  # names are drawn
    if not sum(layout["tucked"] for layout in drawn):
        pytest.skip("no layout drew a name over a node: nothing was hidden to show again")
    # A hidden name comes back while its move is under the pointer; while an end is under it (or selected) where it
    # is clear: no name drawn then lies over a node or a caption (the stranger's double-click, issue 35).
    from tests.ui.test_canvas_readable_browser import MEASURE

    tucked = cy(frame, "cy.edges('.gg-tucked').map(e => [e.id(), e.source().id()])")
    if tucked:
        edge, end = tucked[0]
        page.mouse.move(*node_point(frame_element, frame, end))
        frame.wait_for_timeout(300)
        assert not frame.evaluate(MEASURE)["bad"]
        act(frame, f"cy.getElementById({edge!r}).emit('mouseover')")  # the move itself under the pointer
        frame.wait_for_function(f"() => parseFloat({CY}.getElementById({edge!r}).style('text-opacity')) === 1",
                                timeout=5_000)
        act(frame, f"cy.getElementById({edge!r}).emit('mouseout')")
        page.mouse.move(5, 5)
        frame.wait_for_function(f"() => parseFloat({CY}.getElementById({edge!r}).style('text-opacity')) === 0",
                                timeout=5_000)
        # Selected, its names come back where they are clear (at their place, or slid along their move), and
        # no name drawn then lies over a node or a caption (the stranger's double-click, issue 35)
        click_node(page, end, frame_element, frame)
        wait_still(frame)
        frame.wait_for_timeout(300)
        assert not frame.evaluate(MEASURE)["bad"]


def test_the_force_layout_leaves_no_two_nodes_overlapping(force_layouts):
    """k=2 from the start of tic-tac-toe and of Dodgem 3x3: after the force-directed layout, no two nodes' boxes
    (disc or board, with the label under it) overlap, with boards off and on, over several layouts."""
    game, _, _, _, drawn = force_layouts
    assert len(drawn) == 6
    for layout in drawn:
        assert layout["overlapping"] == 0, (game, layout["boards"], layout["run"])


# The drawn canvas as the server's layouts see it: elements (data and places) read from the browser.
ELEMENTS = f"() => {CY}.json().elements"
PLACED = ("_bend", "_bent", "_name_at", "_picked_name_at", "_no_name")


def _fresh_layered(elements: dict) -> dict:
    """The layered layout canvas.layout_for makes of these elements from scratch (their data without what any
    layout placed): its positions and each move's placing data."""
    from explorer.ui import canvas

    grown = canvas.Grown(scope=())
    for group, into in (("nodes", grown.nodes), ("edges", grown.edges)):
        for element in elements.get(group, []):
            into[element["data"]["id"]] = {"data": {k: v for k, v in element["data"].items() if k not in PLACED}}
    focus = next(key for key, node in grown.nodes.items() if node["data"].get("_focus"))
    layout = canvas.layout_for("layered", grown, focus)
    return {"positions": layout["positions"],
            "moves": {i: {k: e["data"].get(k) for k in PLACED} for i, e in grown.edges.items()}}


@pytest.mark.parametrize("url", ["game=tictactoe&k=2", "game=chopsticks:standard&pos=A|1-2|1-3&k=2"])
def test_layered_after_an_expansion_and_a_round_trip_is_a_fresh_layered_layout(server, browser, url):  # noqa: F811
    """Layered, expand a node, force-directed, layered again: the moves were drawn with the curves of an earlier
    layout (a bend the server dropped stayed in the browser, which merges new data into old), so the picture
    crossed much more than a fresh layered layout of the same elements. Now every node and every move's bend and
    name are where a fresh layout puts them."""
    from explorer.ui import canvas

    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?view=Neighbourhood&{url}", warm=True)
    target = cy(frame, "cy.nodes().filter(n => n.outdegree() === 0 && n.data('game over') !== 'yes' && "
                       "n.renderedPosition().x > 320 && n.renderedPosition().x < cy.width() - 80 && "
                       "n.renderedPosition().y > 60 && n.renderedPosition().y < cy.height() - 60).map(n => n.id())[0]")
    assert target, "no node to expand in sight"
    frame_element, frame = expand_node(page, frame_element, frame, target)
    expanded = frame.evaluate(ELEMENTS)
    _choose(page, "Layout", "force-directed")
    frame_element, frame = current_frame(page)
    wait_still(frame)
    _choose(page, "Layout", "layered by remoteness")
    frame_element, frame = current_frame(page)
    time.sleep(0.5)
    wait_still(frame)
    drawn = frame.evaluate(ELEMENTS)
    assert len(drawn["nodes"]) == len(expanded["nodes"])
    fresh = _fresh_layered(drawn)
    moved = [n["data"]["id"] for n in drawn["nodes"]
             if math.dist((n["position"]["x"], n["position"]["y"]),
                          (fresh["positions"][n["data"]["id"]]["x"], fresh["positions"][n["data"]["id"]]["y"])) > 1]
    assert moved == []
    stale = [(e["data"]["move"], {k: e["data"].get(k) for k in PLACED}, fresh["moves"][e["data"]["id"]])
             for e in drawn["edges"] if {k: e["data"].get(k) for k in PLACED} != fresh["moves"][e["data"]["id"]]]
    assert stale == []
    # and Cytoscape.js draws a move straight where the layout bends none, but for one the page bent round a label its
    # straight line ran through (canvas_view.js routeAround, marked `_ggRouted` and taken off at each placement): such a
    # move's straight line must cross another node's box (a bend left from an earlier layout would cross none)
    assert cy(frame, "cy.edges().filter(e => !e.data('_bent') && !e.scratch('_ggRouted') && "
                     "e.style('curve-style') === 'unbundled-bezier').length") == 0
    needless = cy(frame, "cy.edges().filter(e => !e.data('_bent') && e.scratch('_ggRouted')).filter(e => { "
                         "const s = e.source().position(), t = e.target().position(); "
                         "const n = Math.max(2, Math.ceil(Math.hypot(t.x - s.x, t.y - s.y) / 2)); "
                         "return !cy.nodes().some(o => { if (o.same(e.source()) || o.same(e.target())) return false; "
                         "const b = o.boundingBox({includeLabels: true}); "
                         "for (let i = 0; i <= n; i++) { const x = s.x + (t.x - s.x) * i / n, y = s.y + (t.y - s.y) * i / n; "
                         "if (x > b.x1 && x < b.x2 && y > b.y1 && y < b.y2) return true; } return false; }); })"
                         ".map(e => e.data('move'))")
    assert needless == []
    assert canvas.PLACED == PLACED
    _shot(frame_element, "layered-round-trip-" + url.split("&")[0].split("=")[1].split(":")[0])
    page.close()


def _zoom_steps(page, frame, frame_element, deltas, ctrl: bool) -> list[float]:
    """The zoom's ratio over each wheel event of `deltas` (deltaY px) with the pointer on the canvas's middle."""
    box = frame_element.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ratios = []
    if ctrl:
        page.keyboard.down("Control")
    try:
        for delta in deltas:
            before = cy(frame, "cy.zoom()")
            page.mouse.wheel(0, delta)
            frame.wait_for_function(f"() => Math.abs({CY}.zoom() - {before}) > 1e-9", timeout=5_000)
            time.sleep(0.05)
            ratios.append(cy(frame, "cy.zoom()") / before)
    finally:
        if ctrl:
            page.keyboard.up("Control")
    return ratios


def test_a_wheel_notch_is_one_zoom_step_with_or_without_ctrl_and_a_pinch_follows(server, browser):  # noqa: F811
    """Ctrl + wheel zoomed 4.7% a notch for four notches and 2.8% after (Cytoscape.js guesses the device from the
    deltas it has seen); now a notch (deltaY 100, Chromium's) is one step of 15%, in or out, every time, with
    Ctrl and with a plain wheel after a click on the canvas; a bigger delta is still one step; a trackpad's
    pinch (Ctrl + wheel with a small deltaY, Chromium's deltaY = -100 ln(scale)) zooms by its own scale."""
    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=2")
    notch = 1.15
    # out and back in, so the floor (half the zoom that fits the drawing) is never reached
    out = _zoom_steps(page, frame, frame_element, [100] * 3, ctrl=True)
    back = _zoom_steps(page, frame, frame_element, [-100] * 6, ctrl=True)
    for ratio in out:
        assert ratio == pytest.approx(1 / notch, rel=1e-3), out
    for ratio in back:
        assert ratio == pytest.approx(notch, rel=1e-3), back
    assert _zoom_steps(page, frame, frame_element, [400, -400], ctrl=True) == pytest.approx([1 / notch, notch], rel=1e-3)
    # a plain wheel after a click on the canvas's background zooms by the same step
    box = frame_element.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 60, box["y"] + 60)
    plain = _zoom_steps(page, frame, frame_element, [100, -100, -100], ctrl=False)
    assert plain == pytest.approx([1 / notch, notch, notch], rel=1e-3)
    # a pinch: many small Ctrl + wheel events, each zooming by exp(-deltaY / 100), about the pointer
    pinch = frame.evaluate(f"""async () => {{ const cy = {CY}; const el = document.getElementById('cy');
        const r = el.getBoundingClientRect(); const ratios = [];
        for (const dy of [-2, -3.5, -1, 2.5, 4]) {{
            const before = cy.zoom();
            el.dispatchEvent(new WheelEvent('wheel', {{ deltaY: dy, ctrlKey: true, bubbles: true, cancelable: true,
                                                        clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }}));
            ratios.push(cy.zoom() / before);
        }}
        return ratios; }}""")
    assert pinch == pytest.approx([math.exp(-dy / 100) for dy in (-2, -3.5, -1, 2.5, 4)], rel=1e-4)
    page.close()


def test_collapse_takes_away_exactly_what_the_expansion_added(server, browser):  # noqa: F811
    """Expanding a node brings its neighbours, some of which were on the canvas already; collapsing it takes
    away exactly the nodes (and their moves) the expansion added, and none that were there before."""
    page = browser.new_page(viewport={"width": 1400, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=2", warm=True)
    nodes_before = set(cy(frame, "cy.nodes().map(n => n.id())"))
    edges_before = set(cy(frame, "cy.edges().map(e => e.id())"))
    # a node two moves from the start, in sight: its predecessors (one move from the start) are on the canvas
    target = cy(frame, "cy.nodes().filter(n => n.outdegree() === 0 && n.data('game over') !== 'yes' && "
                       "n.renderedPosition().x > 320 && n.renderedPosition().x < cy.width() - 80 && "
                       "n.renderedPosition().y > 60 && n.renderedPosition().y < cy.height() - 60).map(n => n.id())[0]")
    assert target
    frame_element, frame = expand_node(page, frame_element, frame, target)
    nodes_after = set(cy(frame, "cy.nodes().map(n => n.id())"))
    neighbours = set(cy(frame, f"cy.getElementById({target!r}).neighborhood('node').map(n => n.id())"))
    added = nodes_after - nodes_before
    assert nodes_before < nodes_after and added
    assert neighbours & nodes_before - {target}, "the expansion reached no node that was there before"
    frame_element, frame = click_node(page, target, frame_element, frame)
    time.sleep(0.5)  # the panel's opening
    click_panel_button(frame, "Collapse what it expanded")
    wait_nodes(frame, f"n === {len(nodes_before)}")
    settle(page)
    frame_element, frame = current_frame(page)
    assert set(cy(frame, "cy.nodes().map(n => n.id())")) == nodes_before
    assert set(cy(frame, "cy.edges().map(e => e.id())")) == edges_before
    page.close()


# Nodes drawn in part: neither wholly inside the canvas's shown part (right of the folded info panel, which is a
# strip a few px in from the canvas's left edge that the drawing shows through on both sides) nor wholly out of
# the canvas. [key, x1, x2, y1, y2] in px of the canvas.
CUT = f"""() => {{ const cy = {CY}; const box = document.getElementById('cy').getBoundingClientRect();
    const panel = document.getElementById('infopanel'); const p = panel && panel.getBoundingClientRect();
    const left = p && p.width > 1 && getComputedStyle(panel).display !== 'none' ? p.right - box.left : 0;
    return cy.nodes().filter(n => {{
        const b = n.renderedBoundingBox({{includeLabels: true, includeOverlays: false}});
        const inside = b.x1 >= left - 0.5 && b.x2 <= box.width + 0.5 && b.y1 >= -0.5 && b.y2 <= box.height + 0.5;
        const outside = b.x2 <= 0 || b.x1 >= box.width || b.y2 <= 0 || b.y1 >= box.height;
        return !inside && !outside; }}).map(n => {{ const b = n.renderedBoundingBox({{includeLabels: true}});
        return [n.id(), Math.round(b.x1), Math.round(b.x2), Math.round(b.y1), Math.round(b.y2)]; }}); }}"""


@pytest.mark.parametrize("width", [1366, 1400, 1466])
def test_with_boards_on_dodgem_4x4_at_k2_no_node_is_cut_at_any_canvas_width(server, browser, width):  # noqa: F811
    """A stranger saw a node half cut at the canvas's left edge: Dodgem 4x4, k=2, boards on, a canvas about 940 px
    wide (these pages make it 900, 934 and 1,000 px). At 934 px the layered layout's default view cut a node under
    the folded info panel's strip: the drawing shows on both sides of the strip, and every window at zoom 0.6 cut
    a node somewhere. Now the view keeps every node whole, at the readable zoom give or take 3%. (The
    force-directed layout starts from random places, and a window that cuts nothing may not exist at any of those
    zooms: it is looked at for the report, not asserted.)"""
    from explorer.ui.canvas import READABLE_ZOOM

    page = browser.new_page(viewport={"width": width, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?game=dodgem:4x4&view=Neighbourhood&k=2")
    frame_element, frame = _boards_on(page)
    for layout in ("layered by remoteness", "concentric around the focus"):
        if layout != "layered by remoteness":
            _choose(page, "Layout", layout)
            frame_element, frame = current_frame(page)
            time.sleep(0.5)
            wait_still(frame)
        assert 900 <= cy(frame, "cy.width()") <= 1000
        assert frame.evaluate(CUT) == [], (width, layout)
        assert abs(cy(frame, "cy.zoom()") - READABLE_ZOOM) < 0.02 or cy(frame, "cy.nodes().renderedBoundingBox().w") \
            <= cy(frame, "cy.width()")
        _shot(frame_element, f"dodgem4-{width}-{layout.split()[0]}")
    page.close()
