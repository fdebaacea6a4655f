"""Thermographs, means and temperatures of short partizan games, exact in fractions.

Cooling G by t (Winning Ways ch. 6; A. N. Siegel, *Combinatorial Game Theory*,
AMS 2013, §II.5) taxes every move t: G_t = {G^L_t − t | G^R_t + t}, until the
temperature τ, the least t at which G_t is infinitely close to a number m;
above τ, G_t = m (the mast, and m is the mean). The walls are the stops of G_t
as functions of t:

    left wall   λ(t) = max over G^L of ρ_{G^L}(t) − t     (t ≤ τ)
    right wall  ρ(t) = min over G^R of λ_{G^R}(t) + t     (t ≤ τ)
    λ(t) = ρ(t) = m                                        (t ≥ τ)

Walls are piecewise linear with slopes 0 or ±1 (a left wall never moves right as
t grows, a right wall never moves left), so λ − ρ falls until the walls meet at
τ. They are computed here from the canonical form, once per canonical form
(memoised on its id, as explorer.cgt.forms memoises sums and comparisons).

Conventions are CGSuite's: a number m/2^k (k ≥ 1) has temperature −1/2^k, an
integer −1, and its thermograph is the mast alone; a number plus an
infinitesimal has temperature 0. A non-number's walls start at t = 0, where
they are its Left and Right stops.

Complexity: one envelope (max or min of the options' walls) per canonical
subposition; an envelope of k walls with b breakpoints each costs O(k² b).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

from explorer.cgt.forms import CGValue, _T, of_id, subposition_count
from explorer.cgt.simple import as_number
from explorer.core.errors import GraphTooLarge

MAX_SUBPOSITIONS = 20_000  # canonical subpositions of one value: more is refused before any work

Point = tuple[Fraction, Fraction]  # (temperature t, position x)


@dataclass(frozen=True)
class _Line:
    """A piecewise-linear function of t on [points[0].t, ∞): through the points in order of t,
    then on with slope `tail` after the last one."""

    points: tuple[Point, ...]
    tail: Fraction

    def at(self, t: Fraction) -> Fraction:
        pts = self.points
        if t >= pts[-1][0]:
            return pts[-1][1] + self.tail * (t - pts[-1][0])
        for (t0, x0), (t1, x1) in zip(pts, pts[1:]):
            if t0 <= t <= t1:
                return x0 + (x1 - x0) * (t - t0) / (t1 - t0)
        return pts[0][1]  # before the start: the wall starts there (never asked for)

    def slope_after(self, t: Fraction) -> Fraction:
        pts = self.points
        if t >= pts[-1][0]:
            return self.tail
        for (t0, x0), (t1, x1) in zip(pts, pts[1:]):
            if t0 <= t < t1:
                return (x1 - x0) / (t1 - t0)
        return self.tail

    def shifted(self, slope: int) -> _Line:
        """x(t) + slope·t."""
        return _Line(tuple((t, x + slope * t) for t, x in self.points), self.tail + slope)


def _envelope(lines: list[_Line], upper: bool) -> _Line:
    """The pointwise max (upper) or min of lines that all start at the same t. O(k² b)."""
    start = lines[0].points[0][0]
    ts = sorted({t for line in lines for t, _ in line.points})
    # Crossings of any two lines inside each interval between breakpoints, and after the last.
    cuts = set(ts)
    bounds = list(zip(ts, ts[1:])) + [(ts[-1], None)]
    for lo, hi in bounds:
        slopes = [(line.at(lo), line.slope_after(lo)) for line in lines]
        for i, (xa, sa) in enumerate(slopes):
            for xb, sb in slopes[i + 1:]:
                if sa != sb:
                    cross = lo + (xb - xa) / (sa - sb)
                    if cross > lo and (hi is None or cross < hi):
                        cuts.add(cross)
    ordered = sorted(cuts)
    pick = max if upper else min
    points = [(t, pick(line.at(t) for line in lines)) for t in ordered]
    last = ordered[-1]
    tail = pick((line.at(last), line.slope_after(last)) for line in lines)[1]  # ties: the steeper way out
    return _Line(_tidy(points, start), tail)


def _tidy(points: Iterable[Point], start: Fraction) -> tuple[Point, ...]:
    """The points without those in the middle of a straight run."""
    kept: list[Point] = []
    for point in points:
        if point[0] < start:
            continue
        while len(kept) >= 2:
            (t0, x0), (t1, x1) = kept[-2], kept[-1]
            if (x1 - x0) * (point[0] - t1) == (point[1] - x1) * (t1 - t0):
                kept.pop()
            else:
                break
        kept.append(point)
    return tuple(kept)


@dataclass(frozen=True)
class Thermograph:
    """A value's thermograph: each wall as its corner points (t, x), bottom to top, ending at
    the temperature on the mast; above the last point the wall is the mast x = mean."""

    mean: Fraction
    temperature: Fraction
    left: tuple[Point, ...]
    right: tuple[Point, ...]

    def left_at(self, t: Fraction) -> Fraction:
        return _Line(self.left, Fraction(0)).at(Fraction(t))

    def right_at(self, t: Fraction) -> Fraction:
        return _Line(self.right, Fraction(0)).at(Fraction(t))

    def as_dict(self) -> dict:
        """Exact numbers as text ('3/4'), for JSON."""
        def wall(points):
            return [[str(t), str(x)] for t, x in points]
        return {"mean": str(self.mean), "temperature": str(self.temperature),
                "left_wall": wall(self.left), "right_wall": wall(self.right)}


_MEMO: dict[int, Thermograph] = {}


def thermograph(value: CGValue, limit: int | None = None) -> Thermograph:
    """The value's thermograph. A value with more than `limit` (default MAX_SUBPOSITIONS) canonical
    subpositions is refused (GraphTooLarge) before any work."""
    found = _MEMO.get(value.id)
    if found is not None:
        return found
    limit = MAX_SUBPOSITIONS if limit is None else limit
    if subposition_count(value, limit) > limit:
        raise GraphTooLarge(f"value {value.ascii()[:60]!r} has more than {limit:,} subpositions in canonical "
                            "form: too large for a thermograph")
    # Bottom-up without deep recursion: children first, by an explicit stack.
    stack = [value.id]
    while stack:
        ident = stack[-1]
        if ident in _MEMO:
            stack.pop()
            continue
        pending = [c for c in (*_T.left[ident], *_T.right[ident]) if c not in _MEMO]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        _MEMO[ident] = _compute(ident)
    return _MEMO[value.id]


def mean(value: CGValue) -> Fraction:
    return thermograph(value).mean


def temperature(value: CGValue) -> Fraction:
    return thermograph(value).temperature


def _number_temperature(x: Fraction) -> Fraction:
    return Fraction(-1) if x.denominator == 1 else Fraction(-1, x.denominator)


def _compute(ident: int) -> Thermograph:
    x = as_number(of_id(ident))
    if x is not None:
        tau = _number_temperature(x)
        return Thermograph(x, tau, ((tau, x),), ((tau, x),))
    zero = Fraction(0)
    # A canonical non-number has options on both sides; its walls start at t = 0.
    lefts = [_wall(_MEMO[c].right, zero).shifted(-1) for c in _T.left[ident]]
    rights = [_wall(_MEMO[c].left, zero).shifted(+1) for c in _T.right[ident]]
    high, low = _envelope(lefts, upper=True), _envelope(rights, upper=False)
    tau = _meeting(high, low)
    m = high.at(tau)
    return Thermograph(m, tau, _up_to(high, tau), _up_to(low, tau))


def _wall(points: tuple[Point, ...], start: Fraction) -> _Line:
    """A stored wall (constant above its last point) as a line from `start` on."""
    line = _Line(points, Fraction(0))
    if points[0][0] == start:
        return line
    inside = tuple(p for p in points if p[0] > start)
    return _Line(((start, line.at(start)),) + inside, Fraction(0))


def _meeting(high: _Line, low: _Line) -> Fraction:
    """The least t >= start at which high(t) <= low(t); high − low never rises."""
    ts = sorted({t for t, _ in high.points} | {t for t, _ in low.points})
    gap = [high.at(t) - low.at(t) for t in ts]
    if gap[0] <= 0:
        return ts[0]
    for (t0, g0), (t1, g1) in zip(zip(ts, gap), zip(ts[1:], gap[1:])):
        if g1 <= 0:
            return t0 + g0 * (t1 - t0) / (g0 - g1)
    fall = low.tail - high.tail
    if fall <= 0:
        raise AssertionError("walls that never meet")  # options' masts make the left wall fall at slope 1
    return ts[-1] + gap[-1] / fall


def _up_to(line: _Line, tau: Fraction) -> tuple[Point, ...]:
    points = [p for p in line.points if p[0] < tau] + [(tau, line.at(tau))]
    return _tidy(points, line.points[0][0])
