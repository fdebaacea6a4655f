"""Dodgem: the board with row 1 at the bottom; Blue's cars leave on the right, Red's at the top. The cells are
named outside the board (files below, ranks on the left: explorer/ui/boards/grid.py), as the moves name them.

A car can have up to three moves, so each legal move is its own arrow, drawn
from the car towards its target (or over the edge it leaves by); the arrow is
the link that plays the move.
"""

from __future__ import annotations

from explorer.games.square_board import FILES, row_col
from explorer.render.palette import CELL_LINE, FIRST, NEUTRAL_MARK, SECOND, WHITE
from explorer.ui.boards.caption import turn_caption
from explorer.ui.boards.grid import CAPTION_LINE, Grid, arrow_points, caption, move_link, open_svg, wrap

CELL, PAD = 62, 34
# Blue and Red keep their names, drawn in the players' dark and purple (explorer/render/palette.py,
# FIRST and SECOND): the arrows take the value colours, and red (later wine) cars carried red loss
# arrows, blue (later navy) ones sat by the draw blue.
COLOURS = {"b": FIRST, "r": SECOND}
# A car shows the way it leaves the board, not a letter: "B" on a Blue car read as the notation's side
# letter B, which means Red to move (A|, B| name the mover; b and r the cars).
GLYPHS = {"b": "▶", "r": "▲"}
ARROW = NEUTRAL_MARK


def svg(game, position, links):
    n = game.n
    mover = position.to_move
    width = height = n * CELL + 2 * PAD
    grid = Grid(n, n, CELL, PAD, PAD)
    said = turn_caption(game, position)  # "Blue to move", or why the game is over
    lines = wrap(f"{said}{' — click an arrow' if links else ''}", width - PAD, 13)
    extra = 26 + (len(lines) - 1) * CAPTION_LINE  # the caption's band below the board
    out = [*open_svg(width, height + extra, said),
           # The exits: Blue's off the right-hand side, Red's off the top (solid: a see-through navy
           # over the board's cream came out as the draw blue).
           f'<rect x="{PAD + n * CELL}" y="{PAD}" width="8" height="{n * CELL}" fill="{COLOURS["b"].fill}"/>',
           f'<rect x="{PAD}" y="{PAD - 8}" width="{n * CELL}" height="8" fill="{COLOURS["r"].fill}"/>']
    for row in range(n):
        for col in range(n):
            x, y = grid.corner(row, col)
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{WHITE}" stroke="{CELL_LINE}">'
                       f'<title>{FILES[col]}{row + 1}</title></rect>')
    out.extend(grid.names())  # files below, ranks on the left, as on Teeko's and tic-tac-toe's boards
    for colour, cx, cy in grid.pieces({"b": position.blue, "r": position.red}):
        fill, rim, text, _ = COLOURS[colour]
        out.append(f'<rect x="{cx - 19}" y="{cy - 19}" width="38" height="38" rx="9" fill="{fill}" '
                   f'stroke="{rim}" stroke-width="1.5"/>'
                   f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="15" font-weight="bold" '
                   f'fill="{text}" font-family="sans-serif">{GLYPHS[colour]}</text>')
    for label, href in links.items():
        source, _, target = label.partition("-")
        x0, y0 = grid.centre(*row_col(source))
        if target == "off":
            dx, dy = (1, 0) if mover == 0 else (0, -1)
        else:
            x1, y1 = grid.centre(*row_col(target))
            dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL
        points = arrow_points(x0, y0, dx, dy, CELL, 0.36, 0.62, 9)
        out.append(move_link(href, label, f"play {label}",
                             f'<polygon class="gg-mark-strong" points="{points}" fill="{ARROW}" opacity="0.8"/>'))
    out.append(caption(lines, PAD, height + 16, COLOURS["br"[mover]].fill))
    out.append("</svg>")
    return "\n".join(out)
