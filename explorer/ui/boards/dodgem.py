"""Dodgem: the board with row 1 at the bottom; Blue's cars leave on the right, Red's at the top.

A car can have up to three moves, so each legal move is its own arrow, drawn
from the car towards its target (or over the edge it leaves by); the arrow is
the link that plays the move.
"""

from __future__ import annotations

from html import escape

CELL, PAD = 62, 34
COLOURS = {"b": ("#1f5fbf", "#ffffff"), "r": ("#c8322b", "#ffffff")}
ARROW = "#2b2b2b"


def _square(game, name: str) -> tuple[int, int]:
    """(row, column) of a square name such as 'b3'."""
    return int(name[1:]) - 1, "abcdefgh".index(name[0])


def svg(game, position, links):
    n = game.n
    mover = position.to_move
    width = height = n * CELL + 2 * PAD

    def centre(row: int, col: int) -> tuple[float, float]:
        return PAD + col * CELL + CELL / 2, PAD + (n - 1 - row) * CELL + CELL / 2

    names = game.offers.player_names or ("Blue", "Red")
    who = names[mover] if len(names) == 2 else ("Blue", "Red")[mover]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 26}" '
           f'viewBox="0 0 {width} {height + 26}" role="img" aria-label="{escape(str(who))} to move">',
           f'<rect x="0" y="0" width="{width}" height="{height + 26}" rx="10" fill="#f4f1ea"/>',
           # The exits: Blue's off the right-hand side, Red's off the top.
           f'<rect x="{PAD + n * CELL}" y="{PAD}" width="8" height="{n * CELL}" fill="{COLOURS["b"][0]}" opacity="0.35"/>',
           f'<rect x="{PAD}" y="{PAD - 8}" width="{n * CELL}" height="8" fill="{COLOURS["r"][0]}" opacity="0.35"/>']
    for row in range(n):
        for col in range(n):
            x, y = PAD + col * CELL, PAD + (n - 1 - row) * CELL
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#ffffff" stroke="#b9b1a0"/>')
            out.append(f'<text x="{x + 4}" y="{y + 12}" font-size="9" fill="#a39a86" '
                       f'font-family="sans-serif">{"abcdefgh"[col]}{row + 1}</text>')
    for colour, cars in (("b", position.blue), ("r", position.red)):
        fill, text = COLOURS[colour]
        for square in cars:
            cx, cy = centre(*divmod(square, n))
            out.append(f'<rect x="{cx - 19}" y="{cy - 19}" width="38" height="38" rx="9" fill="{fill}" '
                       f'stroke="#333" stroke-width="1.5"/>'
                       f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="15" font-weight="bold" '
                       f'fill="{text}" font-family="sans-serif">{colour.upper()}</text>')
    for label, href in links.items():
        source, _, target = label.partition("-")
        row, col = _square(game, source)
        x0, y0 = centre(row, col)
        if target == "off":
            dx, dy = (1, 0) if mover == 0 else (0, -1)
        else:
            row2, col2 = _square(game, target)
            x1, y1 = centre(row2, col2)
            dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL
        tip_x, tip_y = x0 + dx * CELL * 0.62, y0 + dy * CELL * 0.62
        base_x, base_y = x0 + dx * CELL * 0.36, y0 + dy * CELL * 0.36
        side_x, side_y = -dy * 9, dx * 9
        points = f"{tip_x},{tip_y} {base_x + side_x},{base_y + side_y} {base_x - side_x},{base_y - side_y}"
        out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>play {escape(label)}</title>'
                   f'<polygon class="gg-mark-strong" points="{points}" fill="{ARROW}" opacity="0.8"/></a>')
    out.append(f'<text x="{PAD}" y="{height + 16}" font-size="13" font-weight="bold" fill="{COLOURS["br"[mover]][0]}" '
               f'font-family="sans-serif">{escape(str(who))} to move{" — click an arrow" if links else ""}</text>')
    out.append("</svg>")
    return "\n".join(out)
