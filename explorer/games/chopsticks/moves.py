"""Chopsticks moves as a compiled kernel (numba): the same moves, labels and order as
`Chopsticks.batch_moves`, grouped by source (less some repeats, see `_moves_of`). Imported only when the compiled
generator runs (explorer.graph), never at CLI start-up.
"""

from __future__ import annotations

import numpy as np

from explorer.games.chopsticks.codes import by_mover
from explorer.kernels import jit
from explorer.kernels.bfs import expand_positions, jit_parallel

_KIND = 10 ** 9  # as in explorer.games.chopsticks.rules: label = kind * _KIND + payload
SPLIT_NONE, SPLIT_EVEN, SPLIT_TRANSFER = 0, 1, 2


@jit
def _join(mover, m0, m1, t0, t1, n, symmetry):
    """Code of the position after a move: `mover` moved, (m0, m1) its hands, (t0, t1) the other's."""
    if mover == 0:
        a0, a1, b0, b1 = m0, m1, t0, t1
    else:
        a0, a1, b0, b1 = t0, t1, m0, m1
    if symmetry:
        if a0 > a1:
            a0, a1 = a1, a0
        if b0 > b1:
            b0, b1 = b1, b0
    return ((((1 - mover) * n + a0) * n + a1) * n + b0) * n + b1


@jit
def _moves_of(code, n, rollover, attack_dead, split, suicide, swaps, symmetry, targets, labels, at, seen, stamp):
    """Write the moves of one position (in `Chopsticks.moves` order) to targets/labels[at:]; return how many.

    With symmetry the two transfer directions reach the same canonical positions
    (the mover's hands sum to the same total, so the smaller hand decides): a
    transfer whose result an earlier one already reached is left out here, as
    the generator would drop it anyway. seen[smaller hand] == stamp marks them.
    """
    mover, m0, m1, t0, t1 = by_mover(n, code)
    count = at
    for t in range(4):  # TAPS: (0, 0), (0, 1), (1, 0), (1, 1)
        hand = m0 if t < 2 else m1
        other = t0 if t % 2 == 0 else t1
        if hand == 0 or (other == 0 and not attack_dead):
            continue
        total = other + hand
        hit = total % n if rollover else (total if total < n else 0)
        if t % 2 == 0:
            targets[count] = _join(mover, m0, m1, hit, t1, n, symmetry)
        else:
            targets[count] = _join(mover, m0, m1, t0, hit, n, symmetry)
        labels[count] = t
        count += 1
    if split == SPLIT_EVEN:
        live = max(m0, m1)
        if min(m0, m1) == 0 and live >= 2 and live % 2 == 0:
            half = live // 2
            targets[count] = _join(mover, half, half, t0, t1, n, symmetry)
            labels[count] = _KIND + half
            count += 1
    elif split == SPLIT_TRANSFER:
        for direction in range(2):
            give, take = (m0, m1) if direction == 0 else (m1, m0)
            most = min(give - (0 if suicide else 1), n - 1 - take)
            for k in range(1, most + 1):
                if direction == 0:
                    new0, new1 = give - k, take + k
                else:
                    new0, new1 = take + k, give - k
                if not swaps and new0 == m1 and new1 == m0:
                    continue  # a transfer that only mirrors the hands is no move
                if symmetry:
                    smaller = min(new0, new1)
                    if seen[smaller] == stamp:
                        continue
                    seen[smaller] = stamp
                targets[count] = _join(mover, new0, new1, t0, t1, n, symmetry)
                labels[count] = 2 * _KIND + (k * n + new0) * n + new1
                count += 1
    return count - at


@jit
def expand(codes, n, rollover, attack_dead, split, suicide, swaps, symmetry):
    """(starts int64[len(codes)+1], target, label): the moves of codes[r] are
    target[starts[r]:starts[r+1]], in `Chopsticks.moves` order. O(len(codes) + moves).

    One pass: the output is allocated at an upper bound of the move count that
    needs no enumeration (4 taps, 1 split, the transfer range of each hand).
    """
    bound = 0
    for i in range(len(codes)):
        code = codes[i]
        hands = code % (n * n * n * n)
        m_high = hands // (n * n) if code < n ** 4 else hands % (n * n)  # the mover's two hands
        m0, m1 = m_high // n, m_high % n
        bound += 5
        if split == SPLIT_TRANSFER:
            bound += max(min(m0 - (0 if suicide else 1), n - 1 - m1), 0)
            bound += max(min(m1 - (0 if suicide else 1), n - 1 - m0), 0)
    starts = np.empty(len(codes) + 1, dtype=np.int64)
    target = np.empty(bound, dtype=np.int64)
    label = np.empty(bound, dtype=np.int64)
    seen = np.zeros(n, dtype=np.int64)
    starts[0] = 0
    for i in range(len(codes)):
        at = starts[i]
        starts[i + 1] = at + _moves_of(codes[i], n, rollover, attack_dead, split, suicide, swaps, symmetry,
                                       target, label, at, seen, i + 1)
    total = starts[len(codes)]
    return starts, target[:total], label[:total]


@jit
def _outcome(ctx, code):
    """LOSS (0) when the player to move has two dead hands, else -1 (Chopsticks.batch_outcomes)."""
    n = ctx[0]
    _, m0, m1, _, _ = by_mover(n, code)
    return 0 if m0 == 0 and m1 == 0 else -1


@jit
def _position_moves(ctx, code, symmetry, targets, labels, seen, stamp):
    return _moves_of(code, ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[5], symmetry, targets, labels, 0, seen, stamp)


@jit_parallel
def expand_level(ctx, symmetry, first, stop, max_moves, table, codes, indptr, terminal, targets, labels,
                 found, edges, limit, block, side_targets, side_labels, fresh, keys, stamps, buffer, names, scratch,
                 tally):
    """explorer.kernels.bfs.expand_positions with Chopsticks' moves, compiled (on every core) and cached
    (Chopsticks.compiled_generator)."""
    return expand_positions(_position_moves, _outcome, ctx, symmetry, first, stop, max_moves, table, codes, indptr,
                            terminal, targets, labels, found, edges, limit, block, side_targets, side_labels, fresh,
                            keys, stamps, buffer, names, scratch, tally)
