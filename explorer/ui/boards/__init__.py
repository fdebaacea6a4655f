"""Board drawings: how the UI draws a game's positions, one module per game, found by name.

A game gets a drawing from, in order:
1. its own method ``board_svg(position, links)`` (plugin games draw themselves);
2. a module here named after the game (``mutorere`` -> ``boards/mutorere.py``,
   ``my-game`` -> ``boards/my_game.py``) with a function ``svg(game, position, links)``.
Without either, the page shows the position's notation (the generic view).

``links`` maps each legal move's label to the URL that plays it
(``?game=...&pos=...``); a drawing wraps the thing to click (a piece, a cell)
in ``<a href="...">`` so that the move is played on the board. Drawings are
plain SVG text (no images, no scripts), the same in the page and in tests.
"""

from __future__ import annotations

import importlib
from typing import Any

from explorer.games import Game


def board_svg(game: Game, position: Any, links: dict[str, str] | None = None) -> str | None:
    """The SVG of `position` with its moves as links, or None when the game has no drawing."""
    links = links or {}
    own = getattr(game, "board_svg", None)
    if callable(own):
        return own(position, links)
    try:
        module = importlib.import_module(f"{__name__}.{game.name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(__name__):
            return None
        raise
    return module.svg(game, position, links)
