"""Breadth-first generation over integer codes: one kernel call per level, O(level + its moves).

The game supplies each level's moves (its compiled kernel, or numpy
`batch_moves`); `absorb_moves` turns them into graph edges, written straight
into the graph's arrays: dense ids for codes met for the first time, one edge
per distinct (source, target) keeping the first move in the game's order, and
the CSR row pointer. `renumber` then orders each new level by code, as the old
numpy generator did. Nothing here scans the code space.

The per-code table is int32[code space, 2]: the dense id (-1 = unseen) and the
last source that reached the code. Keeping both in one 8-byte row makes the
lookup of a move's target one cache miss, not two: generation is bound by
these random reads, and sources in code order make neighbouring sources'
targets share cache lines.
"""

from __future__ import annotations

import numpy as np

from numba import njit

from explorer.kernels import jit


@jit
def group_by_source(source, rows):
    """(starts int64[rows+1], order int64[moves]): a stable counting sort of moves by source row."""
    starts = np.zeros(rows + 1, dtype=np.int64)
    for i in range(len(source)):
        starts[source[i] + 1] += 1
    for r in range(rows):
        starts[r + 1] += starts[r]
    fill = starts[:-1].copy()
    order = np.empty(len(source), dtype=np.int64)
    for i in range(len(source)):
        s = source[i]
        order[fill[s]] = i
        fill[s] += 1
    return starts, order


@jit
def absorb_moves(first, live, starts, order, target, label, table, codes, indptr, targets, labels, found, edges, limit):
    """Add the edges of positions codes[first:first+len(live)] (one is expanded where `live`).

    The moves of the r-th live row are target[starts[r]:starts[r+1]] in the
    game's order, or, when `order` is not empty, target[order[starts[r]:starts[r+1]]].
    Fresh codes go to codes[found:] with provisional ids found, found+1, ... in
    discovery order; edges to targets/labels[edges:] (room for len(target)
    more is the caller's job); indptr[u+1] for each row u. Returns (found,
    edges, ok); ok is False as soon as the graph would exceed `limit` positions.
    """
    indirect = len(order) > 0
    row = 0
    for u in range(first, first + len(live)):
        if live[u - first]:
            for k in range(starts[row], starts[row + 1]):
                i = order[k] if indirect else k
                # One move of u to `code`, written out here and in expand_positions (see there why no helper).
                code = target[i]
                v = table[code, 0]
                if v < 0:  # a fresh code: the next id
                    if found >= limit:
                        return limit + 1, edges, False
                    v = found
                    table[code, 0] = v
                    codes[v] = code
                    found += 1
                if table[code, 1] != u:  # the first move from u to this code: an edge
                    table[code, 1] = u
                    targets[edges] = v
                    labels[edges] = label[i]
                    edges += 1
            row += 1
        indptr[u + 1] = edges
    return found, edges, True


@jit
def set_ids(table, codes, first):
    """table[codes[i], 0] = first + i (the start positions)."""
    for i in range(len(codes)):
        table[codes[i], 0] = first + i


@jit
def renumber(table, codes, found, level, targets, edge_start, edges):
    """Give the level codes[found:found+new] their final ids in code order.

    absorb_moves numbered them in discovery order (the ids table[code, 0] holds);
    `level` is the same codes sorted (np.sort: numpy's sort is faster than numba's,
    and than np.argsort, whose permutation this reads back from the table instead);
    only this level's edges (targets[edge_start:edges]) can point at them yet.
    O(level + level edges).
    """
    new = len(level)
    final_id = np.empty(new, dtype=np.int32)  # by discovery order
    for r in range(new):
        code = level[r]
        final_id[table[code, 0] - found] = found + r
        table[code, 0] = found + r
        codes[found + r] = code
    for e in range(edge_start, edges):
        t = targets[e] - found
        if t >= 0:
            targets[e] = final_id[t]


NEED_ROOM = 1  # expand_positions stopped: the edge arrays need room for one more position's moves
TOO_MANY = 2   # expand_positions stopped: the graph would exceed its position limit


@njit(inline="always")
def expand_positions(moves_of, outcome_of, ctx, symmetry, first, stop, max_moves, table, codes, indptr,
                     terminal, targets, labels, found, edges, limit, buffer, names, scratch):
    """Expand codes[first:stop] in one compiled pass: each position's outcome into `terminal`,
    and the moves of every unfinished one straight into the graph's arrays, as
    `absorb_moves` does (fresh codes get provisional ids, the first move per target is
    kept, indptr[u+1] is set). No batch arrays in between, no Python per chunk.

    `outcome_of(ctx, code)` is the Value for the player to move where the game is over,
    else -1; `moves_of(ctx, code, symmetry, buffer, names, scratch, stamp)` writes one
    position's moves (at most `max_moves`) in the game's order and returns their number.
    Inlined into the game's cached wrapper (Game.compiled_generator). Returns (next
    position, found, edges, status): status 0 when all are done, NEED_ROOM when the
    edge arrays are full (the caller grows them and calls again from the next
    position), TOO_MANY past `limit` positions. O(positions + moves).
    """
    room = len(targets)
    for u in range(first, stop):
        if edges + max_moves > room:
            return u, found, edges, NEED_ROOM
        code = codes[u]
        outcome = outcome_of(ctx, code)
        terminal[u] = outcome
        if outcome < 0:
            count = moves_of(ctx, code, symmetry, buffer, names, scratch, u + 1)
            # Each move as absorb_moves takes it, written out in the loop: with the same lines in a
            # helper (an @njit(inline="always") function returning (found, edges)), the kernel ran
            # 4-5x slower (chopsticks(fingers=40): 2.0 s against 0.45 s of CPU, same process).
            for i in range(count):
                target = buffer[i]
                v = table[target, 0]
                if v < 0:  # a fresh code: the next id
                    if found >= limit:
                        return u, limit + 1, edges, TOO_MANY
                    v = found
                    table[target, 0] = v
                    codes[v] = target
                    found += 1
                if table[target, 1] != u:  # the first move from u to this code: an edge
                    table[target, 1] = u
                    targets[edges] = v
                    labels[edges] = names[i]
                    edges += 1
        indptr[u + 1] = edges
    return stop, found, edges, 0
