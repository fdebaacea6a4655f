"""The state graph of a game, generated whole and held in compact arrays.

Positions are nodes with dense ids (0 = the start, then breadth-first order);
moves are edges. Successors and predecessors are CSR arrays (numpy), so a graph
of millions of positions costs a few bytes per node and edge, not a Python
object each. Two equivalent generators fill it: a generic breadth-first search
over ``Game.moves`` and an array path for games that offer it (``offers.arrays``:
positions encoded as integers): breadth-first over codes, each level's moves from
the game's compiled kernel (``Game.compiled_moves``, when ``offers.compiled_moves``)
or numpy ``Game.batch_moves``,
absorbed by a compiled kernel (explorer.kernels.bfs). Moves from one position
that reach the same successor are merged into one edge, keeping the first
move's label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Hashable, NamedTuple, Sequence

import numpy as np

from explorer.algorithms.reverse import edge_sources, reverse_csr
from explorer.core import progress
from explorer.core import limits
from explorer.core.limits import DEFAULT_MAX_POSITIONS, RAISE_THE_LIMIT  # noqa: F401 - DEFAULT_MAX_POSITIONS: also read from here
from explorer.core.errors import GameGraphError, GraphTooLarge, UnreachablePosition
from explorer.games.base import Game

CHUNK_MOVES = 1 << 20  # the array generator expands about this many moves per kernel call
NOSYM = "[nosym]"


def graph_id(game: Game, symmetry: bool = True) -> str:
    """The id a game's graph is stored under (cache, mirror, Neo4j): the game id,
    marked when the graph was generated without symmetry reduction."""
    return game.id if symmetry and game.has_symmetry() else f"{game.id}{NOSYM}"


def parse_graph_id(text: str) -> tuple[Game, bool]:
    """(the Game, whether its graph is symmetry-reduced) for a graph id; inverse of graph_id. The id of a
    part (part_graph_id) gives its game and False: a part is never symmetry-reduced (PartId says which part)."""
    from explorer.games import parse_spec  # the registry imports every game module

    part = parse_part_id(text)
    if part is not None:
        return part.game, False
    symmetric = not text.endswith(NOSYM)
    game = parse_spec(text.removesuffix(NOSYM))
    return game, symmetric and game.has_symmetry()


PART_MARK = "@around("
_PART_ID = re.compile(r"(?P<centre>.+);radius=(?P<radius>[0-9]{1,2});(?P<direction>out|in|both)\)", re.ASCII)


class PartId(NamedTuple):
    """What a part's graph id names: the part of `game` within `radius` moves of `centre` (its key), by
    moves (`out`), un-moves (`in`) or both (explorer.solved.materialise)."""

    game: Game
    centre: str
    radius: int
    direction: str


def part_graph_id(game: Game, centre: str, radius: int, direction: str = "both") -> str:
    """The graph id of a part (Neo4j's Game id, the canvas's scope): the game's id, then what it is
    around, so that it never collides with a whole game's id (graph_id); parse_part_id reads it back."""
    return f"{game.id}{PART_MARK}{centre};radius={radius};{direction})"


def parse_part_id(text: str) -> PartId | None:
    """The part a graph id names (inverse of part_graph_id), or None when it names a whole game's graph.
    GameGraphError, in one line, for an id that has a part's mark but is not one. O(len(text))."""
    from explorer.games import parse_spec

    head, mark, rest = text.partition(PART_MARK)
    if not mark:
        return None
    found = _PART_ID.fullmatch(rest)
    if found is None:
        raise GameGraphError(f"{text[:200]!r} is not the id of a part: write it as `load --around` prints it, "
                             "GAME@around(POSITION;radius=K;both|out|in)")
    game = parse_spec(head)
    centre = found["centre"]
    game.parse(centre)  # a centre that is no position of the game: the game's own one line
    return PartId(game, centre, int(found["radius"]), found["direction"])


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
            raise UnreachablePosition(f"position {text!r} is legal but {self.missing_from()}")
        return node

    def missing_from(self) -> str:
        """What a legal position `find` cannot find is missing from, for its error (a part says its own)."""
        return f"not reachable from the start of {self.game.display_name}"

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
        return edge_sources(self.succ_indptr)

    @cached_property
    def predecessors_csr(self) -> tuple[np.ndarray, np.ndarray]:
        """(indptr int64[V+1], indices int32[E]) of the reversed graph, predecessors in id order,
        made once (explorer.algorithms.reverse). O(V + E)."""
        return reverse_csr(self.num_positions, self.succ_indptr, self.succ_indices)


def generate(game: Game, symmetry: bool = True, start: Any = None,
             max_positions: int = DEFAULT_MAX_POSITIONS, use_arrays: bool | None = None,
             extra_starts: Sequence[Any] = (), compiled: bool | None = None,
             hint: str = RAISE_THE_LIMIT) -> GameGraph:
    """The whole graph reachable from `start` (the game's start by default).

    Node 0 is `start`; positions reachable only from `extra_starts` are included
    too (the strategy chart uses that to cover unreachable positions).
    O(V + E) rule calls. `use_arrays` picks the generator: None = the array path
    when the game offers it. On the array path, `compiled` picks how: True =
    the compiled breadth-first search with the game's kernel; False = the same
    search over numpy `batch_moves` (the reference for the kernel); None = True,
    except for a small code space (explorer.algorithms.dispatch), where the plain numpy
    generator (generate_levels, below) is quicker than loading
    compiled code.
    Raises GraphTooLarge past `max_positions`, naming `hint` as the remedy (the caller's: a command
    without --max-positions names what it offers instead, explorer.commands.graph_limit_hint).
    """
    symmetry = symmetry and game.has_symmetry()
    starts = _starts(game, symmetry, start, extra_starts)
    if use_arrays is None:
        use_arrays = arrays_offered(game)
    if use_arrays:
        if compiled is None:
            from explorer.algorithms.dispatch import use_kernels

            if not use_kernels(game.code_space()):
                return generate_levels(game, symmetry, start, max_positions, extra_starts, hint)
            compiled = True
        return _generate_arrays(game, symmetry, starts, max_positions, compiled, hint)
    return _generate_generic(game, symmetry, starts, max_positions, hint)


def arrays_offered(game: Game) -> bool:
    """Whether the array path applies: the game declares it and these parameters have codes."""
    return game.offers.arrays and game.code_space() is not None


def _starts(game: Game, symmetry: bool, start: Any, extra_starts: Sequence[Any]) -> list[Any]:
    starts = [game.start() if start is None else start, *extra_starts]
    if symmetry:
        starts = [game.canonical(s) for s in starts]
    return list(dict.fromkeys(starts))  # distinct, first one kept first


def start_codes(game: Game, symmetry: bool, start: Any = None,
                extra_starts: Sequence[Any] = ()) -> tuple[bool, np.ndarray]:
    """(effective symmetry, int64 codes of the distinct starts), as `generate` computes them."""
    symmetry = symmetry and game.has_symmetry()
    return symmetry, np.array([game.encode(s) for s in _starts(game, symmetry, start, extra_starts)], dtype=np.int64)


def _too_large(game: Game, max_positions: int, hint: str = RAISE_THE_LIMIT) -> GraphTooLarge:
    """The refusal of a graph past `max_positions`; `hint` is the remedy the caller offers (the default
    names --max-positions, which only some commands take: explorer.core.limits.check's `hint`)."""
    memory = " (a graph takes about 100 bytes per position and move)" if hint == RAISE_THE_LIMIT else ""
    return GraphTooLarge(f"{game.display_name} has more than {max_positions:,} positions; {hint}{memory}")


def check_size(num_positions: int, game: Game, max_positions: int, hint: str = RAISE_THE_LIMIT) -> None:
    """GraphTooLarge (naming `hint` as the remedy) when an already built graph exceeds the limit the caller asked for."""
    if num_positions > max_positions:
        raise _too_large(game, max_positions, hint)


def _generate_generic(game: Game, symmetry: bool, starts: list[Any], max_positions: int,
                      hint: str = RAISE_THE_LIMIT) -> GameGraph:
    if len(starts) > max_positions:
        raise _too_large(game, max_positions, hint)
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
                            raise _too_large(game, max_positions, hint)
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


def _generate_arrays(game: Game, symmetry: bool, starts: list[Any], max_positions: int,
                     compiled: bool = True, hint: str = RAISE_THE_LIMIT) -> GameGraph:
    """Breadth-first over integer codes, one level at a time: O(V + E) plus 4 bytes per code (8 without a fused pass).

    Each level's moves come grouped by source from the game's compiled kernel
    (or numpy batch_moves, counting-sorted by source); explorer.kernels.bfs gives
    fresh codes their ids, in code order within a level (as the old numpy
    generator did), and keeps the first move per (source, target). Fresh codes
    are collected from the moves' targets, never by scanning the code space.
    """
    from explorer.kernels import bfs

    space = game.code_space()
    compiled = compiled and game.offers.compiled_moves  # else numpy batch_moves, in the same compiled search
    fused = game.compiled_generator() if compiled and space < FUSED_SPACE else None
    # Per code: the dense id, and for absorb_moves the last source too (the fused pass finds a position's
    # repeated targets on its own). Every array here is on 4 KiB pages (_small_pages): with
    # numpy's 2 MiB pages, faulting them in cost more system time than the search itself
    # (chopsticks(fingers=60), same sitting: 2.2 s of system time, 1.1 s on small pages).
    table = _small_pages(np.empty(space if fused is not None else (space, 2), dtype=np.int32))
    table.fill(-1)
    frontier = np.array([game.encode(s) for s in starts], dtype=np.int64)
    if len(frontier) > max_positions:
        raise _too_large(game, max_positions, hint)
    # Written in place as the search goes. np.empty only reserves address space:
    # pages are touched (and count towards memory) as positions and moves arrive.
    capacity = min(space, max_positions)
    codes = _small_pages(np.empty(capacity, dtype=np.int64))
    indptr = _small_pages(np.empty(capacity + 1, dtype=np.int64))
    terminal = _small_pages(np.empty(capacity, dtype=np.int8))
    targets, labels = _edge_arrays(game, symmetry)
    codes[:len(frontier)] = frontier
    indptr[0] = 0
    if fused is not None:
        table[frontier] = np.arange(len(frontier), dtype=np.int32)
    else:
        bfs.set_ids(table, frontier, 0)
    first, found, edges = 0, len(frontier), 0
    no_order = np.empty(0, dtype=np.int64)
    rows = frontier
    if fused is not None:  # compiled passes on every core: outcomes, moves and bookkeeping together
        from numba import get_num_threads

        slots = get_num_threads()
        work = bfs.fused_work(slots, fused.max_moves, fused.scratch, _fused_block(game, symmetry, slots, fused.max_moves))
    chunk = max(1, min(4096, CHUNK_MOVES // 64))  # positions per kernel call, adapted to about CHUNK_MOVES moves
    with progress.bar(f"generating {game.display_name}") as bar:
        while first < found:  # one breadth-first level: codes[first:level_end]
            level_end, level_edges = found, edges
            bar.update(level_end - first)
            lo = first if fused is None else level_end
            while fused is not None and first < level_end:
                first, found, edges, status = fused.expand(
                    fused.ctx, symmetry, first, level_end, fused.max_moves, table, codes, indptr, terminal,
                    targets, labels, found, edges, max_positions, *work)
                if status == bfs.TOO_MANY:
                    raise _too_large(game, max_positions, hint)
                if status == bfs.NEED_ROOM:  # past the reservation: realloc, large blocks move by remapping pages
                    size = max(2 * len(targets), edges + fused.max_moves)
                    targets.resize(size, refcheck=False)
                    labels.resize(size, refcheck=False)
            while lo < level_end:
                hi = min(lo + chunk, level_end)
                rows = codes[lo:hi]
                outcome = game.batch_outcomes(rows).astype(np.int8)
                terminal[lo:hi] = outcome
                live = outcome < 0
                batch = game.compiled_moves(rows[live], symmetry) if compiled else None
                if batch is None:
                    batch = game.batch_moves(rows[live], symmetry)
                if batch.starts is not None:
                    batch_starts, order = batch.starts, no_order
                else:
                    batch_starts, order = bfs.group_by_source(batch.source.astype(np.int64, copy=False), int(live.sum()))
                if edges + len(batch.target) > len(targets):
                    # realloc: large blocks move by remapping pages, not by copying them
                    size = max(2 * len(targets), edges + len(batch.target))
                    targets.resize(size, refcheck=False)
                    labels.resize(size, refcheck=False)
                found, edges, ok = bfs.absorb_moves(
                    lo, live, batch_starts, order, batch.target.astype(np.int64, copy=False),
                    batch.label.astype(np.int64, copy=False), table, codes, indptr, targets, labels,
                    found, edges, max_positions)
                if not ok:
                    raise _too_large(game, max_positions, hint)
                # Small chunks keep the kernels' buffers small and reused (no fresh pages per level).
                chunk = int(min(max(CHUNK_MOVES * (hi - lo) // max(len(batch.target), 1), 1), 1 << 20))
                lo = hi
                del batch, batch_starts, order
            if fused is not None:
                bfs.settle_level(table, codes, level_end, np.sort(codes[level_end:found]), targets, level_edges, edges)
            else:
                bfs.renumber(table, codes, level_end, np.sort(codes[level_end:found]), targets, level_edges, edges)
            first = level_end
    del table, rows
    # Shrink to the exact sizes (realloc: the tails are released, nothing is copied).
    for array, size in ((codes, found), (indptr, found + 1), (terminal, found), (targets, edges), (labels, edges)):
        array.resize(size, refcheck=False)
    return GameGraph(game=game, symmetry=symmetry, succ_indptr=indptr, succ_indices=targets, edge_label=labels,
                     terminal=terminal, to_move=game.batch_to_move(codes).astype(np.int8), codes=codes)


def _fused_block(game: Game, symmetry: bool, slots: int, max_moves: int) -> int | None:
    """Positions per thread and round of the fused pass: bfs.SLOT_MOVES' worth, or fewer for a game whose
    estimate says it has fewer moves, so that a small game's side buffers stay as small as its graph (the
    memory model of explorer.core.limits holds; tests/core/test_limits.py). The output does not depend on it."""
    from explorer.kernels import bfs

    estimate = limits.estimate(game, symmetry)
    if estimate is None or estimate.moves is None:
        return None
    return max(1, min(bfs.SLOT_MOVES // max_moves, -(-estimate.moves // (slots * max_moves))))


FUSED_SPACE = 1 << 31  # the fused pass writes a target of the level in progress as -1 - code, in int32
EDGE_RESERVE_BYTES = 8 << 30  # most address space the edge arrays reserve up front


def _edge_arrays(game: Game, symmetry: bool) -> tuple[np.ndarray, np.ndarray]:
    """(targets int32, labels int64), empty, with room for the game's bound on the graph's moves
    (Game.estimate_moves, never below the real count) when it offers one.

    Reserved once, they never grow: growing them by a quarter whenever they filled made
    realloc remap every page written so far, each time (chopsticks(fingers=60), same sitting,
    loaded machine: 17.7 s of CPU to generate with growth, 5.7 s with the reservation).
    np.empty only reserves addresses: a page counts towards memory when the search first
    writes it, and the final resize gives back the untouched tail. Without a bound, past
    EDGE_RESERVE_BYTES, or where the reservation is refused (a capped address space, strict
    overcommit), the arrays start small and double as needed.
    """
    bound = game.estimate_moves(symmetry) or 0
    room = max(1 << 16, min(bound, EDGE_RESERVE_BYTES // 12))
    try:
        arrays = np.empty(room, dtype=np.int32), np.empty(room, dtype=np.int64)
    except MemoryError:
        return np.empty(1 << 16, dtype=np.int32), np.empty(1 << 16, dtype=np.int64)
    for array in arrays:
        _small_pages(array)
    return arrays


def _small_pages(array: np.ndarray) -> np.ndarray:
    """Ask Linux to back `array` (not yet written) with 4 KiB pages only, not the 2 MiB pages
    numpy asks for np.empty of 4 MiB or more; returns `array`.

    The edge arrays are written once, front to back, so huge pages spare them no TLB misses,
    while fresh 2 MiB pages cost 4-5x the system time of 4 KiB ones for the same bytes on
    this project's machines (measured: 1.8 GB written, 3.1-4.4 s of system time against
    0.7-0.8 s). Only arrays of 4 MiB or more; does nothing where madvise is not available.
    """
    import ctypes
    import mmap

    advice = getattr(mmap, "MADV_NOHUGEPAGE", None)  # Linux only
    if advice is None or array.nbytes < 4 << 20:
        return array
    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return array
    start = array.ctypes.data // mmap.PAGESIZE * mmap.PAGESIZE  # madvise takes whole pages
    madvise(ctypes.c_void_p(start), ctypes.c_size_t(array.ctypes.data + array.nbytes - start), advice)
    return array


def generate_levels(game: Game, symmetry: bool = True, start: Any = None,
                    max_positions: int = DEFAULT_MAX_POSITIONS, extra_starts: Sequence[Any] = (),
                    hint: str = RAISE_THE_LIMIT) -> GameGraph:
    """The array generator as it was (numpy over batch_moves, one code-space scan per level):
    O(levels x code space + E log E). Kept beside the compiled generator as the tests'
    oracle, the bench's baseline, and the path for small code spaces."""
    symmetry, frontier = start_codes(game, symmetry, start, extra_starts)
    space = game.code_space()
    node_id = np.full(space, -1, dtype=np.int32)
    if len(frontier) > max_positions:
        raise _too_large(game, max_positions, hint)
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
        # The first move to each target, in the batch's own order within each source (move by move): the order the
        # compiled generator writes, so that both paths give one graph, edge for edge (the load's fingerprints).
        keep = np.sort(order[first])
        keep = keep[np.argsort(batch.source[keep], kind="stable")]
        targets = batch.target[keep]
        node_id[targets[node_id[targets] < 0]] = -2
        fresh = np.flatnonzero(node_id == -2)
        if found + len(fresh) > max_positions:
            raise _too_large(game, max_positions, hint)
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
