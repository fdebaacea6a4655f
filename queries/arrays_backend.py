"""The named queries about one position, answered over a SolvedGraph's arrays (no mirror built).

For a game too big for a networkx mirror (the page's fallback). `ArraysBackend`
runs the very functions of queries.networkx_backend over `SolvedView`, which
offers the part of nx.DiGraph's read interface they use, nodes being position
keys as in the mirror, straight from the solved arrays. So a neighbourhood, a
line or a cycle has one implementation and the same rows, in the same order,
whichever of the two answers. Only what the questions touch is read: O(1) per
position looked at, O(degree) per move, plus the predecessor arrays made once
(explorer.graph.GameGraph.predecessors_csr) for backward searches.

The queries over every position (stats, components, ...) are not offered here:
in Python they would cost seconds per million positions, which is what the
mirror and Neo4j are for.
"""

from __future__ import annotations

from typing import Any, Iterator

from explorer.core.errors import GameGraphError, QueryError
from explorer.solved import SolvedGraph
from queries.common import DEFAULT_TIMEOUT_S
from queries.networkx_backend import NetworkxBackend, Rows

# The queries about one position, which touch only the positions near it.
POSITION_QUERIES = ("neighbourhood", "shortest-cycle", "cycles", "draw-cycles", "shortest-win", "path",
                    "dangerous-moves")


class SolvedView:
    """A read-only nx.DiGraph look-alike over a SolvedGraph: ``key in view``, ``view.nodes[key]``
    (the position's record without game fields or draw levels: explorer.solved.SolvedGraph.record
    with full=False), ``view.succ[key]`` and ``view.pred[key]`` (iterables of keys),
    ``view.successors(key)``, ``view.edges[a, b]`` (label, optimal) and ``view.graph`` (id, spec,
    symmetry, start_key). Successors keep the graph's edge order, as in the mirror built from it."""

    def __init__(self, solved: SolvedGraph):
        self.solved = solved
        graph = solved.graph
        self.graph = {"id": graph.graph_id, "spec": solved.game.display_name, "symmetry": bool(graph.symmetry),
                      "start_key": graph.key(0)}
        self._node_of: dict[str, int] = {self.graph["start_key"]: 0}
        self._key_of: dict[int, str] = {0: self.graph["start_key"]}
        self._records: dict[str, dict[str, Any]] = {}
        self._out: dict[str, dict[str, int]] = {}
        self.nodes = _Lookup(self._record)
        self.succ = _Lookup(self._successors)
        self.pred = _Lookup(self._predecessors)
        self.edges = _Lookup(self._edge)

    # -- keys and node ids -----------------------------------------------------------
    def _key(self, node: int) -> str:
        key = self._key_of.get(node)
        if key is None:
            key = self._key_of[node] = self.solved.graph.key(node)
            self._node_of[key] = node
        return key

    def _node(self, key: str) -> int | None:
        """The node id of a stored key, None for any other text (as ``key in G`` on the mirror)."""
        if key in self._node_of:
            return self._node_of[key]
        graph = self.solved.graph
        try:
            node = graph.node_of(graph.game.parse(key))
        except (GameGraphError, TypeError, ValueError):
            return None
        if node is None or self._key(node) != key:  # a key the mirror would not hold (not canonical)
            return None
        return node

    def _id(self, key: str) -> int:
        node = self._node(key)
        if node is None:
            raise KeyError(key)
        return node

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._node(key) is not None

    # -- what the queries read -------------------------------------------------------
    def _record(self, key: str) -> dict[str, Any]:
        record = self._records.get(key)
        if record is None:
            record = self._records[key] = self.solved.record(self._id(key), full=False)
        return record

    def _successors(self, key: str) -> dict[str, int]:
        """{successor key: edge id}, in edge order."""
        out = self._out.get(key)
        if out is None:
            graph = self.solved.graph
            out = self._out[key] = {self._key(int(graph.succ_indices[edge])): edge
                                    for edge in graph.edge_range(self._id(key))}
        return out

    def _predecessors(self, key: str) -> list[str]:
        indptr, indices = self.solved.graph.predecessors_csr
        node = self._id(key)
        return [self._key(int(n)) for n in indices[indptr[node]:indptr[node + 1]]]

    def _edge(self, pair: tuple[str, str]) -> dict[str, Any]:
        source, target = pair
        edge = self._successors(source)[target]
        return {"label": self.solved.graph.label(edge), "optimal": bool(self.solved.solution.optimal[edge])}

    def successors(self, key: str) -> Iterator[str]:
        return iter(self._successors(key))


class _Lookup:
    """``view.nodes[key]``-style access through a function."""

    def __init__(self, get):
        self._get = get

    def __getitem__(self, item):
        return self._get(item)


class ArraysBackend(NetworkxBackend):
    """The position queries of queries.networkx_backend over a SolvedGraph's arrays (`SolvedView`).

    Answers exactly as NetworkxBackend on the mirror of the same graph (tests/queries/test_api.py
    holds them equal); a query over every position raises QueryError.
    """

    kind = "arrays"

    def __init__(self, solved: SolvedGraph, timeout_s: float | None = DEFAULT_TIMEOUT_S):
        self.G, self.timeout_s = SolvedView(solved), timeout_s
        self.game_id: str = self.G.graph["id"]
        self.game = solved.game
        self.symmetry = bool(solved.graph.symmetry) and solved.game.has_symmetry()
        self.start_key: str = self.G.graph["start_key"]

    def run(self, name: str, args: dict[str, Any]) -> dict[str, Rows]:
        if name not in POSITION_QUERIES:
            raise QueryError(f"query {name!r} goes over every position, which the solved arrays do not answer: "
                             "it needs the networkx mirror or Neo4j")
        return super().run(name, args)
