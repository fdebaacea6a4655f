"""Which implementation runs a whole-graph pass: the compiled kernels, or plain numpy for small graphs.

The kernels (explorer.kernels) win from a few hundred thousand positions and
moves on; below that, importing numba and loading the cached machine code
(about 0.5 s of CPU in a fresh process) costs more than the work itself, so
small graphs go through the plain versions beside each kernel (explorer.algorithms), which the
tests check equal to the kernels. GAMEGRAPH_KERNELS_FROM sets the size
(positions + moves, or the code space for generation) from which the kernels
run; 0 = always (the test suite runs every size compiled in its own process, so the in-process
tests exercise the kernels, and leaves the processes it starts at the default).
The setting is read and checked by explorer.core.settings.kernels_from.
"""

from __future__ import annotations

from explorer.core.settings import KERNELS_FROM, kernels_from

__all__ = ["KERNELS_FROM", "kernels_from", "use_kernels"]


def use_kernels(size: int) -> bool:
    """True when a pass over `size` positions + moves should run compiled."""
    return size >= kernels_from()
