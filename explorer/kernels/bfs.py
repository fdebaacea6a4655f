"""Breadth-first generation over integer codes: one kernel call per level, O(level + its moves).

The game supplies each level's moves (its compiled kernel, or numpy
`batch_moves`); `absorb_level` turns them into graph edges: dense ids for
codes met for the first time (in discovery order, so ids stay breadth-first),
one edge per distinct (source, target) keeping the first move in the game's
order, and each source's out-degree. Nothing here scans the code space.

The per-code table is int32[code space, 2]: the dense id (-1 = unseen) and the
last source that reached the code. Keeping both in one 8-byte row makes the
lookup of a move's target one cache miss, not two: generation is bound by
these random reads.
"""

from __future__ import annotations

import numpy as np

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
def absorb_level(live_ids, starts, order, target, label, table, found, limit):
    """Edges of one level.

    The moves of live row r are target[starts[r]:starts[r+1]] in the game's
    order, or, when `order` is not empty, target[order[starts[r]:starts[r+1]]].
    `table` (see the module doc) is updated in place. Returns (fresh codes,
    edge targets, edge labels, degree per live row, ok); ok is False as soon as
    the graph would exceed `limit` positions.
    """
    m = len(target)
    indirect = len(order) > 0
    fresh = np.empty(m, dtype=np.int64)
    targets = np.empty(m, dtype=np.int32)
    labels = np.empty(m, dtype=np.int64)
    degree = np.zeros(len(live_ids), dtype=np.int64)
    new = 0
    edges = 0
    for row in range(len(live_ids)):
        s = live_ids[row]
        before = edges
        for k in range(starts[row], starts[row + 1]):
            i = order[k] if indirect else k
            code = target[i]
            v = table[code, 0]
            if v < 0:
                v = found + new
                if v >= limit:
                    return fresh[:new].copy(), targets[:edges], labels[:edges], degree, False
                table[code, 0] = v
                fresh[new] = code
                new += 1
            if table[code, 1] != s:  # the first move from s to this code; later ones repeat it
                table[code, 1] = s
                targets[edges] = v
                labels[edges] = label[i]
                edges += 1
        degree[row] = edges - before
    return fresh[:new].copy(), targets[:edges], labels[:edges], degree, True


@jit
def set_ids(table, codes, first):
    """table[codes[i], 0] = first + i (the start positions)."""
    for i in range(len(codes)):
        table[codes[i], 0] = first + i
