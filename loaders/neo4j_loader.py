"""Load a solved game graph into Neo4j over Bolt: fast, idempotent, cheap to repeat, safe to interrupt and to run
twice at once.

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
Loading a game again touches that game only; other games are never touched.

Why a reload is no slower than a load: deleting a relationship costs Neo4j
about what creating it did, so a reload that deletes and loads costs two loads.
The Game node carries two fingerprints of what was written (`fingerprints`:
the structure, i.e. keys, start and moves; and the whole content). Under the
lock, `choose_path` compares them with the graph in hand: the same content on
a complete game is only counted (**unchanged**: nothing written, the lock
rolled back); the same structure with other properties, an incomplete copy, or
one without fingerprints is **updated** in place (`_update_in_place`: the Game
node is first set ``complete: false`` and committed, so readers treat the game
as absent exactly as during a load; the game is read back in chunks and
checked position by position and move by move; only what differs is written,
by id; then the counts are checked and the Game node rewritten complete in the
lock's transaction). Anything else, or a read-back that finds other positions
or moves, or ``replace=True``, is **replaced**: delete, then load. A reload
killed at any point leaves the game incomplete, and the next load repairs it.
docs/neo4j-loading.md ("Reloading") has the measurements.

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

import hashlib
import json
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import numpy as np

import neo4j
from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

from explorer.core import progress
from explorer.core.errors import GameGraphError, Neo4jUnavailable
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

# An update in place keeps the Game node (and what links to it) and rewrites its properties.
_REWRITE_GAME = ("MATCH (g:Game {id: $props.id}) "
                 "MATCH (s:Position) WHERE s.game = $props.id AND s.key = $props.start_key "
                 "SET g = $props, g.complete = true MERGE (g)-[:START]->(s) RETURN count(g)")
_MARK_INCOMPLETE = "MATCH (g:Game {id: $game}) SET g.complete = false"

# One chunk of an update's read-back: ids and properties of some positions, then their outgoing moves.
# collect() skips nulls, so every collected expression is non-null (label codes -1 and optimal -1 for
# what the graph cannot hold), keeping the lists parallel.
_READ_POSITIONS = ("UNWIND $ids AS pid MATCH (p) WHERE id(p) = pid "
                   "RETURN collect(pid) AS ids, collect(properties(p)) AS properties")
_READ_MOVES = ("UNWIND $ids AS pid MATCH (p) WHERE id(p) = pid MATCH (p)-[m:MOVE]->(q) "
               "RETURN collect(id(m)) AS m, collect(pid) AS s, collect(id(q)) AS t, "
               "collect(coalesce($codes[m.label], -1)) AS c, "
               "collect(CASE m.optimal WHEN true THEN 1 WHEN false THEN 0 ELSE -1 END) AS o")
# $ids: node ids, $props: the properties to change on each (parallel arrays; null removes one).
_SET_POSITIONS = ("UNWIND range(0, size($ids) - 1) AS i "
                  "MATCH (p) WHERE id(p) = $ids[i] SET p += $props[i] RETURN count(p)")
# $r: relationship ids, $o: their new optimal flags (parallel arrays).
_SET_OPTIMAL = ("UNWIND range(0, size($r) - 1) AS i "
                "MATCH ()-[m]->() WHERE id(m) = $r[i] SET m.optimal = $o[i] RETURN count(m)")

# Game properties holding the fingerprints of what the load wrote (see `fingerprints`).
STRUCTURE, CONTENT = "structure_fingerprint", "content_fingerprint"
FINGERPRINT_FORMAT = 1  # bump when `fingerprints` hashes anything differently

_TAKE_LOCK = "CREATE (:LoadLock {game: $game})"
_DROP_LOCK = "MATCH (l:LoadLock {game: $game}) DELETE l"


@dataclass(frozen=True)
class LoadReport:
    game: str                 # the graph id loaded
    positions: int
    moves: int
    seconds: float
    phases: dict[str, float]  # seconds per phase: prepare, schema, lock, check stored, then read + write (an
                              # update) or delete + positions + moves (a load), check
    name: str = ""            # how people name the game (chopsticks:standard, [nosym] when not reduced)
    path: str = "loaded"      # unchanged, updated, loaded or replaced (see `load`)
    reason: str = ""          # why that path
    changed_positions: int = 0  # positions and moves rewritten by an update in place
    changed_moves: int = 0

    @property
    def rows(self) -> int:
        """Positions + moves + the Game node."""
        return self.positions + self.moves + 1

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else float("inf")

    def __str__(self) -> str:
        name = self.name or self.game
        if self.path == "unchanged":
            return (f"{name} already loaded and unchanged (verified {self.positions:,} positions, "
                    f"{self.moves:,} moves) in {self.seconds:.2f} s")
        if self.path == "updated":
            return (f"updated {name} in place: {self.changed_positions:,} of {self.positions:,} positions and "
                    f"{self.changed_moves:,} of {self.moves:,} moves changed ({self.reason}) in {self.seconds:.2f} s")
        line = (f"{self.rows:,} rows ({self.positions:,} positions, {self.moves:,} moves) in {self.seconds:.2f} s, "
                f"{self.rows_per_second:,.0f} rows/s")
        if self.path == "replaced":
            return f"replaced {name} ({self.reason}): {line}"
        return f"loaded {name}: {line}"


class LoadMismatch(GameGraphError):
    """Neo4j does not hold what was loaded (raised as a GameGraphError so the CLI prints one line)."""


def load(solved: SolvedGraph, driver: neo4j.Driver, database: str, batch_size: int = DEFAULT_BATCH_SIZE,
         graph_id: str | None = None, after_batch: Callable[[str, int], None] | None = None,
         workers: int = DEFAULT_WORKERS, on_wait: Callable[[str], None] | None = None,
         replace: bool = False) -> LoadReport:
    """Make Neo4j hold `solved` as the game's graph, by the cheapest safe path (the module doc). O(V + E).

    The path taken is the report's `path`: ``unchanged`` (counts checked, nothing
    written), ``updated`` (changed properties rewritten in place), ``loaded`` (a
    fresh load, leftovers of an interrupted one deleted first) or ``replaced``
    (the old copy deleted, then a full load; always so with `replace`).
    `graph_id` overrides the Game id (tests use it to stay apart from real
    loads). `workers` batches are written (or read) concurrently (threads, one
    session each): the server does the work, so this helps when it has idle
    cores. `after_batch(phase, rows_done)` is called after each committed batch
    (phases ``positions`` and ``moves`` of a load, ``read`` and ``update`` of an
    update in place). While another load of the same game runs, this one waits
    for it; after LOCK_NOTICE_SECONDS it calls `on_wait(message)` once (the CLI
    prints it). Raises Neo4jUnavailable when the server fails mid-way (the next
    load repairs the game) and LoadMismatch when the counts in Neo4j differ from the graph.
    """
    if batch_size < 1 or workers < 1:
        raise GameGraphError(f"batch size and workers must be at least 1, not {batch_size} and {workers}")
    game_id = graph_id or solved.graph.graph_id
    expected = (solved.graph.num_positions, solved.graph.num_moves)
    phases: dict[str, float] = {}
    began = time.perf_counter()
    columns = mirror.position_columns(solved)  # prepared first: nothing is deleted unless the rows exist
    moves = mirror.move_columns(solved)
    labels, label_codes = encode_labels(moves["label"])
    game = mirror.game_properties(solved)
    game["id"] = game_id
    game[STRUCTURE], game[CONTENT] = fingerprints(columns, moves, labels, label_codes, game)
    phases["prepare"] = time.perf_counter() - began
    changed = (0, 0)
    with _errors(database), driver.session(database=database) as session:
        clock = time.perf_counter()
        ensure_schema(session)
        phases["schema"] = time.perf_counter() - clock
        clock = time.perf_counter()
        with game_lock(driver, database, game_id, on_wait) as lock:
            phases["lock"] = time.perf_counter() - clock
            clock = time.perf_counter()
            stored = _stored_game(session, game_id)
            path, reason = choose_path(stored, game, replace)
            if path == "unchanged":
                if count_game(session, game_id) == expected:
                    phases["check"] = time.perf_counter() - clock
                    lock.rollback()  # frees the lock; nothing was written
                    return _report(solved, game_id, path, reason, changed, began, phases)
                path, reason = "replaced", "its counts in Neo4j differ from its Game node"
            phases["check stored"] = time.perf_counter() - clock
            if path == "updated":
                clock = time.perf_counter()
                session.run(_MARK_INCOMPLETE, game=game_id).consume()  # readers treat it as absent from here on
                with progress.bar(f"updating {solved.game.display_name}", total=sum(expected), unit="row") as bar:
                    found = _update_in_place(driver, database, game_id, columns, moves, label_codes, labels,
                                             batch_size, workers, bar, after_batch, phases)
                if found is None:
                    path, reason = "replaced", "its positions or moves in Neo4j differ from the graph's"
                else:
                    changed = found
                phases["update"] = time.perf_counter() - clock
            if path in ("loaded", "replaced"):
                clock = time.perf_counter()
                delete_game(session, game_id)
                phases["delete"] = time.perf_counter() - clock
                with progress.bar(f"loading {solved.game.display_name}", total=sum(expected), unit="row") as bar:
                    clock = time.perf_counter()
                    node_ids = _create_positions(driver, database, game_id, columns, batch_size, workers, bar,
                                                 after_batch)
                    phases["positions"] = time.perf_counter() - clock
                    clock = time.perf_counter()
                    _create_moves(driver, database, node_ids, moves, labels, label_codes, batch_size, workers, bar,
                                  after_batch)
                    phases["moves"] = time.perf_counter() - clock

            clock = time.perf_counter()
            positions, relationships = count_game(session, game_id)
            if (positions, relationships) != expected:
                raise LoadMismatch(f"Neo4j holds {positions:,} positions and {relationships:,} moves of {game_id} "
                                   f"after the load, expected {expected[0]:,} and {expected[1]:,}; "
                                   "the game stays incomplete, load it again")
            # In the lock's own transaction: the game is complete only if the lock held throughout.
            written = lock.run(_REWRITE_GAME if path == "updated" else _GAME, props=game).single()[0]
            if written != 1:
                raise LoadMismatch(f"could not write the Game node of {game_id}: start position {game['start_key']!r} missing")
            lock.run(_DROP_LOCK, game=game_id).consume()
            lock.commit()
            phases["check"] = time.perf_counter() - clock
    return _report(solved, game_id, path, reason, changed, began, phases)


def _report(solved, game_id, path, reason, changed, began, phases) -> LoadReport:
    reduced = solved.graph.symmetry or not solved.game.has_symmetry()
    return LoadReport(game_id, solved.graph.num_positions, solved.graph.num_moves, time.perf_counter() - began,
                      phases, name=solved.game.display_name + ("" if reduced else " [nosym]"), path=path,
                      reason=reason, changed_positions=changed[0], changed_moves=changed[1])


def fingerprints(columns: dict[str, list[Any]], moves: dict[str, Any], labels: list[str], label_codes: np.ndarray,
                 game: dict[str, Any], content_json: Iterable[bytes] | None = None) -> tuple[str, str]:
    """(structure, content) fingerprints of what a load writes. O(V + E), hashing only.

    structure: the position keys in node order, the start key and every move as
    (source node, target node, label). content: the structure plus every other
    Position property, every MOVE's optimal flag and the Game properties but
    `id`, `solved_at` and the fingerprints. Generation is deterministic, so an
    unchanged game has unchanged fingerprints; a graph whose nodes merely came
    out in another order counts as a structural change (the safe side).
    `content_json`, when given, is the JSON of the Position properties but
    `key` in pieces, exactly `_json`'s bytes of them (loaders.neo4j_import writes
    it from arrays); `columns` then needs only `key`.
    """
    structure = hashlib.blake2b(f"gamegraph load fingerprint {FINGERPRINT_FORMAT}".encode(), digest_size=16)
    structure.update(_json([columns["key"], game["start_key"], labels]))
    for array in (moves["source"], moves["target"], label_codes):
        structure.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    content = structure.copy()
    if content_json is None:
        content_json = [_json({name: column for name, column in columns.items() if name != "key"})]
    for piece in content_json:  # hashing pieces in turn is hashing them joined
        content.update(piece)
    content.update(np.asarray(moves["optimal"], dtype=bool).tobytes())
    content.update(_json({name: value for name, value in game.items()
                          if name not in ("id", "solved_at", STRUCTURE, CONTENT)}))
    return structure.hexdigest(), content.hexdigest()


def _json(value: Any) -> bytes:
    # JSON keeps true apart from 1 and null apart from absent, which Neo4j also does.
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr).encode()


def choose_path(stored: dict[str, Any] | None, game: dict[str, Any], replace: bool = False) -> tuple[str, str]:
    """(path, why) for loading `game` (Game properties with fingerprints) over `stored` (the Game node in Neo4j,
    complete or not, or None). ``unchanged`` still needs the counts checked; ``updated`` needs the read-back
    to confirm the structure, else it becomes ``replaced``."""
    if replace:
        return "replaced", "a full replacement was asked for"
    if stored is None:
        return "loaded", "it was not loaded"
    if stored.get(STRUCTURE) is not None and stored.get(STRUCTURE) != game[STRUCTURE]:
        return "replaced", "its positions or moves changed"
    if stored.get("start_key") != game["start_key"]:
        return "replaced", "its start position changed"
    if stored.get("complete") is True and stored.get(CONTENT) == game[CONTENT]:
        return "unchanged", "the same positions, moves and properties are loaded"
    if stored.get("complete") is not True:
        return "updated", "its copy in Neo4j was incomplete"
    if stored.get(STRUCTURE) is None:
        return "updated", "its copy in Neo4j has no fingerprint"
    return "updated", "only properties changed"


def _stored_game(session: neo4j.Session, game_id: str) -> dict[str, Any] | None:
    record = session.run("MATCH (g:Game {id: $game}) RETURN properties(g) AS g", game=game_id).single()
    return record["g"] if record else None


def encode_labels(labels: list[str]) -> tuple[list[str], np.ndarray]:
    """(distinct labels in first-seen order, each move's code into them). O(E)."""
    codes: dict[str, int] = {}
    label_codes = np.fromiter((codes.setdefault(label, len(codes)) for label in labels), dtype=np.int64,
                              count=len(labels))
    return list(codes), label_codes


def move_labels(solved: SolvedGraph) -> tuple[list[str], np.ndarray]:
    """`encode_labels` of every move's label, straight from the graph's label codes: the same
    (labels, codes), with one Python call per distinct label code instead of per move. O(E) numpy."""
    graph = solved.graph
    codes = np.asarray(graph.edge_label, dtype=np.int64)
    if len(codes) == 0:
        return [], np.zeros(0, dtype=np.int64)
    present, inverse = _distinct(codes)
    first = _first_positions(codes, present)
    names = [graph.label(int(edge)) for edge in first]
    # Distinct names in the order their first move comes (two codes may share a name).
    first_of: dict[str, int] = {}
    for name, edge in zip(names, first):
        first_of[name] = min(edge, first_of.get(name, edge))
    labels = sorted(first_of, key=first_of.__getitem__)
    rank = {name: code for code, name in enumerate(labels)}
    code_of = np.array([rank[name] for name in names], dtype=np.int64)
    return labels, code_of[inverse]


def _distinct(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct codes ascending, each element's index into them). A table over the codes' range when
    it is small (O(E), no sort: moves have few distinct labels); else the distinct codes of the first
    moves, completed by those the binary search does not find (O(E log labels), no sort of all E
    codes: about a third faster than np.unique on Chopsticks' labels), or np.unique when they are many."""
    low, high = int(codes.min()), int(codes.max())
    if high - low < 1 << 20:
        present = np.flatnonzero(np.bincount(codes - low))
        table = np.zeros(high - low + 1, dtype=np.int64)
        table[present] = np.arange(len(present))
        return present + low, table[codes - low]
    present = np.unique(codes[:1 << 16])
    while len(present) <= 1 << 16:
        at = np.minimum(np.searchsorted(present, codes), len(present) - 1)
        missing = present[at] != codes
        if not missing.any():
            return present, at
        present = np.union1d(present, codes[missing])
    present, inverse = np.unique(codes, return_inverse=True)
    return present, inverse.reshape(-1)


def _first_positions(codes: np.ndarray, present: np.ndarray, block: int = 1 << 16) -> list[int]:
    """Where each of the `present` codes first occurs, searching block by block (most labels occur early)."""
    wanted, first = set(present.tolist()), {}
    for start in range(0, len(codes), block):
        found, at = np.unique(codes[start:start + block], return_index=True)
        for code, index in zip(found.tolist(), at.tolist()):
            if code in wanted:
                first[code] = start + index
                wanted.discard(code)
        if not wanted:
            break
    return [first[code] for code in present.tolist()]


def advice(positions: int, moves: int, spec: str) -> str | None:
    """Which path suits a game of this size, when it is not the plain Bolt load; None when it is."""
    from explorer.core.errors import shell_hint

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


def _create_moves(driver, database, node_ids, moves, labels, label_codes, batch_size, workers, bar,
                  after_batch) -> None:
    """Create the MOVE relationships from parallel arrays of primitives. O(E)."""
    sources, targets = node_ids[moves["source"]], node_ids[moves["target"]]
    optimal = np.asarray(moves["optimal"], dtype=bool)

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


def _update_in_place(driver, database, game_id, columns, moves, label_codes, labels, batch_size, workers, bar,
                     after_batch, phases) -> tuple[int, int] | None:
    """Read the game back, check it has exactly the graph's positions and moves, rewrite what differs.

    Returns (positions rewritten, moves rewritten), or None, having written
    nothing, when Neo4j's copy has other positions or moves (the caller then
    replaces it). Positions are matched by key, moves by (source key, target
    key, label) after sorting both sides; each changed position gets all its
    properties (``SET p = {...}``, which also drops stale ones), each changed
    move its optimal flag, by node or relationship id in UNWIND batches of
    parallel arrays. O(V + E) rows read, O(changes) rows written, O(V + E) memory.
    """
    clock = time.perf_counter()
    keys = columns["key"]
    V, E = len(keys), len(label_codes)
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        record = session.run(f"{_GAME_POSITIONS} RETURN collect(id(p)) AS ids, collect(p.key) AS keys",
                             game=game_id).single()
    if len(record["ids"]) != V:
        return None
    index = {key: i for i, key in enumerate(keys)}
    node_of = np.fromiter((index.get(key, -1) for key in record["keys"]), dtype=np.int64, count=V)
    if (node_of < 0).any() or np.unique(node_of).size != V:
        return None
    neo_ids = np.asarray(record["ids"], dtype=np.int64)
    order = np.argsort(neo_ids)
    sorted_ids, sorted_nodes = neo_ids[order], node_of[order]
    node_ids = np.empty(V, dtype=np.int64)  # the Neo4j node id of each graph node
    node_ids[node_of] = neo_ids

    def graph_nodes(ids: list[int]) -> np.ndarray:  # graph node of each Neo4j node id, -1 when not this game's
        ids_ = np.asarray(ids, dtype=np.int64)
        at = np.minimum(np.searchsorted(sorted_ids, ids_), V - 1)
        return np.where(sorted_ids[at] == ids_, sorted_nodes[at], -1)

    codes = {label: code for code, label in enumerate(labels)}
    chunk = max(1, batch_size // 8)  # positions per read: their moves (8 a position in Chopsticks) fill a batch
    batches = ((query, {"ids": sorted_ids[start:start + chunk].tolist(), "codes": codes}, "record")
               for start in range(0, V, chunk) for query in (_READ_POSITIONS, _READ_MOVES))
    names = list(columns)
    rows = list(zip(*columns.values()))
    changed_nodes: dict[int, dict[str, Any]] = {}  # graph node -> the properties to set
    parts: dict[str, list] = {"m": [], "s": [], "t": [], "c": [], "o": []}
    done = 0
    for _, found in _run_batches(driver, database, batches, workers, write=False):
        if "properties" in found:
            for graph_node, stored in zip(graph_nodes(found["ids"]).tolist(), found["properties"]):
                if graph_node < 0:
                    return None
                stored.pop("game", None)
                wanted = {name: value for name, value in zip(names, rows[graph_node]) if value is not None}
                if stored != wanted or any(type(stored[name]) is not type(value) for name, value in wanted.items()):
                    # Only what differs is sent (None removes a property): fewer index entries rewritten.
                    changes = {name: value for name, value in wanted.items()
                               if name not in stored or stored[name] != value or type(stored[name]) is not type(value)}
                    changes.update((name, None) for name in stored.keys() - wanted.keys())
                    changed_nodes[graph_node] = changes
            done += len(found["ids"])
            bar.update(len(found["ids"]))
            if after_batch:
                after_batch("read", done)
        else:
            for name in parts:
                parts[name].append(np.asarray(found[name], dtype=np.int64))
            bar.update(len(found["m"]))
    stored_moves = {name: np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)
                    for name, arrays in parts.items()}
    if len(stored_moves["m"]) != E:
        return None
    sources, targets = graph_nodes(stored_moves["s"]), graph_nodes(stored_moves["t"])
    if E and ((sources < 0).any() or (targets < 0).any() or (stored_moves["c"] < 0).any()):
        return None
    new_order = np.lexsort((label_codes, moves["target"], moves["source"]))
    stored_order = np.lexsort((stored_moves["c"], targets, sources))
    for new, stored in ((moves["source"], sources), (moves["target"], targets), (label_codes, stored_moves["c"])):
        if not np.array_equal(np.asarray(new, dtype=np.int64)[new_order], stored[stored_order]):
            return None
    optimal = np.asarray(moves["optimal"], dtype=np.int64)[new_order]
    differs = optimal != stored_moves["o"][stored_order]
    changed_relationships = stored_moves["m"][stored_order][differs]
    changed_optimal = optimal[differs].astype(bool)
    phases["read"] = time.perf_counter() - clock

    clock = time.perf_counter()
    nodes = sorted(changed_nodes)

    def writes():
        for start in range(0, len(nodes), batch_size):
            part = nodes[start:start + batch_size]
            yield _SET_POSITIONS, {"ids": node_ids[part].tolist(), "props": [changed_nodes[n] for n in part]}, True
        for start in range(0, len(changed_relationships), batch_size):
            part = slice(start, start + batch_size)
            yield _SET_OPTIMAL, {"r": changed_relationships[part].tolist(), "o": changed_optimal[part].tolist()}, True

    written = 0
    for parameters, counted in _run_batches(driver, database, writes(), workers):
        expected = len(parameters.get("ids", parameters.get("r", [])))
        if counted != [expected]:
            raise LoadMismatch(f"Neo4j rewrote {counted[0] if counted else 0} of {expected} rows of {game_id} "
                               "in one batch; the game stays incomplete, load it again")
        written += expected
        if after_batch:
            after_batch("update", written)
    phases["write"] = time.perf_counter() - clock
    return len(changed_nodes), len(changed_relationships)


def _write_batches(driver, database, batches, workers) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """`_run_batches` of writes (the name the benchmark's baseline uses)."""
    return _run_batches(driver, database, batches, workers)


def _run_batches(driver, database, batches, workers, write: bool = True) -> Iterator[tuple[dict[str, Any], Any]]:
    """Run (query, parameters, want) batches, each in its own managed write (or read) transaction,
    on `workers` threads; yield (parameters, result) in submission order as they commit.
    `want`: True for the first column's values, "record" for the single record as a dict, False for nothing.

    At most 2 * workers batches are in flight, so memory stays O(workers * batch).
    Deadlocks between concurrent batches are transient errors that execute_write retries.
    """
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="neo4j-load")
    pending: deque = deque()
    try:
        for query, parameters, want_values in batches:
            pending.append((parameters, pool.submit(_write, driver, database, query, parameters, want_values, write)))
            while len(pending) >= 2 * workers:
                parameters, future = pending.popleft()
                yield parameters, future.result()
        while pending:
            parameters, future = pending.popleft()
            yield parameters, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _write(driver, database: str, query: str, parameters: dict[str, Any], want_values: bool | str,
           write: bool = True) -> Any:
    # id() is deprecated in Cypher 5: the server would say so on every batch (see the module doc).
    with driver.session(database=database, notifications_min_severity="OFF") as session:
        execute = session.execute_write if write else session.execute_read
        return execute(_run, query, parameters, want_values)


def _run(tx: neo4j.ManagedTransaction, query: str, parameters: dict[str, Any], want_values: bool | str) -> Any:
    result = tx.run(query, parameters)
    if want_values == "record":
        return result.single(strict=True).data()
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
    """key -> every Position property but `game` (None where Neo4j stores nothing: remoteness of draws,
    the draw-level properties of the rest). O(V), streamed."""
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        result = session.run(f"{_GAME_POSITIONS} RETURN properties(p) AS p", game=game_id)
        positions = {}
        for record in result:
            properties = record["p"]
            properties.pop("game", None)
            for name in ("remoteness", "draw_class", "draw_level", "draw_remoteness"):
                properties.setdefault(name, None)
            positions[properties["key"]] = properties
        return positions


def read_moves(driver: neo4j.Driver, database: str, game_id: str) -> dict[tuple[str, str], dict[str, Any]]:
    """(from key, to key) -> {label, optimal} of every MOVE of a game. O(E), streamed."""
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        result = session.run(f"{_GAME_POSITIONS} MATCH (p)-[m:MOVE]->(q) "
                             "RETURN p.key AS a, q.key AS b, m.label AS label, m.optimal AS optimal", game=game_id)
        return {(r["a"], r["b"]): {"label": r["label"], "optimal": r["optimal"]} for r in result}


def load_variants(rows: list[dict[str, Any]], game_name: str) -> int:
    """One `Variant` node per rule set (MERGE on its spec, so reruns update), linked by
    VARIANT_OF to its `Game` node when that game is loaded (the rows of
    explorer.analysis.survey). Returns the nodes written."""
    from loaders.settings import Neo4jSettings, open_driver

    settings_ = Neo4jSettings.from_env()
    with open_driver(settings_) as driver:
        driver.execute_query(
            "UNWIND $rows AS row MERGE (v:Variant {spec: row.spec}) SET v += row, v.game = $game "
            "WITH v OPTIONAL MATCH (g:Game {id: v.spec}) "
            "FOREACH (_ IN CASE WHEN g IS NULL THEN [] ELSE [1] END | MERGE (v)-[:VARIANT_OF]->(g))",
            rows=[{k: v for k, v in row.items() if v is not None} for row in rows], game=game_name,
            database_=settings_.database)
    return len(rows)
