"""Exact retrograde analysis of a whole game graph, cycles included.

Values are for the player to move (see explorer.core.values). The work is one
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
The algorithm itself is explorer.algorithms.retrograde; this module gives it a
GameGraph and returns a Solution. `solve_levels`, beside `solve`, is the plain
path as it was before the kernels, kept as the tests' oracle and the bench's baseline.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.algorithms.retrograde import optimal_moves, optimal_moves_plain, retrograde, retrograde_levels
from explorer.algorithms.reverse import reverse_csr_scipy
from explorer.core.values import Value
from explorer.graph import GameGraph


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

    Small graphs go through the plain numpy solver (see explorer.algorithms.dispatch).
    """
    pred_indptr, pred_indices = graph.predecessors_csr
    value, remoteness = retrograde(graph.succ_indptr, pred_indptr, pred_indices, graph.terminal)
    return Solution(value, remoteness, optimal_moves(graph.succ_indptr, graph.succ_indices, value, remoteness))


def solve_levels(graph: GameGraph) -> Solution:
    """The plain solve, as it was before the kernels: scipy's predecessors, the
    level-by-level numpy retrograde, numpy optimal moves. The tests' oracle."""
    pred_indptr, pred_indices = reverse_csr_scipy(graph.num_positions, graph.succ_indptr, graph.succ_indices)
    value, remoteness = retrograde_levels(graph.succ_indptr, pred_indptr, pred_indices, graph.terminal)
    return Solution(value, remoteness, optimal_moves_plain(graph.succ_indptr, graph.succ_indices, value, remoteness))
