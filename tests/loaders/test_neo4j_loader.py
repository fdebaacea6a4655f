"""The Neo4j loader, `gamegraph load|verify` and the neo4j-admin import files, against the real server.

Library-level tests load under unique graph ids (`graph_id=`), so they never
collide with real loads or with other test sessions sharing the server; CLI
tests use game specs nothing else loads. Everything created is deleted again.
"""

from __future__ import annotations

import csv
import os
import shlex
import signal
import socket
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from explorer.core.errors import GameGraphError
from explorer.solved import build
from loaders import neo4j_loader
from tests.support.neo4j_fixtures import start_script, wait_for
from loaders.neo4j_import import write_neo4j_import

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["chopsticks", "chopsticks:magic-fingers", "chopsticks:even-split", "tictactoe", "nim:small", "mutorere",
         "ponghauki"]




def counts(driver, database, game_id) -> tuple[int, int]:
    with driver.session(database=database) as session:
        return neo4j_loader.count_game(session, game_id)


def game_node(driver, database, game_id) -> dict | None:
    records, _, _ = driver.execute_query("MATCH (g:Game {id: $id}) RETURN properties(g) AS g", id=game_id,
                                         database_=database)
    return records[0]["g"] if records else None


def expected_position(solved, node: int) -> dict:
    record = solved.record(node)
    if "hands" in record:
        record["hands"] = [f for hand in record["hands"] for f in hand]
    return record


# -- loading -------------------------------------------------------------------------
@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_load_writes_every_position_and_move(spec, driver, neo4j_server, ids):  # noqa: F811
    solved = build(spec)
    game_id = ids(spec)
    report = neo4j_loader.load(solved, driver, neo4j_server.database, batch_size=500, graph_id=game_id)
    assert (report.positions, report.moves) == (solved.graph.num_positions, solved.graph.num_moves)
    assert report.rows == report.positions + report.moves + 1 and report.rows_per_second > 0
    assert str(report).startswith(f"loaded {solved.game.display_name}: {report.rows:,} rows ")
    assert counts(driver, neo4j_server.database, game_id) == (solved.graph.num_positions, solved.graph.num_moves)

    stored = neo4j_loader.read_positions(driver, neo4j_server.database, game_id)
    assert len(stored) == solved.graph.num_positions
    for node in range(solved.graph.num_positions):
        assert stored[solved.graph.key(node)] == expected_position(solved, node)

    moves = neo4j_loader.read_moves(driver, neo4j_server.database, game_id)
    graph = solved.graph
    expected_moves = {(graph.key(int(s)), graph.key(int(t))): {"label": graph.label(e), "optimal": bool(solved.solution.optimal[e])}
                      for e, (s, t) in enumerate(zip(graph.edge_sources(), graph.succ_indices))}
    assert moves == expected_moves

    game = game_node(driver, neo4j_server.database, game_id)
    assert game["complete"] is True and game["positions"] == graph.num_positions and game["moves"] == graph.num_moves
    assert game["start_key"] == graph.key(0) and game["name"] == solved.game.name
    assert sum(game[v] for v in ("win", "loss", "tie", "draw")) == graph.num_positions
    records, _, _ = driver.execute_query("MATCH (:Game {id: $id})-[:START]->(p:Position) RETURN p.key AS key",
                                         id=game_id, database_=neo4j_server.database)
    assert [r["key"] for r in records] == [graph.key(0)]
    assert game_id in {g["id"] for g in neo4j_loader.list_games(driver, neo4j_server.database)}


@pytest.mark.neo4j
def test_load_creates_the_schema(driver, neo4j_server, ids):  # noqa: F811
    neo4j_loader.load(build("nim:small"), driver, neo4j_server.database, graph_id=ids("nim"))
    records, _, _ = driver.execute_query("SHOW CONSTRAINTS YIELD labelsOrTypes, properties, type", database_=neo4j_server.database)
    constraints = {(tuple(r["labelsOrTypes"]), tuple(r["properties"]), r["type"]) for r in records}
    assert (("Position",), ("game", "key"), "UNIQUENESS") in constraints
    assert (("Game",), ("id",), "UNIQUENESS") in constraints
    records, _, _ = driver.execute_query("SHOW INDEXES YIELD labelsOrTypes, properties, state", database_=neo4j_server.database)
    indexes = {(tuple(r["labelsOrTypes"] or ()), tuple(r["properties"] or ())): r["state"] for r in records}
    for name in ("value", "on_cycle", "scc", "remoteness"):
        assert indexes[(("Position",), ("game", name))] == "ONLINE"


@pytest.mark.neo4j
def test_loading_twice_replaces_that_game_only(driver, neo4j_server, ids):  # noqa: F811
    db = neo4j_server.database
    first, other = build("chopsticks:magic-fingers"), build("nim:small")
    game_id, other_id = ids("magic"), ids("nim")
    neo4j_loader.load(first, driver, db, graph_id=game_id)
    neo4j_loader.load(other, driver, db, graph_id=other_id)
    other_before = game_node(driver, db, other_id)
    other_positions = neo4j_loader.read_positions(driver, db, other_id)

    neo4j_loader.load(first, driver, db, batch_size=100, graph_id=game_id, workers=4, replace=True)
    assert counts(driver, db, game_id) == (first.graph.num_positions, first.graph.num_moves)
    records, _, _ = driver.execute_query("MATCH (p:Position {game: $id}) WITH p.key AS key, count(*) AS n WHERE n > 1 "
                                         "RETURN count(key) AS duplicated", id=game_id, database_=db)
    assert records[0]["duplicated"] == 0
    records, _, _ = driver.execute_query("MATCH (g:Game {id: $id}) RETURN count(g) AS n", id=game_id, database_=db)
    assert records[0]["n"] == 1
    assert game_node(driver, db, other_id) == other_before
    assert neo4j_loader.read_positions(driver, db, other_id) == other_positions
    assert counts(driver, db, other_id) == (other.graph.num_positions, other.graph.num_moves)


@pytest.mark.neo4j
def test_a_killed_load_leaves_an_incomplete_game_that_the_next_load_repairs(driver, neo4j_server, ids, tmp_path):  # noqa: F811
    db = neo4j_server.database
    game_id = ids("tictactoe")
    script = tmp_path / "crash.py"
    # Dies by SIGKILL (no cleanup, no rollback hooks) after three committed move batches.
    script.write_text(textwrap.dedent(f"""
        import os, signal, sys
        from explorer.solved import build
        from loaders import neo4j_loader
        from loaders.settings import Neo4jSettings, open_driver
        def crash(phase, done):
            if phase == "moves" and done >= 300:
                os.kill(os.getpid(), signal.SIGKILL)
        settings = Neo4jSettings.from_env()
        neo4j_loader.load(build("tictactoe"), open_driver(settings), settings.database,
                          batch_size=100, graph_id={game_id!r}, after_batch=crash)
        sys.exit("the load finished instead of crashing")
    """))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NEO4J_URI": neo4j_server.uri, "NEO4J_USER": neo4j_server.user,
           "NEO4J_PASSWORD": neo4j_server.password, "NEO4J_DATABASE": db, "GAMEGRAPH_PROGRESS": "0"}
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == -signal.SIGKILL, done.stderr

    solved = build("tictactoe")
    positions, moves = counts(driver, db, game_id)
    assert positions == solved.graph.num_positions and 300 <= moves < solved.graph.num_moves
    assert game_node(driver, db, game_id) is None  # readers see no game
    assert game_id not in {g["id"] for g in neo4j_loader.list_games(driver, db)}
    assert neo4j_loader.game_properties(driver, db, game_id) is None

    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    assert counts(driver, db, game_id) == (solved.graph.num_positions, solved.graph.num_moves)
    assert neo4j_loader.game_properties(driver, db, game_id)["complete"] is True


@pytest.mark.neo4j
def test_a_count_mismatch_is_reported_and_the_game_stays_incomplete(driver, neo4j_server, ids):  # noqa: F811
    db = neo4j_server.database
    game_id = ids("nim")
    solved = build("nim:small")

    def sabotage(phase, done):  # another writer deletes a move mid-load
        if phase == "moves" and done == solved.graph.num_moves:
            driver.execute_query("MATCH (:Position {game: $id})-[m:MOVE]->() WITH m LIMIT 1 DELETE m",
                                 id=game_id, database_=db)

    with pytest.raises(neo4j_loader.LoadMismatch, match="55 moves"):
        neo4j_loader.load(solved, driver, db, graph_id=game_id, after_batch=sabotage)
    assert game_node(driver, db, game_id) is None


# -- two loads of one game at once ---------------------------------------------------------
# A "slow" load holds its lock in its first batch of moves until the test writes `<marker>.go` (as
# test_neo4j_reload's reloader does; here at most HOLD_SECONDS, so that a broken lock ends in a failed
# assertion rather than a hang): the test lets it go on once the other load has shown that it waits, or has
# finished. It used to sleep 1 s after each of tictactoe's 21 batches of moves, 21 s a test. A load that
# waits for the lock also writes `<marker>.waiting`.
HOLD_SECONDS = 120
LOADER_SCRIPT = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    from explorer.solved import build
    from loaders import neo4j_loader
    from loaders.settings import Neo4jSettings, open_driver
    game_id, marker, mode, hold = sys.argv[1], Path(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    go = marker.with_suffix(".go")
    def hook(phase, done):
        if phase == "positions" and not marker.exists():
            marker.write_text("holding the lock")  # the lock is taken before any position is written
        if phase == "moves" and mode == "slow":
            deadline = time.monotonic() + hold
            while not go.exists() and time.monotonic() < deadline:
                time.sleep(0.02)
        if phase == "moves" and mode == "die" and done >= 300:
            os.kill(os.getpid(), signal.SIGKILL)
    def waiting(message):
        print(message, flush=True)
        marker.with_suffix(".waiting").write_text(message)
    settings = Neo4jSettings.from_env()
    # replace=True: these tests are about two full loads (tests/loaders/test_neo4j_reload.py has reloads).
    report = neo4j_loader.load(build("tictactoe"), open_driver(settings), settings.database, batch_size=100,
                               graph_id=game_id, after_batch=hook, on_wait=waiting, replace=True)
    print("done", report.positions, report.moves, flush=True)
""")


def start_loader(tmp_path, settings, game_id: str, marker: Path, mode: str) -> subprocess.Popen:
    return start_script(tmp_path, settings, LOADER_SCRIPT, game_id, str(marker), mode, str(HOLD_SECONDS))


def released(marker: Path) -> None:
    """Lets the slow load that wrote `marker` go on."""
    marker.with_suffix(".go").write_text("go")


@pytest.mark.neo4j
def test_two_loads_of_one_complete_game_at_once_wait_in_turn_and_leave_it_complete(driver, neo4j_server, ids, tmp_path):  # noqa: F811
    """Issue 8 item 13: two processes reload a complete game, the second starting while the first writes."""
    db, game_id, solved = neo4j_server.database, ids("tictactoe"), build("tictactoe")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    expected = neo4j_loader.read_positions(driver, db, game_id)

    first = start_loader(tmp_path, neo4j_server, game_id, tmp_path / "first", "slow")
    wait_for(tmp_path / "first", first)
    second = start_loader(tmp_path, neo4j_server, game_id, tmp_path / "second", "fast")
    wait_for(tmp_path / "second.waiting", second)  # it waits while the first one holds the lock
    released(tmp_path / "first")
    out_first, err_first = first.communicate(timeout=600)
    out_second, err_second = second.communicate(timeout=600)
    assert first.returncode == 0, err_first
    assert second.returncode == 0, err_second
    assert f"another load of {game_id} is running; waiting for it to finish" in out_second
    assert "waiting" not in out_first
    assert out_first.splitlines()[-1] == out_second.splitlines()[-1] == \
        f"done {solved.graph.num_positions} {solved.graph.num_moves}"

    assert counts(driver, db, game_id) == (solved.graph.num_positions, solved.graph.num_moves)
    assert neo4j_loader.game_properties(driver, db, game_id)["complete"] is True
    assert neo4j_loader.read_positions(driver, db, game_id) == expected
    records, _, _ = driver.execute_query("MATCH (g:Game {id: $id}) RETURN count(g) AS games", id=game_id, database_=db)
    assert records[0]["games"] == 1
    records, _, _ = driver.execute_query("MATCH (l:LoadLock) WHERE l.game = $id RETURN count(l) AS locks", id=game_id,
                                         database_=db)
    assert records[0]["locks"] == 0  # the lock leaves nothing behind


@pytest.mark.neo4j
def test_a_load_killed_while_holding_the_lock_frees_it_for_the_waiting_one(driver, neo4j_server, ids, tmp_path):  # noqa: F811
    db, game_id, solved = neo4j_server.database, ids("tictactoe"), build("tictactoe")
    first = start_loader(tmp_path, neo4j_server, game_id, tmp_path / "first", "die")
    wait_for(tmp_path / "first", first)
    second = start_loader(tmp_path, neo4j_server, game_id, tmp_path / "second", "fast")
    first.communicate(timeout=600)
    out_second, err_second = second.communicate(timeout=600)
    assert first.returncode == -signal.SIGKILL
    assert second.returncode == 0, err_second
    assert counts(driver, db, game_id) == (solved.graph.num_positions, solved.graph.num_moves)
    assert neo4j_loader.game_properties(driver, db, game_id)["complete"] is True


@pytest.mark.neo4j
def test_loads_of_different_games_at_once_do_not_wait_for_each_other(driver, neo4j_server, ids, tmp_path):  # noqa: F811
    db, one, other = neo4j_server.database, ids("tictactoe-a"), ids("tictactoe-b")
    first = start_loader(tmp_path, neo4j_server, one, tmp_path / "first", "slow")
    wait_for(tmp_path / "first", first)
    second = start_loader(tmp_path, neo4j_server, other, tmp_path / "second", "fast")
    out_second, err_second = second.communicate(timeout=600)
    assert second.returncode == 0 and "waiting" not in out_second, err_second
    assert first.poll() is None  # the slow one still runs: the other game did not wait for it
    released(tmp_path / "first")
    out_first, err_first = first.communicate(timeout=600)
    assert first.returncode == 0, err_first
    for game_id in (one, other):
        assert neo4j_loader.game_properties(driver, db, game_id)["complete"] is True


# -- the command line ---------------------------------------------------------------------
def gamegraph(*args: str, settings, **env_changes) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_PROGRESS": "0", "NEO4J_URI": settings.uri, "NEO4J_USER": settings.user,
           "NEO4J_PASSWORD": settings.password, "NEO4J_DATABASE": settings.database, **env_changes}
    return subprocess.run([sys.executable, "-m", "explorer.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def one_error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamegraph: error: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


@pytest.mark.neo4j
def test_cli_load_then_verify_detects_a_corrupted_value(driver, neo4j_server):  # noqa: F811
    spec = "nim(heaps=1-2-4)"  # a game no other test or user loads
    solved = build(spec)
    game_id, db = solved.graph.graph_id, neo4j_server.database
    try:
        done = gamegraph("load", spec, "--batch-size", "50", settings=neo4j_server)
        assert done.returncode == 0, done.stderr
        rows = solved.graph.num_positions + solved.graph.num_moves + 1
        assert f"{rows:,} rows" in done.stdout and "rows/s" in done.stdout and " s," in done.stdout
        assert done.stdout.startswith(f"loaded {spec}: ")  # LoadReport's own line
        assert counts(driver, db, game_id) == (solved.graph.num_positions, solved.graph.num_moves)

        done = gamegraph("verify", spec, settings=neo4j_server)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "matches" in done.stdout

        key, value = solved.graph.key(0), str(solved.value(0))
        assert value != "draw"  # nim never draws, so 'draw' is a corruption
        driver.execute_query("MATCH (p:Position {game: $id, key: $key}) SET p.value = 'draw'", id=game_id, key=key,
                             database_=db)
        done = gamegraph("verify", spec, settings=neo4j_server)
        assert done.returncode == 1, done.stdout + done.stderr
        assert f"position {key} value: Neo4j has 'draw', the mirror {value!r}" in done.stdout
        assert "1 differences" in done.stdout

        driver.execute_query("MATCH (:Position {game: $id})-[m:MOVE]->() WITH m LIMIT 1 SET m.optimal = NOT m.optimal",
                             id=game_id, database_=db)
        done = gamegraph("verify", spec, settings=neo4j_server)
        assert done.returncode == 1 and "optimal: Neo4j has" in done.stdout
    finally:
        with driver.session(database=db) as session:
            neo4j_loader.delete_game(session, game_id)
    done = gamegraph("verify", spec, settings=neo4j_server)
    assert done.returncode == 1 and "not loaded" in done.stdout


@pytest.mark.neo4j
def test_cli_load_refuses_a_bad_spec(neo4j_server):  # noqa: F811
    line = one_error_line(gamegraph("load", "chopstix", settings=neo4j_server))
    assert "unknown game 'chopstix'" in line
    line = one_error_line(gamegraph("load", "chopsticks(fingers=1)", settings=neo4j_server))
    assert "fingers=1" in line


@pytest.mark.neo4j
def test_cli_load_refuses_a_graph_over_max_positions_before_writing(driver, neo4j_server):  # noqa: F811
    spec = "chopsticks(fingers=6,overflow=rollover)"
    game_id = build(spec).graph.graph_id
    line = one_error_line(gamegraph("load", spec, "--max-positions", "50", settings=neo4j_server))
    assert "the limit of 50 positions" in line  # refused from the estimate, before generating
    assert counts(driver, neo4j_server.database, game_id) == (0, 0)
    assert game_node(driver, neo4j_server.database, game_id) is None


@pytest.mark.neo4j
def test_cli_load_refuses_a_cached_graph_over_max_positions_before_writing(driver, neo4j_server, tmp_path):  # noqa: F811
    """load_or_build checks --max-positions on a cache hit too, so `load` needs no check of its own."""
    spec, home = "chopsticks:standard", str(tmp_path / "state")
    game_id, db = build(spec).graph.graph_id, neo4j_server.database

    def game_element_id():  # changes whenever the game is (re)loaded
        records, _, _ = driver.execute_query("MATCH (g:Game {id: $id}) RETURN elementId(g) AS e", id=game_id,
                                             database_=db)
        return records[0]["e"] if records else None

    assert gamegraph("show", spec, settings=neo4j_server, GAMEGRAPH_HOME=home).returncode == 0  # caches the graph
    assert len(list((tmp_path / "state" / "graphs").glob("chopsticks-*.npz"))) == 1
    before = (game_element_id(), counts(driver, db, game_id))
    line = one_error_line(gamegraph("load", spec, "--max-positions", "5", settings=neo4j_server, GAMEGRAPH_HOME=home))
    # the one size check's refusal (explorer.core.limits.check), with the remedy `load` offers
    assert "more than the limit of 5 positions" in line and "raise --max-positions" in line, line
    assert (game_element_id(), counts(driver, db, game_id)) == before


@pytest.mark.neo4j
def test_a_graph_without_symmetry_reduction_is_reported_as_nosym(driver, neo4j_server, ids):  # noqa: F811
    report = neo4j_loader.load(build("nim(heaps=1-2)", symmetry=False), driver, neo4j_server.database,
                               graph_id=ids("nim-nosym"))
    assert str(report).startswith("loaded nim(heaps=1-2) [nosym]: ")


@pytest.mark.neo4j
def test_cli_load_with_the_server_down_says_so(driver, neo4j_server):  # noqa: F811
    with socket.socket() as probe:  # a port with nothing listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    line = one_error_line(gamegraph("load", "nim(heaps=3-3)", settings=neo4j_server, NEO4J_URI=f"bolt://127.0.0.1:{port}"))
    assert "not reachable" in line and str(port) in line


@pytest.mark.neo4j
def test_cli_load_with_a_wrong_password_says_so_and_writes_nothing(driver, neo4j_server):  # noqa: F811
    spec = "nim(heaps=2-2-3)"
    line = one_error_line(gamegraph("load", spec, settings=neo4j_server, NEO4J_PASSWORD="not-the-password-" + uuid.uuid4().hex))
    assert "refused the credentials" in line and "not-the-password" not in line
    assert counts(driver, neo4j_server.database, build(spec).graph.graph_id) == (0, 0)


@pytest.mark.neo4j
def test_cli_neo4j_status_reports_the_running_server(neo4j_server):  # noqa: F811
    done = gamegraph("neo4j", "status", settings=neo4j_server)
    assert done.returncode == 0 and "running (pid" in done.stdout


# -- neo4j-admin import files --------------------------------------------------------------
def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.mark.parametrize("spec", ["chopsticks:magic-fingers", "tictactoe", "nim:small"])
def test_neo4j_import_files_have_the_right_headers_and_rows(spec, tmp_path):
    solved = build(spec)
    graph = solved.graph
    command = write_neo4j_import(solved, tmp_path)
    argv = shlex.split(command)
    assert argv[:5] == ["gamegraph", "neo4j-admin", "database", "import", "full"] and argv[-1].startswith("--")
    assert [a for a in argv if a.startswith("--nodes=")] == [
        f"--nodes={label}={(tmp_path / n).resolve()}" for label, n in (("Game", "game.csv"), ("Position", "positions.csv"))]
    assert [a for a in argv if a.startswith("--relationships=")] == [
        f"--relationships={kind}={(tmp_path / n).resolve()}" for kind, n in (("MOVE", "moves.csv"), ("START", "start.csv"))]
    assert "--array-delimiter=;" in argv and "--id-type=integer" in argv and "neo4j" in argv
    assert any(a.startswith("--threads=") for a in argv) and any(a.startswith("--max-off-heap-memory=") for a in argv)

    positions = read_csv(tmp_path / "positions.csv")
    header = positions[0]
    assert header[:2] == [":ID(Position)", "game"] and not any(name == ":LABEL" for name in header)
    assert {"key", "to_move:int", "value", "remoteness:int", "terminal:boolean", "on_cycle:boolean", "scc:int"} <= set(header)
    assert len(positions) - 1 == graph.num_positions
    column = {name.split(":")[0]: i for i, name in enumerate(header) if not name.startswith(":")}
    for node in (0, graph.num_positions // 2, graph.num_positions - 1):
        row, record = positions[node + 1], solved.record(node)
        assert row[0] == str(node) and row[column["game"]] == graph.graph_id and len(row) == len(header)
        assert row[column["key"]] == record["key"] and row[column["value"]] == record["value"]
        assert row[column["remoteness"]] == ("" if record["remoteness"] is None else str(record["remoteness"]))
        assert row[column["on_cycle"]] == str(record["on_cycle"]).lower()

    moves = read_csv(tmp_path / "moves.csv")
    assert moves[0] == [":START_ID(Position)", ":END_ID(Position)", "label", "optimal:boolean"]
    sources = graph.edge_sources()
    assert moves[1:] == [[str(int(sources[e])), str(int(graph.succ_indices[e])), graph.label(e),
                          str(bool(solved.solution.optimal[e])).lower()] for e in range(graph.num_moves)]

    game = read_csv(tmp_path / "game.csv")
    assert len(game) == 2 and game[0][0] == ":ID(Game)" and game[1][0] == "0" and ":LABEL" not in game[0]
    fields = dict(zip(game[0], game[1]))
    assert fields["id"] == graph.graph_id and fields["positions:int"] == str(graph.num_positions)
    assert fields["complete:boolean"] == "true" and fields["symmetry:boolean"] == str(graph.symmetry).lower()
    assert read_csv(tmp_path / "start.csv") == [[":START_ID(Game)", ":END_ID(Position)"], ["0", "0"]]
    assert "REQUIRE (p.game, p.key) IS UNIQUE" in (tmp_path / "schema.cypher").read_text()


@pytest.mark.parametrize("spec", ["chopsticks:magic-fingers", "tictactoe", "nim:small", "nim(heaps=1)"])
def test_bulk_files_carry_the_bolt_loaders_fingerprints_and_label_codes(spec, tmp_path):
    """The importer's Game node must match what the Bolt loader would write, or a Bolt reload of an
    imported game would not find it unchanged; `move_labels` is `encode_labels` without the per-move loop."""
    from loaders import mirror
    from loaders.neo4j_import import write_game_files
    from loaders.neo4j_loader import CONTENT, STRUCTURE, encode_labels, fingerprints, move_labels

    solved = build(spec)
    moves = mirror.move_columns(solved)
    labels, codes = encode_labels(moves["label"])
    fast_labels, fast_codes = move_labels(solved)
    assert fast_labels == labels and fast_codes.tolist() == codes.tolist()
    game = mirror.game_properties(solved)
    expected = fingerprints(mirror.position_columns(solved), moves, labels, codes, game)
    files = write_game_files(solved, tmp_path, id_offset=5, game_number=3)
    fields = dict(zip(*read_csv(files["game"])))
    assert (fields[STRUCTURE], fields[CONTENT]) == expected and fields[":ID(Game)"] == "3"
    rows = read_csv(files["moves"])[1:]
    assert [(int(a) - 5, int(b) - 5) for a, b, _, _ in rows] == list(zip(moves["source"].tolist(), moves["target"].tolist()))
    assert read_csv(files["start"])[1] == ["3", "5"]


def test_moves_file_quotes_labels_as_csv_does_and_writes_big_numbers_whole(tmp_path):
    from loaders.neo4j_import import _write_moves

    labels = ["a,b", 'say "hi"', "plain", "ünï"]
    sources, targets = np.array([0, 9, 10, 123456789]), np.array([99999, 0, 1000, 7])
    _write_moves(tmp_path / "m.csv", sources, targets, labels, np.array([0, 1, 2, 3]),
                 np.array([True, False, True, False]), id_offset=1, block=3)
    assert read_csv(tmp_path / "m.csv")[1:] == [["1", "100000", "a,b", "true"], ["10", "1", 'say "hi"', "false"],
                                                ["11", "1001", "plain", "true"], ["123456790", "8", "ünï", "false"]]


def test_neo4j_import_into_a_file_is_a_clear_error_and_leaves_it_alone(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("mine")
    with pytest.raises(GameGraphError, match=f"cannot create the folder {taken}: a file of that name exists"):
        write_neo4j_import(build("nim:small"), taken)
    assert taken.read_text() == "mine" and [p.name for p in tmp_path.iterdir()] == ["taken"]


def test_neo4j_import_flattens_chopsticks_hands_into_an_int_array(tmp_path):
    solved = build("chopsticks")
    write_neo4j_import(solved, tmp_path)
    positions = read_csv(tmp_path / "positions.csv")
    at = positions[0].index("hands:int[]")
    assert positions[1][at] == "1;1;1;1"
    nim = build("nim:small")
    write_neo4j_import(nim, tmp_path / "nim")
    positions = read_csv(tmp_path / "nim" / "positions.csv")
    assert positions[1][positions[0].index("heaps:int[]")] == "1;2;3"
    game = read_csv(tmp_path / "nim" / "game.csv")
    assert dict(zip(*game))["heaps:int[]"] == "1;2;3"


@pytest.mark.neo4j
def test_neo4j_admin_imports_the_files(neo4j_server, tmp_path):  # noqa: F811
    """The printed command's tool (`gamegraph neo4j-admin`: Neo4j's AdminTool from the jars the embedded
    server runs on) accepts the files; run here on a Neo4j home of its own."""
    from loaders import neo4j_admin

    solved = build("chopsticks:magic-fingers")
    argv = shlex.split(write_neo4j_import(solved, tmp_path / "files"))
    assert argv[:2] == ["gamegraph", "neo4j-admin"]
    command, env = neo4j_admin.argv(argv[2:], home=tmp_path / "home")
    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"{solved.graph.num_positions + 1} nodes" in done.stdout
    assert f"{solved.graph.num_moves + 1} relationships" in done.stdout
    assert (tmp_path / "home" / "data" / "databases" / "neo4j").is_dir()


def test_neo4j_admin_runs_with_the_throughput_collector(tmp_path, monkeypatch):
    """The admin tool (the bulk importer) runs with ParallelGC, not the server's G1 (issue 23: less CPU
    on 2 cores), and keeps every other JVM option of the server; GAMEGRAPH_NEO4J_JVM_OPTIONS come after them."""
    from loaders import neo4j_admin, neo4j_server

    monkeypatch.setenv("GAMEGRAPH_NEO4J_JVM_OPTIONS", "-XX:TieredStopAtLevel=1 -Dgamegraph.test=admin")
    command, _ = neo4j_admin.argv(["--version"], home=tmp_path / "home")
    assert neo4j_admin.ADMIN_COLLECTOR in command and "-XX:+UseG1GC" not in command
    others = [option for option in neo4j_server.NEO4J_JVM_OPTIONS if option != "-XX:+UseG1GC"]
    assert [option for option in command if option in others] == others
    extra = command.index("-XX:TieredStopAtLevel=1")
    assert command[extra:extra + 3] == ["-XX:TieredStopAtLevel=1", "-Dgamegraph.test=admin", "-cp"]
    assert extra > command.index(others[-1])


@pytest.mark.neo4j
def test_cli_neo4j_admin_is_neo4j_s_own_tool(neo4j_server):  # noqa: F811
    from loaders.neo4j_server import neo4j_version

    done = gamegraph("neo4j-admin", "--version", settings=neo4j_server)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == neo4j_version()
    done = gamegraph("neo4j-admin", "database", "import", "full", "--help", settings=neo4j_server)
    assert done.returncode == 0 and "--nodes" in done.stdout and "--overwrite-destination" in done.stdout


def test_the_loader_and_the_import_writer_start_without_networkx():
    """`gamegraph load`, `load --bulk` and `export --format neo4j-import` never build a networkx mirror: networkx
    loads with the first mirror (loaders.mirror), not with the modules, saving every such process 0.3-0.5 s of CPU
    at its start (issue 34). The mirror itself still builds."""
    probe = ("import sys, loaders.neo4j_loader, loaders.neo4j_import, loaders.neo4j_bulk; "
             "assert 'networkx' not in sys.modules, 'networkx at import'; "
             "from loaders import mirror; from explorer.solved import build; "
             "G = mirror.to_networkx(build('nim:small')); assert 'networkx' in sys.modules and G.number_of_nodes() == 23")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("distinct", [3, 5000, 70_000])
def test_distinct_label_codes_over_a_wide_range_are_numpy_unique_s(distinct):
    """Codes spread over more than the table's range: the search from the first moves' codes (labels the
    first moves lack included) or, with very many labels, np.unique; both give np.unique's answer."""
    from loaders.neo4j_loader import _distinct

    rng = np.random.default_rng(distinct)
    labels = rng.choice(2 ** 40, distinct, replace=False)
    codes = labels[rng.integers(0, distinct, 200_000)]
    codes[-1] = 2 ** 41  # a label the first block of moves does not have
    present, inverse = _distinct(codes)
    expected, expected_inverse = np.unique(codes, return_inverse=True)
    assert present.tolist() == expected.tolist() and inverse.tolist() == expected_inverse.reshape(-1).tolist()
