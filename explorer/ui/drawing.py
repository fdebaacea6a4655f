"""Positions drawn as players see them (each game's drawing is in explorer/ui/boards/),
and the value badge.

Each drawing is an SVG string built from the game's own position object, so
a game without a drawing still shows its notation (never an error).
"""

from __future__ import annotations

from html import escape
from typing import Any

from explorer.games import Game

VALUE_COLOURS = {"win": "#2ca02c", "loss": "#d62728", "tie": "#e6b800", "draw": "#f2d03b"}
VALUE_FILLS = {"win": "#b9e4b0", "loss": "#f4b4b4", "tie": "#fbe79b", "draw": "#fdf3c2"}


def position_svg(game: Game, position: Any, links: dict[str, str] | None = None) -> str | None:
    """The SVG of `position` (moves as links where the drawing offers them), or None when the
    game has no drawing (explorer/ui/boards finds it)."""
    from explorer.ui.boards import board_svg as find_drawing

    return find_drawing(game, position, links)


def value_badge(value: str, remoteness: int | None = None) -> str:
    """HTML chip for a value, coloured like the moves table."""
    text = value if remoteness is None else f"{value} in {remoteness}"
    return (f'<span style="background:{VALUE_FILLS.get(value, "#eee")};border:1px solid {VALUE_COLOURS.get(value, "#999")};'
            f'border-radius:0.5rem;padding:0.1rem 0.5rem;font-weight:600">{escape(text)}</span>')
