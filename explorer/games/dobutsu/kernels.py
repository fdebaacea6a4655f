"""Compiled (numba) Dōbutsu shōgi kernels over ranks: moves, un-moves, terminal values.

The ranking is ranking.py's, compiled here unchanged (so the rules and the kernels cannot number
positions differently). The context array `ctx` (int64) is the ranking's part (ranking.py), the fold
flag (FOLD), then the squares each piece attacks: at TARGETS + ((owner * 5 + kind) * 12 + square) * 8, up to eight
squares in the rules' STEPS order, -1 after the last. A position is unranked into two small
arrays (board cells and hands, as the rules hold them); each move is applied in place, ranked and
undone. Game over exactly as rules.Dobutsu.outcome says (tests compare them index by index).
The helpers are ordinary compiled calls, not inlined: inlining them all into the retrograde loop
made its compilation take minutes and gigabytes.
"""

from __future__ import annotations

import numpy as np
from explorer.kernels import njit

from explorer.games.base import ImplicitKernels
from explorer.games.dobutsu.ranking import RANKING_CONTEXT, rank_position, ranking_context, unrank_position
from explorer.games.dobutsu.pieces import MAX_MOVES, MAX_UNMOVES, SQUARES, STEPS, targets

FOLD = RANKING_CONTEXT  # ctx[FOLD] 1: successors and un-moves are folded into the first half (ImplicitKernels.folded)
TARGETS = RANKING_CONTEXT + 1
DROP = 12  # rules.DROP: the "from" square of a drop in a label

_rank = njit(cache=True)(rank_position)
_unrank = njit(cache=True)(unrank_position)


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


@njit(cache=True)
def _attacks(ctx, board, owner, square):
    """Whether a piece of `owner` attacks `square`."""
    for s in range(12):
        v = board[s]
        if v == 0 or (v - 1) // 5 != owner:
            continue
        kind = (v - 1) % 5
        for slot in range(8):
            t = _target(ctx, owner, kind, s, slot)
            if t < 0:
                break
            if t == square:
                return True
    return False


@njit(cache=True, inline="always")
def _lion(board, owner):
    for s in range(12):
        if board[s] == 1 + 5 * owner:
            return s
    return -1


@njit(cache=True)
def _count_moves(ctx, mover, board, hand):
    """Moves by the rules whether or not the game is over (each reaches a different position)."""
    count = 0
    empty = 0
    for s in range(12):
        v = board[s]
        if v == 0:
            empty += 1
            continue
        if (v - 1) // 5 != mover:
            continue
        kind = (v - 1) % 5
        for slot in range(8):
            t = _target(ctx, mover, kind, s, slot)
            if t < 0:
                break
            w = board[t]
            if w == 0 or (w - 1) // 5 != mover:
                count += 1
    for k in range(3):
        if hand[3 * mover + k] > 0:
            count += empty
    return count


@njit(cache=True)
def _over(ctx, mover, board, hand):
    """The Value for the player to move if the game is over (rules.Dobutsu.outcome), else -1."""
    if _attacks(ctx, board, mover, _lion(board, 1 - mover)):
        return 3
    far = 3 if mover == 0 else 0
    if _lion(board, mover) // 3 == far:
        return 3
    if _lion(board, 1 - mover) // 3 == 3 - far:
        return 0
    return 0 if _count_moves(ctx, mover, board, hand) == 0 else -1


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
    board = np.empty(12, dtype=np.int64)
    hand = np.empty(6, dtype=np.int64)
    mover = _unrank(ctx, index, board, hand)
    if _over(ctx, mover, board, hand) >= 0:
        return 0
    labels = np.empty(len(out), dtype=np.int64)
    return _moves(ctx, mover, board, hand, out, labels)


@njit(cache=True)
def labelled_successors(ctx, index, out, labels):
    board = np.empty(12, dtype=np.int64)
    hand = np.empty(6, dtype=np.int64)
    mover = _unrank(ctx, index, board, hand)
    if _over(ctx, mover, board, hand) >= 0:
        return 0
    return _moves(ctx, mover, board, hand, out, labels)


@njit(cache=True)
def move_count(ctx, index):
    """The number of moves, 0 on finished positions."""
    board = np.empty(12, dtype=np.int64)
    hand = np.empty(6, dtype=np.int64)
    mover = _unrank(ctx, index, board, hand)
    if _over(ctx, mover, board, hand) >= 0:
        return 0
    return _count_moves(ctx, mover, board, hand)


@njit(cache=True)
def terminal(ctx, index):
    board = np.empty(12, dtype=np.int64)
    hand = np.empty(6, dtype=np.int64)
    mover = _unrank(ctx, index, board, hand)
    return _over(ctx, mover, board, hand)


@njit(cache=True, inline="always")
def valid(ctx, index):
    return True  # every index is a position (ranking.py)


@njit(cache=True)
def _keep(ctx, before, board, hand, out, count):
    """Append the rank of (before to move, board, hand) if that position is not over and new."""
    if _over(ctx, before, board, hand) >= 0:
        return count
    index = _folded_rank(ctx, before, board, hand)
    for i in range(count):
        if out[i] == index:
            return count
    out[count] = index
    return count + 1


@njit(cache=True)
def predecessors(ctx, index, out):
    """Un-moves (rules.Dobutsu.unmoves): a piece of the previous mover steps back (a hen on the far
    rank possibly as the chick it was), possibly giving back a piece it took, or goes back to the hand."""
    board = np.empty(12, dtype=np.int64)
    hand = np.empty(6, dtype=np.int64)
    mover = _unrank(ctx, index, board, hand)
    before = 1 - mover
    far = 3 if before == 0 else 0
    count = 0
    for t in range(12):
        v = board[t]
        if v == 0 or (v - 1) // 5 != before:
            continue
        kind = (v - 1) % 5
        for option in range(2):
            kind_before = kind
            if option == 1:
                if kind != 4 or t // 3 != far:
                    continue
                kind_before = 3  # the chick this hen was before its promotion
            elif kind == 3 and t // 3 == far:
                continue  # a chick moving onto the far rank is promoted: it was dropped there
            for s in range(12):
                if board[s] != 0:
                    continue
                reaches = False
                for slot in range(8):
                    x = _target(ctx, before, kind_before, s, slot)
                    if x < 0:
                        break
                    if x == t:
                        reaches = True
                if not reaches:
                    continue
                board[s] = 1 + kind_before + 5 * before
                board[t] = 0
                count = _keep(ctx, before, board, hand, out, count)
                for taken in range(1, 5):  # giraffe, elephant, chick, hen given back from the hand
                    slot_in_hand = 3 * before + (2 if taken == 4 else taken - 1)
                    if hand[slot_in_hand] == 0:
                        continue
                    hand[slot_in_hand] -= 1
                    board[t] = 1 + taken + 5 * mover
                    count = _keep(ctx, before, board, hand, out, count)
                    hand[slot_in_hand] += 1
                board[s] = 0
                board[t] = v
        if 1 <= kind <= 3:  # un-drop
            board[t] = 0
            hand[3 * before + kind - 1] += 1
            count = _keep(ctx, before, board, hand, out, count)
            hand[3 * before + kind - 1] -= 1
            board[t] = v
    return count


def context(game, folded: bool = True) -> np.ndarray:
    table = [-1] * (2 * 5 * SQUARES * 8)
    for owner in (0, 1):
        for kind in range(len(STEPS)):
            for square in range(SQUARES):
                for slot, t in enumerate(targets(kind, owner, square)):
                    table[((owner * 5 + kind) * SQUARES + square) * 8 + slot] = t
    return np.array([*ranking_context(*game._pieces()), int(folded), *table], dtype=np.int64)


def kernels(game, folded: bool = True) -> ImplicitKernels:
    """The kernels of the implicit solve: folded, over the half of the ranking with A to move
    (1,567,925,964 indices in the standard game: under the solver's 2**31); `folded=False`
    gives the whole ranking (the edge mode's batch moves)."""
    half = game.code_space() // 2
    return ImplicitKernels(
        ctx=context(game, folded), size=half if folded else 2 * half, max_moves=MAX_MOVES, max_unmoves=MAX_UNMOVES,
        successors=successors, labelled_successors=labelled_successors, predecessors=predecessors,
        terminal=terminal, valid=valid, move_count=move_count, folded=folded)
