"""What `gamegraph cgt` and the UI's sum builder say about positions and their sum.

A component is one game's board. For each: its canonical value, outcome class,
kind, and each side's best moves with their values: the moves that win for that side
moving first when any does, sensible ones (neither dominated nor reversible) first
(explorer.cgt.evaluate.best_options). For a sum of components:
its value, and the winning moves in the sum, which is where the theory pays:
Left wins moving first exactly by moving to a sum that is >= 0, Right to one
that is <= 0, and such a move is found component by component from values alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable

from explorer.cgt.evaluate import (Option, best_options, board_values, canonical_board, is_sensible, options,
                                   supports_cgt, wins_for)
from explorer.cgt.forms import ZERO, CGValue
from explorer.cgt.simple import kind
from explorer.core.errors import InvalidPosition, UnknownGame

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


def _move_record(component: Component, option: Option, values: dict) -> dict[str, Any]:
    after = values[option.board]
    return {"move": option.label, "position": component.game.format_board(option.board),
            "value": str(after), "ascii": after.ascii()}


def describe_value(v: CGValue) -> dict[str, str]:
    return {"value": str(v), "ascii": v.ascii(), "outcome": v.outcome,
            "outcome_text": OUTCOME_WORDS[v.outcome], "kind": kind(v)}


def describe(component: Component) -> dict[str, Any]:
    """Value, outcome, kind, every move's value and each side's best moves."""
    values = board_values(component.game, [component.board])
    record: dict[str, Any] = {"game": component.game.id, "position": component.text,
                              **describe_value(values[component.board])}
    whole = values[component.board]
    for side, name in enumerate(SIDE_NAMES):
        moves = options(component.game, component.board, side)
        after = [values[o.board] for o in moves]
        best = [o.board for o in best_options(component.game, component.board, values, side)]
        record[f"{name}_moves"] = [{**_move_record(component, o, values), "best": o.board in best,
                                    "wins": wins_for(after[i], side),
                                    "sensible": is_sensible(after, i, whole, side)}
                                   for i, o in enumerate(moves)]
        by_board = {o.board: m for o, m in zip(moves, record[f"{name}_moves"])}
        record[f"{name}_best"] = [by_board[b] for b in best]  # winning sensible moves first
    return record


def sum_report(components: list[Component]) -> dict[str, Any]:
    """The sum's value, and every winning first move in it for each side."""
    parts = [value(c) for c in components]
    total = ZERO
    for part in parts:
        total = total + part
    record: dict[str, Any] = {"components": [c.text for c in components], **describe_value(total)}
    for side, name in enumerate(SIDE_NAMES):
        winning = []
        for index, (component, part) in enumerate(zip(components, parts)):
            rest = total - part
            values = board_values(component.game, [component.board])
            for option in options(component.game, component.board, side):
                after = rest + values[option.board]
                if (after >= ZERO) if side == 0 else (after <= ZERO):
                    winning.append({"component": index + 1, **_move_record(component, option, values),
                                    "sum_after": str(after), "sum_after_ascii": after.ascii()})
        record[f"{name}_wins_by"] = winning
    return record
