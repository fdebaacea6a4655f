"""Chopsticks: the hands (explorer/ui/hands.py); taps are arrows and transfers are chips on the drawing."""

from explorer.ui import hands


def svg(game, position, links):
    return hands.svg(position.hands, position.to_move, game.params.fingers, links=links)
