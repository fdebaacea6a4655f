"""The named queries: their parameters, limits, result tables and Cypher text, in one place.

Both backends and the CLI read this table, so a limit, a column or a row cap is
written once. Path-length bounds cannot be Cypher parameters, so they are
``{{name}}`` placeholders in the .cypher files; `render` substitutes them only
after `check_int` has proven them small integers, which keeps the text free of
injection. O(1) per call apart from reading a small file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from explorer.core.bounds import whole_number
from explorer.core.errors import QueryError, shown

QUERY_DIR = Path(__file__).parent
DIRECTIONS = ("out", "in", "both")
VALUE_ORDER = ("win", "loss", "tie", "draw")
DEFAULT_TIMEOUT_S = 30.0
MAX_TIMEOUT_S = 600.0
MIN_TIMEOUT_S = 0.001  # the driver counts in milliseconds: less would round to 0, which means no timeout


def check_timeout(timeout_s: float) -> float:
    """`timeout_s` when it is from MIN_TIMEOUT_S to MAX_TIMEOUT_S, else QueryError (0 would mean no timeout)."""
    if (isinstance(timeout_s, bool) or not isinstance(timeout_s, (int, float))
            or not MIN_TIMEOUT_S <= timeout_s <= MAX_TIMEOUT_S):
        raise QueryError(f"the timeout must be above 0 and at most {MAX_TIMEOUT_S:g} seconds "
                         f"(at least {MIN_TIMEOUT_S:g}), not {timeout_s!r}")
    return float(timeout_s)


@dataclass(frozen=True)
class IntParam:
    """An integer argument with inclusive limits and a default."""

    name: str
    minimum: int
    maximum: int
    default: int
    help: str


@dataclass(frozen=True)
class QuerySpec:
    name: str
    summary: str
    position: bool = False              # takes --position (defaults to the start)
    to: bool = False                    # takes --to (required)
    direction: bool = False             # takes --direction
    cgt_value: bool = False             # takes --value: a combinatorial game value (cgt-equal)
    ints: tuple[IntParam, ...] = ()     # k / max_length / limit
    # The result's tables in order, each with its columns, whichever backend filled it.
    tables: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    capped: tuple[str, ...] = ()        # the tables the row cap `limit` applies to

    def int_param(self, name: str) -> IntParam | None:
        return next((p for p in self.ints if p.name == name), None)

    @property
    def params(self) -> list[str]:
        names = (["position"] if self.position else []) + (["to"] if self.to else [])
        names += ["direction"] if self.direction else []
        names += ["value"] if self.cgt_value else []
        return names + [p.name for p in self.ints]


def _limit(default: int) -> IntParam:
    return IntParam("limit", 1, 10_000, default, "the most rows returned (the row cap)")


K = IntParam("k", 1, 10, 2, "radius: the most moves from the position")
CYCLE_LENGTH = IntParam("max_length", 1, 12, 8, "the longest cycle listed, in moves")
SHORTEST_CYCLE_LENGTH = IntParam("max_length", 1, 200, 60, "the longest cycle searched, in moves")

STEP = ("step", "key", "value", "remoteness", "label", "to", "optimal")
CYCLE = ("length", "keys", "labels")

QUERIES: dict[str, QuerySpec] = {q.name: q for q in (
    QuerySpec("neighbourhood", "positions within k moves (out, in or both) and the moves between them",
              position=True, direction=True, ints=(K, _limit(500)),
              tables={"positions": ("key", "distance", "value", "remoteness", "to_move", "terminal", "on_cycle"),
                      "moves": ("from", "label", "to", "optimal")},
              capped=("positions",)),
    QuerySpec("shortest-cycle", "the shortest cycle through a position (smallest keys on ties)",
              position=True, ints=(SHORTEST_CYCLE_LENGTH,), tables={"cycle": STEP}),
    QuerySpec("cycles", "every simple cycle through a position up to max_length moves",
              position=True, ints=(CYCLE_LENGTH, _limit(100)), tables={"cycles": CYCLE}, capped=("cycles",)),
    QuerySpec("cycle-stats", "how many positions of each value lie on cycles",
              tables={"by_value": ("value", "positions", "on_cycle", "off_cycle", "components")}),
    QuerySpec("draw-cycles", "simple cycles of draw positions only through a position: how a draw is held",
              position=True, ints=(CYCLE_LENGTH, _limit(100)), tables={"cycles": CYCLE}, capped=("cycles",)),
    QuerySpec("components", "strongly connected components that contain a cycle, largest first",
              ints=(_limit(100),), tables={"components": ("scc", "size", "win", "loss", "tie", "draw", "example")},
              capped=("components",)),
    QuerySpec("shortest-win", "the principal variation: optimal play from a position to the end",
              position=True, tables={"line": ("ply",) + STEP[1:]}),
    QuerySpec("path", "a shortest sequence of moves between two positions (any moves, not optimal play)",
              position=True, to=True, tables={"path": STEP}),
    # stats.cypher applies LIMIT $limit to both lists, so the row cap covers both.
    QuerySpec("stats", "counts by value and remoteness, the longest wins, the positions with most moves",
              ints=(_limit(10),),
              tables={"by_value": ("value", "positions"), "by_remoteness": ("value", "remoteness", "positions"),
                      "longest_win": ("key", "remoteness"), "most_moves": ("key", "moves", "value")},
              capped=("longest_win", "most_moves")),
    QuerySpec("cgt-kinds", "positions by the kind of their combinatorial value (number, nimber, infinitesimal, …)",
              tables={"by_kind": ("kind", "positions", "distinct_values", "example")}),
    QuerySpec("cgt-equal", "the positions whose combinatorial value equals --value (any spelling: ^, {0|*}, +-1)",
              cgt_value=True, ints=(_limit(100),), tables={"positions": ("key", "value", "to_move", "cgt")},
              capped=("positions",)),
)}
QUERIES["cgt-hot"] = QuerySpec(
    "cgt-hot", "the hottest positions: highest temperature of their combinatorial value first, with its mean",
    ints=(_limit(20),), tables={"positions": ("key", "cgt", "mean", "temperature")}, capped=("positions",))
CGT_QUERIES = ("cgt-kinds", "cgt-equal", "cgt-hot")
QUERIES["draw-kinds"] = QuerySpec(
    "draw-kinds", "draws split into safe (no move loses) and sharp (some move loses); the sharpest ones",
    ints=(_limit(20),), tables={"summary": ("kind", "positions"),
                                "sharpest": ("key", "losing_moves", "fastest_loss")}, capped=("sharpest",))
QUERIES["dangerous-moves"] = QuerySpec(
    "dangerous-moves", "the moves that turn a drawn position into a loss for its mover, fastest loss first",
    position=True, tables={"moves": ("label", "to", "loses_in")})
QUERIES["draw-levels"] = QuerySpec(
    "draw-levels", "draws by draw level (GamesmanClassic's pure draw analysis): draw-wins and draw-loses per "
    "level, non-pure and dead draws; the highest levels", ints=(_limit(20),),
    tables={"levels": ("level", "class", "positions"), "deepest": ("key", "class", "level", "draw_remoteness")},
    capped=("deepest",))

PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def spec(name: str) -> QuerySpec:
    """The query called `name`, or QueryError listing every name."""
    if name not in QUERIES:
        raise QueryError(f"unknown query {name!r}: choose one of {', '.join(QUERIES)}")
    return QUERIES[name]


def check_int(query: str, param: IntParam, value: object) -> int:
    """`value` as an int within the parameter's limits, else QueryError naming them."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:  # bounded before conversion: plain ASCII digits, a few of them
            value = whole_number(str(value), param.name, max_digits=len(str(param.maximum)) + 1)
        except ValueError:
            raise QueryError(f"{query}: {param.name} must be a whole number from {param.minimum} to {param.maximum}, "
                             f"not {shown(value)}") from None
    if not param.minimum <= value <= param.maximum:
        raise QueryError(f"{query}: {param.name}={value} is out of range: it must be from {param.minimum} "
                         f"to {param.maximum}")
    return value


@lru_cache(maxsize=None)
def cypher_text(name: str) -> str:
    """The raw text of ``queries/<name>.cypher`` (placeholders left in)."""
    return (QUERY_DIR / f"{spec(name).name}.cypher").read_text(encoding="utf-8")


def render(name: str, ints: dict[str, int]) -> str:
    """The Cypher of a query with every ``{{placeholder}}`` replaced by its validated integer."""
    query = spec(name)

    def substitute(match: re.Match[str]) -> str:
        param = query.int_param(match[1])
        if param is None:
            raise QueryError(f"{name}.cypher has an unknown placeholder {match[0]}")
        return str(check_int(name, param, ints.get(param.name, param.default)))

    return PLACEHOLDER.sub(substitute, cypher_text(name))
