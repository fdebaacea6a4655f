"""Positions drawn as players see them: Chopsticks hands, a tic-tac-toe board, nim heaps.

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


def board_svg(board: tuple[str, ...], links: dict[str, str] | None = None) -> str:
    """A 3x3 board with X in blue and O in red; cell names (a3..c1) in the corners.
    An empty cell whose move is in `links` (label ``X a3``) is a link that plays it."""
    size, cell, pad = 3, 64, 12
    width = size * cell + 2 * pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" viewBox="0 0 {width} {width}">',
           f'<rect x="0" y="0" width="{width}" height="{width}" rx="10" fill="#fafafa"/>']
    for i in (1, 2):
        out.append(f'<line x1="{pad + i * cell}" y1="{pad}" x2="{pad + i * cell}" y2="{pad + 3 * cell}" stroke="#333" stroke-width="3"/>')
        out.append(f'<line x1="{pad}" y1="{pad + i * cell}" x2="{pad + 3 * cell}" y2="{pad + i * cell}" stroke="#333" stroke-width="3"/>')
    for i, mark in enumerate(board):
        cx, cy = pad + (i % 3) * cell + cell / 2, pad + (i // 3) * cell + cell / 2
        name = f"{'abc'[i % 3]}{3 - i // 3}"
        out.append(f'<text x="{cx - cell / 2 + 4}" y="{cy - cell / 2 + 12}" font-size="9" fill="#aaa" font-family="sans-serif">{name}</text>')
        r = cell * 0.3
        mover = "XO"[board.count("X") != board.count("O")]
        href = (links or {}).get(f"{mover} {name}")
        if mark == "." and href:
            out.append(f'<a href="{escape(href)}" data-move="{escape(mover + " " + name)}"><title>play {mover} {name}</title>'
                       f'<rect x="{cx - cell / 2 + 3}" y="{cy - cell / 2 + 3}" width="{cell - 6}" height="{cell - 6}" '
                       'fill="#eef4fb" fill-opacity="0.01" stroke="none"/></a>')
        if mark == "X":
            out.append(f'<path d="M{cx - r},{cy - r} L{cx + r},{cy + r} M{cx + r},{cy - r} L{cx - r},{cy + r}" '
                       'stroke="#1f77b4" stroke-width="7" stroke-linecap="round"/>')
        elif mark == "O":
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="#d62728" stroke-width="7"/>')
    out.append("</svg>")
    return "\n".join(out)


def heaps_svg(heaps: tuple[int, ...], to_move: int, largest: int, links: dict[str, str] | None = None) -> str:
    """Each heap a column of tokens with its size under it; large heaps are drawn as bars.
    A token whose move is in `links` (``take k from heap h``) is a link: clicking the j-th token
    from the bottom takes it and every token above it."""
    token, pad, col = 14, 16, 44
    tall = min(largest, 16)
    width = max(len(heaps) * col + 2 * pad, 180)
    height = tall * token + 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
           f'<text x="{pad}" y="18" font-size="14" font-family="sans-serif" fill="#1f77b4" font-weight="bold">'
           f'{"AB"[to_move]} to move</text>']
    base = height - 28
    for i, size in enumerate(heaps):
        cx = pad + i * col + col / 2
        if largest <= 16:
            for j in range(size):
                circle = (f'<circle cx="{cx}" cy="{base - j * token - token / 2}" r="{token / 2 - 1.5}" '
                          'fill="#8c564b" stroke="#5a3327"/>')
                label = f"take {size - j} from heap {i + 1}"
                href = (links or {}).get(label)
                out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>{label}</title>{circle}</a>'
                           if href else circle)
        else:
            bar = (tall * token) * size / largest
            out.append(f'<rect x="{cx - 8}" y="{base - bar}" width="16" height="{bar}" rx="4" fill="#8c564b"/>')
        out.append(f'<line x1="{cx - 16}" y1="{base + 2}" x2="{cx + 16}" y2="{base + 2}" stroke="#999"/>')
        out.append(f'<text x="{cx}" y="{base + 18}" text-anchor="middle" font-size="13" font-family="sans-serif">{size}</text>')
    out.append("</svg>")
    return "\n".join(out)


def value_badge(value: str, remoteness: int | None = None) -> str:
    """HTML chip for a value, coloured like the moves table."""
    text = value if remoteness is None else f"{value} in {remoteness}"
    return (f'<span style="background:{VALUE_FILLS.get(value, "#eee")};border:1px solid {VALUE_COLOURS.get(value, "#999")};'
            f'border-radius:0.5rem;padding:0.1rem 0.5rem;font-weight:600">{escape(text)}</span>')
