"""Teeko: the board's points with row 1 at the bottom, black and red pieces on them.

In the drop phase each empty point where the mover may drop is a link (a faint
ring); in the movement phase each legal king step is its own arrow, drawn from
the piece towards the empty point it moves to, and the arrow is the link that
plays the move.
"""

from __future__ import annotations

from html import escape

CELL, PAD = 62, 34
COLOURS = {"b": ("#222222", "#ffffff"), "r": ("#c8322b", "#ffffff")}
LINE, ARROW = "#b9b1a0", "#2b6cb0"


def _point(name: str) -> tuple[int, int]:
    """(row, column) of a point name such as 'b3'."""
    return int(name[1:]) - 1, "abcde".index(name[0])


def svg(game, position, links):
    n = game.n
    mover = position.to_move
    width = height = n * CELL + 2 * PAD

    def centre(row: int, col: int) -> tuple[float, float]:
        return PAD + col * CELL + CELL / 2, PAD + (n - 1 - row) * CELL + CELL / 2

    who = ("Black", "Red")[mover]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 26}" '
           f'viewBox="0 0 {width} {height + 26}" role="img" aria-label="{who} to move">',
           f'<rect x="0" y="0" width="{width}" height="{height + 26}" rx="10" fill="#f4f1ea"/>']
    # The lines along which pieces step: rows, columns and both diagonals between neighbours.
    for row in range(n):
        for col in range(n):
            x0, y0 = centre(row, col)
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r, c = row + dr, col + dc
                if 0 <= r < n and 0 <= c < n:
                    x1, y1 = centre(r, c)
                    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{LINE}" stroke-width="1.5"/>')
    for row in range(n):
        for col in range(n):
            x, y = centre(row, col)
            name = f"{'abcde'[col]}{row + 1}"
            out.append(f'<circle cx="{x}" cy="{y}" r="6" fill="{LINE}"/>'
                       f'<text x="{x + 9}" y="{y - 12}" font-size="9" fill="#a39a86" '
                       f'font-family="sans-serif">{name}</text>')
    for colour, pieces in (("b", position.black), ("r", position.red)):
        fill, text = COLOURS[colour]
        for cell in pieces:
            cx, cy = centre(*divmod(cell, n))
            out.append(f'<circle cx="{cx}" cy="{cy}" r="20" fill="{fill}" stroke="#333" stroke-width="1.5"/>'
                       f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="14" font-weight="bold" '
                       f'fill="{text}" font-family="sans-serif">{colour.upper()}</text>')
    for label, href in links.items():
        source, _, target = label.partition("-")
        x0, y0 = centre(*_point(source))
        if not target:  # a drop: the empty point itself
            out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>drop on {escape(label)}</title>'
                       f'<circle class="gg-mark" cx="{x0}" cy="{y0}" r="18" fill="{COLOURS["br"[mover]][0]}" '
                       f'fill-opacity="0.12" stroke="{COLOURS["br"[mover]][0]}" stroke-dasharray="4 3"/></a>')
            continue
        x1, y1 = centre(*_point(target))
        dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL
        tip_x, tip_y = x0 + dx * CELL * 0.72, y0 + dy * CELL * 0.72
        base_x, base_y = x0 + dx * CELL * 0.40, y0 + dy * CELL * 0.40
        side_x, side_y = -dy * 8, dx * 8
        points = f"{tip_x},{tip_y} {base_x + side_x},{base_y + side_y} {base_x - side_x},{base_y - side_y}"
        out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>play {escape(label)}</title>'
                   f'<polygon class="gg-mark-strong" points="{points}" fill="{ARROW}" opacity="0.85"/></a>')
    hint = (" — click a point" if "-" not in next(iter(links)) else " — click an arrow") if links else ""
    out.append(f'<text x="{PAD}" y="{height + 16}" font-size="13" font-weight="bold" '
               f'fill="{COLOURS["br"[mover]][0]}" font-family="sans-serif">{who} to move{hint}</text>')
    out.append("</svg>")
    return "\n".join(out)
