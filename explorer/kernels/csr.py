"""CSR kernels: the reversed graph by counting sort, edge sources, out-degrees."""

from __future__ import annotations

import numpy as np

from explorer.kernels import jit


@jit
def reverse(succ_indptr, succ_indices):
    """(indptr int64[V+1], indices int32[E]) of the reversed graph, predecessors in id order.

    A counting sort: one pass counts each node's in-degree, a prefix sum places
    the lists, a second pass over the sources in id order fills them. O(V + E).
    """
    n = len(succ_indptr) - 1
    indptr = np.zeros(n + 1, dtype=np.int64)
    for e in range(len(succ_indices)):
        indptr[succ_indices[e] + 1] += 1
    for v in range(n):
        indptr[v + 1] += indptr[v]
    fill = indptr[:-1].copy()
    indices = np.empty(len(succ_indices), dtype=np.int32)
    for u in range(n):
        for e in range(succ_indptr[u], succ_indptr[u + 1]):
            v = succ_indices[e]
            indices[fill[v]] = u
            fill[v] += 1
    return indptr, indices
