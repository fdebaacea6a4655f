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


@njit(inline="always")
def reach_level(successors, move_count, ctx, max_moves, frontier, seen, found):
    """One level of a breadth-first walk over a game's kernels: every successor of the positions in
    `frontier` not yet marked in the bitset `seen` (bit i of byte i >> 3) is marked and appended to
    `found` (length at least len(frontier) * max_moves). Finished positions (move_count 0) are not
    expanded. Returns the number appended. O(positions + moves)."""
    buffer = np.empty(max_moves, dtype=np.int64)
    n = 0
    for f in range(len(frontier)):
        here = frontier[f]
        if move_count(ctx, here) == 0:
            continue
        for k in range(successors(ctx, here, buffer)):
            there = buffer[k]
            byte = there >> 3
            bit = np.uint8(1 << (there & 7))
            if seen[byte] & bit == 0:
                seen[byte] |= bit
                found[n] = there
                n += 1
    return n


@njit(inline="always")
def map_fixed(image, ctx, indices, out):
    """out[i] = whether `image` (an index map, such as a mirror) leaves indices[i] where it is."""
    for row in range(len(indices)):
        out[row] = image(ctx, indices[row]) == indices[row]


def reach_wrapper(successors, move_count, image=None):
    """(walk, fixed): `reach_level` compiled with one game's kernels, and `map_fixed` with `image`
    when one is given (else None). Compiled once per process: the walk is a rare check
    (explorer.implicit.reachable), not worth a cached wrapper in every game."""
    @njit(nogil=True)
    def reach(ctx, max_moves, frontier, seen, found):
        return reach_level(successors, move_count, ctx, max_moves, frontier, seen, found)

    if image is None:
        return reach, None

    @njit(nogil=True)
    def fixed(ctx, indices, out):
        map_fixed(image, ctx, indices, out)

    return reach, fixed
