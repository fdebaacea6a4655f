"""Chopsticks: the hands (explorer/ui/hands.py); taps are arrows and transfers are chips on the drawing."""

from explorer.games.base import player_name
from explorer.play import game_over
from explorer.ui import hands
from explorer.ui.boards.grid import caption_below


def svg(game, position, links):
    names = (player_name(game, 0), player_name(game, 1))
    over = game_over(game, position)  # a finished position: nobody framed as to move, and why it ended below
    picture = hands.svg(position.hands, position.to_move, game.params.fingers, names, links=links, over=over)
    return caption_below(picture, over, hands.TURN) if over else picture
