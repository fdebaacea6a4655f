"""The reversed graph: every position's predecessors, as a CSR pair.

One home for the predecessor lists. Three workers give the same arrays
(sources ascending within each target's list), chosen by size:

- the compiled counting sort (explorer.kernels.csr.reverse), O(V + E), above
  explorer.algorithms.dispatch's threshold;
- a stable numpy sort of the targets, O(E log E), for small graphs: no numba
  and no scipy to import;
- scipy's compiled CSR -> CSC conversion, a counting sort, O(V + E), between.
"""

from __future__ import annotations

import numpy as np

from explorer.algorithms.dispatch import use_kernels

# Up to this many moves the predecessor arrays come from numpy alone: scipy's
# import costs more than the whole computation on a small game.
SMALL_GRAPH_MOVES = 200_000


def reverse_csr(n: int, indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indptr int64[n+1], indices int32[E]) of the reversed graph of the CSR (indptr, indices). O(V + E)."""
    if len(indptr) != n + 1 or (n and int(indptr[-1]) != len(indices)):
        raise ValueError(f"not a CSR graph of {n} positions: indptr has {len(indptr)} entries, indices {len(indices)}")
    if use_kernels(n + len(indices)):
        from explorer.kernels.csr import reverse

        return reverse(indptr, indices)
    if len(indices) <= SMALL_GRAPH_MOVES:
        return reverse_csr_numpy(n, indptr, indices)
    return reverse_csr_scipy(n, indptr, indices)


def reverse_csr_numpy(n: int, indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reversed graph's (indptr int64, indices int32), sources ascending per target.

    Edges are grouped by ascending source, so a stable sort by target keeps each
    target's sources in order. O(E log E) time, O(V + E) memory."""
    sources = edge_sources(indptr)
    order = np.argsort(indices, kind="stable")
    counts = np.bincount(indices, minlength=n)
    back_indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=back_indptr[1:])
    return back_indptr, sources[order].astype(np.int32, copy=False)


def reverse_csr_scipy(n: int, indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same as reverse_csr_numpy through scipy's compiled counting sort: O(V + E)."""
    from scipy.sparse import csr_array

    forward = csr_array((np.ones(len(indices), dtype=np.int8), indices, indptr), shape=(n, n))
    backward = forward.tocsc()
    return backward.indptr.astype(np.int64), backward.indices.astype(np.int32)


def edge_sources(indptr: np.ndarray) -> np.ndarray:
    """Source position of every edge (int32[E]), the COO companion of a CSR's indices. O(V + E)."""
    return np.repeat(np.arange(len(indptr) - 1, dtype=np.int32), np.diff(indptr))
