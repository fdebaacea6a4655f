"""The table of games by name: ``@register`` and what plugins use to add and remove games.

Below both the registry (which imports the built-in games with importlib) and the game modules
(which import ``register`` from here), so that no game imports back the module that loads it.
"""

from __future__ import annotations

from explorer.core.errors import UnknownGame
from explorer.games.base import Game

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
