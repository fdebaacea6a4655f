"""Page queries answered straight from the SolvedGraph arrays.

The page asks `queries.api` (Neo4j or the networkx mirror) where it can.
These functions answer instead for games too big for a mirror and for what
has no named query (the quick lists, how a draw goes on). tests/test_ui_apptest.py holds them equal to the
library's answers. Each is bounded so a click never hangs the page.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from explorer.core.errors import QueryError
from explorer.solved import SolvedGraph
from explorer.core.values import Value
from queries import catalog

MAX_K = catalog.spec("neighbourhood").int_param("k").maximum  # the query library's limit, written once there
MAX_NODES = 300


@dataclass
class Neighbourhood:
    """Positions near a centre (key -> facts: distance, value, remoteness, to_move, terminal, on_cycle)
    and the moves among them as (from key, to key, label, optimal)."""

    centre: str
    positions: dict[str, dict[str, Any]]
    edges: list[tuple[str, str, str, bool]] = field(default_factory=list)


def check_k(k: int) -> None:
    if not isinstance(k, int) or k < 1:
        raise QueryError(f"k={k!r} must be a whole number of moves, 1 or more")
    if k > MAX_K:
        raise QueryError(f"k={k} is too large: the neighbourhood diagram goes at most {MAX_K} moves away "
                         f"(and at most {MAX_NODES} positions); choose a smaller k")


def too_many(k: int, max_nodes: int) -> QueryError:
    return QueryError(f"k={k} reaches more than {max_nodes} positions from here; the diagram would be "
                      "unreadable, so choose a smaller k (or follow moves in one direction only)")


def neighbourhood(solved: SolvedGraph, node: int, k: int, direction: str = "both",
                  max_nodes: int = MAX_NODES) -> Neighbourhood:
    """Positions within k moves of `node` (following moves forward, backward or both), and the moves among them.

    Breadth-first, O(size of the result); raises QueryError past `max_nodes`
    so a big k on a big game is refused instead of drawing an unreadable hairball.
    """
    check_k(k)
    graph = solved.graph
    pred_indptr, pred_indices = graph.predecessors_csr
    distance = {node: 0}
    queue = deque([node])
    while queue:
        here = queue.popleft()
        if distance[here] == k:
            continue
        nexts = []
        if direction in ("both", "out"):
            nexts.extend(int(x) for x in graph.successors(here))
        if direction in ("both", "in"):
            nexts.extend(int(x) for x in pred_indices[pred_indptr[here]:pred_indptr[here + 1]])
        for there in nexts:
            if there not in distance:
                distance[there] = distance[here] + 1
                if len(distance) > max_nodes:
                    raise too_many(k, max_nodes)
                queue.append(there)
    positions = {}
    for n, d in distance.items():
        record = solved.record(n)
        positions[record["key"]] = {"distance": d, **{f: record[f] for f in
                                                      ("value", "remoteness", "to_move", "terminal", "on_cycle")}}
    result = Neighbourhood(graph.key(node), positions)
    for source in distance:
        for edge in graph.edge_range(source):
            target = int(graph.succ_indices[edge])
            if target in distance:
                result.edges.append((graph.key(source), graph.key(target), graph.label(edge),
                                     bool(solved.solution.optimal[edge])))
    return result


def principal_line(solved: SolvedGraph, node: int, limit: int = 200) -> list[tuple[int, str | None]]:
    """The line both players follow with their best moves: [(node, label of the move into it)].

    For a win or loss it ends at the finished game in exactly `remoteness`
    moves (the winner hurries, the loser resists); for a draw it stops where
    play starts repeating. O(length x moves per position).
    """
    line: list[tuple[int, str | None]] = [(node, None)]
    seen = {node}
    while len(line) <= limit:
        here = line[-1][0]
        if solved.graph.terminal[here] >= 0:
            break
        best = solved.moves(here)[0]
        nxt = solved.graph.find(best["to"])
        line.append((nxt, best["label"]))
        if nxt in seen:
            break
        seen.add(nxt)
    return line


@dataclass
class Cycle:
    """A closed walk: keys[0] == keys[-1], labels[i] is the move from keys[i] to keys[i + 1]."""

    keys: list[str]
    labels: list[str]

    @property
    def length(self) -> int:
        return len(self.labels)


def shortest_cycle(solved: SolvedGraph, node: int) -> Cycle | None:
    """The shortest cycle through `node`, or None. O(V + E) breadth-first search inside its component."""
    if not solved.on_cycle[node]:
        return None
    graph = solved.graph
    parent: dict[int, tuple[int, int]] = {}
    queue = deque([node])
    seen = {node}
    while queue:
        here = queue.popleft()
        for edge in graph.edge_range(here):
            there = int(graph.succ_indices[edge])
            if there == node:
                path = [(here, edge)]
                while path[-1][0] != node:
                    path.append(parent[path[-1][0]])
                path.reverse()
                return Cycle([graph.key(n) for n, _ in path] + [graph.key(node)], [graph.label(e) for _, e in path])
            if there not in seen and solved.scc[there] == solved.scc[node]:
                seen.add(there)
                parent[there] = (here, edge)
                queue.append(there)
    return None


def cycles_through(solved: SolvedGraph, node: int, limit: int = 20, max_length: int = 8,
                   draws_only: bool = False) -> list[Cycle]:
    """Up to `limit` simple cycles through `node` of at most `max_length` moves, shortest first.

    Searched inside the node's strongly connected component only (a cycle never
    leaves it), by iterative deepening so the shortest come first; exponential
    in `max_length` in the worst case, hence the bound.
    """
    if not solved.on_cycle[node] or (draws_only and solved.value(node) != Value.DRAW):
        return []
    graph = solved.graph
    component = int(solved.scc[node])

    def allowed(n: int) -> bool:
        return solved.scc[n] == component and (not draws_only or solved.value(n) == Value.DRAW)

    found: list[Cycle] = []
    for length in range(1, max_length + 1):
        for walk, edges in _cycles_of_length(graph, node, length, allowed):
            found.append(Cycle([graph.key(n) for n in walk] + [graph.key(node)], [graph.label(e) for e in edges]))
            if len(found) >= limit:
                return found
    return found


def _cycles_of_length(graph, start: int, length: int, allowed):
    """Simple cycles through `start` of exactly `length` moves, depth-first."""
    stack = [(start, graph.edge_range(start).__iter__())]
    walk, edges, on_walk = [start], [], {start}
    while stack:
        here, choices = stack[-1]
        edge = next(choices, None)
        if edge is None:
            stack.pop()
            if edges:
                edges.pop()
                on_walk.discard(walk.pop())
            continue
        child = int(graph.succ_indices[edge])
        if child == start and len(edges) + 1 == length:
            yield list(walk), edges + [edge]
        elif child != start and child not in on_walk and allowed(child) and len(edges) + 1 < length:
            walk.append(child)
            edges.append(edge)
            on_walk.add(child)
            stack.append((child, graph.edge_range(child).__iter__()))


def longest(solved: SolvedGraph, value: Value, count: int = 25) -> list[int]:
    """Positions of a value with the greatest remoteness (longest forced wins or losses)."""
    nodes = np.flatnonzero(solved.solution.value == int(value))
    order = np.argsort(-solved.solution.remoteness[nodes], kind="stable")
    return nodes[order][:count].tolist()


def max_remoteness(solved: SolvedGraph, value: Value) -> int | None:
    """The greatest remoteness among positions of a value (the longest forced win, say), None when there are none: O(V)."""
    remoteness = solved.solution.remoteness[solved.solution.value == int(value)]
    return int(remoteness.max()) if len(remoteness) else None


def on_cycles(solved: SolvedGraph, count: int = 50) -> list[int]:
    return np.flatnonzero(solved.on_cycle)[:count].tolist()


def random_node(solved: SolvedGraph, rng: np.random.Generator | None = None) -> int:
    rng = rng or np.random.default_rng()
    return int(rng.integers(solved.graph.num_positions))


def remoteness_table(solved: SolvedGraph) -> dict[str, dict[int, int]]:
    """remoteness -> count, per value (draws have none): the histogram's data."""
    table: dict[str, dict[int, int]] = {}
    values, remoteness = solved.solution.value, solved.solution.remoteness
    for v in (Value.WIN, Value.LOSS, Value.TIE):
        r = remoteness[(values == int(v)) & (remoteness >= 0)]
        counts = np.bincount(r) if len(r) else np.array([], dtype=int)
        table[str(v)] = {int(i): int(c) for i, c in enumerate(counts) if c}
    return table
