"""A generated and solved game graph (the edge mode), and the on-disk cache that makes reopening it instant.

explorer.solved.storage decides when a game is solved this way; `keep` is how `gamegraph solve` leaves its
graph for `show`, `play`, `query`, `dot` and the UI, which open it through `load_or_build`."""

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
from explorer.graph import DEFAULT_MAX_POSITIONS, GameGraph, check_size, generate
from explorer.solver import Solution, solve
from explorer.core.values import Value

CACHE_FORMAT = 3  # 2: Domineering's cells named from the bottom rank, which the mirrors' move labels hold; 3: the plain
#                 generator writes each position's moves in the kernel's order (explorer.graph.generate_levels)
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

    def played_moves(self, node: int, here: Any = None) -> list[dict[str, Any]]:
        """Every legal move of the board as shown (`here`, a position whose key is node's; the stored one by
        default), as played on it: the record of the stored move that reaches the same node (value for the
        mover, remoteness, optimal), with "label" and "to" as played on `here` and "stored" the stored move's
        label. A symmetric graph merges mirror-image moves into one edge (tic-tac-toe's start has 3 edges for
        9 moves); here each is a row of its own, grouped under its stored move (best first), in the rules'
        order within a group. A move whose position the graph does not hold (a part) is left out.
        O(moves x canonical key)."""
        here = self.graph.position(node) if here is None else here
        stored = self._moves_and_successors(node)
        if self.graph.terminal[node] >= 0 or not stored:
            return []
        rank: dict[int, int] = {}
        for at, (_, child) in enumerate(stored):
            rank.setdefault(child, at)
        rows = []
        for order, move in enumerate(self.game.moves(here)):
            child = self.graph.node_of(move.position)
            if child is None or child not in rank:
                continue
            record = stored[rank[child]][0]
            rows.append((rank[child], order, {**record, "label": move.label, "to": self.game.format(move.position),
                                              "stored": record["label"]}))
        return [row for _, _, row in sorted(rows, key=lambda row: row[:2])]

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
          extra_starts: Sequence[Any] = (), hint: str = limits.RAISE_THE_LIMIT, checked: bool = False) -> SolvedGraph:
    """Generate (see explorer.graph.generate), solve and find the cycles of a game: O(V + E).

    GraphTooLarge at once when the game's size estimate exceeds `max_positions`
    or the memory (explorer.core.limits.check; `hint` is the remedy its refusal names), unless the caller has
    `checked` it already (explorer.solved.storage.solve checks every variant before the first build).
    """
    if isinstance(game, str):
        game = parse_spec(game)
    if not checked:
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
    keep(solved, path)
    return solved


def keep(solved: SolvedGraph, path: Path | None = None) -> bool:
    """Write a solved graph of a game's start to the cache, where load_or_build (show, play, query, dot, the UI)
    reads it instead of solving again; True when written. A cache that cannot be written (a full disk, a
    read-only state folder) is said in one notice and the answer stands all the same."""
    return private.keep_cache_file(path or (lambda: cache_path(solved.game, solved.graph.symmetry)),
                                   lambda handle: _write(solved, handle), "answered")


def is_kept(game: Game, symmetry: bool) -> bool:
    """Whether a solved graph of the game's start is in the cache (not read: it may still be torn or old)."""
    try:
        return cache_path(game, symmetry and game.has_symmetry()).exists()
    except StateFolderReadOnly:
        return False


def _write(solved: SolvedGraph, handle) -> None:
    """The solved graph's arrays as an npz, into `handle` (a cache file open for binary writing: keep)."""
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
