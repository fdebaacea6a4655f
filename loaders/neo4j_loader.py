"""Load a solved game graph into Neo4j over Bolt: fast, idempotent, safe to interrupt and to run twice at once.

Why it is fast: every batch is one parameterised ``UNWIND ... CREATE`` query
(one plan, one round trip) in a managed write transaction. Position batches
return the new nodes' ids (integers); move batches are parallel arrays of
primitives (source ids, target ids, label codes, optimal flags), which pack
and unpack far cheaper than lists of maps or element-id strings, and find
both endpoints with NodeByIdSeek, a direct store lookup (no index probe).
``id()`` is deprecated in Cypher 5 but is the cheapest seek in 5.26, the
version pinned here; the ids are only used within one load, while the lock
below keeps anyone else from deleting those nodes. Two writer threads keep
the server busy while the next batch is built and sent. A game is deleted
relationships first, in large batches, then its nodes, so no transaction
carries a node together with its whole neighbourhood. Total O(V + E) rows,
O(workers x batch) memory on the server. Measured in bench/README.md.

Why it is safe: the Game node is written last (with ``complete: true``) after
the Position and MOVE counts in Neo4j were checked against the graph in
memory. A load that dies half-way leaves Positions without a Game node, which
readers treat as absent and which the next load of that game deletes first.
Loading a game again replaces that game only; other games are never touched.

Why two loads of one game cannot clash: a load first takes that game's lock,
held in Neo4j itself so it works for any client of the server, local or not.
The lock is an uncommitted ``CREATE (:LoadLock {game})`` under a uniqueness
constraint: a second load's identical CREATE waits on the index entry until
the first transaction ends. The holder never commits the node (it writes the
Game node in that same transaction and deletes the LoadLock before commit),
so nothing is left behind, and a holder that dies (SIGKILL, lost network)
loses its connection, the server rolls its transaction back, and the lock is
free. Writing the Game node in the lock transaction also means a load that
lost its lock (say, to a server-side transaction timeout) cannot mark its
game complete. The later load waits, saying so, then loads in turn.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np

import neo4j
from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

from explorer import progress
from explorer.errors import GameGraphError, Neo4jUnavailable
from explorer.solved import SolvedGraph
from loaders import mirror
from loaders.defaults import DEFAULT_BATCH_SIZE, DEFAULT_WORKERS  # noqa: F401  (shared with the CLI's --help)

DELETE_BATCH_SIZE = 50_000
LOCK_NOTICE_SECONDS = 2.0  # how long a load waits for another one's lock before it says so

# Where the paths part (docs/neo4j-loading.md has the measurements behind these numbers):
# above BULK_ADVICE_MOVES a Bolt load takes minutes and `load --bulk` is about ten times faster;
# above WHOLE_GRAPH_MOVES the store outgrows what this kind of machine should give Neo4j
# (about 100 bytes per move on disk, page cache in the hundreds of MB), and the whole game
# belongs in the value file of the implicit mode, with Neo4j holding the parts people browse.
BULK_ADVICE_MOVES = 2_000_000
WHOLE_GRAPH_MOVES = 30_000_000

# Created before any data, all idempotent. The (game, key) uniqueness constraint is
# also the index that finds a position by key; the others serve the named queries.
SCHEMA = (
    "CREATE CONSTRAINT position_game_key IF NOT EXISTS FOR (p:Position) REQUIRE (p.game, p.key) IS UNIQUE",
    "CREATE CONSTRAINT game_id IF NOT EXISTS FOR (g:Game) REQUIRE g.id IS UNIQUE",
    "CREATE INDEX position_game_value IF NOT EXISTS FOR (p:Position) ON (p.game, p.value)",
    "CREATE INDEX position_game_on_cycle IF NOT EXISTS FOR (p:Position) ON (p.game, p.on_cycle)",
    "CREATE INDEX position_game_scc IF NOT EXISTS FOR (p:Position) ON (p.game, p.scc)",
    "CREATE INDEX position_game_remoteness IF NOT EXISTS FOR (p:Position) ON (p.game, p.remoteness)",
    "CREATE CONSTRAINT load_lock_game IF NOT EXISTS FOR (l:LoadLock) REQUIRE l.game IS UNIQUE",
)

# `p.key IS NOT NULL` lets the planner seek the (game, key) constraint index by `game` alone.
_GAME_POSITIONS = "MATCH (p:Position) WHERE p.game = $game AND p.key IS NOT NULL"

# $s, $t: node ids of both ends; $c: codes into $labels; $o: optimal flags (parallel arrays).
_MOVES = ("UNWIND range(0, size($s) - 1) AS i "
          "MATCH (a) WHERE id(a) = $s[i] "
          "MATCH (b) WHERE id(b) = $t[i] "
          "CREATE (a)-[:MOVE {label: $labels[$c[i]], optimal: $o[i]}]->(b)")

_GAME = ("MATCH (s:Position) WHERE s.game = $props.id AND s.key = $props.start_key "
         "CREATE (g:Game) SET g = $props, g.complete = true "
         "CREATE (g)-[:START]->(s) RETURN count(g)")

_TAKE_LOCK = "CREATE (:LoadLock {game: $game})"
_DROP_LOCK = "MATCH (l:LoadLock {game: $game}) DELETE l"


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
         workers: int = DEFAULT_WORKERS, on_wait: Callable[[str], None] | None = None) -> LoadReport:
    """Replace the game's graph in Neo4j with `solved`. O(V + E) rows in batches of `batch_size`.

    `graph_id` overrides the Game id (tests use it to stay apart from real
    loads). `workers` batches are written concurrently (threads, one session
    each): the server does the work, so this helps when it has idle cores.
    `after_batch(phase, rows_done)` is called after each committed batch.
    While another load of the same game runs, this one waits for it; after
    LOCK_NOTICE_SECONDS it calls `on_wait(message)` once (the CLI prints it).
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
        phases["schema"] = time.perf_counter() - clock
        clock = time.perf_counter()
        with game_lock(driver, database, game_id, on_wait) as lock:
            phases["lock"] = time.perf_counter() - clock
            clock = time.perf_counter()
            delete_game(session, game_id)
            phases["delete"] = time.perf_counter() - clock

            total = solved.graph.num_positions + solved.graph.num_moves
            with progress.bar(f"loading {solved.game.display_name}", total=total, unit="row") as bar:
                clock = time.perf_counter()
                node_ids = _create_positions(driver, database, game_id, columns, batch_size, workers, bar, after_batch)
                phases["positions"] = time.perf_counter() - clock
                clock = time.perf_counter()
                _create_moves(driver, database, node_ids, moves, batch_size, workers, bar, after_batch)
                phases["moves"] = time.perf_counter() - clock

            clock = time.perf_counter()
            positions, relationships = count_game(session, game_id)
            if (positions, relationships) != (solved.graph.num_positions, solved.graph.num_moves):
                raise LoadMismatch(f"Neo4j holds {positions:,} positions and {relationships:,} moves of {game_id} "
                                   f"after the load, expected {solved.graph.num_positions:,} and "
                                   f"{solved.graph.num_moves:,}; the game stays incomplete, load it again")
            # In the lock's own transaction: the game is complete only if the lock held throughout.
            written = lock.run(_GAME, props=game).single()[0]
            if written != 1:
                raise LoadMismatch(f"could not write the Game node of {game_id}: start position {game['start_key']!r} missing")
            lock.run(_DROP_LOCK, game=game_id).consume()
            lock.commit()
            phases["check"] = time.perf_counter() - clock
    reduced = solved.graph.symmetry or not solved.game.has_symmetry()
    return LoadReport(game_id, solved.graph.num_positions, solved.graph.num_moves, time.perf_counter() - began,
                      phases, name=solved.game.display_name + ("" if reduced else " [nosym]"))


def advice(positions: int, moves: int, spec: str) -> str | None:
    """Which path suits a game of this size, when it is not the plain Bolt load; None when it is."""
    from explorer.commands import shell_hint

    bulk = shell_hint("load", "--bulk", spec)
    if moves > WHOLE_GRAPH_MOVES:
        return (f"note: {spec} has {moves:,} moves, more than Neo4j on a machine like this should hold whole "
                f"(over {WHOLE_GRAPH_MOVES:,}); the value file of the implicit mode answers any position of it, and "
                f"Neo4j is for the parts people browse (docs/neo4j-loading.md). `{bulk}` still loads it whole, "
                "far faster than this Bolt load")
    if moves > BULK_ADVICE_MOVES:
        return (f"note: {spec} has {moves:,} moves; a Bolt load writes about 100,000 a second at best, "
                f"`{bulk}` about ten times that (it rebuilds the database offline and asks first; "
                "docs/neo4j-loading.md)")
    return None


@contextmanager
def game_lock(driver: neo4j.Driver, database: str, game_id: str,
              on_wait: Callable[[str], None] | None = None) -> Iterator[neo4j.Transaction]:
    """Hold the load lock of one game (see the module doc) and yield its open transaction.

    The caller may write in that transaction and commit it, after running
    ``_DROP_LOCK``; otherwise it is rolled back on leaving, which frees the lock.
    Waits as long as another holder runs; `on_wait` hears about it once.
    """
    session = driver.session(database=database)
    taken = threading.Event()
    outcome: dict[str, Any] = {}

    def take() -> None:  # blocks in the server until the lock is free
        try:
            tx = session.begin_transaction(timeout=0)  # 0: no server-side timeout, however long the load
            tx.run(_TAKE_LOCK, game=game_id).consume()
            outcome["tx"] = tx
        except BaseException as error:  # handed to the waiting thread
            outcome["error"] = error
        finally:
            taken.set()

    # A daemon thread, so that Ctrl-C while waiting ends the process instead of waiting on.
    threading.Thread(target=take, name=f"lock {game_id}", daemon=True).start()
    try:
        if not taken.wait(LOCK_NOTICE_SECONDS) and on_wait:
            on_wait(f"another load of {game_id} is running; waiting for it to finish")
        taken.wait()
        if "error" in outcome:
            raise outcome["error"]
        tx = outcome["tx"]
        try:
            yield tx
        finally:
            if not tx.closed():
                tx.rollback()
    finally:
        if taken.is_set():
            session.close()


def ensure_schema(session: neo4j.Session) -> None:
    """Create the constraints and indexes that are missing and wait until they are online.

    Only missing ones are created: even an ``IF NOT EXISTS`` that does nothing
    would queue for the schema lock behind every running load (each holds a
    shared one), so a second load would wait for the first to end.
    """
    existing = {record["name"] for record in session.run("SHOW INDEXES YIELD name")}
    for statement in SCHEMA:
        if _schema_name(statement) not in existing:
            session.run(statement).consume()
    session.run("CALL db.awaitIndexes(300)").consume()


def _schema_name(statement: str) -> str:
    """The name a SCHEMA statement gives its constraint or index ("CREATE CONSTRAINT name IF ...")."""
    return statement.split()[2]


def delete_game(session: neo4j.Session, game_id: str, batch_size: int = DELETE_BATCH_SIZE) -> None:
    """Remove one game (complete or not): its Game node first, so readers see it gone at once,
    then its MOVE relationships, then its positions, in auto-committed batches. O(V + E).

    Relationships go first so that each transaction holds `batch_size` plain
    deletions instead of nodes with their whole neighbourhoods.
    """
    session.run("MATCH (g:Game {id: $game}) DETACH DELETE g", game=game_id).consume()
    session.run(f"{_GAME_POSITIONS} MATCH (p)-[m:MOVE]->() CALL (m) {{ DELETE m }} IN TRANSACTIONS OF $batch ROWS",
                game=game_id, batch=batch_size).consume()
    session.run(f"{_GAME_POSITIONS} CALL (p) {{ DETACH DELETE p }} IN TRANSACTIONS OF $batch ROWS",
                game=game_id, batch=batch_size).consume()


def count_game(session: neo4j.Session, game_id: str) -> tuple[int, int]:
    """(positions, outgoing MOVE relationships) of a game in Neo4j; O(V) with the degree store."""
    record = session.run(f"{_GAME_POSITIONS} RETURN count(p) AS positions, "
                         "sum(COUNT { (p)-[:MOVE]->() }) AS moves", game=game_id).single()
    return int(record["positions"]), int(record["moves"] or 0)


def _create_positions(driver, database, game_id, columns, batch_size, workers, bar, after_batch) -> np.ndarray:
    """Create the Position nodes; returns their Neo4j node ids, indexed by node id. O(V)."""
    names = list(columns)
    properties = ", ".join(f"`{name}`: r[{i}]" for i, name in enumerate(names))
    query = f"UNWIND $rows AS r CREATE (p:Position {{game: $game, {properties}}}) RETURN id(p)"
    rows = list(zip(*columns.values()))
    node_ids: list[int] = []
    batches = ((query, {"game": game_id, "rows": rows[start:start + batch_size]}, True)
               for start in range(0, len(rows), batch_size))
    for parameters, ids in _write_batches(driver, database, batches, workers):
        if len(ids) != len(parameters["rows"]):
            raise LoadMismatch(f"Neo4j created {len(ids)} of {len(parameters['rows'])} positions in one batch")
        node_ids.extend(ids)
        bar.update(len(ids))
        if after_batch:
            after_batch("positions", len(node_ids))
    return np.array(node_ids, dtype=np.int64)


def _create_moves(driver, database, node_ids, moves, batch_size, workers, bar, after_batch) -> None:
    """Create the MOVE relationships from parallel arrays of primitives. O(E)."""
    sources, targets = node_ids[moves["source"]], node_ids[moves["target"]]
    codes: dict[str, int] = {}
    label_codes = np.fromiter((codes.setdefault(label, len(codes)) for label in moves["label"]),
                              dtype=np.int64, count=len(moves["label"]))
    labels, optimal = list(codes), np.asarray(moves["optimal"], dtype=bool)

    def batches():  # built lazily: only the batches in flight are held in memory
        for start in range(0, len(sources), batch_size):
            part = slice(start, start + batch_size)
            yield _MOVES, {"s": sources[part].tolist(), "t": targets[part].tolist(), "labels": labels,
                           "c": label_codes[part].tolist(), "o": optimal[part].tolist()}, False

    done = 0
    for parameters, _ in _write_batches(driver, database, batches(), workers):
        done += len(parameters["s"])
        bar.update(len(parameters["s"]))
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
    # id() is deprecated in Cypher 5: the server would say so on every batch (see the module doc).
    with driver.session(database=database, notifications_min_severity="OFF") as session:
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
