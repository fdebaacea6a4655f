"""The page's questions, answered by the backend in use through the query library.

`queries.api` runs the same named queries on Neo4j and on the networkx
mirror, so what the page shows is what `gamegraph query` prints. When the
library is not installed, or for a question it has no query for (how a draw
goes on), the answer comes from the solved arrays (`local`), and the page says
which answered. Every answer is in position keys, whichever backend gave it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from explorer.errors import QueryError
from explorer.solved import SolvedGraph
from explorer.ui import local
from explorer.ui.backend import Backend
from explorer.ui.local import Cycle, Neighbourhood

MAX_NODES = local.MAX_NODES
MAX_CYCLE_LENGTH = 8
MAX_CYCLES = 20


def api() -> Any:
    """queries.api, or None while that part of gamegraph is not installed."""
    try:
        return importlib.import_module("queries.api")
    except ModuleNotFoundError as exc:
        if exc.name in ("queries", "queries.api"):
            return None
        raise


def max_k() -> int:
    lib = api()
    if lib is None:
        return local.MAX_K
    k = next(p for p in lib.describe("neighbourhood")["ints"] if p["name"] == "k")
    return int(k["maximum"])


def answered_by(backend: Backend) -> str:
    if backend.queries is not None:
        return backend.description
    if api() is None:
        return "the solved arrays (the query library is not installed)"
    return backend.description


def neighbourhood(backend: Backend, solved: SolvedGraph, key: str, k: int, direction: str) -> Neighbourhood:
    """Positions within k moves and the moves among them; QueryError for a bad k or too many positions."""
    lib = api()
    if backend.queries is None or lib is None:
        return local.neighbourhood(solved, solved.graph.find(key), k, direction)
    result = lib.run_query(backend.queries, "neighbourhood", position=key, k=k, direction=direction, limit=MAX_NODES)
    if result.truncated:
        raise local.too_many(k, MAX_NODES)
    positions = {row["key"]: {name: row[name] for name in ("distance", "value", "remoteness", "to_move", "terminal", "on_cycle")}
                 for row in result.table("positions").records()}
    edges = [(m["from"], m["to"], m["label"], bool(m["optimal"])) for m in result.table("moves").records()]
    return Neighbourhood(result.params["position"], positions, edges)


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
    lib = api()
    node = solved.graph.find(key)
    if backend.queries is None or lib is None:
        return Cycles(local.shortest_cycle(solved, node),
                      local.cycles_through(solved, node, MAX_CYCLES, MAX_CYCLE_LENGTH),
                      local.cycles_through(solved, node, MAX_CYCLES, MAX_CYCLE_LENGTH, draws_only=True))
    shortest = lib.run_query(backend.queries, "shortest-cycle", position=key)
    steps = shortest.table("cycle").records()
    best = Cycle([s["key"] for s in steps] + [key], [s["label"] for s in steps]) if steps else None
    found = lib.run_query(backend.queries, "cycles", position=key, max_length=MAX_CYCLE_LENGTH, limit=MAX_CYCLES)
    draws = lib.run_query(backend.queries, "draw-cycles", position=key, max_length=MAX_CYCLE_LENGTH, limit=MAX_CYCLES)
    notes = [n for n in found.notes + draws.notes if "row cap" not in n]
    return Cycles(best, _cycle_rows(found.table("cycles")), _cycle_rows(draws.table("cycles")), notes)


def best_line(backend: Backend, solved: SolvedGraph, key: str) -> list[tuple[str, str | None]]:
    """[(key, label of the move into it)] of optimal play from `key`.

    Wins, losses and ties: the library's shortest-win line (the winner hurries,
    the loser resists). A draw has no such line: its shortest cycle of draws
    shows how the draw is held (optimal moves both sides can repeat forever);
    without one, optimal moves are followed until a position repeats.
    """
    lib = api()
    node = solved.graph.find(key)
    if str(solved.value(node)) == "draw":
        cycle = None
        if backend.queries is not None and lib is not None:
            rows = lib.run_query(backend.queries, "draw-cycles", position=key, max_length=MAX_CYCLE_LENGTH,
                                 limit=1).table("cycles").records()
            cycle = Cycle(list(rows[0]["keys"]), list(rows[0]["labels"])) if rows else None
        else:
            found = local.cycles_through(solved, node, 1, MAX_CYCLE_LENGTH, draws_only=True)
            cycle = found[0] if found else None
        if cycle is not None:
            return [(k, cycle.labels[i - 1] if i else None) for i, k in enumerate(cycle.keys)]
        return [(solved.graph.key(n), label) for n, label in local.principal_line(solved, node)]
    if backend.queries is None or lib is None:
        return [(solved.graph.key(n), label) for n, label in local.principal_line(solved, node)]
    result = lib.run_query(backend.queries, "shortest-win", position=key)
    steps = result.table("line").records()
    return [(s["key"], steps[i - 1]["label"] if i else None) for i, s in enumerate(steps)]


def path(backend: Backend, solved: SolvedGraph, key: str, to_text: str) -> list[tuple[str, str | None]]:
    """A shortest sequence of moves (any moves) from `key` to the position typed as `to_text`."""
    lib = api()
    target = solved.graph.key(solved.graph.find(to_text))
    if backend.queries is None or lib is None:
        raise QueryError("paths between positions need the query library (queries.api), which is not installed")
    result = lib.run_query(backend.queries, "path", position=key, to=target)
    steps = result.table("path").records()
    if not steps:
        raise QueryError(f"{target} cannot be reached from {key}")
    return [(s["key"], steps[i - 1]["label"] if i else None) for i, s in enumerate(steps)]


def value_counts(backend: Backend, solved: SolvedGraph) -> tuple[dict[str, int], dict[str, dict[int, int]]]:
    """(positions per value, remoteness -> positions per value), from the backend's stats query."""
    lib = api()
    if backend.queries is None or lib is None:
        counts = {value: n for value, n in solved.solution.counts().items() if n}
        return counts, {value: t for value, t in local.remoteness_table(solved).items() if t}
    result = lib.run_query(backend.queries, "stats")
    counts = {row["value"]: row["positions"] for row in result.table("by_value").records()}
    table: dict[str, dict[int, int]] = {}
    for row in result.table("by_remoteness").records():
        table.setdefault(row["value"], {})[int(row["remoteness"])] = row["positions"]
    return counts, table
