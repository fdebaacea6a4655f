"""Strongly connected components by an iterative Tarjan (no recursion): O(V + E)."""

from __future__ import annotations

import numpy as np

from explorer.kernels import jit


@jit
def tarjan(indptr, indices):
    """(component id int32[V] in 0..C-1, on_cycle bool[V]).

    Components are numbered in the order Tarjan completes them (sinks first).
    A position is on a cycle when its component has more than one position or
    it has a move to itself. An explicit call stack of (node, next edge)
    replaces recursion; a visited node is on Tarjan's stack exactly while it
    has no component yet. Memory: about 28 bytes per position.
    """
    n = len(indptr) - 1
    index = np.full(n, -1, dtype=np.int32)
    low = np.empty(n, dtype=np.int32)
    comp = np.full(n, -1, dtype=np.int32)
    stack = np.empty(n, dtype=np.int32)
    calls = np.empty(n, dtype=np.int32)
    next_edge = np.empty(n, dtype=np.int64)
    counter = 0
    components = 0
    top = 0
    for root in range(n):
        if index[root] != -1:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack[top] = root
        top += 1
        calls[0] = root
        next_edge[0] = indptr[root]
        depth = 1
        while depth > 0:
            u = calls[depth - 1]
            e = next_edge[depth - 1]
            if e < indptr[u + 1]:
                next_edge[depth - 1] = e + 1
                v = indices[e]
                if index[v] == -1:
                    index[v] = low[v] = counter
                    counter += 1
                    stack[top] = v
                    top += 1
                    calls[depth] = v
                    next_edge[depth] = indptr[v]
                    depth += 1
                elif comp[v] == -1 and index[v] < low[u]:
                    low[u] = index[v]
                continue
            if low[u] == index[u]:
                while True:
                    top -= 1
                    w = stack[top]
                    comp[w] = components
                    if w == u:
                        break
                components += 1
            depth -= 1
            if depth > 0:
                parent = calls[depth - 1]
                if low[u] < low[parent]:
                    low[parent] = low[u]
    sizes = np.zeros(components, dtype=np.int64)
    for u in range(n):
        sizes[comp[u]] += 1
    on_cycle = np.zeros(n, dtype=np.bool_)
    for u in range(n):
        if sizes[comp[u]] > 1:
            on_cycle[u] = True
        else:
            for e in range(indptr[u], indptr[u + 1]):
                if indices[e] == u:
                    on_cycle[u] = True
    return comp, on_cycle
