"""The table of games by name, and the list of built-in games.

A game module registers itself with ``@register`` from explorer.games.table (re-exported
here), plugins go through ``register_plugin``. The registry imports no game statically: the built-in games are named
here as module paths (BUILTIN_GAMES, their one home) and imported on first use.
Looking games up by spec is explorer.games.spec.
"""

from __future__ import annotations

import importlib

from explorer.games.base import Game
# the table itself and @register live one module lower, where the game modules import them from
from explorer.games.table import _GAMES, register, register_plugin, restore, snapshot, unregister  # noqa: F401

# One home for the list of built-in games: importing a module runs its @register. The "games" independence
# contract of pyproject.toml names the same modules (tests/architecture/test_games_contract.py keeps them equal).
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


def registered() -> dict[str, type[Game]]:
    """Every registered game by name, the built-in ones loaded first."""
    load_builtin_games()
    return dict(sorted(_GAMES.items()))


def load_builtin_games() -> None:
    for module in BUILTIN_GAMES:
        importlib.import_module(module)
