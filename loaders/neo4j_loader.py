"""Load a solved game graph into Neo4j over Bolt: fast, idempotent, and safe to interrupt.

Why it is fast: rows go in parameterised ``UNWIND $rows AS r CREATE ...``
batches (10k rows) in managed write transactions, so each batch is one query
plan and one round trip. Rows are plain lists, not maps, to keep packing cheap.
Position batches return the new nodes' element ids; move batches then find
both endpoints with NodeByElementIdSeek, a direct store lookup (no index
probe, no string key comparison). Two writer threads (one session each)
keep the server busy while the next batch is built and sent, and use a second
server core when there is one. Total O(V + E) rows, O(workers x batch) memory
on the server. Measured in bench/README.md.

Why it is safe: the Game node is written last (with ``complete: true``) after
the Position and MOVE counts in Neo4j were checked against the graph in
memory. A load that dies half-way leaves Positions without a Game node, which
readers treat as absent and which the next load of that game deletes first.
Loading a game again replaces that game only; other games are never touched.
"""

from __future__ import annotations

import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import neo4j
from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

from explorer import progress
from explorer.errors import GameGraphError, Neo4jUnavailable
from explorer.solved import SolvedGraph
from loaders import mirror
from loaders.defaults import DEFAULT_BATCH_SIZE, DEFAULT_WORKERS  # noqa: F401  (shared with the CLI's --help)

DELETE_BATCH_SIZE = 10_000

# Created before any data, all idempotent. The (game, key) uniqueness constraint is
# also the index that finds a position by key; the others serve the named queries.
SCHEMA = (
    "CREATE CONSTRAINT position_game_key IF NOT EXISTS FOR (p:Position) REQUIRE (p.game, p.key) IS UNIQUE",
    "CREATE CONSTRAINT game_id IF NOT EXISTS FOR (g:Game) REQUIRE g.id IS UNIQUE",
    "CREATE INDEX position_game_value IF NOT EXISTS FOR (p:Position) ON (p.game, p.value)",
    "CREATE INDEX position_game_on_cycle IF NOT EXISTS FOR (p:Position) ON (p.game, p.on_cycle)",
    "CREATE INDEX position_game_scc IF NOT EXISTS FOR (p:Position) ON (p.game, p.scc)",
    "CREATE INDEX position_game_remoteness IF NOT EXISTS FOR (p:Position) ON (p.game, p.remoteness)",
)

# `p.key IS NOT NULL` lets the planner seek the (game, key) constraint index by `game` alone.
_GAME_POSITIONS = "MATCH (p:Position) WHERE p.game = $game AND p.key IS NOT NULL"

_MOVES = ("UNWIND $rows AS r "
          "MATCH (a) WHERE elementId(a) = r[0] "
          "MATCH (b) WHERE elementId(b) = r[1] "
          "CREATE (a)-[:MOVE {label: r[2], optimal: r[3]}]->(b)")

_GAME = ("MATCH (s:Position) WHERE s.game = $props.id AND s.key = $props.start_key "
         "CREATE (g:Game) SET g = $props, g.complete = true "
         "CREATE (g)-[:START]->(s) RETURN count(g)")


@dataclass(frozen=True)
class LoadReport:
    game: str                 # the graph id loaded
    positions: int
    moves: int
    seconds: float
    phases: dict[str, float]  # seconds per phase: prepare, delete, positions, moves, check
    name: str = ""            # how people name the game (chopsticks:standard, [nosym] when not reduced)

    @property
    def rows(self) -> int:
        """Positions + moves + the Game node."""
        return self.positions + self.moves + 1

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else float("inf")

    def __str__(self) -> str:
        return (f"loaded {self.name or self.game}: {self.rows:,} rows ({self.positions:,} positions, "
                f"{self.moves:,} moves) in {self.seconds:.2f} s, {self.rows_per_second:,.0f} rows/s")


class LoadMismatch(GameGraphError):
    """Neo4j does not hold what was loaded (raised as a GameGraphError so the CLI prints one line)."""


def load(solved: SolvedGraph, driver: neo4j.Driver, database: str, batch_size: int = DEFAULT_BATCH_SIZE,
         graph_id: str | None = None, after_batch: Callable[[str, int], None] | None = None,
         workers: int = DEFAULT_WORKERS) -> LoadReport:
    """Replace the game's graph in Neo4j with `solved`. O(V + E) rows in batches of `batch_size`.

    `graph_id` overrides the Game id (tests use it to stay apart from real
    loads). `workers` batches are written concurrently (threads, one session
    each): the server does the work, so this helps when it has idle cores.
    `after_batch(phase, rows_done)` is called after each committed batch.
    Raises Neo4jUnavailable when the server fails mid-way (the next load repairs
    the game) and LoadMismatch when the counts in Neo4j differ from the graph.
    """
    if batch_size < 1 or workers < 1:
        raise GameGraphError(f"batch size and workers must be at least 1, not {batch_size} and {workers}")
    game_id = graph_id or solved.graph.graph_id
    phases: dict[str, float] = {}
    began = time.perf_counter()
    columns = mirror.position_columns(solved)  # prepared first: nothing is deleted unless the rows exist
    moves = mirror.move_columns(solved)
    game = mirror.game_properties(solved)
    game["id"] = game_id
    phases["prepare"] = time.perf_counter() - began
    with _errors(database), driver.session(database=database) as session:
        clock = time.perf_counter()
        ensure_schema(session)
        delete_game(session, game_id)
        phases["delete"] = time.perf_counter() - clock

        total = solved.graph.num_positions + solved.graph.num_moves
        with progress.bar(f"loading {solved.game.display_name}", total=total, unit="row") as bar:
            clock = time.perf_counter()
            element_ids = _create_positions(driver, database, game_id, columns, batch_size, workers, bar, after_batch)
            phases["positions"] = time.perf_counter() - clock
            clock = time.perf_counter()
            _create_moves(driver, database, element_ids, moves, batch_size, workers, bar, after_batch)
            phases["moves"] = time.perf_counter() - clock

        clock = time.perf_counter()
        positions, relationships = count_game(session, game_id)
        if (positions, relationships) != (solved.graph.num_positions, solved.graph.num_moves):
            raise LoadMismatch(f"Neo4j holds {positions:,} positions and {relationships:,} moves of {game_id} "
                               f"after the load, expected {solved.graph.num_positions:,} and "
                               f"{solved.graph.num_moves:,}; the game stays incomplete, load it again")
        written = session.execute_write(lambda tx: tx.run(_GAME, props=game).single()[0])
        if written != 1:
            raise LoadMismatch(f"could not write the Game node of {game_id}: start position {game['start_key']!r} missing")
        phases["check"] = time.perf_counter() - clock
    reduced = solved.graph.symmetry or not solved.game.has_symmetry()
    return LoadReport(game_id, solved.graph.num_positions, solved.graph.num_moves, time.perf_counter() - began,
                      phases, name=solved.game.display_name + ("" if reduced else " [nosym]"))


def ensure_schema(session: neo4j.Session) -> None:
    """Create the constraints and indexes (idempotent) and wait until they are online."""
    for statement in SCHEMA:
        session.run(statement).consume()
    session.run("CALL db.awaitIndexes(300)").consume()


def delete_game(session: neo4j.Session, game_id: str, batch_size: int = DELETE_BATCH_SIZE) -> None:
    """Remove one game (complete or not): its Game node first, so readers see it gone at once,
    then its positions and their moves in auto-committed batches. O(V + E)."""
    session.run("MATCH (g:Game {id: $game}) DETACH DELETE g", game=game_id).consume()
    session.run(f"{_GAME_POSITIONS} CALL (p) {{ DETACH DELETE p }} IN TRANSACTIONS OF $batch ROWS",
                game=game_id, batch=batch_size).consume()


def count_game(session: neo4j.Session, game_id: str) -> tuple[int, int]:
    """(positions, outgoing MOVE relationships) of a game in Neo4j; O(V) with the degree store."""
    record = session.run(f"{_GAME_POSITIONS} RETURN count(p) AS positions, "
                         "sum(COUNT { (p)-[:MOVE]->() }) AS moves", game=game_id).single()
    return int(record["positions"]), int(record["moves"] or 0)


def _create_positions(driver, database, game_id, columns, batch_size, workers, bar, after_batch) -> list[str]:
    names = list(columns)
    properties = ", ".join(f"`{name}`: r[{i}]" for i, name in enumerate(names))
    query = f"UNWIND $rows AS r CREATE (p:Position {{game: $game, {properties}}}) RETURN elementId(p)"
    rows = list(zip(*columns.values()))
    element_ids: list[str] = []
    batches = ((query, {"game": game_id, "rows": rows[start:start + batch_size]}, True)
               for start in range(0, len(rows), batch_size))
    for parameters, ids in _write_batches(driver, database, batches, workers):
        if len(ids) != len(parameters["rows"]):
            raise LoadMismatch(f"Neo4j created {len(ids)} of {len(parameters['rows'])} positions in one batch")
        element_ids.extend(ids)
        bar.update(len(ids))
        if after_batch:
            after_batch("positions", len(element_ids))
    return element_ids


def _create_moves(driver, database, element_ids, moves, batch_size, workers, bar, after_batch) -> None:
    sources, targets = moves["source"].tolist(), moves["target"].tolist()
    labels, optimal = moves["label"], moves["optimal"]

    def batches():  # built lazily: only the batches in flight are held in memory
        for start in range(0, len(sources), batch_size):
            stop = min(start + batch_size, len(sources))
            yield _MOVES, {"rows": [[element_ids[sources[i]], element_ids[targets[i]], labels[i], optimal[i]]
                                    for i in range(start, stop)]}, False

    done = 0
    for parameters, _ in _write_batches(driver, database, batches(), workers):
        done += len(parameters["rows"])
        bar.update(len(parameters["rows"]))
        if after_batch:
            after_batch("moves", done)


def _write_batches(driver, database, batches, workers) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Run (query, parameters, want_values) batches, each in its own managed write transaction,
    on `workers` threads; yield (parameters, values) in submission order as they commit.

    At most 2 * workers batches are in flight, so memory stays O(workers * batch).
    Deadlocks between concurrent batches are transient errors that execute_write retries.
    """
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="neo4j-load")
    pending: deque = deque()
    try:
        for query, parameters, want_values in batches:
            pending.append((parameters, pool.submit(_write, driver, database, query, parameters, want_values)))
            while len(pending) >= 2 * workers:
                parameters, future = pending.popleft()
                yield parameters, future.result()
        while pending:
            parameters, future = pending.popleft()
            yield parameters, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _write(driver, database: str, query: str, parameters: dict[str, Any], want_values: bool) -> list[Any]:
    with driver.session(database=database) as session:
        return session.execute_write(_run, query, parameters, want_values)


def _run(tx: neo4j.ManagedTransaction, query: str, parameters: dict[str, Any], want_values: bool) -> list[Any]:
    result = tx.run(query, parameters)
    if want_values:
        return result.value()
    result.consume()
    return []


@contextmanager
def _errors(database: str) -> Iterator[None]:
    """Turn a server that vanishes or refuses mid-load into Neo4jUnavailable: one line for the CLI."""
    try:
        yield
    except (ServiceUnavailable, SessionExpired) as error:
        raise Neo4jUnavailable(f"lost Neo4j (database {database!r}) during the load: {error}; the game is left "
                               "incomplete, load it again once the server is back") from error
    except Neo4jError as error:
        raise Neo4jUnavailable(f"Neo4j refused the load (database {database!r}): {error.message}") from error


# -- reading back ------------------------------------------------------------------
def list_games(driver: neo4j.Driver, database: str) -> list[dict[str, Any]]:
    """Properties of every completely loaded game, by id. O(games)."""
    records, _, _ = driver.execute_query("MATCH (g:Game) WHERE g.complete RETURN properties(g) AS game ORDER BY g.id",
                                         database_=database, routing_=neo4j.RoutingControl.READ)
    return [record["game"] for record in records]


def game_properties(driver: neo4j.Driver, database: str, game_id: str) -> dict[str, Any] | None:
    """The Game node of a completely loaded game, or None when it is absent or incomplete."""
    records, _, _ = driver.execute_query("MATCH (g:Game {id: $game}) WHERE g.complete RETURN properties(g) AS game",
                                         game=game_id, database_=database, routing_=neo4j.RoutingControl.READ)
    return records[0]["game"] if records else None


def read_positions(driver: neo4j.Driver, database: str, game_id: str) -> dict[str, dict[str, Any]]:
    """key -> every Position property but `game` (remoteness None for draws). O(V), streamed."""
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        result = session.run(f"{_GAME_POSITIONS} RETURN properties(p) AS p", game=game_id)
        positions = {}
        for record in result:
            properties = record["p"]
            properties.pop("game", None)
            properties.setdefault("remoteness", None)
            positions[properties["key"]] = properties
        return positions


def read_moves(driver: neo4j.Driver, database: str, game_id: str) -> dict[tuple[str, str], dict[str, Any]]:
    """(from key, to key) -> {label, optimal} of every MOVE of a game. O(E), streamed."""
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        result = session.run(f"{_GAME_POSITIONS} MATCH (p)-[m:MOVE]->(q) "
                             "RETURN p.key AS a, q.key AS b, m.label AS label, m.optimal AS optimal", game=game_id)
        return {(r["a"], r["b"]): {"label": r["label"], "optimal": r["optimal"]} for r in result}
