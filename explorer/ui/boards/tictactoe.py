"""Tic-tac-toe: the 3x3 board; an empty cell is a link that plays there."""

from html import escape


def svg(game, position, links):
    return board_svg(position, links)


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
                       f'<rect class="gg-mark" x="{cx - cell / 2 + 3}" y="{cy - cell / 2 + 3}" width="{cell - 6}" height="{cell - 6}" '
                       'fill="#eef4fb" fill-opacity="0.01" stroke="none"/></a>')
        if mark == "X":
            out.append(f'<path d="M{cx - r},{cy - r} L{cx + r},{cy + r} M{cx + r},{cy - r} L{cx - r},{cy + r}" '
                       'stroke="#1f77b4" stroke-width="7" stroke-linecap="round"/>')
        elif mark == "O":
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="#d62728" stroke-width="7"/>')
    out.append("</svg>")
    return "\n".join(out)
