"""Shared machinery of the blocking games: slide a piece to the one empty point; a player who cannot move loses.

Mū tōrere and Pong Hau K'i are both played on a small graph of points with
one empty point: a move slides one of the mover's pieces along a line to the
empty point, some moves need an opponent's piece next to the moving piece
(Mū tōrere's rule for entering the centre), and the player to move with no
move has lost. A game module declares only its board (point names, lines,
symmetries as point permutations, how the notation groups the points) and its
move conditions; this module supplies the rules, the notation, the integer
encoding with vectorised moves, the ranking and the un-moves. Each game
declares what it offers (``offers``), all of it supplied here.

Positions are ``BoardPosition(to_move, cells)``: ``cells`` is a string with
one character per point, the first player's letter, the second player's
letter or ``.`` for empty. Notation: ``R|BB/./RR`` = the mover's letter, then
the cells in the game's reading order, groups separated by ``/``.

Integer code: the mover, then each point as a base-3 digit (0 empty, 1 first
player, 2 second player): ``code = to_move * 3**n + sum(digit[i] * 3**i)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, NamedTuple, Sequence

import numpy as np

from explorer.games.base import Game, Move, MoveBatch
from explorer.core.values import Value


class BoardPosition(NamedTuple):
    to_move: int
    cells: str


@dataclass(frozen=True)
class Slide:
    """A move template: a piece on `source` slides to `target` (which must be empty),
    allowed only if one of `needs_opponent` holds an opponent's piece (no condition when empty)."""

    source: int
    target: int
    needs_opponent: tuple[int, ...] = ()


class BlockingGame(Game[BoardPosition]):
    """A two-player game of sliding pieces into the empty point; no move = loss.

    Subclasses set `points` (short point names, used in move labels), `groups`
    (the notation's reading order: point indices grouped), `letters` (the two
    players' piece letters), `symmetries` (point permutations, identity first,
    new[i] = old[perm[i]]), and implement `slides()` and `start_cells()`.
    Generation is O(V + E) over templates: each position checks each template.
    """

    points: tuple[str, ...]
    groups: tuple[tuple[int, ...], ...]
    letters: tuple[str, str]
    symmetries: tuple[tuple[int, ...], ...]

    # -- the board, declared by each game -------------------------------------
    def slides(self) -> Sequence[Slide]:
        raise NotImplementedError

    def start_cells(self) -> str:
        raise NotImplementedError

    @property
    def n(self) -> int:
        return len(self.points)

    def _templates(self) -> tuple[Slide, ...]:
        cached = self.__dict__.get("_slides")
        if cached is None:
            cached = self.__dict__["_slides"] = tuple(self.slides())
        return cached

    # -- rules ------------------------------------------------------------------
    def start(self) -> BoardPosition:
        return BoardPosition(0, self.start_cells())

    def to_move(self, position: BoardPosition) -> int:
        return position.to_move

    def _legal(self, position: BoardPosition) -> list[Slide]:
        mine, theirs = self.letters[position.to_move], self.letters[1 - position.to_move]
        cells = position.cells
        return [s for s in self._templates()
                if cells[s.source] == mine and cells[s.target] == "."
                and (not s.needs_opponent or any(cells[p] == theirs for p in s.needs_opponent))]

    def outcome(self, position: BoardPosition) -> Value | None:
        return None if self._legal(position) else Value.LOSS

    def ending(self, position: BoardPosition) -> str | None:
        if self.outcome(position) is None:
            return None
        return f"{self.offers.player_names[position.to_move]} cannot move, and a player who cannot move loses"

    def label_of(self, slide: Slide) -> str:
        return f"{self.points[slide.source]}>{self.points[slide.target]}"

    def _after(self, position: BoardPosition, slide: Slide) -> BoardPosition:
        cells = list(position.cells)
        cells[slide.target], cells[slide.source] = cells[slide.source], "."
        return BoardPosition(1 - position.to_move, "".join(cells))

    def moves(self, position: BoardPosition) -> list[Move[BoardPosition]]:
        return [Move(self.label_of(s), self._after(position, s)) for s in self._legal(position)]

    def unmoves(self, position: BoardPosition) -> list[BoardPosition]:
        """Every position with a move to `position`: the previous mover's piece slides back. O(templates)."""
        mover = 1 - position.to_move
        result = []
        for s in self._templates():
            if position.cells[s.target] == self.letters[mover] and position.cells[s.source] == ".":
                cells = list(position.cells)
                cells[s.source], cells[s.target] = cells[s.target], "."
                before = BoardPosition(mover, "".join(cells))
                if s in self._legal(before) and before not in result:
                    result.append(before)
        return result

    def swap_players(self, position: BoardPosition) -> BoardPosition:
        """The same position with the players' colours exchanged (and so the mover): a symmetry of
        the rules, which treat both players alike; used by position-graph diagrams."""
        a, b = self.letters
        return BoardPosition(1 - position.to_move, position.cells.translate(str.maketrans({a: b, b: a})))

    def diagram_label(self, position: BoardPosition) -> str:
        """The board in a few lines (the notation's groups), for diagram nodes."""
        return "\\n".join(" ".join(position.cells[i] for i in group) for group in self.groups)  # DOT line breaks

    # -- size estimate (explorer/core/limits.py): the pieces never leave the board ------------
    def estimate_positions(self, symmetry: bool = True) -> int:
        """2 movers x the ways to place the start's pieces on the points: O(1). Symmetry
        only merges positions, so the bound holds for the reduced graph too."""
        from math import factorial

        cells = self.start().cells
        a, b = cells.count(self.letters[0]), cells.count(self.letters[1])
        return 2 * factorial(self.n) // (factorial(a) * factorial(b) * factorial(self.n - a - b))

    def estimate_moves(self, symmetry: bool = True) -> int:
        """At most one move per slide template from each position."""
        return self.estimate_positions(symmetry) * len(self._templates())

    def canonical(self, position: BoardPosition) -> BoardPosition:
        cells = position.cells
        return BoardPosition(position.to_move, min("".join(cells[p] for p in perm) for perm in self.symmetries))

    def has_symmetry(self) -> bool:
        return len(self.symmetries) > 1

    # -- notation ----------------------------------------------------------------
    @property
    def _reading_order(self) -> tuple[int, ...]:
        return tuple(i for group in self.groups for i in group)

    def format(self, position: BoardPosition) -> str:
        rows = "/".join("".join(position.cells[i] for i in group) for group in self.groups)
        return f"{self.letters[position.to_move]}|{rows}"

    def parse(self, text: str) -> BoardPosition:
        mover, sep, rows = (text or "").strip().partition("|")
        mover = mover.strip().upper()
        if not sep or mover not in self.letters:
            raise self.invalid(text, f"start with the mover's letter ({' or '.join(self.letters)}) and |")
        flat = rows.replace("/", "").replace(" ", "").upper()
        if len(flat) != self.n or set(flat) - {*self.letters, "."}:
            raise self.invalid(text, f"expected {self.n} points of {', '.join(self.letters)} or .")
        want = self.start_cells()
        for symbol in (*self.letters, "."):
            if flat.count(symbol) != want.count(symbol):
                raise self.invalid(text, f"the board holds {want.count(symbol)} of {symbol!r}, not {flat.count(symbol)}")
        cells = ["."] * self.n
        for i, symbol in zip(self._reading_order, flat):
            cells[i] = symbol
        return BoardPosition(self.letters.index(mover), "".join(cells))

    def fields(self, position: BoardPosition) -> dict[str, object]:
        return {"board": position.cells}

    def iter_positions(self) -> Iterator[BoardPosition]:
        """Every legal position (any arrangement of the pieces, either player to move)."""
        from itertools import permutations
        boards = sorted(set(permutations(self.start_cells())))
        for mover in (0, 1):
            for board in boards:
                yield BoardPosition(mover, "".join(board))

    # -- integer codes, ranking, vectorised moves -----------------------------------
    def code_space(self) -> int:
        return 2 * 3 ** self.n

    def _digit(self, symbol: str) -> int:
        return 0 if symbol == "." else 1 + self.letters.index(symbol)

    def encode(self, position: BoardPosition) -> int:
        code = 0
        for i in reversed(range(self.n)):
            code = code * 3 + self._digit(position.cells[i])
        return position.to_move * 3 ** self.n + code

    def decode(self, code: int) -> BoardPosition:
        mover, rest = divmod(int(code), 3 ** self.n)
        cells = []
        for _ in range(self.n):
            rest, digit = divmod(rest, 3)
            cells.append((".", *self.letters)[digit])
        return BoardPosition(mover, "".join(cells))

    # The codes are a perfect ranking of a superset of the positions (offers.ranking).
    def is_valid_code(self, code: int) -> bool:
        cells = self.decode(code).cells
        want = self.start_cells()
        return all(cells.count(s) == want.count(s) for s in (*self.letters, "."))

    def _digits(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(mover[N], digits[N, n]) of many codes."""
        codes = codes.astype(np.int64)
        mover, rest = np.divmod(codes, 3 ** self.n)
        powers = 3 ** np.arange(self.n, dtype=np.int64)
        return mover, (rest[:, None] // powers[None, :]) % 3

    def _join(self, mover: np.ndarray, digits: np.ndarray, symmetry: bool) -> np.ndarray:
        powers = 3 ** np.arange(self.n, dtype=np.int64)
        perms = self.symmetries if symmetry else self.symmetries[:1]
        # The canonical string is the least under the cell order '.' < letters; digits order
        # the same way only when the letters sort like their digits, so compare by symbol rank.
        rank = self._symbol_rank()
        best = None
        for perm in perms:
            permuted = digits[:, list(perm)]
            # Lexicographic order of strings = numeric order with the first point most significant.
            key = (rank[permuted] * (3 ** np.arange(self.n - 1, -1, -1, dtype=np.int64))).sum(axis=1)
            code = (permuted * powers).sum(axis=1)
            if best is None:
                best_key, best = key, code
            else:
                better = key < best_key
                best_key, best = np.where(better, key, best_key), np.where(better, code, best)
        return mover.astype(np.int64) * 3 ** self.n + best

    def _symbol_rank(self) -> np.ndarray:
        """Digit -> place of its symbol in string order ('.' sorts before letters)."""
        symbols = (".", *self.letters)
        order = sorted(symbols)
        return np.array([order.index(s) for s in symbols], dtype=np.int64)

    def _legal_mask(self, mover: np.ndarray, digits: np.ndarray, slide: Slide) -> np.ndarray:
        mine, theirs = mover + 1, 2 - mover
        ok = (digits[:, slide.source] == mine) & (digits[:, slide.target] == 0)
        if slide.needs_opponent:
            near = np.zeros(len(mover), dtype=bool)
            for p in slide.needs_opponent:
                near |= digits[:, p] == theirs
            ok &= near
        return ok

    def batch_moves(self, codes: np.ndarray, symmetry: bool) -> MoveBatch:
        """Moves of many positions, template by template (the order `moves` uses): O(N * templates)."""
        mover, digits = self._digits(codes)
        sources, targets, labels = [], [], []
        for t, slide in enumerate(self._templates()):
            rows = np.flatnonzero(self._legal_mask(mover, digits, slide))
            after = digits[rows].copy()
            after[:, slide.target] = after[:, slide.source]
            after[:, slide.source] = 0
            sources.append(rows)
            targets.append(self._join(1 - mover[rows], after, symmetry))
            labels.append(np.full(len(rows), t, dtype=np.int64))
        return MoveBatch(np.concatenate(sources), np.concatenate(targets), np.concatenate(labels))

    def batch_outcomes(self, codes: np.ndarray) -> np.ndarray:
        mover, digits = self._digits(codes)
        any_move = np.zeros(len(mover), dtype=bool)
        for slide in self._templates():
            any_move |= self._legal_mask(mover, digits, slide)
        return np.where(any_move, np.int8(-1), np.int8(Value.LOSS)).astype(np.int8)

    def batch_to_move(self, codes: np.ndarray) -> np.ndarray:
        return (np.asarray(codes, dtype=np.int64) // 3 ** self.n).astype(np.int8)

    def batch_label(self, label: int) -> str:
        return self.label_of(self._templates()[int(label)])


def rotations_and_reflections(ring: Sequence[int], fixed: Sequence[int], size: int) -> tuple[tuple[int, ...], ...]:
    """The dihedral symmetries of points `ring` (in cyclic order), with `fixed` points unmoved:
    permutations of range(size), identity first."""
    k = len(ring)
    perms = []
    for reflect in (False, True):
        for shift in range(k):
            perm = list(range(size))
            for i, point in enumerate(ring):
                j = (shift - i) % k if reflect else (i + shift) % k
                perm[point] = ring[j]
            perms.append(tuple(perm))
    for p in fixed:
        assert all(perm[p] == p for perm in perms)
    return tuple(dict.fromkeys(perms))
