"""Short partizan games as hash-consed canonical forms (Conway, *On Numbers and Games*).

A game is {L | R}: the positions Left and Right may move to. Every form ever
built is interned once in a process-wide table and named by a small integer id;
the values handed out (`CGValue`) are canonical forms only, so two values are
equal as games exactly when they are the same object. Comparison, sum and
negation are memoised on ids, which is what keeps a game graph of thousands of
positions at thousands of value operations rather than an exponential tree.

Canonical form (ONAG ch. 10; Siegel, *Combinatorial Game Theory*, II.2): with
canonical options, repeatedly bypass reversible options and remove dominated
ones until nothing changes. The result is unique for each value.

Complexity: comparing G with H visits each pair (subposition of G, subposition
of H) at most once, so O(|G|·|H|) memoised steps. Sums are O(|G|·|H|) sums of
subpositions, each followed by canonicalisation.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Callable, Iterable

# Comparison and sum recurse once per move of the deeper game; games built from
# graphs of a few thousand positions are far shallower than this.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


class _Table:
    """Every interned form: options by id, and the memo tables keyed by ids."""

    def __init__(self) -> None:
        self.left: list[tuple[int, ...]] = []
        self.right: list[tuple[int, ...]] = []
        self.index: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self.canonical: dict[int, int] = {}  # form id -> id of its canonical form
        self.le_memo: dict[tuple[int, int], bool] = {}
        self.sum_memo: dict[tuple[int, int], int] = {}
        self.neg_memo: dict[int, int] = {}
        self.values: dict[int, CGValue] = {}

    def intern(self, left: Iterable[int], right: Iterable[int]) -> int:
        key = (tuple(sorted(set(left))), tuple(sorted(set(right))))
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.left)
            self.left.append(key[0])
            self.right.append(key[1])
        return found


_T = _Table()
ZERO_ID = _T.intern((), ())
_T.canonical[ZERO_ID] = ZERO_ID


def _le(g: int, h: int) -> bool:
    """G <= H: no Left option of G is >= H, and no Right option of H is <= G."""
    if g == h:
        return True
    key = (g, h)
    memo = _T.le_memo.get(key)
    if memo is None:
        memo = (not any(_le(h, gl) for gl in _T.left[g])
                and not any(_le(hr, g) for hr in _T.right[h]))
        _T.le_memo[key] = memo
    return memo


def _simplify(left: Iterable[int], right: Iterable[int]) -> int:
    """The canonical form of {left | right}, whose options are canonical ids."""
    left_set, right_set = set(left), set(right)
    while True:
        form = _T.intern(left_set, right_set)
        bypassed_left: set[int] = set()
        for option in left_set:
            # A Left option is reversible when Right can answer it with a position
            # at most G; Left's move then amounts to the answer's Left options.
            answer = next((r for r in _T.right[option] if _le(r, form)), None)
            bypassed_left.update(_T.left[answer] if answer is not None else (option,))
        bypassed_right: set[int] = set()
        for option in right_set:
            answer = next((l for l in _T.left[option] if _le(form, l)), None)
            bypassed_right.update(_T.right[answer] if answer is not None else (option,))
        kept_left = {x for x in bypassed_left if not any(x != y and _le(x, y) for y in bypassed_left)}
        kept_right = {x for x in bypassed_right if not any(x != y and _le(y, x) for y in bypassed_right)}
        if kept_left == left_set and kept_right == right_set:
            _T.canonical[form] = form
            return form
        left_set, right_set = kept_left, kept_right


def _canonical_of(left: Iterable[int], right: Iterable[int]) -> int:
    form = _T.intern(left, right)
    found = _T.canonical.get(form)
    if found is None:
        found = _T.canonical[form] = _simplify(_T.left[form], _T.right[form])
    return found


def _neg(g: int) -> int:
    found = _T.neg_memo.get(g)
    if found is None:
        # The negative of a canonical form is canonical: mirror it.
        found = _T.intern((_neg(r) for r in _T.right[g]), (_neg(l) for l in _T.left[g]))
        _T.canonical[found] = found
        _T.neg_memo[g] = found
        _T.neg_memo[found] = g
    return found


def _add(g: int, h: int) -> int:
    if g == ZERO_ID:
        return h
    if h == ZERO_ID:
        return g
    key = (g, h) if g <= h else (h, g)
    found = _T.sum_memo.get(key)
    if found is None:
        left = [_add(gl, h) for gl in _T.left[g]] + [_add(g, hl) for hl in _T.left[h]]
        right = [_add(gr, h) for gr in _T.right[g]] + [_add(g, hr) for hr in _T.right[h]]
        found = _T.sum_memo[key] = _canonical_of(left, right)
    return found


class CGValue:
    """A short game's value, as its canonical form; one shared object per value.

    Compare with <=, <, >=, > and ==; `fuzzy` is Conway's ‖ (confused with).
    Add, subtract and negate with +, - and unary -. str() is the Unicode
    notation, `ascii()` the parsable ASCII spelling (explorer.cgt.notation).
    """

    __slots__ = ("id",)

    def __init__(self, ident: int) -> None:  # use game() / of_id(); never call directly
        self.id = ident

    @property
    def left(self) -> tuple[CGValue, ...]:
        """Left's options in canonical form (dominated and reversible ones removed)."""
        return tuple(of_id(i) for i in _T.left[self.id])

    @property
    def right(self) -> tuple[CGValue, ...]:
        return tuple(of_id(i) for i in _T.right[self.id])

    def __le__(self, other: CGValue) -> bool:
        return _le(self.id, _coerce(other).id)

    def __ge__(self, other: CGValue) -> bool:
        return _le(_coerce(other).id, self.id)

    def __lt__(self, other: CGValue) -> bool:
        return self <= other and self is not _coerce(other)

    def __gt__(self, other: CGValue) -> bool:
        return self >= other and self is not _coerce(other)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CGValue):
            return self is other
        if isinstance(other, int):
            return self is number(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("CGValue", self.id))

    def fuzzy(self, other: CGValue) -> bool:
        """G ‖ H: neither G <= H nor H <= G (the first player wins G - H)."""
        return not self <= other and not self >= other

    def __neg__(self) -> CGValue:
        return of_id(_neg(self.id))

    def __add__(self, other: CGValue) -> CGValue:
        return of_id(_add(self.id, _coerce(other).id))

    __radd__ = __add__

    def __sub__(self, other: CGValue) -> CGValue:
        return self + -_coerce(other)

    @property
    def outcome(self) -> str:
        """The outcome class: 'L' (Left wins whoever starts), 'R', 'P' (the player
        to move loses: G = 0) or 'N' (the player to move wins: G ‖ 0)."""
        at_least_zero = not any(_le(r, ZERO_ID) for r in _T.right[self.id])
        at_most_zero = not any(_le(ZERO_ID, l) for l in _T.left[self.id])
        return {(True, True): "P", (True, False): "L", (False, True): "R", (False, False): "N"}[
            (at_least_zero, at_most_zero)]

    def left_wins_moving_first(self) -> bool:
        return self.outcome in ("L", "N")

    def right_wins_moving_first(self) -> bool:
        return self.outcome in ("R", "N")

    def ascii(self) -> str:
        return TEXT["format"](self, unicode=False)

    def __str__(self) -> str:
        return TEXT["format"](self, unicode=True)

    def __repr__(self) -> str:
        return f"<CGValue {self.ascii()}>"

    def __reduce__(self):  # values cross process boundaries as text, never as ids
        return (TEXT["parse"], (self.ascii(),))


def subposition_count(value: CGValue, limit: int) -> int:
    """How many canonical subpositions the value has (itself included), counting at most
    limit + 1. Adding G and H visits at most count(G)·count(H) pairs. O(count)."""
    seen = {value.id}
    stack = [value.id]
    while stack and len(seen) <= limit:
        ident = stack.pop()
        for child in (*_T.left[ident], *_T.right[ident]):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return len(seen)


def of_id(ident: int) -> CGValue:
    """The shared value object of a canonical form id."""
    value = _T.values.get(ident)
    if value is None:
        if _T.canonical.get(ident) != ident:
            raise ValueError(f"form {ident} is not canonical")
        value = _T.values[ident] = CGValue(ident)
    return value


def game(left: Iterable[CGValue] = (), right: Iterable[CGValue] = ()) -> CGValue:
    """The value {left | right}, in canonical form."""
    return of_id(_canonical_of((_coerce(g).id for g in left), (_coerce(g).id for g in right)))


def _coerce(value: object) -> CGValue:
    if isinstance(value, CGValue):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    raise TypeError(f"not a game value: {value!r}")


ZERO = of_id(ZERO_ID)

# The text form of a value: explorer.cgt.notation fills this in when it is imported
# (explorer.cgt's __init__ does), so forms need not import the notation built on them.
TEXT: dict[str, Callable] = {}


def number(q: Fraction | int) -> CGValue:
    """The canonical form of a dyadic rational: n = {n-1 | }, m/2^k = {(m-1)/2^k | (m+1)/2^k}."""
    q = Fraction(q)
    if q.denominator & (q.denominator - 1):
        raise ValueError(f"{q} is not a dyadic rational (its denominator is not a power of 2)")
    if q.denominator == 1:
        n = int(q)
        value = ZERO
        for _ in range(abs(n)):
            value = game(left=[value]) if n > 0 else game(right=[value])
        return value
    step = Fraction(1, q.denominator)
    return game([number(q - step)], [number(q + step)])

