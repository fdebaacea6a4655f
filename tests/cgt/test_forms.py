"""The value engine against a brute force that knows only Conway's definitions.

The brute force works on game trees as nested tuples (left options, right
options) and never simplifies them; the engine works on hash-consed canonical
forms. Agreement on random small games covers comparison, canonical form,
uniqueness, sums, negation and outcome classes.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.cgt import ZERO, game, nimber, number, parse_value, ups
from explorer.cgt.simple import as_number, kind, recognise, simplest_between, stops, switch

Tree = tuple  # (tuple of left trees, tuple of right trees)
EMPTY: Tree = ((), ())


@lru_cache(maxsize=None)
def brute_le(g: Tree, h: Tree) -> bool:
    return not any(brute_le(h, gl) for gl in g[0]) and not any(brute_le(hr, g) for hr in h[1])


def brute_eq(g: Tree, h: Tree) -> bool:
    return brute_le(g, h) and brute_le(h, g)


@lru_cache(maxsize=None)
def brute_sum(g: Tree, h: Tree) -> Tree:
    left = tuple(brute_sum(x, h) for x in g[0]) + tuple(brute_sum(g, x) for x in h[0])
    right = tuple(brute_sum(x, h) for x in g[1]) + tuple(brute_sum(g, x) for x in h[1])
    return (left, right)


@lru_cache(maxsize=None)
def left_first_wins(g: Tree) -> bool:
    return any(not right_first_wins(x) for x in g[0])


@lru_cache(maxsize=None)
def right_first_wins(g: Tree) -> bool:
    return any(not left_first_wins(x) for x in g[1])


def value_of(g: Tree):
    return game([value_of(x) for x in g[0]], [value_of(x) for x in g[1]])


def tree_of(value) -> Tree:
    return (tuple(tree_of(x) for x in value.left), tuple(tree_of(x) for x in value.right))


trees = st.recursive(
    st.just(EMPTY),
    lambda children: st.tuples(st.lists(children, max_size=3).map(tuple), st.lists(children, max_size=3).map(tuple)),
    max_leaves=10)

SETTINGS = settings(max_examples=300, deadline=None)


@SETTINGS
@given(trees, trees)
def test_comparison_matches_the_definition(g, h):
    assert (value_of(g) <= value_of(h)) == brute_le(g, h)
    assert (value_of(g) is value_of(h)) == brute_eq(g, h)  # canonical forms are unique


@SETTINGS
@given(trees)
def test_canonical_form_equals_the_game_and_is_simplified(g):
    value = value_of(g)
    canonical = tree_of(value)
    assert brute_eq(g, canonical)
    for side in (0, 1):
        options = canonical[side]
        for i, x in enumerate(options):
            for j, y in enumerate(options):
                if i != j:  # no dominated options, no duplicates
                    assert not brute_le(x, y) and not brute_le(y, x)
    for x in canonical[0]:  # no reversible options
        assert not any(brute_le(xr, canonical) for xr in x[1])
    for x in canonical[1]:
        assert not any(brute_le(canonical, xl) for xl in x[0])


@SETTINGS
@given(trees, trees)
def test_sum_and_negation(g, h):
    assert value_of(brute_sum(g, h)) is value_of(g) + value_of(h)
    assert value_of(g) + -value_of(g) is ZERO
    assert value_of(g) - value_of(h) is value_of(g) + -value_of(h)


@SETTINGS
@given(trees)
def test_outcome_class_matches_play(g):
    expected = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[
        (left_first_wins(g), right_first_wins(g))]
    assert value_of(g).outcome == expected


@SETTINGS
@given(trees)
def test_notation_round_trips(g):
    value = value_of(g)
    assert parse_value(value.ascii()) is value
    assert parse_value(str(value)) is value
    assert kind(value) in ("number", "nimber", "infinitesimal", "switch", "other")


def test_known_identities():
    star, up = nimber(1), ups(1)
    assert game([ZERO], [ZERO]) is star
    assert game([ZERO], [star]) is up
    assert nimber(1) + nimber(2) is nimber(3)
    assert up + up + star is game([ZERO], [up])
    assert str(up + up + star) == "↑↑*" and (up + up + star).ascii() == "^^*"
    assert game([star, ZERO], [ZERO]) is up + star
    assert star + star is ZERO
    assert number(Fraction(1, 2)) + number(Fraction(1, 2)) is number(1)
    assert switch(0, 1) is game([number(1)], [number(-1)])
    assert str(switch(0, 1)) == "±1" and switch(0, 1).outcome == "N"
    assert up > ZERO and up.fuzzy(star) and not up.fuzzy(ZERO)


@pytest.mark.parametrize("a,b", [(3, 5), (1, 6), (0, 7), (2, 2), (5, 0)])
def test_nimbers_add_by_xor(a, b):
    """Bouton: *a + *b = *(a xor b); and a nimber's options are exactly the smaller ones."""
    assert nimber(a) + nimber(b) is nimber(a ^ b)
    assert {o.id for o in nimber(a).left} == {nimber(k).id for k in range(a)}


@SETTINGS
@given(trees, st.fractions(min_value=-4, max_value=4, max_denominator=8).filter(lambda q: q.denominator in (1, 2, 4, 8)))
def test_number_avoidance(g, q):
    """If G is not a number, nobody need move in a number x: G + x = {G^L + x | G^R + x}."""
    value, x = value_of(g), number(q)
    if as_number(value) is not None:
        return
    assert value + x is game([gl + x for gl in value.left], [gr + x for gr in value.right])


@pytest.mark.parametrize("q", [Fraction(n, d) for d in (1, 2, 4, 8) for n in range(-9, 10)])
def test_numbers_are_recognised_and_printed(q):
    value = number(q)
    assert as_number(value) == q and kind(value) == "number"
    assert parse_value(str(value)) is value and stops(value) == (q, q)


@pytest.mark.parametrize("k", range(-3, 4))
@pytest.mark.parametrize("m", range(4))
@pytest.mark.parametrize("x", [Fraction(0), Fraction(1), Fraction(-3, 2)])
def test_ups_stars_and_numbers_are_recognised(x, k, m):
    value = number(x) + ups(k) + nimber(m)
    simple = recognise(value)
    assert (simple.number, simple.ups, simple.star) == (x, k, m)
    assert parse_value(value.ascii()) is value


def test_simplest_between():
    assert simplest_between(Fraction(-1), Fraction(1)) == 0
    assert simplest_between(Fraction(1, 2), Fraction(1)) == Fraction(3, 4)
    assert simplest_between(Fraction(-3, 4), Fraction(-1, 2)) == Fraction(-5, 8)
    assert simplest_between(None, Fraction(-2)) == -3
    assert simplest_between(Fraction(2), None) == 3
    assert simplest_between(Fraction(1, 3), Fraction(2, 3)) == Fraction(1, 2)


@pytest.mark.parametrize("text", ["", "{", "1/3", "*99999", "x", "{1|0", "5" * 30, "+-0", "{" * 300 + "}" * 300,
                                  "^" * 100, "1\x00", None, 12])
def test_bad_notation_is_one_clear_error(text):
    from explorer.core.errors import InvalidValue
    with pytest.raises(InvalidValue):
        parse_value(text)


@pytest.mark.parametrize("heaps", ["1-3-5-7", "1-2-3", "4-4", "0-6-9"])
def test_nim_positions_are_nimbers_by_bouton(heaps):
    """Every Nim position's canonical value is *(xor of the heaps), by the mex rule."""
    from explorer.cgt.evaluate import board_values
    from explorer.games import parse_spec

    game = parse_spec(f"nim(heaps={heaps})")
    start = game.cgt_board(game.start())
    values = board_values(game, [start])
    for board, value in values.items():
        xor = 0
        for heap in board:
            xor ^= heap
        assert value is nimber(xor), board
    assert len(values) > 3
