"""Which implementation runs a whole-graph pass: the compiled kernels, or plain numpy for small graphs.

The kernels (explorer.kernels) win from a few hundred thousand positions and
moves on; below that, importing numba and loading the cached machine code
(about 0.5 s of CPU in a fresh process) costs more than the work itself, so
small graphs go through the plain versions (explorer.reference), which the
tests check equal to the kernels. GAMEGRAPH_KERNELS_FROM sets the size
(positions + moves, or the code space for generation) from which the kernels
run; 0 = always (the test suite sets it, so every test exercises the kernels).
"""

from __future__ import annotations

import os

from explorer.core.errors import InvalidParameter

KERNELS_FROM = 200_000


def kernels_from() -> int:
    text = os.environ.get("GAMEGRAPH_KERNELS_FROM", "").strip()
    if not text:
        return KERNELS_FROM
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise InvalidParameter(f"GAMEGRAPH_KERNELS_FROM={text!r} is not a size: give a whole number >= 0")
    return value


def use_kernels(size: int) -> bool:
    """True when a pass over `size` positions + moves should run compiled."""
    return size >= kernels_from()
