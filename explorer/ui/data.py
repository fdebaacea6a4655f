"""The page's questions, answered by the backend in use through the query library.

`queries.api` runs the same named queries on Neo4j and on the networkx
mirror, so what the page shows is what `gamegraph query` prints. For a game
too big for a mirror (the backend has no query object) the same queries run
over the solved arrays (`queries.api.ArraysBackend`), so a neighbourhood, a
line or a cycle has one implementation whichever backend answers. What the
library has no query for comes from the solved graph: how a draw goes on
without a short cycle of draws (SolvedGraph.principal_line), and the value
counts of a game with no mirror (`local`). The page says which backend
answered. Every answer is in position keys, whichever backend gave it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from explorer.core.errors import QueryError
from explorer.solved import SolvedGraph
from explorer.ui import local
from explorer.ui.backend import Backend
from explorer.ui.local import Cycle, Neighbourhood
from queries import api, catalog
from queries.results import QueryResult

MAX_NODES = 300
MAX_K = catalog.spec("neighbourhood").int_param("k").maximum  # the query library's limit, written once there
MAX_CYCLE_LENGTH = 8
MAX_CYCLES = 20


def answered_by(backend: Backend) -> str:
    return backend.description


def _library(backend: Backend, solved: SolvedGraph) -> Any:
    """The backend's query object; for a game without one (too big for a mirror), the same
    queries over the solved arrays."""
    return backend.queries if backend.queries is not None else api.ArraysBackend(solved)


def too_many(k: int, max_nodes: int) -> QueryError:
    return QueryError(f"k={k} reaches more than {max_nodes} positions from here; the diagram would be "
                      "unreadable, so choose a smaller k (or follow moves in one direction only)")


def neighbourhood(backend: Backend, solved: SolvedGraph, key: str, k: int, direction: str) -> Neighbourhood:
    """Positions within k moves and the moves among them; QueryError for a bad k or too many positions."""
    hood, truncated = neighbourhood_capped(backend, solved, key, k, direction, MAX_NODES)
    if truncated:
        raise too_many(k, MAX_NODES)
    return hood


def neighbourhood_capped(backend: Backend, solved: SolvedGraph, key: str, k: int, direction: str,
                         limit: int) -> tuple[Neighbourhood, bool]:
    """The nearest `limit` positions within k moves (by distance, then key) and the moves among them,
    and whether more exist (the interactive canvas shows the nearest rather than refusing)."""
    result = api.run_query(_library(backend, solved), "neighbourhood", position=key, k=k, direction=direction,
                           limit=limit)
    positions = {row["key"]: {name: row[name] for name in ("distance", "value", "remoteness", "to_move", "terminal", "on_cycle")}
                 for row in result.table("positions").records()}
    edges = [(m["from"], m["to"], m["label"], bool(m["optimal"])) for m in result.table("moves").records()]
    return Neighbourhood(result.params["position"], positions, edges), result.truncated


@dataclass
class Cycles:
    shortest: Cycle | None
    cycles: list[Cycle] = field(default_factory=list)
    draw_cycles: list[Cycle] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _cycle_rows(table: Any) -> list[Cycle]:
    return [Cycle(list(row["keys"]), list(row["labels"])) for row in table.records()]


def cycles(backend: Backend, solved: SolvedGraph, key: str) -> Cycles:
    """The shortest cycle through a position, the simple cycles up to MAX_CYCLE_LENGTH, and those of draws only."""
    queries = _library(backend, solved)
    shortest = api.run_query(queries, "shortest-cycle", position=key)
    steps = shortest.table("cycle").records()
    best = Cycle([s["key"] for s in steps] + [key], [s["label"] for s in steps]) if steps else None
    found = api.run_query(queries, "cycles", position=key, max_length=MAX_CYCLE_LENGTH, limit=MAX_CYCLES)
    draws = api.run_query(queries, "draw-cycles", position=key, max_length=MAX_CYCLE_LENGTH, limit=MAX_CYCLES)
    notes = [n for n in found.notes + draws.notes if "row cap" not in n]
    return Cycles(best, _cycle_rows(found.table("cycles")), _cycle_rows(draws.table("cycles")), notes)


@dataclass
class Line:
    """Optimal play from a position: steps [(key, label of the move into it)], and the library's
    shortest-win answer they came from (None for a draw: a cycle of draws or the principal line gave them)."""

    steps: list[tuple[str, str | None]]
    result: QueryResult | None = None


def best_line(backend: Backend, solved: SolvedGraph, key: str) -> Line:
    """Optimal play from `key`.

    Wins, losses and ties: the library's shortest-win line (the winner hurries,
    the loser resists). A draw has no such line: its shortest cycle of draws
    shows how the draw is held (optimal moves both sides can repeat forever);
    without one, optimal moves are followed until a position repeats.
    """
    node = solved.graph.find(key)
    queries = _library(backend, solved)
    if str(solved.value(node)) == "draw":
        rows = api.run_query(queries, "draw-cycles", position=key, max_length=MAX_CYCLE_LENGTH,
                             limit=1).table("cycles").records()
        if rows:
            cycle = Cycle(list(rows[0]["keys"]), list(rows[0]["labels"]))
            return Line([(k, cycle.labels[i - 1] if i else None) for i, k in enumerate(cycle.keys)])
        return Line([(solved.graph.key(n), label) for n, label in solved.principal_line(node)])
    result = api.run_query(queries, "shortest-win", position=key)
    steps = result.table("line").records()
    return Line([(s["key"], steps[i - 1]["label"] if i else None) for i, s in enumerate(steps)], result)


def path(backend: Backend, solved: SolvedGraph, key: str, to_text: str) -> list[tuple[str, str | None]]:
    """A shortest sequence of moves (any moves) from `key` to the position typed as `to_text`."""
    target = solved.graph.key(solved.graph.find(to_text))
    if backend.queries is None:
        raise QueryError(f"paths between positions need the networkx mirror or Neo4j; this game is answered "
                         f"from {backend.description}")
    result = api.run_query(backend.queries, "path", as_typed=False, position=key, to=target)  # stored keys
    steps = result.table("path").records()
    if not steps:
        raise QueryError(f"{target} cannot be reached from {key}")
    return [(s["key"], steps[i - 1]["label"] if i else None) for i, s in enumerate(steps)]


def played_path(backend: Backend, solved: SolvedGraph, here: str, to_text: str) -> list[tuple[str, str | None]]:
    """A shortest sequence of moves from the board shown (`here`) to exactly the board typed (`to_text`), as
    played: [(board, move into it as named on the board before)], the path query's `boards` and `named`
    (queries.api: the line ends on that very board, not a mirror image of it). QueryError when it cannot."""
    solved.graph.find(to_text)  # a board that is no position of the game, or not reached: its own one line
    if backend.queries is None:
        raise QueryError(f"paths between positions need the networkx mirror or Neo4j; this game is answered "
                         f"from {backend.description}")
    result = api.run_query(backend.queries, "path", position=here, to=to_text)
    if not result.boards:
        raise QueryError(f"{to_text.strip()} cannot be reached from {here}")
    return list(zip(result.boards, [None, *result.named]))


def value_counts(backend: Backend, solved: SolvedGraph) -> tuple[dict[str, int], dict[str, dict[int, int]]]:
    """(positions per value, remoteness -> positions per value), from the backend's stats query."""
    if backend.queries is None:
        counts = {value: n for value, n in solved.solution.counts().items() if n}
        return counts, {value: t for value, t in local.remoteness_table(solved).items() if t}
    result = api.run_query(backend.queries, "stats")
    counts = {row["value"]: row["positions"] for row in result.table("by_value").records()}
    table: dict[str, dict[int, int]] = {}
    for row in result.table("by_remoteness").records():
        table.setdefault(row["value"], {})[int(row["remoteness"])] = row["positions"]
    return counts, table
