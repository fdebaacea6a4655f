"""Domineering (Göran Andersson, 1973; Winning Ways ch. 2), normal play.

Left (V, Vertical) places a domino on two empty cells one above the other,
Right (H, Horizontal) on two side by side. Whoever cannot place one loses.

Why this game for combinatorial values: it is the classic partizan game whose
positions split into independent regions, so its values add up exactly as
the theory says, and its small boards have published values (the 2×2 square
is ±1; a column of n cells is ⌊n/2⌋) and published outcome classes
(Lachmann, Moore and Rapaport, "Who wins Domineering on rectangular boards?",
MSRI Publ. 42, 2002; Drummond-Cole, INTEGERS 14, 2014).

Notation: ``V|..#/.../...`` = the side to move (V or H), then the rows top to
bottom, ``.`` empty and ``#`` covered. The board alone (``.../.../...``) is the
combinatorial position. Cells are named as on a chessboard, as in every game
whose moves name cells (explorer/games/square_board.py): files a, b, ... from
the left, ranks 1, 2, ... from the bottom, so ``a1`` is the bottom-left cell and
the notation's last row is rank 1. A move names its domino's two cells, the
lower or left one first: ``V a1-a2`` covers the two bottom cells of file a,
``H a1-b1`` the first two cells of the bottom rank. Reflections in the horizontal and vertical axes keep
every domino's orientation, so they are the symmetry reduction; a quarter turn
would swap the players and is not used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from explorer.core.errors import InvalidParameter
from explorer.games.base import CgtValues, Game, Move, MoveBatch, Offers, Params, param
from explorer.games.table import register
from explorer.core.values import Value

if TYPE_CHECKING:
    import numpy as np

SIDES = "VH"              # player 0 = Vertical = Left, player 1 = Horizontal = Right
MAX_CELLS = 30
MAX_ARRAY_CELLS = 20      # 2 * 2**20 codes: the dense code space stays small


@dataclass(frozen=True)
class DomineeringParams(Params):
    rows: int = param(3, f"board height (rows x cols at most {MAX_CELLS} cells)", minimum=1, maximum=8)
    cols: int = param(3, f"board width (rows x cols at most {MAX_CELLS} cells)", minimum=1, maximum=8)
    first: str = param("vertical", "who moves first", choices=("vertical", "horizontal"))

    def validate(self) -> None:
        if self.rows * self.cols > MAX_CELLS:
            raise InvalidParameter(f"rows={self.rows}, cols={self.cols}: a board of {self.rows * self.cols} cells "
                                   f"is too large to solve whole (at most {MAX_CELLS} cells)")


class Board(NamedTuple):
    to_move: int
    filled: int   # bit r*cols + c set when cell (r, c) is covered


def _cell(r: int, c: int, rows: int) -> str:
    """The name of the cell in row `r` from the top and column `c`: its file, then its rank from the bottom."""
    return f"{'abcdefgh'[c]}{rows - r}"


@register
class Domineering(Game[Board]):
    name = "domineering"
    description = "Vertical and Horizontal place dominoes; whoever cannot place one loses (partizan, normal play)."
    Params = DomineeringParams
    presets = {"default": {}, "2x2": dict(rows=2, cols=2), "4x4": dict(rows=4, cols=4)}
    offers = Offers(arrays=True, compiled_moves=False, ranking=False, unmoves=False, implicit_kernels=False,
                    symmetry=True, cgt=CgtValues(impartial=False), board="domineering",
                    player_names=("Vertical", "Horizontal"), swap_players=False, diagram_label=False, named_cells=True)
    NOTATION_HELP = "SIDE|ROWS: V or H to move, then rows of . (empty) and # (covered) separated by /, e.g. {example}"
    notation_help = NOTATION_HELP.format(example="H|#../#../...")  # the 3x3 board after Vertical's first domino

    def __init__(self, params: DomineeringParams | None = None, preset: str | None = None):
        super().__init__(params, preset)
        start = self.start()
        first = self.moves(start)  # one domino placed, when the board has room for one
        self.notation_help = self.NOTATION_HELP.format(example=self.format(first[0].position if first else start))

    @property
    def _n(self) -> int:
        return self.params.rows * self.params.cols

    # -- rules -------------------------------------------------------------------
    def start(self) -> Board:
        return Board(0 if self.params.first == "vertical" else 1, 0)

    def to_move(self, position: Board) -> int:
        return position.to_move

    def _placements(self, side: int) -> list[tuple[str, int]]:
        rows, cols = self.params.rows, self.params.cols
        found = []
        for r in range(rows - (1 if side == 0 else 0)):
            for c in range(cols - (1 if side == 1 else 0)):
                other = (r + 1, c) if side == 0 else (r, c + 1)
                mask = (1 << (r * cols + c)) | (1 << (other[0] * cols + other[1]))
                first, second = (other, (r, c)) if side == 0 else ((r, c), other)  # the lower or left cell first
                found.append((f"{SIDES[side]} {_cell(*first, rows)}-{_cell(*second, rows)}", mask))
        return found

    def outcome(self, position: Board) -> Value | None:
        free = position.filled
        return None if any(not free & mask for _, mask in self._placements(position.to_move)) else Value.LOSS

    def ending(self, position: Board) -> str | None:
        if self.outcome(position) is None:
            return None
        return f"{self.offers.player_names[position.to_move]} cannot move, and a player who cannot move loses"

    def moves(self, position: Board) -> list[Move[Board]]:
        return [Move(label, Board(1 - position.to_move, position.filled | mask))
                for label, mask in self._placements(position.to_move) if not position.filled & mask]

    def cgt_board(self, position: Board) -> int:
        return position.filled

    def cgt_position(self, board: int, side: int) -> Board:
        return Board(side, board)

    # -- size estimate (explorer/core/limits.py) ----------------------------------------------
    def estimate_positions(self, symmetry: bool = True) -> int:
        """2 movers x the sets of covered cells, which hold an even number of cells: O(1)."""
        return 2 * 2 ** (self._n - 1)

    def estimate_moves(self, symmetry: bool = True) -> int:
        """At most every placement of the side with more of them, from each position."""
        most = max(len(self._placements(0)), len(self._placements(1)), 1)
        return self.estimate_positions(symmetry) * most

    # -- symmetry: the two reflections that keep dominoes' orientation -------------
    def _reflections(self, filled: int) -> list[int]:
        rows, cols = self.params.rows, self.params.cols
        images = []
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                image = 0
                for r in range(rows):
                    for c in range(cols):
                        if filled >> (r * cols + c) & 1:
                            rr, cc = (rows - 1 - r if flip_rows else r), (cols - 1 - c if flip_cols else c)
                            image |= 1 << (rr * cols + cc)
                images.append(image)
        return images

    def canonical(self, position: Board) -> Board:
        return Board(position.to_move, min(self._reflections(position.filled)))

    # -- notation ------------------------------------------------------------------
    def format_board(self, filled: int) -> str:
        rows, cols = self.params.rows, self.params.cols
        return "/".join("".join("#" if filled >> (r * cols + c) & 1 else "." for c in range(cols)) for r in range(rows))

    def parse_board(self, text: str) -> int:
        compact = "".join((text or "")[:200].split()) if isinstance(text, str) else ""
        rows = compact.split("/")
        if (len(rows) != self.params.rows or any(len(row) != self.params.cols for row in rows)
                or set(compact) - set("./#")):
            raise self.invalid(text, f"expected {self.params.rows} rows of {self.params.cols} cells, each . or #")
        filled = 0
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if cell == "#":
                    filled |= 1 << (r * self.params.cols + c)
        if bin(filled).count("1") % 2:
            raise self.invalid(text, "dominoes cover cells in pairs: the number of # must be even")
        return filled

    def format(self, position: Board) -> str:
        return f"{SIDES[position.to_move]}|{self.format_board(position.filled)}"

    _NOTATION = re.compile(r"^\s*([VvHh])\s*\|(.*)$", re.S)

    def parse(self, text: str) -> Board:
        match = self._NOTATION.match(text[:300] if isinstance(text, str) else "")
        if not match:
            raise self.invalid(text, "malformed")
        return Board(SIDES.index(match[1].upper()), self.parse_board(match[2]))

    def fields(self, position: Board) -> dict[str, object]:
        from explorer.cgt.evaluate import cgt_fields

        return {"board": self.format_board(position.filled), **cgt_fields(self, position)}

    # -- integer encoding: the filled mask, times 2, plus the mover ------------------
    def code_space(self) -> int | None:
        return 2 << self._n if self._n <= MAX_ARRAY_CELLS else None

    def encode(self, position: Board) -> int:
        return 2 * position.filled + position.to_move

    def decode(self, code: int) -> Board:
        return Board(int(code) % 2, int(code) // 2)

    def _canonical_masks(self, filled: np.ndarray) -> np.ndarray:
        import numpy as np

        rows, cols = self.params.rows, self.params.cols
        best = filled.copy()
        for flip_rows, flip_cols in ((False, True), (True, False), (True, True)):
            image = np.zeros_like(filled)
            for r in range(rows):
                for c in range(cols):
                    rr, cc = (rows - 1 - r if flip_rows else r), (cols - 1 - c if flip_cols else c)
                    image |= ((filled >> (r * cols + c)) & 1) << (rr * cols + cc)
            np.minimum(best, image, out=best)
        return best

    def batch_moves(self, codes: np.ndarray, symmetry: bool) -> MoveBatch:
        import numpy as np

        codes = np.asarray(codes, dtype=np.int64)
        mover, filled = codes % 2, codes // 2
        sources, targets, labels = [], [], []
        for side in (0, 1):
            for index, (_, mask) in enumerate(self._placements(side)):
                rows = np.flatnonzero((mover == side) & ((filled & mask) == 0))
                sources.append(rows)
                targets.append(filled[rows] | mask)
                labels.append(np.full(len(rows), side * 1024 + index, dtype=np.int64))
        if not sources:  # a board too small for any domino (1x1): nobody ever moves
            sources = targets = labels = [np.empty(0, dtype=np.int64)]
        source, target, label = np.concatenate(sources), np.concatenate(targets), np.concatenate(labels)
        if symmetry:
            target = self._canonical_masks(target)
        order = np.argsort(source, kind="stable")  # each source's moves in placement order
        side = mover[source[order]]
        return MoveBatch(source=source[order], target=2 * target[order] + 1 - side, label=label[order])

    def batch_outcomes(self, codes: np.ndarray) -> np.ndarray:
        import numpy as np

        codes = np.asarray(codes, dtype=np.int64)
        mover, filled = codes % 2, codes // 2
        has_move = np.zeros(len(codes), dtype=bool)
        for side in (0, 1):
            for _, mask in self._placements(side):
                has_move |= (mover == side) & ((filled & mask) == 0)
        return np.where(has_move, -1, int(Value.LOSS)).astype(np.int8)

    def batch_to_move(self, codes: np.ndarray) -> np.ndarray:
        import numpy as np

        return (np.asarray(codes, dtype=np.int64) % 2).astype(np.int8)

    def batch_label(self, label: int) -> str:
        side, index = divmod(int(label), 1024)
        return self._placements(side)[index][0]
