"""The Cypher console's canvas at a 1,000 and a 1,440 px window (issue 37), in Chromium: the library's cycles
example on Magic Fingers, chosen and run as a new user would, is drawn whole (every node and its caption inside
the canvas) at a readable zoom. Beside the table the canvas had 310 px at 1,000 px and the drawing needed 425 or
more at the readable zoom, so it was cut or too small to read; the canvas now takes the page's width, the table
under it. Screenshots go to tests/artifacts/console-canvas-*.png."""

from __future__ import annotations

import time

import pytest

from tests.ui.test_browser import ARTIFACTS, browser  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import cy, settle, wait_canvas, wait_still
from tests.ui.test_canvas_narrow_browser import chopsticks_ui  # noqa: F401 - fixture: Magic Fingers on Neo4j

# The nodes not wholly inside the canvas, caption included: [key, x1, x2, y1, y2] (px of the canvas).
OUTSIDE = """() => { const cy = document.getElementById('cy')._cyreg.cy;
    return cy.nodes().filter(n => { const b = n.renderedBoundingBox({includeLabels: true, includeOverlays: false});
        return b.x1 < -0.5 || b.y1 < -0.5 || b.x2 > cy.width() + 0.5 || b.y2 > cy.height() + 0.5; })
      .map(n => { const b = n.renderedBoundingBox({includeLabels: true});
        return [n.data('key') || n.id(), Math.round(b.x1), Math.round(b.x2), Math.round(b.y1), Math.round(b.y2)]; }); }"""


def choose_example(page, name: str) -> None:
    """The example `name` chosen in the console's list, as a person does (open the list, click its name)."""
    page.get_by_label("Example from the query library").click()
    page.get_by_role("option", name=name, exact=True).click()
    settle(page)


@pytest.mark.neo4j
@pytest.mark.parametrize("width", [1000, 1440])
def test_the_cycles_example_is_drawn_whole_and_readable(chopsticks_ui, browser, width):  # noqa: F811
    from explorer.ui.canvas import READABLE_ZOOM

    page = browser.new_page(viewport={"width": width, "height": 1000})
    page.goto(f"{chopsticks_ui}/?game=chopsticks:magic-fingers&view=Cypher console")
    page.get_by_text("Cypher (read-only)").wait_for(timeout=120_000)
    settle(page)
    choose_example(page, "cycles")
    assert "(p)((a)-[:MOVE]->(b)" in page.get_by_label("Cypher (read-only)").input_value()
    page.get_by_role("button", name="Run", exact=True).click()
    settle(page)
    frame_element, frame = wait_canvas(page, "cy.edges().length > 0 && cy.scratch('_gg') === true")
    time.sleep(0.5)
    wait_still(frame)
    assert cy(frame, "cy.nodes().length") >= 10  # the example's cycles, drawn
    assert cy(frame, "cy.width()") >= 500, "the canvas is squeezed beside the table"
    assert frame.evaluate(OUTSIDE) == []
    assert cy(frame, "cy.zoom()") >= READABLE_ZOOM - 1e-6  # the captions at a size that reads
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"console-canvas-{width}.png"))
    assert page.locator("[data-testid=stDataFrame]").count() >= 1  # and its table, under it
    page.close()
