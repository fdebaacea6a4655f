"""Tic-tac-toe on a 3x3 board: X moves first; three in a row wins, a full board ties.

Notation: the three rows top to bottom, ``X``, ``O`` or ``.`` per cell, rows
separated by ``/`` (``X.O/.X./..O``); the player to move follows from the counts.
Symmetry reduction maps a board to the least of its 8 rotations and reflections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from explorer.games.base import Game, Move, Offers, Params
from explorer.games.table import register
from explorer.core.values import Value

Board = tuple[str, ...]  # 9 cells, row-major, each "X", "O" or "."

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
# The 8 symmetries of the square as cell permutations: new[i] = old[perm[i]].
_ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)
_MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)


def _compose(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(first[second[i]] for i in range(9))


def _symmetries() -> list[tuple[int, ...]]:
    perms, current = [], tuple(range(9))
    for _ in range(4):
        perms += [current, _compose(current, _MIRROR)]
        current = _compose(current, _ROTATE)
    return perms


SYMMETRIES = _symmetries()
CELL_NAMES = [f"{'abc'[i % 3]}{3 - i // 3}" for i in range(9)]  # a3 b3 c3 / a2 ... like a chessboard


@dataclass(frozen=True)
class TicTacToeParams(Params):
    pass


def _winner(board: Board) -> str | None:
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


@register
class TicTacToe(Game[Board]):
    name = "tictactoe"
    description = "Noughts and crosses on 3x3; X moves first."
    Params = TicTacToeParams
    presets = {"standard": {}}
    notation_help = "three rows of X, O or . separated by /, e.g. X.O/.X./..O"
    offers = Offers(arrays=False, compiled_moves=False, ranking=False, unmoves=False, implicit_kernels=False,
                    symmetry=True, cgt=None, board="tictactoe", player_names=("X", "O"),
                    swap_players=False, diagram_label=False, named_cells=True)

    def start(self) -> Board:
        return tuple("." * 9)

    def to_move(self, board: Board) -> int:
        return 0 if board.count("X") == board.count("O") else 1

    def outcome(self, board: Board) -> Value | None:
        if _winner(board):
            return Value.LOSS  # only the player who just moved can have completed a line
        return Value.TIE if "." not in board else None

    def ending(self, board: Board) -> str | None:
        winner = _winner(board)
        if winner:
            return f"{winner} has three in a row"
        return "the board is full with no three in a row: a tie" if "." not in board else None

    def moves(self, board: Board) -> list[Move[Board]]:
        if _winner(board):
            return []  # a finished game has no moves
        mark = "XO"[self.to_move(board)]
        return [Move(f"{mark} {CELL_NAMES[i]}", board[:i] + (mark,) + board[i + 1:])
                for i, cell in enumerate(board) if cell == "."]

    def canonical(self, board: Board) -> Board:
        return min(tuple(board[p] for p in perm) for perm in SYMMETRIES)

    # -- size estimate: the game has no parameters, so the counts are the measured ones (tests/golden) --
    def estimate_positions(self, symmetry: bool = True) -> int:
        return 765 if symmetry else 5478

    def estimate_moves(self, symmetry: bool = True) -> int:
        return 2096 if symmetry else 16167

    def format(self, board: Board) -> str:
        text = "".join(board)
        return "/".join(text[i:i + 3] for i in (0, 3, 6))

    _NOTATION = re.compile(r"^[XxOo.]{9}$")

    def parse(self, text: str) -> Board:
        cells = text.replace("/", "").replace(" ", "")
        if not self._NOTATION.match(cells):
            raise self.invalid(text, "expected 9 cells of X, O or .")
        board = tuple(cells.upper())
        x, o = board.count("X"), board.count("O")
        if x - o not in (0, 1):
            raise self.invalid(text, f"X has {x} marks and O has {o}; X moves first, so X has as many as O or one more")
        winner = _winner(board)
        lines = {board[a] for a, b, c in LINES if board[a] != "." and board[a] == board[b] == board[c]}
        if len(lines) > 1 or (winner == "X" and x == o) or (winner == "O" and x != o):
            raise self.invalid(text, "play would have stopped at an earlier win")
        return board

    def fields(self, board: Board) -> dict[str, object]:
        return {"board": self.format(board)}
