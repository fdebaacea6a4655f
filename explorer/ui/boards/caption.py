"""A board's caption, which every drawing here takes from this one module (not from the package's
__init__, which loads the drawings: a drawing importing it back would close an import cycle)."""

from __future__ import annotations

from typing import Any

from explorer.games import Game


def turn_caption(game: Game, position: Any) -> str:
    """What a board's caption says: whose move it is ("Red to move"), or at a finished position that
    the game is over, why and who won (explorer.play.game_over). Every drawing here takes its caption
    from this one place, so that no finished board says "B to move". O(the rules' outcome)."""
    from explorer.games.base import player_name
    from explorer.play import game_over

    return game_over(game, position) or f"{player_name(game, game.to_move(position))} to move"
