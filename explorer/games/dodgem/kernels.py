"""Compiled (numba) Dodgem kernels over ranks: unrank, rank, moves, un-moves.

The same perfect ranking as `Dodgem.rank` (tests compare them index by
index): tier (b blue, r red cars) = b * n + r first, then the mover, then the
blue set, then the red set among the squares blue leaves free, each set by its
colex rank. A board is two bit masks, square = row * n + column. The context
array `ctx` (int64) holds n, the number of squares (= the number of tiers), the
index space, then the tables: the tiers' offsets (cells + 1 entries, the prefix
sums over the tiers in order), each tier's boards per mover (cells entries),
binomials C(s, i) for s <= cells and i <= n ((cells+1) x (n+1), row-major), and
for each set size k < n the k-subsets of the squares as masks in colex order
(their starts first), the two-look-up rank tables, each square's row and
column, each square's origins (the squares a car of Blue, then of Red, steps to
it from, as masks), and last the masks of the first and last row and column.

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
from numba import prange

from explorer.kernels import njit
from explorer.kernels.ranked import cached_wrappers
from explorer.kernels.retrograde import (CODE_BITS, OPEN, START, WIN, implicit_initial, queue_first_level,
                                         solve_cells)

from explorer.games.base import ImplicitKernels
from explorer.kernels.bits import deposit, extract, popcount, trailing_zeros

_BASE = 3
_LOW = 13  # squares in the low half of a set for the two-look-up colex rank
_EDGES = 4  # the context's last entries: masks of the board's first and last row, first and last column


@njit(cache=True, inline="always")
def _binom(ctx, s, i):
    return ctx[_BASE + 2 * ctx[1] + 1 + s * (ctx[0] + 1) + i]


@njit(cache=True, inline="always")
def _half(ctx, tier):
    """The boards per mover of a tier: C(cells, b) * C(cells - b, r)."""
    return ctx[_BASE + ctx[1] + 1 + tier]


@njit(cache=True, inline="always")
def _subset(ctx, size, rank):
    """The mask of the `size`-subset of the squares with this colex rank."""
    n, cells = ctx[0], ctx[1]
    return ctx[ctx[_BASE + 2 * cells + 1 + (cells + 1) * (n + 1) + size] + rank]


@njit(cache=True, inline="always")
def _layout(ctx):
    """(n, squares, where the tiers' boards per mover start, where the binomials start, where the
    two-look-up rank tables start or -1, where each square's row then column is): read once per call of a kernel
    and handed to `_rank_in`, so that its table look-ups do not each read the context's header
    again (numba cannot tell that a store to the kernel's output array leaves the context
    unchanged, so it reloads what it cannot keep). Measured on the 5x5 queue, alternating in one
    sitting: 43 s of CPU against 51 s reading the header per look-up."""
    n, cells = ctx[0], ctx[1]
    tables_at = _BASE + 2 * cells + 1 + (cells + 1) * (n + 1)
    return (n, cells, _BASE + cells + 1, _BASE + 2 * cells + 1, ctx[tables_at + n], ctx[tables_at + n + 1])


@njit(cache=True, inline="always")
def _set_rank(ctx, cells, rank_at, bits):
    """The colex rank of a set of squares (of fewer than n): two table look-ups, or its bits."""
    if rank_at >= 0:
        low = bits & ((1 << _LOW) - 1)
        high = np.int64(1) << max(cells - _LOW, 0)
        return ctx[rank_at + low] + ctx[rank_at + (1 << _LOW) + popcount(low) * high + (bits >> _LOW)]
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
    n, cells = ctx[0], ctx[1]
    b = n - 1  # the tier: its blue cars, then its red cars, by the offsets (tier b * n + r)
    while ctx[_BASE + b * n] > index:
        b -= 1
    r = n - 1
    while ctx[_BASE + b * n + r] > index:
        r -= 1
    tier = b * n + r
    q = index - ctx[_BASE + tier]
    half = _half(ctx, tier)
    mover = 1 if q >= half else 0  # a comparison, not a division
    q -= mover * half
    red_sets = _binom(ctx, cells - b, r)
    if q < 1 << 32:  # always up to 5x5: a 32-bit division is the cheaper one
        blue_rank = np.int64(np.uint32(q) // np.uint32(red_sets))
    else:
        blue_rank = q // red_sets
    blue = _subset(ctx, b, blue_rank)
    free = ((np.int64(1) << cells) - 1) & ~blue
    return mover, blue, deposit(_subset(ctx, r, q - blue_rank * red_sets), free)


@njit(cache=True, inline="always")
def rank(ctx, mover, blue, red):
    return _rank_in(ctx, _layout(ctx), mover, blue, red)


@njit(cache=True, inline="always")
def _rank_in(ctx, layout, mover, blue, red):
    """rank, with the context's header already read (`_layout`)."""
    n, cells, halves_at, binom_at, rank_at, _ = layout
    relative = extract(red, ((np.int64(1) << cells) - 1) & ~blue)  # red packed onto the free squares
    b, r = popcount(blue), popcount(red)
    tier = b * n + r
    return (ctx[_BASE + tier] + mover * ctx[halves_at + tier]
            + _set_rank(ctx, cells, rank_at, blue) * ctx[binom_at + (cells - b) * (n + 1) + r]
            + _set_rank(ctx, cells, rank_at, relative))


@njit(cache=True, inline="always")
def _moves(ctx, mover, blue, red, out, labels):
    """Write the successors' ranks (and labels = from * 64 + to, 63 = off) in `moves` order."""
    layout = _layout(ctx)
    n = layout[0]
    occupied = blue | red
    mine = blue if mover == 0 else red
    count = 0
    cars = mine
    while cars:
        s = trailing_zeros(cars)
        cars &= cars - 1
        row, col = ctx[layout[5] + s], ctx[layout[5] + layout[1] + s]
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
                out[count] = _rank_in(ctx, layout, 1, new, red)
            else:
                out[count] = _rank_in(ctx, layout, 0, blue, new)
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
    mover, blue, red = unrank(ctx, index)
    return _count_moves(ctx, mover, blue, red)


@njit(cache=True, inline="always")
def _count_moves(ctx, mover, blue, red):
    """move_count of the position (mover, blue, red), already unranked: all cars at once, a bit mask
    per direction (the cars that can step that way, shifted onto their targets, kept where empty) and
    a population count each, plus the cars that drive off. No loop over the cars, no branch."""
    n = ctx[0]
    at = len(ctx) - _EDGES
    first_row, last_row, first_col, last_col = ctx[at], ctx[at + 1], ctx[at + 2], ctx[at + 3]
    empty = ~(blue | red)
    if mover == 0:  # Blue: right (off the board from the last column), up, down
        return (popcount(blue & last_col) + popcount(((blue & ~last_col) << 1) & empty)
                + popcount(((blue & ~last_row) << n) & empty) + popcount(((blue & ~first_row) >> n) & empty))
    # Red: up (off the board from the last row), left, right
    return (popcount(red & last_row) + popcount(((red & ~last_row) << n) & empty)
            + popcount(((red & ~first_col) >> 1) & empty) + popcount(((red & ~last_col) << 1) & empty))


@njit(cache=True, inline="always")
def terminal(ctx, index):
    """WIN (3) when the player to move has no move, else -1."""
    return 3 if move_count(ctx, index) == 0 else -1


@njit(cache=True, inline="always")
def valid(ctx, index):
    return True


@njit(cache=True, inline="always")
def predecessors(ctx, index, out):
    """Un-moves: a car of the previous mover steps back, or drives back on past its far edge. Listed
    car by car, its squares to step back from as one table mask (each square's origins, in the context)
    kept where empty, the drives back on as the far edge's empty squares: no loop over directions and no
    bounds check. The ranks are computed with what the un-move leaves alone hoisted: when Red moved
    last, the blue set, its rank and the red cars' free squares are the position's own, so a
    predecessor costs one bit extract and one set rank. The same predecessors as the rules' un-moves,
    in an order of their own (tests/games/test_dodgem.py compares them as sets). Measured on every index of 5x5,
    in plain C, same sitting: 8.8 s against 20.5 s for a loop over the three directions with a full
    rank per predecessor (the loop before this one)."""
    n, cells, halves_at, binom_at, rank_at, squares_at = _layout(ctx)
    mover, blue, red = unrank(ctx, index)
    board = (np.int64(1) << cells) - 1
    empty = board & ~(blue | red)
    edges = len(ctx) - _EDGES
    origins = squares_at + 2 * cells  # each square's origins for Blue, then for Red
    b, r = popcount(blue), popcount(red)
    tier = b * n + r
    count = 0
    if mover == 0:  # Red moved last: the blue set stays, so does its rank
        free = board & ~blue
        blue_rank = _set_rank(ctx, cells, rank_at, blue)
        base = ctx[_BASE + tier] + ctx[halves_at + tier] + blue_rank * ctx[binom_at + (cells - b) * (n + 1) + r]
        cars = red
        while cars:
            s = trailing_zeros(cars)
            cars &= cars - 1
            rest = red & ~(np.int64(1) << s)
            back = ctx[origins + cells + s] & empty
            while back:
                origin = back & -back
                back ^= origin
                out[count] = base + _set_rank(ctx, cells, rank_at, extract(rest | origin, free))
                count += 1
        if r < n - 1:  # a red car drives back on past the last row
            base = (ctx[_BASE + tier + 1] + ctx[halves_at + tier + 1]
                    + blue_rank * ctx[binom_at + (cells - b) * (n + 1) + r + 1])
            back = ctx[edges + 1] & empty
            while back:
                origin = back & -back
                back ^= origin
                out[count] = base + _set_rank(ctx, cells, rank_at, extract(red | origin, free))
                count += 1
        return count
    # Blue moved last: the red set stays; both sets' ranks change (the red one over blue's free squares)
    start, sets = ctx[_BASE + tier], ctx[binom_at + (cells - b) * (n + 1) + r]
    cars = blue
    while cars:
        s = trailing_zeros(cars)
        cars &= cars - 1
        rest = blue & ~(np.int64(1) << s)
        back = ctx[origins + s] & empty
        while back:
            origin = back & -back
            back ^= origin
            moved = rest | origin
            out[count] = (start + _set_rank(ctx, cells, rank_at, moved) * sets
                          + _set_rank(ctx, cells, rank_at, extract(red, board & ~moved)))
            count += 1
    if b < n - 1:  # a blue car drives back on past the last column
        start, sets = ctx[_BASE + tier + n], ctx[binom_at + (cells - b - 1) * (n + 1) + r]
        back = ctx[edges + 3] & empty
        while back:
            origin = back & -back
            back ^= origin
            moved = blue | origin
            out[count] = (start + _set_rank(ctx, cells, rank_at, moved) * sets
                          + _set_rank(ctx, cells, rank_at, extract(red, board & ~moved)))
            count += 1
    return count


@njit(cache=True, inline="always")
def _next_subset(mask):
    """The next larger mask with as many bits set (Gosper's hack): the next set in colex order."""
    ripple = mask + (mask & -mask)
    return ripple | ((mask ^ ripple) >> (2 + trailing_zeros(mask)))


@njit(cache=True, inline="always")
def first_cells(ctx, lo, cells):
    """cells[i] = implicit_initial's first cell of index lo + i, for every i, by walking the positions
    in rank order instead of unranking each: every blue set with its mover owns, in each tier of its
    blue cars (one per red count r), a contiguous block of indices, its red sets of r cars in colex
    order (the C baseline's seeding pass, bench/c/dodgem_retrograde.c). A position without a move is
    a win for its mover; Dodgem has no other finished position and every index is a position. On
    every core: the blue sets are split over the threads, Blue's turns before Red's (so two threads
    get as much work each, whatever the tiers' sizes), and each index writes only its own cell.
    O(indices), no division, no table look-up per index (5x5 on one thread, same sitting: 3.0 s of
    CPU against 10.2 s unranking each index)."""
    n, squares = ctx[0], ctx[1]
    hi = lo + len(cells)
    board = (np.int64(1) << squares) - 1
    per_mover = 0
    for b in range(n):
        per_mover += _binom(ctx, squares, b)
    for block in prange(2 * per_mover):
        mover = 1 if block >= per_mover else 0
        rest = block - mover * per_mover
        b = 0
        while rest >= _binom(ctx, squares, b):
            rest -= _binom(ctx, squares, b)
            b += 1
        m = squares - b
        blue = _subset(ctx, b, rest)
        free = board & ~blue
        end = np.int64(1) << m
        for r in range(n):
            tier = b * n + r
            red_sets = _binom(ctx, m, r)
            index = ctx[_BASE + tier] + mover * _half(ctx, tier) + rest * red_sets
            if index + red_sets <= lo or index >= hi:
                continue
            relative = (np.int64(1) << r) - 1
            while relative < end:
                if lo <= index < hi:
                    moves = _count_moves(ctx, mover, blue, deposit(relative, free))
                    cells[index - lo] = (moves << CODE_BITS) | OPEN if moves > 0 else WIN
                index += 1
                relative = _next_subset(relative) if r > 0 else end


@njit(cache=True, nogil=True, parallel=True)
def solve(ctx, max_unmoves, cells, queue, state, budget, lo, seeds, seed_runs):
    """The one retrograde kernel with these un-moves, compiled once and cached (ImplicitKernels.solve).
    Its first pass is Dodgem's own (first_cells: no unrank per index); the same cells as solve_cells'."""
    if state[0] == START:
        first_cells(ctx, lo, cells)
        status = queue_first_level(cells, queue, state)
        if status < 0:
            return status
    return solve_cells(implicit_initial, predecessors, valid, move_count, terminal, ctx, max_unmoves, cells, queue,
                       state, budget, lo, seeds, seed_runs)


moves_of, terminal_of = cached_wrappers(globals(), "moves_of", "terminal_of")  # cached (explorer.kernels.ranked)


def _colex(bits: int, offset: int, below: int) -> int:
    """The colex rank terms of the squares in `bits` (shifted up by `offset`), the first of
    them being the (below + 1)-th square of its set."""
    squares = [s + offset for s in range(bits.bit_length()) if bits >> s & 1]
    return sum(comb(s, below + k + 1) for k, s in enumerate(squares))


def context(game) -> np.ndarray:
    n = game.params.size
    cells = n * n
    offsets, halves = game.tables  # the rules' ranking tables: one source for both rankings
    binomials = [comb(s, i) for s in range(cells + 1) for i in range(n + 1)]
    head = [n, cells, offsets[-1], *offsets, *halves, *binomials]
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
    # Right after them, each square's origins: the squares a car of Blue, then of Red, steps to it from
    # (a mask each; predecessors).
    steps = (((0, 1), (1, 0), (-1, 0)), ((1, 0), (0, -1), (0, 1)))  # Blue right, up, down; Red up, left, right
    tables += [sum(1 << ((s // n - dr) * n + s % n - dc) for dr, dc in steps[player]
                   if 0 <= s // n - dr < n and 0 <= s % n - dc < n) for player in (0, 1) for s in range(cells)]
    rows = [sum(1 << (row * n + col) for col in range(n)) for row in (0, n - 1)]
    columns = [sum(1 << (row * n + col) for row in range(n)) for col in (0, n - 1)]
    edges = [*rows, *columns]  # the last _EDGES entries: first and last row, first and last column
    return np.array([*head, *starts, rank_at, squares_at, *tables, *edges], dtype=np.int64)


def kernels(game) -> ImplicitKernels:
    n = game.params.size
    return ImplicitKernels(
        ctx=context(game), size=game.code_space(), max_moves=3 * (n - 1), max_unmoves=3 * (n - 1) + n,
        successors=successors, labelled_successors=labelled_successors, predecessors=predecessors,
        terminal=terminal, valid=valid, move_count=move_count, solve=solve,
        moves_of=moves_of, terminal_of=terminal_of)
