"""Compiled (numba) Dodgem kernels over ranks: unrank, rank, moves, un-moves.

The same perfect ranking as `Dodgem.rank` (tests compare them index by
index). A board is two bit masks, square = row * n + column. The context array
`ctx` (int64) holds n, the number of squares, the boards per mover, then the
tables: boards before b blue cars (n entries), red sets of at most n-1 cars
among m free squares (cells+1 entries), binomials C(s, i) for s <= cells and
i <= n ((cells+1) x (n+1), row-major). Every kernel is O(n^2).
"""

from __future__ import annotations

from math import comb

import numpy as np
from explorer.kernels import njit

from explorer.games.base import ImplicitKernels

_BASE = 3


@njit(cache=True, inline="always")
def _binom(ctx, s, i):
    n = ctx[0]
    return ctx[_BASE + n + ctx[1] + 1 + s * (n + 1) + i]


@njit(cache=True)
def unrank(ctx, index):
    """(mover, blue mask, red mask) of a rank."""
    n, cells, total = ctx[0], ctx[1], ctx[2]
    mover = index // total
    rest = index - mover * total
    b = n - 1
    while ctx[_BASE + b] > rest:
        b -= 1
    m = cells - b
    red_sets = ctx[_BASE + n + m]
    q = rest - ctx[_BASE + b]
    blue_rank = q // red_sets
    red_index = q - blue_rank * red_sets
    r = 0
    while red_index >= _binom(ctx, m, r):
        red_index -= _binom(ctx, m, r)
        r += 1
    blue = _subset_unrank(ctx, blue_rank, b)
    relative = _subset_unrank(ctx, red_index, r)
    red = np.int64(0)
    j = 0
    for s in range(cells):
        if (blue >> s) & 1:
            continue
        if (relative >> j) & 1:
            red |= np.int64(1) << s
        j += 1
    return mover, blue, red


@njit(cache=True)
def _subset_unrank(ctx, rank, size):
    mask = np.int64(0)
    s = ctx[1]
    for i in range(size, 0, -1):
        s -= 1
        while _binom(ctx, s, i) > rank:
            s -= 1
        rank -= _binom(ctx, s, i)
        mask |= np.int64(1) << s
    return mask


@njit(cache=True)
def rank(ctx, mover, blue, red):
    n, cells, total = ctx[0], ctx[1], ctx[2]
    blue_rank = 0
    b = 0
    red_rank = 0
    r = 0
    j = 0
    for s in range(cells):
        if (blue >> s) & 1:
            b += 1
            blue_rank += _binom(ctx, s, b)
            continue
        if (red >> s) & 1:
            r += 1
            red_rank += _binom(ctx, j, r)
        j += 1
    m = cells - b
    red_index = red_rank
    for k in range(r):
        red_index += _binom(ctx, m, k)
    return mover * total + ctx[_BASE + b] + blue_rank * ctx[_BASE + n + m] + red_index


@njit(cache=True)
def _moves(ctx, mover, blue, red, out, labels):
    """Write the successors' ranks (and labels = from * 64 + to, 63 = off) in `moves` order."""
    n, cells = ctx[0], ctx[1]
    occupied = blue | red
    mine = blue if mover == 0 else red
    count = 0
    for s in range(cells):
        if not (mine >> s) & 1:
            continue
        row = s // n
        col = s - row * n
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


@njit(cache=True)
def move_count(ctx, index):
    """Moves of a position (each reaches a different position): empty targets in reach."""
    n, cells = ctx[0], ctx[1]
    mover, blue, red = unrank(ctx, index)
    occupied = blue | red
    mine = blue if mover == 0 else red
    count = 0
    for s in range(cells):
        if not (mine >> s) & 1:
            continue
        row = s // n
        col = s - row * n
        if mover == 0:
            count += 1 if col == n - 1 else 1 - ((occupied >> (s + 1)) & 1)
            count += 0 if row == n - 1 else 1 - ((occupied >> (s + n)) & 1)
            count += 0 if row == 0 else 1 - ((occupied >> (s - n)) & 1)
        else:
            count += 1 if row == n - 1 else 1 - ((occupied >> (s + n)) & 1)
            count += 0 if col == 0 else 1 - ((occupied >> (s - 1)) & 1)
            count += 0 if col == n - 1 else 1 - ((occupied >> (s + 1)) & 1)
    return count


@njit(cache=True)
def terminal(ctx, index):
    """WIN (3) when the player to move has no move, else -1."""
    return 3 if move_count(ctx, index) == 0 else -1


@njit(cache=True)
def valid(ctx, index):
    return True


@njit(cache=True)
def predecessors(ctx, index, out):
    """Un-moves: a car of the previous mover steps back, or drives back on past its far edge."""
    n, cells = ctx[0], ctx[1]
    mover, blue, red = unrank(ctx, index)
    previous = 1 - mover
    occupied = blue | red
    mine = blue if previous == 0 else red
    count = 0
    cars = 0
    for s in range(cells):
        if not (mine >> s) & 1:
            continue
        cars += 1
        row = s // n
        col = s - row * n
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


def context(n: int) -> np.ndarray:
    cells = n * n
    red_sets = [sum(comb(m, r) for r in range(n)) for m in range(cells + 1)]
    base, total = [], 0
    for b in range(n):
        base.append(total)
        total += comb(cells, b) * red_sets[cells - b]
    binomials = [comb(s, i) for s in range(cells + 1) for i in range(n + 1)]
    return np.array([n, cells, total, *base, *red_sets, *binomials], dtype=np.int64)


def kernels(game) -> ImplicitKernels:
    n = game.params.size
    return ImplicitKernels(
        ctx=context(n), size=game.code_space(), max_moves=3 * (n - 1), max_unmoves=3 * (n - 1) + n,
        successors=successors, labelled_successors=labelled_successors, predecessors=predecessors,
        terminal=terminal, valid=valid, move_count=move_count)
