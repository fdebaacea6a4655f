"""Issue 35's readability leftovers that a stranger found at 1440 and 1000 px, in Chromium, after scripted expansions
(each a double-click, which opens the info panel too) on tic-tac-toe, Chopsticks, Dodgem 3x3 and dobutsu:small:

- the info panel and the canvas's controls never hide a node: no node (its disc or board, and its label, by
  Cytoscape.js's bounding boxes) lies, even in part, under the info panel, its node action bar, the toolbar or the zoom
  buttons, and none is cut by the canvas's edge (a node is shown whole or not at all). Before, at 1000 px, Dodgem 3x3
  had 2 nodes under the opened panel after three expansions, dobutsu:small 1 to 4 (the view kept what was in sight
  clear of the panel, and left the nodes beside it under it);
- a layered band's name ("remoteness 3") covers no node, caption, control, other name or arrowhead, on an opaque
  card at its band's height, near the band; it may lie over moves' lines (first it was hidden only over a node, a label
  or a move's name, and moves ran through its text; then it was hidden wherever a move ran, and bands went nameless);
- every band in sight is named.

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

# Each band's name shown: the moves whose drawn line runs through its box (frame px: each move's line sampled every 2 px
# along its straight line, or along the quadratic curve through its one control point, a bent move or one fanned out by
# Cytoscape.js, from endpoint to endpoint, as Cytoscape.js draws it); what else it covers (`covers`: a node's disc or
# board, a node's label, a move's name drawn, an overlay, another band's name, a move's arrowhead: its last 8 px at the
# zoom, each 2 px, on its line and 3 px at the zoom either side, as Cytoscape.js's triangle at arrow-scale 0.9 is about
# 8 px long and 8 px wide); the longest stretch of one move's line under it (`along`, px) and its `width`; whether its
# card is opaque (the moves under it do not show through its text); how far its
# middle is from its band's height (`dy`, px, up negative) and the top of what the band has at that height (`top`: its
# nodes, labels and moves' names, the name beside them; null where none); and whether it lies far across from its band
# (`far`: more than 50 px beyond the band's ends, `x` and `x2` of the focus's `_rows`, and not at the left edge of what
# is clear at its height, right of the overlay nearest it on its left or of the canvas's edge, where a table's row names
# go).
ROWS = f"""() => {{ const cy = {CY}; const box = document.getElementById('cy').getBoundingClientRect();
    const z = cy.zoom(), pan = cy.pan();
    const sample = e => {{
        const s = e.renderedSourceEndpoint(), t = e.renderedTargetEndpoint();
        const c = e.controlPoints();  // (model px; undefined for a straight move)
        const cp = c && c.length === 1 ? {{ x: c[0].x * z + pan.x, y: c[0].y * z + pan.y }} : null;
        const n = Math.max(2, Math.ceil(Math.hypot(t.x - s.x, t.y - s.y) * (cp ? 1.4 : 1) / 2));
        const pts = [];
        for (let i = 0; i <= n; i++) {{ const u = i / n;
            pts.push(cp ? [(1 - u) * (1 - u) * s.x + 2 * u * (1 - u) * cp.x + u * u * t.x,
                           (1 - u) * (1 - u) * s.y + 2 * u * (1 - u) * cp.y + u * u * t.y]
                        : [s.x + (t.x - s.x) * u, s.y + (t.y - s.y) * u]); }}
        return pts; }};
    const edges = cy.edges().filter(e => e.visible());
    const lines = edges.map(e => [e.data('move') + ' ' + e.source().id() + ' -> ' + e.target().id(), sample(e)]);
    const arrows = edges.filter(e => e.style('target-arrow-shape') !== 'none').map(e => {{
        const pts = sample(e), [tx, ty] = pts[pts.length - 1], head = [];
        for (let i = pts.length - 1; i > 0 && Math.hypot(pts[i][0] - tx, pts[i][1] - ty) <= 8 * z; i--) {{
            const [ax, ay] = pts[i - 1], d = Math.hypot(pts[i][0] - ax, pts[i][1] - ay) || 1;
            const nx = -(pts[i][1] - ay) / d, ny = (pts[i][0] - ax) / d;
            [-3 * z, 0, 3 * z].forEach(k => head.push([pts[i][0] + nx * k, pts[i][1] + ny * k])); }}
        return ['arrow ' + e.data('move') + ' ' + e.source().id() + ' -> ' + e.target().id(), head]; }});
    const L = {{includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false}};
    const B = {{includeNodes: true, includeEdges: false, includeLabels: false, includeOverlays: false}};
    const boxes = cy.nodes().filter(n => n.visible()).map(n => [['node ' + n.id(), n.renderedBoundingBox(B)],
                                                                ['label ' + n.id(), n.renderedBoundingBox(L)]]).flat()
        .concat(edges.filter(e => (e.style('label') || e.style('source-label')) && +e.style('text-opacity') > 0 &&
                                  !e.hasClass('gg-speck'))
                     .map(e => ['move name ' + e.data('move'), e.renderedBoundingBox(L)]))
        .filter(([, b]) => b.w > 0 && isFinite(b.w))
        .concat(['infopanel', 'nodeActions', 'toolbar', 'viewbar'].map(id => [id, document.getElementById(id)])
            .filter(([id, el]) => el && getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden')
            .map(([id, el]) => [id, el.getBoundingClientRect()]).filter(([id, r]) => r.width > 1 && r.height > 1)
            .map(([id, r]) => [id, {{x1: r.left - box.left, x2: r.right - box.left, y1: r.top - box.top, y2: r.bottom - box.top}}]));
    const meets = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
    const focus = cy.nodes('[_focus]');
    const bands = focus.length ? JSON.parse(focus.data('_rows') || '[]') : [];
    const overlays = boxes.filter(([id]) => !/^(node|label|move name) /.test(id)).map(([, o]) => o);
    const names = Array.from(document.querySelectorAll('.gg-row')).filter(el => getComputedStyle(el).visibility === 'visible')
        .map(el => {{ const r = el.getBoundingClientRect();
            return [el, {{x1: r.left - box.left + 1, x2: r.right - box.left - 1, y1: r.top - box.top + 1, y2: r.bottom - box.top - 1}}]; }});
    return names.map(([el, b], i) => {{
        const inside = ([x, y]) => x > b.x1 && x < b.x2 && y > b.y1 && y < b.y2;
        const band = bands.find(r => String(r.text) === el.textContent);
        const y = band ? band.y * z + pan.y : NaN, h = b.y2 - b.y1 + 2;
        const beside = boxes.filter(([id, o]) => /^(node|label|move name) /.test(id) && o.y1 < y + h / 2 && o.y2 > y - h / 2);
        return {{ text: el.textContent, lastResort: el.dataset.along === 'true',
                  moves: lines.filter(([, pts]) => pts.some(inside)).map(([name]) => name),
                  along: Math.round(Math.max(0, ...lines.map(([, pts]) => pts.reduce((sum, p, k) =>
                      k && inside(p) && inside(pts[k - 1]) ? sum + Math.hypot(p[0] - pts[k - 1][0], p[1] - pts[k - 1][1]) : sum, 0)))),
                  width: Math.round(b.x2 - b.x1 + 2),
                  covers: boxes.filter(([, o]) => meets(b, o)).map(([id]) => id)
                      .concat(names.filter(([, o], j) => j !== i && meets(b, o)).map(([other]) => 'name ' + other.textContent))
                      .concat(arrows.filter(([, head]) => head.some(inside)).map(([name]) => name)),
                  opaque: getComputedStyle(el).backgroundColor === 'rgb(255, 255, 255)',
                  dy: band ? Math.round(((b.y1 + b.y2) / 2 - y) * 10) / 10 : null,
                  top: beside.length ? Math.round((Math.min(...beside.map(([, o]) => o.y1)) - y) * 10) / 10 : null,
                  far: !band || (b.x1 > band.x2 * z + pan.x + 50 || b.x2 < band.x * z + pan.x - 50) &&
                      b.x1 > Math.max(0, ...overlays.filter(o => o.y1 < b.y2 && o.y2 > b.y1 && o.x2 <= b.x1 + 1)
                                                    .map(o => o.x2)) + 14 }}; }}); }}"""

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


def wait_names_placed(frame, timeout_ms: int = 30_000) -> None:
    """Wait until the page has placed the bands' names for the view as it is (static/canvas_view.js, 13: the names
    layer's data-placed, false from any change of the view, the nodes, the moves or the info panel's size until the
    names are placed again once nothing glides). A fixed sleep was what the tests waited before (0.2 s after
    wait_still), which a busy machine can outlast."""
    frame.wait_for_function("() => { const layer = document.querySelector('.gg-rows'); "
                            "return !!layer && layer.dataset.placed === 'true'; }", polling=50, timeout=timeout_ms)


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
        wait_names_placed(frame)
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


def test_no_bands_name_covers_a_node_a_caption_a_control_or_another_name(expanded):
    """Each band's name shown covers no node, no node's label, no move's name drawn, no overlay (info panel, node
    action bar, toolbar, zoom buttons), no other band's name and no move's arrowhead; it lies on an opaque card, at its
    band's height (or, the band's line full, just above what the band has there), near the band. A name may lie across
    moves' lines (not along one), on its card (issue 35, session 27): where moves crossed every spot beside a band,
    its name was hidden (after three expansions at 1000 px, all six of tic-tac-toe's); a move is a thin line, and the
    name reads over it. Before, the rule was that no move ran through a name at all; a name still goes where no move
    runs when there is such a spot at its band's height (`crossed` counts the others, for the report)."""
    spec, width, steps = expanded
    named = crossed = resorted = 0
    for step, (key, _, rows, _) in enumerate(steps):
        where = (spec, width, step, key)
        named += len(rows)
        crossed += sum(1 for row in rows if row["moves"])
        assert [(row["text"], row["covers"]) for row in rows if row["covers"]] == [], (where, rows)
        assert all(row["opaque"] for row in rows), where
        for row in rows:  # at its band's height, or above what the band has there, less than two lines up
            assert row["dy"] is not None and (abs(row["dy"]) <= 1 or (
                row["top"] is not None and row["dy"] < 0 and row["dy"] >= row["top"] - 40)), (where, row)
        assert [row["text"] for row in rows if row["far"]] == [], (where, rows)
        # a move may cross a name's card, not run along under it (a long stretch hidden: half the name's width at most),
        # but for the page's last resort, at its band's height, where every spot there has a move along it: then the
        # band is named over them rather than nameless (issue 35, session 28)
        assert [(row["text"], row["along"]) for row in rows
                if row["along"] > row["width"] / 2 + 4 and not row["lastResort"]] == [], where
        assert all(abs(row["dy"]) <= 1 for row in rows if row["lastResort"]), (where, rows)
        resorted += sum(row["lastResort"] for row in rows)
    print(f"{spec} at {width} px: {named} names shown over the 4 views, {crossed} over a move's line, "
          f"{resorted} as the last resort over moves along it")
    assert named > 0, (spec, width)                                     # the bands are named


def test_every_band_in_sight_is_named(expanded):
    """A stranger's tic-tac-toe after three expansions: the remoteness 6 band, in sight, had no name (its line was full
    of nodes across the free area: no gap beside them as wide as the name, its ends under the panel and past the edge),
    and the top band's name was always hidden (it lay above the clear area's rectangle, which the toolbar in the far
    corner cut short). Now every band of one line with a node in sight beside the opened panel has its name shown
    (test_no_bands_name_covers_a_node_a_caption_a_control_or_another_name, tests/ui/test_canvas_readable_browser.py's
    MEASURE). Until session 27 not at 1000 px (tic-tac-toe, Chopsticks, Dodgem 3x3) nor on dobutsu:small: moves crossed
    every spot beside a band, and its name was hidden; now it lies over them on its card, and where its band shares
    its line with another's nodes (Dodgem 3x3's columns), just above or beside its node."""
    spec, width, steps = expanded
    for step, (key, _, _, nameless) in enumerate(steps):
        assert nameless == [], (spec, width, step, key)
