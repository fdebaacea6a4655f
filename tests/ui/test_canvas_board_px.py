"""Issue 35: a board is drawn on a canvas node only when its on-screen size can be read, and that size is the game's
(Offers.board_px), not one number for every game: Dōbutsu shōgi's boards were drawn at about 35 px on screen, above
the canvas's default 18 px (canvas.marks.MIN_BOARD_PX), with their pieces' letters about 1.5 px high.

Measured on the drawing itself (explorer/ui/boards, the SVG a node shows, scaled into 88% of the node,
style.BOARD_PICTURE): at a game's board_px its pieces' letters are at least MIN_LABEL_PX on screen, the size the canvas
reads every label at, and board_px is no larger than that needs.
"""

from __future__ import annotations

import re

import pytest

from explorer.games.spec import games, parse_spec
from explorer.ui.boards import board_svg
from explorer.ui.canvas.marks import MIN_BOARD_PX, MIN_LABEL_PX
from explorer.ui.canvas.style import BOARD_PICTURE

SHARE = float(BOARD_PICTURE["background-width"].rstrip("%")) / 100  # the picture's part of the node


def _letters_on_screen(svg: str, node_px: float) -> float:
    """The on-screen size (px) of the smallest piece letter (a bold text of one letter) in `svg` drawn in a node
    `node_px` wide."""
    width, height = (float(v) for v in re.search(r'<svg[^>]*width="([\d.]+)"[^>]*height="([\d.]+)"', svg).groups())
    fonts = [float(f) for f in re.findall(r'font-size="([\d.]+)" font-weight="bold"[^>]*>[A-Za-z]</text>', svg)]
    assert fonts, "no piece letters in the drawing"
    return min(fonts) * node_px * SHARE / max(width, height)


def test_dobutsu_declares_the_width_at_which_its_pieces_letters_read():
    for spec in ("dobutsu", "dobutsu:small"):
        game = parse_spec(spec)
        px = game.offers.board_px
        assert px is not None and px > MIN_BOARD_PX, spec
        svg = board_svg(game, game.start())
        assert _letters_on_screen(svg, px) >= MIN_LABEL_PX, spec                  # read at its threshold
        assert _letters_on_screen(svg, px * 0.95) < MIN_LABEL_PX, spec           # and it asks no more than that
        assert _letters_on_screen(svg, 35) < MIN_LABEL_PX / 3, spec              # the stranger's 35 px: unreadable


@pytest.mark.parametrize("name", sorted(games()))
def test_every_declared_threshold_is_for_a_drawn_board(name):
    offers = games()[name].offers
    if offers.board_px is not None:
        assert offers.board is not None and offers.board_px >= MIN_BOARD_PX, name
