"""The compiled retrograde solver of the implicit-graph mode: no edges are stored.

Positions are indices of a game's perfect ranking; predecessors come from the
game's compiled un-moves (explorer.games.base.ImplicitKernels). Per position it
keeps a value (int8), a remoteness (int16 or int32) and a counter of moves not
yet refuted (uint8), plus a FIFO queue of int32/int64 indices: 8 bytes per
position with int16 remoteness and int32 indices.

Same semantics as explorer.solver (loss < draw < tie < win, for the player to
move): phase 1 propagates wins and losses from the finished positions in FIFO
order, so positions leave the queue by nondecreasing remoteness, the first loss
that reaches a position makes it a win in (that loss's remoteness + 1) and the
last win that refutes a position's final move makes it a loss in (that win's
remoteness + 1). Phase 2 spreads ties from the finished ties, shortest first,
among what phase 1 left open. Phase 3 makes the rest draws (remoteness -1).
Every position's un-moves are generated once per phase in which it is decided:
O(N + E) time with E the number of moves, never stored.
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNSOLVED = -1
INVALID = -2  # an index that names no legal position
LOSS, DRAW, TIE, WIN = 0, 1, 2, 3
OVERFLOW = -1  # returned when a remoteness does not fit the remoteness array's type
STUCK = -2     # STUCK - index is returned for a position that is not over but has no move


@njit
def retrograde(move_count, predecessors, terminal, valid, ctx, max_unmoves, value, remoteness, counter, queue):
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


@njit
def map_successors(labelled, ctx, max_moves, codes, sources, targets, labels):
    """All moves of many indices into preallocated arrays; returns the number written."""
    buffer = np.empty(max_moves, dtype=np.int64)
    names = np.empty(max_moves, dtype=np.int64)
    total = 0
    for row in range(len(codes)):
        count = labelled(ctx, codes[row], buffer, names)
        for k in range(count):
            sources[total] = row
            targets[total] = buffer[k]
            labels[total] = names[k]
            total += 1
    return total


@njit
def map_terminal(terminal, ctx, codes, out):
    for row in range(len(codes)):
        out[row] = terminal(ctx, codes[row])
