"""Toads and Frogs: the strip, toads (T) facing right and frogs (F) facing left.

Each creature has at most one move (a slide or a jump, never both), so a creature
that can move is ringed and is itself the link that plays its move.
"""

from __future__ import annotations

from html import escape

from explorer.render.palette import CELL_LINE_GREEN, FIRST, INK_FAINT, NEUTRAL_MARK, PAPER_CELL, PAPER_GREEN, SECOND
from explorer.ui.boards.caption import turn_caption
from explorer.ui.boards.grid import CAPTION_LINE, caption, wrap

CELL, GAP, TOP = 56, 6, 34
# Dark toads and purple frogs (explorer/render/palette.py, FIRST and SECOND): the rings take the value
# colours, and the frogs' green (sea, later dark) was the win's hue, the toads' brown the tie's.
COLOURS = {"T": FIRST, "F": SECOND}
MOVABLE = NEUTRAL_MARK


def svg(game, position, links):
    cells, mover = position.cells, position.to_move
    by_source = {}
    for label, href in links.items():
        origin = int(label.split(" ")[1].split("→")[0]) - 1  # labels read "T 2→3"
        by_source[origin] = (label, href)
    width = len(cells) * (CELL + GAP) + GAP
    said = turn_caption(game, position)  # "Toads to move", or why the game is over
    lines = wrap(said, width - 2 * GAP, 14)
    below = (len(lines) - 1) * CAPTION_LINE  # a wrapped caption pushes the strip down
    height = TOP + CELL + 34 + below
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{escape(said)} ({escape(cells)})">',
           f'<rect x="0" y="0" width="{width}" height="{height}" rx="10" fill="{PAPER_GREEN}"/>',
           caption(lines, GAP, 22, COLOURS["TF"[mover]].fill, size=14),
           f'<g transform="translate(0 {below})">']
    for i, cell in enumerate(cells):
        x = GAP + i * (CELL + GAP)
        out.append(f'<rect x="{x}" y="{TOP}" width="{CELL}" height="{CELL}" rx="6" fill="{PAPER_CELL}" stroke="{CELL_LINE_GREEN}"/>')
        out.append(f'<text x="{x + CELL / 2}" y="{TOP + CELL + 16}" text-anchor="middle" font-size="10" '
                   f'fill="{INK_FAINT}" font-family="sans-serif">{i + 1}</text>')
        if cell == ".":
            continue
        fill, rim, text, _ = COLOURS[cell]
        cx, cy = x + CELL / 2, TOP + CELL / 2
        arrow = "▶" if cell == "T" else "◀"
        piece = (f'<circle cx="{cx}" cy="{cy}" r="{CELL / 2 - 6}" fill="{fill}" stroke="{rim}" stroke-width="1.5"/>'
                 f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="15" font-weight="bold" fill="{text}" '
                 f'font-family="sans-serif">{cell}{arrow}</text>')
        if i in by_source:
            label, href = by_source[i]
            ring = (f'<circle class="gg-mark-line" cx="{cx}" cy="{cy}" r="{CELL / 2 - 2}" fill="none" stroke="{MOVABLE}" stroke-width="3" '
                    'stroke-dasharray="5 3"/>')
            out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>play {escape(label)}</title>'
                       f'{ring}{piece}</a>')
        else:
            out.append(piece)
    out.append("</g></svg>")
    return "\n".join(out)
