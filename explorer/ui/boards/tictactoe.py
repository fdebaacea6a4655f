"""Tic-tac-toe: the 3x3 board; an empty cell is a link that plays there."""

from html import escape

from explorer.render.palette import FIRST, INK_FAINT, SECOND, TTT_GROUND, TTT_LINE, WHITE
from explorer.ui.boards.caption import turn_caption

# X dark and O purple (explorer/render/palette.py, FIRST and SECOND): the empty cells take the value
# colours, and O was drawn in the loss red itself (later wine), X in a blue beside the draw blue.
X_COLOUR, O_COLOUR = FIRST.fill, SECOND.fill


def svg(game, position, links):
    return board_svg(position, links, turn_caption(game, position))  # "X to move", or why the game is over


def board_svg(board: tuple[str, ...], links: dict[str, str] | None = None, said: str | None = None) -> str:
    """A 3x3 board with X in navy and O in wine, its cells named as on a chess board: files a-c along
    the bottom, ranks 3-1 up the left side, outside the grid, so no mark ever covers a name (they
    used to sit in the cells' corners, under the marks). An empty cell whose move is in `links`
    (label ``X a3``) is a link that plays it. `said`, the board's caption (explorer.ui.boards.caption:
    whose move it is, or why the game ended), stands below the grid and is the drawing's accessible name."""
    from explorer.ui.boards.grid import CAPTION_LINE, caption, open_svg, wrap

    cell, pad, rim = 64, 10, 20          # rim: the band for the file and rank names
    left, top = rim + pad, pad
    width, height = left + 3 * cell + pad, top + 3 * cell + rim + pad
    lines = wrap(said, width - 2 * pad, 13) if said else []
    board_height, height = height, height + (6 + len(lines) * CAPTION_LINE if lines else 0)
    out = open_svg(width, height, said or "tic-tac-toe board", TTT_GROUND)
    for i in (1, 2):
        out.append(f'<line x1="{left + i * cell}" y1="{top}" x2="{left + i * cell}" y2="{top + 3 * cell}" stroke="{TTT_LINE}" stroke-width="3"/>')
        out.append(f'<line x1="{left}" y1="{top + i * cell}" x2="{left + 3 * cell}" y2="{top + i * cell}" stroke="{TTT_LINE}" stroke-width="3"/>')
    for i in range(3):
        out.append(f'<text class="gg-cell-name" x="{left + i * cell + cell / 2}" y="{top + 3 * cell + rim - 4}" '
                   f'text-anchor="middle" font-size="13" fill="{INK_FAINT}" font-family="sans-serif">{"abc"[i]}</text>')
        out.append(f'<text class="gg-cell-name" x="{left - rim / 2 - 2}" y="{top + i * cell + cell / 2 + 5}" '
                   f'text-anchor="middle" font-size="13" fill="{INK_FAINT}" font-family="sans-serif">{3 - i}</text>')
    mover = "XO"[board.count("X") != board.count("O")]
    for i, mark in enumerate(board):
        cx, cy = left + (i % 3) * cell + cell / 2, top + (i // 3) * cell + cell / 2
        name = f"{'abc'[i % 3]}{3 - i // 3}"
        r = cell * 0.3
        href = (links or {}).get(f"{mover} {name}")
        if mark == "." and href:
            out.append(f'<a href="{escape(href)}" data-move="{escape(mover + " " + name)}"><title>play {mover} {name}</title>'
                       f'<rect class="gg-mark" x="{cx - cell / 2 + 3}" y="{cy - cell / 2 + 3}" width="{cell - 6}" height="{cell - 6}" '
                       f'fill="{WHITE}" fill-opacity="0.01" stroke="none"/></a>')
        if mark == "X":
            out.append(f'<path d="M{cx - r},{cy - r} L{cx + r},{cy + r} M{cx + r},{cy - r} L{cx - r},{cy + r}" '
                       f'stroke="{X_COLOUR}" stroke-width="7" stroke-linecap="round"/>')
        elif mark == "O":
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="{O_COLOUR}" stroke-width="7"/>')
    if lines:
        out.append(caption(lines, pad, board_height + 8, TTT_LINE))
    out.append("</svg>")
    return "\n".join(out)
