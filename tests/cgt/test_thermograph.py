"""Thermographs, means and temperatures against published values and a brute force.

The brute force knows only the definition of cooling (Siegel, *Combinatorial Game
Theory*, §II.5): G_t = {G^L_t − t | G^R_t + t}, except that an integer stays
itself and, from the least t at which G_t is infinitely close to a number x (its
temperature, found by search), G_t = x. It cools the raw game tree (every move,
never simplified, no symmetry) at each temperature of a grid and reads the walls
off as the stops of G_t; the engine computes whole walls once from canonical forms.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Hashable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.cgt import ZERO, game, number, parse_value
from explorer.cgt.evaluate import canonical_board, options, value_of
from explorer.cgt.simple import as_number, stops
from explorer.cgt.thermograph import mean, temperature, thermograph
from explorer.core.errors import GraphTooLarge
from explorer.games import parse_spec
from tests.cgt.test_forms import tree_of, trees
from tests.cgt.test_forms import value_of as tree_value

STEP = Fraction(1, 16)    # the grid the walls are compared on
FINEST = Fraction(1, 1 << 12)  # how finely the brute force looks for a temperature


class BruteCooling:
    """Cooling by the definition over a DAG given by `moves(node) -> (left nodes, right nodes)`."""

    def __init__(self, moves: Callable[[Hashable], tuple[tuple, tuple]], value: Callable[[Hashable], Any]):
        self.moves, self.value = moves, value
        self.cooled_memo: dict = {}
        self.mast_memo: dict = {}

    def raw(self, node: Hashable, t: Fraction):
        left, right = self.moves(node)
        return game([self.cooled(x, t) - number(t) for x in left], [self.cooled(x, t) + number(t) for x in right])

    @staticmethod
    def close_to_number(g) -> bool:
        left_stop, right_stop = stops(g)
        return left_stop == right_stop

    def mast(self, node: Hashable) -> tuple[Fraction, Fraction]:
        """(τ, x): the least t >= 0 (to FINEST) with G_t infinitely close to the number x."""
        found = self.mast_memo.get(node)
        if found is None:
            t = Fraction(0)
            while not self.close_to_number(self.raw(node, t)):
                t += 1
            low, high = t - 1, t  # not close at low (unless t = 0), close at high
            if t > 0:
                while high - low > FINEST:
                    middle = (low + high) / 2
                    low, high = (low, middle) if self.close_to_number(self.raw(node, middle)) else (middle, high)
            found = self.mast_memo[node] = (high, stops(self.raw(node, high))[0])
        return found

    def cooled(self, node: Hashable, t: Fraction):
        key = (node, t)
        found = self.cooled_memo.get(key)
        if found is None:
            x = as_number(self.value(node))
            if x is not None and x.denominator == 1:
                found = self.value(node)
            else:
                tau, x = self.mast(node)
                found = number(x) if t > tau else self.raw(node, t)
            self.cooled_memo[key] = found
        return found

    def walls(self, node: Hashable, t: Fraction) -> tuple[Fraction, Fraction]:
        return stops(self.cooled(node, t))


def check_against_brute(brute: BruteCooling, node: Hashable, value) -> None:
    th = thermograph(value)
    top = max(th.temperature, Fraction(0)) + 1
    t = Fraction(0)
    while t <= top:
        assert brute.walls(node, t) == (th.left_at(t), th.right_at(t)), (value, t)
        t += STEP
    tau, x = brute.mast(node)
    if th.temperature > 0:
        assert (tau, x) == (th.temperature, th.mean)
    else:  # numbers and infinitesimals: the walls meet at t <= 0 already
        assert tau == 0 and x == th.mean


# Hot games: options built over numbers, so that walls slope and cross (the trees above are mostly cold).
hot_trees = st.recursive(
    st.sampled_from([-2, -1, Fraction(-1, 2), 0, Fraction(1, 4), Fraction(1, 2), 1, 3]).map(
        lambda q: tree_of(number(q))),
    lambda children: st.tuples(st.lists(children, min_size=1, max_size=3).map(tuple),
                               st.lists(children, min_size=1, max_size=3).map(tuple)),
    max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(st.one_of(trees, hot_trees))
def test_thermograph_matches_cooling_by_definition_on_random_games(g):
    brute = BruteCooling(lambda node: node, tree_value)
    check_against_brute(brute, g, tree_value(g))


@pytest.mark.parametrize("spec,limit", [("domineering(rows=2,cols=3)", 60), ("domineering(rows=3,cols=3)", 40),
                                        ("toads-and-frogs(board=TT..FF)", 60), ("toads-and-frogs(board=TTT..FF)", 40)])
def test_thermograph_matches_cooling_by_definition_on_games(spec, limit):
    from explorer.cgt.evaluate import board_values

    game_obj = parse_spec(spec)
    start = game_obj.cgt_board(game_obj.start())
    values = board_values(game_obj, [start], symmetry=False)

    def moves(board):
        return tuple(tuple(o.board for o in options(game_obj, board, side, symmetry=False)) for side in (0, 1))

    brute = BruteCooling(moves, values.__getitem__)
    for board in sorted(values, key=repr)[:limit]:
        check_against_brute(brute, board, values[board])


@pytest.mark.parametrize("text,m,t", [
    ("0", 0, -1), ("3", 3, -1), ("-2", -2, -1), ("1/2", "1/2", "-1/2"), ("-3/8", "-3/8", "-1/8"),
    ("*", 0, 0), ("^", 0, 0), ("1/2^*", "1/2", 0), ("*5", 0, 0), ("{0|{0|-1}}", 0, 0),   # a tiny
    ("+-1", 0, 1), ("2+-1/2", 2, "1/2"), ("{2|-1/2}", "3/4", "5/4"), ("{3|{1|0}}", "7/4", "5/4"),
    ("{{2|1}|0}", "3/4", "3/4"), ("{1|{0|-1}}", "1/4", "3/4"),
    ("{{4|0},{3|2}|-5}", "-5/4", "15/4"),   # Left's two options are incomparable; {3|2}'s right wall is the higher
])
def test_means_and_temperatures_by_hand(text, m, t):
    """CGSuite's conventions for numbers (−1/2^k, integers −1) and infinitesimals (0), and games
    worked by hand: {3|{1|0}} has walls 3 − t and 1, then 1/2 + t, meeting at t = 5/4 over 7/4."""
    value = parse_value(text)
    assert (mean(value), temperature(value)) == (Fraction(m), Fraction(t))


def test_walls_of_a_worked_example():
    th = thermograph(parse_value("{3|{1|0}}"))
    assert th.left == ((0, 3), (Fraction(5, 4), Fraction(7, 4)))
    assert th.right == ((0, 1), (Fraction(1, 2), 1), (Fraction(5, 4), Fraction(7, 4)))
    assert th.left_at(Fraction(1, 4)) == Fraction(11, 4) and th.right_at(10) == Fraction(7, 4)


def test_winning_ways_domineering_rectangles():
    """Winning Ways ch. 2: the 2×2 square is ±1 (temperature 1), the 2×3 rectangle (Left the
    vertical player) {2 | −1/2}, mean 3/4 and temperature 5/4."""
    square = value_of(*_start("domineering(rows=2,cols=2)"))
    assert square is parse_value("+-1") and (mean(square), temperature(square)) == (0, 1)
    rectangle = value_of(*_start("domineering(rows=2,cols=3)"))
    assert rectangle is game([number(2)], [number(Fraction(-1, 2))])
    assert (mean(rectangle), temperature(rectangle)) == (Fraction(3, 4), Fraction(5, 4))


def _start(spec):
    game_obj = parse_spec(spec)
    return game_obj, canonical_board(game_obj, game_obj.cgt_board(game_obj.start()))


@settings(max_examples=150, deadline=None)
@given(hot_trees, st.one_of(trees, hot_trees), hot_trees)
def test_means_add_and_temperatures_do_not(g, h, k):
    """Mean is additive; the temperature of a sum is at most the larger temperature."""
    a, b, c = tree_value(g), tree_value(h), tree_value(k)
    assert mean(a + b + c) == mean(a) + mean(b) + mean(c)
    assert mean(-a) == -mean(a) and temperature(-a) == temperature(a)
    assert temperature(a + b) <= max(temperature(a), temperature(b)) or as_number(a + b) is not None


def test_temperature_of_a_sum_of_switches_is_the_hottest():
    total = parse_value("+-3") + parse_value("1+-1") + parse_value("{2|-1/2}")
    assert mean(total) == Fraction(7, 4) and temperature(total) == 3


def test_a_value_too_large_is_refused_from_its_size():
    big = ZERO
    for k in range(1, 9):
        big = big + parse_value(f"{k}+-{k}")
    with pytest.raises(GraphTooLarge, match="subpositions"):
        thermograph(big, limit=50)
