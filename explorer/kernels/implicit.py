"""Compiled batch helpers of the implicit mode: many indices' moves, or terminal values, at once
into preallocated arrays (the game's kernels as arguments). The implicit retrograde
itself is explorer.kernels.retrograde.retrograde_implicit.
"""

from __future__ import annotations

import numpy as np
from numba import njit



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
