"""The compiled retrograde solve, in its two modes: a queue over predecessors with
per-position counters, O(V + E), with the predecessors either stored (`retrograde`,
over a CSR) or computed from un-moves (`retrograde_implicit`, over a perfect ranking).

Same semantics as the plain level-by-level solver (explorer.algorithms.retrograde.retrograde_levels):

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

from numba import njit

from explorer.kernels import jit

# Value codes (explorer.core.values.Value); literals so the kernels need no Python enum.
LOSS, DRAW, TIE, WIN, UNSOLVED = 0, 1, 2, 3, -1
INVALID = -2  # implicit mode: an index that names no legal position
OVERFLOW = -1  # implicit mode: returned when a remoteness does not fit the remoteness array's type
STUCK = -2     # implicit mode: STUCK - index is returned for a position that is not over but has no move


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


# -- the implicit mode: no edges are stored ------------------------------------------
# Positions are indices of a game's perfect ranking; predecessors come from the
# game's compiled un-moves (explorer.games.base.ImplicitKernels). Per position it
# keeps a value (int8), a remoteness (int16 or int32) and a counter of moves not
# yet refuted (uint8), plus a FIFO queue of int32/int64 indices: 8 bytes per
# position with int16 remoteness and int32 indices. Every position's un-moves are
# generated once per phase in which it is decided: O(N + E), E never stored.

@njit
def retrograde_implicit(move_count, predecessors, terminal, valid, ctx, max_unmoves, value, remoteness, counter, queue):
    """Fill `value` and `remoteness` (length N); return the largest remoteness, OVERFLOW,
    or STUCK - index for an unfinished position without moves.

    Not cached by numba (it takes the game's kernels as arguments, which numba's
    cache cannot key on): it compiles once per game type and process, in seconds.
    """
    n = len(value)
    limit = np.iinfo(remoteness.dtype).max
    buffer = np.empty(max_unmoves, dtype=np.int64)
    tail = 0
    for i in range(n):
        if not valid(ctx, i):
            value[i] = INVALID
            remoteness[i] = -1
            continue
        moves = move_count(ctx, i)  # 0 exactly on finished positions (ImplicitKernels)
        if moves == 0:
            t = terminal(ctx, i)
            if t < 0:
                return STUCK - i  # not over, yet no move: a bug in the game's kernels
            value[i] = t
            remoteness[i] = 0
            if t == WIN or t == LOSS:
                queue[tail] = i
                tail += 1
        else:
            value[i] = UNSOLVED
            remoteness[i] = -1
            counter[i] = moves
    # Phase 1: wins and losses.
    head = 0
    deepest = 0
    while head < tail:
        x = queue[head]
        head += 1
        v = value[x]
        r = remoteness[x]
        if r >= deepest:
            deepest = r
        if r + 1 > limit:
            return OVERFLOW
        count = predecessors(ctx, x, buffer)
        for k in range(count):
            p = buffer[k]
            if value[p] != UNSOLVED:
                continue
            if v == LOSS:
                value[p] = WIN
                remoteness[p] = r + 1
                queue[tail] = p
                tail += 1
            else:
                counter[p] -= 1
                if counter[p] == 0:
                    value[p] = LOSS
                    remoteness[p] = r + 1
                    queue[tail] = p
                    tail += 1
    # Phase 2: ties, from the finished ties outward.
    head = 0
    tail = 0
    for i in range(n):
        if value[i] == TIE:
            queue[tail] = i
            tail += 1
    while head < tail:
        x = queue[head]
        head += 1
        r = remoteness[x]
        if r >= deepest:
            deepest = r
        if r + 1 > limit:
            return OVERFLOW
        count = predecessors(ctx, x, buffer)
        for k in range(count):
            p = buffer[k]
            if value[p] == UNSOLVED:
                value[p] = TIE
                remoteness[p] = r + 1
                queue[tail] = p
                tail += 1
    # Phase 3: draws.
    for i in range(n):
        if value[i] == UNSOLVED:
            value[i] = DRAW
    return deepest
