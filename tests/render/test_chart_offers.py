"""The strategy chart and the survey heatmap are declared in a game's offers (explorer/games/base.py:
StrategyChart, Survey), and read from there: a game from outside the package offers them like Chopsticks."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from explorer.core.errors import GameGraphError, InvalidParameter
from explorer.core.values import Value
from explorer.games import Game, Move, Params, param, parse_spec
from explorer.games.base import GENERIC, StrategyChart, Survey
from explorer.render.chart import as_records, as_text, chart_refusal, strategy_chart


@dataclass(frozen=True)
class DuelParams(Params):
    size: int = param(3, "a side holds 1..size-1 tokens", minimum=2, maximum=9)


class Duel(Game):
    """Each player holds a pile; the mover takes 1 or 2 from the opponent's pile, and a player whose
    pile is empty has lost. Unregistered: a plug-in's class, built directly."""

    name = "duel-chart-test"
    description = "take from the opponent's pile; an empty pile loses"
    Params = DuelParams
    offers = GENERIC.__class__(**{**GENERIC.__dict__, "chart": StrategyChart(size="size", page_maximum=4, sides="piles"),
                                  "survey": Survey(axis="size", span=(2, 5), shown=(2, 4))})

    def start(self):
        return (0, ((self.params.size - 1,), (self.params.size - 1,)))

    def to_move(self, p):
        return p[0]

    def outcome(self, p):
        return Value.LOSS if p[1][p[0]] == (0,) else None

    def moves(self, p):
        mover, piles = p
        theirs = piles[1 - mover][0]
        result = []
        for k in (1, 2):
            if k <= theirs:
                after = list(piles)
                after[1 - mover] = (theirs - k,)
                result.append(Move(f"-{k}", (1 - mover, tuple(after))))
        return result

    def format(self, p):
        return f"{'AB'[p[0]]}|{p[1][0][0]}|{p[1][1][0]}"

    def parse(self, text):
        mover, a, b = text.split("|")
        return ("AB".index(mover), ((int(a),), (int(b),)))

    def iter_positions(self):
        for mover in (0, 1):
            for a in range(1, self.params.size):
                for b in range(1, self.params.size):
                    yield (mover, ((a,), (b,)))

    def chart_sides(self, p):
        return p[1][p[0]], p[1][1 - p[0]]

    def chart_position(self, mover, mine, theirs):
        return (mover, (mine, theirs) if mover == 0 else (theirs, mine))


def _wins(mine: int, theirs: int) -> tuple[bool, int]:
    """(whether the mover wins, moves to the end with best play): plain minimax over the two piles."""
    if mine == 0:
        return False, 0
    results = [_wins(theirs - k, mine) for k in (1, 2) if k <= theirs]
    lost = [r for won, r in results if not won]
    if lost:
        return True, min(lost) + 1
    return False, max(r for _, r in results) + 1


def test_a_plugin_game_that_declares_a_chart_gets_one():
    chart = strategy_chart(Duel(DuelParams(size=4)))
    assert chart.hands == [(1,), (2,), (3,)]
    for i, mine in enumerate(chart.hands):
        for j, theirs in enumerate(chart.hands):
            mark, label = chart.cells[i][j]
            won, remoteness = _wins(mine[0], theirs[0])
            assert Value.from_symbol(mark) == (Value.WIN if won else Value.LOSS), (mine, theirs)
            assert chart.remoteness[i][j] == remoteness, (mine, theirs)
            assert label in ("-1", "-2")
    assert chart.cells[0][1] == ("+", "-2")  # empty a pile of 2 at once
    records = as_records(chart)
    assert {r["mover"] for r in records} == {"1", "2", "3"} and len(records) == 9
    assert "rows = mover's piles" in as_text(chart)


def test_a_game_without_the_declaration_has_no_chart():
    game = parse_spec("tictactoe")
    assert chart_refusal(game) and "offers no strategy chart" in chart_refusal(game)
    with pytest.raises(InvalidParameter, match="offers no strategy chart"):
        strategy_chart(game)


def test_chopsticks_declares_its_chart_and_keeps_its_cells():
    game = parse_spec("chopsticks(fingers=3)")
    assert game.offers.chart is not None and game.offers.chart.size == "fingers"
    chart = strategy_chart(game)
    assert chart.hands == [(0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    # A mover with one finger facing a single live hand of 2 taps it dead and wins at once.
    i, j = chart.hands.index((0, 1)), chart.hands.index((0, 2))
    assert chart.cells[i][j][0] == "+" and chart.remoteness[i][j] == 1
    assert chart.short("transfer 1: 1-1") == ">1-1" and chart.short("L>R") == "L>R"
    assert ">a-b = split or transfer to a-b" in as_text(chart)


def test_a_chart_declaration_needs_its_hooks_and_a_whole_number_size():
    with pytest.raises(GameGraphError, match="no method chart_sides"):
        type("NoHooks", (Game,), {"name": "no-hooks", "Params": DuelParams, "iter_positions": lambda self: iter(()),
                                  "offers": Duel.offers})
    with pytest.raises(GameGraphError, match="not a whole-number parameter"):
        type("BadSize", (Duel,), {"offers": GENERIC.__class__(**{**Duel.offers.__dict__,
                                                                  "chart": StrategyChart(size="fingers", page_maximum=3)})})
    with pytest.raises(GameGraphError, match="survey over 'nope'"):
        type("BadSurvey", (Duel,), {"offers": GENERIC.__class__(**{**Duel.offers.__dict__,
                                                                    "survey": Survey("nope", (1, 2), (1, 2))})})


def test_survey_rules_names_a_rule_set_by_its_other_parameters():
    assert Duel().survey_rules(DuelParams(size=3)) == "duel-chart-test"  # no other parameter
    chopsticks = parse_spec("chopsticks:magic-fingers")
    assert chopsticks.survey_rules(chopsticks.params) == "cutoff · no tap dead · split transfer +suicide"
    nim = parse_spec("nim")
    assert "heaps=" in nim.survey_rules(nim.params)
