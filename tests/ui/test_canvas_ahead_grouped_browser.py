"""A grouped canvas's double-clicks shown at once from the rings sent ahead (issue 35; canvas/ahead.py grouped_ahead,
static/canvas_view.js 15), in Chromium: a double-click on a cluster of tic-tac-toe at k=4 has, in its own event
handler, hidden the cluster and drawn its positions; the server's answer keeps the same component (the same frame,
not mounted anew), takes the cluster off, leaves each position where the ring put it and nothing provisional, and
the address names the cluster opened. Then a position drawn as itself is expanded the same way: what it adds is
drawn at once and stays where the ring placed it. (The rings are made within a time limit, GAMEGRAPH_UI_AHEAD_SECONDS,
a cluster and a position in turn: at its default of 2 s, a loaded machine had made the ring of no position in sight
(the CI of 2026-11-30), so this module's server has 60 s, and a position with a ring is panned into sight.)"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, quote, urlparse

import pytest

from explorer.core.settings import UI_AHEAD_SECONDS_ENV
from tests.support.browser import serving_ui
from tests.ui.test_browser import ARTIFACTS, browser  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_ahead_browser import AHEAD
from tests.ui.test_canvas_browser import CY, cy, node_point, open_canvas, settle, wait_still

# (in the hook's own double-click handler, which runs before any handler added later: what it drew at once)
WATCH = f"""() => {{ const cy = {CY}; window.__seen = null;
    cy.one('dblclick', 'node', () => {{ window.__seen = [cy.nodes().not('.gg-gone').length,
        cy.elements('.gg-gone').map(e => e.id()), !!cy.__ggAhead]; }}); }}"""
DONE = f"() => {{ const cy = {CY}; return !cy.__ggAhead && cy.elements('.gg-ahead, .gg-gone').length === 0; }}"


@pytest.fixture(scope="module")
def server(shared_ui_home):
    """The run's state folder served with every ring of a grouped canvas made (the rings' time limit raised from
    2 s to 60 s: what is sent ahead then does not hang on the machine's load)."""
    with serving_ui({**shared_ui_home, UI_AHEAD_SECONDS_ENV: "60"}) as url:
        yield url


def node_in_sight(frame, which: str) -> str | None:
    """A node away from the overlays that `which` (JS, of the node `n` and the payload sent ahead `d`) accepts,
    the first in sight, else the first of all, panned to the middle of the canvas; None if none accepts it."""
    return cy(frame, f"(() => {{ const d = {AHEAD}; const w = cy.width(), h = cy.height(); "
                     f"const all = cy.nodes().filter(n => {which}); if (!all.length) return null; "
                     "const seen = all.filter(n => n.renderedPosition().x > 120 && n.renderedPosition().x < w - 80 && "
                     "n.renderedPosition().y > 80 && n.renderedPosition().y < h - 80); "
                     "if (seen.length) return seen[0].id(); cy.center(all[0]); return all[0].id(); })()")


def _in_sight(frame, which: str) -> str | None:
    """A node whose double-click adds something sent ahead (a ring) and that `which` (JS, of `n`) accepts, in
    sight (node_in_sight)."""
    return node_in_sight(frame, f"(d.ring[n.id()] || {{n: []}}).n.length > 0 && ({which})")


def _double_click_ahead(page, frame_element, frame, target: str) -> tuple[dict, list]:
    ring = cy(frame, f"{AHEAD}.ring[{json.dumps(target)}]")
    before = cy(frame, "cy.nodes().map(n => n.id())")
    frame.evaluate("() => { window.__same = true; }")  # (gone if the component were mounted anew: a new frame)
    frame.evaluate(WATCH)
    page.mouse.dblclick(*node_point(frame_element, frame, target))
    frame.wait_for_function(DONE, timeout=60_000)
    seen = frame.evaluate("() => window.__seen")
    assert seen is not None and seen[2] is True   # drawn ahead, in the double-click's own handler
    gone_nodes = [i for i in ring.get("gone", []) if i in before]
    assert seen[0] == len(before) - len(gone_nodes) + len(ring["n"]), (seen[0], len(before), gone_nodes, ring["n"])
    assert sorted(seen[1]) == sorted(i for i in ring.get("gone", []))
    settle(page)
    wait_still(frame)
    assert frame.evaluate("() => window.__same") is True   # the same frame: the answer did not mount it anew
    places = cy(frame, f"{json.dumps(ring['n'])}.map(id => {{ const p = cy.getElementById(id).position(); "
                       "return [p.x, p.y]; })")
    for key, (x, y) in zip(ring["n"], places):
        assert abs(x - ring["p"][key][0]) < 0.5 and abs(y - ring["p"][key][1]) < 0.5, key   # nothing moved
    return ring, seen


def test_a_cluster_opens_and_a_position_expands_at_once_on_a_grouped_canvas(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 1300})
    # "X wins in 5" opened by the link: positions 4 moves out, drawn as themselves, whose expansions add
    opened = quote(json.dumps(["v win 5 X"]))
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=4&open={opened}",
                                       warm=True)
    frame_element.scroll_into_view_if_needed()
    frame.wait_for_function(f"() => {{ try {{ return {AHEAD}.grouped === true; }} catch (e) {{ return false; }} }}",
                            timeout=60_000)
    cluster = _in_sight(frame, "n.data('_cluster')")
    assert cluster, "no cluster sent ahead in sight"
    wait_still(frame)
    ring, _ = _double_click_ahead(page, frame_element, frame, cluster)
    ids = set(cy(frame, "cy.nodes().map(n => n.id())"))
    assert cluster not in ids and set(ring["n"]) <= ids
    opened = parse_qs(urlparse(page.url).query).get("open")
    assert opened and cluster[1:] in json.loads(opened[0])   # the server opened it
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-ahead-grouped-opened.png"))

    # a position drawn as itself, expanded from its ring (once the ring of the canvas now drawn has come)
    frame.wait_for_function(f"() => {{ const cy = {CY}; try {{ const d = {AHEAD}; return d.grouped && "
                            "d.count[0] === cy.nodes().length && d.count[1] === cy.edges().length; } catch (e) "
                            "{ return false; } }", timeout=60_000)
    position = _in_sight(frame, "!n.data('_cluster')")
    assert position, "no position with something to add in sight"
    wait_still(frame)
    _double_click_ahead(page, frame_element, frame, position)
    assert position in json.loads(parse_qs(urlparse(page.url).query)["exp"][0])   # the server expanded it
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-ahead-grouped-expanded.png"))
    page.close()
