"""The state graph of a game, generated whole and held in compact arrays.

Positions are nodes with dense ids (0 = the start, then breadth-first order);
moves are edges. Successors and predecessors are CSR arrays (numpy), so a graph
of millions of positions costs a few bytes per node and edge, not a Python
object each. Two equivalent generators fill it: a generic breadth-first search
over ``Game.moves`` and an array path for games that encode positions as
integers (``Game.batch_moves``). Moves from one position that reach the same
successor are merged into one edge, keeping the first move's label.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Hashable, Sequence

import numpy as np

from explorer import progress
from explorer.errors import GameGraphError, GraphTooLarge, UnreachablePosition
from explorer.games.base import Game

DEFAULT_MAX_POSITIONS = 30_000_000
# Up to this many moves the predecessor arrays come from numpy alone: scipy's
# import costs more than the whole computation on a small game.
SMALL_GRAPH_MOVES = 200_000
NOSYM = "[nosym]"


def graph_id(game: Game, symmetry: bool = True) -> str:
    """The id a game's graph is stored under (cache, mirror, Neo4j): the game id,
    marked when the graph was generated without symmetry reduction."""
    return game.id if symmetry and game.has_symmetry() else f"{game.id}{NOSYM}"


def parse_graph_id(text: str) -> tuple[Game, bool]:
    """(the Game, whether its graph is symmetry-reduced) for a graph id; inverse of graph_id."""
    from explorer.games import parse_spec  # the registry imports every game module

    symmetric = not text.endswith(NOSYM)
    game = parse_spec(text.removesuffix(NOSYM))
    return game, symmetric and game.has_symmetry()


@dataclass
class GameGraph:
    game: Game
    symmetry: bool
    succ_indptr: np.ndarray      # int64[V+1]
    succ_indices: np.ndarray     # int32[E], successors grouped by source
    edge_label: np.ndarray       # int64[E], decoded by `label`
    terminal: np.ndarray         # int8[V], Value of a finished game for the mover, -1 if not over
    to_move: np.ndarray          # int8[V]
    codes: np.ndarray | None = None          # int64[V] for array-path games
    positions: list[Hashable] | None = None  # for generic games
    label_names: list[str] = field(default_factory=list)  # generic path's label table

    # -- sizes and identity -------------------------------------------------
    @property
    def num_positions(self) -> int:
        return len(self.terminal)

    @property
    def num_moves(self) -> int:
        return len(self.succ_indices)

    @property
    def graph_id(self) -> str:
        return graph_id(self.game, self.symmetry)

    # -- positions ----------------------------------------------------------
    def position(self, node: int) -> Any:
        if self.codes is not None:
            return self.game.decode(int(self.codes[node]))
        return self.positions[node]

    def key(self, node: int) -> str:
        return self.game.format(self.position(node))

    def keys(self) -> list[str]:
        return [self.key(i) for i in range(self.num_positions)]

    @cached_property
    def _code_order(self) -> np.ndarray:
        return np.argsort(self.codes, kind="stable")

    @cached_property
    def _index(self) -> dict[Hashable, int]:
        return {pos: i for i, pos in enumerate(self.positions)}

    def node_of(self, position: Any) -> int | None:
        """Dense id of a position (after symmetry reduction), or None if it is not in the graph."""
        if self.symmetry:
            position = self.game.canonical(position)
        if self.codes is None:
            return self._index.get(position)
        code = self.game.encode(position)
        at = np.searchsorted(self.codes, code, sorter=self._code_order)
        if at < len(self.codes) and self.codes[self._code_order[at]] == code:
            return int(self._code_order[at])
        return None

    def find(self, text: str) -> int:
        """Dense id of a position given in the game's notation, with clear errors."""
        position = self.game.parse(text)
        node = self.node_of(position)
        if node is None:
            raise UnreachablePosition(f"position {text!r} is legal but not reachable from the start of {self.game.display_name}")
        return node

    # -- moves --------------------------------------------------------------
    def successors(self, node: int) -> np.ndarray:
        return self.succ_indices[self.succ_indptr[node]:self.succ_indptr[node + 1]]

    def edge_range(self, node: int) -> range:
        return range(int(self.succ_indptr[node]), int(self.succ_indptr[node + 1]))

    def label(self, edge: int) -> str:
        value = int(self.edge_label[edge])
        return self.label_names[value] if self.codes is None else self.game.batch_label(value)

    def edge_sources(self) -> np.ndarray:
        """Source node of every edge (int32[E]), the COO companion of succ_indices."""
        return np.repeat(np.arange(self.num_positions, dtype=np.int32), np.diff(self.succ_indptr))

    @cached_property
    def predecessors_csr(self) -> tuple[np.ndarray, np.ndarray]:
        """(indptr, indices) of the reversed graph, predecessors in id order.

        scipy's compiled CSR -> CSC conversion is a counting sort: O(V + E). Small
        graphs use a stable numpy sort of the targets instead (O(E log E), same
        result), which spares the command scipy's import time.
        """
        if self.num_moves <= SMALL_GRAPH_MOVES:
            return reverse_csr_numpy(self.num_positions, self.succ_indptr, self.succ_indices)
        return reverse_csr_scipy(self.num_positions, self.succ_indptr, self.succ_indices)


def reverse_csr_numpy(n: int, indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reversed graph's (indptr int64, indices int32), sources ascending per target.

    Edges are grouped by ascending source, so a stable sort by target keeps each
    target's sources in order. O(E log E) time, O(V + E) memory."""
    sources = np.repeat(np.arange(n, dtype=np.int32), np.diff(indptr))
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


def generate(game: Game, symmetry: bool = True, start: Any = None,
             max_positions: int = DEFAULT_MAX_POSITIONS, use_arrays: bool | None = None,
             extra_starts: Sequence[Any] = ()) -> GameGraph:
    """The whole graph reachable from `start` (the game's start by default).

    Node 0 is `start`; positions reachable only from `extra_starts` are included
    too (the strategy chart uses that to cover unreachable positions).
    O(V + E) rule calls. `use_arrays` picks the generator: None = the array path
    when the game offers it. Raises GraphTooLarge past `max_positions`.
    """
    symmetry = symmetry and game.has_symmetry()
    starts = [game.start() if start is None else start, *extra_starts]
    if symmetry:
        starts = [game.canonical(s) for s in starts]
    starts = list(dict.fromkeys(starts))  # distinct, first one kept first
    if use_arrays is None:
        use_arrays = game.code_space() is not None
    if use_arrays:
        return _generate_arrays(game, symmetry, starts, max_positions)
    return _generate_generic(game, symmetry, starts, max_positions)


def _too_large(game: Game, max_positions: int) -> GraphTooLarge:
    return GraphTooLarge(f"{game.display_name} has more than {max_positions:,} positions; "
                         "raise --max-positions if the memory allows (about 100 bytes per position and move)")


def check_size(num_positions: int, game: Game, max_positions: int) -> None:
    """GraphTooLarge when an already built graph exceeds the limit the caller asked for."""
    if num_positions > max_positions:
        raise _too_large(game, max_positions)


def _generate_generic(game: Game, symmetry: bool, starts: list[Any], max_positions: int) -> GameGraph:
    if len(starts) > max_positions:
        raise _too_large(game, max_positions)
    positions: list[Hashable] = list(starts)
    ids: dict[Hashable, int] = {p: i for i, p in enumerate(positions)}
    label_ids: dict[str, int] = {}
    indptr, targets, labels, terminal, to_move = [0], [], [], [], []
    with progress.bar(f"generating {game.display_name}") as bar:
        for node_position in positions:  # grows while we iterate: breadth-first order
            outcome = game.outcome(node_position)
            terminal.append(-1 if outcome is None else int(outcome))
            to_move.append(game.to_move(node_position))
            if outcome is None:
                seen: set[int] = set()
                moves = game.moves(node_position)
                if not moves:
                    raise GameGraphError(f"{game.name}: position {game.format(node_position)!r} is not over but has no moves")
                for move in moves:
                    child = game.canonical(move.position) if symmetry else move.position
                    child_id = ids.get(child)
                    if child_id is None:
                        if len(positions) >= max_positions:
                            raise _too_large(game, max_positions)
                        child_id = ids[child] = len(positions)
                        positions.append(child)
                    if child_id not in seen:
                        seen.add(child_id)
                        targets.append(child_id)
                        labels.append(label_ids.setdefault(move.label, len(label_ids)))
            indptr.append(len(targets))
            bar.update(1)
    return GameGraph(game=game, symmetry=symmetry,
                     succ_indptr=np.asarray(indptr, dtype=np.int64),
                     succ_indices=np.asarray(targets, dtype=np.int32),
                     edge_label=np.asarray(labels, dtype=np.int64),
                     terminal=np.asarray(terminal, dtype=np.int8),
                     to_move=np.asarray(to_move, dtype=np.int8),
                     positions=positions, label_names=list(label_ids))


def _generate_arrays(game: Game, symmetry: bool, starts: list[Any], max_positions: int) -> GameGraph:
    space = game.code_space()
    node_id = np.full(space, -1, dtype=np.int32)  # code -> dense id, assigned in BFS order
    frontier = np.array([game.encode(s) for s in starts], dtype=np.int64)
    if len(frontier) > max_positions:
        raise _too_large(game, max_positions)
    node_id[frontier] = np.arange(len(frontier), dtype=np.int32)
    found = len(frontier)
    levels, edge_parts = [], []
    with progress.bar(f"generating {game.display_name}") as bar:
        while len(frontier):
            levels.append(frontier)
            bar.update(len(frontier))
            live = frontier[game.batch_outcomes(frontier) < 0]
            batch = game.batch_moves(live, symmetry)
            # One sort by (source row, target code) groups each source's edges in id
            # order and puts duplicate targets side by side; the stable sort keeps the
            # first move in template order.
            pair = batch.source.astype(np.int64) * space + batch.target
            order = np.argsort(pair, kind="stable")
            pair = pair[order]
            first = np.ones(len(order), dtype=bool)
            first[1:] = pair[1:] != pair[:-1]
            keep = order[first]
            targets = batch.target[keep]
            node_id[targets[node_id[targets] < 0]] = -2  # mark, then collect once each
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
    # Sources are already non-decreasing: each level's live positions come in id order.
    indptr = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(np.bincount(sources, minlength=len(codes)), out=indptr[1:])
    return GameGraph(game=game, symmetry=symmetry, succ_indptr=indptr, succ_indices=targets.astype(np.int32),
                     edge_label=labels, terminal=game.batch_outcomes(codes).astype(np.int8),
                     to_move=game.batch_to_move(codes).astype(np.int8), codes=codes)
