"""Dōbutsu shōgi's perfect ranking, written once and run twice: by Python (the rules, rules.py)
and compiled by numba (the kernels, kernels.py wraps these very functions with njit).

Both functions are plain arithmetic over integers and indexable sequences, without calls to other
functions, so that numba compiles them unchanged (and Python runs them on lists).

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
RANKING_CONTEXT = OFFSETS + 27


def ranking_context(giraffes: int, elephants: int, chicks: int) -> list[int]:
    """The ranking's part of the context: piece counts, block sizes and offsets. `giraffes` etc.
    are the pieces of that kind in the whole game (0 or 2)."""
    offsets, total = [-1] * 27, 0
    for bg in range(giraffes + 1):
        for be in range(elephants + 1):
            for bc in range(chicks + 1):
                offsets[bg * 9 + be * 3 + bc] = total
                total += (comb(10, bg) * comb(10 - bg, be) * comb(10 - bg - be, bc) * 2 ** bg * 2 ** be * 4 ** bc
                          * (giraffes - bg + 1) * (elephants - be + 1) * (chicks - bc + 1))
    return [giraffes, elephants, chicks, total, 132 * total, *offsets]


def rank_position(ctx, mover, board, hand):
    """The index of a position: `board` (12 cells) and `hand` (6 counts) as seen by player A."""
    my_lion = -1
    their_lion = -1
    for s in range(12):
        cell = board[s] if mover == 0 else board[11 - s]
        if cell != 0 and (cell - 1) % 5 == 0:
            if (cell - 1) // 5 == mover:
                my_lion = s
            else:
                their_lion = s
    bg = 0
    be = 0
    bc = 0
    g0 = 0
    g1 = 0
    e0 = 0
    e1 = 0
    c0 = 0
    c1 = 0
    gs = 0
    es = 0
    cs = 0
    for s in range(12):
        cell = board[s] if mover == 0 else board[11 - s]
        if cell == 0:
            continue
        kind = (cell - 1) % 5
        if kind == 0:
            continue
        owner = 0 if (cell - 1) // 5 == mover else 1
        free = s - (1 if my_lion < s else 0) - (1 if their_lion < s else 0)
        if kind == 1:
            if bg == 0:
                g0 = free
            else:
                g1 = free
            gs += owner << bg
            bg += 1
        elif kind == 2:
            if be == 0:
                e0 = free
            else:
                e1 = free
            es += owner << be
            be += 1
        else:
            if bc == 0:
                c0 = free
            else:
                c1 = free
            cs += (owner + (2 if kind == 4 else 0)) << (2 * bc)
            bc += 1
    # Chicks numbered among the free squares giraffes and elephants leave; elephants among those
    # the giraffes leave (absolute free squares first: the chicks' count uses the elephants').
    r0 = c0 - (1 if bg > 0 and g0 < c0 else 0) - (1 if bg > 1 and g1 < c0 else 0) \
        - (1 if be > 0 and e0 < c0 else 0) - (1 if be > 1 and e1 < c0 else 0)
    r1 = c1 - (1 if bg > 0 and g0 < c1 else 0) - (1 if bg > 1 and g1 < c1 else 0) \
        - (1 if be > 0 and e0 < c1 else 0) - (1 if be > 1 and e1 < c1 else 0)
    rank_c = 0 if bc == 0 else (r0 if bc == 1 else r0 + r1 * (r1 - 1) // 2)
    q0 = e0 - (1 if bg > 0 and g0 < e0 else 0) - (1 if bg > 1 and g1 < e0 else 0)
    q1 = e1 - (1 if bg > 0 and g0 < e1 else 0) - (1 if bg > 1 and g1 < e1 else 0)
    rank_e = 0 if be == 0 else (q0 if be == 1 else q0 + q1 * (q1 - 1) // 2)
    rank_g = 0 if bg == 0 else (g0 if bg == 1 else g0 + g1 * (g1 - 1) // 2)
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
    return mover * ctx[4] + pair * ctx[3] + ctx[5 + bg * 9 + be * 3 + bc] + within


def unrank_position(ctx, index, board, hand):
    """Write the position of `index` into `board` (12 cells) and `hand` (6 counts), as seen by
    player A; return the player to move."""
    mover = 1 if index >= ctx[4] else 0
    rest = index - mover * ctx[4]
    pair = rest // ctx[3]
    r = rest - pair * ctx[3]
    my_lion = pair // 11
    their_lion = pair - my_lion * 11
    if their_lion >= my_lion:
        their_lion += 1
    best = -1
    bg = 0
    be = 0
    bc = 0
    for key in range(27):
        offset = ctx[5 + key]
        if offset >= 0 and offset <= r and offset > best:
            best = offset
            bg = key // 9
            be = (key // 3) % 3
            bc = key % 3
    within = r - best
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
    for i in range(12):
        board[i] = 0
    hand[3 * mover] = hg
    hand[3 * mover + 1] = he
    hand[3 * mover + 2] = hc
    hand[3 * (1 - mover)] = ctx[0] - bg - hg
    hand[3 * (1 - mover) + 1] = ctx[1] - be - he
    hand[3 * (1 - mover) + 2] = ctx[2] - bc - hc
    # Each set's squares from its colex rank: (low, high) for two, low alone for one.
    g1 = 1
    while bg == 2 and (g1 + 1) * g1 // 2 <= rank_g:
        g1 += 1
    g0 = rank_g - g1 * (g1 - 1) // 2 if bg == 2 else rank_g
    e1 = 1
    while be == 2 and (e1 + 1) * e1 // 2 <= rank_e:
        e1 += 1
    e0 = rank_e - e1 * (e1 - 1) // 2 if be == 2 else rank_e
    c1 = 1
    while bc == 2 and (c1 + 1) * c1 // 2 <= rank_c:
        c1 += 1
    c0 = rank_c - c1 * (c1 - 1) // 2 if bc == 2 else rank_c
    # Walk the free squares in order, giving each to the set whose next relative square it is.
    seen_e = 0   # free squares passed that the giraffes left
    seen_c = 0   # free squares passed that giraffes and elephants left
    placed_g = 0
    placed_e = 0
    placed_c = 0
    free = 0
    for s in range(12):
        if s == my_lion or s == their_lion:
            continue
        kind = 0
        state = 0
        if placed_g < bg and free == (g0 if placed_g == 0 else g1):
            kind = 1
            state = (gs >> placed_g) & 1
            placed_g += 1
        else:
            if placed_e < be and seen_e == (e0 if placed_e == 0 else e1):
                kind = 2
                state = (es >> placed_e) & 1
                placed_e += 1
            else:
                if placed_c < bc and seen_c == (c0 if placed_c == 0 else c1):
                    state = (cs >> (2 * placed_c)) & 3
                    kind = 4 if state >= 2 else 3
                    state &= 1
                    placed_c += 1
                seen_c += 1
            seen_e += 1
        free += 1
        if kind != 0:
            owner = state if mover == 0 else 1 - state
            board[s if mover == 0 else 11 - s] = 1 + kind + 5 * owner
    board[my_lion if mover == 0 else 11 - my_lion] = 1 + 5 * mover
    board[their_lion if mover == 0 else 11 - their_lion] = 1 + 5 * (1 - mover)
    return mover
