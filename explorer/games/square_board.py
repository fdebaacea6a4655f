"""The notation of a square board, shared by the games played on an n x n grid (Teeko, Dodgem).

Not a game: a helper the game modules may import, while they stay independent of each other
(pyproject.toml's `independence` contract lists the games, not this module).

The notation: the player to move (one letter), ``|``, then the rows from top to bottom separated
by ``/``, one character per cell: a piece's letter, or ``.`` for an empty cell; letters are read
in either case and written in the game's own. Cells are numbered ``row * size + column`` with row 0
at the bottom, and named like a chessboard: files a, b, ... from the left, ranks 1, 2, ... from
the bottom (``a1`` is the bottom-left cell). Formatting and parsing are O(size^2).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

FILES = "abcdefgh"  # file letters, left to right: boards up to 8 wide


def cell_name(cell: int, size: int) -> str:
    """The chessboard name of a cell: ``cell_name(7, 5) == "c2"``."""
    row, col = divmod(cell, size)
    return f"{FILES[col]}{row + 1}"


def row_col(name: str) -> tuple[int, int]:
    """(row, column) of a cell name, row 0 at the bottom: ``row_col("b3") == (2, 1)``."""
    return int(name[1:]) - 1, FILES.index(name[0])


class SquareBoardNotation:
    """One game's words for the notation: `movers` the letters of the player to move (player 0's
    first); `pieces` the letters of the kinds of piece, one kind a player (each kind's cells are one
    sorted tuple of the position), `names` their names and `noun` theirs together ("black",
    "red"; "pieces"); `unit` what the game calls a cell. The words are for the messages."""

    def __init__(self, movers: str, pieces: str, names: tuple[str, ...], noun: str = "pieces",
                 unit: str = "cells"):
        self.movers, self.pieces, self.unit = movers.upper(), pieces.lower(), unit
        self.names, self.noun = names, noun
        mover = re.escape(self.movers + self.movers.lower())
        cell = re.escape(self.pieces + self.pieces.upper() + ".")
        self.pattern = re.compile(rf"^\s*([{mover}])\s*\|\s*([{cell}]+(?:\s*/\s*[{cell}]+)*)\s*$")

    def format(self, size: int, mover: int, kinds: Sequence[Sequence[int]]) -> str:
        """The text of a board: `kinds[k]` are the cells holding a piece of letter ``pieces[k]``."""
        cells = ["."] * (size * size)
        for letter, occupied in zip(self.pieces, kinds):
            for cell in occupied:
                cells[cell] = letter
        rows = ["".join(cells[row * size:(row + 1) * size]) for row in reversed(range(size))]
        return f"{self.movers[mover]}|{'/'.join(rows)}"

    def parse(self, game: Any, text: str, size: int, most: int,
              because: str) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """(the mover, each piece kind's sorted cells) of a board's text; `game.invalid` (one line)
        when the text is malformed, its board is not size x size, or a player has more than `most`
        pieces (the game's parameter that says so: `because`). The game checks the rest."""
        match = self.pattern.match(text or "")
        if not match:
            raise game.invalid(text, "malformed")
        rows = [row.strip().lower() for row in match[2].split("/")]
        if len(rows) != size or any(len(row) != size for row in rows):
            raise game.invalid(text, f"the board has {size} rows of {size} {self.unit} with size={size}")
        cells = "".join(reversed(rows))
        kinds = tuple(tuple(i for i, ch in enumerate(cells) if ch == letter) for letter in self.pieces)
        for name, occupied in zip(self.names, kinds):
            if len(occupied) > most:
                raise game.invalid(text, f"{len(occupied)} {name} {self.noun}; each player has {most} with {because}")
        return self.movers.index(match[1].upper()), kinds
