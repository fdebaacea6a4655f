"""What a stranger met last (issue 35), in Chromium: dobutsu:small opens readable at its default view (grouped: its 86
positions and 122 moves at k=2 were a tangle), while tic-tac-toe, Chopsticks and Dodgem 3x3 at k=2 still open plain;
the legend's key is in sight with the canvas when a game opens (it was below the canvas, out of view at 1,440x900 and
1,000x800); a link copied after a search on Chopsticks reopens the same node set with the page's position and the
searched one in sight (the searched one was above the canvas's top edge). Screenshots: tests/artifacts/h20-*.png."""

from __future__ import annotations

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, pytestmark, server  # noqa: F401 - fixtures, and Chromium
from tests.ui.test_canvas_browser import CY, cy, open_canvas, wait_still
from tests.ui.test_canvas_grouped_find_browser import _find
from tests.ui.test_canvas_readable_browser import MEASURE

# Each node's box (rendered, with its label) inside the canvas's drawing area: [id, inside]
IN_SIGHT = f"""() => {{ const cy = {CY}; const w = cy.width(), h = cy.height();
    return cy.nodes().map(n => {{ const b = n.renderedBoundingBox({{includeLabels: false, includeOverlays: false}});
        return [n.id(), b.x1 >= -1 && b.y1 >= -1 && b.x2 <= w + 1 && b.y2 <= h + 1]; }}); }}"""


@pytest.mark.parametrize("spec, grouped", [("dobutsu:small", True), ("tictactoe", False), ("chopsticks:standard", False),
                                           ("dodgem(size=3)", False)])
def test_at_k_2_a_dense_neighbourhood_opens_grouped_and_a_sparse_one_plain(server, browser, spec, grouped):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    frame_element, frame = open_canvas(page, f"{server}/?game={spec}&view=Neighbourhood")
    wait_still(frame)
    drawn = cy(frame, "({nodes: cy.nodes().length, clusters: cy.nodes('[?_cluster]').length, "
                      "positions: cy.nodes().map(n => n.data('_count') || 1).reduce((a, b) => a + b, 0)})")
    if grouped:
        assert drawn["clusters"] == drawn["nodes"] - 1 and drawn["nodes"] <= 30, drawn
        assert drawn["positions"] == 86, drawn   # k=2: every position there, in its cluster
        assert page.get_by_role("combobox", name="Group positions").input_value() == "value & remoteness"
    else:
        assert drawn["clusters"] == 0, drawn
    frame.wait_for_timeout(300)
    seen = frame.evaluate(MEASURE)
    assert not seen["bad"], f"{spec}: {len(seen['bad'])} overlaps, e.g. {seen['bad'][:4]}"
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"h20-open-{spec.replace(':', '-').replace('(', '-').strip(')')}.png"))
    page.close()


@pytest.mark.parametrize("width, height", [(1440, 900), (1000, 800)])
def test_the_key_is_in_sight_with_the_canvas_when_a_game_opens(server, browser, width, height):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": height})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood")
    # the page as it opens: scrolled to its top (open_canvas may have scrolled the canvas into view; Streamlit's main
    # part is its own scrolling box, not the window)
    page.evaluate("() => { window.scrollTo(0, 0); document.querySelectorAll('*').forEach(e => { "
                  "if (e.scrollTop) e.scrollTop = 0; }); }")
    page.wait_for_timeout(300)
    canvas = frame_element.bounding_box()
    key = page.locator(".gg-key").first
    box = key.bounding_box()
    assert 0 <= canvas["y"] < height, canvas   # the canvas is above the fold
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, (box, canvas)
    assert box["y"] + box["height"] <= canvas["y"] + 2 and canvas["y"] - (box["y"] + box["height"]) < 40, (box, canvas)
    text = key.inner_text()
    assert "values for X (to move here)" in text and "win" in text and "loss" in text, text
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"h20-key-{width}.png"))
    page.close()


@pytest.mark.parametrize("width, height", [(1440, 900), (1000, 800)])
def test_a_link_copied_after_a_search_reopens_with_the_searched_position_in_sight(server, browser, width,  # noqa: F811
                                                                                 height):
    page = browser.new_page(viewport={"width": width, "height": height})
    frame_element, frame = open_canvas(page, f"{server}/?game=chopsticks:standard&view=Neighbourhood&k=3")
    far = "A|3-4|2-4"   # six moves from the start: added with its path
    frame_element, frame = _find(page, far, "=== 1")
    found = cy(frame, "cy.nodes('[_found = 1]').map(n => n.id())")
    nodes = sorted(cy(frame, "cy.nodes().map(n => n.id())"))
    link = page.url
    assert "path=" in link, link
    frame_element.screenshot(path=str(ARTIFACTS / f"h20-scene-before-{width}.png"))
    page.close()

    again = browser.new_page(viewport={"width": width, "height": height})
    frame_element, frame = open_canvas(again, link)
    wait_still(frame)
    frame.wait_for_timeout(300)
    assert sorted(cy(frame, "cy.nodes().map(n => n.id())")) == nodes   # the same node set
    assert cy(frame, "cy.nodes('[_found = 1]').map(n => n.id())") == found   # ringed again
    sight = dict(frame.evaluate(IN_SIGHT))
    focus = cy(frame, "cy.nodes('[_focus]').map(n => n.id())")
    assert all(sight[k] for k in focus + found), {k: sight[k] for k in focus + found}
    zoom = cy(frame, "cy.zoom()")
    out = [k for k, inside in sight.items() if not inside]
    assert out == [] or zoom >= 0.6 - 1e-6, (out, zoom)   # every node in sight, or the readable zoom (7)
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"h20-scene-reopened-{width}.png"))
    again.close()


def test_a_position_typed_as_its_mirror_image_is_shown_in_one_spelling(server, browser):  # noqa: F811
    """Tic-tac-toe at k=2: "..X/.../..." typed (a corner X: the canvas draws that node as X../.../..., its stored key
    .../.../..X). The line under the canvas names the drawn board and says once that it is the typed one's mirror
    image; the node's label and the info panel show the drawn board; the stored key is not shown."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood")
    frame_element, frame = _find(page, "..X/.../...", "=== 1")
    node = cy(frame, "(() => { const n = cy.nodes('[_found = 1]')[0]; "
                     "return {id: n.id(), position: n.data('position'), label: n.data('label')}; })()")
    drawn = node["position"]
    assert node["label"].replace("\n", "/") == drawn and drawn != "..X/.../...", node
    line = page.get_by_text("is on the canvas").first.inner_text()
    assert line == f"..X/.../... is on the canvas, drawn as its mirror image (or turn) {drawn}", line
    if node["id"] not in (drawn, "..X/.../..."):
        assert node["id"] not in line
    panel = frame.locator("#infopanel").inner_text()
    assert drawn in panel and (node["id"] in (drawn, "..X/.../...") or node["id"] not in panel), panel
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "h20-find-mirror.png"))
    page.close()
