"""Dōbutsu shōgi's perfect ranking, written once and run twice: by Python (the rules, rules.py)
and compiled by numba (the kernels, kernels.py wraps these very functions with njit).

Both functions are plain arithmetic over integers and indexable sequences, without calls to other
functions (but the builtins min and max), so that numba compiles them unchanged (and Python runs
them on lists). They are table-driven and nearly loop-free, since the solve runs them billions of
times: rank in one pass over the squares, unrank without any (each piece's square is computed
from its colex index, the PAIRS table and the lions' squares).

A position is ranked from the point of view of the player to move, as Tanaka ranked it
("「どうぶつしょうぎ」の完全解析", IPSJ SIG Technical Report 2009-GI-22(3), 2009,
https://ipsj.ixsq.nii.ac.jp/records/62415): for player B the board is turned half a turn and the
colours and hands exchanged, so that a position and its colour-swapped twin (same value for the
player to move) sit exactly `half` indices apart:

    index = mover * half + lion_pair * rest + block_offset[bG, bE, bC] + within_block

- lion_pair in range(132): the mover's lion square times 11 plus the other lion's square among
  the remaining 11 (both lions are always on the board: a game in which a lion can be taken is
  already over);
- the other pieces live on the 10 squares left ("free squares", numbered in square order):
  bG, bE, bC giraffes, elephants and chicks on the board (each at most the number in the game);
- within a block, in mixed radix from the most significant digit: the giraffes, elephants and
  chicks in the mover's hand (the rest of each kind is in the other hand), the colex rank of the
  giraffes' free squares, that of the elephants' among the free squares the giraffes leave, that
  of the chicks' among those left, then each giraffe's and elephant's owner (a bit) and each
  chick's owner and promotion (two bits), in square order.

For the standard game `rest` is 11,878,227 and `half` = 132 * rest = 1,567,925,964: exactly the
number of positions in Tanaka's ranking (the same count, found independently here).

Cells of a board: 0 empty, else 1 + kind + 5 * owner with kind 0 lion, 1 giraffe, 2 elephant,
3 chick, 4 hen and owner 0 = A (first player, moving up), 1 = B. Hands: 6 counts, A's giraffes,
elephants, chicks, then B's. Squares: row * 3 + column, row 0 = rank 1 (A's home rank).
"""

from __future__ import annotations

from math import comb

HEADER = 5       # ctx[0:3] pieces of each hand kind in the game (0 or 2), ctx[3] rest, ctx[4] half
OFFSETS = HEADER  # 27 block offsets at OFFSETS + bG * 9 + bE * 3 + bC, -1 where no such block
PAIRS = OFFSETS + 27  # 45 entries: the higher element of the 2-subset of colex rank r (its lower: r - C(high, 2))
RANKING_CONTEXT = PAIRS + 45
NONE = 12  # a missing piece's index in unrank_position: above every index, so it never shifts another


def ranking_context(giraffes: int, elephants: int, chicks: int) -> list[int]:
    """The ranking's part of the context: piece counts, block sizes and offsets, and the colex
    table of pairs. `giraffes` etc. are the pieces of that kind in the whole game (0 or 2)."""
    offsets, total = [-1] * 27, 0
    for bg in range(giraffes + 1):
        for be in range(elephants + 1):
            for bc in range(chicks + 1):
                offsets[bg * 9 + be * 3 + bc] = total
                total += (comb(10, bg) * comb(10 - bg, be) * comb(10 - bg - be, bc) * 2 ** bg * 2 ** be * 4 ** bc
                          * (giraffes - bg + 1) * (elephants - be + 1) * (chicks - bc + 1))
    pairs = [high for high in range(10) for _ in range(high)]  # rank low + C(high, 2) for low < high
    return [giraffes, elephants, chicks, total, 132 * total, *offsets, *pairs]


def rank_position(ctx, mover, board, hand):
    """The index of a position: `board` (12 cells) and `hand` (6 counts) as seen by player A.
    One pass over the squares in the mover's order: a piece's index among the squares its set
    is numbered over is its square less the lions, giraffes (and elephants) passed so far, and
    the i-th piece of a set adds C(that index, i + 1) to the set's colex rank."""
    my_lion = 0
    their_lion = 0
    lions = 0
    bg = 0
    be = 0
    bc = 0
    rank_g = 0
    rank_e = 0
    rank_c = 0
    gs = 0
    es = 0
    cs = 0
    for s in range(12):
        cell = board[s + mover * (11 - 2 * s)]  # square s seen from the mover: s, or 11 - s for B
        if cell == 0:
            continue
        b_piece = 1 if cell > 5 else 0
        kind = cell - 1 - 5 * b_piece
        owner = b_piece ^ mover  # 0: the mover's
        if kind == 0:
            if owner == 0:
                my_lion = s
            else:
                their_lion = s
            lions += 1
        elif kind == 1:
            x = s - lions
            rank_g += x if bg == 0 else x * (x - 1) // 2
            gs += owner << bg
            bg += 1
        elif kind == 2:
            x = s - lions - bg
            rank_e += x if be == 0 else x * (x - 1) // 2
            es += owner << be
            be += 1
        else:
            x = s - lions - bg - be
            rank_c += x if bc == 0 else x * (x - 1) // 2
            cs += (owner + (2 if kind == 4 else 0)) << (2 * bc)
            bc += 1
    m2 = 10 - bg
    m3 = m2 - be
    within = hand[3 * mover]
    within = within * (ctx[1] - be + 1) + hand[3 * mover + 1]
    within = within * (ctx[2] - bc + 1) + hand[3 * mover + 2]
    within = within * (1 if bg == 0 else (10 if bg == 1 else 45)) + rank_g
    within = within * (1 if be == 0 else (m2 if be == 1 else m2 * (m2 - 1) // 2)) + rank_e
    within = within * (1 if bc == 0 else (m3 if bc == 1 else m3 * (m3 - 1) // 2)) + rank_c
    within = ((within << bg) + gs) << be
    within = ((within + es) << (2 * bc)) + cs
    pair = my_lion * 11 + (their_lion if their_lion < my_lion else their_lion - 1)
    return mover * ctx[4] + pair * ctx[3] + ctx[OFFSETS + bg * 9 + be * 3 + bc] + within


def unrank_position(ctx, index, board, hand):
    """Write the position of `index` into `board` (12 cells) and `hand` (6 counts), as seen by
    player A; return the player to move. Each piece's square is computed, not searched: its index
    among its set's squares, then shifted past the pieces numbered before it and the lions."""
    mover = 1 if index >= ctx[4] else 0
    rest = index - mover * ctx[4]
    pair = rest // ctx[3]
    r = rest - pair * ctx[3]
    my_lion = pair // 11
    their_lion = pair - my_lion * 11
    if their_lion >= my_lion:
        their_lion += 1
    key = 0
    for k in range(27):  # the offsets grow with the key: the block is the last one starting at or before r
        offset = ctx[OFFSETS + k]
        if 0 <= offset <= r:
            key = k
    bg = key // 9
    be = (key // 3) % 3
    bc = key % 3
    within = r - ctx[OFFSETS + key]
    cs = within & ((1 << (2 * bc)) - 1)
    within >>= 2 * bc
    es = within & ((1 << be) - 1)
    within >>= be
    gs = within & ((1 << bg) - 1)
    within >>= bg
    m2 = 10 - bg
    m3 = m2 - be
    size = 1 if bc == 0 else (m3 if bc == 1 else m3 * (m3 - 1) // 2)
    rank_c = within % size
    within //= size
    size = 1 if be == 0 else (m2 if be == 1 else m2 * (m2 - 1) // 2)
    rank_e = within % size
    within //= size
    size = 1 if bg == 0 else (10 if bg == 1 else 45)
    rank_g = within % size
    within //= size
    size = ctx[2] - bc + 1
    hc = within % size
    within //= size
    size = ctx[1] - be + 1
    he = within % size
    hg = within // size
    hand[3 * mover] = hg
    hand[3 * mover + 1] = he
    hand[3 * mover + 2] = hc
    hand[3 * (1 - mover)] = ctx[0] - bg - hg
    hand[3 * (1 - mover) + 1] = ctx[1] - be - he
    hand[3 * (1 - mover) + 2] = ctx[2] - bc - hc
    # Each set's indices (low, high) from its colex rank, NONE where the piece is not on the board.
    g1 = ctx[PAIRS + rank_g] if bg == 2 else NONE
    g0 = rank_g - g1 * (g1 - 1) // 2 if bg == 2 else (rank_g if bg == 1 else NONE)
    e1 = ctx[PAIRS + rank_e] if be == 2 else NONE
    e0 = rank_e - e1 * (e1 - 1) // 2 if be == 2 else (rank_e if be == 1 else NONE)
    c1 = ctx[PAIRS + rank_c] if bc == 2 else NONE
    c0 = rank_c - c1 * (c1 - 1) // 2 if bc == 2 else (rank_c if bc == 1 else NONE)
    # Elephants' indices among the free squares (the ten without lions) past the giraffes', then
    # the chicks' past both, in ascending order (each shift may carry the index past the next one).
    e0 += (1 if g0 <= e0 else 0)
    e0 += (1 if g1 <= e0 else 0)
    e1 += (1 if g0 <= e1 else 0)
    e1 += (1 if g1 <= e1 else 0)
    t0 = min(g0, e0)
    t3 = max(g1, e1)
    t1 = min(max(g0, e0), min(g1, e1))
    t2 = max(max(g0, e0), min(g1, e1))
    c0 += (1 if t0 <= c0 else 0)
    c0 += (1 if t1 <= c0 else 0)
    c0 += (1 if t2 <= c0 else 0)
    c0 += (1 if t3 <= c0 else 0)
    c1 += (1 if t0 <= c1 else 0)
    c1 += (1 if t1 <= c1 else 0)
    c1 += (1 if t2 <= c1 else 0)
    c1 += (1 if t3 <= c1 else 0)
    # Free squares to squares: past the lower lion, then the higher one.
    low = my_lion if my_lion < their_lion else their_lion
    high = my_lion + their_lion - low
    for i in range(12):
        board[i] = 0
    flip = 11 * mover  # square s of the mover's view is board[s] for A, board[11 - s] for B
    sign = 1 - 2 * mover
    if bg > 0:
        x = g0 + (1 if low <= g0 else 0)
        x += (1 if high <= x else 0)
        board[flip + sign * x] = 2 + 5 * ((gs & 1) ^ mover)
        if bg > 1:
            x = g1 + (1 if low <= g1 else 0)
            x += (1 if high <= x else 0)
            board[flip + sign * x] = 2 + 5 * (((gs >> 1) & 1) ^ mover)
    if be > 0:
        x = e0 + (1 if low <= e0 else 0)
        x += (1 if high <= x else 0)
        board[flip + sign * x] = 3 + 5 * ((es & 1) ^ mover)
        if be > 1:
            x = e1 + (1 if low <= e1 else 0)
            x += (1 if high <= x else 0)
            board[flip + sign * x] = 3 + 5 * (((es >> 1) & 1) ^ mover)
    if bc > 0:
        x = c0 + (1 if low <= c0 else 0)
        x += (1 if high <= x else 0)
        board[flip + sign * x] = 4 + ((cs >> 1) & 1) + 5 * ((cs & 1) ^ mover)
        if bc > 1:
            x = c1 + (1 if low <= c1 else 0)
            x += (1 if high <= x else 0)
            board[flip + sign * x] = 4 + ((cs >> 3) & 1) + 5 * (((cs >> 2) & 1) ^ mover)
    board[flip + sign * my_lion] = 1 + 5 * mover
    board[flip + sign * their_lion] = 1 + 5 * (1 - mover)
    return mover
