"""`gamegraph load --bulk`: rebuild the embedded server's database offline with Neo4j's own importer.

Why: the importer writes store files directly, tens of times faster than any
transactional load (bench/README.md), but Community Edition imports only into
an empty database. So a bulk load rebuilds the whole database with every game
that should be in it: each game that is completely loaded now (regenerated
from its spec, under its stored id) plus the new one (replacing an older copy
of itself). Anything else in the database (incomplete leftovers, nodes that
gamegraph did not write) is dropped, and `describe` says so before anything
is replaced; the command asks, or needs --yes.

How, with the server down only for a restart:
1. the CSV files of all games go to ``<neo4j dir>/bulk/`` (loaders.neo4j_import),
2. the importer (loaders.neo4j_admin) writes a new database ``bulk-import``
   beside the live one, while the server still serves the old one,
3. the database is re-read: if any game was loaded or removed meanwhile,
   nothing is replaced (run it again),
4. the server stops; the new store and transaction folders take the place of
   the old ones, which are kept as ``*.replaced`` until the end;
5. the server starts on the same address, the schema is created (the
   importer makes none) and every game's counts are checked; then the old
   folders go. If the server does not come up on the new store, the old one
   is put back and started again.
Time O(V + E) over all games; memory O(V + E) of the largest game in Python,
and the importer's bounded heap and off-heap memory. The importer's threads and
off-heap memory are chosen from the machine (loaders.settings.import_threads,
import_memory; docs/neo4j-loading.md has the measurements behind them).
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from explorer.core.errors import GameGraphError, LauncherError
from explorer.games import parse_spec
from explorer.graph import DEFAULT_MAX_POSITIONS
from explorer.solved import SolvedGraph, load_or_build
from loaders import neo4j_admin, neo4j_import, neo4j_loader, neo4j_server
from loaders.settings import Neo4jSettings, neo4j_dir, open_driver

IMPORT_DATABASE = "bulk-import"  # the importer's target, beside the live database until the swap


@dataclass
class BulkGame:
    game_id: str
    origin: str                       # "new", "replaces the loaded copy", "kept, regenerated from its spec"
    positions: int
    moves: int
    solved: SolvedGraph | None = None  # None until `regenerate` (kept games); the CSV files are written from it
    spec: str = ""
    symmetry: bool = True


@dataclass
class BulkPlan:
    database: str
    data_dir: Path
    games: list[BulkGame]
    loaded: list[dict]              # the Game nodes of the complete games now in the database
    nodes_now: int
    relationships_now: int
    uri: str
    snapshot: tuple = field(default=())  # what step 3 compares against

    @property
    def nodes_after(self) -> int:
        return sum(g.positions + 1 for g in self.games)

    @property
    def relationships_after(self) -> int:
        return sum(g.moves + 1 for g in self.games)

    def summary(self) -> str:
        """One line: what would be replaced (the refusal without a terminal uses it)."""
        return (f"load --bulk replaces the whole Neo4j database {self.database!r} ({self.nodes_now:,} nodes, "
                f"{self.relationships_now:,} relationships, {len(self.loaded)} complete games) with "
                f"{len(self.games)} games ({self.nodes_after:,} nodes, {self.relationships_after:,} relationships)")


@dataclass(frozen=True)
class BulkReport:
    games: int
    positions: int
    moves: int
    seconds: float
    phases: dict[str, float]  # files, import, swap (stop + move + start), schema, check

    @property
    def relationships_per_second(self) -> float:
        """MOVE relationships per second of the importer's run (its JVM start included)."""
        return self.moves / self.phases["import"] if self.phases.get("import") else float("inf")

    def __str__(self) -> str:
        phases = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.phases.items())
        return (f"rebuilt Neo4j with {self.games} games: {self.positions:,} positions, {self.moves:,} moves in "
                f"{self.seconds:.1f} s; the importer wrote {self.relationships_per_second:,.0f} moves/s ({phases})")


def plan(new: SolvedGraph, settings: Neo4jSettings) -> BulkPlan:
    """What a bulk load of `new` would write, read from the running embedded server. O(games).

    Sizes of the kept games come from their Game nodes; `regenerate` builds them.
    GameGraphError when the server is not the embedded one or is not running.
    """
    status = neo4j_server.status()
    if not status.running:
        raise GameGraphError("load --bulk rebuilds the embedded server's database and reads what it holds first: "
                             "start it with `gamegraph neo4j start`")
    if _address(settings.uri) != _address(status.uri):
        raise GameGraphError(f"load --bulk rebuilds the embedded server's database ({status.uri}), but NEO4J_URI "
                             f"is {settings.uri}: a server elsewhere cannot be rebuilt from here; load over Bolt "
                             "(without --bulk) or run its own neo4j-admin")
    driver = open_driver(settings)
    try:
        loaded, nodes, relationships = _snapshot(driver, settings.database)
    finally:
        driver.close()
    new_id = new.graph.graph_id
    games = [BulkGame(g["id"], "kept, regenerated from its spec", int(g.get("positions", 0)), int(g.get("moves", 0)),
                      spec=str(g.get("spec")), symmetry=bool(g.get("symmetry", True)))
             for g in loaded if g["id"] != new_id]
    replaces = len(games) < len(loaded)
    games.append(BulkGame(new_id, "replaces the loaded copy" if replaces else "new", new.graph.num_positions,
                          new.graph.num_moves, solved=new))
    return BulkPlan(settings.database, status.data_dir, games, loaded, nodes, relationships, status.uri,
                    snapshot=(tuple(sorted(g["id"] for g in loaded)), nodes, relationships))


def regenerate(plan: BulkPlan, max_positions: int = DEFAULT_MAX_POSITIONS) -> None:
    """Build (or reopen from the cache) every kept game from its stored spec. O(V + E) of each.

    GameGraphError naming the game when one cannot be regenerated, or comes out of
    another size than the copy in Neo4j (the code changed since): nothing is replaced.
    """
    for game in plan.games:
        if game.solved is not None:
            continue
        try:
            game.solved = load_or_build(parse_spec(game.spec), symmetry=game.symmetry, max_positions=max_positions)
        except GameGraphError as error:
            raise GameGraphError(f"load --bulk must rewrite every loaded game, and cannot regenerate {game.game_id!r} "
                                 f"from its spec {game.spec!r}: {error}; nothing was replaced") from None
        found = (game.solved.graph.num_positions, game.solved.graph.num_moves)
        if found != (game.positions, game.moves):
            raise GameGraphError(f"{game.game_id!r} regenerated from its spec {game.spec!r} has {found[0]:,} positions "
                                 f"and {found[1]:,} moves, but Neo4j holds {game.positions:,} and {game.moves:,}: "
                                 "reload it over Bolt (or delete it) first; nothing was replaced")


def describe(plan: BulkPlan) -> str:
    """What will be replaced and what the database will hold, for the user to confirm."""
    lines = [plan.summary() + ".",
             f"It runs Neo4j's offline importer (Community Edition imports only into an empty database), then "
             f"restarts the server at {plan.uri}: queries fail for the few seconds of the restart.",
             "After the rebuild the database holds:"]
    lines += [f"  {g.game_id}: {g.positions:,} positions, {g.moves:,} moves ({g.origin})" for g in plan.games]
    in_games = sum(int(g.get("positions", 0)) + 1 for g in plan.loaded)
    dropped = plan.nodes_now - in_games
    if dropped > 0:
        lines.append(f"Dropped: {dropped:,} nodes that belong to no complete game (interrupted loads, other data).")
    return "\n".join(lines)


def run(plan: BulkPlan, settings: Neo4jSettings, say: Callable[[str], None] = lambda _: None) -> BulkReport:
    """Carry out `plan` (see the module doc), regenerating the kept games first. O(V + E).

    One bulk load at a time per server: a file lock in the server's folder (the
    server is local by definition here), taken without waiting.
    """
    folder = neo4j_dir()
    with open(folder / "bulk.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise GameGraphError("another `gamegraph load --bulk` is rebuilding this server's database; "
                                 "run this one when it has finished") from None
        return _run(plan, settings, say)


def _run(plan: BulkPlan, settings: Neo4jSettings, say: Callable[[str], None]) -> BulkReport:
    regenerate(plan)
    folder = neo4j_dir()
    work = folder / "bulk"
    phases: dict[str, float] = {}
    began = clock = time.perf_counter()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        files, offset = [], 0
        for index, game in enumerate(plan.games):
            directory = work / f"game-{index}"
            directory.mkdir()
            files.append(neo4j_import.write_game_files(game.solved, directory, graph_id=game.game_id, id_offset=offset,
                                                       game_number=index))
            offset += game.positions
        phases["files"] = time.perf_counter() - clock

        clock = time.perf_counter()
        say(f"importing {len(plan.games)} games ({plan.nodes_after:,} nodes, {plan.relationships_after:,} relationships)")
        _import(files)
        phases["import"] = time.perf_counter() - clock

        driver = open_driver(settings)
        try:
            if _fingerprint(driver, settings.database) != plan.snapshot:
                raise GameGraphError("the database changed while the import ran (a game was loaded or removed); "
                                     "nothing was replaced: run `gamegraph load --bulk` again")
        finally:
            driver.close()

        clock = time.perf_counter()
        _swap_and_restart(plan, say)
        phases["swap"] = time.perf_counter() - clock
    finally:
        shutil.rmtree(work, ignore_errors=True)
        _remove_database(folder / "data", IMPORT_DATABASE)

    driver = open_driver(settings)
    try:
        clock = time.perf_counter()
        with driver.session(database=settings.database) as session:
            neo4j_loader.ensure_schema(session)
            phases["schema"] = time.perf_counter() - clock
            clock = time.perf_counter()
            for game in plan.games:
                found = neo4j_loader.count_game(session, game.game_id)
                if found != (game.positions, game.moves):
                    raise GameGraphError(f"after the import Neo4j holds {found[0]:,} positions and {found[1]:,} moves "
                                         f"of {game.game_id}, expected {game.positions:,} and {game.moves:,}; the "
                                         f"replaced database is kept in {_replaced(folder / 'data', plan.database)[0]}")
            phases["check"] = time.perf_counter() - clock
    finally:
        driver.close()
    for path in _replaced(folder / "data", plan.database):
        shutil.rmtree(path, ignore_errors=True)
    return BulkReport(len(plan.games), sum(g.positions for g in plan.games), sum(g.moves for g in plan.games),
                      time.perf_counter() - began, phases)


def _snapshot(driver, database: str) -> tuple[list[dict], int, int]:
    loaded = neo4j_loader.list_games(driver, database)
    records, _, _ = driver.execute_query("MATCH (n) RETURN count(n) AS n", database_=database)
    nodes = records[0]["n"]
    records, _, _ = driver.execute_query("MATCH ()-[r]->() RETURN count(r) AS r", database_=database)
    return loaded, nodes, records[0]["r"]


def _fingerprint(driver, database: str) -> tuple:
    loaded, nodes, relationships = _snapshot(driver, database)
    return tuple(sorted(g["id"] for g in loaded)), nodes, relationships


def _import(files: list[dict[str, Path]]) -> None:
    arguments = neo4j_import.import_arguments(files, IMPORT_DATABASE) + neo4j_import.machine_arguments()
    command, env = neo4j_admin.argv(arguments)
    # cwd: the importer writes its import.report into the working folder, which must not be the user's.
    done = subprocess.run(command, env=env, cwd=files[0]["game"].parent.parent, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise LauncherError(f"Neo4j's importer failed (exit {done.returncode}); nothing was replaced:\n{tail}")


def _swap_and_restart(plan: BulkPlan, say: Callable[[str], None]) -> None:
    """Stop, put the imported store in place of the live one (kept as *.replaced), start; undo on failure."""
    data = neo4j_dir() / "data"
    live = [data / "databases" / plan.database, data / "transactions" / plan.database]
    fresh = [data / "databases" / IMPORT_DATABASE, data / "transactions" / IMPORT_DATABASE]
    old = _replaced(data, plan.database)
    address = urlsplit(plan.uri)
    say("stopping Neo4j to put the new database in place")
    neo4j_server.stop()
    for path in old:
        shutil.rmtree(path, ignore_errors=True)
    for current, kept, new in zip(live, old, fresh):
        if current.exists():
            current.rename(kept)
        new.rename(current)
    try:
        neo4j_server.start(address.hostname, address.port)
    except GameGraphError as error:
        say(f"Neo4j did not start on the imported database ({error}); putting the old one back")
        neo4j_server.stop()
        for current, kept in zip(live, old):
            shutil.rmtree(current, ignore_errors=True)
            if kept.exists():
                kept.rename(current)
        neo4j_server.start(address.hostname, address.port)
        raise GameGraphError("the imported database did not start; the previous one is back in place") from None


def _replaced(data: Path, database: str) -> list[Path]:
    return [data / "databases" / f"{database}.replaced", data / "transactions" / f"{database}.replaced"]


def _remove_database(data: Path, name: str) -> None:
    for path in (data / "databases" / name, data / "transactions" / name):
        shutil.rmtree(path, ignore_errors=True)


def _address(uri: str) -> tuple[str, int]:
    parts = urlsplit(uri)
    host = parts.hostname or "127.0.0.1"
    return ("127.0.0.1" if host == "localhost" else host), parts.port or 7687
