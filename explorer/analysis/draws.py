"""Draws, explained: which draws are safe, which are sharp, and where play circulates forever.

A draw position's mover can keep the draw and cannot do better (no move reaches
a position lost for the opponent, or a tie). Its moves therefore either keep the
draw or lose:
- a **safe** draw has no losing move: whatever the mover plays, the draw holds;
- a **sharp** draw has at least one losing move: we count them and give the
  fastest loss among them (the plies until the mover has lost after the worst slip).

The **drawing core** is where play can be kept forever. Restrict the graph to
draw positions and draw-keeping moves (every draw has at least one). Its bottom
strongly connected components — those no draw-keeping move leaves — are closed
regions: once play enters one, both players keep the draw only by staying
inside it, and inside it they can go round forever. The smallest closed region
is the smallest set of positions in which the drawing sides can hold play.

Complexity: O(V + E) array passes plus one SCC decomposition of the draw subgraph.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.solved import SolvedGraph
from explorer.core.values import Value

NOT_A_DRAW, SAFE, SHARP = -1, 0, 1
KIND_NAMES = {SAFE: "safe", SHARP: "sharp"}


@dataclass
class DrawAnalysis:
    kind: np.ndarray           # int8[V]: NOT_A_DRAW, SAFE or SHARP
    losing_moves: np.ndarray   # int32[V]: moves that turn the draw into a loss for the mover
    fastest_loss: np.ndarray   # int32[V]: plies to the mover's loss after the fastest losing move, -1 if none
    region: np.ndarray         # int32[V]: id of the draw SCC (-1 outside the draw region)
    closed: np.ndarray         # bool[V]: in a closed region (the drawing core)

    def counts(self) -> dict[str, int]:
        return {"draws": int((self.kind != NOT_A_DRAW).sum()), "safe": int((self.kind == SAFE).sum()),
                "sharp": int((self.kind == SHARP).sum()), "core": int(self.closed.sum()),
                "closed_regions": int(len(np.unique(self.region[self.closed])))}


def analyse(solved: SolvedGraph) -> DrawAnalysis:
    graph, solution = solved.graph, solved.solution
    n = graph.num_positions
    value, remoteness = solution.value, solution.remoteness
    sources = graph.edge_sources()
    targets = graph.succ_indices.astype(np.int64)
    is_draw = value == int(Value.DRAW)
    from_draw = is_draw[sources]
    # A move from a draw loses when it reaches a position the opponent wins.
    losing = from_draw & (value[targets] == int(Value.WIN))
    losing_moves = np.bincount(sources[losing], minlength=n).astype(np.int32)
    fastest = np.full(n, np.iinfo(np.int32).max, dtype=np.int64)
    np.minimum.at(fastest, sources[losing], remoteness[targets[losing]].astype(np.int64) + 1)
    fastest_loss = np.where(losing_moves > 0, fastest, -1).astype(np.int32)
    kind = np.full(n, NOT_A_DRAW, dtype=np.int8)
    kind[is_draw] = np.where(losing_moves[is_draw] > 0, SHARP, SAFE)
    region, closed = _closed_regions(n, sources, targets, is_draw)
    return DrawAnalysis(kind, losing_moves, fastest_loss, region, closed)


def _closed_regions(n: int, sources: np.ndarray, targets: np.ndarray, is_draw: np.ndarray):
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import connected_components

    keep = is_draw[sources] & is_draw[targets]
    s, t = sources[keep], targets[keep]
    matrix = csr_array((np.ones(len(s), dtype=np.int8), (s, t)), shape=(n, n))
    _, labels = connected_components(matrix, directed=True, connection="strong")
    region = np.where(is_draw, labels, -1).astype(np.int32)
    leaves = labels[s] != labels[t]          # a draw-keeping move out of its component
    open_components = np.unique(labels[s[leaves]])
    closed = is_draw.copy()
    closed[np.isin(labels, open_components)] = False
    return region, closed


def position_report(solved: SolvedGraph, analysis: DrawAnalysis, node: int) -> dict:
    """What the page and `gamegraph draws` say about one position."""
    graph = solved.graph
    record: dict = {"key": graph.key(node), "value": str(solved.value(node))}
    if analysis.kind[node] == NOT_A_DRAW:
        return record
    record.update(draw_kind=KIND_NAMES[int(analysis.kind[node])], losing_moves=int(analysis.losing_moves[node]),
                  fastest_loss=int(analysis.fastest_loss[node]) if analysis.losing_moves[node] else None,
                  in_core=bool(analysis.closed[node]))
    dangerous = []
    for edge in graph.edge_range(node):
        child = int(graph.succ_indices[edge])
        if solved.solution.value[child] == int(Value.WIN):
            dangerous.append({"label": graph.label(edge), "to": graph.key(child),
                              "loses_in": int(solved.solution.remoteness[child]) + 1})
    record["dangerous_moves"] = sorted(dangerous, key=lambda m: (m["loses_in"], m["label"]))
    return record
