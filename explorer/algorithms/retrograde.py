"""Retrograde analysis over a whole graph: value and remoteness of every position
for the player to move, and which moves are optimal. Cycles included, no depth limit.

1. win/loss: a position with a move to a loss is a win (remoteness one more than
   the fastest such loss); a position whose moves all reach wins is a loss (one
   more than the slowest).
2. tie: among the undecided, a position with a move to a tie is a tie (both
   players prefer a tie to endless play and to losing), shortest first.
3. draw: whatever is still undecided can avoid losing forever and cannot force
   a tie or better; remoteness -1.

Two workers, checked equal in the tests:
- the compiled queue with one packed cell per position (value, then the counter
  or the remoteness), O(V + E), above explorer.algorithms.dispatch's threshold:
  explorer.kernels.retrograde.retrograde runs the one loop, `solve_cells`, over
  the predecessor CSR;
- `retrograde_levels` below, the plain level-by-level numpy version: O(levels x V)
  because of one np.bincount(minlength=V) per remoteness level. It is the
  tests' oracle, the benchmark's baseline and the path for small graphs.

The implicit mode runs the same loop, `solve_cells`, over a game's un-moves instead
of stored predecessors (explorer.implicit).
"""

from __future__ import annotations

import numpy as np

from explorer.algorithms.dispatch import use_kernels
from explorer.algorithms.reverse import edge_sources
from explorer.core.values import UNSOLVED, Value


def retrograde(succ_indptr: np.ndarray, pred_indptr: np.ndarray, pred_indices: np.ndarray,
               terminal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value int8[V], remoteness int32[V]) from the successor offsets, the predecessor
    CSR and each position's terminal value (-1 where the game is not over). O(V + E)."""
    n = len(terminal)
    if len(succ_indptr) != n + 1 or len(pred_indptr) != n + 1:
        raise ValueError(f"CSR offsets of lengths {len(succ_indptr)} and {len(pred_indptr)} for {n} positions")
    if use_kernels(n + len(pred_indices)):
        from explorer.kernels.retrograde import retrograde as kernel

        return kernel(succ_indptr, pred_indptr, pred_indices, terminal)
    return retrograde_levels(succ_indptr, pred_indptr, pred_indices, terminal)


def optimal_moves(succ_indptr: np.ndarray, succ_indices: np.ndarray, value: np.ndarray,
                  remoteness: np.ndarray) -> np.ndarray:
    """bool[E]: the move keeps the mover's value (the successor's, flipped) and, unless a
    draw, reaches remoteness one less. O(E)."""
    if use_kernels(len(value) + len(succ_indices)):
        from explorer.kernels.retrograde import optimal_moves as kernel

        return kernel(succ_indptr, succ_indices, value, remoteness)
    return optimal_moves_plain(succ_indptr, succ_indices, value, remoteness)


def _gather(indptr: np.ndarray, indices: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Concatenated neighbour lists of `nodes` (with repeats), vectorised."""
    starts, ends = indptr[nodes], indptr[nodes + 1]
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=indices.dtype)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return indices[offsets + np.arange(total)]


def retrograde_levels(succ_indptr, pred_indptr, pred_indices, terminal):
    """(value, remoteness): wins/losses level by level, then ties, then draws. The plain version."""
    n = len(terminal)
    value = np.full(n, UNSOLVED, dtype=np.int8)
    remoteness = np.full(n, -1, dtype=np.int32)
    pending = np.diff(succ_indptr).astype(np.int64)
    decided = np.flatnonzero((terminal == Value.WIN) | (terminal == Value.LOSS))
    value[decided] = terminal[decided]
    remoteness[decided] = 0
    level = 0
    while len(decided):
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
    decided = np.flatnonzero((terminal == Value.TIE) & (value == UNSOLVED))
    value[decided] = Value.TIE
    remoteness[decided] = 0
    level = 0
    while len(decided):
        parents = _gather(pred_indptr, pred_indices, decided)
        new_ties = np.unique(parents[value[parents] == UNSOLVED])
        value[new_ties] = Value.TIE
        remoteness[new_ties] = level + 1
        decided = new_ties
        level += 1
    value[value == UNSOLVED] = Value.DRAW
    return value, remoteness


_FLIP = np.array([Value.WIN, Value.DRAW, Value.TIE, Value.LOSS], dtype=np.int8)


def optimal_moves_plain(succ_indptr, succ_indices, value, remoteness) -> np.ndarray:
    """optimal_moves with numpy over the COO edge list. O(E)."""
    sources = edge_sources(succ_indptr)
    same_value = _FLIP[value[succ_indices]] == value[sources]
    draw = value[sources] == Value.DRAW
    return same_value & (draw | (remoteness[succ_indices] == remoteness[sources] - 1))
