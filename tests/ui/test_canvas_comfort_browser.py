"""A stranger's walk (issue 35), in Chromium at 1440x900 and 1000x800: tic-tac-toe's Neighbourhood, then three
expansions by double-click (X../.../..., X../.O./..., XX./.O./...), each of which opens the info panel too. They found:

- the captions 5 to 6 px tall at 1000 px after the three expansions (the view zoomed out to the readable zoom, 0.6, to keep
  all that was in sight beside the panel, even when the first expansion added nothing): now every node label drawn in
  sight stays at least COMFORT_LABEL_PX on screen, or the size the canvas opened at if smaller (the view never zooms in
  on an expansion; it shows what was added in part rather than shrinking everything: canvas_view.js comfortFirst), but
  for a little less, 8.5 px, where no view at the comfortable zoom keeps every node clear of the panel and the focus in
  sight (the issue asks for both; the comfortable size is this project's aim, not the issue's: session 28);
- the opened info panel taking a third of the canvas, and nodes under it or cut at the canvas's edge: now the panel takes
  at most INFO_PANEL_SHARE of the canvas's width, and no node lies, even in part, under the panel, its bar, the toolbar or the
  zoom buttons, nor is cut by the canvas's edge (a node is shown whole or not at all);
- the new moves without their names while their node was selected (a name slid along its move was set in the page's
  realm, which Cytoscape.js ignored): now the moves of the node selected (the one expanded) in sight are named, each
  name drawn on its line or just beside it where it covers nothing (revealNames). One may stay nameless: a move whose
  whole line lies under its ends' labels and between other moves' names (X b3 into XX./.O./..., 64 px long under a
  46 px label) has no clear spot; it is named on hover and in the info panel. Before: four of eight at 1440 px;
- the zoom bar's tooltip "Recenter Veiw" (the component's typo): now "Recenter view".

Screenshots go to tests/artifacts/canvas-comfort-*.png.
"""

from __future__ import annotations

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import CY, current_frame, cy, node_point, open_canvas, settle, wait_still
from tests.ui.test_canvas_clear_browser import NODES

WALK = ["X../.../...", "X../.O./...", "XX./.O./..."]
WIDTHS = [(1440, 900), (1000, 800)]

# The labels drawn in sight (not hidden as specks, at least in part inside the canvas and not wholly under an overlay): each
# one's size on screen (its font size times the zoom); the info panel's width against the canvas's; and the moves of the
# node selected whose line is in sight: whether each one's name is drawn (a label or a source label, not transparent).
STATE = f"""() => {{ const cy = {CY}; const box = document.getElementById('cy').getBoundingClientRect();
    const panel = document.getElementById('infopanel').getBoundingClientRect();
    const z = cy.zoom(), L = {{includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false}};
    const inSight = b => b.x2 > 0 && b.y2 > 0 && b.x1 < box.width && b.y1 < box.height &&
        !(b.x1 >= panel.left - box.left && b.x2 <= panel.right - box.left);
    const labels = cy.nodes().filter(n => n.visible() && n.style('label') && +n.style('text-opacity') > 0 &&
                                          !n.hasClass('gg-speck') && inSight(n.renderedBoundingBox(L)))
        .map(n => [n.id(), parseFloat(n.style('font-size')) * z]);
    const selected = cy.$('node:selected');
    const moves = selected.length !== 1 ? [] : selected.connectedEdges().filter(e => e.visible()).filter(e => {{
        const s = e.renderedSourceEndpoint(), t = e.renderedTargetEndpoint(), m = e.renderedMidpoint();
        return [s, t, m].every(p => p.x > panel.right - box.left && p.x < box.width && p.y > 0 && p.y < box.height); }})
        .map(e => [e.data('move'), (e.style('label') !== '' || e.style('source-label') !== '') && +e.style('text-opacity') > 0
                                   && !e.hasClass('gg-speck') && !e.hasClass('gg-covered')]);
    return {{ zoom: z, labels, moves, selected: selected.map(n => n.id()), panel: panel.width, canvas: box.width,
              title: document.getElementById('viewbarCenter').title }}; }}"""


@pytest.fixture(scope="module", params=WIDTHS, ids=[f"{w}" for w, _ in WIDTHS])
def walked(request, server, browser):  # noqa: F811
    """(width, the state after each expansion, NODES after each) on the stranger's walk."""
    width, height = request.param
    page = browser.new_page(viewport={"width": width, "height": height})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood")
    opened = frame.evaluate(STATE)
    states, nodes = [], []
    for shown in WALK:
        # (the game is stored up to symmetry: a node's key is its canonical board, its label the board as drawn)
        key = cy(frame, f"cy.nodes().filter(n => String(n.data('label')).split('\\n').slice(0, 3).join('/') === {shown!r})"
                        ".map(n => n.id())[0]")
        assert key, shown
        before = cy(frame, "cy.nodes().length")
        frame_element.scroll_into_view_if_needed()
        wait_still(frame)
        page.mouse.dblclick(*node_point(frame_element, frame, key))
        if shown != WALK[0]:  # (at k=2 the first brings nothing new: its children are drawn already)
            frame.wait_for_function(f"() => {CY}.nodes().length > {before}", timeout=60_000)
        page.wait_for_timeout(1000)  # the panel's opening (a transition), then the view's glide
        settle(page)
        frame_element, frame = current_frame(page)
        frame.wait_for_function(f"() => !{CY}.__ggAhead", timeout=60_000)
        wait_still(frame)
        page.wait_for_timeout(600)   # the labels, then the names, are placed once the nodes are still
        states.append({**frame.evaluate(STATE), "key": key})
        nodes.append(frame.evaluate(NODES))
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-comfort-tictactoe-{width}.png"))
    yield width, states, nodes, opened
    page.close()


def test_every_caption_in_sight_reads_after_each_expansion(walked):
    from explorer.ui.canvas.marks import COMFORT_LABEL_PX

    width, states, _, opened = walked
    # (not above the size the canvas opened at: the view never zooms in on an expansion; at 1000 px it opens at 9.7 px)
    least = min(COMFORT_LABEL_PX, min(px for _, px in opened["labels"]))
    assert least >= 9, opened["zoom"]
    # The comfortable size gives way where no view at it keeps the rules the issue sets, and the view is then the one at the
    # highest zoom that keeps them (labels still well over MIN_LABEL_PX; 7.2 px at the readable zoom, where the view went
    # before, fails this):
    # - "the panel never hides a node": at 1000 px the third expansion's band is wider than the free area, and at the
    #   comfortable zoom two nodes lay under the opened panel (canvas_view.js reveal falls back to its own tiers): 8.8 px;
    # - "keep the focus node in view" (test_the_focus_stays_in_sight): at 1440 px after the second expansion the node
    #   expanded, the focus two rows above it and the nodes beside the panel fit together only at zoom 0.826 (9.9 px),
    #   a hair under the comfortable 0.833 (comfortFirst's tiers that hold the focus, session 28).
    # Left: a view both comfortable and hiding nothing, the focus in it, at those widths.
    least = min(least, 8.5)
    for key, state in zip(WALK, states):
        assert state["labels"], (width, key)
        small = [(k, round(px, 1)) for k, px in state["labels"] if px < least - 1e-6]
        assert small == [], (width, key, round(state["zoom"], 3))


def test_the_panel_is_narrow_and_hides_no_node(walked):
    from explorer.ui.canvas.marks import INFO_PANEL_SHARE

    width, states, nodes, _ = walked
    for state, seen in zip(states, nodes):
        key = state["key"]
        assert seen["panel"], (width, key)                                # the double-click opened the panel
        assert state["panel"] <= INFO_PANEL_SHARE * state["canvas"] + 1, (width, key, state["panel"], state["canvas"])
        assert seen["nodes"][key]["inside"], (width, key)                # the node expanded is in sight
        hidden = {k: n["under"] or "cut" for k, n in seen["nodes"].items() if n["under"] or n["cut"]}
        assert hidden == {}, (width, key, round(state["zoom"], 3))


def test_the_focus_stays_in_sight(walked):
    """The stranger's walk ends two rows below the focus: at the comfortable zoom the view showed the node expanded and
    the nearest new nodes and left the focus's row above the canvas (issue 35). The focus now stays whole and clear of
    every control after each expansion."""
    width, states, nodes, _ = walked
    for state, seen in zip(states, nodes):
        focus = seen["focus"]
        where = (width, state["key"], round(state["zoom"], 3))
        assert focus and seen["nodes"][focus]["inside"], where
        assert seen["nodes"][focus]["under"] == [], where


def test_the_selected_nodes_moves_are_named(walked):
    width, states, _, opened = walked
    for state in states:
        key = state["key"]
        assert state["selected"] == [key], (width, key, state["selected"])
        assert state["moves"], (width, key)
        unnamed = [move for move, named in state["moves"] if not named]
        assert len(unnamed) <= 1, (width, key, len(state["moves"]), unnamed)


def test_the_recentre_button_is_titled_in_words(walked):
    width, states, _, opened = walked
    assert states[-1]["title"] == "Recenter view"
