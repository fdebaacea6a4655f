"""Issue 35, "a board is drawn on a node only when its on-screen size can be read", per game, in Chromium at 1440 and
1000 px: Dōbutsu shōgi's boards, drawn at about 35 px at the default zoom (above the canvas's default threshold,
canvas.marks.MIN_BOARD_PX = 18, but their pieces' letters 1.5 px high), are glyphs in their value colour there, and come
back once zoomed in to the game's own threshold (Offers.board_px); tic-tac-toe's, which read at the default zoom, are
drawn there. Screenshots go to tests/artifacts/canvas-board-px-*.png.
"""

from __future__ import annotations

import pytest

from tests.ui.test_browser import ARTIFACTS, browser, server  # noqa: F401 - fixtures
from tests.ui.test_browser import pytestmark  # noqa: F401 - browser, and Chromium must be there
from tests.ui.test_canvas_browser import act, cy, open_canvas, wait_still
from tests.ui.test_canvas_glyph_browser import BOARDS
from tests.ui.test_canvas_leftovers_browser import _boards_on


@pytest.mark.parametrize("width", [1440, 1000])
def test_dobutsu_boards_are_glyphs_until_they_can_be_read(server, browser, width):  # noqa: F811
    from explorer.games.spec import parse_spec
    from explorer.ui.canvas.marks import BOARD_SIZE

    threshold = parse_spec("dobutsu:small").offers.board_px
    page = browser.new_page(viewport={"width": width, "height": 900})
    url = f"{server}/?game=dobutsu:small&view=Neighbourhood&k=1"
    page.goto(url)  # the first visit builds the game: longer than open_canvas waits on a busy machine
    page.get_by_text("on the canvas").first.wait_for(timeout=400_000)
    open_canvas(page, url)
    frame_element, frame = _boards_on(page)
    shown = cy(frame, BOARDS)
    assert shown and max(w for *_, w in shown) < threshold, shown   # the default view: too small to read
    assert not any(drawn for _, drawn, _, _ in shown), shown        # so every one is a glyph
    ARTIFACTS.mkdir(exist_ok=True)
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-board-px-dobutsu-glyphs-{width}.png"))
    # zoomed in until a node (BOARD_SIZE in the model) is the game's threshold wide: the boards are drawn
    act(frame, f"cy.zoom({{ level: {threshold * 1.02 / BOARD_SIZE}, "
               "renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } })")
    wait_still(frame)
    near = cy(frame, BOARDS)
    assert all(drawn for _, drawn, _, w in near), near
    frame_element.screenshot(path=str(ARTIFACTS / f"canvas-board-px-dobutsu-boards-{width}.png"))
    page.close()


@pytest.mark.parametrize("width", [1440, 1000])
def test_tictactoe_boards_are_drawn_at_the_default_zoom(server, browser, width):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": 900})
    open_canvas(page, f"{server}/?game=tictactoe&view=Neighbourhood&k=1")
    frame_element, frame = _boards_on(page)
    shown = cy(frame, BOARDS)
    assert shown and all(drawn for _, drawn, _, _ in shown), shown
    page.close()
