"""Connect Four: the upright board, X black and O white; a whole column is the link that drops a piece.

A column's link covers the column and shows a ghost piece on the cell the
piece would fall to (marked ``gg-mark`` so the page colours it by the move's
value); the columns are lettered a, b, ... below the board, as the moves are named.

The pieces are black and white, not the usual red and yellow: the page colours values in red
(loss), green (win), amber (tie) and blue (draw) (explorer/render/palette.py), so a red disc would
read as a loss and a yellow one as a tie. Black and white carry no hue of the palette and differ in
lightness, which every reader sees, colour-blind or not; the empty holes are a mid grey between.
"""

from __future__ import annotations

from html import escape

from explorer.games.connect4.rules import COLUMN_NAMES
from explorer.render.palette import CONNECT4_FRAME, CONNECT4_HOLE, CONNECT4_NAME, PAPER, PLAYERS, WHITE
from explorer.ui.boards.caption import turn_caption
from explorer.ui.boards.grid import CAPTION_LINE, caption, wrap

CELL, PAD = 48, 14
COLOURS = {"X": PLAYERS["black"], "O": PLAYERS["white"]}  # fill, rim, ...
FRAME, HOLE = CONNECT4_FRAME, CONNECT4_HOLE  # a blue frame was the draw blue


def svg(game, position, links):
    w, h = game.width, game.height
    width, height = w * CELL + 2 * PAD, h * CELL + 2 * PAD
    mover = "XO"[position.to_move]
    radius = CELL * 0.38
    said = turn_caption(game, position)  # "X to move", or why the game is over
    lines = wrap(f"{said}{' — click a column' if links else ''}", width - PAD, 13)
    band = 40 + (len(lines) - 1) * CAPTION_LINE  # the column letters and the caption below the board

    def centre(col: int, row: int) -> tuple[float, float]:  # row 0 at the bottom
        return PAD + col * CELL + CELL / 2, PAD + (h - 1 - row) * CELL + CELL / 2

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + band}" '
           f'viewBox="0 0 {width} {height + band}" role="img" aria-label="Connect Four, {escape(said)}">',
           f'<rect x="0" y="0" width="{width}" height="{height + band}" rx="10" fill="{PAPER}"/>',
           f'<rect x="{PAD - 6}" y="{PAD - 6}" width="{w * CELL + 12}" height="{h * CELL + 12}" rx="8" '
           f'fill="{FRAME}"/>']
    for col in range(w):
        column = position.columns[col]
        for row in range(h):
            cx, cy = centre(col, row)
            if row < len(column):
                fill, rim, _, _ = COLOURS[column[row]]
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}" stroke="{rim}" stroke-width="2"/>')
            else:
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{HOLE}"/>')
        label = COLUMN_NAMES[col]
        out.append(f'<text x="{PAD + col * CELL + CELL / 2}" y="{height + 8}" text-anchor="middle" font-size="12" '
                   f'fill="{CONNECT4_NAME}" font-family="sans-serif">{label}</text>')
        href = links.get(label)
        if href is not None:
            cx, cy = centre(col, len(column))
            out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>drop {mover} in column {label}'
                       f'</title><rect x="{PAD + col * CELL}" y="{PAD}" width="{CELL}" height="{h * CELL}" '
                       f'fill="{WHITE}" fill-opacity="0.01"/>'
                       f'<circle class="gg-mark" cx="{cx}" cy="{cy}" r="{radius * 0.8}" fill="{COLOURS[mover][0]}" '
                       f'fill-opacity="0.35" stroke="{COLOURS[mover][1]}" stroke-dasharray="4 3"/></a>')
    out.append(caption(lines, PAD, height + 30, COLOURS[mover][1]))
    out.append("</svg>")
    return "\n".join(out)
