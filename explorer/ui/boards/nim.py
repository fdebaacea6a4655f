"""Nim: heaps of tokens (explorer/ui/drawing.py); a click on a token takes it and those above it."""

from explorer.ui import drawing


def svg(game, position, links):
    return drawing.heaps_svg(position.heaps, position.to_move, max(game.params.heaps), links)
