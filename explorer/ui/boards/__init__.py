"""Board drawings: how the UI draws a game's positions, one module per game.

A game declares its drawing (``offers.board``, explorer/games/base.py):
1. ``"board_svg"`` (OWN_DRAWING): its own method ``board_svg(position, links)``
   (plugin games draw themselves);
2. the name of a module here (``"mutorere"`` -> ``boards/mutorere.py``) with a
   function ``svg(game, position, links)``;
3. None: the page shows the position's notation (the generic view).

``links`` maps each legal move's label to the URL that plays it
(``?game=...&pos=...``); a drawing wraps the thing to click (a piece, a cell)
in ``<a href="...">`` so that the move is played on the board. Drawings are
plain SVG text (no images, no scripts), the same in the page and in tests.
"""

from __future__ import annotations

import importlib
from typing import Any

from explorer.games import Game
from explorer.games.base import OWN_DRAWING
from explorer.ui.boards.caption import turn_caption  # noqa: F401  (its old public path)


def board_svg(game: Game, position: Any, links: dict[str, str] | None = None) -> str | None:
    """The SVG of `position` with its moves as links, or None when the game has no drawing."""
    links = links or {}
    drawing = game.offers.board
    if drawing is None:
        return None
    if drawing == OWN_DRAWING:
        return game.board_svg(position, links)
    return importlib.import_module(f"{__name__}.{drawing}").svg(game, position, links)
