"""Canonical values of every position of a partizan game, computed bottom-up.

A game opts in by offering, besides its ordinary rules:
- ``cgt_board(position)``: the position without the side to move (a partizan
  game's value does not depend on who moves next);
- ``cgt_options(board, side)``: the boards that Left (side 0) or Right (side 1)
  can move to;
- ``parse_board(text)``: a board from its notation.
Short games only: play must end whoever moves, so the boards form a DAG.
Impartial games fit too (both sides have the same options), which is how Nim
heaps become nimbers.

Complexity: one canonicalisation per distinct board, each over that board's
options (see explorer.cgt.forms), with every comparison memoised.
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable

from explorer.cgt.forms import CGValue, game
from explorer.errors import GameGraphError


class NotShort(GameGraphError):
    """A game whose boards can repeat: it has no canonical short value."""


def supports_cgt(game_obj: Any) -> bool:
    return all(hasattr(game_obj, name) for name in ("cgt_board", "cgt_options", "parse_board"))


def board_values(game_obj: Any, boards: Iterable[Hashable]) -> dict[Hashable, CGValue]:
    """The canonical value of each board and of every board reachable from it.

    Iterative depth-first search, so a long game does not exhaust the stack; a
    board met again while still open means a cycle, which short games lack."""
    values: dict[Hashable, CGValue] = {}
    for root in boards:
        if root in values:
            continue
        open_boards: set[Hashable] = {root}
        stack: list[tuple[Hashable, list[Hashable], list[Hashable]]] = [
            (root, game_obj.cgt_options(root, 0), game_obj.cgt_options(root, 1))]
        while stack:
            board, left, right = stack[-1]
            pending = next((b for b in (*left, *right) if b not in values), None)
            if pending is None:
                stack.pop()
                open_boards.discard(board)
                values[board] = game((values[b] for b in left), (values[b] for b in right))
                continue
            if pending in open_boards:
                raise NotShort(f"{getattr(game_obj, 'name', 'this game')} is loopy: "
                               f"board {pending!r} can recur, so it has no short value")
            open_boards.add(pending)
            stack.append((pending, game_obj.cgt_options(pending, 0), game_obj.cgt_options(pending, 1)))
    return values


def value_of(game_obj: Any, board: Hashable) -> CGValue:
    return board_values(game_obj, [board])[board]


def best_options(game_obj: Any, board: Hashable, values: dict[Hashable, CGValue]) -> dict[str, list[Hashable]]:
    """Left's and Right's best moves from a board: the options whose values are not
    dominated (Left prefers larger values, Right smaller); equal values all count."""
    best: dict[str, list[Hashable]] = {}
    for side, name in ((0, "left"), (1, "right")):
        options = list(dict.fromkeys(game_obj.cgt_options(board, side)))
        keep = []
        for option in options:
            mine = values[option]
            dominated = any(
                (values[other] > mine if side == 0 else values[other] < mine) for other in options)
            if not dominated:
                keep.append(option)
        best[name] = keep
    return best
