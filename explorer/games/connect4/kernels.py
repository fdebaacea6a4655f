"""Compiled (numba) Connect Four kernels over GLOBAL indices: unrank, rank, moves, un-moves, lines.

The same perfect ranking as `Connect4.rank` (tier offset + heights rank x
C(k, ceil(k/2)) + colex rank of X's cells; tests compare them index by index).
A board is two int64 masks in John Tromp's layout: column c holds bits
c*(height+1) .. c*(height+1)+height-1, bottom up, and one spare bit on top that
is always 0, so that a line test by shifts (across: height+1, up: 1, the
diagonals: height and height+2) never wraps from one column into the next.

The context array `ctx` (int64) holds width, height, connect, height+1, the
number of cells and where its tables start: the tier offsets (cells + 2), the
binomials C(n, r) for n, r <= cells, and fill[c][s], the ways columns c.. can
hold s pieces. The colours go through BMI2's pext/pdep (explorer.kernels.bits):
X's cells packed onto the occupied ones are the k-bit pattern the colex rank reads.

No cached solve wrapper here: the tiered solver's engineer owns the retrograde
kernel's signature (ImplicitKernels.solve stays None, compiled per process).
"""

from __future__ import annotations

from math import comb

import numpy as np
from explorer.kernels import njit
from explorer.kernels.ranked import cached_wrappers

from explorer.games.base import ImplicitKernels
from explorer.kernels.bits import deposit, extract, popcount, trailing_zeros

_W, _H, _N, _S, _CELLS, _AT_OFFSETS, _AT_BINOM, _AT_FILL = range(8)
_HEAD = 8
LOSS, TIE = 0, 2  # explorer.core.values.Value, for the player to move


@njit(cache=True, inline="always")
def _binom(ctx, n, r):
    if r < 0 or r > n:
        return 0
    return ctx[ctx[_AT_BINOM] + n * (ctx[_CELLS] + 1) + r]


@njit(cache=True, inline="always")
def _fill(ctx, c, s):
    if s < 0:
        return 0
    return ctx[ctx[_AT_FILL] + c * (ctx[_CELLS] + 1) + s]


@njit(cache=True, inline="always")
def _tier(ctx, index):
    """The k with offsets[k] <= index < offsets[k + 1] (binary search)."""
    at = ctx[_AT_OFFSETS]
    low, high = 0, ctx[_CELLS]
    while low < high:
        middle = (low + high + 1) // 2
        if ctx[at + middle] <= index:
            low = middle
        else:
            high = middle - 1
    return low


@njit(cache=True, inline="always")
def unrank(ctx, index):
    """(X mask, O mask, pieces) of a global index."""
    width, stride = ctx[_W], ctx[_S]
    k = _tier(ctx, index)
    xs = (k + 1) // 2
    colourings = _binom(ctx, k, xs)
    local = index - ctx[ctx[_AT_OFFSETS] + k]
    heights_rank = local // colourings
    colours = local - heights_rank * colourings
    occupied = np.int64(0)
    rest = k
    for c in range(width):
        h = 0
        while heights_rank >= _fill(ctx, c + 1, rest - h):
            heights_rank -= _fill(ctx, c + 1, rest - h)
            h += 1
        occupied |= ((np.int64(1) << h) - 1) << (c * stride)
        rest -= h
    pattern = np.int64(0)
    p = k
    for j in range(xs, 0, -1):  # colex unrank: the largest p with C(p, j) <= what is left
        p -= 1
        while _binom(ctx, p, j) > colours:
            p -= 1
        colours -= _binom(ctx, p, j)
        pattern |= np.int64(1) << p
    x = deposit(pattern, occupied)
    return x, occupied & ~x, k


@njit(cache=True, inline="always")
def rank(ctx, x, o):
    width, height, stride = ctx[_W], ctx[_H], ctx[_S]
    occupied = x | o
    k = popcount(occupied)
    column = (np.int64(1) << height) - 1
    heights_rank = 0
    rest = k
    for c in range(width):
        h = popcount((occupied >> (c * stride)) & column)
        for v in range(h):
            heights_rank += _fill(ctx, c + 1, rest - v)
        rest -= h
    pattern = extract(x, occupied)
    colours = 0
    j = 0
    while pattern:
        p = trailing_zeros(pattern)
        pattern &= pattern - 1
        j += 1
        colours += _binom(ctx, p, j)
    return ctx[ctx[_AT_OFFSETS] + k] + heights_rank * _binom(ctx, k, (k + 1) // 2) + colours


@njit(cache=True, inline="always")
def has_line(ctx, mine):
    """Whether `mine` has `connect` in a row: up, across and both diagonals, by shifts."""
    n, stride = ctx[_N], ctx[_S]
    for d in range(4):
        shift = 1 if d == 0 else (stride if d == 1 else (stride - 1 if d == 2 else stride + 1))
        run = mine
        for i in range(1, n):
            if i * shift >= 63:
                run = 0
                break
            run &= mine >> (i * shift)
        if run:
            return True
    return False


@njit(cache=True, inline="always")
def _top(ctx, occupied, c):
    """The bit of column c's top piece, 0 when the column is empty."""
    stride = ctx[_S]
    column = (occupied >> (c * stride)) & ((np.int64(1) << ctx[_H]) - 1)
    if column == 0:
        return np.int64(0)
    return np.int64(1) << (c * stride + popcount(column) - 1)


@njit(cache=True, inline="always")
def terminal(ctx, index):
    """LOSS (0) when the player who just moved has a line, TIE (2) on a full board, else -1."""
    x, o, k = unrank(ctx, index)
    if has_line(ctx, x if k % 2 == 1 else o):
        return LOSS
    if k == ctx[_CELLS]:
        return TIE
    return -1


@njit(cache=True, inline="always")
def valid(ctx, index):
    """No line of the player to move, and a line of the last mover only where one of their top
    pieces completed it (else play went on after a win)."""
    x, o, k = unrank(ctx, index)
    last, other = (x, o) if k % 2 == 1 else (o, x)
    if has_line(ctx, other):
        return False
    if not has_line(ctx, last):
        return True
    occupied = x | o
    for c in range(ctx[_W]):
        top = _top(ctx, occupied, c)
        if top & last and not has_line(ctx, last & ~top):
            return True
    return False


@njit(cache=True, inline="always")
def move_count(ctx, index):
    """The columns not full, on a position that is not over."""
    if terminal(ctx, index) >= 0:
        return 0
    x, o, k = unrank(ctx, index)
    occupied = x | o
    count = 0
    for c in range(ctx[_W]):
        count += 1 - ((occupied >> (c * ctx[_S] + ctx[_H] - 1)) & 1)
    return count


@njit(cache=True, inline="always")
def _moves(ctx, index, out, labels):
    """Write the successors' indices (labels: the column, from 0) in `Connect4.moves` order."""
    x, o, k = unrank(ctx, index)
    last = x if k % 2 == 1 else o
    if k == ctx[_CELLS] or has_line(ctx, last):
        return 0
    occupied = x | o
    stride, height = ctx[_S], ctx[_H]
    count = 0
    for c in range(ctx[_W]):
        h = popcount((occupied >> (c * stride)) & ((np.int64(1) << height) - 1))
        if h == height:
            continue
        piece = np.int64(1) << (c * stride + h)
        out[count] = rank(ctx, x | piece, o) if k % 2 == 0 else rank(ctx, x, o | piece)
        labels[count] = c
        count += 1
    return count


@njit(cache=True)
def successors(ctx, index, out):
    labels = np.empty(len(out), dtype=np.int64)
    return _moves(ctx, index, out, labels)


@njit(cache=True)
def labelled_successors(ctx, index, out, labels):
    return _moves(ctx, index, out, labels)


@njit(cache=True, inline="always")
def predecessors(ctx, index, out):
    """Un-moves: take back a top piece of the player who just moved, where no line is left."""
    x, o, k = unrank(ctx, index)
    if k == 0:
        return 0
    last, other = (x, o) if k % 2 == 1 else (o, x)
    if has_line(ctx, other):
        return 0
    occupied = x | o
    count = 0
    for c in range(ctx[_W]):
        top = _top(ctx, occupied, c)
        if top & last and not has_line(ctx, last & ~top):
            out[count] = rank(ctx, x & ~top, o) if k % 2 == 1 else rank(ctx, x, o & ~top)
            count += 1
    return count


@njit(cache=True, inline="always")
def _mirror(ctx, mine):
    width, stride = ctx[_W], ctx[_S]
    column = (np.int64(1) << stride) - 1
    out = np.int64(0)
    for c in range(width):
        out |= ((mine >> (c * stride)) & column) << ((width - 1 - c) * stride)
    return out


@njit(cache=True, nogil=True)
def canonical_codes(ctx, codes):
    """Each index's representative under the left-right mirror: the smaller of the two ranks
    (Connect4.canonical)."""
    out = np.empty(len(codes), dtype=np.int64)
    for i in range(len(codes)):
        x, o, k = unrank(ctx, codes[i])
        out[i] = min(codes[i], rank(ctx, _mirror(ctx, x), _mirror(ctx, o)))
    return out


@njit(cache=True, nogil=True)
def pieces_of(ctx, codes):
    """The number of pieces (the tier) of each index."""
    out = np.empty(len(codes), dtype=np.int64)
    for i in range(len(codes)):
        out[i] = _tier(ctx, codes[i])
    return out


@njit(cache=True, nogil=True)
def masks_of(ctx, codes):
    """(X masks, O masks, pieces) of many indices: `unrank` over an array (Connect4.batch_columns)."""
    x = np.empty(len(codes), dtype=np.int64)
    o = np.empty(len(codes), dtype=np.int64)
    pieces = np.empty(len(codes), dtype=np.int64)
    for i in range(len(codes)):
        x[i], o[i], pieces[i] = unrank(ctx, codes[i])
    return x, o, pieces


# cached, the one retrograde kernel and its helpers with these functions (explorer.kernels.ranked)
solve, forward, moves_of, terminal_of = cached_wrappers(globals(), "solve", "forward", "moves_of", "terminal_of")


def context(width: int, height: int, connect: int, offsets: list[int], fill: list[list[int]]) -> np.ndarray:
    """The kernels' int64 context, from the rules' ranking tables (Connect4.tables: tier offsets, fill)."""
    cells = width * height
    binomials = [comb(n, r) for n in range(cells + 1) for r in range(cells + 1)]
    at_offsets = _HEAD
    at_binom = at_offsets + len(offsets)
    at_fill = at_binom + len(binomials)
    head = [width, height, connect, height + 1, cells, at_offsets, at_binom, at_fill]
    return np.array([*head, *offsets, *binomials, *(v for row in fill for v in row)], dtype=np.int64)


def kernels(game) -> ImplicitKernels:
    p = game.params
    return ImplicitKernels(
        ctx=context(p.width, p.height, p.connect, *game.tables), size=game.code_space(), max_moves=p.width,
        max_unmoves=p.width,
        successors=successors, labelled_successors=labelled_successors, predecessors=predecessors,
        terminal=terminal, valid=valid, move_count=move_count, solve=solve, forward=forward, moves_of=moves_of,
        terminal_of=terminal_of)
