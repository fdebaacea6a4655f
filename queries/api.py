"""Run a named query on Neo4j, on the networkx mirror or on the solved arrays and get the same answer.

    backend = NetworkxBackend(mirror_for("chopsticks"))          # or
    backend = Neo4jBackend(driver, "neo4j", graph_id(parse_spec("chopsticks")))   # or, for a game
    backend = ArraysBackend(open_graph("chopsticks"))            # too big for a mirror (explorer.solved.open_graph)
    result = run_query(backend, "shortest-win", position="A|1-1|1-2")

Every backend returns a QueryResult (queries.results) whose tables hold
JSON-ready values sorted deterministically, so ``==`` compares them. Every
argument is validated here, before any backend runs: an unknown query or
argument, an out-of-range bound or a bad position raises the project's error
with one clear message.
"""

from __future__ import annotations

from typing import Any, Protocol

from explorer.core.errors import GameGraphError, QueryError, UnreachablePosition, counted
from queries import catalog
from queries.arrays_backend import ArraysBackend
from queries.catalog import DIRECTIONS, QUERIES, QuerySpec
from queries.common import canonical_key, game_of, graph_id
from queries.networkx_backend import NetworkxBackend
from queries.results import ConsoleResult, QueryResult, Table, format_result

__all__ = ["QUERIES", "DIRECTIONS", "Backend", "NetworkxBackend", "Neo4jBackend", "ArraysBackend", "QueryResult",
           "Table", "ConsoleResult", "run_query", "query_names", "describe", "resolve_position", "run_readonly_cypher",
           "check_read_only", "format_result", "graph_id", "game_of", "DEFAULT_TIMEOUT_S", "COLUMNS"]



def __getattr__(name: str) -> Any:
    """The Neo4j side (Neo4jBackend, DEFAULT_TIMEOUT_S, the Cypher console's run_readonly_cypher and check_read_only),
    imported on first use: the neo4j driver pulls pandas in, about 0.4 s of CPU that a `gamegraph query` or `dot`
    on the mirror or the arrays would pay at every start."""
    if name in ("check_read_only", "run_readonly_cypher"):
        from queries import console

        return getattr(console, name)
    if name in ("DEFAULT_TIMEOUT_S", "Neo4jBackend"):
        from queries import neo4j_backend

        return getattr(neo4j_backend, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The columns of every query's tables (derived from the catalog, which alone defines them).
COLUMNS: dict[str, dict[str, list[str]]] = {
    name: {table: list(columns) for table, columns in query.tables.items()} for name, query in QUERIES.items()}


class Backend(Protocol):
    kind: str
    game_id: str
    start_key: str

    def position(self, key: str) -> dict[str, Any] | None: ...
    def run(self, name: str, args: dict[str, Any]) -> dict[str, list[list[Any]]]: ...


def query_names() -> list[str]:
    return list(QUERIES)


def describe(name: str) -> dict[str, Any]:
    """A query's summary and arguments with their limits, for help texts and UI forms."""
    query = catalog.spec(name)
    return {"name": query.name, "summary": query.summary, "position": query.position, "to": query.to,
            "direction": query.direction, "value": query.cgt_value,
            "ints": [{"name": p.name, "minimum": p.minimum, "maximum": p.maximum, "default": p.default,
                      "help": p.help} for p in query.ints]}


def resolve_position(backend: Backend, text: str) -> str:
    """The stored key of a position in the game's notation.

    InvalidPosition when it does not parse or is illegal (from the game),
    UnreachablePosition when it is legal but not in the graph. O(1) lookups.
    """
    return _lookup(backend, text)[0]


def _lookup(backend: Backend, text: str) -> tuple[str, dict[str, Any]]:
    """(stored key, stored properties) of a position, with resolve_position's errors: one backend lookup."""
    key = canonical_key(backend.game, backend.symmetry, text)
    properties = backend.position(key)
    if properties is None:
        raise UnreachablePosition(f"position {text!r} is legal but not reachable from the start of "
                                  f"{backend.game.display_name}")
    return key, properties


def _validate(backend: Backend, query: QuerySpec, params: dict[str, Any]) -> dict[str, Any]:
    given = {k: v for k, v in params.items() if v is not None}
    unknown = sorted(set(given) - set(query.params))
    if unknown:
        takes = ", ".join(query.params) or "no arguments"
        raise QueryError(f"query {query.name!r} does not take {', '.join(unknown)}: it takes {takes}")
    args: dict[str, Any] = {}
    if query.position:
        args["position"], position = _lookup(backend, str(given.get("position", backend.start_key)))
        if query.name == "shortest-win" and position["value"] == "draw":
            raise QueryError(f"{args['position']} is a draw: neither side can force the game to end, so there is "
                             "no winning line; see the draw-cycles query for how the draw is held")
    if query.to:
        if "to" not in given:
            raise QueryError(f"query {query.name!r} needs a target position (to / --to)")
        args["to"] = resolve_position(backend, str(given["to"]))
    if query.name in catalog.CGT_QUERIES and not _has_cgt(backend):
        raise QueryError(f"{backend.game.display_name} has no combinatorial values: {query.name} is for games "
                         "such as toads-and-frogs, domineering and nim")
    if query.cgt_value:
        if "value" not in given:
            raise QueryError(f"query {query.name!r} needs a value (value / --value), e.g. ^ or +-1")
        from explorer.cgt.notation import parse_value
        args["value"] = parse_value(str(given["value"])).ascii()
    if query.direction:
        direction = str(given.get("direction", "both")).strip().lower()
        if direction not in DIRECTIONS:
            raise QueryError(f"{query.name}: direction {given['direction']!r} is not valid: choose one of "
                             f"{', '.join(DIRECTIONS)}")
        args["direction"] = direction
    for param in query.ints:
        args[param.name] = catalog.check_int(query.name, param, given.get(param.name, param.default))
    return args


def _has_cgt(backend: Backend) -> bool:
    from explorer.cgt.evaluate import supports_cgt

    return supports_cgt(backend.game)


def run_query(backend: Backend, name: str, *, as_typed: bool = True, **params: Any) -> QueryResult:
    """Runs query `name` on `backend` with validated arguments.

    A path ends on exactly the board typed as `to` (`as_typed`, the CLI's and the page's form: see _play_out);
    a caller working on stored keys (the canvas's search) passes as_typed=False for the stored keys' shortest
    path, whose last board may be a mirror image of `to`.

    Arguments (None means the default): position, to (position notation),
    k, direction ('out' | 'in' | 'both'), max_length, limit; see describe(name).
    Returns a QueryResult; truncated is True (and a note says so) when the row
    cap `limit` cut a table. Costs are those of the query (see each .cypher
    header and queries.networkx_backend).
    """
    query = catalog.spec(name)
    args = _validate(backend, query, params)
    run_args = dict(args)
    if "limit" in args:
        run_args["fetch"] = args["limit"] + 1
    raw = backend.run(name, run_args)
    result = _finish(backend, query, args, raw)
    _play_out(backend, result, params.get("position"), params.get("to") if as_typed else None)
    return result


# The queries whose answer is one line of play: (its table, whether the line closes on its first position).
LINES = {"shortest-win": ("line", False), "path": ("path", False), "shortest-cycle": ("cycle", True)}


def _play_out(backend: Backend, result: QueryResult, typed: Any, typed_to: Any = None) -> None:
    """Adds a line's keys and labels (`positions`, `moves`) and the same line as played on one board
    (`boards`, `named`: Game.shown_line) from the position as typed, when it is this position in
    another orientation; a path ends on exactly the board typed as `to` (QueryError, one line, when
    no playing of the shortest line from the board typed ends there: only another orientation of it
    is reached). O(moves along the line x moves per position x orientations)."""
    if result.query == "neighbourhood":  # drawn from the board typed when first read (QueryResult.drawing)
        result.orient_from(backend.game, _typed_board(backend, typed, result.params["position"]))
    if result.query not in LINES:
        return
    table, closes = LINES[result.query]
    rows = result.tables[table].records()
    if not rows:
        if result.query == "path":  # no line: said of the boards as typed, when they were typed
            start = _typed_board(backend, typed, result.params["position"])
            end = _typed_board(backend, typed_to, result.params["to"])
            shown = [backend.game.format(board) if board is not None else key
                     for board, key in ((end, result.params["to"]), (start, result.params["position"]))]
            result.typed = {name: text for name, text in (("to", shown[0]), ("position", shown[1]))
                            if text != result.params[name]} or None
            result.notes = [f"{shown[0]} cannot be reached from {shown[1]}" if note.endswith(
                f"cannot be reached from {result.params['position']}") else note for note in result.notes]
        return
    keys = [row["key"] for row in rows] + ([result.params["position"]] if closes else [])
    labels = [row["label"] for row in rows][:len(keys) - 1]
    result.positions, result.moves = keys, labels
    game = backend.game
    start = _typed_board(backend, typed, keys[0])
    end = _typed_board(backend, typed_to, keys[-1]) if result.query == "path" else None
    shown = game.shown_line(keys, labels, start, end)
    result.boards = [game.format(position) for position, _ in shown]
    result.named = [label or "" for _, label in shown[1:]]
    if end is not None and result.boards[-1] != game.format(end):
        _path_to_exactly(backend, result, shown[0][0], end)


MAX_EXACT_SEARCH = 50_000  # boards the rules' search for a path to exactly the board typed visits at most


def _path_to_exactly(backend: Backend, result: QueryResult, start: Any, end: Any) -> None:
    """Replaces a path that reaches `end` only as its mirror image (the shortest line between the stored keys,
    from the board `start`) by a shortest line from `start` to exactly `end`, found by the rules: a
    breadth-first search over boards (orientations told apart), at most MAX_EXACT_SEARCH of them, each move's
    row then read from the backend (a one-move path per move). QueryError in one line when play from `start`
    never reaches `end` itself, or the search gives up. O(boards searched x moves) rule calls, then one
    backend query per move of the line."""
    game = backend.game
    mirror, moves = result.boards[-1], len(result.boards) - 1
    line, complete = _board_path(game, start, end)
    if line is None:
        where = ("play from there never reaches it" if complete else
                 f"no line to it was found among the first {MAX_EXACT_SEARCH:,} boards searched")
        raise QueryError(f"path: {game.format(end)} is reached from {game.format(start)} only as its mirror image "
                         f"{mirror} ({counted(moves, 'move')}; one position up to symmetry, one stored key): {where}; "
                         f"ask for --to {mirror}")
    keys = [game.key(board, backend.symmetry) for board in line]
    rows: list[list[Any]] = []
    for step, (here, there) in enumerate(zip(keys, keys[1:])):
        pair = backend.run("path", {"position": here, "to": there})["path"]
        rows.append([step, *pair[0][1:]])
        if step == len(keys) - 2:
            rows.append([step + 1, *pair[-1][1:]])
    result.tables["path"] = Table(result.tables["path"].columns, rows)
    result.positions, result.moves = keys, [row[4] for row in rows[:-1]]
    shown = game.shown_line(keys, result.moves, start, end)
    result.boards = [game.format(position) for position, _ in shown]
    result.named = [label or "" for _, label in shown[1:]]


def _board_path(game: Any, start: Any, end: Any) -> tuple[list[Any] | None, bool]:
    """(the boards of a shortest line from `start` to exactly `end` by the game's moves, or None; whether the
    search saw every board play reaches). Breadth-first over boards (no symmetry: orientations apart), at
    most MAX_EXACT_SEARCH boards. O(boards x moves) rule calls."""
    wanted = game.format(end)
    parent: dict[str, tuple[Any, str | None]] = {game.format(start): (start, None)}
    frontier = [start]
    while frontier:
        ahead = []
        for board in frontier:
            if game.outcome(board) is not None:
                continue
            here = game.format(board)
            for move in game.moves(board):
                text = game.format(move.position)
                if text in parent:
                    continue
                parent[text] = (move.position, here)
                if text == wanted:
                    line, at = [], text
                    while at is not None:
                        board_at, at = parent[at]
                        line.append(board_at)
                    return line[::-1], False
                if len(parent) >= MAX_EXACT_SEARCH:
                    return None, False
                ahead.append(move.position)
        frontier = ahead
    return None, True


def _typed_board(backend: Backend, typed: Any, key: str) -> Any:
    """The position typed (`typed`, notation) when it is the position stored as `key` in any orientation,
    else None. O(1) rule calls."""
    if typed is None:
        return None
    game = backend.game
    try:
        board = game.parse(str(typed))
    except GameGraphError:
        return None
    return board if game.key(board, backend.symmetry) == key else None


def _finish(backend: Backend, query: QuerySpec, args: dict[str, Any], raw: dict[str, list]) -> QueryResult:
    """Applies the row cap, splits the neighbourhood's moves out, and adds notes: O(rows)."""
    truncated, notes = False, []
    for table in query.capped:
        if len(raw[table]) > args["limit"]:
            raw[table] = raw[table][:args["limit"]]  # the backends fetch one row past the cap, not all
            truncated = True
            notes.append(f"{table}: only the first {args['limit']} rows are shown (the row cap; more exist); "
                         "raise it with --limit N to see more")
    if query.name == "neighbourhood":
        positions = raw["positions"]
        raw["positions"] = [row[:-1] for row in positions]
        raw["moves"] = sorted(([row[0], m["label"], m["to"], m["optimal"]] for row in positions for m in row[-1]),
                              key=lambda r: (r[0], r[1], r[2]))
    tables = {t: Table(list(cols), [list(r) for r in raw[t]]) for t, cols in query.tables.items()}
    notes += _empty_notes(backend, query, args, tables)
    result = QueryResult(query=query.name, game=backend.game_id, params=args, tables=tables,
                         truncated=truncated, notes=notes)
    return result


def _empty_notes(backend: Backend, query: QuerySpec, args: dict[str, Any], tables: dict[str, Table]) -> list[str]:
    main = next(iter(tables.values()))
    if main.rows:
        return []
    key = args.get("position")
    if query.name == "shortest-cycle":
        return [f"{key} lies on no cycle of at most {args['max_length']} moves"]
    if query.name == "cycles":
        return [f"no simple cycle of at most {args['max_length']} moves passes through {key}"]
    if query.name == "draw-cycles":
        value = backend.position(key)["value"]
        if value != "draw":
            return [f"{key} is a {value}, not a draw, so no cycle of draws passes through it"]
        return [f"no cycle of draws of at most {args['max_length']} moves passes through {key}"]
    if query.name == "components":
        return ["the game has no cycles: every position is a component of its own"]
    if query.name == "path":
        return [f"{args['to']} cannot be reached from {key}"]
    if query.name == "cgt-equal":
        return [f"no position of this game has the value {args['value']}"]
    return []
