"""The position record, a position's moves and the order they are shown in: one home for all three.

docs/model.md describes the record every backend and export holds for a
position: the model's fields (`POSITION_FIELDS`, in that order) followed by the
game's own fields (``Game.fields``). `position_record` builds it for the edge
mode (explorer.solved.SolvedGraph.record, hence the JSONL/CSV export of
explorer.export) and for the implicit mode (explorer.implicit.ValueFile.record,
which knows no cycles or draw levels and leaves those fields out); the
networkx mirror and Neo4j store the same fields column by column
(loaders.mirror.position_columns, which takes its names from here).

A position's moves are shown best first for the player to move (`move_order`):
optimal moves first, then by the value the move leaves the mover (win, tie,
draw, loss), then the fastest win or tie and the slowest loss; moves equal on
all three keep the game's order. `principal_line` follows the first of them
from a position. O(1) per record, O(m log m) to order m moves.

A line here is stored keys and stored labels; what people see plays it on one
board (explorer.games.base.Game.shown_line), so that with a symmetry reduction
each board is the one before it with the move named, in one orientation.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, Mapping, TypeVar

# The Position properties every game has, in the order docs/model.md lists them (after `game`).
POSITION_FIELDS = ("key", "to_move", "value", "remoteness", "terminal", "on_cycle", "scc",
                   "draw_class", "draw_level", "draw_remoteness")
# The draw-level fields (docs/analysis.md): draw_class on draws, level and remoteness on draw-wins and draw-loses.
DRAW_FIELDS = ("draw_class", "draw_level", "draw_remoteness")
# A move as shown and exported with its position: the successor's value and remoteness for the mover.
MOVE_FIELDS = ("label", "to", "value", "remoteness", "optimal")
# Values for the player who moves, best first.
MOVE_VALUE_RANK = {"win": 0, "tie": 1, "draw": 2, "loss": 3}


def position_record(key: str, to_move: int, value: Any, remoteness: int | None, terminal: bool,
                    cycle: tuple[bool, int] | None = None, draw: Mapping[str, Any] | None = None,
                    fields: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A position's record as plain JSON-ready values, fields in `POSITION_FIELDS` order.

    `cycle` is (on_cycle, scc) and `draw` the DRAW_FIELDS, when known (the
    implicit mode knows neither, and its records leave them out); the game's
    `fields` come last, as given.
    """
    record: dict[str, Any] = {"key": key, "to_move": int(to_move), "value": str(value), "remoteness": remoteness,
                              "terminal": bool(terminal)}
    if cycle is not None:
        record["on_cycle"], record["scc"] = bool(cycle[0]), int(cycle[1])
    if draw is not None:
        record.update((name, draw[name]) for name in DRAW_FIELDS)
    if fields:
        record.update(fields)
    return record


def move_record(label: str, to: str, value: Any, remoteness: int | None, optimal: bool) -> dict[str, Any]:
    """One move of a position: its label, the successor's key, and the successor's value for the
    mover (Value.for_previous_player) with its remoteness; `optimal` as the solver marked it."""
    return {"label": label, "to": to, "value": str(value), "remoteness": remoteness, "optimal": bool(optimal)}


def move_order(move: Mapping[str, Any]) -> tuple[bool, int, int]:
    """The sort key of a move record, best first: optimal moves, then win, tie, draw, loss for the
    mover, then the fastest win or tie and the slowest loss."""
    value = move["value"]
    return (not move["optimal"], MOVE_VALUE_RANK[value],
            (move["remoteness"] or 0) * (1 if value in ("win", "tie") else -1))


M = TypeVar("M")


def best_first(moves: Iterable[M], record: Callable[[M], Mapping[str, Any]] = lambda move: move) -> list[M]:
    """The moves in the `move_order` of their records (a stable sort: equal moves keep the game's
    order). `record` finds a move's record in what carries it, e.g. a (record, successor) pair."""
    return sorted(moves, key=lambda move: move_order(record(move)))


N = TypeVar("N", bound=Hashable)


def principal_line(start: N, best: Callable[[N], tuple[str, N] | None], limit: int) -> list[tuple[N, str | None]]:
    """The line from `start` that takes `best(position)` (a (label, next position) pair, None where
    play ends) each time: [(position, label of the move into it)], starting with (start, None).

    Stops where play ends, where a position repeats (a draw's cycle: the repeat is the last entry)
    or after `limit` moves. O(length) calls of `best`.
    """
    line: list[tuple[N, str | None]] = [(start, None)]
    seen = {start}
    while len(line) <= limit:
        step = best(line[-1][0])
        if step is None:
            break
        label, there = step
        line.append((there, label))
        if there in seen:
            break
        seen.add(there)
    return line
