"""Mū tōrere: the eight-pointed star, kewai 1-8 clockwise from the top, the pūtahi in the middle."""

import math

import explorer.ui.boards.points as points

SIZE, CENTRE, RADIUS = 300, 150, 115
XY = [(round(CENTRE + RADIUS * math.sin(2 * math.pi * k / 8), 1), round(CENTRE - RADIUS * math.cos(2 * math.pi * k / 8), 1))
      for k in range(8)] + [(CENTRE, CENTRE)]
LINES = [(k, (k + 1) % 8) for k in range(8)] + [(k, 8) for k in range(8)]


def svg(game, position, links):
    return points.svg(game, position, links, XY, LINES, (SIZE, SIZE))
