"""Teeko, John Scarne's game of drops and king moves on a 5x5 board.

Rules (Guy L. Steele Jr., "Summary of the solving of the game of Teeko", Sun
Microsystems Laboratories, October 1999, pcarrier.com/teeko/archives/text/teeko-summary.txt,
after John Scarne, *Scarne on Teeko*, Crown, New York, 1955): Black and Red
have four pieces each; Black moves first. In the drop phase the players
alternately place one of their pieces on an empty cell until all eight are
down; then a turn moves one of your pieces one step, orthogonally or
diagonally (as a chess king), to an empty cell. A player wins by getting their
four pieces into a goal configuration:

- standard Teeko (44 goals): four in a row, horizontally, vertically or
  diagonally (28), or on the corners of a 2x2 square (16);
- advanced Teeko (58 goals): also the corners of any larger square, 3x3, 4x4
  and 5x5 (9 + 4 + 1 more; Edward Jackman's 1995 rules summary draws them,
  ftp.lanet.lv/ftp/mirror/x2ftp/msdos/programming/rules/teeko.txt). The
  squares are the board's own, sides along the rows and columns: 44 + 14 is
  Steele's 58 (tilted squares would add more).

Published results (Steele, above, abstract): standard Teeko is a draw;
advanced Teeko is a first-player win (in 13 turns, by the table on MathWorld's
"Teeko" page, mathworld.wolfram.com/Teeko.html), which becomes a draw if Black's first drop may not be the centre. This
module plays Scarne's rules as Steele solved them: the first drop is free.

Reduced instances for tests: `size` (3..5) and `pieces` (3 or 4) shrink the
game. With four pieces the goals are as above on a size x size board (lines of
four need size >= 4, which `validate` asks); with three pieces only three in a
row wins (a square has four corners), so both rule sets are one game there.
`teeko(size=3,pieces=3)` (preset small) is three in a row with drops and king
moves on 3x3. A player with no legal move loses: that needs the mover's pieces
walled in by the opponent's, which four pieces of each on 5x5 cannot do (see
the tests), but the rule keeps every reduced board well defined.

Notation: the player to move (``B`` = Black, ``R`` = Red), ``|``, then the rows
from top to bottom separated by ``/``, one character per cell: ``b`` black,
``r`` red, ``.`` empty. The start is ``B|...../...../...../...../.....``. Cells
are named like a chessboard (``a1`` bottom-left); a drop is written ``c3``, a
move ``c3-d4``.

Tiers (issue 21, GamesmanOne's split): tier k (k = 0 .. 2*pieces - 1) holds
the positions with k pieces dropped (the side to move is k's parity); tier
2*pieces is the movement phase, either side to move, where moves stay (it is
loopy). A drop leads from tier k to tier k + 1; the last drop into movement.

Ranking: the concatenation of the tiers' rankings. Within a tier, the colex rank
(combinatorial number system) of the black set among the cells, times the red
sets, plus the colex rank of the red set among the cells black leaves free;
the movement tier puts Black-to-move first. Positions where the player to move
already has a goal (or both players have one) are not legal: the game ended
when the goal was made. Where only the player who just moved has one, the
game is over and the player to move has lost.

Symmetry: the eight symmetries of the square keep the rules, but this game
does not reduce by them (offers.symmetry False): the implicit and tiered
solvers work over the whole ranking anyway.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property
from math import comb
from typing import NamedTuple

from explorer.core.errors import InvalidParameter
from explorer.core.ranking import subset_rank, subset_unrank
from explorer.core.values import Value
from explorer.games.base import Game, Move, MoveBatch, Offers, Params, Tiers, param
from explorer.games.table import register
from explorer.games.square_board import SquareBoardNotation, cell_name

NOTATION = SquareBoardNotation(movers="BR", pieces="br", names=("black", "red"))  # B = Black (first), R = Red
STEELE_SUMMARY = "https://pcarrier.com/teeko/archives/text/teeko-summary.txt"
DROP = 63  # a label's "from" part for a drop (labels are from * 64 + to)


@dataclass(frozen=True)
class TeekoParams(Params):
    rules: str = param("standard", "standard: four in a row or on a 2x2 square wins (44 goals); advanced: "
                       "also the corners of any larger square (58 goals)", choices=("standard", "advanced"))
    size: int = param(5, "the board is size x size (5 in Teeko; smaller boards are test-sized games)",
                      minimum=3, maximum=5)
    pieces: int = param(4, "pieces per player (4 in Teeko; with 3, only three in a row wins)", minimum=3, maximum=4)

    def validate(self) -> None:
        if self.pieces > self.size:
            raise InvalidParameter(f"pieces={self.pieces} is too many for size={self.size}: "
                                   f"a line of {self.pieces} does not fit on a {self.size}x{self.size} board")


class TeekoPosition(NamedTuple):
    to_move: int
    black: tuple[int, ...]  # sorted cells, cell = row * size + column, row 0 at the bottom
    red: tuple[int, ...]


def winning_shapes(size: int, pieces: int, rules: str) -> tuple[int, ...]:
    """The goal configurations as bit masks of cells: lines of `pieces`, then (four pieces
    only) the corners of the squares, 2x2 only or of every size (advanced). O(size^3)."""
    shapes = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for row in range(size):
            for col in range(size):
                cells = [(row + k * dr, col + k * dc) for k in range(pieces)]
                if all(0 <= r < size and 0 <= c < size for r, c in cells):
                    shapes.append(sum(1 << (r * size + c) for r, c in cells))
    if pieces == 4:
        for side in range(1, size if rules == "advanced" else 2):
            for row in range(size - side):
                for col in range(size - side):
                    corners = [(row, col), (row, col + side), (row + side, col), (row + side, col + side)]
                    shapes.append(sum(1 << (r * size + c) for r, c in corners))
    return tuple(shapes)


def neighbours(size: int) -> tuple[int, ...]:
    """Each cell's king-move neighbours, as bit masks."""
    masks = []
    for cell in range(size * size):
        row, col = divmod(cell, size)
        masks.append(sum(1 << (r * size + c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                         if 0 <= r < size and 0 <= c < size and (r, c) != (row, col)))
    return tuple(masks)


@register
class Teeko(Game[TeekoPosition]):
    name = "teeko"
    description = ("John Scarne's Teeko: drop four pieces each on a 5x5 board, then move them a king's step; "
                   "four in a row or on a square wins.")
    Params = TeekoParams
    presets = {"standard": dict(rules="standard"), "advanced": dict(rules="advanced"),
               "small": dict(size=3, pieces=3)}
    NOTATION_HELP = "MOVER|rows top to bottom with b, r or ., e.g. {example} (B = Black, who moves first; R = Red)"
    notation_help = NOTATION_HELP.format(example="R|...../...../..b../...../.....")  # the 5x5 board's
    DROP = DROP  # a label's "from" part for a drop, read by the kernels too
    offers = Offers(arrays=True, compiled_moves=False, ranking=True, unmoves=True, implicit_kernels=True,
                    symmetry=False, cgt=None, board="teeko", player_names=("Black", "Red"),
                    swap_players=False, diagram_label=True, tiers=True, named_cells=True)

    def __init__(self, params: TeekoParams | None = None, preset: str | None = None):
        super().__init__(params, preset)
        self.description = self.description_of(self.params)  # the page's header: this board, not only Scarne's
        # An error's example is a position of this board: Black's first piece in the centre, Red to move.
        centre = (self.n // 2) * self.n + self.n // 2
        self.notation_help = self.NOTATION_HELP.format(example=self.format(TeekoPosition(1, (centre,), ())))

    @staticmethod
    def description_of(params: TeekoParams) -> str:
        """The game these parameters make, in a sentence: a reduced board says its size and pieces."""
        count = {3: "three", 4: "four"}[params.pieces]
        goal = Teeko.goal_of(params)
        if (params.size, params.pieces) == (5, 4):
            rules = " (advanced rules)" if params.rules == "advanced" else ""
            return (f"John Scarne's Teeko{rules}: drop four pieces each on a 5x5 board, then move them a king's "
                    f"step; {goal} wins.")
        return (f"Teeko reduced to a {params.size}x{params.size} board and {count} pieces each (Scarne's game is "
                f"5x5 with four): drop them, then move them a king's step; {goal} wins.")

    @staticmethod
    def goal_of(params: TeekoParams) -> str:
        """What wins, in words: "four in a row or on a 2x2 square"."""
        count = {3: "three", 4: "four"}[params.pieces]
        goal = f"{count} in a row"
        if params.pieces == 4:
            goal += " or on the corners of any square" if params.rules == "advanced" else " or on a 2x2 square"
        return goal

    def ending(self, position: TeekoPosition) -> str | None:
        names = self.offers.player_names
        for player, cells in enumerate((position.black, position.red)):
            if self.won(cells):
                return f"{names[player]} has {self.goal_of(self.params)}"
        if not self._moves(position):
            return f"{names[position.to_move]} has no legal move, and a player who cannot move loses"
        return None

    @property
    def n(self) -> int:
        return self.params.size

    @property
    def cells(self) -> int:
        return self.params.size ** 2

    @property
    def pieces(self) -> int:
        return self.params.pieces

    @cached_property
    def shapes(self) -> frozenset[int]:
        return frozenset(winning_shapes(self.n, self.pieces, self.params.rules))

    @cached_property
    def neighbour_masks(self) -> tuple[int, ...]:
        """Each cell's king-move neighbours, as bit masks."""
        return neighbours(self.n)

    @staticmethod
    def survey_meaningful(params: TeekoParams) -> bool:
        """With three pieces there are no squares: the advanced rules are the standard ones."""
        return params.pieces == 4 or params.rules == "standard"

    # -- size estimate (explorer/core/limits.py): the ranking counts every position -------------
    def estimate_positions(self, symmetry: bool = True) -> int:
        return self.code_space()

    def estimate_moves(self, symmetry: bool = True) -> int:
        """A drop in tier k has cells - k choices; a move ends on one of the empty cells, each
        reached by at most min(8, pieces) of the mover's pieces (and at most 8 per piece)."""
        offsets, p, cells = self._offsets, self.pieces, self.cells
        drops = sum((offsets[k + 1] - offsets[k]) * (cells - k) for k in range(2 * p))
        per_position = min(8 * p, (cells - 2 * p) * min(8, p))
        return drops + (offsets[2 * p + 1] - offsets[2 * p]) * per_position

    # -- rules ------------------------------------------------------------------
    def start(self) -> TeekoPosition:
        return TeekoPosition(0, (), ())

    def to_move(self, position: TeekoPosition) -> int:
        return position.to_move

    def won(self, cells: tuple[int, ...]) -> bool:
        """Whether these cells (one player's pieces) form a goal configuration. O(pieces)."""
        return sum(1 << c for c in cells) in self.shapes

    def _over(self, position: TeekoPosition) -> bool:
        return self.won(position.black) or self.won(position.red)

    def outcome(self, position: TeekoPosition) -> Value | None:
        """Lost for the player to move when the other player has a goal (just made), or when
        the player to move has no legal move."""
        if self._over(position) or not self._moves(position):
            return Value.LOSS
        return None

    def moves(self, position: TeekoPosition) -> list[Move[TeekoPosition]]:
        return [] if self._over(position) else self._moves(position)

    def _after(self, mover: int, mine: list[int], position: TeekoPosition) -> TeekoPosition:
        mine = tuple(sorted(mine))
        if mover == 0:
            return TeekoPosition(1, mine, position.red)
        return TeekoPosition(0, position.black, mine)

    def _moves(self, position: TeekoPosition) -> list[Move[TeekoPosition]]:
        """Drops while the mover has pieces in hand, then king steps: in rank order of the
        dropped cell, or of the piece then its target."""
        mover = position.to_move
        mine = position.black if mover == 0 else position.red
        occupied = set(position.black) | set(position.red)
        result = []
        if len(mine) < self.pieces:
            for cell in range(self.cells):
                if cell not in occupied:
                    result.append(Move(cell_name(cell, self.n), self._after(mover, [*mine, cell], position)))
            return result
        for piece in mine:
            for target in self._cells_of(self.neighbour_masks[piece]):
                if target not in occupied:
                    rest = [c for c in mine if c != piece]
                    result.append(Move(f"{cell_name(piece, self.n)}-{cell_name(target, self.n)}",
                                       self._after(mover, [*rest, target], position)))
        return result

    @staticmethod
    def _cells_of(mask: int) -> list[int]:
        return [c for c in range(mask.bit_length()) if mask >> c & 1]

    def unmoves(self, position: TeekoPosition) -> list[TeekoPosition]:
        """Every position with a move to this one: the previous mover's last drop taken back, or
        one of their pieces stepped back, where the position before was not over (the previous
        mover had no goal there; the mover's pieces are the same, and this position is legal).
        In the movement phase with Black to move, Red's last drop is taken back too. O(pieces)."""
        previous = 1 - position.to_move
        theirs = position.black if previous == 0 else position.red
        occupied = set(position.black) | set(position.red)
        dropped = len(occupied)
        result = []

        def before(mover: int, mine: list[int]) -> None:
            mine_t = tuple(sorted(mine))
            if self.won(mine_t):
                return
            result.append(TeekoPosition(mover, mine_t, position.red) if mover == 0
                          else TeekoPosition(mover, position.black, mine_t))

        if dropped < 2 * self.pieces:
            for piece in theirs:
                before(previous, [c for c in theirs if c != piece])
            return result
        for piece in theirs:
            rest = [c for c in theirs if c != piece]
            for origin in self._cells_of(self.neighbour_masks[piece]):
                if origin not in occupied:
                    before(previous, [*rest, origin])
        if position.to_move == 0:  # Red's last drop began the movement phase
            for piece in position.red:
                before(1, [c for c in position.red if c != piece])
        return result

    # -- notation (explorer/games/square_board.py) --------------------------------------------
    def format(self, position: TeekoPosition) -> str:
        return NOTATION.format(self.n, position.to_move, (position.black, position.red))

    def parse(self, text: str) -> TeekoPosition:
        p = self.pieces
        mover, (black, red) = NOTATION.parse(self, text, self.n, most=p, because=f"pieces={p}")
        if len(black) - len(red) not in (0, 1):
            raise self.invalid(text, f"{len(black)} black and {len(red)} red pieces: the players drop in turn, "
                                     "Black first, so Black has as many as Red or one more")
        if len(black) + len(red) < 2 * p:
            expected = len(black) - len(red)  # Red drops after Black's extra piece
            if mover != expected:
                raise self.invalid(text, f"{('Black', 'Red')[expected]} is to move after {len(black)} black "
                                         f"and {len(red)} red drops")
        position = TeekoPosition(mover, black, red)
        if self.won(black) and self.won(red):
            raise self.invalid(text, "both players have a winning shape")
        if self.won(black if mover == 0 else red):
            raise self.invalid(text, f"{('Black', 'Red')[mover]} is to move but already has a winning shape "
                                     "(the game ended when it was made)")
        return position

    def fields(self, position: TeekoPosition) -> dict[str, object]:
        return {"black": list(position.black), "red": list(position.red),
                "phase": "movement" if len(position.black) + len(position.red) == 2 * self.pieces else "drop"}

    def diagram_label(self, position: TeekoPosition) -> str:
        """The board in a few lines, with the mover, for diagram nodes."""
        rows = self.format(position).split("|", 1)[1].split("/")
        return "\\n".join([f"{('Black', 'Red')[position.to_move]} to move", *rows])  # DOT line breaks

    # -- perfect ranking: the tiers' rankings end to end ------------------------------------
    @cached_property
    def _offsets(self) -> tuple[int, ...]:
        """Where each tier starts in the ranking, and its end: 2 * pieces + 2 numbers."""
        cells, p = self.cells, self.pieces
        sizes = [comb(cells, (k + 1) // 2) * comb(cells - (k + 1) // 2, k // 2) for k in range(2 * p)]
        sizes.append(2 * self._movement_half)
        offsets = [0]
        for size in sizes:
            offsets.append(offsets[-1] + size)
        return tuple(offsets)

    @cached_property
    def _movement_half(self) -> int:
        """Movement positions with one given side to move."""
        return comb(self.cells, self.pieces) * comb(self.cells - self.pieces, self.pieces)

    def tiers(self) -> Tiers:
        p = self.pieces
        names = tuple(f"{k} piece{'s' if k != 1 else ''} dropped" for k in range(2 * p)) + ("movement",)
        children = tuple((k + 1,) for k in range(2 * p)) + ((),)
        # Every drop adds a piece: the drop tiers are loop-free; steps stay in the movement tier.
        return Tiers(offsets=self._offsets, children=children, names=names, loop_free=(True,) * (2 * p) + (False,))

    def code_space(self) -> int:
        return self._offsets[-1]

    def encode(self, position: TeekoPosition) -> int:
        """The tier's start, the mover (movement tier only), the black set's colex rank times
        the red sets, the red set's colex rank among the free cells. O(cells)."""
        black, red = position.black, position.red
        tier = len(black) + len(red)
        free = [c for c in range(self.cells) if c not in black]
        red_relative = [free.index(c) for c in red]
        local = subset_rank(black) * comb(self.cells - len(black), len(red)) + subset_rank(red_relative)
        if tier == 2 * self.pieces:
            local += position.to_move * self._movement_half
        return self._offsets[tier] + local

    def decode(self, index: int) -> TeekoPosition:
        offsets, p = self._offsets, self.pieces
        if not 0 <= index < offsets[-1]:
            raise self.invalid(str(index), f"index out of range(0, {offsets[-1]})")
        tier = bisect_right(offsets, index) - 1
        local = index - offsets[tier]
        if tier == 2 * p:
            mover, local = divmod(local, self._movement_half)
            b = r = p
        else:
            mover, b, r = tier % 2, (tier + 1) // 2, tier // 2
        black_rank, red_rank = divmod(local, comb(self.cells - b, r))
        black = subset_unrank(black_rank, b)
        free = [c for c in range(self.cells) if c not in black]
        red = tuple(free[i] for i in subset_unrank(red_rank, r))
        return TeekoPosition(mover, black, red)

    def is_valid_code(self, code: int) -> bool:
        """False where the player to move already has a goal (the game ended before)."""
        position = self.decode(code)
        return not self.won(position.black if position.to_move == 0 else position.red)

    def implicit_kernels(self):
        from explorer.games.teeko.kernels import kernels
        return kernels(self)

    def batch_moves(self, codes, symmetry: bool) -> MoveBatch:
        return self.implicit_kernels().batch_moves(codes)

    def batch_outcomes(self, codes):
        return self.implicit_kernels().batch_terminal(codes)

    def batch_to_move(self, codes):
        import numpy as np

        codes = np.asarray(codes, dtype=np.int64)
        offsets, p = self._offsets, self.pieces
        tier = np.searchsorted(np.asarray(offsets[:-1], dtype=np.int64), codes, side="right") - 1
        movement = codes - offsets[2 * p] >= self._movement_half
        return np.where(tier == 2 * p, movement, tier % 2).astype(np.int8)

    def batch_label(self, label: int) -> str:
        origin, target = divmod(int(label), 64)
        name = cell_name(target, self.n)
        return name if origin == DROP else f"{cell_name(origin, self.n)}-{name}"


