"""Compiled (numba) Chopsticks kernels for the implicit mode, over `Chopsticks.encode` codes.

The index space is the whole code space, 2 * fingers**4: mover, then A's and
B's hands. An index whose player NOT to move has two dead hands is no legal
position (the game ended before) and is marked invalid. Un-moves invert each
move kind for every rule variant: a tap (the tapped hand's old count, with
cutoff, rollover and attack_dead), an even split and a transfer (suicide and
swaps). ctx = [fingers, rollover, attack_dead, split (0 none, 1 even,
2 transfer), suicide, swaps]. Every kernel is O(fingers).
"""

from __future__ import annotations

import numpy as np
from explorer.kernels import njit
from explorer.kernels.ranked import cached_wrappers

from explorer.games.base import ImplicitKernels
from explorer.games.chopsticks.codes import by_mover, decode as _decode

_KIND = 10 ** 9  # the same labels as Chopsticks.batch_moves


@njit(cache=True, inline="always")
def _encode(n, mover, a0, a1, b0, b1):
    return (((mover * n + a0) * n + a1) * n + b0) * n + b1


@njit(cache=True, inline="always")
def _join(n, mover, m0, m1, t0, t1):
    """Code of the position with `mover` to move, where (m0, m1) are the hands of the
    player who just moved (1 - mover) and (t0, t1) the hands of `mover`."""
    if mover == 1:
        return _encode(n, 1, m0, m1, t0, t1)
    return _encode(n, 0, t0, t1, m0, m1)


@njit(cache=True)
def _moves(ctx, code, out, labels, with_labels):
    n, rollover, attack_dead, split, suicide, swaps = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[5]
    mover, m0, m1, t0, t1 = by_mover(n, code)
    count = 0
    for t in range(4):
        i = t // 2
        j = t % 2
        a = m0 if i == 0 else m1
        h = t0 if j == 0 else t1
        if a == 0 or (h == 0 and not attack_dead):
            continue
        total = h + a
        hit = total % n if rollover else (total if total < n else 0)
        target = _join(n, 1 - mover, m0, m1, hit if j == 0 else t0, t1 if j == 0 else hit)
        seen = False
        for k in range(count):
            if out[k] == target:
                seen = True
        if seen:
            continue
        out[count] = target
        if with_labels:
            labels[count] = t
        count += 1
    if split == 1:
        live = max(m0, m1)
        if min(m0, m1) == 0 and live >= 2 and live % 2 == 0:
            half = live // 2
            out[count] = _join(n, 1 - mover, half, half, t0, t1)
            if with_labels:
                labels[count] = _KIND + half
            count += 1
    elif split == 2:
        for source in range(2):
            ms = m0 if source == 0 else m1
            mt = m1 if source == 0 else m0
            for k in range(1, ms + 1):
                ns = ms - k
                nt = mt + k
                if nt >= n:
                    break
                if ns == 0 and not suicide:
                    continue
                if ns == mt and nt == ms and not swaps:
                    continue
                n0 = ns if source == 0 else nt
                n1 = nt if source == 0 else ns
                out[count] = _join(n, 1 - mover, n0, n1, t0, t1)
                if with_labels:
                    labels[count] = 2 * _KIND + (k * n + n0) * n + n1
                count += 1
    return count


@njit(cache=True)
def successors(ctx, code, out):
    return _moves(ctx, code, out, out, False)


@njit(cache=True)
def labelled_successors(ctx, code, out, labels):
    return _moves(ctx, code, out, labels, True)


@njit(cache=True, inline="always")
def move_count(ctx, code):
    """Distinct successors in O(1): taps can coincide (equal tapping hands); transfers,
    the even split and taps never reach one position twice."""
    n, rollover, attack_dead, split, suicide, swaps = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[5]
    mover, m0, m1, t0, t1 = by_mover(n, code)
    count = 0
    for j in range(2):
        h = t0 if j == 0 else t1
        if h == 0 and not attack_dead:
            continue
        hits = 0
        first = -1
        for i in range(2):
            a = m0 if i == 0 else m1
            if a == 0:
                continue
            total = h + a
            hit = total % n if rollover else (total if total < n else 0)
            if hits == 0 or hit != first:
                hits += 1
            first = hit
        count += hits
    if split == 1:
        live = max(m0, m1)
        if min(m0, m1) == 0 and live >= 2 and live % 2 == 0:
            count += 1
    elif split == 2:
        for source in range(2):
            ms = m0 if source == 0 else m1
            mt = m1 if source == 0 else m0
            most = min(ms - (0 if suicide else 1), n - 1 - mt)
            if most > 0:
                count += most
                swap = ms - mt
                if not swaps and 1 <= swap <= most:
                    count -= 1
    return count


@njit(cache=True, inline="always")
def terminal(ctx, code):
    n = ctx[0]
    mover, a0, a1, b0, b1 = _decode(n, code)
    dead = (a0 == 0 and a1 == 0) if mover == 0 else (b0 == 0 and b1 == 0)
    return 0 if dead else -1


@njit(cache=True, inline="always")
def valid(ctx, code):
    n = ctx[0]
    mover, a0, a1, b0, b1 = _decode(n, code)
    return not ((b0 == 0 and b1 == 0) if mover == 0 else (a0 == 0 and a1 == 0))


@njit(cache=True, inline="always")
def predecessors(ctx, code, out):
    """Every valid code with a move to `code`, each once."""
    n, rollover, attack_dead, split, suicide, swaps = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[5]
    # (m0, m1): hands of the player who moved; (t0, t1): hands of the player now to move.
    mover, t0, t1, m0, m1 = by_mover(n, code)
    previous = 1 - mover
    count = 0
    # Taps: the tapped hand j held h before; the tapping hand (count a) is unchanged.
    for j in range(2):
        v = t0 if j == 0 else t1
        other = t1 if j == 0 else t0
        if rollover or v > 0:
            for i in range(2):
                a = m0 if i == 0 else m1
                if a == 0 or (i == 1 and m1 == m0):
                    continue
                h = (v - a) % n if rollover else v - a
                if h < 0 or (h == 0 and not attack_dead) or (h == 0 and other == 0):
                    continue
                out[count] = _join(n, previous, t0 if j == 1 else h, t1 if j == 0 else h, m0, m1)
                count += 1
        else:  # cutoff, hand killed: any h with h + a >= n for some tapping hand a
            strongest = max(m0, m1)
            if strongest == 0:
                continue
            for h in range(n - strongest, n):
                out[count] = _join(n, previous, t0 if j == 1 else h, t1 if j == 0 else h, m0, m1)
                count += 1
    if t0 == 0 and t1 == 0:
        return count  # a split or transfer never leaves the opponent dead
    if split == 1:
        if m0 == m1 and m0 >= 1 and 2 * m0 < n:
            out[count] = _join(n, previous, t0, t1, 0, 2 * m0)
            count += 1
            out[count] = _join(n, previous, t0, t1, 2 * m0, 0)
            count += 1
    elif split == 2:
        s = m0 + m1
        for x0 in range(max(0, s - (n - 1)), min(s, n - 1) + 1):
            x1 = s - x0
            if x0 == m0:
                continue
            gave = m0 if x0 > m0 else m1  # the source hand's count after the transfer
            if gave == 0 and not suicide:
                continue
            if x0 == m1 and x1 == m0 and not swaps:
                continue
            out[count] = _join(n, previous, t0, t1, x0, x1)
            count += 1
    return count


solve, moves_of, terminal_of = cached_wrappers(globals(), "solve", "moves_of", "terminal_of")  # cached (explorer.kernels.ranked)


def kernels(game) -> ImplicitKernels:
    p = game.params
    n = p.fingers
    ctx = np.array([n, p.overflow == "rollover", p.attack_dead, ("none", "even", "transfer").index(p.split),
                    p.suicide, p.swaps], dtype=np.int64)
    return ImplicitKernels(ctx=ctx, size=game.code_space(), max_moves=4 + 2 * n, max_unmoves=4 * n + 8,
                           successors=successors, labelled_successors=labelled_successors,
                           predecessors=predecessors, move_count=move_count, terminal=terminal, valid=valid, solve=solve,
                           moves_of=moves_of, terminal_of=terminal_of)
