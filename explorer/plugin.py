"""Everything a game module needs, from one public import (docs/your-own-game.md):

    from explorer.plugin import Game, Move, Offers, Params, Value, param

The rules: `Game` (the base class: start, to_move, moves, outcome, format, parse, and the optional
methods its `Offers` promise), `Move`, `Params` and `param` (parameters validated for you), `Offers` and
`GENERIC` (what a game offers beyond its rules), `CgtValues`, `StrategyChart`, `Survey`, `Tiers`, `MoveBatch`, `ImplicitKernels`,
`OWN_DRAWING`; results: `Value` (for the player to move); bad input: `InvalidParameter`, `InvalidPosition`;
`register` (a game inside the package; a plug-in file or entry point needs none); `player_name`;
`subset_rank`, `subset_unrank` (the colex rank of a subset, for a perfect ranking).

Loaded on first use, so that a game without compiled kernels never imports numba: `njit` and `jit`
(explorer.kernels: numba's, cached once per install), and the implicit mode's helpers `map_successors`,
`map_terminal` (explorer.kernels.implicit) and `implicit_initial`, `solve_cells`, `forward_cells`
(explorer.kernels.retrograde).

These names are the stable surface: a game written against them keeps working as the modules behind
them move. The old `from explorer.values import Value` still works (explorer.values).
"""

from explorer.core.errors import InvalidParameter, InvalidPosition
from explorer.core.ranking import subset_rank, subset_unrank
from explorer.core.values import Value
from explorer.games.base import (GENERIC, OWN_DRAWING, CgtValues, Game, ImplicitKernels, Move, MoveBatch, Offers,
                                 Params, StrategyChart, Survey, Tiers, param, player_name)
from explorer.games.registry import register

_LAZY = {"njit": "explorer.kernels", "jit": "explorer.kernels",
         "map_successors": "explorer.kernels.implicit", "map_terminal": "explorer.kernels.implicit",
         "implicit_initial": "explorer.kernels.retrograde", "solve_cells": "explorer.kernels.retrograde",
         "forward_cells": "explorer.kernels.retrograde"}

__all__ = ["GENERIC", "OWN_DRAWING", "CgtValues", "Game", "ImplicitKernels", "InvalidParameter", "InvalidPosition",
           "Move", "MoveBatch", "Offers", "Params", "StrategyChart", "Survey", "Tiers", "Value", "param", "player_name", "register",
           "subset_rank", "subset_unrank", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'explorer.plugin' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
