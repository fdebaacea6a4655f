"""The plain numpy/scipy versions of the whole-graph passes, kept as references.

These were the production code before the compiled kernels (explorer.kernels).
They stay for three uses: the cross-check in tests (compiled vs plain vs
brute force), the baseline in bench/, and small graphs, where loading compiled
code costs more than the work (explorer.engine). Same inputs, same outputs as
the public functions they shadow:

- `predecessors`: scipy's CSR -> CSC conversion.
- `solve_levels`: level-synchronous retrograde in numpy. O(levels x V) because of
  one np.bincount(minlength=V) per remoteness level.
- `strongly_connected`: scipy's Pearce algorithm.
- `generate_levels`: the level-by-level array generator over batch_moves. It
  scans the whole code space once per level: O(levels x code space + E log E).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from explorer.games.base import Game
from explorer.graph import DEFAULT_MAX_POSITIONS, GameGraph, _too_large, start_codes
from explorer.solver import Solution
from explorer.values import UNSOLVED, Value


def predecessors(graph: GameGraph) -> tuple[np.ndarray, np.ndarray]:
    """(indptr int64, indices int32) of the reversed graph via scipy. O(V + E)."""
    from scipy.sparse import csr_array

    n = graph.num_positions
    forward = csr_array((np.ones(graph.num_moves, dtype=np.int8), graph.succ_indices, graph.succ_indptr), shape=(n, n))
    backward = forward.tocsc()
    return backward.indptr.astype(np.int64), backward.indices.astype(np.int32)


def strongly_connected(graph: GameGraph) -> tuple[np.ndarray, np.ndarray]:
    """(component id int32[V], on_cycle bool[V]) via scipy's connected_components."""
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import connected_components

    n = graph.num_positions
    matrix = csr_array((np.ones(graph.num_moves, dtype=np.int8), graph.succ_indices, graph.succ_indptr), shape=(n, n))
    _, labels = connected_components(matrix, directed=True, connection="strong")
    labels = labels.astype(np.int32)
    on_cycle = np.bincount(labels)[labels] > 1
    sources = graph.edge_sources()
    on_cycle[sources[graph.succ_indices == sources]] = True
    return labels, on_cycle


def solve_levels(graph: GameGraph) -> Solution:
    """explorer.solver.solve as it was: scipy predecessors, level-by-level numpy retrograde."""
    pred_indptr, pred_indices = predecessors(graph)
    value, remoteness = retrograde_levels(graph.succ_indptr, pred_indptr, pred_indices, graph.terminal)
    return Solution(value, remoteness, optimal_moves(graph, value, remoteness))


def _gather(indptr: np.ndarray, indices: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Concatenated neighbour lists of `nodes` (with repeats), vectorised."""
    starts, ends = indptr[nodes], indptr[nodes + 1]
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=indices.dtype)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return indices[offsets + np.arange(total)]


def retrograde_levels(succ_indptr, pred_indptr, pred_indices, terminal):
    """(value, remoteness): wins/losses level by level, then ties, then draws."""
    n = len(terminal)
    value = np.full(n, UNSOLVED, dtype=np.int8)
    remoteness = np.full(n, -1, dtype=np.int32)
    pending = np.diff(succ_indptr).astype(np.int64)
    decided = np.flatnonzero((terminal == Value.WIN) | (terminal == Value.LOSS))
    value[decided] = terminal[decided]
    remoteness[decided] = 0
    level = 0
    while len(decided):
        losses = decided[value[decided] == Value.LOSS]
        wins = decided[value[decided] == Value.WIN]
        parents = _gather(pred_indptr, pred_indices, losses)
        new_wins = np.unique(parents[value[parents] == UNSOLVED])
        value[new_wins] = Value.WIN
        remoteness[new_wins] = level + 1
        parents = _gather(pred_indptr, pred_indices, wins)
        parents = parents[value[parents] == UNSOLVED]
        if len(parents):
            pending -= np.bincount(parents, minlength=n)
        candidates = np.unique(parents)
        new_losses = candidates[(pending[candidates] == 0) & (terminal[candidates] < 0)]
        value[new_losses] = Value.LOSS
        remoteness[new_losses] = level + 1
        decided = np.concatenate([new_wins, new_losses])
        level += 1
    decided = np.flatnonzero((terminal == Value.TIE) & (value == UNSOLVED))
    value[decided] = Value.TIE
    remoteness[decided] = 0
    level = 0
    while len(decided):
        parents = _gather(pred_indptr, pred_indices, decided)
        new_ties = np.unique(parents[value[parents] == UNSOLVED])
        value[new_ties] = Value.TIE
        remoteness[new_ties] = level + 1
        decided = new_ties
        level += 1
    value[value == UNSOLVED] = Value.DRAW
    return value, remoteness


_FLIP = np.array([Value.WIN, Value.DRAW, Value.TIE, Value.LOSS], dtype=np.int8)


def optimal_moves(graph: GameGraph, value: np.ndarray, remoteness: np.ndarray) -> np.ndarray:
    """bool[E] with numpy over the COO edge list. O(E)."""
    sources = graph.edge_sources()
    targets = graph.succ_indices
    same_value = _FLIP[value[targets]] == value[sources]
    draw = value[sources] == Value.DRAW
    return same_value & (draw | (remoteness[targets] == remoteness[sources] - 1))


def generate_levels(game: Game, symmetry: bool = True, start: Any = None,
                    max_positions: int = DEFAULT_MAX_POSITIONS, extra_starts: Sequence[Any] = ()) -> GameGraph:
    """The array generator as it was (numpy over batch_moves, one code-space scan per level)."""
    symmetry, frontier = start_codes(game, symmetry, start, extra_starts)
    space = game.code_space()
    node_id = np.full(space, -1, dtype=np.int32)
    if len(frontier) > max_positions:
        raise _too_large(game, max_positions)
    node_id[frontier] = np.arange(len(frontier), dtype=np.int32)
    found = len(frontier)
    levels, edge_parts = [], []
    while len(frontier):
        levels.append(frontier)
        live = frontier[game.batch_outcomes(frontier) < 0]
        batch = game.batch_moves(live, symmetry)
        pair = batch.source.astype(np.int64) * space + batch.target
        order = np.argsort(pair, kind="stable")
        pair = pair[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = pair[1:] != pair[:-1]
        keep = order[first]
        targets = batch.target[keep]
        node_id[targets[node_id[targets] < 0]] = -2
        fresh = np.flatnonzero(node_id == -2)
        if found + len(fresh) > max_positions:
            raise _too_large(game, max_positions)
        node_id[fresh] = np.arange(found, found + len(fresh), dtype=np.int32)
        found += len(fresh)
        edge_parts.append((node_id[live[batch.source[keep]]], node_id[targets], batch.label[keep]))
        frontier = fresh
    sources = np.concatenate([p[0] for p in edge_parts])
    targets = np.concatenate([p[1] for p in edge_parts])
    labels = np.concatenate([p[2] for p in edge_parts])
    del edge_parts, node_id
    codes = np.concatenate(levels)
    indptr = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(np.bincount(sources, minlength=len(codes)), out=indptr[1:])
    return GameGraph(game=game, symmetry=symmetry, succ_indptr=indptr, succ_indices=targets.astype(np.int32),
                     edge_label=labels, terminal=game.batch_outcomes(codes).astype(np.int8),
                     to_move=game.batch_to_move(codes).astype(np.int8), codes=codes)
