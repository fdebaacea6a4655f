"""Domineering: the grid, covered cells dark; the mover's possible dominoes are links.

A domino's top (Vertical) or left (Horizontal) cell is a link that places it there;
a faint outline shows where. Its name (``V a1-a2``) counts ranks from the bottom, as
the game's notation does (explorer/games/domineering.py); the files stand below the grid
and the ranks left of it, a1 bottom-left, as on every other game's board (grid.Grid.names).
"""

from __future__ import annotations

from html import escape

from explorer.render.palette import DOMINEERING_COVERED, DOMINEERING_GROUND, INK_FAINT, NEUTRAL_MARK, RULE, WHITE
from explorer.ui.boards.caption import turn_caption
from explorer.ui.boards.grid import CAPTION_LINE, Grid, caption, wrap

CELL, PAD = 46, 30
NAMES = 12  # px more below the grid: its file letters, above the "click a dot" line
MOVABLE = NEUTRAL_MARK  # the page colours each move by its value: uncoloured, a move looks like none


def svg(game, position, links):
    rows, cols = game.params.rows, game.params.cols
    mover = position.to_move
    said = turn_caption(game, position)  # "Vertical to move", or why the game is over
    width = max(cols * CELL + 2 * PAD, 220)
    lines = wrap(said, width - PAD - 8, 14)
    below = (len(lines) - 1) * CAPTION_LINE  # a wrapped caption pushes the grid down
    height = rows * CELL + 2 * PAD + 14 + below + NAMES
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{escape(said)}">',
           f'<rect x="0" y="0" width="{width}" height="{height}" rx="10" fill="{DOMINEERING_GROUND}"/>',
           caption(lines, PAD, 20, MOVABLE, size=14)]
    if links:
        out.append(f'<text x="{PAD}" y="{height - 12}" font-size="11" fill="{INK_FAINT}" font-family="sans-serif">'
                   f'click a dot to place a {"vertical" if mover == 0 else "horizontal"} domino</text>')
    out.append(f'<g transform="translate(0 {below})">')
    out.extend(Grid(rows, cols, CELL, PAD, PAD).names())  # files below, ranks on the left: a1 bottom-left
    for r in range(rows):
        for c in range(cols):
            covered = position.filled >> (r * cols + c) & 1
            x, y = PAD + c * CELL, PAD + r * CELL
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                       f'fill="{DOMINEERING_COVERED if covered else WHITE}" stroke="{RULE}"/>')
    for label, href in links.items():
        cells = label.split(" ")[1].split("-")             # "V a1-a2": a1 the bottom-left cell (rank 1 at the bottom)
        c = min("abcdefgh".index(cell[0]) for cell in cells)  # the domino's left column
        r = rows - max(int(cell[1:]) for cell in cells)      # and its top row, counted from the top
        x, y = PAD + c * CELL, PAD + r * CELL
        w, h = (CELL, 2 * CELL) if mover == 0 else (2 * CELL, CELL)
        out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>place {escape(label)}</title>'
                   f'<rect class="gg-mark-line" x="{x + 6}" y="{y + 6}" width="{w - 12}" height="{h - 12}" rx="6" fill="{MOVABLE}" '
                   f'fill-opacity="0.08" stroke="{MOVABLE}" stroke-dasharray="4 3"/>'
                   f'<circle class="gg-mark-strong" cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="6" fill="{MOVABLE}"/></a>')
    out.append("</g></svg>")
    return "\n".join(out)
