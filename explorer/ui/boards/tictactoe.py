"""Tic-tac-toe: the 3x3 board; an empty cell is a link that plays there."""

from explorer.ui import drawing


def svg(game, position, links):
    return drawing.board_svg(position, links)
