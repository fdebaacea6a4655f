"""The value history (explorer/render/chart.py): GamesmanUni's visual value history as a Vega-Lite spec,
checked on games played against the solver, whose values are known."""

from __future__ import annotations

import random

from explorer.play import Match
from explorer.render.chart import HistoryPoint, history_rows, value_history
from explorer.solved import build

PLAYERS = ("A", "B")


def walk(spec: str, plies: int, seed: int, slip: float) -> tuple[list[HistoryPoint], list[bool]]:
    """A game on the solved graph: best moves, or a random one with probability `slip`; the points and,
    per ply, whether the mover's value dropped (from Match, the play module's own bookkeeping)."""
    solved = build(spec)
    match, rng = Match(solved), random.Random(seed)
    for _ in range(plies):
        if match.over:
            break
        moves = match.moves()
        label, target, _ = (rng.choice(moves) if rng.random() < slip
                            else next(m for m in moves if m[2]))
        match.play(label, target)
    points = []
    labels = [None, *(p.label for p in match.plies)]
    for row, label in zip(match.history(), labels):
        node = solved.graph.find(row["position"])
        record = solved.draw_record(node)
        points.append(HistoryPoint(row["ply"], row["to_move"], row["value"], row["remoteness"], row["position"],
                                   label, record["draw_level"], record["draw_class"]))
    return points, [False] + [p.slip for p in match.plies]


def test_points_sit_on_the_winners_side_by_remoteness_and_draws_in_the_middle():
    for spec, seed in (("tictactoe", 1), ("nim:small", 2), ("chopsticks:attack-only", 3), ("dodgem", 4)):
        points, _ = walk(spec, 30, seed, slip=0.5)
        rows = history_rows(points, PLAYERS)
        top = max([p.remoteness for p in points if p.remoteness is not None], default=0) + 1
        for point, row in zip(points, rows):
            for_a = row["value for A"]
            assert (for_a == point.value) == (point.to_move == 0) or point.value in ("tie", "draw")
            if for_a == "win":
                assert row["x"] == -(top - point.remoteness) < 0
            elif for_a == "loss":
                assert row["x"] == top - point.remoteness > 0
            else:
                assert row["x"] == 0
            assert row["value for B"] == {"win": "loss", "loss": "win"}.get(for_a, for_a)


def test_the_moves_that_changed_the_value_are_ringed_and_best_play_rings_none():
    points, _ = walk("tictactoe", 9, 0, slip=0.0)
    assert not any(row["changed"] for row in history_rows(points, PLAYERS))
    seen_change = False
    for seed in range(12):
        points, slips = walk("tictactoe", 9, seed, slip=0.7)
        rows = history_rows(points, PLAYERS)
        # A move changes the outcome exactly when its mover's value dropped (a slip): with a win, loss, tie
        # game the mover can only lose ground, and the other player cannot gain without a slip.
        assert [row["changed"] for row in rows] == slips
        seen_change |= any(slips)
    assert seen_change


def test_draws_carry_their_draw_level():
    points, _ = walk("chopsticks", 12, 5, slip=0.0)  # the start is a draw; best play keeps it
    rows = history_rows(points, PLAYERS)
    assert all(row["value for the mover"] == "draw" and row["x"] == 0 for row in rows)
    labelled = [row["draw level"] for row in rows if row["draw level"]]
    assert labelled and all(label.split()[-1] in ("draw-win", "draw-lose", "non-pure", "dead") for label in labelled)


def test_the_axis_labels_are_one_per_column_even_when_every_value_is_a_draw():
    points, _ = walk("chopsticks", 6, 5, slip=0.0)
    spec = value_history(points, PLAYERS)
    x = spec["layer"][2]["encoding"]["x"]
    assert x["axis"]["values"] == [-1, 0, 1]  # 0 (A wins now), D, 0 (B wins now): three distinct columns
    assert x["scale"]["domain"] == [-1.5, 1.5]
    assert spec["layer"][2]["encoding"]["y"]["axis"]["format"] == "d"  # whole plies only
    long, _ = walk("chopsticks:attack-only", 0, 0, slip=0.0)
    ticks = value_history(long, PLAYERS)["layer"][2]["encoding"]["x"]["axis"]["values"]
    assert len(ticks) <= 27 and 0 in ticks and ticks == sorted(set(ticks))


def test_the_spec_is_valid_vega_lite():
    import altair as alt

    points, _ = walk("nim:small", 10, 1, slip=0.3)
    alt.Chart.from_dict(value_history(points, PLAYERS))  # raises on a schema error


def test_the_axis_says_what_it_is_in_words():
    """The remoteness axis names its centre column and says whose side is whose: it used to read
    "0 · D · 0" in an all-draws game, which told a reader nothing."""
    points, _ = walk("chopsticks", 6, 5, slip=0.0)  # every position a draw
    x = value_history(points, PLAYERS)["layer"][2]["encoding"]["x"]
    expr = x["axis"]["labelExpr"]
    shown = {t: _label(expr, t) for t in x["axis"]["values"]}
    assert shown == {-1: "0", 0: "draw", 1: "0"}
    assert f"{PLAYERS[0]} wins" in x["title"] and f"{PLAYERS[1]} wins" in x["title"] and "remoteness" in x["title"]
    won, _ = walk("nim:small", 10, 1, slip=0.3)
    x = value_history(won, PLAYERS)["layer"][2]["encoding"]["x"]
    top = max(abs(t) for t in x["axis"]["values"])
    shown = {t: _label(x["axis"]["labelExpr"], t) for t in x["axis"]["values"]}
    assert shown[-top] == shown[top] == "0" and shown[0] in ("no winner", "tie", "draw", "tie/draw")
    assert all(shown[t] == str(top - abs(t)) for t in shown if t)


def _label(expr: str, value: int) -> str:
    """The label Vega would draw for tick `value`: the spec's chain of `datum.value == t ? 'text' :`."""
    import re

    for tick, text in re.findall(r"datum\.value == (-?\d+) \? '([^']*)'", expr):
        if int(tick) == value:
            return text
    return ""
