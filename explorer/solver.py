"""Exact retrograde analysis of a whole game graph, cycles included.

Values are for the player to move (see explorer.values). Three phases, each a
backward breadth-first sweep over the predecessor CSR arrays, level by level
with numpy, so every edge is touched O(1) times: O(V + E) overall.

1. win/loss: a position with a move to a loss is a win (remoteness one more than
   the fastest such loss); a position whose moves all reach wins is a loss (one
   more than the slowest). Processing levels in increasing remoteness makes the
   first loss found the fastest and the last win counted the slowest.
2. tie: among the undecided, a position with a move to a tie is a tie (both
   players prefer a tie to endless play and to losing), shortest first.
3. draw: whatever is still undecided can avoid losing forever and cannot force
   a tie or better; remoteness -1.

A move is optimal when it keeps the mover's value with the best remoteness.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer import progress
from explorer.graph import GameGraph
from explorer.values import UNSOLVED, Value


@dataclass
class Solution:
    value: np.ndarray       # int8[V], a Value
    remoteness: np.ndarray  # int32[V], -1 for draws
    optimal: np.ndarray     # bool[E], per edge of the successor CSR

    def counts(self) -> dict[str, int]:
        tally = np.bincount(self.value, minlength=4)
        return {str(v): int(tally[v]) for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}


def solve(graph: GameGraph) -> Solution:
    """Value and remoteness of every position and optimality of every move. O(V + E)."""
    pred_indptr, pred_indices = graph.predecessors_csr
    value, remoteness = _retrograde(graph.succ_indptr, pred_indptr, pred_indices, graph.terminal)
    return Solution(value, remoteness, optimal_moves(graph, value, remoteness))


def _gather(indptr: np.ndarray, indices: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Concatenated neighbour lists of `nodes` (with repeats), vectorised."""
    starts, ends = indptr[nodes], indptr[nodes + 1]
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=indices.dtype)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return indices[offsets + np.arange(total)]


def _retrograde(succ_indptr, pred_indptr, pred_indices, terminal):
    n = len(terminal)
    value = np.full(n, UNSOLVED, dtype=np.int8)
    remoteness = np.full(n, -1, dtype=np.int32)
    # Moves not yet known to lead to a win; a loss is proven when this reaches 0.
    pending = np.diff(succ_indptr).astype(np.int64)

    # Phase 1: wins and losses.
    decided = np.flatnonzero((terminal == Value.WIN) | (terminal == Value.LOSS))
    value[decided] = terminal[decided]
    remoteness[decided] = 0
    level = 0
    with progress.bar("solving", total=n) as bar:
        while len(decided):
            bar.update(len(decided))
            losses = decided[value[decided] == Value.LOSS]
            wins = decided[value[decided] == Value.WIN]
            parents = _gather(pred_indptr, pred_indices, losses)
            new_wins = np.unique(parents[value[parents] == UNSOLVED])
            value[new_wins] = Value.WIN
            remoteness[new_wins] = level + 1
            parents = _gather(pred_indptr, pred_indices, wins)
            parents = parents[value[parents] == UNSOLVED]
            if len(parents):
                pending -= np.bincount(parents, minlength=n)
            candidates = np.unique(parents)
            new_losses = candidates[(pending[candidates] == 0) & (terminal[candidates] < 0)]
            value[new_losses] = Value.LOSS
            remoteness[new_losses] = level + 1
            decided = np.concatenate([new_wins, new_losses])
            level += 1

        # Phase 2: ties, shortest first, among positions phase 1 left undecided.
        decided = np.flatnonzero((terminal == Value.TIE) & (value == UNSOLVED))
        value[decided] = Value.TIE
        remoteness[decided] = 0
        level = 0
        while len(decided):
            bar.update(len(decided))
            parents = _gather(pred_indptr, pred_indices, decided)
            new_ties = np.unique(parents[value[parents] == UNSOLVED])
            value[new_ties] = Value.TIE
            remoteness[new_ties] = level + 1
            decided = new_ties
            level += 1

    # Phase 3: draws.
    value[value == UNSOLVED] = Value.DRAW
    return value, remoteness


def optimal_moves(graph: GameGraph, value: np.ndarray, remoteness: np.ndarray) -> np.ndarray:
    """bool[E]: the move keeps the mover's value and the best remoteness. O(E)."""
    sources = graph.edge_sources()
    targets = graph.succ_indices
    flipped = _FLIP[value[targets]]
    same_value = flipped == value[sources]
    draw = value[sources] == Value.DRAW
    next_remoteness = remoteness[targets] == remoteness[sources] - 1
    return same_value & (draw | next_remoteness)


_FLIP = np.array([Value.WIN, Value.DRAW, Value.TIE, Value.LOSS], dtype=np.int8)
