"""Printing and parsing values: a Unicode spelling for display, ASCII for typing.

| value            | Unicode   | ASCII     |
|------------------|-----------|-----------|
| numbers          | 3, -1/4   | 3, -1/4   |
| nimbers          | *, *2     | *, *2     |
| ups and downs    | ↑, ↑↑*, ↓ | ^, ^^*, v |
| number + the rest| 1/2↑*     | 1/2^*     |
| switches         | ±1, 2±1/2 | +-1, 2+-1/2 |
| anything else    | {1/4|0}   | {1/4|0}   |

Options inside braces are canonical and printed in a fixed order, so a value
has exactly one spelling of each kind, and parse_value(format_value(v)) is v.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

import explorer.cgt.forms as forms
from explorer.cgt.forms import CGValue, game
from explorer.cgt.simple import as_switch, nimber, number, recognise, ups
from explorer.core.errors import InvalidValue

MAX_TEXT = 10_000
MAX_DEPTH = 200
MAX_INTEGER = 1_000          # n is a chain of n games: bound it before building it
MAX_DENOMINATOR = 1 << 20
MAX_REPEAT = 64              # ups, downs and nimber index


MAX_WRITTEN = 50_000         # values and braces in a value's text: more is refused (written_size)


def written_size(value: CGValue, limit: int = MAX_WRITTEN) -> int:
    """How many values and braces format_value writes for the value, counting up to about limit + 1:
    shared subpositions are written out once per occurrence, so the text of a sum can grow as a
    power of its size. Memoised per canonical form. O(subpositions)."""
    return min(_written_size(value.id, limit), limit + 1)


@lru_cache(maxsize=100_000)
def _written_size(ident: int, limit: int) -> int:
    value = forms.of_id(ident)
    if recognise(value) is not None or as_switch(value) is not None:
        return 1
    total = 1
    for option in (*value.left, *value.right):
        total += _written_size(option.id, limit)
        if total > limit:
            return total
    return total


@lru_cache(maxsize=100_000)
def format_value(value: CGValue, unicode: bool = True) -> str:
    simple = recognise(value)
    if simple is not None:
        return _format_simple(simple.number, simple.ups, simple.star, unicode)
    switch = as_switch(value)
    if switch is not None:
        centre, spread = switch
        return f"{_format_number(centre) if centre else ''}{'±' if unicode else '+-'}{_format_number(spread)}"
    left = sorted(format_value(v, unicode) for v in value.left)
    right = sorted(format_value(v, unicode) for v in value.right)
    return "{" + ",".join(left) + "|" + ",".join(right) + "}"


@lru_cache(maxsize=10_000)
def shown_stored(stored: str) -> str:
    """A value as stored (Position.cgt, ASCII: '+-1', '{5/16+-3/16|0}') as people read it ('±1',
    '{5/16±3/16|0}'): format_value of parse_value, the spelling `gamegraph cgt` and the UI print.
    Text that is no value comes back as it is."""
    try:
        return format_value(parse_value(stored))
    except InvalidValue:
        return stored


def _format_number(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _format_simple(x: Fraction, k: int, m: int, unicode: bool) -> str:
    text = _format_number(x) if x or (k == 0 and m == 0) else ""
    if k:
        arrow = ("↑" if k > 0 else "↓") if unicode else ("^" if k > 0 else "v")
        text += arrow * abs(k)
    if m:
        text += "*" if m == 1 else f"*{m}"
    return text


_NUMBER = r"-?\d+(?:/\d+)?"
_SIMPLE = re.compile(
    rf"(?P<number>{_NUMBER})?"
    rf"(?:(?P<pm>\+-|±)(?P<spread>\d+(?:/\d+)?)"
    rf"|(?P<ups>\^+|v+|↑+|↓+)?(?P<star>\*\d*)?)", re.ASCII)  # ASCII digits only, as everywhere


def parse_value(text: str) -> CGValue:
    """Inverse of format_value, for either spelling; also accepts any {L|R} form,
    which it reduces to canonical form. Raises InvalidValue naming the problem."""
    if not isinstance(text, str):
        raise InvalidValue(f"a game value must be text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InvalidValue(f"game value of {len(text):,} characters is too long (at most {MAX_TEXT:,})")
    compact = "".join(text.split())
    if not compact:
        raise InvalidValue("empty game value: write e.g. 0, 1/2, *2, ^*, +-1 or {1|0}")
    parser = _Parser(compact, text)
    value = parser.value(0)
    if parser.pos != len(compact):
        raise parser.error("unexpected text")
    return value


class _Parser:
    def __init__(self, text: str, original: str) -> None:
        self.text, self.original, self.pos = text, original, 0

    def error(self, why: str) -> InvalidValue:
        return InvalidValue(f"invalid game value {self.original!r}: {why} at character {self.pos + 1}")

    def value(self, depth: int) -> CGValue:
        if depth > MAX_DEPTH:
            raise self.error(f"braces nested more than {MAX_DEPTH} deep")
        if self.text.startswith("{", self.pos):
            self.pos += 1
            left = self.options(depth, "|")
            right = self.options(depth, "}")
            return game(left, right)
        match = _SIMPLE.match(self.text, self.pos)
        if match is None or match.end() == self.pos:
            raise self.error("expected a number, *n, ^, v, +- or {")
        self.pos = match.end()
        x = self.number(match["number"]) if match["number"] else Fraction(0)
        if match["pm"]:
            spread = self.number(match["spread"])
            if spread <= 0:
                raise self.error("a switch's spread must be positive")
            return game([number(x + spread)], [number(x - spread)])
        value = number(x)
        if match["ups"]:
            count = len(match["ups"])
            if count > MAX_REPEAT:
                raise self.error(f"more than {MAX_REPEAT} arrows")
            value = value + ups(count if match["ups"][0] in "^↑" else -count)
        if match["star"]:
            digits = match["star"][1:]
            if len(digits) > 3 or (digits and int(digits) > MAX_REPEAT):
                raise self.error(f"nimbers above *{MAX_REPEAT} are not supported")
            value = value + nimber(int(digits) if digits else 1)
        return value

    def options(self, depth: int, closer: str) -> list[CGValue]:
        found: list[CGValue] = []
        if self.text.startswith(closer, self.pos):
            self.pos += 1
            return found
        while True:
            found.append(self.value(depth + 1))
            if self.text.startswith(",", self.pos):
                self.pos += 1
            elif self.text.startswith(closer, self.pos):
                self.pos += 1
                return found
            else:
                raise self.error(f"expected ',' or {closer!r}")

    def number(self, text: str) -> Fraction:
        if len(text) > 12:
            raise self.error(f"number {text[:20]}… is too long")
        try:
            q = Fraction(text)
        except ZeroDivisionError:  # "1/0"
            raise self.error(f"{text} divides by zero") from None
        if q.denominator & (q.denominator - 1) or q.denominator > MAX_DENOMINATOR:
            raise self.error(f"{text} is not a dyadic rational with denominator at most 2^20")
        if abs(q) > MAX_INTEGER:
            raise self.error(f"{text} is beyond ±{MAX_INTEGER}")
        return q


forms.TEXT.update(format=format_value, parse=parse_value)
