"""A game's board as the picture of a Graphviz node: `gamegraph dot --boards` and the page's line download.

The page draws boards as SVG (explorer/ui/boards), a layer above this one and
made for the browser; a diagram needs a picture that `dot` lays out itself in
every output format (.svg, .png, .pdf) without image files beside it. So a
board here is a Graphviz HTML-like label: a small table of cells. Games known
by their drawing's name (`offers.board`) get their own table (tic-tac-toe's
grid of X and O, Chopsticks' two pairs of hands, Nim's heaps, Dōbutsu shōgi's
board between its two hands); any other game whose notation is rows separated
by ``/`` (after an optional ``MOVER|``) gets a grid of its cells; a plug-in game with neither keeps its notation as the
label (`board_label` returns None). O(cells) per board.
"""

from __future__ import annotations

import html
from typing import Any, Callable

from explorer.games.base import Game, player_name
from explorer.games.square_board import FILES
from explorer.render.palette import FIRST, INK_SOFT, SECOND, WHITE

# The players' colours of explorer/render/palette.py, as on the page (explorer/ui/boards): a node
# is filled with its value's colour, so a piece must not look like a value.
X_COLOUR, O_COLOUR = FIRST.fill, SECOND.fill  # tic-tac-toe's marks
CELL = 'border="1" color="' + INK_SOFT + '" width="{size}" height="{size}" fixedsize="true"'
MAX_GRID_CELLS = 64  # a bigger board reads better as its notation


def _text(text: str, colour: str | None = None, bold: bool = False, size: int | None = None) -> str:
    out = html.escape(text) or " "
    if bold:
        out = f"<B>{out}</B>"
    attrs = (f' COLOR="{colour}"' if colour else "") + (f' POINT-SIZE="{size}"' if size else "")
    return f"<FONT{attrs}>{out}</FONT>" if attrs else out


def _grid(rows: list[list[str]], paint: Callable[[str], str], size: int = 22) -> str:
    """A table of cells, one string per cell, drawn by `paint`."""
    cell = CELL.format(size=size)
    body = "".join("<TR>" + "".join(f"<TD {cell}>{paint(c)}</TD>" for c in row) + "</TR>" for row in rows)
    # A fixed size: in a node wider than the board (a long caption) the cells would spread apart.
    width, height = size * max(map(len, rows)), size * len(rows)
    return (f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0" BGCOLOR="{WHITE}" FIXEDSIZE="TRUE" '
            f'WIDTH="{width}" HEIGHT="{height}">{body}</TABLE>')


# The games whose moves name cells as square_board's notation does declare it (offers.named_cells): files
# a, b, ... from the left, ranks 1, 2, ... from the bottom ("X c1", "a2-b2", "b1-c2", "L b1-a2"). Their
# boards carry those names (files below, ranks on the left) here and in `gamegraph play`'s terminal.
# Domineering too ("V a1-a2"); Connect Four's files only (offers.named_files); not Toads and Frogs (numbers).
def names_cells(game: Game) -> bool:
    """Whether `game`'s moves name its cells by file and rank: its declaration, offers.named_cells."""
    return game.offers.named_cells


RANK_WIDTH = 10  # the column of rank names left of a board


def _labelled(grid: str, columns: int, rows: int, size: int, ranks: bool = True) -> str:
    """A grid with its files (a, b, ... under it, left to right) and ranks (1 at the bottom, on its left), the
    names of cells in the moves ("X c1"), as square_board's notation names them; files alone when the moves
    name columns only (`ranks` False: Connect Four's "a")."""
    files = "".join(f'<TD WIDTH="{size}" HEIGHT="10" FIXEDSIZE="TRUE">{_text(FILES[c], INK_SOFT, size=8)}</TD>'
                    for c in range(columns))
    if not ranks:
        return (f'<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="0"><TR><TD>{grid}</TD></TR>'
                f'<TR><TD><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="0"><TR>{files}</TR></TABLE></TD></TR></TABLE>')
    rank_cells = "".join(f'<TR><TD HEIGHT="{size}" FIXEDSIZE="TRUE" WIDTH="{RANK_WIDTH}">'
                         f'{_text(str(rows - r), INK_SOFT, size=8)}</TD></TR>' for r in range(rows))
    return (f'<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="0">'
            f'<TR><TD><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="0">{rank_cells}</TABLE></TD><TD>{grid}</TD></TR>'
            f'<TR><TD></TD><TD><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="0"><TR>{files}</TR></TABLE></TD></TR>'
            f'</TABLE>')


def _tictactoe(game: Game, position: Any) -> str:
    rows = [list(row) for row in game.format(position).split("/")]
    marks = {"X": X_COLOUR, "O": O_COLOUR}
    grid = _grid(rows, lambda c: _text(c if c in marks else " ", marks.get(c), bold=True, size=16), size=24)
    return _labelled(grid, len(rows[0]), len(rows), 24)


def _chopsticks(game: Game, position: Any) -> str:
    """Each player's row: name, then the left and right hand's fingers (a dead hand is ✕); the mover marked ▶."""
    rows = []
    for player, hands in enumerate(position.hands):
        mover = "▶ " if position.to_move == player else "  "
        cells = "".join(f'<TD BORDER="1" COLOR="{INK_SOFT}" WIDTH="34">{_text(str(h) if h else "✕", bold=True, size=14)}'
                        f'</TD>' for h in hands)
        rows.append(f'<TR><TD ALIGN="LEFT">{_text(mover + player_name(game, player))}</TD>{cells}</TR>')
    head = f'<TR><TD></TD><TD>{_text("left", size=8)}</TD><TD>{_text("right", size=8)}</TD></TR>'
    return f'<TABLE BORDER="0" CELLSPACING="2" CELLPADDING="2" BGCOLOR="{WHITE}">{head}{"".join(rows)}</TABLE>'


def _nim(game: Game, position: Any) -> str:
    """One row per heap: its number and a token per object."""
    rows = "".join(f'<TR><TD ALIGN="RIGHT">{_text(str(i + 1), size=8)}</TD>'
                   f'<TD ALIGN="LEFT">{_text("●" * size if size else "–", size=11)}</TD></TR>'
                   for i, size in enumerate(position.heaps))
    return f'<TABLE BORDER="0" CELLSPACING="1" CELLPADDING="1" BGCOLOR="{WHITE}">{rows}</TABLE>'


def _notation_grid(game: Game, position: Any) -> str | None:
    """The cells of a notation written as rows of symbols separated by '/' (after an optional
    'MOVER|'), or one short row of them (toads-and-frogs' strip); None for anything else."""
    text = game.format(position)
    board = text.split("|", 1)[1] if "|" in text else text
    if "|" in board or any(c.isdigit() for c in board) or "/" not in board and len(board) > 12:
        return None  # counts (a-b-c), not cells: the notation says it better
    rows = [list(row) for row in board.split("/")]
    if sum(map(len, rows)) > MAX_GRID_CELLS or not all(rows):
        return None
    grid = _grid(rows, lambda c: _text("" if c == "." else c, bold=True, size=12), size=18)
    # Dodgem's and Teeko's moves name cells ("a2-b2"): their boards carry the names, as tic-tac-toe's do;
    # Connect Four's name columns ("a"): its boards carry the files.
    if names_cells(game) or game.offers.named_files:
        return _labelled(grid, max(map(len, rows)), len(rows), 18, ranks=names_cells(game))
    return grid


DOBUTSU_COLOURS = (FIRST.fill, SECOND.fill)  # A, B, as on the page (explorer/ui/boards/dobutsu.py)


def _dobutsu(game: Game, position: Any) -> str:
    """Dōbutsu shōgi: B's hand above the 3x4 board (rank 4 on top, files and ranks named as the moves name
    them), A's hand below, each piece in its owner's colour (A upper case, B lower case, as in the notation). Each hand is cells
    in rows of three, the board's width, and its owner's name (the mover marked ▶) stands in a
    column left of it: a hand of up to six pieces never makes the picture wider than the board
    (a line "▶ B hand: ggeecc" above a board of three cells did)."""
    parts = game.format(position).split("|", 1)[1].split("/")
    hand_b, ranks, hand_a = parts[0], parts[1:-1], parts[-1]
    columns = len(ranks[0])

    def paint(c: str) -> str:
        return _text("" if c == "." else c, DOBUTSU_COLOURS[c.islower()] if c != "." else None, bold=True, size=12)

    def hand(player: int, text: str) -> str:
        mover = "▶ " if game.to_move(position) == player else ""
        name = f'<TD ALIGN="RIGHT" VALIGN="MIDDLE">{_text(f"{mover}{player_name(game, player)}", size=9)}</TD>'
        if text == "-":
            cells = f'<TD ALIGN="LEFT">{_text("–", DOBUTSU_COLOURS[player], bold=True, size=11)}</TD>'
        else:
            rows = [text[i:i + columns].ljust(columns, ".") for i in range(0, len(text), columns)]
            cell = 'WIDTH="18" HEIGHT="16" FIXEDSIZE="TRUE"'  # the board's cells' width: the columns line up
            rank_column = f'<TD WIDTH="{RANK_WIDTH}" FIXEDSIZE="TRUE"></TD>'  # under the board's rank names
            body = "".join("<TR>" + rank_column + "".join(f"<TD {cell}>{paint(c)}</TD>" for c in row) + "</TR>"
                           for row in rows)
            cells = f'<TD><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="0">{body}</TABLE></TD>'
        return f"<TR>{name}{cells}</TR>"

    # The files and ranks the moves name ("L b1-a2", a drop "C*b3"), as every game that names cells has them.
    board = _labelled(_grid([list(rank) for rank in ranks], paint, size=18), columns, len(ranks), 18)
    return (f'<TABLE BORDER="0" CELLSPACING="1" CELLPADDING="1" BGCOLOR="{WHITE}">{hand(1, hand_b)}'
            f'<TR><TD></TD><TD>{board}</TD></TR>{hand(0, hand_a)}</TABLE>')


def labelled_text(game: Game, position: Any) -> str | None:
    """The board of a game that names its cells (`names_cells`) in lines of text, for a terminal: its ranks
    from the top, each cell a column, the rank's number on the left and the files' letters below, the
    names the moves use ("X c1"); Dōbutsu shōgi's hands above (B's) and below (A's) the board, as its
    notation writes them; above it all, the header lines of the game's own text drawing (`_header`: Teeko's
    "Black to move"). None for any other game. O(cells)."""
    if not names_cells(game):
        return None
    text = game.format(position)
    parts = (text.split("|", 1)[1] if "|" in text else text).split("/")
    above, ranks, below = (parts[:1], parts[1:-1], parts[-1:]) if game.name == "dobutsu" else ([], parts, [])
    width = len(str(len(ranks)))
    lines = [f"{len(ranks) - r:>{width}} " + " ".join(rank) for r, rank in enumerate(ranks)]
    lines.append(" " * (width + 1) + " ".join(FILES[c] for c in range(max(map(len, ranks)))))
    hand = [" " * (width + 1) + " ".join(part) for part in above + below]
    return "\n".join(_header(game, position, (above + ranks)[0]) + hand[:len(above)] + lines + hand[len(above):])


def _header(game: Game, position: Any, first: str) -> list[str]:
    """The lines the game's own text drawing (Game.diagram_label, offers.diagram_label) writes above its board,
    whose first line is `first` (Teeko's "Black to move"); none without a drawing or such lines. O(cells)."""
    if not game.offers.diagram_label:
        return []
    drawn = game.diagram_label(position).replace("\\n", "\n").splitlines()
    return drawn[:drawn.index(first)] if first in drawn else []


DRAWINGS: dict[str, Callable[[Game, Any], str]] = {
    "tictactoe": _tictactoe, "chopsticks": _chopsticks, "nim": _nim, "dobutsu": _dobutsu}


def board_label(game: Game, position: Any) -> str | None:
    """The board of `position` as a Graphviz HTML-like table (the markup between the label's outer
    < >), or None when the game has no drawing here and its notation is not a grid."""
    drawing = DRAWINGS.get(game.offers.board or "")
    if drawing is not None and game.name == game.offers.board:
        return drawing(game, position)
    return _notation_grid(game, position)
