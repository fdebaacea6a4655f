"""A generated and solved game graph, and the on-disk cache that makes reopening it instant."""

from __future__ import annotations

import time
import zipfile
from contextlib import suppress
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from explorer.core import limits, private, progress, records
from explorer.algorithms.scc import strongly_connected
from explorer.core.errors import StateFolderReadOnly
from explorer.games import Game, parse_spec
from explorer.graph import DEFAULT_MAX_POSITIONS, GameGraph, check_size, generate, part_graph_id
from explorer.solver import Solution, solve
from explorer.core.values import Value

CACHE_FORMAT = 1
CACHE_KIND = "graphs"  # the state folder's subfolder of solved graphs


@dataclass
class SolvedGraph:
    graph: GameGraph
    solution: Solution
    scc: np.ndarray        # int32[V]
    on_cycle: np.ndarray   # bool[V]
    seconds: dict[str, float]

    @property
    def game(self) -> Game:
        return self.graph.game

    def value(self, node: int) -> Value:
        return Value(int(self.solution.value[node]))

    def remoteness(self, node: int) -> int | None:
        r = int(self.solution.remoteness[node])
        return None if r < 0 else r

    @cached_property
    def draw_levels(self):
        """GamesmanClassic's draw levels of every position (explorer.algorithms.draw_levels), made once. O(V + E)."""
        from explorer.algorithms.draw_levels import draw_levels

        return draw_levels(self.graph, self.solution.value)

    def draw_record(self, node: int) -> dict[str, Any]:
        """draw_class (draws only), draw_level and draw_remoteness (draw-wins and draw-loses only), else None."""
        from explorer.algorithms.draw_levels import CLASS_NAMES

        levels = self.draw_levels
        levelled = int(levels.level[node]) >= 0
        return {"draw_class": CLASS_NAMES.get(int(levels.kind[node])),
                "draw_level": int(levels.level[node]) if levelled else None,
                "draw_remoteness": int(levels.remoteness[node]) if levelled else None}

    def record(self, node: int, full: bool = True) -> dict[str, Any]:
        """Everything known about one position, as plain JSON-ready values (explorer.core.records).

        full=False leaves out the draw levels (a pass over the whole graph the first
        time) and the game's fields (some games work out combinatorial values there).
        """
        g = self.graph
        return records.position_record(
            g.key(node), g.to_move[node], self.value(node), self.remoteness(node), g.terminal[node] >= 0,
            cycle=(self.on_cycle[node], self.scc[node]), draw=self.draw_record(node) if full else None,
            fields=self.game.fields(g.position(node)) if full else None)

    def moves(self, node: int) -> list[dict[str, Any]]:
        """Every move of a position with the successor's value for the mover, best first (explorer.core.records)."""
        return [move for move, _ in self._moves_and_successors(node)]

    def _moves_and_successors(self, node: int) -> list[tuple[dict[str, Any], int]]:
        """(move record, successor node) of every move of a position, best first."""
        pairs = []
        for edge in self.graph.edge_range(node):
            child = int(self.graph.succ_indices[edge])
            pairs.append((records.move_record(self.graph.label(edge), self.graph.key(child),
                                              self.value(child).for_previous_player(), self.remoteness(child),
                                              self.solution.optimal[edge]), child))
        return records.best_first(pairs, record=lambda pair: pair[0])

    def principal_line(self, node: int, limit: int = 200) -> list[tuple[int, str | None]]:
        """The line both players follow with their best moves: [(node, label of the move into it)].

        Each time the first of `moves` (explorer.core.records.principal_line); for a win
        or loss it ends at the finished game in `remoteness` moves, for a draw where play
        starts repeating, and after `limit` moves at most. O(length x moves per position).
        """
        def best(here: int) -> tuple[str, int] | None:
            if self.graph.terminal[here] >= 0:
                return None
            move, child = self._moves_and_successors(here)[0]
            return move["label"], child

        return records.principal_line(node, best, limit)


def build(game: Game | str, symmetry: bool = True, start: Any = None,
          max_positions: int = DEFAULT_MAX_POSITIONS, use_arrays: bool | None = None,
          extra_starts: Sequence[Any] = (), hint: str = limits.RAISE_THE_LIMIT) -> SolvedGraph:
    """Generate (see explorer.graph.generate), solve and find the cycles of a game: O(V + E).

    GraphTooLarge at once when the game's size estimate exceeds `max_positions`
    or the memory (explorer.core.limits.check; `hint` is the remedy its refusal names).
    """
    if isinstance(game, str):
        game = parse_spec(game)
    limits.check(game, symmetry, max_positions, hint=hint)  # refuse from the parameters, before any memory is taken
    seconds = {}
    t0 = time.perf_counter()
    graph = generate(game, symmetry=symmetry, start=start, max_positions=max_positions, use_arrays=use_arrays,
                     extra_starts=extra_starts, hint=hint)
    seconds["generate"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    solution = solve(graph)
    seconds["solve"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    scc, on_cycle = strongly_connected(graph)
    seconds["cycles"] = time.perf_counter() - t0
    return SolvedGraph(graph, solution, scc, on_cycle, seconds)


# -- cache -------------------------------------------------------------------
def cache_path(game: Game, symmetry: bool) -> Path:
    """``<state dir>/graphs/<name>-<hash>.npz``."""
    return private.cache_path(CACHE_KIND, game.name, f"{CACHE_FORMAT}|{game.stored_id}|{symmetry}", ".npz")


def load_or_build(spec: Game | str, symmetry: bool = True, max_positions: int = DEFAULT_MAX_POSITIONS,
                  hint: str = limits.RAISE_THE_LIMIT) -> SolvedGraph:
    """The solved graph from the cache when present, else built and cached (from the start only).
    Over `max_positions`, GraphTooLarge naming `hint` as the remedy (explorer.core.limits.check)."""
    game = parse_spec(spec) if isinstance(spec, str) else spec
    try:
        path = cache_path(game, symmetry and game.has_symmetry())
    except StateFolderReadOnly as error:  # the answer needs no cache: given, and the user told why it is slow
        solved = build(game, symmetry=symmetry, max_positions=max_positions, hint=hint)
        progress.notice(f"answered without the cache: {error}")
        return solved
    if path.exists():
        try:
            solved = _read(game, path)
        except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile):
            with suppress(OSError):  # a read-only folder keeps it; it is rebuilt either way
                path.unlink(missing_ok=True)  # a torn or old cache file is rebuilt, never trusted
        else:
            if solved.graph.num_positions > max_positions:  # cached under a higher limit: the estimate's refusal
                limits.check(game, symmetry, max_positions, hint=hint)  # (an upper bound) names the remedy
            check_size(solved.graph.num_positions, game, max_positions, hint)
            return solved
    solved = build(game, symmetry=symmetry, max_positions=max_positions, hint=hint)
    try:
        _write(solved, path)
    except OSError as error:  # a full disk, a read-only mount, a sub-folder in the way: answer all the same
        progress.notice(f"answered without the cache: cannot write the cache file {path}: {error.strerror or error}")
    except StateFolderReadOnly as error:
        progress.notice(f"answered without the cache: {error}")
    return solved


def _write(solved: SolvedGraph, path: Path) -> None:
    g, s = solved.graph, solved.solution
    arrays = dict(succ_indptr=g.succ_indptr, succ_indices=g.succ_indices, edge_label=g.edge_label,
                  terminal=g.terminal, to_move=g.to_move, value=s.value, remoteness=s.remoteness,
                  optimal=s.optimal, scc=solved.scc, on_cycle=solved.on_cycle,
                  symmetry=np.array(g.symmetry), game_id=np.array(g.game.id))
    if g.codes is not None:
        arrays["codes"] = g.codes
    else:
        arrays["keys"] = np.array(g.keys())
        arrays["label_names"] = np.array(g.label_names if g.label_names else [""])
    private.private_state_dir()
    with private.atomic_private_file(path) as handle:  # 0600 in a 0700 folder, atomic: a reader never sees half a file
        np.savez(handle, **arrays)


def _read(game: Game, path: Path) -> SolvedGraph:
    with np.load(path, allow_pickle=False) as data:
        if str(data["game_id"]) != game.id:
            raise ValueError("cache entry for another game")
        codes = data["codes"] if "codes" in data else None
        positions = [game.parse(str(k)) for k in data["keys"]] if codes is None else None
        label_names = [str(x) for x in data["label_names"]] if codes is None else []
        graph = GameGraph(game=game, symmetry=bool(data["symmetry"]), succ_indptr=data["succ_indptr"],
                          succ_indices=data["succ_indices"], edge_label=data["edge_label"],
                          terminal=data["terminal"], to_move=data["to_move"], codes=codes,
                          positions=positions, label_names=label_names)
        solution = Solution(data["value"], data["remoteness"], data["optimal"])
        return SolvedGraph(graph, solution, data["scc"], data["on_cycle"], {"load": 0.0})


# -- a part of a game solved into a value file -----------------------------------------------
# A game solved by the implicit mode (explorer.implicit) or tiered (explorer.tiered) has a value file and
# no graph. The neighbourhood of one of its positions is materialised here as a small SolvedGraph, so
# that everything made for a graph (the canvas, Neo4j, the position queries over arrays) works on it.
# The values, remoteness and optimal moves are the value file's, never a solve of the part: a position
# at the part's edge keeps the value it has in the whole game.
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
