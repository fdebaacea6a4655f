"""`gamegraph load --bulk` (loaders.neo4j_bulk) and the size advice, against real servers.

The rebuild itself runs on a second embedded server (its own state folder and port:
`own_neo4j_server`, the worker's second server, which the modules that stop theirs take
in turn): it stops, replaces and restarts that server's database, which must never be
the shared one. One rebuild
(module fixture `rebuild`) serves both tests that judge it, the Bolt-against-bulk copy
and what the rebuilt database holds; the second test then replaces a loaded game.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.solved import build
from loaders import neo4j_loader
from loaders.neo4j_loader import BULK_ADVICE_MOVES, WHOLE_GRAPH_MOVES, advice
from loaders.settings import Neo4jSettings, open_driver

ROOT = Path(__file__).resolve().parents[2]


def gamegraph(*args: str, env: dict[str, str], timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "explorer.cli", *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def shared_env(settings: Neo4jSettings, **changes: str) -> dict[str, str]:
    return {**os.environ, "GAMEGRAPH_PROGRESS": "0", "NEO4J_URI": settings.uri, "NEO4J_USER": settings.user,
            "NEO4J_PASSWORD": settings.password, "NEO4J_DATABASE": settings.database, **changes}


def totals(driver, database: str) -> tuple[int, int]:
    records, _, _ = driver.execute_query("MATCH (n) RETURN count(n) AS n", database_=database)
    nodes = records[0]["n"]
    records, _, _ = driver.execute_query("MATCH ()-[r]->() RETURN count(r) AS r", database_=database)
    return nodes, records[0]["r"]


def game_ids(driver, database: str) -> set[str]:
    """Complete games, less those other test modules and the load benchmark come and go with."""
    return {g["id"] for g in neo4j_loader.list_games(driver, database)
            if not g["id"].startswith(("bench-load:", "test-"))}


# -- which path -----------------------------------------------------------------------------
def test_advice_names_the_bulk_path_and_the_value_file_by_size():
    assert advice(10_000, BULK_ADVICE_MOVES, "nim") is None
    hint = advice(10_000, BULK_ADVICE_MOVES + 1, "chopsticks(fingers=30)")
    assert "gamegraph load --bulk 'chopsticks(fingers=30)'" in hint and "value file" not in hint
    hint = advice(10_000, WHOLE_GRAPH_MOVES + 1, "chopsticks(fingers=60)")
    assert "value file" in hint and "--bulk 'chopsticks(fingers=60)'" in hint and "docs/neo4j-loading.md" in hint


# -- refusals, on the shared server: nothing may change ---------------------------------------
@pytest.mark.neo4j
@pytest.mark.serial  # the shared server's games before and after: no other test may load one meanwhile
def test_bulk_without_a_terminal_or_yes_refuses_in_one_line_and_changes_nothing(neo4j_server):  # noqa: F811
    with open_driver(neo4j_server) as driver:
        before = game_ids(driver, neo4j_server.database)  # not totals: other sessions may share the server
        done = gamegraph("load", "--bulk", "nim(heaps=1-1-2)", env=shared_env(neo4j_server))
        assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr
        assert lines[0].startswith("gamegraph: error: load --bulk replaces the whole Neo4j database 'neo4j' (")
        assert "rerun with --yes" in lines[0] and "no terminal" in lines[0]
        assert game_ids(driver, neo4j_server.database) == before


@pytest.mark.neo4j
@pytest.mark.serial  # the shared server's games before and after: no other test may load one meanwhile
def test_bulk_on_a_terminal_shows_the_plan_asks_and_a_no_changes_nothing(neo4j_server):  # noqa: F811
    with open_driver(neo4j_server) as driver:
        games_before = game_ids(driver, neo4j_server.database)
        main, terminal = os.openpty()
        try:
            os.write(main, b"n\n")  # typed ahead; the prompt reads it from the terminal
            done = subprocess.run([sys.executable, "-m", "explorer.cli", "load", "--bulk", "nim(heaps=1-1-2)"], cwd=ROOT,
                                  env=shared_env(neo4j_server), stdin=terminal, capture_output=True, text=True,
                                  timeout=600)
        finally:
            os.close(main)
            os.close(terminal)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "load --bulk replaces the whole Neo4j database 'neo4j'" in done.stdout
        assert "After the rebuild the database holds:" in done.stdout and "nim(heaps=1-1-2): " in done.stdout
        assert "Replace it? [y/N]" in done.stdout and done.stdout.rstrip().endswith("nothing was replaced")
        assert game_ids(driver, neo4j_server.database) == games_before


@pytest.mark.neo4j
def test_bulk_refuses_a_server_that_is_not_the_embedded_one(neo4j_server, tmp_path):  # noqa: F811
    done = gamegraph("load", "--bulk", "nim(heaps=1-1-2)", "--yes",
                     env=shared_env(neo4j_server, GAMEGRAPH_HOME=str(tmp_path / "elsewhere")))
    assert done.returncode == 2 and "start it with `gamegraph neo4j start`" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.neo4j
def test_yes_without_bulk_is_refused(neo4j_server):  # noqa: F811
    done = gamegraph("load", "nim(heaps=1-1-2)", "--yes", env=shared_env(neo4j_server))
    assert done.returncode == 2 and "--yes confirms a --bulk rebuild" in done.stderr


# -- the rebuild, on a server of its own ------------------------------------------------------
@pytest.fixture(scope="module")
def own_server(own_neo4j_server) -> dict[str, str]:
    """The environment of the module's own server (tests/support/neo4j_fixtures.py: the worker's second server,
    which the modules that stop or replace theirs take in turn), running with an empty database: the rebuild
    stops it, replaces its database and starts it again, which must never happen to the shared one."""
    env = {**os.environ, "GAMEGRAPH_PROGRESS": "0"}  # GAMEGRAPH_HOME and NEO4J_URI name it while the module runs
    done = gamegraph("neo4j", "start", env=env)  # it runs: the command says so and returns
    assert done.returncode == 0, done.stderr
    return env


def graph_shape(driver, game_id: str) -> dict:
    """Everything a load wrote for one game: every Position's and MOVE's properties (keyed by position
    keys), the Game node's but the load time, and the START relationship's target and properties."""
    def rows(query: str) -> list:
        records, _, _ = driver.execute_query(query, game=game_id, database_="neo4j")
        return [list(r.values()) for r in records]

    game = rows("MATCH (g:Game {id: $game}) RETURN properties(g), labels(g)")
    assert len(game) == 1
    game[0][0].pop("solved_at")
    return {"game": game,
            "start": rows("MATCH (g:Game {id: $game})-[s]->(p) RETURN type(s), properties(s), p.key, labels(p)"),
            "positions": sorted(rows("MATCH (p:Position {game: $game}) RETURN p.key, properties(p), labels(p)")),
            "moves": sorted(rows("MATCH (p:Position {game: $game})-[m]->(q) "
                                 "RETURN p.key, q.key, type(m), properties(m), q.game = $game"))}


KEPT = "chopsticks:magic-fingers"  # loaded over Bolt, then rewritten by the rebuild: the copies are compared
NEW = "tictactoe"                 # not loaded before: the rebuild adds it


class Rebuild:
    """What the module's one rebuild did and found (module fixture `rebuild`)."""

    def __init__(self, env: dict[str, str]):
        from loaders.mirror import to_networkx
        from queries.api import QUERIES
        from tests.queries.test_api import applicable, sample_positions, variants

        self.env = env
        self.state = Path(env["GAMEGRAPH_HOME"]) / "neo4j"
        password = (self.state / "password").read_text().strip()
        self.settings = Neo4jSettings(env["NEO4J_URI"], "neo4j", password, "neo4j")
        self.kept = build(KEPT)
        mirror = self.mirror = to_networkx(self.kept)
        self.calls = [(name, params) for name in sorted(applicable(KEPT))
                      for key in (sample_positions(mirror) if QUERIES[name].position else [None])
                      for params in variants(name, mirror, key)]

    def answers(self) -> tuple[dict, list]:
        """The KEPT game as Neo4j holds it (graph_shape) and its answer to every call."""
        from queries.api import Neo4jBackend, run_query
        from tests.queries.test_api import comparable

        game_id = self.kept.graph.graph_id
        with open_driver(self.settings) as driver:
            backend = Neo4jBackend(driver, "neo4j", game_id, timeout_s=120)
            return graph_shape(driver, game_id), [comparable(run_query(backend, n, **p)) for n, p in self.calls]

    def totals(self) -> tuple[int, int]:
        with open_driver(self.settings) as driver:
            return totals(driver, "neo4j")


@pytest.fixture(scope="module")
def rebuild(own_server) -> Rebuild:
    """One `load --bulk` rebuild (a server stop, the importer and a start: 40-100 s here) that both rebuild
    tests judge: on the module's fresh server, KEPT and nim:small are loaded over Bolt, five positions of
    an interrupted load are left, and NEW is bulk-loaded; KEPT's copy and answers are read before and after."""
    done = Rebuild(own_server)
    done.totals_before = done.totals()
    done.bolt_loads = [gamegraph("load", spec, env=own_server) for spec in (KEPT, "nim:small")]
    done.bolt_shape, done.bolt_answers = done.answers()
    with open_driver(done.settings) as driver:  # an interrupted load's leftover: positions without a Game node
        driver.execute_query("UNWIND range(1, 5) AS i CREATE (:Position {game: 'leftover', key: toString(i)})")
    done.bulk = gamegraph("load", "--bulk", NEW, "--yes", env=own_server)
    done.bulk_shape, done.bulk_answers = done.answers() if done.bulk.returncode == 0 else (None, None)
    return done


@pytest.mark.neo4j
def test_bulk_and_bolt_write_the_same_graph_and_every_query_answers_the_same(rebuild):
    """One game loaded over Bolt, then rewritten by `load --bulk` (a rebuild keeps every loaded game): the
    same nodes, relationships and properties, and every query of the catalogue (tests/queries/test_api's
    calls) gives the same answer on both copies and on the networkx mirror."""
    from queries.api import NetworkxBackend, run_query
    from tests.queries.test_api import comparable

    assert {name for name, _ in rebuild.calls} >= {"neighbourhood", "shortest-win", "path", "cycles", "draw-cycles",
                                                   "dangerous-moves", "shortest-cycle", "stats", "components"}
    assert all(done.returncode == 0 for done in rebuild.bolt_loads), [d.stderr for d in rebuild.bolt_loads]
    done, kept = rebuild.bulk, rebuild.kept.graph
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{kept.graph_id}: {kept.num_positions:,} positions, {kept.num_moves:,} moves (kept, regenerated " \
           "from its spec)" in done.stdout, done.stdout
    bolt_shape, bulk_shape = rebuild.bolt_shape, rebuild.bulk_shape
    assert len(bolt_shape["positions"]) == kept.num_positions
    assert len(bolt_shape["moves"]) == kept.num_moves
    for part in ("game", "start", "positions", "moves"):
        assert bulk_shape[part] == bolt_shape[part], part
    networkx = NetworkxBackend(rebuild.mirror)
    expected = [comparable(run_query(networkx, n, **p)) for n, p in rebuild.calls]
    for call, bolt, bulk, mirrored in zip(rebuild.calls, rebuild.bolt_answers, rebuild.bulk_answers, expected):
        assert bulk == bolt == mirrored, call


@pytest.mark.neo4j
def test_bulk_rebuilds_the_database_with_every_loaded_game_and_the_new_one(rebuild):
    env, state, settings = rebuild.env, rebuild.state, rebuild.settings
    kept, new = rebuild.kept, build(NEW)
    assert rebuild.totals_before == (0, 0)
    assert all(done.returncode == 0 for done in rebuild.bolt_loads), [d.stderr for d in rebuild.bolt_loads]

    done = rebuild.bulk
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "load --bulk replaces the whole Neo4j database 'neo4j' (" in out and "2 complete games" in out
    assert f"{kept.graph.graph_id}: {kept.graph.num_positions:,} positions, {kept.graph.num_moves:,} moves " \
           "(kept, regenerated from its spec)" in out
    assert "nim(heaps=1-2-3): 23 positions, 56 moves (kept, regenerated from its spec)" in out
    assert f"{new.graph.graph_id}: {new.graph.num_positions:,} positions, {new.graph.num_moves:,} moves (new)" in out
    assert "Dropped: 5 nodes that belong to no complete game" in out
    assert out.splitlines()[-1].startswith("rebuilt Neo4j with 3 games: ")

    for spec in (NEW, "nim:small", KEPT):
        done = gamegraph("verify", spec, env=env)
        assert done.returncode == 0 and "matches the mirror" in done.stdout, done.stdout + done.stderr
    for spec in (NEW, KEPT):  # the importer stored the fingerprints too, of the new game and of a kept one
        done = gamegraph("load", spec, env=env)
        assert done.returncode == 0 and done.stdout.startswith(f"{spec} already loaded and unchanged"), done.stdout
    with open_driver(settings) as driver:
        assert totals(driver, "neo4j") == (765 + 23 + kept.graph.num_positions + 3,
                                           2096 + 56 + kept.graph.num_moves + 3)
        records, _, _ = driver.execute_query("SHOW INDEXES YIELD name, state")
        states = {r["name"]: r["state"] for r in records}
        assert all(states.get(neo4j_loader._schema_name(s)) == "ONLINE" for s in neo4j_loader.SCHEMA), states
    assert not (state / "bulk").exists() and not (ROOT / "import.report").exists()
    leftovers = [p.name for p in (state / "data" / "databases").iterdir() if "replaced" in p.name or "bulk" in p.name]
    assert leftovers == []

    # Bulk-loading a game that is loaded replaces it, and a Bolt load afterwards still works.
    done = gamegraph("load", "--bulk", "nim:small", "--yes", env=env)
    assert done.returncode == 0 and "nim(heaps=1-2-3): 23 positions, 56 moves (replaces the loaded copy)" in done.stdout
    done = gamegraph("load", "nim(heaps=1-2)", env=env)
    assert done.returncode == 0, done.stderr
    for spec in (NEW, "nim:small", KEPT, "nim(heaps=1-2)"):
        assert gamegraph("verify", spec, env=env).returncode == 0, spec


# -- the importer's settings, from the machine or the environment ------------------------------
def test_importer_settings_come_from_the_machine_unless_the_environment_says(monkeypatch):
    from explorer.core.errors import LauncherError
    from loaders import settings
    from loaders.neo4j_import import machine_arguments

    for name in ("GAMEGRAPH_NEO4J_IMPORT_THREADS", "GAMEGRAPH_NEO4J_IMPORT_MEMORY", "GAMEGRAPH_NEO4J_ADMIN_HEAP",
                 "HEAP_SIZE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(settings, "usable_cores", lambda: 3)
    monkeypatch.setattr(settings, "available_memory", lambda: 10 * 2 ** 30)
    assert machine_arguments() == ["--threads=6", "--max-off-heap-memory=5120m"]
    monkeypatch.setattr(settings, "usable_cores", lambda: 64)
    monkeypatch.setattr(settings, "available_memory", lambda: 100 * 2 ** 20)
    assert machine_arguments() == ["--threads=16", "--max-off-heap-memory=512m"]  # the cap and the floor
    assert settings.admin_heap() == "1g"

    monkeypatch.setenv("GAMEGRAPH_NEO4J_IMPORT_THREADS", "3")
    monkeypatch.setenv("GAMEGRAPH_NEO4J_IMPORT_MEMORY", "2g")
    monkeypatch.setenv("HEAP_SIZE", "3g")  # Neo4j's own variable, honoured when ours is unset
    assert machine_arguments() == ["--threads=3", "--max-off-heap-memory=2g"] and settings.admin_heap() == "3g"
    monkeypatch.setenv("GAMEGRAPH_NEO4J_ADMIN_HEAP", "2g")
    assert settings.admin_heap() == "2g"
    for bad in ("0", "four", "-2", "1.5"):
        monkeypatch.setenv("GAMEGRAPH_NEO4J_IMPORT_THREADS", bad)
        with pytest.raises(LauncherError, match="GAMEGRAPH_NEO4J_IMPORT_THREADS must be a whole number"):
            settings.import_threads()


def test_the_machine_is_read_from_the_system():
    from loaders import settings

    assert 1 <= settings.usable_cores() <= (os.cpu_count() or 1)
    assert settings.available_memory() > 0
