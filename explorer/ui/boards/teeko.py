"""Teeko: the board's points with row 1 at the bottom, black and red (wine) pieces on them.

In the drop phase each empty point where the mover may drop is a link (a faint
ring); in the movement phase each legal king step is its own arrow, drawn from
the piece towards the empty point it moves to, and the arrow is the link that
plays the move. The points are named outside the board (files below, ranks on
the left: explorer/ui/boards/grid.py), where no piece covers a name.
"""

from __future__ import annotations

from explorer.games.square_board import FILES, row_col
from explorer.render.palette import CELL_LINE, NEUTRAL_MARK, PLAYERS, SECOND
from explorer.ui.boards.caption import turn_caption
from explorer.ui.boards.grid import CAPTION_LINE, Grid, arrow_points, caption, move_link, open_svg, wrap

CELL, PAD = 62, 34
# Black and Red keep their names; Red is drawn in the players' purple (explorer/render/palette.py),
# as the moves take the value colours and red (later wine) pieces stood beside red loss arrows.
COLOURS = {"b": PLAYERS["black"], "r": SECOND}
LINE, ARROW = CELL_LINE, NEUTRAL_MARK


def svg(game, position, links):
    n = game.n
    mover = position.to_move
    width = height = n * CELL + 2 * PAD
    grid = Grid(n, n, CELL, PAD, PAD)
    said = turn_caption(game, position)  # "Red to move", or why the game is over
    hint = (" — click a point" if "-" not in next(iter(links)) else " — click an arrow") if links else ""
    lines = wrap(f"{said}{hint}", width - PAD, 13)
    extra = 26 + (len(lines) - 1) * CAPTION_LINE  # the caption's band below the board
    out = open_svg(width, height + extra, said)
    # The lines along which pieces step: rows, columns and both diagonals between neighbours.
    for row in range(n):
        for col in range(n):
            x0, y0 = grid.centre(row, col)
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r, c = row + dr, col + dc
                if 0 <= r < n and 0 <= c < n:
                    x1, y1 = grid.centre(r, c)
                    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{LINE}" stroke-width="1.5"/>')
    for row in range(n):
        for col in range(n):
            x, y = grid.centre(row, col)
            out.append(f'<circle cx="{x}" cy="{y}" r="6" fill="{LINE}"><title>{FILES[col]}{row + 1}</title></circle>')
    out.extend(grid.names(gap=12))  # in the margin, clear of the outer pieces (11 px inside the edge)
    for colour, cx, cy in grid.pieces({"b": position.black, "r": position.red}):
        fill, rim, text, _ = COLOURS[colour]
        out.append(f'<circle cx="{cx}" cy="{cy}" r="20" fill="{fill}" stroke="{rim}" stroke-width="1.5"/>'
                   f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="14" font-weight="bold" '
                   f'fill="{text}" font-family="sans-serif">{colour.upper()}</text>')
    for label, href in links.items():
        source, _, target = label.partition("-")
        x0, y0 = grid.centre(*row_col(source))
        if not target:  # a drop: the empty point itself
            colour = COLOURS["br"[mover]].fill
            out.append(move_link(href, label, f"drop on {label}",
                                 f'<circle class="gg-mark" cx="{x0}" cy="{y0}" r="18" fill="{colour}" '
                                 f'fill-opacity="0.12" stroke="{colour}" stroke-dasharray="4 3"/>'))
            continue
        x1, y1 = grid.centre(*row_col(target))
        points = arrow_points(x0, y0, (x1 - x0) / CELL, (y1 - y0) / CELL, CELL, 0.40, 0.72, 8)
        out.append(move_link(href, label, f"play {label}",
                             f'<polygon class="gg-mark-strong" points="{points}" fill="{ARROW}" opacity="0.85"/>'))
    out.append(caption(lines, PAD, height + 16, COLOURS["br"[mover]].fill))
    out.append("</svg>")
    return "\n".join(out)
