"""Dodgem, Colin Vout's car game on an n x n board, as in Winning Ways.

Rules (Berlekamp, Conway and Guy, *Winning Ways for your Mathematical Plays*,
2nd ed., vol. 3, ch. 22, "Dodgem", with the table of every 3x3 position on
p. 686; Wikipedia's "Dodgem" page states the same rules): Blue ("Left", player
A, moves first) has n-1 cars on the left edge, above the bottom-left corner;
Red ("Right", player B) has n-1 cars on the bottom edge, right of it. A turn
moves one own car one square onto an empty square: Blue forward = right or
sideways = up/down, Red forward = up or sideways = left/right. A car on the far
edge (Blue: the right column, Red: the top row) may drive forward off the
board and is out of the game. The winner is the player who first has no legal
move on their turn, because all their cars have left or are blocked in (so a
player must always leave the opponent a move). GamesCrafters' page states
"a player loses if they have no legal moves" instead; we follow Winning Ways.

Published outcomes: 3x3 is a first-player win (Winning Ways, p. 686); David
desJardins showed in 1996 (rec.games.abstract, archived on David Eppstein's
"Dodgem" page, ics.uci.edu/~eppstein/cgt/dodgem.html, and cited by Wikipedia)
that 4x4 and 5x5 never end with perfect play: draws in this project's terms.

Notation: the player to move (``A`` = Blue, ``B`` = Red), ``|``, then the rows
from top to bottom separated by ``/``, one character per square: ``b`` a blue
car, ``r`` a red car, ``.`` empty. The 3x3 start is ``A|b../b../.rr``.
Squares are named like a chessboard (``a1`` = bottom-left); a move is written
``a2-b2`` or ``c2-off``.

Symmetry: no symmetry of the board keeps the players' roles (Blue drives right,
Red up, so neither mirror is one). Transposing the board while swapping the
colours and the player to move is one, but it changes who is to move, which the
notation and the graph's player labels keep; so there is no reduction.

Integer encoding: a perfect ranking (combinatorial number system) of every
board with at most n-1 cars of each colour, times the player to move. The
codes are the ranks, so the array path and the implicit mode share them:
5x5 has 240,060,402 indices, every one a legal position. The ranking is tier
first: (blue cars, red cars), then the mover, then the blue set, then the red
set among the free squares, so each tier by cars left is one range of indices
(`tiers`, solved by explorer/tiered/).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property
from math import comb
from typing import NamedTuple

from explorer.core.ranking import subset_rank, subset_unrank
from explorer.core.values import Value
from explorer.games.base import Game, Move, MoveBatch, Offers, Params, Tiers, param
from explorer.games.table import register
from explorer.games.square_board import SquareBoardNotation, cell_name

# The mover A = Blue (Left, moves first) or B = Red (Right); cars b and r on the squares.
NOTATION = SquareBoardNotation(movers="AB", pieces="br", names=("blue", "red"), noun="cars", unit="squares")
# (row step, column step) of each direction; index = the direction's label code.
BLUE_STEPS = ((0, 1), (1, 0), (-1, 0))   # right (forward), up, down
RED_STEPS = ((1, 0), (0, -1), (0, 1))    # up (forward), left, right
MAX_SIZE = 6


@dataclass(frozen=True)
class DodgemParams(Params):
    size: int = param(3, "the board is size x size; each player has size-1 cars", minimum=2, maximum=MAX_SIZE)


class DodgemPosition(NamedTuple):
    to_move: int
    blue: tuple[int, ...]  # sorted squares, square = row * size + column, row 0 at the bottom
    red: tuple[int, ...]


@register
class Dodgem(Game[DodgemPosition]):
    name = "dodgem"
    description = "Colin Vout's Dodgem (Winning Ways): drive your cars off the far edge; no move on your turn wins."
    Params = DodgemParams
    presets = {"3x3": dict(size=3), "4x4": dict(size=4), "5x5": dict(size=5)}
    NOTATION_HELP = "MOVER|rows top to bottom with b, r or ., e.g. {example} (A = Blue, who moves first; B = Red)"
    notation_help = NOTATION_HELP.format(example="A|b../b../.rr")  # the 3x3 board's start
    offers = Offers(arrays=True, compiled_moves=False, ranking=True, unmoves=True, implicit_kernels=True,
                    symmetry=False, cgt=None, board="dodgem", player_names=("Blue", "Red"),
                    swap_players=False, diagram_label=False, tiers=True, named_cells=True)

    # 2: tier first (cars, then mover, then the two sets); before, the mover came first. The value files,
    # tier files and cached graphs of version 1 are other files (Game.stored_id), never read as these.
    ranking_version = 2

    def __init__(self, params: DodgemParams | None = None, preset: str | None = None):
        super().__init__(params, preset)
        self.notation_help = self.NOTATION_HELP.format(example=self.format(self.start()))  # an example of this board

    @property
    def n(self) -> int:
        return self.params.size

    # -- size estimate (explorer/core/limits.py): the ranking counts every position ------------
    def estimate_positions(self, symmetry: bool = True) -> int:
        return self.code_space()

    def estimate_moves(self, symmetry: bool = True) -> int:
        """Each of the mover's n-1 cars has at most three steps."""
        return self.code_space() * 3 * (self.n - 1)

    # -- rules ------------------------------------------------------------------
    def start(self) -> DodgemPosition:
        n = self.n
        return DodgemPosition(0, tuple(row * n for row in range(1, n)), tuple(range(1, n)))

    def to_move(self, position: DodgemPosition) -> int:
        return position.to_move

    def outcome(self, position: DodgemPosition) -> Value | None:
        return None if self._can_move(position) else Value.WIN

    def _can_move(self, position: DodgemPosition) -> bool:
        """Whether `moves` lists any move (one a step to a free square or off the board), without making
        them: building every move and its label to count them was half of a walk over the graph."""
        mover = position.to_move
        occupied = set(position.blue) | set(position.red)
        table = self._step_table[mover]
        return any(target not in occupied for square in (position.blue, position.red)[mover]
                   for target, _ in table[square])

    def ending(self, position: DodgemPosition) -> str | None:
        if self._can_move(position):
            return None
        mover = self.offers.player_names[position.to_move]
        cars = (position.blue, position.red)[position.to_move]
        if not cars:
            return f"all of {mover}'s cars have left the board, so {mover} has no move and wins"
        return f"{mover}'s cars are blocked, so {mover} has no move and wins (a player must leave the other a move)"

    @cached_property
    def _step_table(self) -> tuple[tuple[tuple[tuple[int, str], ...], ...], ...]:
        """[mover][square]: (target square or -1 for off the board, the move's label) of each step a car there
        may try, made once a game: `moves` and `outcome` read it (building them anew a call, with the labels'
        cell names, was half of a walk over the rules: check-game on dodgem:4x4)."""
        n = self.n
        return tuple(tuple(tuple((target, f"{cell_name(square, n)}-{cell_name(target, n) if target >= 0 else 'off'}")
                                 for _, target in self._steps(mover, square))
                           for square in range(n * n)) for mover in (0, 1))

    def _steps(self, mover: int, square: int):
        """(direction code, target square or -1 for off the board) of each step a car may try."""
        n = self.n
        row, col = divmod(square, n)
        for code, (dr, dc) in enumerate(BLUE_STEPS if mover == 0 else RED_STEPS):
            r, c = row + dr, col + dc
            if code == 0 and (c == n or r == n):
                yield code, -1
            elif 0 <= r < n and 0 <= c < n:
                yield code, r * n + c

    def moves(self, position: DodgemPosition) -> list[Move[DodgemPosition]]:
        mover = position.to_move
        cars = (position.blue, position.red)
        occupied = set(position.blue) | set(position.red)
        table = self._step_table[mover]
        result = []
        for square in cars[mover]:
            for target, label in table[square]:
                if target in occupied:
                    continue
                mine = tuple(sorted([s for s in cars[mover] if s != square] + ([target] if target >= 0 else [])))
                new = (mine, cars[1]) if mover == 0 else (cars[0], mine)
                result.append(Move(label, DodgemPosition(1 - mover, new[0], new[1])))
        return result

    def unmoves(self, position: DodgemPosition) -> list[DodgemPosition]:
        """Every position with a move to this one: one of the previous mover's cars steps back
        (or drives back on from beyond its far edge). Each is a legal unfinished position,
        since the move it undoes is legal there. O(cars)."""
        n, mover = self.n, 1 - position.to_move
        cars = (position.blue, position.red)
        occupied = set(position.blue) | set(position.red)
        result = []

        def before(mine: list[int]) -> DodgemPosition:
            mine = tuple(sorted(mine))
            return DodgemPosition(mover, mine, cars[1]) if mover == 0 else DodgemPosition(mover, cars[0], mine)

        steps = BLUE_STEPS if mover == 0 else RED_STEPS
        for square in cars[mover]:
            row, col = divmod(square, n)
            for dr, dc in steps:
                r, c = row - dr, col - dc
                if 0 <= r < n and 0 <= c < n and r * n + c not in occupied:
                    result.append(before([s for s in cars[mover] if s != square] + [r * n + c]))
        if len(cars[mover]) < n - 1:  # a car may have driven off the far edge
            edge = [row * n + n - 1 for row in range(n)] if mover == 0 else [(n - 1) * n + col for col in range(n)]
            for square in edge:
                if square not in occupied:
                    result.append(before([*cars[mover], square]))
        return result

    # -- notation (explorer/games/square_board.py) --------------------------------------------
    def format(self, position: DodgemPosition) -> str:
        return NOTATION.format(self.n, position.to_move, (position.blue, position.red))

    def parse(self, text: str) -> DodgemPosition:
        n = self.n
        mover, (blue, red) = NOTATION.parse(self, text, n, most=n - 1, because=f"size={n}")
        return DodgemPosition(mover, blue, red)

    def fields(self, position: DodgemPosition) -> dict[str, object]:
        return {"blue": list(position.blue), "red": list(position.red)}

    # -- perfect ranking: codes, the implicit mode's index space, and its tiers ------------------
    @cached_property
    def tables(self) -> tuple[list[int], list[int]]:
        """The ranking's tables, shared with the compiled kernels' context: (tier offsets, n*n + 1 of
        them; boards per mover in each tier). Tier b*n + r holds the
        positions with b blue and r red cars: the prefix sums over (b, r), so a tier's children,
        (b-1, r) and (b, r-1), come before it."""
        n, cells = self.n, self.n * self.n
        offsets, halves = [0], []
        for b in range(n):
            for r in range(n):
                halves.append(comb(cells, b) * comb(cells - b, r))
                offsets.append(offsets[-1] + 2 * halves[-1])
        return offsets, halves

    def code_space(self) -> int:
        return self.tables[0][-1]

    def tiers(self) -> Tiers:
        """Tier b*n + r: b blue and r red cars on the board. A sideways or forward step keeps
        the cars, and a car driving off leaves one fewer of its colour: the children are
        (b-1, r) and (b, r-1). Steps stay inside every tier with a car in it, so none is declared
        loop-free (the retrograde loop solves each)."""
        n = self.n
        children = tuple(tuple(b * n + r - step for step, fewer in ((n, b), (1, r)) if fewer)
                         for b in range(n) for r in range(n))
        names = tuple(f"{b} blue, {r} red car{'s' if r != 1 else ''}" for b in range(n) for r in range(n))
        return Tiers(offsets=tuple(self.tables[0]), children=children, names=names)

    def encode(self, position: DodgemPosition) -> int:
        """Tier (blue cars, red cars), then mover, then the blue set and the red set among
        the squares blue leaves free (each a colex rank). O(n^2)."""
        offsets, halves = self.tables
        n, cells = self.n, self.n * self.n
        blue, red = position.blue, position.red
        tier = len(blue) * n + len(red)
        free = [s for s in range(cells) if s not in blue]
        red_rel = [free.index(s) for s in red]
        red_sets = comb(cells - len(blue), len(red))
        return (offsets[tier] + position.to_move * halves[tier] + subset_rank(blue) * red_sets
                + subset_rank(red_rel))

    def decode(self, index: int) -> DodgemPosition:
        offsets, halves = self.tables
        if not 0 <= index < offsets[-1]:
            raise self.invalid(str(index), f"index out of range(0, {offsets[-1]})")
        n, cells = self.n, self.n * self.n
        tier = bisect_right(offsets, index) - 1
        b, r = divmod(tier, n)
        mover, rest = divmod(index - offsets[tier], halves[tier])
        blue_rank, red_rank = divmod(rest, comb(cells - b, r))
        blue = subset_unrank(blue_rank, b)
        free = [s for s in range(cells) if s not in blue]
        red = tuple(free[i] for i in subset_unrank(red_rank, r))
        return DodgemPosition(mover, blue, red)

    def implicit_kernels(self):
        from explorer.games.dodgem.kernels import kernels
        return kernels(self)

    def batch_moves(self, codes, symmetry: bool) -> MoveBatch:
        return self.implicit_kernels().batch_moves(codes)

    def batch_outcomes(self, codes):
        return self.implicit_kernels().batch_terminal(codes)

    def batch_to_move(self, codes):
        import numpy as np
        offsets, halves = (np.asarray(table, dtype=np.int64) for table in self.tables)
        codes = np.asarray(codes, dtype=np.int64)
        tier = np.searchsorted(offsets, codes, side="right") - 1
        return (codes - offsets[tier] >= halves[tier]).astype(np.int8)

    def batch_label(self, label: int) -> str:
        square, target = divmod(int(label), 64)
        return f"{cell_name(square, self.n)}-{cell_name(target, self.n) if target < 63 else 'off'}"


