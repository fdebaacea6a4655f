"""One home for a solved game: how it is stored, solved or opened, kept, and read.

A game is solved one of three ways:

- **graph** (the edge mode, explorer.solved.graph): its reachable graph with its moves, solved and cached in
  the state folder; what queries, diagrams, certificates, Neo4j and the page's graph views need;
- **implicit** (explorer.implicit): every index of its ranking solved into a value file, no moves stored;
- **tiered** (explorer.tiered): the same, tier by tier on Dask, into tier files.

This module is the one place that decides between them (`choose`), gives the advice when none fits
(`advice`), solves and keeps the result (`solve`), or opens what is stored (`open_solved`), and returns one
reader, `SolvedGame`, whose value, remoteness, record, moves and line of a position read the same
whatever the storage. The commands (explorer/commands), play, certificates, diagrams and the query API
come here; the page (explorer/ui) reads the same cache through `load_or_build`.

Which storage a reader takes when more than one could answer (`prefer`):

- VALUES: the value file whenever one is stored, else the graph (`show`);
- GRAPH: the graph, unless the game is too large for one and a value file is stored (`play`, the page);
- GRAPH_ONLY: the graph, refused over the limit with `advice` (query, dot, export, certificate, load);
- VALUES_ONLY: the value file, or one line naming the solve that makes it (`play --backend values`, parts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from explorer import implicit, tiered
from explorer.core import limits
from explorer.core.errors import GameGraphError, GraphTooLarge, shell_hint
from explorer.core.values import Value
from explorer.games import Game, parse_spec
from explorer.graph import DEFAULT_MAX_POSITIONS
from explorer.solved.graph import SolvedGraph, build, keep, load_or_build

GRAPH, IMPLICIT, TIERED = "graph", "implicit", "tiered"
KINDS = (GRAPH, IMPLICIT, TIERED)
VALUES, GRAPH_FIRST, GRAPH_ONLY, VALUES_ONLY = "values", "graph", "graph-only", "values-only"
PREFERENCES = (VALUES, GRAPH_FIRST, GRAPH_ONLY, VALUES_ONLY)

TOO_LARGE_TO_CERTIFY = ("a certificate is read off the game's whole solved graph, moves included, which this game is "
                        "too large for: choose smaller parameters")


def _game(game: Game | str) -> Game:
    return parse_spec(game) if isinstance(game, str) else game


# -- what fits, what is stored -----------------------------------------------------------------------
def edgeless_kind(game: Game) -> str | None:
    """The solve without stored moves that fits the game: TIERED for a game with tiers, IMPLICIT for one whose
    ranking fits one tier, None when neither can (explorer.tiered.edgeless_flag)."""
    flag = tiered.edgeless_flag(game)
    return None if flag is None else flag.removeprefix("--")


def stored_values(game: Game) -> str | None:
    """Which value file of the game the state folder holds: TIERED (read first), IMPLICIT, or None."""
    if tiered.exists(game):
        return TIERED
    if implicit.exists(game):
        return IMPLICIT
    return None


def too_large_for_a_graph(game: Game, max_positions: int) -> bool:
    """Whether the game's size estimate (its ranking when it gives none) exceeds `max_positions`, the
    limit over which a graph of it is refused (explorer.core.limits.check). O(the game's formula)."""
    estimate = limits.estimate(game, game.has_symmetry())
    size = estimate.positions if estimate is not None else game.index_space()
    return size is not None and size > max_positions


def choose(game: Game | str, prefer: str = GRAPH_FIRST, max_positions: int = DEFAULT_MAX_POSITIONS) -> str:
    """How the game is read under `prefer` (the module's docstring): GRAPH, IMPLICIT or TIERED. Nothing is
    solved or opened; a value file chosen is one that is stored, except under VALUES_ONLY."""
    game = _game(game)
    if prefer not in PREFERENCES:
        raise ValueError(f"prefer must be one of {', '.join(PREFERENCES)}, not {prefer!r}")
    if prefer == VALUES_ONLY and not implicit.supports(game):
        implicit.open_value_file(game)  # one line: the game has no implicit mode
    if prefer == GRAPH_ONLY or not implicit.supports(game):
        return GRAPH
    stored = stored_values(game)
    if prefer == VALUES_ONLY:
        return stored or IMPLICIT  # none stored: opening it says which solve makes it
    if stored is None:
        return GRAPH
    if prefer == VALUES or too_large_for_a_graph(game, max_positions):
        return stored
    return GRAPH


# -- the advice when a graph does not fit -------------------------------------------------------------
def advice(game: Game | str, spec: str | None = None, command: str = "solve") -> str:
    """The remedy a refusal of the game's graph over the limit names (the `hint` of explorer.core.limits.check),
    for `command`: solve offers --max-positions and the value file; show and play read a value file; "ui" (the
    page) names the solve and how long it takes here (`solve_time`); dot draws a part of one; certificate needs
    the whole graph; any other command has --max-positions to raise."""
    game = _game(game)
    spec = spec if spec is not None else game.display_name
    flag = tiered.edgeless_flag(game)
    if command == "solve":
        return limits.RAISE_THE_LIMIT + (f", or {_value_file_remedy(spec, flag)}" if flag else "")
    if command in ("show", "play"):
        return (f"solve it into a value file first, which `{command}` then reads: {shell_hint('solve', spec, flag)}"
                if flag else "choose smaller parameters")
    if command == "ui":  # the page (explorer/ui): the solve, how long it takes here, and that the page then opens it
        if flag:
            memory = solve_memory(game)
            # (the figure the solve's own check asks to be free, implicit.check_memory or tiers.check_size: a measured
            # peak with a margin where the game declares one, README's figures being the peak itself)
            holding = f", asking up to {limits.human_bytes(memory)} of memory free," if memory else ""
            return (f"`{shell_hint('solve', spec, flag)}` solves it in {solve_time(game)}{holding} and the page then "
                    "opens it from its value file")
        return f"solve it with `{shell_hint('solve', spec)}`, whose graph the page then opens, or choose smaller parameters"
    if command == "dot":
        return _too_large_to_draw(game, flag)
    if command == "certificate":
        return TOO_LARGE_TO_CERTIFY
    return limits.RAISE_THE_LIMIT


# What the solve the page's button runs (`gamegraph solve SPEC --implicit`, or --tiered for a game with tiers:
# explorer.tiered.edgeless_flag) took end to end on this 2-core machine with its kernels compiled, at load 6 or less
# (bench/README.md; Connect Four 6x5's on loaded cores), in seconds, the fastest and slowest run, by the game's display name. Dōbutsu shōgi 186-195 s
# (2026-11-29, its own first pass; 16-19 min before); Dodgem 5x5's tiered solve 31-69 s (2026-11-27). Other work
# on both cores stretches them several times: Dodgem 5x5's took 11 min 20 s of wall for 137 s of CPU at load 19-24
# (2026-11-29 23:09 UTC). Another game's time is estimated at 1.6 million indices a second, about the measured
# solves' slower rates (Connect Four 6x4's 1.1-1.3 million, Teeko's 1.7-2.5; Dōbutsu shōgi's 8 million owe to its
# own first pass).
MEASURED_SOLVES = {"dobutsu:standard": (186, 195), "teeko:standard": (70, 70), "teeko:advanced": (100, 100),
                   "dodgem:5x5": (31, 69), "connect4:6x4": (150, 150), "connect4:6x5": (48 * 60, 48 * 60)}
INDICES_PER_SECOND = 1_600_000


def solve_seconds(game: Game) -> tuple[float, float, bool]:
    """How long the value-file solve of `game` takes here, in seconds: (fastest, slowest, measured), measured
    (MEASURED_SOLVES) or estimated at INDICES_PER_SECOND (then fastest == slowest and measured is False)."""
    measured = MEASURED_SOLVES.get(game.display_name)
    if measured:
        return float(measured[0]), float(measured[1]), True
    seconds = (game.index_space() or 0) / INDICES_PER_SECOND
    return seconds, seconds, False


def solve_memory(game: Game) -> int | None:
    """The most memory, in bytes, the value-file solve of `game` holds at once: its largest tier's (tiered.tier_memory)
    for a game with tiers, else the implicit solve's (implicit.solving_memory: measured with a margin where the game
    declares it, else the worst case). None for a game with neither. O(tiers)."""
    flag = tiered.edgeless_flag(game)
    if flag == "--tiered":
        return max(tiered.tier_memory(game.tiers()))
    if flag == "--implicit":
        found = implicit.solving_memory(game)
        return found[0] if found else None
    return None


def _duration(seconds: float) -> tuple[str, str]:
    """(number, unit) in words: seconds under two minutes, else minutes to the half."""
    if seconds < 120:
        return f"{max(round(seconds), 1)}", "s"
    return f"{round(seconds / 30) / 2:g}", "min"


def solve_time(game: Game) -> str:
    """How long the value-file solve of `game` takes here, in words: '31-69 s here with the machine otherwise idle
    (measured)', '3 min here with ...', else 'about N min here (estimated ...)'. (Other work on both cores
    stretches a solve several times: the Dōbutsu solve a stranger started from the page beside a test run took
    10 min, session 25.)"""
    fastest, slowest, measured = solve_seconds(game)
    high, unit = _duration(slowest)
    if not measured:
        return f"about {high} {unit} here (estimated from the measured solves' rate)"
    low, low_unit = _duration(fastest)
    span = f"{high} {unit}" if low == high and low_unit == unit else (
        f"{low}-{high} {unit}" if low_unit == unit else f"{low} {low_unit}-{high} {unit}")
    return f"{span} here with the machine otherwise idle (measured)"


def _value_file_remedy(spec: str, flag: str) -> str:
    """What `solve` offers beside --max-positions: its own solve into a value file, as a command to run (the
    last words of the refusal, so it can be copied)."""
    return f"solve it into a value file without storing moves: {shell_hint('solve', spec, flag)}"


def _too_large_to_draw(game: Game, flag: str | None) -> str:
    """dot's remedy: the game's tiered solve or value file, read by show, play and the UI (a part of it around a
    position is drawn from it too), or the solve that makes one, else smaller parameters."""
    name = game.display_name
    said = "dot draws from the solved graph with its edges, which this game is too large for"
    readers = f"`{shell_hint('show', name)}`, `{shell_hint('play', name)}` and the UI (`gamegraph ui`)"
    stored = stored_values(game)
    if stored:
        made = "its tiered solve" if stored == TIERED else "its value file"
        part = shell_hint("dot", f"{name}@around(POSITION;radius=2;both)", "neighbourhood", "-o", "FILE.svg")
        return f"{said}; {made} is read by {readers}, and dot draws a part of it around a position: `{part}`"
    if flag:
        return f"{said}; solve it into a value file, `{shell_hint('solve', name, flag)}`, which {readers} read"
    return f"{said}; choose smaller parameters"


def refuse_graph(game: Game, symmetry: bool, max_positions: int = DEFAULT_MAX_POSITIONS, spec: str | None = None,
                 command: str = "solve") -> limits.Estimate | None:
    """Refuse the game's graph from its size estimate before any memory is taken (GraphTooLarge naming
    `advice`); over the memory rather than the limit, solve's refusal names its value file too."""
    hint = advice(game, spec, command)
    try:
        return limits.check(game, symmetry, max_positions, hint=hint)
    except GraphTooLarge as error:
        flag = tiered.edgeless_flag(game) if command == "solve" else None
        remedy = _value_file_remedy(spec if spec is not None else game.display_name, flag) if flag else None
        if remedy is None or str(error).endswith(remedy):
            raise
        raise GraphTooLarge(f"{error}, or {remedy}") from None


# -- the one reader -----------------------------------------------------------------------------------
@dataclass
class SolvedGame:
    """A solved game, whatever its storage (`kind`: GRAPH, IMPLICIT or TIERED). A position is given as the
    game's notation, a position of the game, or None for the start.
    `graph` is the SolvedGraph (GRAPH only), `values` the value-file reader (explorer.implicit.ValueFile or
    explorer.tiered.TieredValues); `source` is whichever answers, for code written against either (a graph's
    node numbers are `graph`'s: `at` turns a position into the storage's name for it)."""

    game: Game
    kind: str
    graph: SolvedGraph | None = None
    values: Any = None
    seconds: float = 0.0

    @property
    def source(self) -> Any:
        return self.graph if self.graph is not None else self.values

    @property
    def stored_as(self) -> str:
        """"graph" or "value file", as `show` says where its answer comes from."""
        return "graph" if self.kind == GRAPH else "value file"

    def at(self, position: Any = None) -> Any:
        """The position the way the storage names it: a node of the graph, or the position itself."""
        if self.graph is not None:
            graph = self.graph.graph
            if position is None:
                return 0
            if isinstance(position, str):
                return graph.find(position)
            node = graph.node_of(position)
            if node is None:
                raise GameGraphError(f"{self.game.format(position)} is not in the solved graph of "
                                     f"{self.game.display_name}")
            return node
        if position is None:
            return self.game.start()
        return self.game.parse(position) if isinstance(position, str) else position

    def key(self, position: Any = None) -> str:
        at = self.at(position)
        return self.graph.graph.key(at) if self.graph is not None else self.game.format(at)

    def value(self, position: Any = None) -> Value:
        return self.source.value(self.at(position))

    def remoteness(self, position: Any = None) -> int | None:
        return self.source.remoteness(self.at(position))

    def record(self, position: Any = None) -> dict[str, Any]:
        """The position record (explorer.core.records): a value file's has no cycle or draw facts (on_cycle None)."""
        at = self.at(position)
        if self.graph is not None:
            return self.graph.record(at)
        return {**self.values.record(at), "on_cycle": None}

    def moves(self, position: Any = None) -> list[dict[str, Any]]:
        """Every move with the successor's value for the mover, best first (explorer.core.records)."""
        return self.source.moves(self.at(position))

    def line(self, position: Any = None, limit: int = 50) -> list[dict[str, Any]]:
        """The records of the line both players follow with their best moves, each but the last with its move."""
        at = self.at(position)
        if self.graph is None:
            return self.values.best_line(at, limit)
        steps = self.graph.principal_line(at, limit)
        line = [self.graph.record(node, full=False) for node, _ in steps]
        for before, (_, label) in zip(line, steps[1:]):
            before["move"] = label
        return line


# -- solve and keep, or open what is stored -----------------------------------------------------------
def solve(game: Game | str, kind: str = GRAPH, *, symmetry: bool = True, start: Any = None,
          max_positions: int = DEFAULT_MAX_POSITIONS, spec: str | None = None, scheduler: str | None = None,
          workers: int | None = None, variants: Sequence[bool] | None = None) -> list[SolvedGame]:
    """Solve the game the `kind` way and keep the result where `open_solved` (show, play, query, dot, the UI)
    reads it: a graph of the start in the cache (explorer.solved.graph.keep), a value file or tier files in
    the state folder. GRAPH: one SolvedGame per symmetry in `variants` (default: reduced, then full, when the
    game has symmetry and `symmetry`), every variant refused from its estimate before the first is built; a
    graph from another `start` is not kept. IMPLICIT, TIERED: one SolvedGame."""
    import time

    game = _game(game)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if kind == TIERED:
        began = time.perf_counter()
        values = tiered.solve(game, scheduler=scheduler, workers=workers)
        return [SolvedGame(game, TIERED, values=values, seconds=time.perf_counter() - began)]
    if kind == IMPLICIT:
        began = time.perf_counter()
        values = implicit.solve(game)
        return [SolvedGame(game, IMPLICIT, values=values, seconds=time.perf_counter() - began)]
    if variants is None:
        variants = [True, False] if symmetry and game.has_symmetry() else [False]
    for reduced in variants:  # refuse before the first build, not after it
        refuse_graph(game, reduced, max_positions, spec, "solve")
    hint = advice(game, spec, "solve")
    results = []
    for reduced in variants:
        began = time.perf_counter()
        solved = build(game, symmetry=reduced, start=start, max_positions=max_positions, hint=hint, checked=True)
        if start is None:
            keep(solved)
        results.append(SolvedGame(game, GRAPH, graph=solved, seconds=time.perf_counter() - began))
    return results


def open_solved(game: Game | str, prefer: str = GRAPH_FIRST, *, symmetry: bool = True,
                max_positions: int = DEFAULT_MAX_POSITIONS, command: str = "solve", spec: str | None = None,
                hint: str | None = None) -> SolvedGame:
    """The solved game as `choose` reads it under `prefer`: the value file stored, or the graph from the cache,
    else built and kept (explorer.solved.graph.load_or_build). A graph over `max_positions` is refused with
    the advice for `command` (or `hint`); a value file that is not stored, in one line naming the solve."""
    game = _game(game)
    kind = choose(game, prefer, max_positions)
    if kind == TIERED:
        return SolvedGame(game, TIERED, values=tiered.open_values(game))
    if kind == IMPLICIT:
        return SolvedGame(game, IMPLICIT, values=implicit.open_value_file(game))
    solved = load_or_build(game, symmetry=symmetry, max_positions=max_positions,
                           hint=hint if hint is not None else advice(game, spec, command))
    return SolvedGame(game, GRAPH, graph=solved)


def open_graph(game: Game | str, *, symmetry: bool = True, start: Any = None,
               max_positions: int = DEFAULT_MAX_POSITIONS, command: str = "export", spec: str | None = None,
               hint: str | None = None) -> SolvedGraph:
    """The game's solved graph (GRAPH_ONLY): from the cache when it starts at the game's start, else built
    from `start` and not kept. Over the limit, GraphTooLarge naming the advice for `command` (or `hint`)."""
    game = _game(game)
    hint = hint if hint is not None else advice(game, spec, command)
    if start is not None:
        return build(game, symmetry=symmetry, start=start, max_positions=max_positions, hint=hint)
    return load_or_build(game, symmetry=symmetry, max_positions=max_positions, hint=hint)
