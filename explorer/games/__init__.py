"""Games: rules as pure functions, one module per game, registered by name."""

from explorer.games.base import Game, Move, Params, param
from explorer.games.registry import register
from explorer.games.spec import game_class, games, parse_spec

__all__ = ["Game", "Move", "Params", "param", "game_class", "games", "parse_spec", "register"]
