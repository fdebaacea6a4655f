"""The whole-graph overview's column labels in Chromium: under their columns and never run together
("win 1win 3" was drawn where two neighbouring columns' labels met), at the first view and at every zoom,
on games with few and with many remoteness levels."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from explorer.solved import build
from explorer.ui import whole_graph
from tests.ui.test_browser import ARTIFACTS, browser, server, settle  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser]
SLOW = 180_000  # the first visit of a game builds it

LABEL_BOXES = """e => [...e.querySelectorAll('.gg-whole-axis span')].map(s => {
    const r = s.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom, s.textContent]; })"""


def _apart(boxes) -> None:
    """No two labels shown share a pixel."""
    ordered = sorted(boxes)
    for before, after in zip(ordered, ordered[1:]):
        overlapping = before[1] > after[0] and before[3] > after[2] and after[3] > before[2]
        assert not overlapping, (before, after)


@pytest.mark.parametrize("spec", ["chopsticks:standard", "dodgem"])
def test_column_labels_never_overlap_at_any_zoom(server, browser, spec):  # noqa: F811
    solved = build(spec)
    view = whole_graph.overview(solved, "none")
    names = {text for _, _, text in whole_graph.column_labels(view.value, view.remoteness, view.x)}
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(f"{server}/?game={quote(spec)}&view={quote('Whole graph')}")
    holder = page.locator(".gg-whole[data-drawn-ms]")
    holder.wait_for(timeout=SLOW)
    settle(page)
    holder.scroll_into_view_if_needed()
    canvas = holder.locator(".gg-whole-canvas").bounding_box()
    seen = set()
    for step in ("fit", "out", "out", "fit", "in", "in", "in"):
        holder.locator(f'.gg-whole-tools button[data-do="{step}"]').click()
        page.wait_for_timeout(600)   # the camera's animation is 200 ms
        boxes = holder.evaluate(LABEL_BOXES)
        assert boxes, step
        _apart(boxes)
        for left, right, top, bottom, text in boxes:
            assert text in names
            assert canvas["x"] <= left and right <= canvas["x"] + canvas["width"], (step, text)
            assert canvas["y"] <= top and bottom <= canvas["y"] + canvas["height"], (step, text)
        seen |= {text for *_, text in boxes}
        if step == "fit":
            assert len(boxes) >= min(3, len(names))
    assert len(seen) > 3 or len(seen) == len(names)  # zooming in shows labels the whole view left out
    ARTIFACTS.mkdir(exist_ok=True)
    holder.screenshot(path=str(ARTIFACTS / f"whole-labels-{spec.split(':')[0]}.png"))
    page.close()
