"""Pong Hau K'i: the square with its centre; the bottom side (the broken mouth) has no line. Red and blue pieces
(the players' dark and purple of explorer/render/palette.py: the rings take the value colours)."""

from explorer.games.ponghauki import LINES
from explorer.render.palette import FIRST, SECOND
import explorer.ui.boards.points as points

XY = [(50, 50), (230, 50), (140, 140), (50, 230), (230, 230)]  # tl tr c bl br
COLOURS = {0: FIRST, 1: SECOND}


def svg(game, position, links):
    return points.svg(game, position, links, XY, LINES, (280, 280), colours=COLOURS)
