"""Compiled batch helpers of the implicit mode: many indices' moves, or terminal values, at once
into preallocated arrays. The implicit retrograde itself is explorer.kernels.retrograde.solve_cells.

Like `solve_cells`, they take the game's kernels as arguments and are inlined into a
wrapper that each game writes at the top level of its kernels module (so numba caches
it: a function taking other functions as arguments is compiled again in every
process). `batch_wrappers` compiles uncached ones for games that do not ship theirs.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(inline="always")
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


@njit(inline="always")
def map_terminal(terminal, ctx, codes, out):
    for row in range(len(codes)):
        out[row] = terminal(ctx, codes[row])


def batch_wrappers(labelled_successors, terminal):
    """(moves_of, terminal_of) compiled for one game's kernels, uncached: the fallback for a game
    whose kernels module does not define them (explorer.games.base.ImplicitKernels)."""
    @njit(nogil=True)
    def moves_of(ctx, max_moves, codes, sources, targets, labels):
        return map_successors(labelled_successors, ctx, max_moves, codes, sources, targets, labels)

    @njit(nogil=True)
    def terminal_of(ctx, codes, out):
        map_terminal(terminal, ctx, codes, out)

    return moves_of, terminal_of
