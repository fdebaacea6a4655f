"""Reloading a loaded game (loaders.neo4j_loader.load's unchanged, updated and replaced paths), on the real server.

Library-level tests load under unique graph ids (`graph_id=`), so they never
collide with real loads or with other test sessions sharing the server; the CLI
test uses a game spec nothing else loads. Everything created is deleted again.
A changed solution is made by perturbing a solved graph's arrays (`perturbed`),
as a solver change would: same positions and moves, other properties.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from explorer.solved import SolvedGraph, build
from explorer.solver import Solution
from loaders import neo4j_loader
from tests.support.neo4j_fixtures import start_script, wait_for

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["chopsticks", "chopsticks:magic-fingers", "tictactoe", "nim:small", "mutorere"]




def perturbed(solved: SolvedGraph, seed: int = 1, share: float = 0.1) -> SolvedGraph:
    """The same graph with another solution: about `share` of the values, remoteness and optimal flags changed."""
    rng = np.random.default_rng(seed)
    solution = solved.solution
    V, E = len(solution.value), len(solution.optimal)
    value, remoteness, optimal = solution.value.copy(), solution.remoteness.copy(), solution.optimal.copy()
    nodes = rng.choice(V, max(1, int(V * share)), replace=False)
    value[nodes] = (value[nodes] + 1) % 4
    remoteness[nodes[: len(nodes) // 2]] = -1  # a draw's remoteness is absent in Neo4j: a property removed
    remoteness[nodes[len(nodes) // 2:]] += 7
    moves = rng.choice(E, max(1, int(E * share)), replace=False)
    optimal[moves] = ~optimal[moves]
    return dataclasses.replace(solved, solution=Solution(value, remoteness, optimal))


def content(driver, database, game_id) -> tuple[dict, dict, dict]:
    """(positions, moves, Game properties but id and solved_at) as Neo4j holds them."""
    game = neo4j_loader.game_properties(driver, database, game_id)
    assert game is not None, f"{game_id} is not completely loaded"
    game = {name: value for name, value in game.items() if name not in ("id", "solved_at")}
    return (neo4j_loader.read_positions(driver, database, game_id), neo4j_loader.read_moves(driver, database, game_id),
            game)


def element_ids(driver, database, game_id) -> tuple[list[str], list[str]]:
    records, _, _ = driver.execute_query(
        "MATCH (p:Position {game: $id}) OPTIONAL MATCH (p)-[m:MOVE]->() "
        "RETURN elementId(p) AS p, collect(elementId(m)) AS m ORDER BY p", id=game_id, database_=database)
    return [r["p"] for r in records], sorted(m for r in records for m in r["m"])


def game_node(driver, database, game_id) -> dict | None:
    records, _, _ = driver.execute_query("MATCH (g:Game {id: $id}) RETURN properties(g) AS g", id=game_id,
                                         database_=database)
    return records[0]["g"] if records else None


def no_writes(phase: str, done: int) -> None:
    raise AssertionError(f"an unchanged reload wrote a {phase} batch")


# -- the paths -------------------------------------------------------------------------
@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_an_unchanged_reload_verifies_and_writes_nothing(spec, driver, neo4j_server, ids):  # noqa: F811
    db, game_id, solved = neo4j_server.database, ids(spec), build(spec)
    first = neo4j_loader.load(solved, driver, db, graph_id=game_id)
    assert first.path == "loaded"
    # Sentinels no load writes: an update in place would remove them (stale properties), a replace too.
    # One position that has a move (a finished position, which LIMIT 1 alone may pick, has none).
    driver.execute_query("MATCH (p:Position {game: $id})-[m:MOVE]->() WITH p, m LIMIT 1 "
                         "SET p.sentinel = 1, m.sentinel = 2", id=game_id, database_=db)
    before = content(driver, db, game_id), element_ids(driver, db, game_id), game_node(driver, db, game_id)

    again = neo4j_loader.load(build(spec), driver, db, graph_id=game_id, after_batch=no_writes)
    assert again.path == "unchanged"
    assert str(again).startswith(f"{solved.game.display_name} already loaded and unchanged (verified "
                                 f"{solved.graph.num_positions:,} positions, {solved.graph.num_moves:,} moves)")
    assert {"delete", "positions", "moves", "update"}.isdisjoint(again.phases)
    after = content(driver, db, game_id), element_ids(driver, db, game_id), game_node(driver, db, game_id)
    assert after == before  # byte for byte, the same node and relationship ids, the same solved_at
    records, _, _ = driver.execute_query("MATCH (p:Position {game: $id}) WHERE p.sentinel = 1 "
                                         "MATCH (p)-[m:MOVE]->() WHERE m.sentinel = 2 RETURN count(*) AS n",
                                         id=game_id, database_=db)
    assert records[0]["n"] == 1


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_an_update_in_place_gives_what_a_fresh_load_gives(spec, driver, neo4j_server, ids):  # noqa: F811
    db, solved = neo4j_server.database, build(spec)
    changed = perturbed(solved)
    game_id, fresh_id = ids(spec), ids(spec + "-fresh")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    old = content(driver, db, game_id)
    nodes_before = element_ids(driver, db, game_id)

    report = neo4j_loader.load(changed, driver, db, graph_id=game_id, batch_size=50)
    assert report.path == "updated", report
    old_values = solved.solution
    new = changed.solution
    # The draw levels follow from the values, so positions whose values stayed may change there too.
    levels_before, levels_after = solved.draw_levels, changed.draw_levels
    expected_positions = int(np.count_nonzero((old_values.value != new.value) | (old_values.remoteness != new.remoteness)
                                              | (levels_before.kind != levels_after.kind)
                                              | (levels_before.level != levels_after.level)
                                              | (levels_before.remoteness != levels_after.remoteness)))
    expected_moves = int(np.count_nonzero(old_values.optimal != new.optimal))
    assert (report.changed_positions, report.changed_moves) == (expected_positions, expected_moves)
    assert str(report) == (f"updated {solved.game.display_name} in place: {expected_positions:,} of "
                           f"{solved.graph.num_positions:,} positions and {expected_moves:,} of "
                           f"{solved.graph.num_moves:,} moves changed (only properties changed) in "
                           f"{report.seconds:.2f} s")
    assert element_ids(driver, db, game_id) == nodes_before  # in place: no node or relationship replaced

    assert neo4j_loader.load(changed, driver, db, graph_id=fresh_id).path == "loaded"
    updated, fresh = content(driver, db, game_id), content(driver, db, fresh_id)
    assert updated == fresh
    assert updated != old
    assert neo4j_loader.load(changed, driver, db, graph_id=game_id, after_batch=no_writes).path == "unchanged"
    # and back: the original solution again is an update too, to exactly the old content
    assert neo4j_loader.load(solved, driver, db, graph_id=game_id).path == "updated"
    assert content(driver, db, game_id) == old


@pytest.mark.neo4j
def test_a_structural_change_replaces_the_game(driver, neo4j_server, ids):  # noqa: F811
    db, game_id, fresh_id = neo4j_server.database, ids("structure"), ids("structure-fresh")
    small, other = build("nim:small"), build("tictactoe")
    neo4j_loader.load(small, driver, db, graph_id=game_id)
    report = neo4j_loader.load(other, driver, db, graph_id=game_id)
    assert report.path == "replaced" and report.reason == "its positions or moves changed"
    assert str(report).startswith(f"replaced {other.game.display_name} (its positions or moves changed): ")
    neo4j_loader.load(other, driver, db, graph_id=fresh_id)
    assert content(driver, db, game_id) == content(driver, db, fresh_id)


@pytest.mark.neo4j
def test_a_copy_damaged_in_neo4j_is_replaced_not_trusted(driver, neo4j_server, ids):  # noqa: F811
    db, game_id, solved = neo4j_server.database, ids("chopsticks"), build("chopsticks")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    fresh = content(driver, db, game_id)
    # A move gone behind the loader's back: the Game node still claims the old fingerprints.
    driver.execute_query("MATCH (:Position {game: $id})-[m:MOVE]->() WITH m LIMIT 1 DELETE m", id=game_id, database_=db)
    report = neo4j_loader.load(solved, driver, db, graph_id=game_id)
    assert report.path == "replaced" and "counts" in report.reason
    assert content(driver, db, game_id) == fresh
    # A relabelled move with a changed solution: the read-back finds other moves, so the update becomes a replace.
    driver.execute_query("MATCH (:Position {game: $id})-[m:MOVE]->() WITH m LIMIT 1 SET m.label = 'nonsense'",
                         id=game_id, database_=db)
    changed = perturbed(solved)
    report = neo4j_loader.load(changed, driver, db, graph_id=game_id)
    assert report.path == "replaced" and "differ" in report.reason
    moves = neo4j_loader.read_moves(driver, db, game_id)
    assert "nonsense" not in {move["label"] for move in moves.values()}
    assert neo4j_loader.load(changed, driver, db, graph_id=game_id).path == "unchanged"


@pytest.mark.neo4j
def test_a_game_without_fingerprints_is_updated_in_place(driver, neo4j_server, ids):  # noqa: F811
    """As loaded before fingerprints existed (or by the bulk importer): the read-back decides."""
    db, game_id, solved = neo4j_server.database, ids("tictactoe"), build("tictactoe")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    expected = content(driver, db, game_id)
    driver.execute_query(f"MATCH (g:Game {{id: $id}}) REMOVE g.{neo4j_loader.STRUCTURE}, g.{neo4j_loader.CONTENT}",
                         id=game_id, database_=db)
    report = neo4j_loader.load(solved, driver, db, graph_id=game_id)
    assert report.path == "updated" and (report.changed_positions, report.changed_moves) == (0, 0)
    assert report.reason == "its copy in Neo4j has no fingerprint"
    assert content(driver, db, game_id) == expected


@pytest.mark.neo4j
def test_an_update_restores_a_lost_start_relationship(driver, neo4j_server, ids):  # noqa: F811
    db, game_id, solved = neo4j_server.database, ids("nim"), build("nim:small")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    driver.execute_query("MATCH (:Game {id: $id})-[s:START]->() DELETE s", id=game_id, database_=db)
    report = neo4j_loader.load(perturbed(solved), driver, db, graph_id=game_id)
    assert report.path == "updated"
    records, _, _ = driver.execute_query("MATCH (:Game {id: $id})-[:START]->(p:Position) RETURN p.key AS key",
                                         id=game_id, database_=db)
    assert [r["key"] for r in records] == [solved.graph.key(0)]


@pytest.mark.neo4j
def test_replace_deletes_and_loads_even_when_unchanged(driver, neo4j_server, ids):  # noqa: F811
    db, game_id, solved = neo4j_server.database, ids("nim"), build("nim:small")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    before, nodes = content(driver, db, game_id), element_ids(driver, db, game_id)
    report = neo4j_loader.load(solved, driver, db, graph_id=game_id, replace=True)
    assert report.path == "replaced" and report.reason == "a full replacement was asked for"
    assert content(driver, db, game_id) == before
    assert set(element_ids(driver, db, game_id)[0]).isdisjoint(nodes[0])  # new nodes


def test_fingerprints_tell_structure_from_properties():
    solved = build("tictactoe")
    changed = perturbed(solved)

    def prints(s):
        from loaders import mirror

        columns, moves = mirror.position_columns(s), mirror.move_columns(s)
        labels, codes = neo4j_loader.encode_labels(moves["label"])
        game = mirror.game_properties(s, solved_at="2000-01-01T00:00:00+00:00")
        return neo4j_loader.fingerprints(columns, moves, labels, codes, game)

    base = prints(solved)
    assert prints(build("tictactoe")) == base  # deterministic
    assert prints(changed)[0] == base[0] and prints(changed)[1] != base[1]
    other = prints(build("nim:small"))
    assert other[0] != base[0] and other[1] != base[1]
    flags = solved.solution.optimal.copy()
    flags[0] = not flags[0]
    one_flag = dataclasses.replace(solved, solution=Solution(solved.solution.value, solved.solution.remoteness, flags))
    assert prints(one_flag)[0] == base[0] and prints(one_flag)[1] != base[1]


def test_the_path_follows_the_stored_game_node():
    game = {"start_key": "s", neo4j_loader.STRUCTURE: "a", neo4j_loader.CONTENT: "b"}
    choose = neo4j_loader.choose_path
    assert choose(None, game)[0] == "loaded"
    assert choose({**game, "complete": True}, game)[0] == "unchanged"
    assert choose({**game, "complete": True}, game, replace=True)[0] == "replaced"
    assert choose({**game, "complete": False}, game)[0] == "updated"
    assert choose({**game, "complete": True, neo4j_loader.CONTENT: "c"}, game)[0] == "updated"
    assert choose({**game, "complete": True, neo4j_loader.STRUCTURE: "z"}, game)[0] == "replaced"
    assert choose({**game, "complete": False, neo4j_loader.STRUCTURE: "z"}, game)[0] == "replaced"
    assert choose({**game, "complete": True, "start_key": "t"}, game)[0] == "replaced"
    assert choose({"start_key": "s", "complete": True}, game)[0] == "updated"


# -- interrupted and concurrent reloads ---------------------------------------------------
RELOADER_SCRIPT = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    from explorer.solved import build
    from loaders import neo4j_loader
    from loaders.settings import Neo4jSettings, open_driver
    from tests.loaders.test_neo4j_reload import perturbed
    game_id, marker, mode = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    go = marker.with_suffix(".go")
    def hook(phase, done):
        if not marker.exists():
            marker.write_text(phase)  # the lock is taken before any batch
            while mode == "slow" and not go.exists():  # the test says when the other reload is waiting
                time.sleep(0.05)
        if mode == "die" and phase == "update" and done >= 10:  # positions come first, 10 a batch
            os.kill(os.getpid(), signal.SIGKILL)
    settings = Neo4jSettings.from_env()
    report = neo4j_loader.load(perturbed(build("chopsticks")), open_driver(settings), settings.database,
                               batch_size=10, graph_id=game_id, after_batch=hook,
                               on_wait=lambda m: print(m, flush=True))
    print(report.path, flush=True)
""")


def start_reloader(tmp_path, settings, game_id: str, marker: Path, mode: str) -> subprocess.Popen:
    return start_script(tmp_path, settings, RELOADER_SCRIPT, game_id, str(marker), mode)


@pytest.mark.neo4j
def test_a_reload_killed_mid_update_leaves_the_game_incomplete_and_the_next_load_repairs_it(
        driver, neo4j_server, ids, tmp_path):  # noqa: F811
    db, game_id, fresh_id, solved = neo4j_server.database, ids("chopsticks"), ids("fresh"), build("chopsticks")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    reloader = start_reloader(tmp_path, neo4j_server, game_id, tmp_path / "marker", "die")
    out, err = reloader.communicate(timeout=600)
    assert reloader.returncode == -signal.SIGKILL, out + err

    assert neo4j_loader.game_properties(driver, db, game_id) is None  # readers see no game
    assert game_id not in {g["id"] for g in neo4j_loader.list_games(driver, db)}
    assert game_node(driver, db, game_id)["complete"] is False
    changed = perturbed(solved)
    neo4j_loader.load(changed, driver, db, graph_id=fresh_id)
    half = neo4j_loader.read_positions(driver, db, game_id)
    expected = neo4j_loader.read_positions(driver, db, fresh_id)
    assert half != expected  # the kill did land half-way

    report = neo4j_loader.load(changed, driver, db, graph_id=game_id)
    assert report.path == "updated" and report.reason == "its copy in Neo4j was incomplete"
    assert 0 < report.changed_positions < int(np.count_nonzero(
        (solved.solution.value != changed.solution.value) | (solved.solution.remoteness != changed.solution.remoteness)))
    assert content(driver, db, game_id) == content(driver, db, fresh_id)


@pytest.mark.neo4j
def test_a_reload_killed_mid_update_is_repaired_by_loading_the_old_solution_too(
        driver, neo4j_server, ids, tmp_path):  # noqa: F811
    db, game_id, solved = neo4j_server.database, ids("chopsticks"), build("chopsticks")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    before = content(driver, db, game_id)
    reloader = start_reloader(tmp_path, neo4j_server, game_id, tmp_path / "marker", "die")
    reloader.communicate(timeout=600)
    assert reloader.returncode == -signal.SIGKILL
    assert neo4j_loader.load(solved, driver, db, graph_id=game_id).path == "updated"
    assert content(driver, db, game_id) == before


@pytest.mark.neo4j
def test_two_reloads_of_one_game_at_once_wait_in_turn(driver, neo4j_server, ids, tmp_path):  # noqa: F811
    """The second waits on the lock while the first updates; it then finds the game unchanged."""
    db, game_id, solved = neo4j_server.database, ids("chopsticks"), build("chopsticks")
    neo4j_loader.load(solved, driver, db, graph_id=game_id)
    first = start_reloader(tmp_path, neo4j_server, game_id, tmp_path / "first", "slow")
    wait_for(tmp_path / "first", first)
    second = start_reloader(tmp_path, neo4j_server, game_id, tmp_path / "second", "fast")
    waiting = second.stdout.readline()  # said after LOCK_NOTICE_SECONDS of waiting
    (tmp_path / "first.go").write_text("go")
    out_first, err_first = first.communicate(timeout=600)
    out_second, err_second = second.communicate(timeout=600)
    assert first.returncode == 0, err_first
    assert second.returncode == 0, err_second
    assert out_first.splitlines() == ["updated"]
    assert waiting == f"another load of {game_id} is running; waiting for it to finish\n", err_second
    assert out_second.splitlines() == ["unchanged"]
    assert not (tmp_path / "second").exists()  # it wrote no batch
    fresh_id = ids("fresh")
    neo4j_loader.load(perturbed(solved), driver, db, graph_id=fresh_id)
    assert content(driver, db, game_id) == content(driver, db, fresh_id)
    records, _, _ = driver.execute_query("MATCH (l:LoadLock) WHERE l.game = $id RETURN count(l) AS locks", id=game_id,
                                         database_=db)
    assert records[0]["locks"] == 0


# -- the command line ---------------------------------------------------------------------
@pytest.mark.neo4j
def test_cli_load_says_which_path_it_took(driver, neo4j_server):  # noqa: F811
    spec = "nim(heaps=1-3-4)"  # a game no other test or user loads
    solved = build(spec)
    game_id, db = solved.graph.graph_id, neo4j_server.database
    env = {**os.environ, "GAMEGRAPH_PROGRESS": "0", "NEO4J_URI": neo4j_server.uri, "NEO4J_USER": neo4j_server.user,
           "NEO4J_PASSWORD": neo4j_server.password, "NEO4J_DATABASE": db}

    def load(*args):
        done = subprocess.run([sys.executable, "-m", "explorer.cli", "load", spec, *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert len(done.stdout.splitlines()) == 1, done.stdout
        return done.stdout

    try:
        with driver.session(database=db) as session:
            neo4j_loader.delete_game(session, game_id)
        assert load().startswith(f"loaded {spec}: ")
        assert load().startswith(f"{spec} already loaded and unchanged (verified {solved.graph.num_positions:,} "
                                 f"positions, {solved.graph.num_moves:,} moves) in ")
        assert load("--replace").startswith(f"replaced {spec} (a full replacement was asked for): ")
        driver.execute_query("MATCH (g:Game {id: $id}) SET g.complete = false", id=game_id, database_=db)
        assert load().startswith(f"updated {spec} in place: 0 of {solved.graph.num_positions:,} positions and 0 of "
                                 f"{solved.graph.num_moves:,} moves changed (its copy in Neo4j was incomplete) in ")
        help_text = subprocess.run([sys.executable, "-m", "explorer.cli", "load", "--help"], cwd=ROOT, env=env,
                                   capture_output=True, text=True, timeout=60).stdout
        assert "--replace" in help_text
    finally:
        with driver.session(database=db) as session:
            neo4j_loader.delete_game(session, game_id)
