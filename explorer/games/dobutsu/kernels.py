"""Compiled (numba) Dōbutsu shōgi kernels over ranks: moves, un-moves, terminal values.

The ranking is ranking.py's, compiled here unchanged (so the rules and the kernels cannot number
positions differently). The context array `ctx` (int64) is the ranking's part (ranking.py), the fold
flag (FOLD), then the squares each piece attacks: at TARGETS + ((owner * 5 + kind) * 12 + square) * 8, up to eight
squares in the rules' STEPS order, -1 after the last; the same as one bit mask (MASKS), and the squares a
piece steps back from (SOURCES), so that move counts and un-moves are table lookups and bit operations
(explorer.kernels.bits), not loops over the board. A position is unranked into two small
arrays on the stack (board cells and hands, as the rules hold them: _stack_int64, no heap
allocation per call); each move is applied in place, ranked and undone. Game over exactly as
rules.Dobutsu.outcome says (tests compare them index by index). The helpers are ordinary compiled
calls, not inlined (but for the few-line ones): inlining them all into the retrograde loop made its
compilation take minutes and gigabytes. CPU time a call (bench/bench_dobutsu.py, random indices of
the full game): predecessors 3.9 -> 1.4 -> 0.65 us, move_count 0.77 -> 0.62 -> 0.18 us, terminal
0.55 -> 0.21 us, the last step from the table-driven ranking (ranking.py), one pass over the board
for the lions and the squares of each side as bit masks (_squares), and the stack arrays.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import carray, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from explorer.kernels import njit

from explorer.games.base import ImplicitKernels
from explorer.kernels.bits import popcount, trailing_zeros
from explorer.kernels.retrograde import (CODE_BITS, GAME_FIRST_PASS, LOSS, OPEN, START, WIN, implicit_initial,
                                         queue_levels, solve_cells)
from explorer.games.dobutsu.ranking import RANKING_CONTEXT, rank_position, ranking_context, unrank_position
from explorer.games.dobutsu.pieces import MAX_MOVES, MAX_UNMOVES, SQUARES, STEPS, targets

FOLD = RANKING_CONTEXT  # ctx[FOLD] 1: successors and un-moves are folded into the first half (ImplicitKernels.folded)
TARGETS = RANKING_CONTEXT + 1
MASKS = TARGETS + 2 * 5 * SQUARES * 8    # the same targets as a bit mask of squares, one per (owner, kind, square)
SOURCES = MASKS + 2 * 5 * SQUARES        # the squares from which such a piece reaches a square, -1 after the last
DROP = 12  # rules.DROP: the "from" square of a drop in a label
FULL = (1 << SQUARES) - 1  # the bit mask of a full board

_rank = njit(cache=True)(rank_position)
_unrank = njit(cache=True)(unrank_position)
# numba's cache checks each function's own source file only: a kernel here keeps a cached copy of
# the ranking compiled into it, so an edit of ranking.py needs this file touched too.


@intrinsic
def _stack_int64(typingctx, size):
    """A pointer to `size` (a literal) int64 on the stack of the compiled function: allocated once
    in its entry block, freed when it returns, so a kernel called a billion times does not pay
    np.empty's heap allocation (about 30 ns each) for its board and hands. Call it in the kernel
    that uses the memory, never in a helper that returns it (its stack is gone then)."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    count = size.literal_value

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, ir.IntType(64), size=count)

    return types.CPointer(types.int64)(size), codegen


@njit(cache=True, inline="always")
def _squares(board, player):
    """(player's squares, all pieces' squares) as bit masks, player's lion, the other lion: one
    pass without branches on the squares' contents."""
    mine = 0
    occupied = 0
    lion = -1
    other_lion = -1
    for s in range(12):
        v = board[s]
        occupied |= (1 if v != 0 else 0) << s
        mine |= (1 if (v - 1) // 5 == player else 0) << s  # an empty square reads as owner -1
        lion = s if v == 1 + 5 * player else lion
        other_lion = s if v == 6 - 5 * player else other_lion
    return mine, occupied, lion, other_lion


@njit(cache=True, inline="always")
def _folded_rank(ctx, mover, board, hand):
    """The position's index, or its colour-swapped twin's in the first half when ctx[FOLD] is set:
    the ranking is from the mover's point of view, so the twin is the same index without the mover digit."""
    index = _rank(ctx, mover, board, hand)
    if ctx[FOLD] != 0 and index >= ctx[4]:
        index -= ctx[4]
    return index


@njit(cache=True, inline="always")
def _target(ctx, owner, kind, square, slot):
    return ctx[TARGETS + ((owner * 5 + kind) * 12 + square) * 8 + slot]


@njit(cache=True, inline="always")
def _mask(ctx, owner, kind, square):
    return ctx[MASKS + (owner * 5 + kind) * 12 + square]


@njit(cache=True, inline="always")
def _source(ctx, owner, kind, square, slot):
    return ctx[SOURCES + ((owner * 5 + kind) * 12 + square) * 8 + slot]


@njit(cache=True)
def _moves_unless_over(ctx, mover, board, hand):
    """The number of moves, 0 when the game is over (exactly when _over says so): one pass over the
    board for the lions and the mover's squares, then each piece's targets as a bit mask."""
    mine, occupied, my_lion, their_lion = _squares(board, mover)
    empty = SQUARES - popcount(occupied)
    far = 3 if mover == 0 else 0
    if my_lion // 3 == far or their_lion // 3 == 3 - far:
        return 0
    count = 0
    pieces = mine
    while pieces != 0:
        s = trailing_zeros(pieces)
        pieces &= pieces - 1
        reach = _mask(ctx, mover, (board[s] - 1) % 5, s)
        if (reach >> their_lion) & 1:
            return 0  # the opposing lion can be taken
        count += popcount(reach & ~mine)
    if empty > 0:
        for k in range(3):
            if hand[3 * mover + k] > 0:
                count += empty
    return count


@njit(cache=True, inline="always")
def _has_move(ctx, mover, board, hand, mine, occupied):
    """Whether the player to move has a move by the rules (the no-move loss of _over), given the
    squares of its pieces (`mine`) and of all pieces (`occupied`) as bit masks."""
    if occupied != FULL and hand[3 * mover] + hand[3 * mover + 1] + hand[3 * mover + 2] > 0:
        return True
    pieces = mine
    while pieces != 0:
        s = trailing_zeros(pieces)
        pieces &= pieces - 1
        if _mask(ctx, mover, (board[s] - 1) % 5, s) & ~mine:
            return True
    return False


@njit(cache=True)
def _over(ctx, mover, board, hand):
    """The Value for the player to move if the game is over (rules.Dobutsu.outcome), else -1: one
    pass over the board for the lions and the squares, then each piece's targets as a bit mask."""
    mine, occupied, my_lion, their_lion = _squares(board, mover)
    moves = occupied != FULL and hand[3 * mover] + hand[3 * mover + 1] + hand[3 * mover + 2] > 0
    pieces = mine
    while pieces != 0:
        s = trailing_zeros(pieces)
        pieces &= pieces - 1
        reach = _mask(ctx, mover, (board[s] - 1) % 5, s)
        if (reach >> their_lion) & 1:
            return 3  # the opposing lion can be taken
        if reach & ~mine:
            moves = True
    far = 3 if mover == 0 else 0
    if my_lion // 3 == far:
        return 3
    if their_lion // 3 == 3 - far:
        return 0
    return -1 if moves else 0


@njit(cache=True)
def _moves(ctx, mover, board, hand, out, labels):
    """Successors' ranks (and labels, rules.move_label) in the rules' order: pieces square by
    square in STEPS order, then drops of giraffes, elephants and chicks square by square."""
    count = 0
    far = 3 if mover == 0 else 0
    other = 1 - mover
    for s in range(12):
        v = board[s]
        if v == 0 or (v - 1) // 5 != mover:
            continue
        kind = (v - 1) % 5
        for slot in range(8):
            t = _target(ctx, mover, kind, s, slot)
            if t < 0:
                break
            w = board[t]
            if w != 0 and (w - 1) // 5 == mover:
                continue
            taken = -1 if w == 0 else (w - 1) % 5
            slot_in_hand = -1
            if taken >= 0:
                slot_in_hand = 3 * mover + (2 if taken == 4 else taken - 1)
                hand[slot_in_hand] += 1
            promoted = kind == 3 and t // 3 == far
            board[s] = 0
            board[t] = 1 + (4 if promoted else kind) + 5 * mover
            out[count] = _folded_rank(ctx, other, board, hand)
            labels[count] = ((((1 if taken >= 0 else 0) + (2 if promoted else 0)) * 8 + kind) * 16 + s) * 16 + t
            count += 1
            board[s] = v
            board[t] = w
            if slot_in_hand >= 0:
                hand[slot_in_hand] -= 1
    for k in range(3):
        if hand[3 * mover + k] == 0:
            continue
        hand[3 * mover + k] -= 1
        for t in range(12):
            if board[t] != 0:
                continue
            board[t] = 1 + (k + 1) + 5 * mover
            out[count] = _folded_rank(ctx, other, board, hand)
            labels[count] = ((k + 1) * 16 + DROP) * 16 + t
            count += 1
            board[t] = 0
        hand[3 * mover + k] += 1
    return count


@njit(cache=True)
def successors(ctx, index, out):
    board = carray(_stack_int64(12), 12)  # filled by _unrank
    hand = carray(_stack_int64(6), 6)
    mover = _unrank(ctx, index, board, hand)
    if _over(ctx, mover, board, hand) >= 0:
        return 0
    labels = np.empty(len(out), dtype=np.int64)
    return _moves(ctx, mover, board, hand, out, labels)


@njit(cache=True)
def labelled_successors(ctx, index, out, labels):
    board = carray(_stack_int64(12), 12)  # filled by _unrank
    hand = carray(_stack_int64(6), 6)
    mover = _unrank(ctx, index, board, hand)
    if _over(ctx, mover, board, hand) >= 0:
        return 0
    return _moves(ctx, mover, board, hand, out, labels)


@njit(cache=True)
def mirrored(ctx, index):
    """The index of the position's left-right mirror image, folded as the kernels fold. The rules are
    symmetric under the mirror (rules.py), so counts up to it can be checked against published ones
    (explorer.implicit.reachable's `image`, bench/bench_dobutsu_solve.py)."""
    board = carray(_stack_int64(12), 12)  # filled by _unrank
    hand = carray(_stack_int64(6), 6)
    mover = _unrank(ctx, index, board, hand)
    image = carray(_stack_int64(12), 12)
    for square in range(SQUARES):
        image[square - square % 3 + 2 - square % 3] = board[square]
    return _folded_rank(ctx, mover, image, hand)


@njit(cache=True)
def move_count(ctx, index):
    """The number of moves, 0 on finished positions."""
    board = carray(_stack_int64(12), 12)  # filled by _unrank
    hand = carray(_stack_int64(6), 6)
    mover = _unrank(ctx, index, board, hand)
    return _moves_unless_over(ctx, mover, board, hand)


@njit(cache=True)
def terminal(ctx, index):
    board = carray(_stack_int64(12), 12)  # filled by _unrank
    hand = carray(_stack_int64(6), 6)
    mover = _unrank(ctx, index, board, hand)
    return _over(ctx, mover, board, hand)


@njit(cache=True, inline="always")
def valid(ctx, index):
    return True  # every index is a position (ranking.py)


@njit(cache=True)
def _keep(ctx, before, board, hand, out, count, mine, occupied):
    """Append the rank of (before to move, board, hand), whose other ways of being over the caller
    ruled out, unless `before` has no move there (`mine`: its squares, `occupied`: all pieces').
    Each candidate of `predecessors` is a different position (a different square, piece, piece
    given back or hand), so none is listed twice."""
    if not _has_move(ctx, before, board, hand, mine, occupied):
        return count
    out[count] = _folded_rank(ctx, before, board, hand)
    return count + 1


@njit(cache=True)
def predecessors(ctx, index, out):
    """Un-moves (rules.Dobutsu.unmoves): a piece of the previous mover steps back (a hen on the far
    rank possibly as the chick it was), possibly giving back a piece it took, or goes back to the hand.
    Positions already over are left out without building them where one table lookup shows it: the
    previous mover attacking the mover's lion (from a piece that stays, or from the square the moved
    piece steps back to), its lion on its far rank, the mover's lion on its home rank."""
    board = carray(_stack_int64(12), 12)  # filled by _unrank
    hand = carray(_stack_int64(6), 6)
    mover = _unrank(ctx, index, board, hand)
    before = 1 - mover
    far = 3 if before == 0 else 0
    theirs, occupied, their_lion, lion = _squares(board, before)  # the previous mover's squares and lion, the mover's lion
    if lion // 3 == 3 - far:
        return 0  # the mover's lion on the previous mover's home rank: every position before was over
    attackers = 0  # the previous mover's pieces attacking the mover's lion
    pieces = theirs
    while pieces != 0:
        q = trailing_zeros(pieces)
        pieces &= pieces - 1
        if (_mask(ctx, before, (board[q] - 1) % 5, q) >> lion) & 1:
            attackers |= 1 << q
    count = 0
    pieces = theirs
    while pieces != 0:
        t = trailing_zeros(pieces)
        pieces &= pieces - 1
        if attackers & ~(1 << t):
            continue  # another piece attacks the mover's lion before this one moves
        v = board[t]
        kind = (v - 1) % 5
        if kind != 0 and their_lion // 3 == far:
            continue  # the previous mover's lion stood on its far rank already
        for option in range(2):
            kind_before = kind
            if option == 1:
                if kind != 4 or t // 3 != far:
                    continue
                kind_before = 3  # the chick this hen was before its promotion
            elif kind == 3 and t // 3 == far:
                continue  # a chick moving onto the far rank is promoted: it was dropped there
            piece = 1 + kind_before + 5 * before
            left = theirs & ~(1 << t)
            for slot in range(8):
                s = _source(ctx, before, kind_before, t, slot)
                if s < 0:
                    break
                if board[s] != 0 or (_mask(ctx, before, kind_before, s) >> lion) & 1:
                    continue  # occupied, or from there it attacked the mover's lion
                if kind == 0 and s // 3 == far:
                    continue  # the lion stood on its far rank
                board[s] = piece
                board[t] = 0
                mine = left | (1 << s)
                count = _keep(ctx, before, board, hand, out, count, mine, (occupied & ~(1 << t)) | (1 << s))
                for taken in range(1, 5):  # giraffe, elephant, chick, hen given back from the hand
                    slot_in_hand = 3 * before + (2 if taken == 4 else taken - 1)
                    if hand[slot_in_hand] == 0:
                        continue
                    hand[slot_in_hand] -= 1
                    board[t] = 1 + taken + 5 * mover
                    count = _keep(ctx, before, board, hand, out, count, mine, occupied | (1 << s))
                    hand[slot_in_hand] += 1
                board[s] = 0
                board[t] = v
        if 1 <= kind <= 3:  # un-drop
            board[t] = 0
            hand[3 * before + kind - 1] += 1
            count = _keep(ctx, before, board, hand, out, count, theirs & ~(1 << t), occupied & ~(1 << t))
            hand[3 * before + kind - 1] -= 1
            board[t] = v
    return count


@njit(cache=True, inline="always")
def _first_cell(ctx, index, board, hand):
    """implicit_initial's cell of `index` once the first level (the finished wins and losses) is worked: a
    finished position's value (remoteness 0); else a win at remoteness 1 when one of its moves finishes the
    game for the mover (its lion reaches the far rank where it cannot be taken, or the other side is left
    without a move), a loss at remoteness 1 when every move lets the mover's lion be taken, else open with its
    counter of moves less those that let the lion be taken (each such move reaches a finished win of the
    other side, which the first level would have counted off). No successor is built or ranked: pieces do
    not block one another in Dōbutsu shōgi (each moves one step), so whether the mover's lion can be taken
    after a move is the other side's attacks on its square, less the piece the move takes. The same cell as
    implicit_initial then the first level worked by the loop (tests/games/test_dobutsu.py, index by index)."""
    return _first_cell_of(ctx, _unrank(ctx, index, board, hand), board, hand)


@njit(cache=True, inline="always")
def _first_cell_of(ctx, mover, board, hand):
    """_first_cell of the position (mover, board, hand)."""
    other = 1 - mover
    mine, occupied, my_lion, their_lion = _squares(board, mover)
    far = 3 if mover == 0 else 0
    total = 0
    pieces = mine
    while pieces != 0:
        s = trailing_zeros(pieces)
        pieces &= pieces - 1
        reach = _mask(ctx, mover, (board[s] - 1) % 5, s)
        if (reach >> their_lion) & 1:
            return WIN  # the opposing lion can be taken: over, remoteness 0
        total += popcount(reach & ~mine)
    if my_lion // 3 == far:
        return WIN
    if their_lion // 3 == 3 - far:
        return LOSS
    empty = SQUARES - popcount(occupied)
    drops = 0
    if empty > 0:
        for k in range(3):
            if hand[3 * mover + k] > 0:
                drops += 1
    total += drops * empty
    if total == 0:
        return LOSS  # no move
    # The other side's pieces: the squares they attack (`attacked`), those attacked twice or more (`twice`), and
    # those of its pieces that have a move on the board now (`mobile`).
    theirs = occupied & ~mine
    attacked = 0
    twice = 0
    mobile = 0
    pieces = theirs
    while pieces != 0:
        q = trailing_zeros(pieces)
        pieces &= pieces - 1
        reach = _mask(ctx, other, (board[q] - 1) % 5, q)
        twice |= attacked & reach
        attacked |= reach
        if reach & ~theirs:
            mobile |= 1 << q
    in_hand = hand[3 * other] + hand[3 * other + 1] + hand[3 * other + 2] > 0  # a drop: never a full board
    refuted = 0
    wins = False
    lion_attacked = (attacked >> my_lion) & 1
    pieces = mine
    while pieces != 0:
        s = trailing_zeros(pieces)
        pieces &= pieces - 1
        kind = (board[s] - 1) % 5
        targets = _mask(ctx, mover, kind, s) & ~mine
        while targets != 0:
            t = trailing_zeros(targets)
            targets &= targets - 1
            taken = (theirs >> t) & 1
            if kind == 0:
                hit = (attacked >> t) & 1  # the piece on t (taken) does not attack its own square
            elif (twice >> my_lion) & 1:
                hit = 1
            elif lion_attacked and taken:
                hit = 0 if (_mask(ctx, other, (board[t] - 1) % 5, t) >> my_lion) & 1 else 1  # the attacker taken?
            else:
                hit = lion_attacked
            if hit:
                refuted += 1
            elif kind == 0 and t // 3 == far:
                wins = True  # a try that stands
            elif not in_hand:
                # The other side left without a move? A piece it keeps with an empty square or one of ours to go
                # to (the piece just taken frees its square for the others).
                if taken:
                    stuck = (mobile & ~(1 << t)) == 0 and ((attacked >> t) & 1) == 0
                else:
                    stuck = mobile == 0
                if stuck:
                    wins = True
    if drops > 0:
        if lion_attacked:
            refuted += drops * empty
        elif not in_hand and mobile == 0:
            wins = True
    if wins:
        return (1 << CODE_BITS) | WIN
    if refuted == total:
        return (1 << CODE_BITS) | LOSS
    return ((total - refuted) << CODE_BITS) | OPEN


@njit(cache=True, inline="always")
def first_cells(ctx, lo, cells):
    """cells[i] = _first_cell(index lo + i), on every core (blocks of FIRST_BLOCK indices, each index writing its
    own cell), unranking one index of each run that differs only in its pieces' owners and promotions.

    The ranking's lowest digits are the owner of each giraffe and elephant and the owner and promotion of each
    chick (ranking.py): 2 ** (giraffes + elephants + 2 chicks on the board) consecutive indices, up to 256,
    share the squares of every piece and the hands. So the first index met of such a run is unranked, the
    pieces' squares listed in the digits' order (square order from the mover's side), and each next index of
    the run is its board with those few cells rewritten from the digits, not unranked again."""
    for b in prange((len(cells) + FIRST_BLOCK - 1) // FIRST_BLOCK):
        board = carray(_stack_int64(12), 12)
        hand = carray(_stack_int64(6), 6)
        where = carray(_stack_int64(6), 6)  # the board square of each digit's piece: chicks, elephants, giraffes
        base = carray(_stack_int64(6), 6)   # its cell less owner and promotion: 4 chick, 3 elephant, 2 giraffe
        i = b * FIRST_BLOCK
        end = min(len(cells), (b + 1) * FIRST_BLOCK)
        while i < end:
            mover = _unrank(ctx, lo + i, board, hand)
            # The pieces in the digits' order, and this index's digits (owner bits, relative to the mover).
            chicks = 0
            elephants = 0
            giraffes = 0
            for s in range(12):
                square = s + mover * (11 - 2 * s)  # square s seen from the mover
                v = board[square]
                kind = (v - 1) % 5
                if v == 0 or kind == 0:
                    continue
                if kind >= 3:
                    chicks += 1
                elif kind == 2:
                    elephants += 1
                else:
                    giraffes += 1
            digits = 0
            width = 0
            seen_c = 0
            seen_e = 0
            seen_g = 0
            for s in range(12):
                square = s + mover * (11 - 2 * s)
                v = board[square]
                kind = (v - 1) % 5
                if v == 0 or kind == 0:
                    continue
                owner = (1 if v > 5 else 0) ^ mover
                if kind >= 3:
                    slot = seen_c
                    digits |= (owner + (2 if kind == 4 else 0)) << (2 * seen_c)
                    seen_c += 1
                    base[slot] = 4
                elif kind == 2:
                    slot = chicks + seen_e
                    digits |= owner << (2 * chicks + seen_e)
                    seen_e += 1
                    base[slot] = 3
                else:
                    slot = chicks + elephants + seen_g
                    digits |= owner << (2 * chicks + elephants + seen_g)
                    seen_g += 1
                    base[slot] = 2
                where[slot] = square
            width = 2 * chicks + elephants + giraffes
            run = min((1 << width) - digits, end - i)
            for step in range(run):
                if step > 0:
                    d = digits + step
                    for c in range(chicks):
                        bits = d >> (2 * c)
                        board[where[c]] = 4 + ((bits >> 1) & 1) + 5 * ((bits & 1) ^ mover)
                    for e in range(chicks, chicks + elephants + giraffes):
                        board[where[e]] = base[e] + 5 * (((d >> (chicks + e)) & 1) ^ mover)
                cells[i + step] = _first_cell_of(ctx, mover, board, hand)
            i += run


FIRST_BLOCK = 1 << 16  # indices a thread takes at a time in first_cells


@njit(cache=True, nogil=True, parallel=True)
def solve(ctx, max_unmoves, cells, queue, state, budget, lo, seeds, seed_runs):
    """The one retrograde kernel with these un-moves, compiled once and cached (ImplicitKernels.solve).
    A solve of the whole ranking (no tier, no seeds) starts with Dōbutsu shōgi's own first pass
    (first_cells: the first level worked as it fills the cells), then the loop from the second level on
    (queue_levels); otherwise, or with state[GAME_FIRST_PASS] 0, solve_cells' own first pass."""
    whole = ctx[4] if ctx[FOLD] != 0 else 2 * ctx[4]
    if (state[0] == START and len(state) > GAME_FIRST_PASS and state[GAME_FIRST_PASS] != 0 and lo == 0
            and len(cells) == whole and len(seeds) == 0):
        first_cells(ctx, 0, cells)
        status = queue_levels(cells, queue, state, 1)
        if status < 0:
            return status
    return solve_cells(implicit_initial, predecessors, valid, move_count, terminal, ctx, max_unmoves, cells, queue,
                       state, budget, lo, seeds, seed_runs)


def context(game, folded: bool = True) -> np.ndarray:
    table = [-1] * (2 * 5 * SQUARES * 8)
    for owner in (0, 1):
        for kind in range(len(STEPS)):
            for square in range(SQUARES):
                for slot, t in enumerate(targets(kind, owner, square)):
                    table[((owner * 5 + kind) * SQUARES + square) * 8 + slot] = t
    masks = [sum(1 << t for t in targets(kind, owner, square))
             for owner in (0, 1) for kind in range(len(STEPS)) for square in range(SQUARES)]
    sources = [-1] * (2 * 5 * SQUARES * 8)
    for owner in (0, 1):
        for kind in range(len(STEPS)):
            for square in range(SQUARES):
                found = [s for s in range(SQUARES) if square in targets(kind, owner, s)]
                for slot, s in enumerate(found):
                    sources[((owner * 5 + kind) * SQUARES + square) * 8 + slot] = s
    return np.array([*ranking_context(*game._pieces()), int(folded), *table, *masks, *sources], dtype=np.int64)


def kernels(game, folded: bool = True) -> ImplicitKernels:
    """The kernels of the implicit solve: folded, over the half of the ranking with A to move
    (1,567,925,964 indices in the standard game: under the solver's 2**31); `folded=False`
    gives the whole ranking (the edge mode's batch moves)."""
    half = game.code_space() // 2
    return ImplicitKernels(
        ctx=context(game, folded), size=half if folded else 2 * half, max_moves=MAX_MOVES, max_unmoves=MAX_UNMOVES,
        successors=successors, labelled_successors=labelled_successors, predecessors=predecessors,
        terminal=terminal, valid=valid, move_count=move_count, solve=solve, folded=folded)
