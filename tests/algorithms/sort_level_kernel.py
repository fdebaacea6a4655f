"""retrograde._sort_level in a parallel wrapper of its own, for test_kernels (it is inlined into solve_cells').

Cached like every kernel (cache=True, in explorer.kernels' keyed folder, under tests/algorithms): compiling the
parallel wrapper took 28 s under load in every run of the suite (issue 34). A stale wrapper cannot be loaded:
the keyed folder's name is a hash of every kernel source, retrograde.py's _sort_level among them, and numba
checks this file's own source. Imported only by the test, so that collecting test_kernels compiles nothing."""

from numba import njit

from explorer.kernels.retrograde import _sort_level


@njit(parallel=True, cache=True)
def sort_level(queue, head, tail, n, parts):
    return _sort_level(queue, head, tail, n, parts)
