"""The retrograde solve as a queue over predecessors with per-position counters: O(V + E).

Same semantics as the plain level-by-level solver (explorer.reference.solve_levels):

1. wins and losses: a FIFO queue seeded with the terminal wins and losses keeps
   remoteness non-decreasing, so a position becomes a win at its first losing
   successor dequeued (the fastest) and a loss when the counter of its moves not
   yet known to reach a win drops to 0, i.e. at its last winning successor
   (the slowest). Each predecessor edge is read once.
2. ties: breadth-first from the terminal ties through still undecided positions.
3. draws: the rest, remoteness -1.

Memory besides the result: a 4-byte counter and a 4-byte queue slot per position.
"""

from __future__ import annotations

import numpy as np

from explorer.kernels import jit

# Value codes (explorer.values.Value); literals so the kernels need no Python enum.
LOSS, DRAW, TIE, WIN, UNSOLVED = 0, 1, 2, 3, -1


@jit
def retrograde(succ_indptr, pred_indptr, pred_indices, terminal):
    """(value int8[V], remoteness int32[V]) of every position. O(V + E)."""
    n = len(terminal)
    value = np.full(n, UNSOLVED, dtype=np.int8)
    remoteness = np.full(n, -1, dtype=np.int32)
    pending = np.empty(n, dtype=np.int32)  # moves not yet known to reach a win
    queue = np.empty(n, dtype=np.int32)
    head = tail = 0
    for u in range(n):
        pending[u] = succ_indptr[u + 1] - succ_indptr[u]
        if terminal[u] == WIN or terminal[u] == LOSS:
            value[u] = terminal[u]
            remoteness[u] = 0
            queue[tail] = u
            tail += 1
    while head < tail:
        u = queue[head]
        head += 1
        r = remoteness[u] + 1
        lost = value[u] == LOSS
        for e in range(pred_indptr[u], pred_indptr[u + 1]):
            p = pred_indices[e]
            if value[p] != UNSOLVED:
                continue
            if lost:
                value[p] = WIN
            else:
                pending[p] -= 1
                if pending[p] != 0 or terminal[p] >= 0:
                    continue
                value[p] = LOSS
            remoteness[p] = r
            queue[tail] = p
            tail += 1
    # Ties, shortest first, among what is left.
    head = tail = 0
    for u in range(n):
        if terminal[u] == TIE and value[u] == UNSOLVED:
            value[u] = TIE
            remoteness[u] = 0
            queue[tail] = u
            tail += 1
    while head < tail:
        u = queue[head]
        head += 1
        for e in range(pred_indptr[u], pred_indptr[u + 1]):
            p = pred_indices[e]
            if value[p] == UNSOLVED:
                value[p] = TIE
                remoteness[p] = remoteness[u] + 1
                queue[tail] = p
                tail += 1
    for u in range(n):
        if value[u] == UNSOLVED:
            value[u] = DRAW
    return value, remoteness


@jit
def optimal_moves(succ_indptr, succ_indices, value, remoteness):
    """bool[E]: the move keeps the mover's value (the successor's, flipped) and, unless a
    draw, reaches remoteness one less. O(E)."""
    flip = np.array([WIN, DRAW, TIE, LOSS], dtype=np.int8)
    optimal = np.zeros(len(succ_indices), dtype=np.bool_)
    for u in range(len(succ_indptr) - 1):
        mine = value[u]
        for e in range(succ_indptr[u], succ_indptr[u + 1]):
            c = succ_indices[e]
            if flip[value[c]] == mine and (mine == DRAW or remoteness[c] == remoteness[u] - 1):
                optimal[e] = True
    return optimal
