"""The canvas's interaction leftovers a stranger found (issue 35), in Chromium:
- on a grouped canvas (tic-tac-toe at k=4), "Collapse what it expanded" is shown in the click's own handler from the
  ring sent ahead (canvas/ahead.py grouped_ahead `shut`): a position that expanded loses what it brought, a position
  of an opened cluster closes its cluster again; the server's answer keeps the same frame and moves nothing;
- on a grouped canvas, another layout chosen in the Layout box is laid out from the layout sent ahead, and the
  server's answer of the same kind is skipped (canvas_view.js 16);
- after a search, the info panel shows the position found, not the node selected before (canvas_view.js 14);
- the address after a search that added a path reopens the same canvas in another tab (the scene's `path=`)."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, quote, urlparse

from tests.ui.test_browser import ARTIFACTS, browser  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_ahead_browser import AHEAD, concentric_chosen_at_once
from tests.ui.test_canvas_ahead_grouped_browser import DONE, _double_click_ahead, _in_sight, node_in_sight
from tests.ui.test_canvas_ahead_grouped_browser import server  # noqa: F401 - every ring of a grouped canvas made
from tests.ui.test_canvas_browser import CY, click_node, cy, open_canvas, settle, wait_canvas, wait_still

# (in a click listener of the frame's document added after the page's script's own: what the collapse drew at once)
WATCH_CLICK = f"""() => {{ const cy = {CY}; window.__seen = null;
    document.addEventListener('click', e => {{
        if (window.__seen !== null || !(e.target.closest && e.target.closest('[data-action-name="collapse"]'))) return;
        window.__seen = [cy.nodes().not('.gg-gone').map(n => n.id()), cy.elements('.gg-gone').map(e => e.id()),
                         !!cy.__ggAhead]; }}, true); }}"""
RING_FOR_DRAWN = (f"() => {{ const cy = {CY}; try {{ const d = {AHEAD}; return d.grouped && d.count[0] === "
                  "cy.nodes().length && d.count[1] === cy.edges().length; } catch (e) { return false; } }")


def _grouped_page(browser, server):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 1300})
    opened = quote(json.dumps(["v win 5 X"]))   # positions drawn as themselves, whose expansions add
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=4&open={opened}",
                                       warm=True)
    frame_element.scroll_into_view_if_needed()
    frame.wait_for_function(RING_FOR_DRAWN, timeout=60_000)
    return page, frame_element, frame


def _collapse_ahead(page, frame_element, frame, key: str) -> tuple[dict, list]:
    """Select `key`, press "Collapse what it expanded": the ring sent ahead for it, and what was drawn at once."""
    ring = cy(frame, f"(() => {{ const d = {AHEAD}; const r = d.shut[{json.dumps(key)}]; "
                     "return typeof r === 'string' ? d.closing[r] : r; })()")
    assert ring, f"no collapse sent ahead for {key!r}"
    frame_element, frame = click_node(page, key, frame_element, frame)
    wait_still(frame)
    before = cy(frame, "cy.nodes().map(n => n.id())")
    frame.evaluate("() => { window.__same = true; }")   # (gone if the component were mounted anew: a new frame)
    frame.evaluate(WATCH_CLICK)
    frame.evaluate("() => document.querySelector('[data-action-name=\"collapse\"]').click()")
    seen = frame.evaluate("() => window.__seen")
    assert seen is not None and seen[2] is True, seen   # drawn ahead, in the click's own task
    gone_nodes = [i for i in ring.get("gone", []) if i in before]
    assert sorted(seen[0]) == sorted(set(before) - set(gone_nodes) | set(ring["n"]))
    assert sorted(seen[1]) == sorted(ring.get("gone", []))
    frame.wait_for_function(DONE, timeout=60_000)
    settle(page)
    wait_still(frame)
    assert frame.evaluate("() => window.__same") is True   # the same frame: the answer did not mount it anew
    assert sorted(cy(frame, "cy.nodes().map(n => n.id())")) == sorted(seen[0])   # the answer agreed
    places = cy(frame, "cy.nodes().map(n => [n.id(), n.position().x, n.position().y])")
    expected = {k: p for pool in ("p", "m") for k, p in ring.get(pool, {}).items()}
    for ident, x, y in places:
        if ident in expected:   # nothing moved when the answer came
            assert abs(x - expected[ident][0]) < 0.5 and abs(y - expected[ident][1]) < 0.5, ident
    return ring, seen


def test_a_grouped_collapse_is_shown_at_once(server, browser):  # noqa: F811
    page, frame_element, frame = _grouped_page(browser, server)
    position = _in_sight(frame, "!n.data('_cluster') && !n.data('_focus')")
    assert position, "no position with something to add in sight"
    wait_still(frame)
    _double_click_ahead(page, frame_element, frame, position)   # expanded (from its ring): now it can collapse
    assert position in json.loads(parse_qs(urlparse(page.url).query)["exp"][0])
    frame.wait_for_function(RING_FOR_DRAWN, timeout=60_000)
    assert isinstance(cy(frame, f"{AHEAD}.shut[{json.dumps(position)}]"), dict)
    _collapse_ahead(page, frame_element, frame, position)
    page.wait_for_function("() => !new URL(location.href).searchParams.get('exp')", timeout=30_000)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-ahead-grouped-collapsed.png"))

    # a position of the opened cluster that expanded nothing: its cluster closes again, at once
    frame.wait_for_function(RING_FOR_DRAWN, timeout=60_000)
    member = node_in_sight(frame, "typeof d.shut[n.id()] === 'string'")
    assert member, "no position of the opened cluster in sight"
    cluster = cy(frame, f"{AHEAD}.shut[{json.dumps(member)}]")
    _, seen = _collapse_ahead(page, frame_element, frame, member)
    assert cluster in seen[0] and member not in seen[0]
    page.wait_for_function("() => !new URL(location.href).searchParams.get('open')", timeout=30_000)
    assert cy(frame, "cy.$(':selected').length") == 0   # the panel shows no node that is gone
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-ahead-grouped-closed.png"))
    page.close()


def test_a_grouped_canvas_switches_layout_at_once(server, browser):  # noqa: F811
    page, frame_element, frame = _grouped_page(browser, server)
    shape = concentric_chosen_at_once(page, frame)
    for ident, data in shape["edges"].items():   # the moves' bends and names as the server then has them
        drawn = cy(frame, f"cy.getElementById({json.dumps(ident)}).data()")
        assert all(drawn.get(k) == v for k, v in data.items()), ident
    page.close()


def _words(text: str) -> str:
    return re.sub(r"\s+", "", text or "")   # (the panel's title drops the label's line breaks)


def test_the_panel_shows_what_a_search_found_and_its_link_keeps_it(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=1", warm=True)
    other = cy(frame, "cy.nodes().filter(n => !n.data('_focus'))[0].id()")
    frame_element, frame = click_node(page, other, frame_element, frame)
    panel = frame.locator("#infopanelLabel")
    label = cy(frame, f"cy.getElementById({other!r}).data('label')")
    frame.wait_for_function("(want) => (document.getElementById('infopanelLabel')?.textContent || '')"
                            ".replace(/\\s+/g, '') === want", arg=_words(label), timeout=30_000)
    box = page.locator('input[aria-label="Find on the canvas"]').first
    box.fill("XO./.X./..O")   # four moves away: added with its path
    box.press("Enter")
    frame_element, frame = wait_canvas(page, "cy.nodes('[_found = 1]').length === 1")
    found = cy(frame, "cy.nodes('[_found = 1]')[0].id()")
    frame.wait_for_function(f"() => {{ const s = {CY}.$(':selected'); return s.length === 1 && s[0].id() === "
                            f"{json.dumps(found)}; }}", timeout=30_000)
    want = _words(cy(frame, f"cy.getElementById({json.dumps(found)}).data('label')"))
    frame.wait_for_function("(want) => (document.getElementById('infopanelLabel')?.textContent || '')"
                            ".replace(/\\s+/g, '') === want", arg=want, timeout=30_000)
    assert _words(panel.text_content()) == want != _words(label)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-search-panel.png"))
    # "Copy link": the address holds the search's path, and reopens the same canvas
    page.wait_for_function("() => new URL(location.href).searchParams.get('path') !== null", timeout=30_000)
    settle(page)
    drawn = sorted(cy(frame, "cy.nodes().map(n => n.id())"))
    link = page.url
    again = browser.new_page(viewport={"width": 1440, "height": 900})
    _, reopened = open_canvas(again, link)
    assert sorted(cy(reopened, "cy.nodes().map(n => n.id())")) == drawn
    again.close()
    page.close()
