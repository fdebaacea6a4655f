"""Strongly connected components: which positions lie on cycles.

An iterative Tarjan in a compiled kernel (explorer.kernels.scc), O(V + E), on
the successor CSR, for graphs above explorer.algorithms.dispatch's threshold. Below it no
numba loads: small graphs use an iterative Tarjan in plain Python (O(V + E); on
a game of a few thousand positions it finishes before scipy would have been
imported, so commands such as `gamegraph solve chopsticks` start fast), and
medium ones scipy's compiled Pearce algorithm. A position is on a cycle when
its component has more than one position or it has a move to itself.
"""

from __future__ import annotations

import numpy as np

from explorer.algorithms.reverse import edge_sources

# Below this many positions + moves the plain-Python Tarjan is the faster path.
SMALL_GRAPH = 50_000


def strongly_connected(graph) -> tuple[np.ndarray, np.ndarray]:
    """(component id int32[V], on_cycle bool[V]) of a graph's successor CSR
    (``succ_indptr``, ``succ_indices``). Component ids are 0..C-1. O(V + E)."""
    from explorer.algorithms.dispatch import use_kernels

    n, indptr, indices = graph.num_positions, graph.succ_indptr, graph.succ_indices
    if use_kernels(n + len(indices)):
        from explorer.kernels.scc import tarjan

        return tarjan(indptr, indices)
    if n + len(indices) <= SMALL_GRAPH:
        return _with_cycle_flags(tarjan_labels(n, indptr, indices), indptr, indices)
    return scipy_strongly_connected(graph)


def scipy_strongly_connected(graph) -> tuple[np.ndarray, np.ndarray]:
    """strongly_connected through scipy's compiled Pearce algorithm (a reference and the medium-size path)."""
    return _with_cycle_flags(scipy_labels(graph.num_positions, graph.succ_indptr, graph.succ_indices),
                             graph.succ_indptr, graph.succ_indices)


def _with_cycle_flags(labels: np.ndarray, indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A position is on a cycle when its component has more than one position or it has a move to itself."""
    on_cycle = np.bincount(labels, minlength=1)[labels] > 1
    sources = edge_sources(indptr)
    on_cycle[sources[indices == sources]] = True
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
