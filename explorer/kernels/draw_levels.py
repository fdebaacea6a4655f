"""Draw levels (explorer.algorithms.draw_levels) as one compiled pass: O(V + E).

One FIFO queue per level instead of GamesmanClassic's lose-queue-first pair:
both hand out remoteness in non-decreasing order, and the purity test looks
only at fringe and non-pure parents, which are fixed before a level's queue
runs, so the two orders give the same result (the tests check it).
Memory besides the result: a counter, a queue slot and a seed slot per position.
"""

from __future__ import annotations

import numpy as np

from explorer.kernels import jit

NOT_A_DRAW, DRAW_WIN, DRAW_LOSE, NONPURE, DEAD, UNDECIDED = -1, 0, 1, 2, 3, 4
DRAW, WIN = 1, 3  # explorer.core.values.Value


@jit
def draw_levels(succ_indptr, succ_indices, pred_indptr, pred_indices, value):
    """(kind int8[V], level int32[V], remoteness int32[V]); see explorer.algorithms.draw_levels."""
    n = len(value)
    kind = np.full(n, NOT_A_DRAW, dtype=np.int8)
    level = np.full(n, -1, dtype=np.int32)
    remoteness = np.full(n, -1, dtype=np.int32)
    pending = np.zeros(n, dtype=np.int32)
    seeds = np.empty(n, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    num_seeds = 0
    for u in range(n):
        if value[u] == DRAW:
            kind[u] = UNDECIDED
            for e in range(succ_indptr[u], succ_indptr[u + 1]):
                if value[succ_indices[e]] == DRAW:
                    pending[u] += 1
        elif value[u] == WIN:
            seeds[num_seeds] = u
            num_seeds += 1
    current = 0
    nonpure = 0
    while num_seeds > 0:
        head = tail = 0
        for i in range(num_seeds):  # the level's fringe
            child = seeds[i]
            for e in range(pred_indptr[child], pred_indptr[child + 1]):
                parent = pred_indices[e]
                if kind[parent] == UNDECIDED:
                    kind[parent] = DRAW_LOSE
                    level[parent] = current
                    remoteness[parent] = 0
                    queue[tail] = parent
                    tail += 1
        num_seeds = 0
        while head < tail:
            child = queue[head]
            head += 1
            if kind[child] == DRAW_LOSE:
                impure = False
                for e in range(pred_indptr[child], pred_indptr[child + 1]):
                    k = kind[pred_indices[e]]
                    if k == DRAW_LOSE or k == NONPURE:
                        impure = True
                        break
                if impure:
                    kind[child] = NONPURE
                    nonpure += 1
                    continue
                for e in range(pred_indptr[child], pred_indptr[child + 1]):
                    parent = pred_indices[e]
                    if kind[parent] == UNDECIDED:
                        kind[parent] = DRAW_WIN
                        level[parent] = current
                        remoteness[parent] = remoteness[child] + 1
                        queue[tail] = parent
                        tail += 1
                        seeds[num_seeds] = parent
                        num_seeds += 1
            else:
                for e in range(pred_indptr[child], pred_indptr[child + 1]):
                    parent = pred_indices[e]
                    if kind[parent] == UNDECIDED:
                        pending[parent] -= 1
                        if pending[parent] == 0:
                            kind[parent] = DRAW_LOSE
                            level[parent] = current
                            remoteness[parent] = remoteness[child] + 1
                            queue[tail] = parent
                            tail += 1
        current += 1
    if nonpure > 0:  # spread to every draw with a draw-keeping line into a non-pure draw
        top = 0
        for u in range(n):
            if kind[u] == NONPURE:
                queue[top] = u
                top += 1
        while top > 0:
            top -= 1
            child = queue[top]
            for e in range(pred_indptr[child], pred_indptr[child + 1]):
                parent = pred_indices[e]
                k = kind[parent]
                if k == DRAW_WIN or k == DRAW_LOSE or k == UNDECIDED:
                    kind[parent] = NONPURE
                    queue[top] = parent
                    top += 1
    for u in range(n):
        if kind[u] == UNDECIDED:
            kind[u] = DEAD
        if kind[u] != DRAW_WIN and kind[u] != DRAW_LOSE:
            level[u] = -1
            remoteness[u] = -1
    return kind, level, remoteness
