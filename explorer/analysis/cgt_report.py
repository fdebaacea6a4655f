"""What `gamegraph cgt` and the UI's sum builder say about positions and their sum.

A component is one game's board. For each: its canonical value, outcome class,
kind, mean, temperature and thermograph, and each side's best moves with their
values: the moves that win for that side moving first when any does, sensible
ones (neither dominated nor reversible) first (explorer.cgt.evaluate.best_options).
For a sum of components: its value, and the winning moves in the sum, which is
where the theory pays: Left wins moving first exactly by moving to a sum that is
>= 0, Right to one that is <= 0, and such a move is found component by component
from values alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable

from explorer.cgt.evaluate import (best_moves, board_values, canonical_board, is_sensible, options, supports_cgt,
                                   wins_for)
from explorer.cgt.forms import ZERO, CGValue, subposition_count
from explorer.cgt.notation import MAX_WRITTEN, written_size
from explorer.cgt.simple import kind
from explorer.cgt.thermograph import thermograph
from explorer.core.errors import GraphTooLarge, InvalidPosition, UnknownGame

OUTCOME_WORDS = {
    "L": "Left wins, whoever starts",
    "R": "Right wins, whoever starts",
    "N": "the first player wins",
    "P": "the second player wins",
}
SIDE_NAMES = ("left", "right")


@dataclass(frozen=True)
class Component:
    game: Any
    board: Hashable

    @property
    def text(self) -> str:
        return self.game.format_board(self.board)


def require_cgt(game: Any) -> None:
    if not supports_cgt(game):
        raise UnknownGame(
            f"{game.name} has no combinatorial-game values: they exist for short partizan or impartial "
            "games that offer cgt_board/cgt_position (toads-and-frogs, domineering, nim)")


def parse_component(game: Any, text: str) -> Component:
    """A board in the game's board notation, or a full position (side to move ignored),
    or OTHER-SPEC::BOARD for a board of another game."""
    from explorer.games import parse_spec

    if not isinstance(text, str) or len(text) > 1000:
        raise InvalidPosition("a position must be text of at most 1,000 characters")
    if "::" in text:
        spec, _, board_text = text.partition("::")
        game = parse_spec(spec)
        text = board_text
    require_cgt(game)
    try:
        board = game.parse_board(text)
    except InvalidPosition as board_error:
        try:
            board = game.cgt_board(game.parse(text))
        except InvalidPosition:
            raise board_error from None
    return Component(game, canonical_board(game, board))


def value(component: Component) -> CGValue:
    return board_values(component.game, [component.board])[component.board]


def _move_record(label: str, position: str, after: CGValue) -> dict[str, Any]:
    return {"move": label, "position": position, "value": str(after), "ascii": after.ascii()}


def _moves(component: Component | CGValue, side: int) -> list[tuple[str, str, CGValue]]:
    """(label, position after, value after) of each move of `side`: a board's moves, or for a value
    written out, its canonical options (each named and placed by its value)."""
    if isinstance(component, CGValue):
        return [(f"to {v.ascii()}", str(v), v) for v in (component.left if side == 0 else component.right)]
    values = board_values(component.game, [component.board])
    return [(o.label, component.game.format_board(o.board), values[o.board])
            for o in options(component.game, component.board, side)]


def describe_value(v: CGValue) -> dict[str, Any]:
    """Value, outcome and kind, and the mean, temperature and thermograph (exact, as text such
    as '3/4'; explorer.cgt.thermograph)."""
    size = written_size(v, MAX_WRITTEN)
    if size > MAX_WRITTEN:
        raise GraphTooLarge(f"the value is too large to write out: its canonical form has more than {MAX_WRITTEN:,} "
                            "parts; analyse fewer or smaller positions")
    th = thermograph(v)
    return {"value": str(v), "ascii": v.ascii(), "outcome": v.outcome,
            "outcome_text": OUTCOME_WORDS[v.outcome], "kind": kind(v),
            "mean": str(th.mean), "temperature": str(th.temperature), "thermograph": th.as_dict()}


def _describe(component: Component | CGValue, whole: CGValue, head: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = {**head, **describe_value(whole)}
    for side, name in enumerate(SIDE_NAMES):
        moves = _moves(component, side)
        after = [v for _, _, v in moves]
        best = best_moves(after, whole, side)
        record[f"{name}_moves"] = [{**_move_record(*move), "best": i in best, "wins": wins_for(after[i], side),
                                    "sensible": is_sensible(after, i, whole, side)}
                                   for i, move in enumerate(moves)]
        record[f"{name}_best"] = [record[f"{name}_moves"][i] for i in best]  # winning sensible moves first
    return record


def describe(component: Component) -> dict[str, Any]:
    """Value, outcome, kind, mean, temperature, thermograph, every move's value and each side's
    best moves (explorer.cgt.evaluate.best_moves)."""
    return _describe(component, value(component), {"game": component.game.id, "position": component.text})


def describe_expression(v: CGValue) -> dict[str, Any]:
    """`describe` for a value written out (`gamegraph cgt --value`): its moves are its canonical options."""
    return _describe(v, v, {"game": "value", "position": v.ascii()})


MAX_SUM_WORK = 50_000  # pairs of subpositions one addition may visit: seconds of Python at most


def bounded_sum(a: CGValue, b: CGValue) -> CGValue:
    """a + b, refused (GraphTooLarge) from the sizes alone when it could visit more than MAX_SUM_WORK
    pairs of subpositions: a sum of a few hot values grows as the product of their sizes."""
    size_a = subposition_count(a, MAX_SUM_WORK)
    size_b = subposition_count(b, MAX_SUM_WORK)
    if size_a * size_b > MAX_SUM_WORK:
        raise GraphTooLarge(f"the sum is too large to analyse: adding a value of {size_b:,} subpositions to one of "
                            f"{size_a:,} may take {size_a * size_b:,} steps (at most {MAX_SUM_WORK:,}); "
                            "add fewer or smaller positions")
    return a + b


def total_value(components: list[Component], values: list[CGValue] = ()) -> CGValue:
    """The value of the components and values played side by side (bounded_sum, one part at a time)."""
    total = ZERO
    for part in [value(c) for c in components] + list(values):
        total = bounded_sum(total, part)
    return total


def sum_report(components: list[Component], values: list[CGValue] = ()) -> dict[str, Any]:
    """The sum's value, and every winning first move in it for each side. `values` are parts
    written out as values, after the components."""
    parts = [*components, *values]
    part_values = [value(c) for c in components] + list(values)
    total = total_value(components, values)
    record: dict[str, Any] = {"components": [c.text for c in components] + [v.ascii() for v in values],
                              **describe_value(total)}
    for side, name in enumerate(SIDE_NAMES):
        winning = []
        for index, (part, part_value) in enumerate(zip(parts, part_values)):
            rest = bounded_sum(total, -part_value)
            for label, position, after_part in _moves(part, side):
                after = bounded_sum(rest, after_part)
                if wins_for(after, side):
                    winning.append({"component": index + 1, **_move_record(label, position, after_part),
                                    "sum_after": str(after), "sum_after_ascii": after.ascii()})
        record[f"{name}_wins_by"] = winning
    return record
