"""A double-click on a node the server's canvas does not hold is answered at once in Chromium (issue 35): the page
showed the node's ring ahead (static/canvas_view.js, 15), the server answers with one line and a changed
#gg-refused below the canvas, and the page takes back what it showed (its own 20 s fallback, AHEAD_WAIT_MS, turned
off here). Before, no answer came and the ring stayed provisional for 20 s. (The node is one the test adds to the drawing, with a ring of
its own in the payload sent ahead: a page drawn from an older answer.)"""

from __future__ import annotations

from tests.ui.test_browser import browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import CY, cy, node_point, open_canvas, wait_still

STRANGER = "zz-not-held"
# the stranger drawn in a clear spot, and a ring for it in the payload sent ahead, made for the canvas with it
ADD = f"""() => {{ const cy = {CY};
    const n = cy.add({{ group: 'nodes', data: {{ id: '{STRANGER}', label: 'stranger' }},
                        renderedPosition: {{ x: cy.width() / 2, y: 40 }} }});
    n.style('z-index', 999);
    const el = window.parent.document.getElementById('gg-ahead'); const d = JSON.parse(el.textContent);
    d.count = [cy.nodes().length, cy.edges().length];
    d.nodes['{STRANGER}-child'] = {{ id: '{STRANGER}-child', label: 'child' }};
    d.ring['{STRANGER}'] = {{ n: ['{STRANGER}-child'], e: [] }};
    el.textContent = JSON.stringify(d); }}"""


def test_a_node_the_server_does_not_hold_is_taken_back_at_once(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1440, "height": 1300})
    frame_element, frame = open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=2", warm=True)
    frame_element.scroll_into_view_if_needed()
    wait_still(frame)
    before = cy(frame, "cy.nodes().length")
    frame.evaluate(ADD)
    page.mouse.dblclick(*node_point(frame_element, frame, STRANGER))
    frame.wait_for_function(f"() => {CY}.getElementById('{STRANGER}-child').length > 0", timeout=5_000)  # shown ahead
    # the page's own fallback turned off: only the server's answer can take the ring back
    frame.evaluate(f"() => {{ const cy = {CY}; clearTimeout(cy.__ggAhead.timer); }}")
    page.get_by_text("is not on the canvas the server holds").first.wait_for(timeout=60_000)
    frame.wait_for_function(f"() => {{ const cy = {CY}; return !cy.__ggAhead && "
                            f"cy.getElementById('{STRANGER}-child').length === 0; }}", timeout=60_000)
    assert cy(frame, "cy.nodes().length") == before + 1   # the rest as it was (the stranger the test drew)
    page.close()
