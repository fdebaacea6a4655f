"""Compiled (numba) Dodgem kernels over ranks: unrank, rank, moves, un-moves.

The same perfect ranking as `Dodgem.rank` (tests compare them index by
index). A board is two bit masks, square = row * n + column. The context array
`ctx` (int64) holds n, the number of squares, the boards per mover, then the
tables: boards before b blue cars (n entries), red sets of at most n-1 cars
among m free squares (cells+1 entries), binomials C(s, i) for s <= cells and
i <= n ((cells+1) x (n+1), row-major), the same shape of cumulative sums
sum(C(m, k) for k < r), and for each set size k < n the k-subsets of the
squares as masks in colex order (their starts first).

Work per call is per car, not per square: rank walks the set bits (trailing
zeros, and BMI2's pext to pack the red cars onto the squares blue leaves
free), unrank reads the two subsets from the colex tables and spreads the red
one over the free squares (pdep): explorer.kernels.bits. The kernels are inlined
(numba's inline="always") into the solve that calls them, which saves a fifth of
its time on 5x5 against ordinary calls (measured). That is what makes the
implicit solve of 5x5 about as fast as plain C over the same ranking (bench/).
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
from explorer.kernels import njit
from explorer.kernels.implicit import map_successors, map_terminal
from explorer.kernels.retrograde import implicit_initial, solve_cells

from explorer.games.base import ImplicitKernels
from explorer.kernels.bits import deposit, extract, popcount, trailing_zeros

_BASE = 3
_LOW = 13  # squares in the low half of a set for the two-look-up colex rank


@njit(cache=True, inline="always")
def _binom(ctx, s, i):
    n = ctx[0]
    return ctx[_BASE + n + ctx[1] + 1 + s * (n + 1) + i]


@njit(cache=True, inline="always")
def _cumulative(ctx, m, r):
    """sum(C(m, k) for k < r): red sets of fewer than r cars among m free squares."""
    n, cells = ctx[0], ctx[1]
    return ctx[_BASE + n + cells + 1 + (cells + 1) * (n + 1) + m * (n + 1) + r]


@njit(cache=True, inline="always")
def _subset(ctx, size, rank):
    """The mask of the `size`-subset of the squares with this colex rank."""
    n, cells = ctx[0], ctx[1]
    return ctx[ctx[_BASE + n + cells + 1 + 2 * (cells + 1) * (n + 1) + size] + rank]


@njit(cache=True, inline="always")
def _row_col(ctx, square):
    """(row, column) of a square, from the context's tables."""
    n, cells = ctx[0], ctx[1]
    at = ctx[_BASE + n + cells + 2 + 2 * (cells + 1) * (n + 1) + n]
    return ctx[at + square], ctx[at + cells + square]


@njit(cache=True, inline="always")
def _set_rank(ctx, bits):
    """The colex rank of a set of squares (of fewer than n): two table look-ups, or its bits."""
    n, cells = ctx[0], ctx[1]
    at = ctx[_BASE + n + cells + 1 + 2 * (cells + 1) * (n + 1) + n]
    if at >= 0:
        low = bits & ((1 << _LOW) - 1)
        high = np.int64(1) << max(cells - _LOW, 0)
        return ctx[at + low] + ctx[at + (1 << _LOW) + popcount(low) * high + (bits >> _LOW)]
    total = 0
    k = 0
    while bits:  # the k-th square (from 1) on square s adds C(s, k)
        s = trailing_zeros(bits)
        bits &= bits - 1
        k += 1
        total += _binom(ctx, s, k)
    return total


@njit(cache=True, inline="always")
def unrank(ctx, index):
    """(mover, blue mask, red mask) of a rank."""
    n, cells, total = ctx[0], ctx[1], ctx[2]
    mover = 1 if index >= total else 0  # a comparison, not a division
    rest = index - mover * total
    b = n - 1
    while ctx[_BASE + b] > rest:
        b -= 1
    m = cells - b
    red_sets = ctx[_BASE + n + m]
    q = rest - ctx[_BASE + b]
    if q < 1 << 32:  # always up to 5x5: a 32-bit division is the cheaper one
        blue_rank = np.int64(np.uint32(q) // np.uint32(red_sets))
    else:
        blue_rank = q // red_sets
    red_index = q - blue_rank * red_sets
    r = 0
    while r + 1 < n and _cumulative(ctx, m, r + 1) <= red_index:
        r += 1
    blue = _subset(ctx, b, blue_rank)
    free = ((np.int64(1) << ctx[1]) - 1) & ~blue
    return mover, blue, deposit(_subset(ctx, r, red_index - _cumulative(ctx, m, r)), free)


@njit(cache=True, inline="always")
def rank(ctx, mover, blue, red):
    n, cells, total = ctx[0], ctx[1], ctx[2]
    relative = extract(red, ((np.int64(1) << cells) - 1) & ~blue)  # red packed onto the free squares
    m = cells - popcount(blue)
    return (mover * total + ctx[_BASE + popcount(blue)] + _set_rank(ctx, blue) * ctx[_BASE + n + m]
            + _cumulative(ctx, m, popcount(relative)) + _set_rank(ctx, relative))


@njit(cache=True, inline="always")
def _moves(ctx, mover, blue, red, out, labels):
    """Write the successors' ranks (and labels = from * 64 + to, 63 = off) in `moves` order."""
    n, cells = ctx[0], ctx[1]
    occupied = blue | red
    mine = blue if mover == 0 else red
    count = 0
    cars = mine
    while cars:
        s = trailing_zeros(cars)
        cars &= cars - 1
        row, col = _row_col(ctx, s)
        for d in range(3):
            if mover == 0:
                dr, dc = (0, 1) if d == 0 else ((1, 0) if d == 1 else (-1, 0))
            else:
                dr, dc = (1, 0) if d == 0 else ((0, -1) if d == 1 else (0, 1))
            r, c = row + dr, col + dc
            if d == 0 and (r == n or c == n):
                target = -1
            elif 0 <= r < n and 0 <= c < n:
                target = r * n + c
                if (occupied >> target) & 1:
                    continue
            else:
                continue
            new = mine & ~(np.int64(1) << s)
            if target >= 0:
                new |= np.int64(1) << target
            if mover == 0:
                out[count] = rank(ctx, 1, new, red)
            else:
                out[count] = rank(ctx, 0, blue, new)
            labels[count] = s * 64 + (target if target >= 0 else 63)
            count += 1
    return count


@njit(cache=True)
def successors(ctx, index, out):
    mover, blue, red = unrank(ctx, index)
    labels = np.empty(len(out), dtype=np.int64)
    return _moves(ctx, mover, blue, red, out, labels)


@njit(cache=True)
def labelled_successors(ctx, index, out, labels):
    mover, blue, red = unrank(ctx, index)
    return _moves(ctx, mover, blue, red, out, labels)


@njit(cache=True, inline="always")
def move_count(ctx, index):
    """Moves of a position (each reaches a different position): empty targets in reach."""
    n, cells = ctx[0], ctx[1]
    mover, blue, red = unrank(ctx, index)
    occupied = blue | red
    mine = blue if mover == 0 else red
    count = 0
    cars = mine
    while cars:
        s = trailing_zeros(cars)
        cars &= cars - 1
        row, col = _row_col(ctx, s)
        if mover == 0:
            count += 1 if col == n - 1 else 1 - ((occupied >> (s + 1)) & 1)
            count += 0 if row == n - 1 else 1 - ((occupied >> (s + n)) & 1)
            count += 0 if row == 0 else 1 - ((occupied >> (s - n)) & 1)
        else:
            count += 1 if row == n - 1 else 1 - ((occupied >> (s + n)) & 1)
            count += 0 if col == 0 else 1 - ((occupied >> (s - 1)) & 1)
            count += 0 if col == n - 1 else 1 - ((occupied >> (s + 1)) & 1)
    return count


@njit(cache=True, inline="always")
def terminal(ctx, index):
    """WIN (3) when the player to move has no move, else -1."""
    return 3 if move_count(ctx, index) == 0 else -1


@njit(cache=True, inline="always")
def valid(ctx, index):
    return True


@njit(cache=True, inline="always")
def predecessors(ctx, index, out):
    """Un-moves: a car of the previous mover steps back, or drives back on past its far edge."""
    n, cells = ctx[0], ctx[1]
    mover, blue, red = unrank(ctx, index)
    previous = 1 - mover
    occupied = blue | red
    mine = blue if previous == 0 else red
    count = 0
    cars = popcount(mine)
    rest = mine
    while rest:
        s = trailing_zeros(rest)
        rest &= rest - 1
        row, col = _row_col(ctx, s)
        for d in range(3):
            if previous == 0:
                dr, dc = (0, 1) if d == 0 else ((1, 0) if d == 1 else (-1, 0))
            else:
                dr, dc = (1, 0) if d == 0 else ((0, -1) if d == 1 else (0, 1))
            r, c = row - dr, col - dc
            if 0 <= r < n and 0 <= c < n:
                origin = r * n + c
                if (occupied >> origin) & 1:
                    continue
                new = (mine & ~(np.int64(1) << s)) | (np.int64(1) << origin)
                out[count] = rank(ctx, previous, new, red) if previous == 0 else rank(ctx, previous, blue, new)
                count += 1
    if cars < n - 1:
        for k in range(n):
            edge = k * n + n - 1 if previous == 0 else (n - 1) * n + k
            if (occupied >> edge) & 1:
                continue
            new = mine | (np.int64(1) << edge)
            out[count] = rank(ctx, previous, new, red) if previous == 0 else rank(ctx, previous, blue, new)
            count += 1
    return count


@njit(cache=True, nogil=True, parallel=True)
def solve(ctx, max_unmoves, cells, queue, state, budget, lo, seeds, seed_runs):
    """The one retrograde kernel with these un-moves, compiled once and cached (ImplicitKernels.solve)."""
    return solve_cells(implicit_initial, predecessors, valid, move_count, terminal, ctx, max_unmoves, cells, queue,
                       state, budget, lo, seeds, seed_runs)


@njit(cache=True, nogil=True)
def moves_of(ctx, max_moves, codes, sources, targets, labels):
    """Every move of many indices (ImplicitKernels.moves_of), cached."""
    return map_successors(labelled_successors, ctx, max_moves, codes, sources, targets, labels)


@njit(cache=True, nogil=True)
def terminal_of(ctx, codes, out):
    """The terminal value of many indices (ImplicitKernels.terminal_of), cached."""
    map_terminal(terminal, ctx, codes, out)


def _colex(bits: int, offset: int, below: int) -> int:
    """The colex rank terms of the squares in `bits` (shifted up by `offset`), the first of
    them being the (below + 1)-th square of its set."""
    squares = [s + offset for s in range(bits.bit_length()) if bits >> s & 1]
    return sum(comb(s, below + k + 1) for k, s in enumerate(squares))


def context(n: int) -> np.ndarray:
    cells = n * n
    red_sets = [sum(comb(m, r) for r in range(n)) for m in range(cells + 1)]
    base, total = [], 0
    for b in range(n):
        base.append(total)
        total += comb(cells, b) * red_sets[cells - b]
    binomials = [comb(s, i) for s in range(cells + 1) for i in range(n + 1)]
    cumulative = [sum(comb(m, k) for k in range(r)) for m in range(cells + 1) for r in range(n + 1)]
    head = [n, cells, total, *base, *red_sets, *binomials, *cumulative]
    tables, starts = [], []
    for size in range(n):
        starts.append(len(head) + n + 2 + len(tables))
        by_rank = [0] * comb(cells, size)
        for squares in combinations(range(cells), size):
            by_rank[sum(comb(s, k + 1) for k, s in enumerate(squares))] = sum(1 << s for s in squares)
        tables += by_rank
    # A set's colex rank in two look-ups, its squares below _LOW then the rest given how many lie
    # below; only where the second table stays small (n <= 5), else rank walks the bits.
    high = 1 << max(cells - _LOW, 0)
    rank_at = -1
    if n * high <= 1 << 16:
        rank_at = len(head) + n + 2 + len(tables)
        tables += [_colex(low, 0, 0) for low in range(1 << _LOW)]
        tables += [_colex(bits, _LOW, below) for below in range(n) for bits in range(high)]
    squares_at = len(head) + n + 2 + len(tables)  # each square's row, then its column: no division per car
    tables += [s // n for s in range(cells)] + [s % n for s in range(cells)]
    return np.array([*head, *starts, rank_at, squares_at, *tables], dtype=np.int64)


def kernels(game) -> ImplicitKernels:
    n = game.params.size
    return ImplicitKernels(
        ctx=context(n), size=game.code_space(), max_moves=3 * (n - 1), max_unmoves=3 * (n - 1) + n,
        successors=successors, labelled_successors=labelled_successors, predecessors=predecessors,
        terminal=terminal, valid=valid, move_count=move_count, solve=solve,
        moves_of=moves_of, terminal_of=terminal_of)
