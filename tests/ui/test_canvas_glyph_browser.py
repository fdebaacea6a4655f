"""Issue 35, "a board is drawn on a node only when its on-screen size can be read; otherwise a glyph in the value
colour", in Chromium: with boards on, a node under MIN_BOARD_PX wide on screen draws no board picture, only its shape
in its value colour (static/canvas_view.js, 18); zoomed in again, every board is drawn. Before, a board was drawn at
any zoom: zoomed out, a speck of grey board with a hairline of colour round it. Screenshots go to
tests/artifacts/canvas-glyph-*.png.
"""

from __future__ import annotations

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import act, cy, open_canvas, wait_still
from tests.ui.test_canvas_leftovers_browser import _boards_on

# Each node with a board: whether its picture is drawn, its fill, and its width on screen.
BOARDS = ("cy.nodes('[_image]').map(n => [n.id(), n.style('background-image') !== 'none', "
          "n.style('background-color').replace(/ /g, ''), n.renderedWidth()])")


def _rgb(colour: str) -> str:
    return "rgb({},{},{})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


def test_a_board_too_small_to_read_is_drawn_as_a_glyph_in_the_value_colour(server, browser):  # noqa: F811
    from explorer.render import palette
    from explorer.ui.canvas.marks import MIN_BOARD_PX

    page = browser.new_page(viewport={"width": 1440, "height": 900})
    open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=1")
    frame_element, frame = _boards_on(page)
    shown = cy(frame, BOARDS)
    assert shown and all(drawn for _, drawn, _, width in shown), shown   # the default view: every board drawn
    assert min(width for *_, width in shown) >= MIN_BOARD_PX
    fills = {palette.FILLS[v].lower() for v in ("win", "loss", "tie", "draw") if v in palette.FILLS}
    expected = {_rgb(f) for f in fills}

    # zoomed out until the nodes are under MIN_BOARD_PX wide: glyphs, each in a value colour
    act(frame, f"cy.minZoom(0.01); cy.zoom({{ level: cy.zoom() * {MIN_BOARD_PX * 0.8} / cy.nodes('[_image]')[0]"
               ".renderedWidth(), renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } })")
    wait_still(frame)
    small = cy(frame, BOARDS)
    assert all(width < MIN_BOARD_PX for *_, width in small), small
    assert not any(drawn for _, drawn, _, _ in small), small
    assert {fill for _, _, fill, _ in small} <= expected, (small, expected)
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / "canvas-glyph-small.png"))

    # zoomed in again: the boards are back
    act(frame, "cy.zoom({ level: 1.0, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } })")
    wait_still(frame)
    again = cy(frame, BOARDS)
    assert all(drawn for _, drawn, _, _ in again), again
    page.close()
