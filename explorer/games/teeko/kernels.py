"""Compiled (numba) Teeko kernels over GLOBAL indices: unrank, rank, drops, moves, un-moves.

The same ranking as `Teeko.rank` (the tiers' rankings end to end; tests compare
them index by index). A board is two bit masks, cell = row * size + column. The
context array `ctx` (int64) starts with a header: size, cells, pieces, the
movement positions per side to move, a label's "from" for a drop
(Teeko.DROP), then where each table starts: the tier
offsets (2 * pieces + 2), the binomials C(s, i) for s <= cells and i <= pieces
((cells + 1) x (pieces + 1), row-major), for each set size k <= pieces the
k-subsets of the cells as masks in colex order (their starts first), each cell's
king-move neighbours, and a goal flag per colex rank of a pieces-set (so
"is this a goal?" is one rank and one look-up, not a scan of the 44 or 58 goals).

Ranks walk the set bits (trailing zeros); the red set is packed onto the cells
black leaves free and spread back with pext/pdep (explorer.kernels.bits).
No cached `solve` wrapper here: the tiered solver owns that signature (the
tiers contract, docs of issue 21); the implicit mode compiles one per process.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
from explorer.kernels import njit
from explorer.kernels.ranked import cached_wrappers

from explorer.games.base import ImplicitKernels
from explorer.kernels.bits import deposit, extract, popcount, trailing_zeros

# Header slots of ctx.
SIZE, CELLS, PIECES, HALF, DROP_FROM, AT_OFFSETS, AT_BINOMIALS, AT_SUBSETS, AT_NEIGHBOURS, AT_GOALS = range(10)
HEADER = 10
LOSS = 0  # Value.LOSS


@njit(cache=True, inline="always")
def _binom(ctx, s, i):
    return ctx[ctx[AT_BINOMIALS] + s * (ctx[PIECES] + 1) + i]


@njit(cache=True, inline="always")
def _colex(ctx, bits):
    """The colex rank of a set of cells: the k-th cell (from 1) on cell s adds C(s, k)."""
    total = 0
    k = 0
    while bits:
        s = trailing_zeros(bits)
        bits &= bits - 1
        k += 1
        total += _binom(ctx, s, k)
    return total


@njit(cache=True, inline="always")
def _subset(ctx, size, rank):
    """The mask of the `size`-subset of the cells with this colex rank."""
    return ctx[ctx[ctx[AT_SUBSETS] + size] + rank]


@njit(cache=True, inline="always")
def _won(ctx, bits):
    """Whether one player's pieces form a goal."""
    if popcount(bits) != ctx[PIECES]:
        return False
    return ctx[ctx[AT_GOALS] + _colex(ctx, bits)] != 0


@njit(cache=True, inline="always")
def unrank(ctx, index):
    """(tier, mover, black mask, red mask) of a global index."""
    cells, p = ctx[CELLS], ctx[PIECES]
    at = ctx[AT_OFFSETS]
    tier = 2 * p
    while ctx[at + tier] > index:
        tier -= 1
    local = index - ctx[at + tier]
    if tier == 2 * p:
        b = p
        r = p
        mover = 0
        if local >= ctx[HALF]:
            mover = 1
            local -= ctx[HALF]
    else:
        b = (tier + 1) // 2
        r = tier // 2
        mover = tier % 2
    reds = _binom(ctx, cells - b, r)
    black_rank = local // reds
    black = _subset(ctx, b, black_rank)
    free = ((np.int64(1) << cells) - 1) & ~black
    red = deposit(_subset(ctx, r, local - black_rank * reds), free)
    return tier, mover, black, red


@njit(cache=True, inline="always")
def rank(ctx, mover, black, red):
    """The global index of a position (the mover counts in the movement tier only)."""
    cells, p = ctx[CELLS], ctx[PIECES]
    b = popcount(black)
    r = popcount(red)
    tier = b + r
    relative = extract(red, ((np.int64(1) << cells) - 1) & ~black)  # red packed onto the free cells
    local = _colex(ctx, black) * _binom(ctx, cells - b, r) + _colex(ctx, relative)
    if tier == 2 * p:
        local += mover * ctx[HALF]
    return ctx[ctx[AT_OFFSETS] + tier] + local


@njit(cache=True, inline="always")
def _moves(ctx, tier, mover, black, red, out, labels):
    """Write the successors' indices (and labels = from * 64 + to, from 63 for a drop) in `moves` order."""
    cells, p = ctx[CELLS], ctx[PIECES]
    mine = black if mover == 0 else red
    if _won(ctx, black) or _won(ctx, red):
        return 0
    empty = ((np.int64(1) << cells) - 1) & ~(black | red)
    count = 0
    if popcount(mine) < p:
        rest = empty
        while rest:
            cell = trailing_zeros(rest)
            rest &= rest - 1
            new = mine | (np.int64(1) << cell)
            out[count] = rank(ctx, 1, new, red) if mover == 0 else rank(ctx, 0, black, new)
            labels[count] = ctx[DROP_FROM] * 64 + cell
            count += 1
        return count
    pieces = mine
    while pieces:
        s = trailing_zeros(pieces)
        pieces &= pieces - 1
        targets = ctx[ctx[AT_NEIGHBOURS] + s] & empty
        while targets:
            t = trailing_zeros(targets)
            targets &= targets - 1
            new = (mine & ~(np.int64(1) << s)) | (np.int64(1) << t)
            out[count] = rank(ctx, 1, new, red) if mover == 0 else rank(ctx, 0, black, new)
            labels[count] = s * 64 + t
            count += 1
    return count


@njit(cache=True)
def successors(ctx, index, out):
    tier, mover, black, red = unrank(ctx, index)
    labels = np.empty(len(out), dtype=np.int64)
    return _moves(ctx, tier, mover, black, red, out, labels)


@njit(cache=True)
def labelled_successors(ctx, index, out, labels):
    tier, mover, black, red = unrank(ctx, index)
    return _moves(ctx, tier, mover, black, red, out, labels)


@njit(cache=True, inline="always")
def move_count(ctx, index):
    """Moves of a position (each reaches a different position); 0 once a goal is made."""
    cells, p = ctx[CELLS], ctx[PIECES]
    tier, mover, black, red = unrank(ctx, index)
    if _won(ctx, black) or _won(ctx, red):
        return 0
    if tier < 2 * p:
        return cells - tier
    empty = ((np.int64(1) << cells) - 1) & ~(black | red)
    mine = black if mover == 0 else red
    count = 0
    while mine:
        s = trailing_zeros(mine)
        mine &= mine - 1
        count += popcount(ctx[ctx[AT_NEIGHBOURS] + s] & empty)
    return count


@njit(cache=True, inline="always")
def terminal(ctx, index):
    """LOSS (0) for the player to move once the other player has a goal or when walled in, else -1."""
    return LOSS if move_count(ctx, index) == 0 else -1


@njit(cache=True, inline="always")
def valid(ctx, index):
    """False where the player to move already has a goal: the game ended when it was made."""
    tier, mover, black, red = unrank(ctx, index)
    return not _won(ctx, black if mover == 0 else red)


@njit(cache=True, inline="always")
def predecessors(ctx, index, out):
    """Un-drops and un-moves of the previous mover, where they had no goal before (the mover's
    pieces are unchanged, and legal here); with Black to move in the movement tier, Red's last
    drop taken back too."""
    cells, p = ctx[CELLS], ctx[PIECES]
    tier, mover, black, red = unrank(ctx, index)
    previous = 1 - mover
    theirs = black if previous == 0 else red
    empty = ((np.int64(1) << cells) - 1) & ~(black | red)
    count = 0
    if tier < 2 * p:
        rest = theirs
        while rest:
            s = trailing_zeros(rest)
            rest &= rest - 1
            new = theirs & ~(np.int64(1) << s)
            if not _won(ctx, new):
                out[count] = rank(ctx, previous, new, red) if previous == 0 else rank(ctx, previous, black, new)
                count += 1
        return count
    rest = theirs
    while rest:
        s = trailing_zeros(rest)
        rest &= rest - 1
        origins = ctx[ctx[AT_NEIGHBOURS] + s] & empty
        while origins:
            o = trailing_zeros(origins)
            origins &= origins - 1
            new = (theirs & ~(np.int64(1) << s)) | (np.int64(1) << o)
            if not _won(ctx, new):
                out[count] = rank(ctx, previous, new, red) if previous == 0 else rank(ctx, previous, black, new)
                count += 1
    if mover == 0:  # Red's last drop began the movement phase
        rest = red
        while rest:
            s = trailing_zeros(rest)
            rest &= rest - 1
            out[count] = rank(ctx, 1, black, red & ~(np.int64(1) << s))
            count += 1
    return count


# cached, the one retrograde kernel and its helpers with these functions (explorer.kernels.ranked)
solve, forward, moves_of, terminal_of = cached_wrappers(globals(), "solve", "forward", "moves_of", "terminal_of")


def context(game) -> np.ndarray:
    """The int64 context of a Teeko game: header, then the tables (module docstring)."""
    n, cells, p = game.params.size, game.cells, game.pieces
    offsets = list(game._offsets)
    binomials = [comb(s, i) for s in range(cells + 1) for i in range(p + 1)]
    subsets: list[int] = []
    subset_starts = []
    for size in range(p + 1):
        subset_starts.append(len(subsets))
        by_rank = [0] * comb(cells, size)
        for chosen in combinations(range(cells), size):
            by_rank[sum(comb(s, k + 1) for k, s in enumerate(chosen))] = sum(1 << s for s in chosen)
        subsets += by_rank
    goals = [0] * comb(cells, p)
    for shape in game.shapes:
        chosen = [c for c in range(cells) if shape >> c & 1]
        goals[sum(comb(s, k + 1) for k, s in enumerate(chosen))] = 1
    at_offsets = HEADER
    at_binomials = at_offsets + len(offsets)
    at_subsets = at_binomials + len(binomials)  # p + 1 starts, then the masks
    at_masks = at_subsets + p + 1
    at_neighbours = at_masks + len(subsets)
    at_goals = at_neighbours + cells
    header = [n, cells, p, game._movement_half, game.DROP, at_offsets, at_binomials, at_subsets, at_neighbours, at_goals]
    assert len(header) == HEADER
    return np.array([*header, *offsets, *binomials, *(at_masks + s for s in subset_starts), *subsets,
                     *game.neighbour_masks, *goals], dtype=np.int64)


def kernels(game) -> ImplicitKernels:
    p, cells = game.pieces, game.cells
    return ImplicitKernels(
        ctx=context(game), size=game.code_space(), max_moves=max(cells, 8 * p), max_unmoves=8 * p + p,
        successors=successors, labelled_successors=labelled_successors, predecessors=predecessors,
        terminal=terminal, valid=valid, move_count=move_count, solve=solve, forward=forward,
        moves_of=moves_of, terminal_of=terminal_of)
