"""The canvas's level of detail in Chromium (issue 35, explorer/ui/canvas/clusters.py): tic-tac-toe at k=4 (162
positions) and dobutsu:small at k=3 (456) open grouped by value and remoteness, with no caption over another caption
or a node's box (by Cytoscape.js's bounding boxes, MEASURE), the whole drawing in the canvas's default view at 1,440 px
(and tic-tac-toe's at 1,000 px too); a double-click on a cluster draws its positions in its place, still with no
overlap, and the page's address holds it (open=). Screenshots go to tests/artifacts."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, pytestmark, server  # noqa: F401 - fixtures, and Chromium
from tests.ui.test_canvas_browser import cy, expand_node, open_canvas, wait_still
from tests.ui.test_canvas_readable_browser import MEASURE

FITS = "(() => { const e = cy.extent(), b = cy.elements().boundingBox(); " \
       "return b.x1 >= e.x1 && b.x2 <= e.x2 && b.y1 >= e.y1 && b.y2 <= e.y2; })()"


def _clear(frame, where: str) -> dict:
    wait_still(frame)
    frame.wait_for_timeout(300)  # (the view keeper hides specks and tucks names in the task after a layout)
    seen = frame.evaluate(MEASURE)
    assert not seen["bad"], f"{where}: {len(seen['bad'])} overlaps, e.g. {seen['bad'][:4]}"
    assert seen["captions"] > 0 and seen["opaque"], where
    return seen


@pytest.mark.parametrize("spec, k, width, whole", [("tictactoe", 4, 1440, True), ("tictactoe", 4, 1000, True),
                                                   ("dobutsu:small", 3, 1440, True), ("dobutsu:small", 3, 1000, False)])
def test_a_big_neighbourhood_opens_grouped_and_reads_at_a_glance(server, browser, spec, k, width, whole):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": 900})
    frame_element, frame = open_canvas(page, f"{server}/?game={spec}&view=Neighbourhood&k={k}")
    drawn = cy(frame, "({nodes: cy.nodes().length, clusters: cy.nodes('[?_cluster]').length, "
                      "positions: cy.nodes().map(n => n.data('_count') || 1).reduce((a, b) => a + b, 0), "
                      "zoom: cy.zoom()})")
    assert drawn["clusters"] == drawn["nodes"] - 1, drawn  # every position but the page's in a cluster
    assert drawn["positions"] == {"tictactoe": 162, "dobutsu:small": 456}[spec] and drawn["nodes"] <= 40, drawn
    _clear(frame, f"{spec} at k={k}, grouped, {width} px")
    assert drawn["zoom"] >= 0.6 - 1e-6  # (the view keeper's readable zoom)
    if whole:
        assert cy(frame, FITS), f"{spec} at k={k}, grouped: not all in the default view at {width} px"
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-clusters-{spec.replace(':', '-')}-{width}.png"))
    page.close()


def test_a_double_click_opens_a_cluster_in_its_place(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=4")
    before = cy(frame, "cy.nodes().map(n => [n.id(), n.data('_count') || 0, n.data('cluster') || ''])")
    ident, count, title = next(n for n in before if n[2] == "X wins in 3")
    assert count > 1
    frame_element, frame = expand_node(page, frame_element, frame, ident)
    after = cy(frame, "cy.nodes().map(n => [n.id(), !!n.data('_cluster'), n.data('value'), n.data('remoteness'), "
                      "n.data('to move')])")
    ids = {n[0] for n in after}
    assert ident not in ids and {n[0] for n in before} - {ident} <= ids
    new = [n for n in after if n[0] not in {b[0] for b in before}]
    assert len(new) == count  # its positions, each drawn as itself, of its value and remoteness
    assert all(not n[1] and n[2] == "win" and n[3] == 3 and n[4] == "X" for n in new), new
    _clear(frame, "tictactoe at k=4, a cluster opened")
    opened = parse_qs(urlparse(page.url).query).get("open")
    assert opened and "v win 3 X" in opened[0]
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-clusters-tictactoe-opened.png"))
    page.close()


def test_the_group_box_reads_whole_beside_the_search(server, browser):  # noqa: F811
    """At a 1,000 px window the Group box shares the search's row (540 px): its longest choice and its label whole."""
    from tests.ui.test_canvas_narrow_browser import CONTROLS_CUT

    page = browser.new_page(viewport={"width": 1000, "height": 800})
    open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=4&group=cycles")
    box = page.get_by_role("combobox", name="Group positions")
    assert box.input_value() == "cycles (strongly connected)"
    seen = page.evaluate(f"({CONTROLS_CUT})", False)
    assert seen["cut"] == [], seen
    group, find = box.bounding_box(), page.get_by_label("Find on the canvas", exact=True).bounding_box()
    assert abs(group["y"] - find["y"]) < 4 and group["x"] + group["width"] <= find["x"]  # one row, side by side
    page.close()
