"""Connect Four on a width x height board: drop a piece into a column; `connect` in a row wins.

Rules (Milton Bradley's Connect Four, 1974; the same as Victor Allis's thesis "A
Knowledge-based Approach of Connect-Four", 1988, and John Tromp's "Connect-4"
pages, https://tromp.github.io/c4/c4.html): X moves first; a move drops a piece
of one's colour into a column that is not full, where it falls onto the lowest
empty cell. A player who completes a line of `connect` (4) of their pieces,
horizontally, vertically or diagonally, wins at once; a full board without a
line is a tie. Other board sizes and line lengths are the same game on another
board (Tromp's page tabulates the start's value by board size).

Notation: the rows from top to bottom separated by ``/``, one character per
cell: ``X``, ``O`` or ``.`` (``..../..../..../.X..`` on 4x4); the player to move
follows from the counts. A move is named by its column, ``a`` (left), ``b``, ...
as in Allis's thesis (John Tromp writes a game as the columns' digits, 1 = a).
Text that no game reaches is refused in one line: a piece above an empty cell,
counts that do not alternate from X, both players with a line, a line of the
player who did not move last, or play that went on after a win.

Symmetry: the left-right mirror (the representative is the one of the two with
the smaller rank). Nothing else: gravity fixes up and down, and exchanging the
colours changes who moves first.

Perfect ranking (the implicit mode's and the tiered solver's index space):
the concatenation of one ranking per tier, tier k = the boards with k pieces
(k = 0 .. width*height), so every move goes from tier k to tier k+1. Within a
tier, a board is (its column heights, its colours): the heights, a vector of
width numbers in 0..height summing to k, are ranked lexicographically with a
table of how many ways the remaining columns can hold the remaining pieces;
the colours are which ceil(k/2) of the k occupied cells (column by column,
bottom up) hold X, ranked in the combinatorial number system (colex). Index =
tier offset + heights rank * C(k, ceil(k/2)) + colours rank. Every index is a
gravity-respecting board with the right counts; an index is valid unless
both players have a line, the player who did not move last has one, or the
last mover has one that no single piece of theirs on top of a column could
have completed (play went on after a win). Valid indices include boards that
no game reaches (one column XXOO: X cannot be followed by X), which the solver
solves as well (their values are those of the rules); forward generation from
the start counts the reachable ones (Tromp's position counts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from math import comb
from typing import NamedTuple

from explorer.core.errors import InvalidParameter
from explorer.core.values import Value
from explorer.games.base import Game, Move, MoveBatch, Offers, Params, Tiers, param
from explorer.games.table import register

MARKS = "XO"  # X moves first
COLUMN_NAMES = "abcdefghijklmnop"  # a move is named by its column, as in Allis's thesis (not a digit: play's
# prompt also takes a move's number in its list, and "3" would then name two moves)
MAX_SIDE = 16
WORD_BITS = 63  # the compiled kernels keep a board as two int64 masks of width * (height + 1) bits


@dataclass(frozen=True)
class Connect4Params(Params):
    width: int = param(4, "columns of the board (moves name them a, b, ...)", minimum=1, maximum=MAX_SIDE)
    height: int = param(4, "rows of the board", minimum=1, maximum=MAX_SIDE)
    connect: int = param(4, "pieces in a row (across, up or diagonal) that win", minimum=2, maximum=MAX_SIDE)

    def validate(self) -> None:
        """A board must fit the kernels' 63-bit masks (a spare row per column) and its ranking int64.
        A `connect` longer than the board is allowed: every game is then a tie (the tests use one)."""
        if self.width * (self.height + 1) > WORD_BITS:
            raise InvalidParameter(
                f"width={self.width},height={self.height} is too large: width x (height + 1) must be at most "
                f"{WORD_BITS} (a board is a 64-bit mask); e.g. 9x6, 8x6, 7x8")
        size = ranking_tables(self.width, self.height)[0][-1]
        if size >= 1 << 62:
            raise InvalidParameter(f"width={self.width},height={self.height} has {size:.2e} indices: "
                                   f"too many to number in 64 bits")


def ranking_tables(width: int, height: int) -> tuple[list[int], list[list[int]]]:
    """(tier offsets, of length cells + 2; fill[c][s]: the ways columns c.. can hold s pieces). O(w^2 h^2)."""
    cells = width * height
    fill = [[0] * (cells + 1) for _ in range(width + 1)]
    fill[width][0] = 1
    for c in range(width - 1, -1, -1):
        for s in range(cells + 1):
            fill[c][s] = sum(fill[c + 1][s - v] for v in range(min(height, s) + 1))
    offsets = [0]
    for k in range(cells + 1):
        offsets.append(offsets[-1] + fill[0][k] * comb(k, (k + 1) // 2))
    return offsets, fill


class Connect4Position(NamedTuple):
    to_move: int  # 0: X, 1: O
    columns: tuple[str, ...]  # each column bottom up, "X"/"O" per piece


@register
class Connect4(Game[Connect4Position]):
    name = "connect4"
    description = "Connect Four on width x height (4x4 by default; connect4:standard is 7x6): four in a row wins."
    Params = Connect4Params
    presets = {"small": dict(width=4, height=4), "5x4": dict(width=5, height=4), "6x4": dict(width=6, height=4),
               "5x5": dict(width=5, height=5), "6x5": dict(width=6, height=5), "standard": dict(width=7, height=6)}
    NOTATION_HELP = "rows top to bottom of X, O or . separated by /, e.g. {example} (X moves first)"
    notation_help = NOTATION_HELP.format(example="..../..../..../.X..")  # the 4x4 board's
    offers = Offers(arrays=True, compiled_moves=False, ranking=True, unmoves=True, implicit_kernels=True,
                    symmetry=True, cgt=None, board="connect4", player_names=("X", "O"),
                    swap_players=False, diagram_label=True, tiers=True, batch_columns=True,
                    named_files=True)

    def __init__(self, params: Connect4Params | None = None, preset: str | None = None):
        super().__init__(params, preset)
        self.description = self.description_of(self.params)  # the page's header: this board, not every board
        # An error's example is a position of this board: X's first piece in column b (a on one column).
        first = tuple("X" if c == min(1, self.width - 1) else "" for c in range(self.width))
        self.notation_help = self.NOTATION_HELP.format(example=self.format(Connect4Position(1, first)))

    @staticmethod
    def description_of(params: Connect4Params) -> str:
        """The game these parameters make, in a sentence: its board and the line that wins."""
        w, h, k = params.width, params.height, params.connect
        board = f"a board {w} columns wide and {h} high" + (
            " (the standard size)" if (w, h) == (7, 6) else " (the standard board is 7 wide, 6 high)")
        if k > max(w, h):
            goal = f"{k} in a row would win, but no line of {k} fits, so every game is a tie"
        else:
            goal = f"{k} in a row (across, up or diagonal) wins"
        return f"Connect Four on {board}: {goal}."

    @property
    def width(self) -> int:
        return self.params.width

    @property
    def height(self) -> int:
        return self.params.height

    @property
    def cells(self) -> int:
        return self.params.width * self.params.height

    # -- rules ------------------------------------------------------------------
    def start(self) -> Connect4Position:
        return Connect4Position(0, ("",) * self.width)

    def to_move(self, position: Connect4Position) -> int:
        return position.to_move

    def lines(self, columns: tuple[str, ...]) -> set[str]:
        """The marks that have `connect` in a row. O(cells): every row, column and diagonal of the board
        read as one string and searched for a run (a Python call per cell and direction made this
        most of a walk over the graph: two thirds of check-game's walk over Connect Four was here)."""
        h, n = self.height, self.params.connect
        board = "".join([column.ljust(h, ".") for column in columns])
        found = set()
        for path in self._board_lines:
            text = "".join([board[i] for i in path])
            for mark in MARKS:
                if mark * n in text:
                    found.add(mark)
        return found

    @cached_property
    def _board_lines(self) -> tuple[tuple[int, ...], ...]:
        """Every whole row, column and diagonal with at least `connect` cells, as indices into the board
        read column by column from the bottom (column c, row r at c * height + r)."""
        w, h = self.width, self.height
        paths = []
        for c0 in range(w):
            for r0 in range(h):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if 0 <= c0 - dc < w and 0 <= r0 - dr < h:
                        continue  # not the first cell of its line
                    cells, c, r = [], c0, r0
                    while 0 <= c < w and 0 <= r < h:
                        cells.append(c * h + r)
                        c, r = c + dc, r + dr
                    if len(cells) >= self.params.connect:
                        paths.append(tuple(cells))
        return tuple(paths)

    def outcome(self, position: Connect4Position) -> Value | None:
        if MARKS[1 - position.to_move] in self.lines(position.columns):
            return Value.LOSS  # only the player who just moved can have completed a line
        if all(len(column) == self.height for column in position.columns):
            return Value.TIE
        return None

    def ending(self, position: Connect4Position) -> str | None:
        previous = MARKS[1 - position.to_move]
        if previous in self.lines(position.columns):
            return f"{previous} has {self.params.connect} in a row"
        if all(len(column) == self.height for column in position.columns):
            return f"the board is full with no {self.params.connect} in a row: a tie"
        return None

    def moves(self, position: Connect4Position) -> list[Move[Connect4Position]]:
        if self.outcome(position) is not None:
            return []
        mark = MARKS[position.to_move]
        columns = position.columns
        return [Move(COLUMN_NAMES[c], Connect4Position(1 - position.to_move,
                                                  columns[:c] + (columns[c] + mark,) + columns[c + 1:]))
                for c in range(self.width) if len(columns[c]) < self.height]

    def unmoves(self, position: Connect4Position) -> list[Connect4Position]:
        """Take back a top piece of the player who just moved, where the board before has no line
        (else the game would have ended there). O(width x cells x connect)."""
        mark = MARKS[1 - position.to_move]
        columns = position.columns
        result = []
        for c in range(self.width):
            if columns[c].endswith(mark):
                before = columns[:c] + (columns[c][:-1],) + columns[c + 1:]
                if not self.lines(before):
                    result.append(Connect4Position(1 - position.to_move, before))
        return result

    def canonical(self, position: Connect4Position) -> Connect4Position:
        mirror = Connect4Position(position.to_move, position.columns[::-1])
        return min(position, mirror, key=self.rank)

    def has_symmetry(self) -> bool:
        return self.width > 1

    # -- notation -------------------------------------------------------------------
    def format(self, position: Connect4Position) -> str:
        rows = ["".join(column[r] if r < len(column) else "." for column in position.columns)
                for r in reversed(range(self.height))]
        return "/".join(rows)

    _NOTATION = re.compile(r"^[XxOo./\s]+$")

    def parse(self, text: str) -> Connect4Position:
        if not self._NOTATION.match(text):
            raise self.invalid(text, "cells are X, O or . in rows separated by /")
        rows = [row.strip().upper() for row in text.strip().split("/")]
        w, h = self.width, self.height
        if len(rows) != h or any(len(row) != w or " " in row for row in rows):
            raise self.invalid(text, f"the board has {h} rows of {w} cells with width={w},height={h}")
        columns = []
        for c in range(w):
            cells = "".join(row[c] for row in reversed(rows))  # bottom up
            column = cells.rstrip(".")
            if "." in column:
                raise self.invalid(text, f"a piece floats above an empty cell in column {COLUMN_NAMES[c]}")
            columns.append(column)
        x, o = sum(col.count("X") for col in columns), sum(col.count("O") for col in columns)
        if x - o not in (0, 1):
            raise self.invalid(text, f"X has {x} pieces and O has {o}; X moves first, so X has as many as O "
                                     f"or one more")
        position = Connect4Position(0 if x == o else 1, tuple(columns))
        why = self.illegal(position)
        if why:
            raise self.invalid(text, why)
        return position

    def illegal(self, position: Connect4Position) -> str | None:
        """Why no game reaches this board as far as lines tell (None: it is valid). O(width x cells x connect)."""
        lines = self.lines(position.columns)
        last, other = MARKS[1 - position.to_move], MARKS[position.to_move]
        n = self.params.connect
        if len(lines) == 2:
            return f"both X and O have {n} in a row; the game stops at the first line"
        if other in lines:
            return f"{other} has {n} in a row but {last} moved last; the game stopped at {other}'s line"
        if last in lines and not self.unmoves(position):
            return f"{last} has {n} in a row that its last piece did not complete: play went on after a win"
        return None

    def diagram_label(self, position: Connect4Position) -> str:
        """The rows, top to bottom, a space between cells, over the files the moves name (a, b, ...), for
        diagram nodes and `gamegraph play`'s terminal, as other games' boards are drawn there."""
        rows = [" ".join(row) for row in self.format(position).split("/")]
        return "\\n".join([*rows, " ".join(COLUMN_NAMES[:self.width])])  # DOT line breaks

    def fields(self, position: Connect4Position) -> dict[str, object]:
        return {"pieces": sum(len(column) for column in position.columns)}

    def batch_columns(self, codes):
        """`format` and `fields` of many codes at once (offers.batch_columns): each board from the
        compiled unrank (kernels.masks_of), then every cell's mark chosen by numpy, one column of a
        byte matrix per cell of the key (rows top to bottom, "/" between), read as one text a row."""
        import numpy as np

        from explorer.games.connect4.kernels import masks_of
        x, o, pieces = masks_of(self.implicit_kernels().ctx, np.ascontiguousarray(codes, dtype=np.int64))
        w, h = self.width, self.height
        length = h * (w + 1) - 1
        text = np.full((len(x), length), ord("/"), dtype=np.uint8)
        for line, row in enumerate(reversed(range(h))):
            for c in range(w):
                bit = c * (h + 1) + row  # the kernels' layout: a spare bit on top of each column
                cell = np.where((x >> bit) & 1, ord("X"), np.where((o >> bit) & 1, ord("O"), ord(".")))
                text[:, line * (w + 1) + c] = cell
        keys = text.view(f"S{length}").reshape(len(x)).astype(f"U{length}")
        return keys, {"pieces": pieces}

    # -- size estimate (explorer/core/limits.py): the ranking bounds the legal boards ------------
    def estimate_positions(self, symmetry: bool = True) -> int:
        """Every board with the right counts (the index space); the mirror at most halves it,
        palindromes aside. O(w^2 h^2)."""
        size = self.code_space()
        if symmetry and self.has_symmetry():
            return size // 2 + self._palindromes()
        return size

    def _palindromes(self) -> int:
        """Boards equal to their mirror, counted as boards of the left half (and the middle column)."""
        half, middle = divmod(self.width, 2)
        left = ranking_tables(half, self.height)[1][0]  # the ways the left half holds s pieces
        total = 0
        for k in range(self.cells + 1):
            ways = sum(left[(k - m) // 2] for m in range(min(k, self.height if middle else 0) + 1)
                       if (k - m) % 2 == 0 and (k - m) // 2 < len(left))  # m pieces in the middle column
            total += ways * comb(k, (k + 1) // 2)  # more than the mirror-symmetric colourings: a bound
        return total

    def estimate_moves(self, symmetry: bool = True) -> int:
        return self.estimate_positions(symmetry) * self.width

    # -- perfect ranking: codes, the implicit mode's index space, and its tiers ------------------
    @cached_property
    def tables(self) -> tuple[list[int], list[list[int]]]:
        """The ranking's tables (ranking_tables), shared with the compiled kernels' context."""
        return ranking_tables(self.width, self.height)

    def code_space(self) -> int:
        return self.tables[0][-1]

    def tiers(self) -> Tiers:
        """Tier k: the boards with k pieces; a move adds one, so tier k's only child is k + 1."""
        offsets = tuple(self.tables[0])
        last = self.cells
        return Tiers(offsets=offsets, children=tuple((k + 1,) if k < last else () for k in range(last + 1)),
                     names=tuple(f"{k} piece{'s' if k != 1 else ''}" for k in range(last + 1)),
                     loop_free=(True,) * (last + 1))

    def encode(self, position: Connect4Position) -> int:
        """Tier offset + heights rank x C(k, ceil(k/2)) + colex rank of X's cells. O(cells)."""
        offsets, fill = self.tables
        heights = [len(column) for column in position.columns]
        k = rem = sum(heights)
        heights_rank = 0
        for c, h in enumerate(heights):
            # fill[c + 1][rem - v] for v in range(h): one slice, not a generator (encode was a third of
            # check-game on a Connect Four board, through canonical's two ranks); h <= rem, so none is negative
            heights_rank += sum(fill[c + 1][rem - h + 1:rem + 1])
            rem -= h
        marks = "".join(position.columns)  # column by column, bottom up: the order of the kernels' masks
        colours = sum(comb(i, j + 1) for j, i in enumerate(i for i, m in enumerate(marks) if m == "X"))
        return offsets[k] + heights_rank * comb(k, (k + 1) // 2) + colours

    def decode(self, code: int) -> Connect4Position:
        offsets, fill = self.tables
        if not 0 <= code < offsets[-1]:
            raise self.invalid(str(code), f"index out of range(0, {offsets[-1]})")
        k = max(t for t in range(len(offsets) - 1) if offsets[t] <= code)
        xs = (k + 1) // 2
        heights_rank, colours = divmod(code - offsets[k], comb(k, xs))
        heights, rem = [], k
        for c in range(self.width):
            h = 0
            while heights_rank >= fill[c + 1][rem - h]:
                heights_rank -= fill[c + 1][rem - h]
                h += 1
            heights.append(h)
            rem -= h
        marked, p = set(), k
        for j in range(xs, 0, -1):  # colex unrank: the largest p with C(p, j) <= what is left
            p -= 1
            while comb(p, j) > colours:
                p -= 1
            colours -= comb(p, j)
            marked.add(p)
        cells = "".join("X" if i in marked else "O" for i in range(k))
        columns, at = [], 0
        for h in heights:
            columns.append(cells[at:at + h])
            at += h
        return Connect4Position(k % 2, tuple(columns))

    def is_valid_code(self, code: int) -> bool:
        return self.illegal(self.decode(code)) is None

    def implicit_kernels(self):
        return self._kernels

    @cached_property
    def _kernels(self):
        from explorer.games.connect4.kernels import kernels
        return kernels(self)

    # -- the array generator, through the compiled kernels -----------------------------------------
    def batch_moves(self, codes, symmetry: bool) -> MoveBatch:
        batch = self.implicit_kernels().batch_moves(codes)
        if symmetry and self.has_symmetry():
            from explorer.games.connect4.kernels import canonical_codes
            return MoveBatch(batch.source, canonical_codes(self.implicit_kernels().ctx, batch.target), batch.label)
        return batch

    def batch_outcomes(self, codes):
        return self.implicit_kernels().batch_terminal(codes)

    def batch_to_move(self, codes):
        import numpy as np

        from explorer.games.connect4.kernels import pieces_of
        return (pieces_of(self.implicit_kernels().ctx, np.ascontiguousarray(codes, dtype=np.int64)) % 2).astype(np.int8)

    def batch_label(self, label: int) -> str:
        return COLUMN_NAMES[int(label)]
