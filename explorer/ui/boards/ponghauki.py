"""Pong Hau K'i: the square with its centre; the bottom side (the broken mouth) has no line. Red and blue pieces."""

from explorer.games.ponghauki import LINES
from explorer.ui.boards import points

XY = [(50, 50), (230, 50), (140, 140), (50, 230), (230, 230)]  # tl tr c bl br
COLOURS = {0: ("#d62728", "#ffffff"), 1: ("#1f77b4", "#ffffff")}


def svg(game, position, links):
    return points.svg(game, position, links, XY, LINES, (280, 280), colours=COLOURS)
