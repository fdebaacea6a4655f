"""The simple values and how to recognise them: numbers, nimbers, ups, switches.

Recognition works on canonical forms, so it is exact rather than heuristic:
- a number has only number options, every Left one below every Right one, and
  is the simplest number between them (ONAG, the simplicity theorem);
- a value whose Left and Right stops are the same number x is x plus an
  infinitesimal, which is then looked up among k·↑ + *m (equal values share one
  canonical object, so the look-up is by identity);
- {a | b} with numbers a > b is the switch (a+b)/2 ± (a-b)/2.
Anything else is printed as its canonical {L | R} form.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from explorer.cgt.forms import ZERO, CGValue, game, number  # noqa: F401  (number: part of this module's family)

# How many ups, and which nimbers beside them, the infinitesimal table spans.
MAX_UPS = 8
MAX_STAR_WITH_UPS = 7


@lru_cache(maxsize=None)
@lru_cache(maxsize=None)
def nimber(n: int) -> CGValue:
    """*n = {*0, …, *(n-1) | *0, …, *(n-1)}."""
    options = [nimber(k) for k in range(n)]
    return game(options, options)


@lru_cache(maxsize=None)
def ups(k: int) -> CGValue:
    """k·↑ (k < 0 for downs); ↑ = {0 | *}."""
    if k == 0:
        return ZERO
    if k < 0:
        return -ups(-k)
    up = game([ZERO], [nimber(1)])
    return up if k == 1 else ups(k - 1) + up


def switch(centre: Fraction | int, spread: Fraction | int) -> CGValue:
    """centre ± spread = {centre + spread | centre - spread}, spread > 0."""
    centre, spread = Fraction(centre), Fraction(spread)
    return game([number(centre + spread)], [number(centre - spread)])


def simplest_between(low: Fraction | None, high: Fraction | None) -> Fraction:
    """The simplest number strictly between low and high (None: unbounded); low < high."""
    if low is not None and high is not None and not low < high:
        raise ValueError(f"no number lies strictly between {low} and {high}")
    if (low is None or low < 0) and (high is None or high > 0):
        return Fraction(0)
    if high is None or (low is not None and low >= 0):
        candidate = Fraction(int(low // 1) + 1)  # the least integer above low
        if high is None or candidate < high:
            return candidate
    else:
        candidate = Fraction(-int((-high) // 1) - 1)  # the greatest integer below high
        if low is None or candidate > low:
            return candidate
    denominator = 2
    while True:
        # The least multiple of 1/denominator above low; simplest when it is below high.
        candidate = Fraction(int(low * denominator // 1) + 1, denominator)
        if candidate < high:
            return candidate
        denominator *= 2


def as_number(value: CGValue) -> Fraction | None:
    """The number a value equals, or None if it is not a number."""
    return _number_of(value.id)


@lru_cache(maxsize=None)
def _number_of(ident: int) -> Fraction | None:
    from explorer.cgt.forms import of_id
    value = of_id(ident)
    lefts = [_number_of(v.id) for v in value.left]
    rights = [_number_of(v.id) for v in value.right]
    if any(x is None for x in lefts + rights):
        return None
    low, high = (max(lefts) if lefts else None), (min(rights) if rights else None)
    if low is not None and high is not None and not low < high:
        return None
    return simplest_between(low, high)


def stops(value: CGValue) -> tuple[Fraction, Fraction]:
    """(Left stop, Right stop): where play ends, in numbers, when Left resp. Right starts."""
    return _stops(value.id)


@lru_cache(maxsize=None)
def _stops(ident: int) -> tuple[Fraction, Fraction]:
    from explorer.cgt.forms import of_id
    value = of_id(ident)
    x = _number_of(ident)
    if x is not None:
        return x, x
    # A canonical non-number has options on both sides.
    left_stop = max(_stops(v.id)[1] for v in value.left)
    right_stop = min(_stops(v.id)[0] for v in value.right)
    return left_stop, right_stop


@dataclass(frozen=True)
class Simple:
    """A value recognised as number + k·↑ + *m (any of them zero)."""

    number: Fraction
    ups: int
    star: int


@lru_cache(maxsize=1)
def _infinitesimals() -> dict[int, tuple[int, int]]:
    table: dict[int, tuple[int, int]] = {}
    for k in range(-MAX_UPS, MAX_UPS + 1):
        for m in range(MAX_STAR_WITH_UPS + 1):
            table.setdefault((ups(k) + nimber(m)).id, (k, m))
    return table


def recognise(value: CGValue) -> Simple | None:
    """number + k·↑ + *m if the value is one (within the table's span), else None."""
    x = as_number(value)
    if x is not None:
        return Simple(x, 0, 0)
    left_stop, right_stop = stops(value)
    if left_stop != right_stop:
        return None
    rest = value - number(left_stop)
    found = _infinitesimals().get(rest.id)
    if found is not None:
        return Simple(left_stop, *found)
    m = nimber_index(rest)
    return Simple(left_stop, 0, m) if m is not None else None


def nimber_index(value: CGValue) -> int | None:
    """n if the value is the nimber *n (n >= 0), else None (the mex rule, canonical form)."""
    left, right = value.left, value.right
    if left != right:
        return None
    indices = sorted((nimber_index(v) for v in left), key=lambda i: -1 if i is None else i)
    if any(i is None for i in indices) or indices != list(range(len(indices))):
        return None
    return len(indices)


def as_switch(value: CGValue) -> tuple[Fraction, Fraction] | None:
    """(centre, spread) if the value is {a | b} with numbers a > b, else None."""
    if len(value.left) != 1 or len(value.right) != 1:
        return None
    a, b = as_number(value.left[0]), as_number(value.right[0])
    if a is None or b is None or not a > b:
        return None
    return (a + b) / 2, (a - b) / 2


KINDS = ("number", "nimber", "infinitesimal", "switch", "other")


def kind(value: CGValue) -> str:
    """One of KINDS: number; nimber (a number plus *n, n >= 1); infinitesimal (a number
    plus a nonzero infinitesimal that is not a nimber, such as ↑ or ↑*); switch
    ({a | b}, numbers a > b); other."""
    simple = recognise(value)
    if simple is not None:
        if simple.ups == 0:
            return "number" if simple.star == 0 else "nimber"
        return "infinitesimal"
    if as_switch(value) is not None:
        return "switch"
    left_stop, right_stop = stops(value)
    return "infinitesimal" if left_stop == right_stop else "other"
