"""Whole-graph algorithms, one module per family (after networkx's layout).

Each public function takes a graph's raw CSR arrays (or any object that has
them: ``num_positions``, ``num_moves``, ``succ_indptr``, ``succ_indices`` and,
where needed, ``predecessors_csr``), checks them, and hands them to a private
worker: the compiled kernel (explorer.kernels) above the size threshold of
explorer.algorithms.dispatch, the plain version below it. The plain version
sits beside the fast one in the same module, and the tests check them equal.

- dispatch: compiled or plain, by size.
- reverse: the reversed graph (predecessor lists).
- scc: strongly connected components, which positions lie on cycles.
- retrograde: values and remoteness for the player to move, optimal moves.
- draw_levels: GamesmanClassic's draw levels inside the drawn region.
"""
