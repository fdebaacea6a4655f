"""Chopsticks: the hands (explorer/ui/hands.py); taps are arrows and transfers are chips on the drawing."""

from explorer.games.base import player_name
from explorer.ui import hands
from explorer.ui.boards.caption import turn_caption
from explorer.ui.boards.grid import caption_below


def svg(game, position, links):
    names = (player_name(game, 0), player_name(game, 1))
    said = turn_caption(game, position)  # "A to move", or why the game is over
    # A finished position: nobody framed as to move, and why it ended below; else the mover's frame says it.
    over = said if game.outcome(position) is not None else None
    picture = hands.svg(position.hands, position.to_move, game.params.fingers, names, links=links, over=over,
                        said=said)
    return caption_below(picture, over, hands.TURN) if over else picture
