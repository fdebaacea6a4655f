"""Games: rules as pure functions, one module per game, registered by name."""

from explorer.games.base import GENERIC, OWN_DRAWING, CgtValues, Game, Move, Offers, Params, param
from explorer.games.table import register
from explorer.games.spec import game_class, games, parse_spec, shipped_specs

__all__ = ["GENERIC", "OWN_DRAWING", "CgtValues", "Game", "Move", "Offers", "Params", "param", "game_class", "games",
           "parse_spec", "register", "shipped_specs"]
