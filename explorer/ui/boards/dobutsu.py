"""Dōbutsu shōgi: the 3x4 board with rank 1 (A's home) at the bottom, B's pieces turned upside
down, and each player's hand beside the board (B's above, A's below).

Each piece move is an arrow from the piece towards its target, and each drop a small lettered
button on the empty square it fills (giraffe top left, elephant top right, chick bottom right);
both are the links that play the move.
"""

from __future__ import annotations

from html import escape

CELL, PAD, HAND = 66, 30, 34
COLOURS = ("#1f5fbf", "#c8322b")  # A, B
ARROW = "#2b2b2b"
NAMES = {"L": "lion", "G": "giraffe", "E": "elephant", "C": "chick", "H": "hen"}
DROP_CORNER = {"G": (-1, -1), "E": (1, -1), "C": (1, 1)}


def _square(name: str) -> tuple[int, int]:
    """(row, column) of a square name such as 'b3'."""
    return int(name[1:]) - 1, "abc".index(name[0])


def _tile(x: float, y: float, letter: str, owner: int, size: int = 44) -> str:
    """A piece: a rounded tile in its owner's colour, its letter upright for A and upside down for B."""
    half = size / 2
    turn = f' transform="rotate(180 {x} {y})"' if owner == 1 else ""
    return (f'<g{turn}><rect x="{x - half}" y="{y - half}" width="{size}" height="{size}" rx="8" fill="#fffaf0" '
            f'stroke="{COLOURS[owner]}" stroke-width="2.5"/>'
            f'<text x="{x}" y="{y + size * 0.16}" text-anchor="middle" font-size="{int(size * 0.45)}" font-weight="bold" '
            f'fill="{COLOURS[owner]}" font-family="sans-serif">{letter}</text>'
            f'<title>{"AB"[owner]} {NAMES[letter]}</title></g>')


def svg(game, position, links):
    from explorer.games.dobutsu.pieces import COLUMNS, LETTERS, ROWS, kind_of, owner_of

    mover = position.to_move
    width = COLUMNS * CELL + 2 * PAD
    top = PAD + HAND  # B's hand row above the board
    height = top + ROWS * CELL + HAND + PAD

    def centre(row: int, col: int) -> tuple[float, float]:
        return PAD + col * CELL + CELL / 2, top + (ROWS - 1 - row) * CELL + CELL / 2

    names = game.offers.player_names or ("A", "B")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 22}" '
           f'viewBox="0 0 {width} {height + 22}" role="img" aria-label="{escape(names[mover])} to move">',
           f'<rect x="0" y="0" width="{width}" height="{height + 22}" rx="10" fill="#f4f1ea"/>']
    for row in range(ROWS):
        for col in range(COLUMNS):
            x, y = PAD + col * CELL, top + (ROWS - 1 - row) * CELL
            home = "#e3ecf8" if row == 0 else ("#f8e3e1" if row == ROWS - 1 else "#ffffff")
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{home}" stroke="#b9b1a0"/>')
            out.append(f'<text x="{x + 4}" y="{y + 12}" font-size="9" fill="#a39a86" '
                       f'font-family="sans-serif">{"abc"[col]}{row + 1}</text>')
    for square, value in enumerate(position.board):
        if value:
            cx, cy = centre(*divmod(square, COLUMNS))
            out.append(_tile(cx, cy, LETTERS[kind_of(value)], owner_of(value)))
    for owner, y in ((1, PAD + HAND / 2), (0, top + ROWS * CELL + HAND / 2)):
        pieces = "".join(LETTERS[k] * position.hands[3 * owner + k - 1] for k in (1, 2, 3))
        out.append(f'<text x="{PAD - 4}" y="{y + 4}" text-anchor="end" font-size="11" fill="{COLOURS[owner]}" '
                   f'font-family="sans-serif">{"AB"[owner]}</text>')
        for i, letter in enumerate(pieces):
            out.append(_tile(PAD + 16 + i * 32, y, letter, owner, size=28))
        if not pieces:
            out.append(f'<text x="{PAD + 4}" y="{y + 4}" font-size="11" fill="#a39a86" '
                       f'font-family="sans-serif">no pieces in hand</text>')
    for label, href in links.items():
        link = f'<a href="{escape(href)}" data-move="{escape(label)}"><title>play {escape(label)}</title>'
        if "*" in label:  # a drop: a lettered button in a corner of the square
            letter, target = label.split("*")
            cx, cy = centre(*_square(target))
            dx, dy = DROP_CORNER.get(letter, (0, 0))
            x, y = cx + dx * CELL * 0.3, cy + dy * CELL * 0.3
            out.append(f'{link}<circle class="gg-mark-strong" cx="{x}" cy="{y}" r="9" fill="{COLOURS[mover]}" '
                       f'opacity="0.85"/><text x="{x}" y="{y + 4}" text-anchor="middle" font-size="11" '
                       f'fill="#ffffff" font-family="sans-serif">{escape(letter)}</text></a>')
            continue
        squares = label.split(" ", 1)[1].rstrip("+").replace("x", "-")
        source, _, target = squares.partition("-")
        x0, y0 = centre(*_square(source))
        x1, y1 = centre(*_square(target))
        dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL
        tip_x, tip_y = x0 + dx * CELL * 0.62, y0 + dy * CELL * 0.62
        base_x, base_y = x0 + dx * CELL * 0.38, y0 + dy * CELL * 0.38
        side_x, side_y = -dy * 8, dx * 8
        points = f"{tip_x},{tip_y} {base_x + side_x},{base_y + side_y} {base_x - side_x},{base_y - side_y}"
        out.append(f'{link}<polygon class="gg-mark-strong" points="{points}" fill="{ARROW}" opacity="0.8"/></a>')
    out.append(f'<text x="{PAD}" y="{height + 12}" font-size="13" font-weight="bold" fill="{COLOURS[mover]}" '
               f'font-family="sans-serif">{escape(names[mover])} to move{" — click an arrow or a drop" if links else ""}'
               f'</text>')
    out.append("</svg>")
    return "\n".join(out)
