"""Chopsticks integer codes inside compiled kernels: one decoding shared by the move generator
(chopsticks_compiled_moves) and the implicit mode's kernels (chopsticks_implicit_kernels).

A code is (((mover * n + a0) * n + a1) * n + b0) * n + b1 with n = fingers, as
`Chopsticks.encode` writes it. Inlined where called, so sharing costs nothing.
"""

from __future__ import annotations

from explorer.kernels import njit


@njit(cache=True, inline="always")
def decode(n, code):
    """(mover, a0, a1, b0, b1) of a code. O(1)."""
    b1 = code % n
    code //= n
    b0 = code % n
    code //= n
    a1 = code % n
    code //= n
    a0 = code % n
    return code // n, a0, a1, b0, b1


@njit(cache=True, inline="always")
def by_mover(n, code):
    """(mover, m0, m1, t0, t1): the mover's hands, then the other player's. O(1)."""
    mover, a0, a1, b0, b1 = decode(n, code)
    if mover == 0:
        return mover, a0, a1, b0, b1
    return mover, b0, b1, a0, a1
