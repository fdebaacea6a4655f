"""Issue 35's readability leftovers that a stranger found at 1440 and 1000 px, in Chromium, after scripted expansions
(each a double-click, which opens the info panel too) on tic-tac-toe, Chopsticks, Dodgem 3x3 and dobutsu:small:

- the info panel and the canvas's controls never hide a node: no node (its disc or board, and its label, by
  Cytoscape.js's bounding boxes) lies, even in part, under the info panel, its node action bar, the toolbar or the zoom
  buttons, and none is cut by the canvas's edge (a node is shown whole or not at all). Before, at 1000 px, Dodgem 3x3
  had 2 nodes under the opened panel after three expansions, dobutsu:small 1 to 4 (the view kept what was in sight
  clear of the panel, and left the nodes beside it under it);
- no move runs through a layered band's name ("remoteness 3"): each name shown is clear of every move's line as drawn
  (its straight line, or its curve through its control point). Before, the names were hidden only over a node, a
  label or a move's name, and moves ran through them.

Screenshots go to tests/artifacts/canvas-clear-*.png.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import CY, cy, expand_node, open_canvas, wait_still

# Each node: the overlays it lies under (in part or wholly, its box with its label; `wholly`: those it is wholly under,
# out of sight), whether it is cut by the
# canvas's edge (in part inside, in part out) and whether it is wholly inside the canvas; and the focus's key.
NODES = f"""() => {{ const cy = {CY}; const box = document.getElementById('cy').getBoundingClientRect();
    const overlays = ['infopanel', 'nodeActions', 'toolbar', 'viewbar'].map(id => [id, document.getElementById(id)])
        .filter(([id, el]) => el && getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden')
        .map(([id, el]) => [id, el.getBoundingClientRect()]).filter(([id, r]) => r.width > 1 && r.height > 1);
    const out = {{}};
    cy.nodes().filter(n => n.visible()).forEach(n => {{
        const b = n.renderedBoundingBox({{includeLabels: true, includeOverlays: false}});
        const x1 = box.left + b.x1, x2 = box.left + b.x2, y1 = box.top + b.y1, y2 = box.top + b.y2;
        const inside = x1 >= box.left - 0.5 && y1 >= box.top - 0.5 && x2 <= box.right + 0.5 && y2 <= box.bottom + 0.5;
        const outside = x2 <= box.left || y2 <= box.top || x1 >= box.right || y1 >= box.bottom;
        out[n.id()] = {{ under: overlays.filter(([id, r]) => x1 < r.right && r.left < x2 && y1 < r.bottom && r.top < y2)
                                       .map(([id]) => id),
                         wholly: overlays.filter(([id, r]) => x1 >= r.left && x2 <= r.right && y1 >= r.top && y2 <= r.bottom)
                                        .map(([id]) => id),
                         cut: !inside && !outside, inside }};
    }});
    return {{ nodes: out, zoom: cy.zoom(), focus: cy.nodes('[_focus]').map(n => n.id())[0] || null,
              panel: document.getElementById('infopanel').getAttribute('data-expanded') === 'true' }}; }}"""

# Each band's name shown, with the moves whose drawn line runs through its box (frame px): each move's line sampled
# every 2 px along its straight line, or along the quadratic curve through its one control point (a bent move, or
# one fanned out by Cytoscape.js), from endpoint to endpoint, as Cytoscape.js draws it.
ROWS = f"""() => {{ const cy = {CY}; const box = document.getElementById('cy').getBoundingClientRect();
    const lines = cy.edges().filter(e => e.visible()).map(e => {{
        const s = e.renderedSourceEndpoint(), t = e.renderedTargetEndpoint();
        const c = e.controlPoints(), z = cy.zoom(), pan = cy.pan();  // (model px; undefined for a straight move)
        const cp = c && c.length === 1 ? {{ x: c[0].x * z + pan.x, y: c[0].y * z + pan.y }} : null;
        const n = Math.max(2, Math.ceil(Math.hypot(t.x - s.x, t.y - s.y) * (cp ? 1.4 : 1) / 2));
        const pts = [];
        for (let i = 0; i <= n; i++) {{ const u = i / n;
            pts.push(cp ? [(1 - u) * (1 - u) * s.x + 2 * u * (1 - u) * cp.x + u * u * t.x,
                           (1 - u) * (1 - u) * s.y + 2 * u * (1 - u) * cp.y + u * u * t.y]
                        : [s.x + (t.x - s.x) * u, s.y + (t.y - s.y) * u]); }}
        return [e.data('move') + ' ' + e.source().id() + ' -> ' + e.target().id(), pts]; }});
    return Array.from(document.querySelectorAll('.gg-row')).filter(el => getComputedStyle(el).visibility === 'visible')
        .map(el => {{ const r = el.getBoundingClientRect();
            const x1 = r.left - box.left + 1, x2 = r.right - box.left - 1, y1 = r.top - box.top + 1, y2 = r.bottom - box.top - 1;
            return [el.textContent, lines.filter(([, pts]) => pts.some(([x, y]) => x > x1 && x < x2 && y > y1 && y < y2))
                                         .map(([name]) => name)]; }}); }}"""

# The layered bands in sight with no name shown: a band of one line (its nodes at its name's height) with a node wholly
# in the canvas right of the opened info panel (or of its folded strip), whose name is hidden.
NAMELESS = f"""() => {{ const cy = {CY}; const box = document.getElementById('cy').getBoundingClientRect();
    const panel = document.getElementById('infopanel').getBoundingClientRect();
    const left = Math.max(0, panel.right - box.left);
    const focus = cy.nodes('[_focus]');
    const rows = focus.length ? JSON.parse(focus.data('_rows') || '[]') : [];
    const shown = new Set(Array.from(document.querySelectorAll('.gg-row'))
        .filter(el => getComputedStyle(el).visibility === 'visible').map(el => el.textContent));
    return rows.filter(r => !shown.has(String(r.text)) && cy.nodes().some(n => {{
        if (Math.abs(n.position('y') - r.y) > 0.5) return false;
        const b = n.renderedBoundingBox({{includeLabels: true, includeOverlays: false}});
        return b.x1 >= left && b.x2 <= box.width && b.y1 >= 0 && b.y2 <= box.height; }})).map(r => r.text); }}"""

GAMES = [("tictactoe", 1), ("chopsticks:standard", 2), ("dodgem(size=3)", 1), ("dobutsu:small", 1)]


def _next_key(frame, done: list[str]) -> str:
    """The node to expand: wholly in the clear part of the canvas (not under the panel), not the focus nor a game's
    end, not expanded yet, and with something to add (its ring sent ahead is not empty: a node whose moves are all
    drawn already adds nothing, and the wait for new nodes would run out); the first by key."""
    return cy(frame, "(() => { const w = cy.width(), h = cy.height(); const done = " + json.dumps(done) + "; "
                     "const tag = window.parent.document.getElementById('gg-ahead'); "
                     "const ring = (tag && JSON.parse(tag.textContent).ring) || {}; "
                     "const panel = document.getElementById('infopanel').getBoundingClientRect(); "
                     "const left = Math.max(60, panel.width > 100 ? panel.right - document.getElementById('cy')"
                     ".getBoundingClientRect().left + 40 : 60); "
                     "return cy.nodes().filter(n => !n.data('_focus') && !done.includes(n.id()) && "
                     "n.data('game over') !== 'yes' && (!ring[n.id()] || ring[n.id()].n.length > 0) && n.renderedPosition().x > left && n.renderedPosition().x < w - 60 && "
                     "n.renderedPosition().y > 50 && n.renderedPosition().y < h - 50).map(n => n.id()).sort()[0]; })()")


@pytest.fixture(scope="module", params=[(spec, k, width) for spec, k in GAMES for width in (1440, 1000)],
                ids=lambda p: f"{p[0]}-{p[2]}")
def expanded(request, server, browser):  # noqa: F811
    """Three expansions from the game's start, layered: after each, (the node expanded, the nodes' states, the
    bands' names and the moves through them)."""
    spec, k, width = request.param
    page = browser.new_page(viewport={"width": width, "height": 900})
    url = f"{server}/?game={spec}&view=Neighbourhood&k={k}"
    if spec.startswith("dobutsu"):  # the first visit builds the game: longer than open_canvas waits on a busy machine
        page.goto(url)
        page.get_by_text("on the canvas").first.wait_for(timeout=400_000)
    frame_element, frame = open_canvas(page, url)
    steps = [(None, frame.evaluate(NODES), frame.evaluate(ROWS), frame.evaluate(NAMELESS))]
    done: list[str] = []
    for _ in range(3):
        key = _next_key(frame, done)
        assert key, f"{spec}: no node in sight to expand"
        done.append(key)
        frame_element, frame = expand_node(page, frame_element, frame, key)
        time.sleep(0.8)  # the panel's opening (a transition), then the view's glide
        wait_still(frame)
        time.sleep(0.2)  # the bands' names are placed in the frame after the view's last move
        steps.append((key, frame.evaluate(NODES), frame.evaluate(ROWS), frame.evaluate(NAMELESS)))
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-clear-{spec.split('(')[0].split(':')[0]}-{width}.png"))
    yield spec, width, steps
    page.close()


# Where the view still leaves a node in part under a control after these expansions: none. dobutsu:small at 1000 px was
# here after session 26 merged h26 (its drawing taller, at the zoom floor clearOf found no pan that left every node whole
# and clear: a node of the third expansion under the zoom buttons); since the view keeps the focus in sight (session 27,
# h31: canvas_view.js comfortFirst) it passes again. Kept, empty, for a pair that regresses.
STILL_UNDER: set[tuple[str, int]] = set()


def test_no_node_is_hidden_by_the_panel_or_the_controls(expanded, request):
    from explorer.ui.canvas import READABLE_ZOOM

    spec, width, steps = expanded
    if (spec, width) in STILL_UNDER:
        request.applymarker(pytest.mark.xfail(strict=False, reason="issue 35, a regression of session 26: a node of "
                                                                   "dobutsu:small's third expansion under the zoom bar"))
    for step, (key, seen, _, _) in enumerate(steps):
        where = (spec, width, step, key, round(seen["zoom"], 3))
        under = {k: n["under"] for k, n in seen["nodes"].items() if n["under"]}
        cut = sorted(k for k, n in seen["nodes"].items() if n["cut"])
        assert under == {}, where
        assert cut == [], where
        if key is not None:
            assert seen["panel"], where                                 # the double-click opened the info panel
            assert seen["nodes"][key]["inside"], where                  # the node expanded is in sight
            assert seen["zoom"] >= READABLE_ZOOM * 0.97, where          # at a readable zoom


def test_the_focus_stays_in_the_clear_area(expanded):
    """The page's position (the node marked `_focus`) stays in sight, whole and under no control, through the three
    expansions: before, the view kept the captions at the comfortable size and showed the node expanded and the
    nearest new nodes, and pushed the focus out (its row above the canvas after the third expansion, at 1440 and
    1000 px; issue 35 asks that layered layouts keep the focus node in view)."""
    spec, width, steps = expanded
    for step, (key, seen, _, _) in enumerate(steps):
        focus = seen["focus"]
        assert focus and focus in seen["nodes"], (spec, width, step, key)
        where = (spec, width, step, key, round(seen["zoom"], 3))
        assert seen["nodes"][focus]["inside"], where
        assert seen["nodes"][focus]["under"] == [], where


def test_no_move_runs_through_a_bands_name(expanded):
    spec, width, steps = expanded
    named = 0
    for step, (key, _, rows, _) in enumerate(steps):
        named += len(rows)
        crossed = [(text, moves) for text, moves in rows if moves]
        assert crossed == [], (spec, width, step, key)
    assert named > 0, (spec, width)                                     # the bands are named


# Where a band in sight is still nameless after the expansions (issue 35 left): at 1000 px the band along the bottom runs
# from under the panel to the zoom buttons, moves cross every spot above it; dobutsu:small's bands are crossed by moves
# across the whole canvas.
STILL_NAMELESS = {("tictactoe", 1000), ("chopsticks:standard", 1000), ("dodgem(size=3)", 1000), ("dobutsu:small", 1440),
                  ("dobutsu:small", 1000)}


def test_every_band_in_sight_is_named(expanded, request):
    """A stranger's tic-tac-toe after three expansions: the remoteness 6 band, in sight, had no name (its line was full
    of nodes across the free area: no gap beside them as wide as the name, its ends under the panel and past the edge),
    and the top band's name was always hidden (it lay above the clear area's rectangle, which the toolbar in the far
    corner cut short). Now every band of one line with a node in sight beside the opened panel has its name shown
    (where it is clear: test_no_move_runs_through_a_bands_name, tests/ui/test_canvas_readable_browser.py's MEASURE);
    still not everywhere (STILL_NAMELESS)."""
    spec, width, steps = expanded
    if (spec, width) in STILL_NAMELESS:
        request.applymarker(pytest.mark.xfail(strict=False, reason="issue 35 left: a band in sight is still nameless "
                                                                   "after these expansions at this width"))
    for step, (key, _, _, nameless) in enumerate(steps):
        assert nameless == [], (spec, width, step, key)
