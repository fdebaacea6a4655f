"""Chopsticks: the hands (explorer/ui/hands.py); moves are played from the moves table."""

from explorer.ui import hands


def svg(game, position, links):
    return hands.svg(position.hands, position.to_move, game.params.fingers)
