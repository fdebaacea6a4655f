"""Exact retrograde analysis of a whole game graph, cycles included.

Values are for the player to move (see explorer.values). The work is one
compiled kernel (explorer.kernels.retrograde), a queue over the predecessor CSR
with a counter per position, so every predecessor edge is read O(1) times:
O(V + E) overall, about 9 bytes per position besides the result.

1. win/loss: a position with a move to a loss is a win (remoteness one more than
   the fastest such loss); a position whose moves all reach wins is a loss (one
   more than the slowest). A FIFO queue from the terminal wins and losses
   decides positions in non-decreasing remoteness, so the first loss found is
   the fastest and the last win counted the slowest.
2. tie: among the undecided, a position with a move to a tie is a tie (both
   players prefer a tie to endless play and to losing), shortest first.
3. draw: whatever is still undecided can avoid losing forever and cannot force
   a tie or better; remoteness -1.

A move is optimal when it keeps the mover's value with the best remoteness.
The plain level-by-level numpy version is explorer.reference.solve_levels,
kept as the tests' cross-check, the benchmark's baseline and the path for
small graphs (explorer.engine).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.graph import GameGraph
from explorer.values import Value


@dataclass
class Solution:
    value: np.ndarray       # int8[V], a Value
    remoteness: np.ndarray  # int32[V], -1 for draws
    optimal: np.ndarray     # bool[E], per edge of the successor CSR

    def counts(self) -> dict[str, int]:
        tally = np.bincount(self.value, minlength=4)
        return {str(v): int(tally[v]) for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}


def solve(graph: GameGraph) -> Solution:
    """Value and remoteness of every position and optimality of every move. O(V + E).

    Small graphs go through the plain numpy solver (see explorer.engine).
    """
    from explorer.engine import use_kernels

    if not use_kernels(graph.num_positions + graph.num_moves):
        from explorer.reference import solve_levels

        return solve_levels(graph)
    from explorer.kernels.retrograde import retrograde

    pred_indptr, pred_indices = graph.predecessors_csr
    value, remoteness = retrograde(graph.succ_indptr, pred_indptr, pred_indices, graph.terminal)
    return Solution(value, remoteness, optimal_moves(graph, value, remoteness))


def optimal_moves(graph: GameGraph, value: np.ndarray, remoteness: np.ndarray) -> np.ndarray:
    """bool[E]: the move keeps the mover's value and the best remoteness. O(E)."""
    from explorer.engine import use_kernels

    if not use_kernels(graph.num_positions + graph.num_moves):
        from explorer import reference

        return reference.optimal_moves(graph, value, remoteness)
    from explorer.kernels.retrograde import optimal_moves as kernel

    return kernel(graph.succ_indptr, graph.succ_indices, value, remoteness)
