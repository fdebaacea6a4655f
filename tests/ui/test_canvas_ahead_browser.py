"""An expansion and a collapse shown at once from the ring the server sent ahead (issue 35; canvas/ahead.py and
static/canvas_view.js, 15): the double-click's own event handler has already drawn what the expansion adds, at the
places the server's answer gives; the answer, which still comes, moves nothing and leaves nothing provisional; a
collapse takes its nodes off in the click's own handler; and a ring made for another canvas is not used (the
round trip, as before)."""

from __future__ import annotations

import json

from tests.support.browser import open_choice
from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import (CY, click_node, cy, node_point, open_canvas, settle, wait_grown, wait_nodes,
                                          wait_still)

AHEAD = "JSON.parse(window.parent.document.getElementById('gg-ahead').textContent)"
# (in the hook's own double-click handler, which runs before any handler added later: what it drew at once)
WATCH = f"""() => {{ const cy = {CY}; window.__seen = null;
    cy.one('dblclick', 'node', () => {{ window.__seen = [cy.nodes().length, cy.edges().length, !!cy.__ggAhead]; }}); }}"""


def _target(frame) -> str | None:
    """A node in sight, not the focus, whose ring (what its expansion adds) is not empty."""
    return cy(frame, f"(() => {{ const d = {AHEAD}; const w = cy.width(), h = cy.height(); "
                     "const n = cy.nodes().filter(n => !n.data('_focus') && (d.ring[n.id()] || {n: []}).n.length > 0 && "
                     "n.renderedPosition().x > 120 && n.renderedPosition().x < w - 80 && n.renderedPosition().y > 80 && "
                     "n.renderedPosition().y < h - 80); return n.length ? n[0].id() : null; })()")


def _open(browser, url):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 1300})
    frame_element, frame = open_canvas(page, url, warm=True)
    frame_element.scroll_into_view_if_needed()
    return page, frame_element, frame


def test_an_expansion_is_drawn_at_once_where_the_answer_puts_it_and_collapses_at_once(server, browser):  # noqa: F811
    page, frame_element, frame = _open(browser, f"{server}/?game=tictactoe&view=Neighbourhood&k=2")
    target = _target(frame)
    assert target, "no node with something to add in sight"
    ring = cy(frame, f"{AHEAD}.ring[{target!r}]")
    before, moves = cy(frame, "cy.nodes().length"), cy(frame, "cy.edges().length")
    wait_still(frame)
    frame.evaluate(WATCH)
    page.mouse.dblclick(*node_point(frame_element, frame, target))
    grown = wait_grown(frame, before)  # (and the server's answer)
    seen = frame.evaluate("() => window.__seen")
    # drawn by the double-click's own handler: before any answer could come
    assert seen is not None and seen[2] is True
    assert seen[0] == before + len(ring["n"]) and seen[1] == moves + len(ring["e"])
    settle(page)
    wait_still(frame)
    # the answer agreed: the same positions, each where the ring placed it (nothing moved when the answer came)
    assert grown == seen[0] and cy(frame, "cy.nodes().length") == seen[0]
    assert page.get_by_text(f"{seen[0]} positions and").count() == 1   # the server holds what is drawn
    assert cy(frame, "cy.elements('.gg-ahead').length") == 0
    places = cy(frame, f"{json.dumps(ring['n'])}.map(id => {{ const p = cy.getElementById(id).position(); "
                       "return [p.x, p.y]; })")
    for key, (x, y) in zip(ring["n"], places):
        assert abs(x - ring["p"][key][0]) < 0.5 and abs(y - ring["p"][key][1]) < 0.5, key

    # Collapse: taken off in the click's own handler, and the server's answer agrees
    frame_element, frame = click_node(page, target)
    gone = cy(frame, f"{AHEAD}.collapse[{target!r}]")
    assert sorted(gone) == sorted(ring["n"])
    left = frame.evaluate(f"""() => {{ const cy = {CY};
        document.querySelector('[data-action-name="collapse"]').click(); return cy.nodes().length; }}""")
    assert left == before
    settle(page)
    assert wait_nodes(frame, f"n === {before}") == before
    assert page.get_by_text(f"{before} positions and").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-ahead-collapsed.png"))
    page.close()


def test_a_click_then_a_double_click_at_once_is_answered(server, browser):  # noqa: F811
    """A node clicked (selected) and at once double-clicked: three clicks within Cytoscape's multi-click time
    (250 ms, counted whatever they land on), so its double-click comes on the second click and the ring is shown
    ahead, every new node starting on the node expanded; the third click goes to the node itself, not to a new
    node over it, so the expansion the component sends is that node's and the server's answer comes with no
    further action: the saved scene in the address names it and nothing on the canvas stays provisional. (The
    third click selected a new node, which the component then asked the server to expand; the server does not
    hold it, so nothing came back, and the ring stayed provisional until the page's 20 s fallback.)"""
    page, frame_element, frame = _open(browser, f"{server}/?game=tictactoe&view=Neighbourhood&k=2")
    target = _target(frame)
    assert target, "no node with something to add in sight"
    ring = cy(frame, f"{AHEAD}.ring[{target!r}]")
    before = cy(frame, "cy.nodes().length")
    wait_still(frame)
    frame.evaluate(f"() => {{ const cy = {CY}; window.__picked = [];"
                   " cy.on('select', 'node', e => window.__picked.push(e.target.id())); }")
    x, y = node_point(frame_element, frame, target)
    page.mouse.click(x, y)
    page.mouse.dblclick(x, y)
    page.wait_for_function(f"() => (JSON.parse(new URL(location.href).searchParams.get('exp') || '[]'))"
                           f".includes({target!r})", timeout=15_000)
    frame.wait_for_function(f"() => {{ const cy = {CY}; return !cy.__ggAhead && "
                            "cy.elements('.gg-ahead').length === 0; }", timeout=15_000)
    assert set(frame.evaluate("() => window.__picked")) == {target}   # no new node was selected
    settle(page)
    after = cy(frame, "cy.nodes().length")
    assert after == before + len(ring["n"])
    assert page.get_by_text(f"{after} positions and").count() == 1   # the server holds what is drawn
    page.close()


def test_a_ring_made_for_another_canvas_is_not_used(server, browser):  # noqa: F811
    """The ring names the canvas it was made for (its focus, nodes and moves): one that does not match what is drawn
    (here: its count altered) is left alone, and the expansion makes the round trip as before."""
    page, frame_element, frame = _open(browser, f"{server}/?game=tictactoe&view=Neighbourhood&k=2")
    target = _target(frame)
    assert target, "no node with something to add in sight"
    before = cy(frame, "cy.nodes().length")
    page.evaluate("() => { const el = document.getElementById('gg-ahead'); const d = JSON.parse(el.textContent); "
                  "d.count[0] += 1; el.textContent = JSON.stringify(d); }")
    wait_still(frame)
    frame.evaluate(WATCH)
    page.mouse.dblclick(*node_point(frame_element, frame, target))
    grown = wait_grown(frame, before)
    assert frame.evaluate("() => window.__seen")[0] == before   # nothing drawn ahead
    assert grown > before                                       # the round trip grew it
    page.close()


def concentric_chosen_at_once(page, frame) -> dict:
    """Chooses the concentric layout and checks that it was laid out from the layout sent ahead: the only layout of
    the whole canvas that runs is the page's own preset (none from the server's answer), and each node ends where the
    shape sent ahead placed it. Returns that shape (its options, rows and, on a grouped canvas, its edges' data)."""
    shape = cy(frame, f"{AHEAD}.layouts.shapes.concentric")
    assert shape and shape["options"]["name"] == "preset"
    frame.evaluate(f"""() => {{ const cy = {CY}; window.__runs = [];
        cy.on('layoutstart', e => {{ const o = e.layout.options;
            if (o.fit !== false || o.ggLaidOut) window.__runs.push([o.name, !!o.ggLaidOut]); }}); }}""")
    wait_still(frame)
    option = open_choice(page, "Layout", page.get_by_role("option", name="concentric around the focus"))
    option.click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('layout') === 'concentric'", timeout=60_000)
    settle(page)
    wait_still(frame)
    assert frame.evaluate("() => window.__runs") == [["preset", True]]   # ours only, made from what was sent ahead
    for key, x, y in cy(frame, "cy.nodes().map(n => [n.id(), n.position().x, n.position().y])"):
        p = shape["options"]["positions"][key]
        assert abs(x - p["x"]) < 0.5 and abs(y - p["y"]) < 0.5, key
    return shape


def test_a_layout_chosen_is_laid_out_at_once_and_once(server, browser):  # noqa: F811
    """Choosing another layout lays the canvas out from the layout sent ahead (canvas_view.js, 16): the only layout
    of the whole canvas that runs is the page's own (the server's answer of the same kind is skipped: nothing moves
    again), each node ends where the server placed it, and the server has the choice (the address says it)."""
    page, frame_element, frame = _open(browser, f"{server}/?game=tictactoe&view=Neighbourhood&k=2")
    shape = concentric_chosen_at_once(page, frame)
    assert cy(frame, "cy.nodes('[_focus]').data('_rows')") == shape["rows"]   # no band names in this layout
    page.close()


def test_a_colouring_chosen_is_drawn_in_the_click_s_own_task(server, browser):  # noqa: F811
    """Choosing "Colour by" remoteness restyles the canvas from the sheets sent ahead (canvas_view.js, 17): a
    listener that runs after the page's own, in the same click, already reads the new fills; the server's answer
    (the same sheet) is not set again, and the server has the choice (the address says it)."""
    page, frame_element, frame = _open(browser, f"{server}/?game=tictactoe&view=Neighbourhood&k=2")
    fills = cy(frame, "cy.nodes().map(n => n.style('background-color')).join(';')")
    page.evaluate("""() => { window.__fills = null; const frame = document.querySelector('iframe[src*="streamlit_cytoscape"]');
        document.addEventListener('click', e => { const o = e.target.closest && e.target.closest('[role="option"]');
            if (!o || window.__fills !== null) return;
            const cy = frame.contentDocument.getElementById('cy')._cyreg.cy;
            window.__fills = cy.nodes().map(n => n.style('background-color')).join(';'); }, true); }""")
    frame.evaluate(f"() => {{ const cy = {CY}; window.__sheets = 0; let last = cy.__ggSheetText;"
                   " const look = () => { if (cy.__ggSheetText !== last) { window.__sheets++; last = cy.__ggSheetText; }"
                   " requestAnimationFrame(look); }; requestAnimationFrame(look); }")
    wait_still(frame)
    option = open_choice(page, "Colour by", page.get_by_role("option", name="remoteness", exact=True))
    option.click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('colour') === 'remoteness'", timeout=60_000)
    settle(page)
    now = cy(frame, "cy.nodes().map(n => n.style('background-color')).join(';')")
    assert now != fills
    assert page.evaluate("() => window.__fills") == now   # drawn in the click's own task
    assert frame.evaluate("() => window.__sheets") == 1   # and not set again by the answer
    page.close()
