"""Strongly connected components: which positions lie on cycles.

Delegates to scipy's compiled Pearce algorithm (O(V + E)) on the successor CSR.
A position is on a cycle when its component has more than one position or it
has a move to itself.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components

from explorer.graph import GameGraph


def strongly_connected(graph: GameGraph) -> tuple[np.ndarray, np.ndarray]:
    """(component id int32[V], on_cycle bool[V]). Component ids are 0..C-1."""
    n = graph.num_positions
    matrix = csr_array((np.ones(graph.num_moves, dtype=np.int8), graph.succ_indices, graph.succ_indptr), shape=(n, n))
    _, labels = connected_components(matrix, directed=True, connection="strong")
    labels = labels.astype(np.int32)
    sizes = np.bincount(labels)
    on_cycle = sizes[labels] > 1
    sources = graph.edge_sources()
    loops = sources[graph.succ_indices == sources]
    on_cycle[loops] = True
    return labels, on_cycle
