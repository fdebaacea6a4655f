"""Strongly connected components: which positions lie on cycles.

An iterative Tarjan in a compiled kernel (explorer.kernels.scc), O(V + E), on
the successor CSR, for graphs above explorer.engine's threshold. Below it no
numba loads: small graphs use an iterative Tarjan in plain Python (O(V + E); on
a game of a few thousand positions it finishes before scipy would have been
imported, so commands such as `gamegraph solve chopsticks` start fast), and
medium ones scipy's compiled Pearce algorithm. A position is on a cycle when
its component has more than one position or it has a move to itself.
"""

from __future__ import annotations

import numpy as np

from explorer.graph import GameGraph

# Below this many positions + moves the plain-Python Tarjan is the faster path.
SMALL_GRAPH = 50_000


def strongly_connected(graph: GameGraph) -> tuple[np.ndarray, np.ndarray]:
    """(component id int32[V], on_cycle bool[V]). Component ids are 0..C-1. O(V + E)."""
    from explorer.engine import use_kernels

    n = graph.num_positions
    if use_kernels(n + graph.num_moves):
        from explorer.kernels.scc import tarjan

        return tarjan(graph.succ_indptr, graph.succ_indices)
    if n + graph.num_moves <= SMALL_GRAPH:
        labels = tarjan_labels(n, graph.succ_indptr, graph.succ_indices)
    else:
        labels = scipy_labels(n, graph.succ_indptr, graph.succ_indices)
    sizes = np.bincount(labels, minlength=1)
    on_cycle = sizes[labels] > 1
    sources = graph.edge_sources()
    loops = sources[graph.succ_indices == sources]
    on_cycle[loops] = True
    return labels, on_cycle


def scipy_labels(n: int, indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Component ids (int32[n]) from scipy.sparse.csgraph: O(V + E), compiled."""
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import connected_components

    matrix = csr_array((np.ones(len(indices), dtype=np.int8), indices, indptr), shape=(n, n))
    _, labels = connected_components(matrix, directed=True, connection="strong")
    return labels.astype(np.int32)


def tarjan_labels(n: int, indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Component ids (int32[n], numbered in the order components complete) by Tarjan's
    algorithm with an explicit stack, so deep graphs cannot overflow Python's
    recursion limit. O(V + E) time and memory."""
    ptr = indptr.tolist()
    succ = indices.tolist()
    index = [-1] * n      # discovery order
    low = [0] * n
    label = [-1] * n
    on_stack = [False] * n
    stack: list[int] = []
    counter = components = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, ptr[root])]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, edge = work[-1]
            if edge < ptr[node + 1]:
                work[-1] = (node, edge + 1)
                child = succ[edge]
                if index[child] < 0:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack[child] = True
                    work.append((child, ptr[child]))
                elif on_stack[child] and index[child] < low[node]:
                    low[node] = index[child]
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    label[member] = components
                    if member == node:
                        break
                components += 1
    return np.asarray(label, dtype=np.int32)
