"""Issue 35, "the graph is the stage: when a game opens, the canvas is above the fold", in Chromium at 1,440 x 900 and
1,000 x 900: where the canvas (the component's iframe) starts on the first screen and how much of its height lies in
it. A stranger found the controls above it taking about 480 px on main (the canvas began at 501 px at 1,440 and at
576 at 1,000 on Chopsticks: 62% and 51% of it in sight). The controls are one bar that wraps (two rows at 1,440,
three at 1,000), the game's description and the canvas's count one line each, the how-to in the count's help, the
Copy link beside the count, and the canvas's notes take no room when there are none. Screenshots go to
tests/artifacts/canvas-fold-*.png."""

from __future__ import annotations

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import open_canvas, wait_still
from tests.ui.test_tabs_browser import CANVAS  # the canvas's iframe
SCREEN = 900          # px: the window's height, the first screen
IN_SIGHT = 0.65       # the least share of the canvas's height on the first screen ("most of it")
# The labelled controls that must stay on the page (in reach, not folded away) with the canvas, and the tabs' names
CONTROLS = ("k (1 to", "Layout", "Colour by", "Group positions", "Find on the canvas")
SWITCHES = ("Boards on the nodes", "Move labels")
BUTTONS = ("Lay out again", "More")


@pytest.mark.parametrize("width", [1440, 1000])
@pytest.mark.parametrize("spec", ["chopsticks:standard", "tictactoe"])
def test_the_canvas_opens_on_the_first_screen_most_of_it_in_sight(server, browser, spec, width):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": SCREEN})
    _, frame = open_canvas(page, f"{server}/?game={spec}", warm=True)  # (a game's later visit: no build's status box)
    wait_still(frame)
    # Back to the first screen (open_canvas scrolled the canvas into view; Streamlit scrolls its main section, not the
    # window)
    page.evaluate("() => { window.scrollTo(0, 0); document.querySelectorAll('*').forEach(e => { if (e.scrollTop) "
                  "e.scrollTop = 0; }); }")
    page.wait_for_timeout(300)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"canvas-fold-{spec.split(':')[0]}-{width}.png"))
    canvas = page.locator(CANVAS).first.bounding_box()
    seen = max(0.0, min(canvas["y"] + canvas["height"], SCREEN) - max(canvas["y"], 0))
    share = seen / canvas["height"]
    print(f"{spec} at {width}: the canvas's top at {canvas['y']:.0f} px, {share:.0%} of its {canvas['height']:.0f} px "
          "on the first screen")
    assert 0 <= canvas["y"] < SCREEN, canvas
    assert share >= IN_SIGHT, (f"{share:.0%} of the canvas on the first screen (its top at {canvas['y']:.0f} px): "
                               f"less than {IN_SIGHT:.0%}")
    # Every control is still there, labelled, above the canvas and wholly on the first screen
    for label in CONTROLS:
        box = page.get_by_label(label, exact=False).first.bounding_box()
        assert box and box["y"] + box["height"] <= canvas["y"], (label, box)
    for name in SWITCHES:
        box = page.get_by_text(name, exact=True).first.bounding_box()
        assert box and box["y"] + box["height"] <= canvas["y"], (name, box)
    for name in BUTTONS:
        box = page.get_by_role("button", name=name).first.bounding_box()
        assert box and box["y"] + box["height"] <= canvas["y"], (name, box)
        assert box["x"] + box["width"] <= width, (name, box)
    # The saved scene's Copy link sits with the link's line above the canvas, not under the canvas and its legend
    copy = page.locator("#gg-copy").first.bounding_box()
    assert copy and copy["y"] + copy["height"] <= canvas["y"], copy
    # The tabs on one line
    tops = page.evaluate("() => [...document.querySelectorAll('.st-key-tab [role=tab]')].map(t => "
                         "Math.round(t.getBoundingClientRect().top))")
    assert tops and len(set(tops)) == 1, tops
    page.close()
