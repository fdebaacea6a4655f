"""The table of games by name, and the list of built-in games.

A game module registers itself with ``@register``; plugins go through
``register_plugin``. The registry imports no game: the built-in games are named
here as module paths (BUILTIN_GAMES, their one home) and imported on first use.
Looking games up by spec is explorer.games.spec.
"""

from __future__ import annotations

import importlib

from explorer.core.errors import UnknownGame
from explorer.games.base import Game

# One home for the list of built-in games: importing a module runs its @register.
BUILTIN_GAMES = (
    "explorer.games.chopsticks",
    "explorer.games.connect4",
    "explorer.games.dobutsu",
    "explorer.games.dodgem",
    "explorer.games.domineering",
    "explorer.games.mutorere",
    "explorer.games.nim",
    "explorer.games.ponghauki",
    "explorer.games.teeko",
    "explorer.games.tictactoe",
    "explorer.games.toads_and_frogs",
)

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game available by its name."""
    _GAMES[cls.name] = cls
    return cls


def register_plugin(cls: type[Game], where: str) -> None:
    """Register a game from outside the package; a name already taken by another game is refused."""
    existing = _GAMES.get(getattr(cls, "name", None))
    if existing is not None and existing is not cls and (existing.__module__, existing.__qualname__) != (cls.__module__, cls.__qualname__):
        raise UnknownGame(f"{where} defines a game named {cls.name!r}, but {existing.__module__} already has that name")
    register(cls)


def unregister(cls: type[Game]) -> None:
    """Remove a game, if it is the one registered under its name."""
    if _GAMES.get(cls.name) is cls:
        del _GAMES[cls.name]


def snapshot() -> dict[str, type[Game]]:
    """The table as it is now, to restore after a plugin that failed half-way."""
    return dict(_GAMES)


def restore(table: dict[str, type[Game]]) -> None:
    _GAMES.clear()
    _GAMES.update(table)


def registered() -> dict[str, type[Game]]:
    """Every registered game by name, the built-in ones loaded first."""
    load_builtin_games()
    return dict(sorted(_GAMES.items()))


def load_builtin_games() -> None:
    for module in BUILTIN_GAMES:
        importlib.import_module(module)
