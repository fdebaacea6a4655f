"""A part of a game solved into a value file, materialised as a small solved graph.

A game solved by the implicit mode (explorer.implicit) or tiered (explorer.tiered) has a value file and
no graph. The neighbourhood of one of its positions is materialised here as a small SolvedGraph, so
that everything made for a graph (the canvas, Neo4j, the position queries over arrays) works on it.
The values, remoteness and optimal moves are the value file's, never a solve of the part: a position
at the part's edge keeps the value it has in the whole game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from explorer.algorithms.scc import strongly_connected
from explorer.graph import GameGraph, part_graph_id
from explorer.solved.graph import SolvedGraph
from explorer.solver import Solution

PART_MAX_POSITIONS = 20_000   # the most positions a part holds (the canvas draws at most 2,000)
PART_MAX_RADIUS = 6           # the furthest a part reaches from its centre, in moves
PART_DIRECTIONS = ("out", "in", "both")  # successors, predecessors (un-moves), both


@dataclass
class PartGraph(GameGraph):
    """The graph of a materialised part: positions (node 0 its centre) and every move between two of
    them; `part_id` is its own graph id (parts_id), never a whole game's."""

    part_id: str = ""

    @property
    def graph_id(self) -> str:
        return self.part_id

    def missing_from(self) -> str:
        return f"not in the part materialised around {self.key(0)}"


part_id = part_graph_id  # the graph id of a part, made and read (parse_part_id) in explorer.graph


@dataclass
class SolvedPart(SolvedGraph):
    """A SolvedGraph over a part of a game solved into a value file (`materialise`): values, remoteness
    and optimal moves read from the file, cycles (`on_cycle`, `scc`) those inside the part (a cycle
    leaving the part is not seen), no draw levels (they need the whole graph). `grow` adds more."""

    values: Any = None          # the value file (explorer.implicit.ValueFile or explorer.tiered.TieredValues)
    radius: int = 0
    direction: str = "both"
    limit: int = PART_MAX_POSITIONS
    positions: list = None      # the part's positions, node order (the centre first)
    distance: dict = None       # position -> moves from the centre, as materialised
    _successors: dict = None    # position -> [(label, successor)], distinct successors, first label kept
    _predecessors: dict = None  # position -> [predecessor], for the positions whose un-moves were asked

    @property
    def draw_levels(self):
        """None known: draw levels need every position of the game (explorer.algorithms.draw_levels)."""
        from explorer.algorithms.draw_levels import NOT_A_DRAW, DrawLevels

        n = self.graph.num_positions
        return DrawLevels(np.full(n, NOT_A_DRAW, dtype=np.int8), np.full(n, -1, dtype=np.int32),
                          np.full(n, -1, dtype=np.int32))

    @property
    def centre(self) -> str:
        return self.graph.key(0)

    def complete(self, key: str, direction: str) -> bool:
        """Whether every move out of (`out`), into (`in`) or both of the position `key` is in the part."""
        position = self.graph.position(self.graph.find(key))
        inside = self.distance.keys()
        return all(q in inside for q in _neighbours(self, position, direction))

    def grow(self, key: str, k: int = 1, direction: str = "both") -> int:
        """Adds the positions within `k` moves of `key` (a position of the part) that are not in it yet,
        and every move between two positions of the part; the arrays are made again, in place. Returns
        how many positions were added. GraphTooLarge, the part unchanged, past its limit. O(part x moves)."""
        start = self.graph.position(self.graph.find(key))
        found = _walk(self, start, k, direction, self.limit, known=self.distance,
                      what=f"the part around {self.centre} with radius {k} around {key}")
        base = self.distance[start]
        new = [p for p in found if p not in self.distance]
        for position in new:
            self.distance[position] = base + found[position]
        if new:
            self.positions.extend(new)
            _fill(self)
        return len(new)


def materialise(values: Any, position: Any, radius: int, direction: str = "both",
                limit: int = PART_MAX_POSITIONS) -> SolvedPart:
    """The part of a game solved into a value file within `radius` moves of `position`: by the game's
    moves (`out`), its un-moves (`in`, Game.unmoves) or both, with every move between two of its
    positions, as a SolvedPart whose values, remoteness and optimal moves are the value file's.

    Checked first, in one line each (GameGraphError): the radius (0..PART_MAX_RADIUS), the direction,
    the position (legal, in the file), then (by _walk) that `in` and `both` have un-moves; then GraphTooLarge
    as soon as the walk passes `limit` positions, before any value is read or array made (the
    exception's `fits` is the largest radius within the limit). O(positions x moves) rule calls.
    """
    from explorer.core.errors import GameGraphError, GraphTooLarge

    game = values.game
    if not isinstance(radius, int) or not 0 <= radius <= PART_MAX_RADIUS:
        raise GameGraphError(f"radius {radius!r} is not valid: a part reaches 0 to {PART_MAX_RADIUS} moves from its "
                             "position")
    if direction not in PART_DIRECTIONS:
        raise GameGraphError(f"direction {direction!r} is not valid: choose one of {', '.join(PART_DIRECTIONS)}")
    if not 1 <= limit <= PART_MAX_POSITIONS:
        raise GraphTooLarge(f"a part holds 1 to {PART_MAX_POSITIONS:,} positions, not {limit:,}")
    values.value(position)  # an illegal position, or one the file holds as none: GameGraphError
    key = game.format(position)
    graph = PartGraph(game=game, symmetry=False, succ_indptr=np.zeros(1, dtype=np.int64),
                      succ_indices=np.zeros(0, dtype=np.int32), edge_label=np.zeros(0, dtype=np.int64),
                      terminal=np.zeros(0, dtype=np.int8), to_move=np.zeros(0, dtype=np.int8), positions=[],
                      part_id=part_id(game, key, radius, direction))
    part = SolvedPart(graph, Solution(np.zeros(0, np.int8), np.zeros(0, np.int32), np.zeros(0, bool)),
                      np.zeros(0, np.int32), np.zeros(0, bool), {}, values=values, radius=radius,
                      direction=direction, limit=limit, positions=[], distance={}, _successors={},
                      _predecessors={})
    t0 = time.perf_counter()
    found = _walk(part, position, radius, direction, limit, known={},
                  what=f"radius {radius} around {key}")
    part.seconds["walk"] = time.perf_counter() - t0
    part.distance = dict(found)
    part.positions = list(found)  # breadth first: the centre is node 0
    t0 = time.perf_counter()
    _fill(part)
    part.seconds["fill"] = time.perf_counter() - t0
    return part


def _neighbours(part: SolvedPart, position: Any, direction: str) -> list[Any]:
    """The positions one move after (`out`), before (`in`) or either side of `position`; cached."""
    game = part.game
    found: list[Any] = []
    if direction in ("out", "both"):
        found += [q for _, q in _moves(part, position)]
    if direction in ("in", "both"):
        before = part._predecessors.get(position)
        if before is None:
            before = part._predecessors[position] = list(dict.fromkeys(game.unmoves(position)))
        found += before
    return found


def _moves(part: SolvedPart, position: Any) -> list[tuple[str, Any]]:
    """(label, successor) of every distinct successor, the first label kept (as explorer.graph merges them)."""
    moves = part._successors.get(position)
    if moves is None:
        game, seen = part.game, {}
        if game.outcome(position) is None:
            for move in game.moves(position):
                seen.setdefault(move.position, move.label)
        moves = part._successors[position] = [(label, q) for q, label in seen.items()]
    return moves


def _walk(part: SolvedPart, start: Any, radius: int, direction: str, limit: int, known: dict, what: str) -> dict:
    """{position: moves from `start`} breadth first to `radius`; GraphTooLarge (its `fits`: the last
    radius within the limit) once the positions in `known` and those found pass `limit`."""
    from explorer.core.errors import GameGraphError, GraphTooLarge

    if direction != "out" and not part.game.offers.unmoves:  # the one check, for materialise and grow alike
        raise GameGraphError(f"{part.game.display_name} offers no un-moves, so its parts follow moves forward only "
                             "(direction out)")
    found = {start: 0}
    frontier = [start]
    outside = 0 if start in known else 1
    for depth in range(1, radius + 1):
        level = []
        for position in frontier:
            for q in _neighbours(part, position, direction):
                if q not in found:
                    found[q] = depth
                    level.append(q)
                    outside += q not in known
                    if len(known) + outside > limit:
                        error = GraphTooLarge(f"{what} reaches more than {limit:,} positions "
                                              f"(already {len(known) + outside:,} within {depth} moves); "
                                              "choose a smaller radius")
                        error.fits = depth - 1
                        raise error
        frontier = level
    return found


def _fill(part: SolvedPart) -> None:
    """The part's arrays from its positions: every move between two of them, values and remoteness read
    from the value file, optimal moves by the solver's rule over them (explorer.algorithms.retrograde),
    cycles inside the part. O(positions x moves)."""
    from explorer.algorithms.retrograde import optimal_moves

    game, values, positions = part.game, part.values, part.positions
    node = {p: i for i, p in enumerate(positions)}
    labels: dict[str, int] = {}
    indptr = np.zeros(len(positions) + 1, dtype=np.int64)
    targets: list[int] = []
    codes: list[int] = []
    for i, position in enumerate(positions):
        for label, q in _moves(part, position):
            j = node.get(q)
            if j is not None:
                targets.append(j)
                codes.append(labels.setdefault(label, len(labels)))
        indptr[i + 1] = len(targets)
    terminal = np.array([-1 if (o := game.outcome(p)) is None else int(o) for p in positions], dtype=np.int8)
    to_move = np.array([game.to_move(p) for p in positions], dtype=np.int8)
    value = np.array([int(values.value(p)) for p in positions], dtype=np.int8)
    remoteness = np.array([-1 if (r := values.remoteness(p)) is None else r for p in positions], dtype=np.int32)
    succ = np.array(targets, dtype=np.int32)
    graph = PartGraph(game=game, symmetry=False, succ_indptr=indptr, succ_indices=succ,
                      edge_label=np.array(codes, dtype=np.int64), terminal=terminal, to_move=to_move,
                      positions=list(positions), label_names=list(labels), part_id=part.graph.part_id)
    part.graph = graph
    part.solution = Solution(value, remoteness, optimal_moves(indptr, succ, value, remoteness))
    part.scc, part.on_cycle = strongly_connected(graph)
