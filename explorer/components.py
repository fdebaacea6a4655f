"""Strongly connected components: which positions lie on cycles.

An iterative Tarjan in a compiled kernel (explorer.kernels.scc), O(V + E), on
the successor CSR. A position is on a cycle when its component has more than
one position or it has a move to itself. scipy's version is
explorer.reference.strongly_connected, the tests' cross-check and the path
for small graphs.
"""

from __future__ import annotations

import numpy as np

from explorer.graph import GameGraph


def strongly_connected(graph: GameGraph) -> tuple[np.ndarray, np.ndarray]:
    """(component id int32[V], on_cycle bool[V]). Component ids are 0..C-1.

    Small graphs go through scipy (see explorer.engine)."""
    from explorer.engine import use_kernels

    if not use_kernels(graph.num_positions + graph.num_moves):
        from explorer.reference import strongly_connected as plain

        return plain(graph)
    from explorer.kernels.scc import tarjan

    return tarjan(graph.succ_indptr, graph.succ_indices)
