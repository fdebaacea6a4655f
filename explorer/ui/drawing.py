"""Positions drawn as players see them (each game's drawing is in explorer/ui/boards/),
and the value badge.

Each drawing is an SVG string built from the game's own position object, so
a game without a drawing still shows its notation (never an error).
"""

from __future__ import annotations

from html import escape
from typing import Any

from explorer.games import Game
from explorer.render import palette


def position_svg(game: Game, position: Any, links: dict[str, str] | None = None) -> str | None:
    """The SVG of `position` (moves as links where the drawing offers them), or None when the
    game has no drawing (explorer/ui/boards finds it)."""
    from explorer.ui.boards import board_svg as find_drawing

    return find_drawing(game, position, links)


def value_badge(value: str, remoteness: int | None = None) -> str:
    """HTML chip for a value: its palette fill, its strong colour as the border."""
    text = value if remoteness is None else f"{value} in {remoteness}"
    return (f'<span style="background:{palette.FILLS.get(value, "#eee")};border:1px solid {palette.COLOURS.get(value, "#999")};'
            f'border-radius:0.5rem;padding:0.1rem 0.5rem;font-weight:600">{escape(text)}</span>')
