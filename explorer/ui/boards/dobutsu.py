"""Dōbutsu shōgi: the 3x4 board with rank 1 (A's home) at the bottom, B's pieces turned upside
down, and each player's hand beside the board (B's above, A's below).

Each piece move is an arrowhead inside the piece's own square, growing out of the piece's tile
(its base on the tile's rim) to the square's edge, pointing where it goes, its tooltip saying whose
piece moves where ("A's lion b1 → a2", what it takes, a promotion); each drop a small lettered button on the empty square it
fills (giraffe top left, elephant top right, chick bottom right); both are the links that play
the move. An arrow stays in its piece's square so that no two overlap: the moves into one square
come from different squares, and crossing diagonals (b2-c3 beside c2-b3) meet at the corner
between them, where arrows drawn across the border used to lie on top of each other and on the
drop buttons. The squares are named outside the board (files below, ranks on the left), and the
caption wraps to the drawing's width.
"""

from __future__ import annotations

from html import escape

from explorer.games.square_board import row_col
from explorer.render.palette import CELL_LINE, FIRST, NAME_SOFT, NEUTRAL_MARK, PAPER_TILE, SECOND, WHITE
from explorer.ui.boards.caption import turn_caption
from explorer.ui.boards.grid import CAPTION_LINE, Grid, arrow_points, caption, move_link, open_svg, wrap

CELL, PAD, HAND, NAMES_BAND, TILE = 78, 30, 34, 20, 42
# A in the players' dark, B in their purple, each home rank in its player's tint
# (explorer/render/palette.py, FIRST and SECOND): the moves take the value colours, and B's red
# (later wine) stood beside the loss red, A's light blue home rank was the draw fill.
PLAYER_COLOURS = (FIRST, SECOND)  # A, B
COLOURS = tuple(player.fill for player in PLAYER_COLOURS)
TILE_FILL = PAPER_TILE
ARROW = NEUTRAL_MARK
NAMES = {"L": "lion", "G": "giraffe", "E": "elephant", "C": "chick", "H": "hen"}
DROP_CORNER = {"G": (-1, -1), "E": (1, -1), "C": (1, 1)}
# An arrow grows out of its piece: its base on the tile's rim (2 px inside it, on the rim's stroke; on a
# diagonal the rounded corner's outermost point, 8 px corners), its tip just inside the square's edge (half
# of CELL), as fractions of the step to the next square's centre. Its base stood 1.5 px off the tile (and
# 5 px off a diagonal's corner), a head alone by the square's edge that read as anyone's.
ARROW_BASE = (TILE / 2 - 2) / CELL
DIAGONAL_BASE = ((TILE / 2 - 8) * 2 ** 0.5 + 8 - 2) / (CELL * 2 ** 0.5)
ARROW_TIP = (CELL / 2 - 2.5) / CELL


def _tile(x: float, y: float, letter: str, owner: int, size: int = TILE) -> str:
    """A piece: a rounded tile in its owner's colour, its letter upright for A and upside down for B."""
    half = size / 2
    turn = f' transform="rotate(180 {x} {y})"' if owner == 1 else ""
    return (f'<g{turn}><rect x="{x - half}" y="{y - half}" width="{size}" height="{size}" rx="8" fill="{TILE_FILL}" '
            f'stroke="{COLOURS[owner]}" stroke-width="2.5"/>'
            f'<text x="{x}" y="{y + size * 0.16}" text-anchor="middle" font-size="{int(size * 0.45)}" font-weight="bold" '
            f'fill="{COLOURS[owner]}" font-family="sans-serif">{letter}</text>'
            f'<title>{"AB"[owner]} {NAMES[letter]}</title></g>')


def _says(game, label: str, position, mover: int) -> str:
    """What a piece move's arrow says (its tooltip): whose piece moves where, what it takes and whether it
    promotes ("A's lion b1 → a2", "B's chick b3 → b2, takes A's chick"). O(1)."""
    from explorer.games.base import player_name
    from explorer.games.dobutsu.pieces import COLUMNS, LETTERS, kind_of

    me, other = player_name(game, mover), player_name(game, 1 - mover)
    letter, squares = label.split(" ", 1)
    move = squares.rstrip("+")
    source, target = move.replace("x", "-").split("-")
    said = f"{me}'s {NAMES.get(letter.upper(), letter)} {source} → {target}"
    if "x" in move:
        row, col = row_col(target)
        taken = position.board[row * COLUMNS + col]
        said += f", takes {other}'s {NAMES.get(LETTERS[kind_of(taken)], 'piece')}" if taken else ", takes"
    return said + (", promotes to a hen" if label.endswith("+") else "")


def svg(game, position, links):
    from explorer.games.dobutsu.pieces import COLUMNS, LETTERS, ROWS, kind_of, owner_of

    mover = position.to_move
    width = COLUMNS * CELL + 2 * PAD
    top = PAD + HAND  # B's hand row above the board
    bottom = top + ROWS * CELL + NAMES_BAND  # the file letters below the board, then A's hand
    height = bottom + HAND + PAD
    grid = Grid(ROWS, COLUMNS, CELL, PAD, top)

    said = turn_caption(game, position)  # "A to move", or why the game is over
    drops = any("*" in label for label in links)
    hint = (" — click an arrow or a drop" if drops else " — click an arrow") if links else ""
    lines = wrap(f"{said}{hint}", width - PAD - 8, 13)
    extra = 22 + (len(lines) - 1) * CAPTION_LINE  # the caption's band below the drawing
    out = open_svg(width, height + extra, said)
    for row in range(ROWS):
        for col in range(COLUMNS):
            x, y = grid.corner(row, col)
            home = PLAYER_COLOURS[0].tint if row == 0 else (PLAYER_COLOURS[1].tint if row == ROWS - 1 else WHITE)
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{home}" stroke="{CELL_LINE}"/>')
    out.extend(grid.names(gap=12))
    for square, value in enumerate(position.board):
        if value:
            cx, cy = grid.centre(*divmod(square, COLUMNS))
            out.append(_tile(cx, cy, LETTERS[kind_of(value)], owner_of(value)))
    for owner, y in ((1, PAD + HAND / 2), (0, bottom + HAND / 2)):
        pieces = "".join(LETTERS[k] * position.hands[3 * owner + k - 1] for k in (1, 2, 3))
        out.append(f'<text x="{PAD - 4}" y="{y + 4}" text-anchor="end" font-size="11" fill="{COLOURS[owner]}" '
                   f'font-family="sans-serif">{"AB"[owner]}</text>')
        for i, letter in enumerate(pieces):
            out.append(_tile(PAD + 16 + i * 32, y, letter, owner, size=28))
        if not pieces:
            out.append(f'<text x="{PAD + 4}" y="{y + 4}" font-size="11" fill="{NAME_SOFT}" '
                       f'font-family="sans-serif">no pieces in hand</text>')
    for label, href in links.items():
        if "*" in label:  # a drop: a lettered chip in a corner of the square (a dark letter on a
            # light chip, so it stays readable on every value's fill)
            letter, target = label.split("*")
            cx, cy = grid.centre(*row_col(target))
            dx, dy = DROP_CORNER.get(letter, (0, 0))
            x, y = cx + dx * CELL * 0.3, cy + dy * CELL * 0.3
            out.append(move_link(href, label, f"play {label}",
                                 f'<circle class="gg-mark" cx="{x}" cy="{y}" r="9" fill="{WHITE}" stroke="{COLOURS[mover]}" '
                                 f'stroke-width="1.5"/><text x="{x}" y="{y + 4}" text-anchor="middle" font-size="11" '
                                 f'font-weight="bold" fill="{COLOURS[mover]}" font-family="sans-serif">{escape(letter)}</text>'))
            continue
        squares = label.split(" ", 1)[1].rstrip("+").replace("x", "-")
        source, _, target = squares.partition("-")
        x0, y0 = grid.centre(*row_col(source))
        x1, y1 = grid.centre(*row_col(target))
        dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL
        diagonal = bool(dx and dy)
        # every head 16 px wide at its base, a diagonal's too (arrow_points widens it by the step's length,
        # and three heads out of one lion's top crowded into one another)
        points = arrow_points(x0, y0, dx, dy, CELL, DIAGONAL_BASE if diagonal else ARROW_BASE, ARROW_TIP,
                              8 / 2 ** 0.5 if diagonal else 8)
        out.append(move_link(href, label, _says(game, label, position, mover),
                             f'<polygon class="gg-mark-strong" points="{points}" fill="{ARROW}" opacity="0.8"/>'))
    out.append(caption(lines, PAD, height + 12, COLOURS[mover]))
    out.append("</svg>")
    return "\n".join(out)
