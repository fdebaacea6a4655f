"""Toads and Frogs on a strip, normal play (Winning Ways, ch. 1).

Toads (T, Left) move rightwards, frogs (F, Right) leftwards. A move slides one
of your creatures one cell into an empty cell, or jumps it over one creature of
the other side into the empty cell just beyond. Whoever cannot move loses.

Notation: ``T|TT..FF`` = the side to move (T for Toads, F for Frogs), then the
strip. The strip alone (``TT..FF``) is the combinatorial position whose
canonical value `gamegraph cgt` prints; as a partizan game its value does not
depend on who moves next.

The strip's mirror image with toads and frogs swapped is the same game with the
roles exchanged; it is not used for symmetry reduction because it would merge a
Toads-to-move position with a Frogs-to-move one, whose combinatorial values are
negatives of each other.
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

SIDES = "TF"            # player 0 = Toads = Left, player 1 = Frogs = Right
CELL_DIGIT = {".": 0, "T": 1, "F": 2}
MAX_CELLS = 40
MAX_POSITION_TEXT = 200  # characters of a position's notation read at most (MAX_CELLS cells, a side, spaces)
MAX_ARRAY_CELLS = 13    # 2 * 3**13 codes = 3.2M: the dense code space stays small


@dataclass(frozen=True)
class ToadsAndFrogsParams(Params):
    board: str = param("TT..FF", "the starting strip: T (toad), F (frog) or . (empty) per cell")
    first: str = param("toads", "who moves first", choices=("toads", "frogs"))

    def validate(self) -> None:
        if not 1 <= len(self.board) <= MAX_CELLS:
            raise InvalidParameter(f"board={self.board!r} must have 1 to {MAX_CELLS} cells")
        bad = set(self.board) - set(CELL_DIGIT)
        if bad:
            raise InvalidParameter(f"board={self.board!r} may hold only T, F and '.', not {''.join(sorted(bad))!r}")


class Strip(NamedTuple):
    to_move: int
    cells: str


def strip_options(cells: str, side: int) -> list[tuple[str, str]]:
    """(label, resulting strip) for every move of `side` (0 Toads, 1 Frogs) on a strip."""
    mine, theirs, step = ("T", "F", 1) if side == 0 else ("F", "T", -1)
    found = []
    for i, cell in enumerate(cells):
        if cell != mine:
            continue
        j = i + step
        if 0 <= j < len(cells) and cells[j] == ".":
            target = j
        elif 0 <= j + step < len(cells) and cells[j] == theirs and cells[j + step] == ".":
            target = j + step
        else:
            continue
        moved = list(cells)
        moved[i], moved[target] = ".", mine
        found.append((f"{mine} {i + 1}→{target + 1}", "".join(moved)))
    return found


@register
class ToadsAndFrogs(Game[Strip]):
    name = "toads-and-frogs"
    description = "Toads slide or jump right, frogs left; whoever cannot move loses (partizan, normal play)."
    Params = ToadsAndFrogsParams
    presets = {"default": {}, "winning-ways": dict(board="TTT..FFF"), "small": dict(board="T..F")}
    offers = Offers(arrays=True, compiled_moves=False, ranking=False, unmoves=False, implicit_kernels=False,
                    symmetry=False, cgt=CgtValues(impartial=False), board="toads_and_frogs",
                    player_names=("Toads", "Frogs"), swap_players=False, diagram_label=False)
    NOTATION_HELP = "SIDE|STRIP: T or F to move, then T, F or . per cell, e.g. {example}"
    notation_help = NOTATION_HELP.format(example="T|TT..FF")  # the default strip's start

    def __init__(self, params: ToadsAndFrogsParams | None = None, preset: str | None = None):
        super().__init__(params, preset)
        self.notation_help = self.NOTATION_HELP.format(example=self.format(self.start()))  # an example of this strip

    # -- rules -----------------------------------------------------------------
    def start(self) -> Strip:
        return Strip(0 if self.params.first == "toads" else 1, self.params.board)

    def to_move(self, position: Strip) -> int:
        return position.to_move

    def outcome(self, position: Strip) -> Value | None:
        return None if strip_options(position.cells, position.to_move) else Value.LOSS

    def ending(self, position: Strip) -> str | None:
        if self.outcome(position) is None:
            return None
        return f"{self.offers.player_names[position.to_move]} cannot move, and a player who cannot move loses"

    def moves(self, position: Strip) -> list[Move[Strip]]:
        return [Move(label, Strip(1 - position.to_move, cells))
                for label, cells in strip_options(position.cells, position.to_move)]

    # -- size estimate (explorer/core/limits.py): creatures are never removed ----------------
    def estimate_positions(self, symmetry: bool = True) -> int:
        """2 movers x the arrangements of the start's toads and frogs on the strip: O(n)."""
        from math import factorial

        board = self.params.board
        t, f = board.count("T"), board.count("F")
        return 2 * factorial(len(board)) // (factorial(t) * factorial(f) * factorial(len(board) - t - f))

    def estimate_moves(self, symmetry: bool = True) -> int:
        """Each creature of the mover has at most one move (a slide or a jump)."""
        board = self.params.board
        return self.estimate_positions(symmetry) * max(board.count("T"), board.count("F"), 1)

    # -- combinatorial game theory (explorer.cgt.evaluate) ------------------------
    def cgt_board(self, position: Strip) -> str:
        return position.cells

    def cgt_position(self, board: str, side: int) -> Strip:
        return Strip(side, board)

    def format_board(self, board: str) -> str:
        return board

    def parse_board(self, text: str) -> str:
        cells = "".join((text or "").split())
        if not cells or set(cells) - set(CELL_DIGIT):
            raise self.invalid(text, "a strip is T, F and . only, e.g. TT..FF")
        if len(cells) > MAX_CELLS:  # the text whole: `invalid` shortens it and names its real length
            raise self.invalid(text, f"this strip has {len(cells):,} cells; a strip has at most {MAX_CELLS}")
        return cells

    # -- notation ----------------------------------------------------------------
    def format(self, position: Strip) -> str:
        return f"{SIDES[position.to_move]}|{position.cells}"

    _NOTATION = re.compile(r"^\s*([TtFf])\s*\|\s*([TF.]+)\s*$")

    def parse(self, text: str) -> Strip:
        if isinstance(text, str) and len(text) > MAX_POSITION_TEXT:  # never cut: a cut strip has the wrong length
            raise self.invalid(text, f"a position of this game has at most {MAX_POSITION_TEXT} characters")
        match = self._NOTATION.match(text if isinstance(text, str) else "")
        if not match:
            raise self.invalid(text, "malformed")
        cells = match[2]
        if len(cells) != len(self.params.board):
            raise self.invalid(text, f"this strip has {len(self.params.board)} cells, not {len(cells)}")
        for creature in "TF":
            if cells.count(creature) != self.params.board.count(creature):
                raise self.invalid(text, f"the strip holds {self.params.board.count(creature)} {creature}, "
                                         f"not {cells.count(creature)}")
        return Strip(SIDES.index(match[1].upper()), cells)

    def fields(self, position: Strip) -> dict[str, object]:
        from explorer.cgt.evaluate import cgt_fields

        return {"strip": position.cells, **cgt_fields(self, position)}

    # -- integer encoding: cell i is digit i in base 3, times 2, plus the mover ------
    def code_space(self) -> int | None:
        n = len(self.params.board)
        return 2 * 3 ** n if n <= MAX_ARRAY_CELLS else None

    def encode(self, position: Strip) -> int:
        board = sum(CELL_DIGIT[c] * 3 ** i for i, c in enumerate(position.cells))
        return 2 * board + position.to_move

    def decode(self, code: int) -> Strip:
        board, mover = divmod(int(code), 2)
        cells = []
        for _ in range(len(self.params.board)):
            board, digit = divmod(board, 3)
            cells.append(".TF"[digit])
        return Strip(mover, "".join(cells))

    def _digits(self, boards: np.ndarray) -> np.ndarray:
        import numpy as np

        n = len(self.params.board)
        return (boards[:, None] // (3 ** np.arange(n, dtype=np.int64))[None, :]) % 3

    def _batch(self, codes: np.ndarray):
        """(row, from cell, to cell) of every move of each code's mover."""
        import numpy as np

        codes = np.asarray(codes, dtype=np.int64)
        mover = codes % 2
        digits = self._digits(codes // 2)
        n = digits.shape[1]
        empty = np.zeros(0, dtype=np.int64)
        rows, froms, tos = [empty], [empty], [empty]
        for side, (mine, theirs, step) in enumerate(((1, 2, 1), (2, 1, -1))):
            for i in range(n):
                j, k = i + step, i + 2 * step
                if not 0 <= j < n:
                    continue
                ok = (mover == side) & (digits[:, i] == mine)
                slide = ok & (digits[:, j] == 0)
                jump = ok & (digits[:, j] == theirs) & (digits[:, k] == 0) if 0 <= k < n else np.zeros_like(ok)
                for mask, target in ((slide, j), (jump, k)):
                    r = np.flatnonzero(mask)
                    rows.append(r)
                    froms.append(np.full(len(r), i, dtype=np.int64))
                    tos.append(np.full(len(r), target, dtype=np.int64))
        return np.concatenate(rows), np.concatenate(froms), np.concatenate(tos), codes

    def batch_moves(self, codes: np.ndarray, symmetry: bool) -> MoveBatch:
        import numpy as np

        rows, froms, tos, codes = self._batch(codes)
        mover = codes[rows] % 2
        creature = np.where(mover == 0, 1, 2)
        weight = 3 ** np.arange(len(self.params.board), dtype=np.int64)
        boards = codes[rows] // 2 - creature * weight[froms] + creature * weight[tos]
        order = np.lexsort((froms, rows))  # each source's moves in cell order, as `moves` lists them
        return MoveBatch(source=rows[order], target=(2 * boards + 1 - mover)[order],
                         label=(mover * 4096 + froms * 64 + tos)[order])

    def batch_outcomes(self, codes: np.ndarray) -> np.ndarray:
        import numpy as np

        rows, _, _, codes = self._batch(codes)
        out = np.full(len(codes), int(Value.LOSS), dtype=np.int8)
        out[rows] = -1
        return out

    def batch_to_move(self, codes: np.ndarray) -> np.ndarray:
        import numpy as np

        return (np.asarray(codes, dtype=np.int64) % 2).astype(np.int8)

    def batch_label(self, label: int) -> str:
        mover, rest = divmod(int(label), 4096)
        origin, target = divmod(rest, 64)
        return f"{SIDES[mover]} {origin + 1}→{target + 1}"
