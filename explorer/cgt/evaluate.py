"""Canonical values of every position of a partizan game, computed bottom-up.

A game opts in by declaring ``cgt`` in its offers (explorer.games.base.Offers,
a CgtValues) and writing four small hooks beside its ordinary rules:
- ``cgt_board(position)``: the position without the side to move (a partizan
  game's value does not depend on who moves next);
- ``cgt_position(board, side)``: the position with Left (side 0) or Right (1) to move;
- ``parse_board(text)`` and ``format_board(board)``: the board's notation.
Options come from the game's own ``moves``, reduced by its ``canonical`` form,
so the values cannot drift from the rules the solver uses. Short games only:
play must end whoever moves, so boards form a DAG. Impartial games fit too
(both sides have the same options), which is how Nim heaps become nimbers.

Complexity: one canonicalisation per distinct board, each over that board's
options (see explorer.cgt.forms), with every comparison memoised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable

from explorer.cgt.forms import CGValue, game
from explorer.core.errors import GameGraphError, GraphTooLarge

DEFAULT_MAX_BOARDS = 200_000


class NotShort(GameGraphError):
    """A game whose boards can repeat: it has no canonical short value."""


def supports_cgt(game_obj: Any) -> bool:
    """Whether the game declares combinatorial values (`offers.cgt`); its hooks are checked
    when its class is created."""
    return game_obj.offers.cgt is not None


@dataclass(frozen=True)
class Option:
    """A move of one side from a board: its label and the board it leads to."""

    label: str
    board: Hashable


def options(game_obj: Any, board: Hashable, side: int, symmetry: bool = True) -> list[Option]:
    """The moves of `side` from `board`, one per distinct resulting board (first label kept);
    with symmetry, boards are reduced by the game's canonical form."""
    position = game_obj.cgt_position(board, side)
    if game_obj.outcome(position) is not None:
        return []
    found: dict[Hashable, str] = {}
    for move in game_obj.moves(position):
        target = game_obj.canonical(move.position) if symmetry else move.position
        found.setdefault(game_obj.cgt_board(target), move.label)
    return [Option(label, target) for target, label in found.items()]


def canonical_board(game_obj: Any, board: Hashable, symmetry: bool = True) -> Hashable:
    if not symmetry:
        return board
    return game_obj.cgt_board(game_obj.canonical(game_obj.cgt_position(board, 0)))


def board_values(game_obj: Any, boards: Iterable[Hashable],
                 max_boards: int = DEFAULT_MAX_BOARDS, symmetry: bool = True,
                 values: dict[Hashable, CGValue] | None = None) -> dict[Hashable, CGValue]:
    """The canonical value of each board and of every board reachable from it, keyed
    by board (reduced by the game's symmetry unless symmetry=False).

    Iterative depth-first search, so a long game does not exhaust the stack; a
    board met again while still open means a cycle, which short games lack.
    `values`, when given, is a memo from earlier calls; it is extended in place."""
    values = {} if values is None else values
    name = game_obj.name

    def expand(board: Hashable) -> tuple[Hashable, list[Hashable], list[Hashable]]:
        if len(values) + len(open_boards) >= max_boards:
            raise GraphTooLarge(f"{name}: more than {max_boards:,} boards to evaluate; "
                                "combinatorial values are for small positions")
        open_boards.add(board)
        return (board, [o.board for o in options(game_obj, board, 0, symmetry)],
                [o.board for o in options(game_obj, board, 1, symmetry)])

    for root in boards:
        root = canonical_board(game_obj, root, symmetry)
        if root in values:
            continue
        open_boards: set[Hashable] = set()
        stack = [expand(root)]
        while stack:
            board, left, right = stack[-1]
            pending = next((b for b in (*left, *right) if b not in values), None)
            if pending is None:
                stack.pop()
                open_boards.discard(board)
                values[board] = game((values[b] for b in left), (values[b] for b in right))
            elif pending in open_boards:
                raise NotShort(f"{name} is loopy: board {game_obj.format_board(pending)!r} can recur, "
                               "so it has no short (loop-free) value")
            else:
                stack.append(expand(pending))
    return values


def value_of(game_obj: Any, board: Hashable, max_boards: int = DEFAULT_MAX_BOARDS,
             symmetry: bool = True) -> CGValue:
    board = canonical_board(game_obj, board, symmetry)
    return board_values(game_obj, [board], max_boards, symmetry)[board]


def wins_for(after: CGValue, side: int) -> bool:
    """Whether moving to `after` wins for `side` (0 Left, 1 Right), the other side moving next:
    for Left, after >= 0 (Right moving first from there loses); for Right, after <= 0."""
    from explorer.cgt.forms import ZERO

    return after >= ZERO if side == 0 else after <= ZERO


def is_sensible(values: list[CGValue], index: int, whole: CGValue, side: int) -> bool:
    """Whether the option values[index] of `whole` is sensible for `side`, in CGSuite's terms: it is
    neither dominated (no other option strictly better for that side: larger for Left, smaller for
    Right) nor reversible (no answer by the other side that is at least as good for it as `whole`:
    for a Left option G^L, no Right option G^LR <= G)."""
    mine = values[index]
    if any((v > mine) if side == 0 else (v < mine) for v in values):
        return False
    answers = mine.right if side == 0 else mine.left
    return not any((a <= whole) if side == 0 else (a >= whole) for a in answers)


def best_moves(after: list[CGValue], whole: CGValue, side: int) -> list[int]:
    """Which of the options `after` of `whole` are best for `side` (0 Left, 1 Right) moving first
    in this game alone, as indices, best first.

    When some move wins (for Left a move to G^L >= 0, for Right to G^R <= 0), the best moves are
    exactly the winning ones, sensible ones (neither dominated nor reversible, `is_sensible`)
    first. When none wins, every move loses and the best are those not dominated, sensible
    first. For G = * the only best move is to 0: *2 and *3 are undominated but lose."""
    winning = [i for i, v in enumerate(after) if wins_for(v, side)]
    if not winning:
        winning = [i for i, v in enumerate(after)
                   if not any((w > v) if side == 0 else (w < v) for w in after)]
    sensible = {i for i in winning if is_sensible(after, i, whole, side)}
    return sorted(winning, key=lambda i: i not in sensible)


def best_options(game_obj: Any, board: Hashable, values: dict[Hashable, CGValue], side: int) -> list[Option]:
    """The moves `side` should make from `board` playing first in this game alone, best first
    (`best_moves`)."""
    moves = options(game_obj, board, side)
    return [moves[i] for i in best_moves([values[m.board] for m in moves], values[board], side)]


def cgt_fields(game_obj: Any, position: Any) -> dict[str, Any]:
    """The `cgt` (canonical value, ASCII notation), `cgt_kind`, `mean` and `temperature`
    properties of a position, as loaded into Neo4j and the networkx mirror. Mean and
    temperature are floats, exact: they are dyadic rationals (explorer.cgt.thermograph),
    and those of a game small enough to load fit a double. Values are memoised on the
    game object, so labelling a whole graph costs one evaluation per board."""
    from explorer.cgt.simple import kind
    from explorer.cgt.thermograph import thermograph

    memo = game_obj.__dict__.setdefault("_cgt_values", {})
    board = canonical_board(game_obj, game_obj.cgt_board(position))
    value = memo.get(board)
    if value is None:
        value = board_values(game_obj, [board], values=memo)[board]
    th = thermograph(value)
    return {"cgt": value.ascii(), "cgt_kind": kind(value), "mean": float(th.mean),
            "temperature": float(th.temperature)}
