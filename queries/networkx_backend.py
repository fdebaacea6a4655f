"""The named queries computed on the networkx mirror (an nx.DiGraph keyed by position key).

Each function returns the same rows, in the same order, as its Cypher file
returns on Neo4j; tests/queries/test_api.py holds the two to equality. The
questions about one position also run, unchanged, over the solved arrays of a
game too big for a mirror (queries/arrays_backend.py), so the page, the CLI and
both backends share one implementation of each. Costs are
given per function; V and E are the positions and moves of the graph. Every
loop checks a cooperative Deadline, so a query honours its timeout as the
Neo4j side does (and raises the same QueryTimeout message).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import chain, islice
from typing import Any, Iterator

import networkx as nx

from queries.catalog import VALUE_ORDER
from queries.common import DEFAULT_TIMEOUT_S, Deadline, game_from_properties

Rows = list[list[Any]]
RANK = {v: i for i, v in enumerate(VALUE_ORDER)}


class NetworkxBackend:
    """Queries over a mirror built by loaders.mirror (attributes per docs/model.md)."""

    kind = "networkx"

    def __init__(self, G: nx.DiGraph, timeout_s: float | None = DEFAULT_TIMEOUT_S):
        self.G, self.timeout_s = G, timeout_s
        self.game_id: str = G.graph["id"]
        self.game, self.symmetry = game_from_properties(G.graph, self.game_id)
        self.start_key: str = G.graph["start_key"]

    def position(self, key: str) -> dict[str, Any] | None:
        """The node's attributes, or None when the key is not in the graph: O(1)."""
        return self.G.nodes[key] if key in self.G else None

    def run(self, name: str, args: dict[str, Any]) -> dict[str, Rows]:
        """The raw tables of one query (capped tables hold at most args['fetch'] rows);
        QueryTimeout once it has run timeout_s seconds."""
        return _QUERIES[name](self.G, args, Deadline(self.timeout_s, f"query {name!r}"))


# -- helpers -----------------------------------------------------------------------
def _distances(G: nx.DiGraph, source: str, direction: str, cutoff: int | None, deadline: Deadline,
               more_than: int | None = None, reach: set[str] | frozenset[str] = frozenset()) -> dict[str, int]:
    """Moves from `source` to each position within `cutoff` ('out'), to it ('in'), or either way ('both'),
    by breadth-first search: O(V + E) of the ball. What nx.single_source_shortest_path_length
    gives on G, G.reverse() or G.to_undirected(), with deadline checks.

    The search ends early, with every distance up to its last level exact: one level after the
    ball holds more than `more_than` positions, or at the first level that reaches a key of `reach`.
    """
    succ, pred = G.succ, G.pred
    neighbours = {"out": lambda n: succ[n], "in": lambda n: pred[n],
                  "both": lambda n: chain(succ[n], pred[n])}[direction]
    distance, frontier, level = {source: 0}, [source], 0
    full_at = None
    while frontier and (cutoff is None or level < cutoff):
        if full_at is None and more_than is not None and len(distance) > more_than:
            full_at = level
        if (full_at is not None and level > full_at) or any(key in distance for key in reach):
            break
        level += 1
        following = []
        for node in frontier:
            deadline.check()
            for other in neighbours(node):
                if other not in distance:
                    distance[other] = level
                    following.append(other)
        frontier = following
    return distance


def _step_rows(G: nx.DiGraph, keys: list[str]) -> Rows:
    """[step, key, value, remoteness, label, to, optimal] along a walk; the last row has no move."""
    rows = []
    for i, key in enumerate(keys):
        node = G.nodes[key]
        nxt = keys[i + 1] if i + 1 < len(keys) else None
        edge = G.edges[key, nxt] if nxt is not None else {}
        rows.append([i, key, node["value"], node["remoteness"], edge.get("label"), nxt, edge.get("optimal")])
    return rows


def _greedy_walk(G: nx.DiGraph, start: str, distance: dict[str, int], length: int) -> list[str]:
    """The walk of `length` moves from `start` whose keys are smallest, each step one closer by `distance`.

    Every walk that lowers `distance` by one per move is a shortest one, and a
    walk compared key by key is smallest when each key is, so greedy is exact. O(length * degree).
    """
    walk = [start]
    for remaining in range(length - 1, -1, -1):
        walk.append(min(t for t in G.successors(walk[-1]) if distance.get(t) == remaining))
    return walk


# -- the queries -------------------------------------------------------------------
def neighbourhood(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """One breadth-first search to depth k, then the induced moves: O(size of the ball).

    The rows are the first `fetch` by (distance, key), and each row's moves are those to the other
    rows (the induced sub-graph of the rows, as the Cypher twin: issue 35). Once the levels
    searched hold more than `fetch` positions the rows all lie there, so the search stops.
    """
    distance = _distances(G, args["position"], args["direction"], args["k"], deadline, more_than=args["fetch"])
    order = sorted(distance, key=lambda key: (distance[key], key))[:args["fetch"]]
    distance = {key: distance[key] for key in order}
    rows = []
    for key in order:
        deadline.check()
        node = G.nodes[key]
        moves = sorted(({"label": G.edges[key, t]["label"], "to": t, "optimal": G.edges[key, t]["optimal"]}
                        for t in G.successors(key) if t in distance), key=lambda m: (m["label"], m["to"]))
        rows.append([key, distance[key], node["value"], node["remoteness"], node["to_move"], node["terminal"],
                     node["on_cycle"], moves])
    return {"positions": rows}


def shortest_cycle(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """A backward BFS from the position (depth max_length - 1), then a greedy walk: O(V + E).

    The search stops at the first level that reaches a successor of the position: that fixes
    the shortest length, and the walk only steps through nearer positions.
    """
    key, bound = args["position"], args["max_length"]
    to_key = _distances(G, key, "in", bound - 1, deadline, reach=set(G.successors(key)))
    lengths = [1 + to_key[t] for t in G.successors(key) if t in to_key]
    if not lengths:
        return {"cycle": []}
    walk = _greedy_walk(G, key, to_key, min(lengths))
    return {"cycle": _step_rows(G, walk)[:-1]}


def _simple_cycles(G: nx.DiGraph, start: str, bound: int, allowed, deadline: Deadline) -> Iterator[list[str]]:
    """Simple cycles through `start` of at most `bound` moves, in the order of the rows: shortest
    first, and by their keys within a length.

    One depth-first search over sorted successors per length (iterative deepening), so the
    first rows come without listing every longer cycle. Only positions for which allowed(key)
    is true are entered. Exponential in `bound` in the worst case (that is why it is bounded).
    """
    for length in range(1, bound + 1):
        yield from _cycles_of_length(G, start, length, allowed, deadline)


def _cycles_of_length(G: nx.DiGraph, start: str, length: int, allowed, deadline: Deadline) -> Iterator[list[str]]:
    """Simple cycles through `start` of exactly `length` moves, in key order (a depth-first search
    over sorted successors meets the walks in that order)."""
    path, on_path = [start], {start}
    stack = [iter(sorted(G.successors(start)))]
    while stack:
        deadline.check()
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            on_path.discard(path.pop())
            continue
        if not allowed(child):
            continue
        if child == start:
            if len(path) == length:
                yield path + [start]
        elif child not in on_path and len(path) < length:
            path.append(child)
            on_path.add(child)
            stack.append(iter(sorted(G.successors(child))))


def _cycle_rows(G: nx.DiGraph, cycles: Iterator[list[str]], fetch: int) -> Rows:
    """The first `fetch` cycles as rows [length, keys, labels] (they come sorted: `_simple_cycles`)."""
    rows = [[len(keys) - 1, keys, [G.edges[a, b]["label"] for a, b in zip(keys, keys[1:])]]
            for keys in islice(cycles, fetch)]
    rows.sort(key=lambda row: (row[0], row[1]))
    return rows


def cycles(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """Simple cycles within the position's strongly connected component: exponential in max_length."""
    key = args["position"]
    scc = G.nodes[key]["scc"]
    found = _simple_cycles(G, key, args["max_length"], lambda k: G.nodes[k]["scc"] == scc, deadline)
    return {"cycles": _cycle_rows(G, found, args["fetch"])}


def draw_cycles(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """Simple cycles through draw positions only: exponential in max_length."""
    key = args["position"]
    if G.nodes[key]["value"] != "draw":
        return {"cycles": []}
    found = _simple_cycles(G, key, args["max_length"], lambda k: G.nodes[k]["value"] == "draw", deadline)
    return {"cycles": _cycle_rows(G, found, args["fetch"])}


def cycle_stats(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """One pass over the positions: O(V)."""
    tally: dict[str, list] = defaultdict(lambda: [0, 0, set()])
    for _, node in G.nodes(data=True):
        deadline.check()
        entry = tally[node["value"]]
        entry[0] += 1
        if node["on_cycle"]:
            entry[1] += 1
            entry[2].add(node["scc"])
    return {"by_value": [[v, t[0], t[1], t[0] - t[1], len(t[2])]
                         for v, t in sorted(tally.items(), key=lambda item: RANK[item[0]])]}


def components(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """Groups the positions on cycles by their stored scc id: O(V)."""
    groups: dict[int, dict[str, Any]] = {}
    for key, node in G.nodes(data=True):
        deadline.check()
        if not node["on_cycle"]:
            continue
        group = groups.setdefault(node["scc"], {"size": 0, "example": key, **{v: 0 for v in VALUE_ORDER}})
        group["size"] += 1
        group[node["value"]] += 1
        group["example"] = min(group["example"], key)
    rows = [[scc, g["size"], g["win"], g["loss"], g["tie"], g["draw"], g["example"]] for scc, g in groups.items()]
    rows.sort(key=lambda row: (-row[1], row[6]))
    return {"components": rows[:args["fetch"]]}


def shortest_win(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """Follows optimal moves with remoteness one less, smallest label then key: O(remoteness * degree)."""
    line = [args["position"]]
    while (r := G.nodes[line[-1]]["remoteness"]) is not None and r > 0:
        deadline.check()
        choices = [(G.edges[line[-1], t]["label"], t) for t in G.successors(line[-1])
                   if G.edges[line[-1], t]["optimal"] and G.nodes[t]["remoteness"] == r - 1]
        if not choices:
            break
        line.append(min(choices)[1])
    return {"line": _step_rows(G, line)}


def path(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """A backward BFS from the target, then the greedy smallest-key shortest walk: O(V + E)."""
    source, target = args["position"], args["to"]
    to_target = _distances(G, target, "in", None, deadline)
    if source not in to_target:
        return {"path": []}
    return {"path": _step_rows(G, _greedy_walk(G, source, to_target, to_target[source]))}


def stats(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """Counts in one pass and two sorts: O(V log V)."""
    by_value: dict[str, int] = defaultdict(int)
    by_remoteness: dict[tuple[str, int], int] = defaultdict(int)
    for _, node in G.nodes(data=True):
        deadline.check()
        by_value[node["value"]] += 1
        if node["remoteness"] is not None:
            by_remoteness[node["value"], node["remoteness"]] += 1
    wins = [(key, node["remoteness"]) for key, node in G.nodes(data=True) if node["value"] == "win"]
    longest = max((r for _, r in wins), default=None)
    deadline.now()
    busiest = sorted(G.nodes, key=lambda key: (-G.out_degree(key), key))[:args["fetch"]]
    return {
        "by_value": [[v, n] for v, n in sorted(by_value.items(), key=lambda item: RANK[item[0]])],
        "by_remoteness": [[v, r, n] for (v, r), n in sorted(by_remoteness.items(), key=lambda i: (RANK[i[0][0]], i[0][1]))],
        "longest_win": sorted([key, r] for key, r in wins if r == longest)[:args["fetch"]],
        "most_moves": [[key, G.out_degree(key), G.nodes[key]["value"]] for key in busiest],
    }


def cgt_kinds(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """One pass over the positions: O(V)."""
    kinds: dict[str, list] = {}
    for key, node in G.nodes(data=True):
        deadline.check()
        if node.get("cgt_kind") is None:
            continue
        entry = kinds.setdefault(node["cgt_kind"], [0, set(), key])
        entry[0] += 1
        entry[1].add(node["cgt"])
        entry[2] = min(entry[2], key)
    return {"by_kind": [[kind, n, len(values), example] for kind, (n, values, example) in sorted(kinds.items())]}


def cgt_equal(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """A scan for the canonical text: O(V)."""
    rows = []
    for key, node in G.nodes(data=True):
        deadline.check()
        if node.get("cgt") == args["value"]:
            rows.append([key, node["value"], node["to_move"], node["cgt"]])
    rows.sort()
    return {"positions": rows[:args["fetch"]]}


def cgt_hot(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """The positions by temperature, hottest first, then by key: one pass and a sort, O(V log V)."""
    rows = []
    for key, node in G.nodes(data=True):
        deadline.check()
        if node.get("temperature") is not None:
            rows.append([key, node["cgt"], node["mean"], node["temperature"]])
    rows.sort(key=lambda row: (-row[3], row[0]))
    return {"positions": rows[:args["fetch"]]}


def _losing_moves(G: nx.DiGraph, key: str) -> list[tuple[str, str, int]]:
    return [(G.edges[key, t]["label"], t, G.nodes[t]["remoteness"] + 1) for t in G.successors(key)
            if G.nodes[t]["value"] == "win"]


def draw_kinds(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """One pass over the draws and their moves: O(V + E)."""
    counts: dict[str, int] = defaultdict(int)
    sharp = []
    for key, node in G.nodes(data=True):
        deadline.check()
        if node["value"] != "draw":
            continue
        losing = _losing_moves(G, key)
        counts["sharp" if losing else "safe"] += 1
        if losing:
            sharp.append([key, len(losing), min(r for _, _, r in losing)])
    sharp.sort(key=lambda row: (-row[1], row[0]))
    return {"summary": [[kind, n] for kind, n in sorted(counts.items())], "sharpest": sharp[:args["fetch"]]}


def dangerous_moves(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """The position's losing moves if it is a draw: O(degree)."""
    deadline.check()
    key = args["position"]
    if G.nodes[key]["value"] != "draw":
        return {"moves": []}
    return {"moves": [[label, to, r] for label, to, r in sorted(_losing_moves(G, key), key=lambda m: (m[2], m[0], m[1]))]}


def draw_levels(G: nx.DiGraph, args: dict[str, Any], deadline: Deadline) -> dict[str, Rows]:
    """The stored draw classes and levels, tallied: O(V)."""
    counts: dict[tuple, int] = defaultdict(int)
    levelled = []
    for key, node in G.nodes(data=True):
        deadline.check()
        kind = node.get("draw_class")
        if kind is None:
            continue
        level = node.get("draw_level")
        counts[(level, kind)] += 1
        if level is not None:
            levelled.append([key, kind, level, node["draw_remoteness"]])
    levels = sorted(counts.items(), key=lambda item: (item[0][0] is None, item[0][0] or 0, item[0][1]))
    levelled.sort(key=lambda row: (-row[2], -row[3], row[0]))
    return {"levels": [[level, kind, n] for (level, kind), n in levels], "deepest": levelled[:args["fetch"]]}


_QUERIES = {
    "neighbourhood": neighbourhood, "shortest-cycle": shortest_cycle, "cycles": cycles, "draw-cycles": draw_cycles,
    "cycle-stats": cycle_stats, "components": components, "shortest-win": shortest_win, "path": path, "stats": stats,
    "cgt-kinds": cgt_kinds, "cgt-equal": cgt_equal, "draw-kinds": draw_kinds, "dangerous-moves": dangerous_moves,
    "draw-levels": draw_levels, "cgt-hot": cgt_hot,
}
