"""Play against the game as loaded into Neo4j: the same games as against the solved graph, and the facts
really come from Neo4j (a value changed there changes what the match sees)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.play import Match, Opponent
from explorer.solved import build
from loaders import neo4j_loader

ROOT = Path(__file__).resolve().parents[2]
SPECS = ["chopsticks", "chopsticks:attack-only", "ponghauki", "mutorere", "dodgem:3x3", "tictactoe", "nim:small"]


def games(match: Match, seed: int, opponents: tuple[Opponent, Opponent]) -> list[tuple]:
    rng = random.Random(seed)
    while not match.over and len(match.plies) < 120:
        match.play(*match.choose(opponents[match.to_move()], rng))
    return [tuple(vars(p).values()) for p in match.plies] + [tuple(r.values()) for r in match.history()]


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", SPECS)
def test_neo4j_match_plays_as_the_solver_does(spec, driver, neo4j_server, ids):
    from queries.play_neo4j import Neo4jMatch

    solved = build(spec)
    game_id = ids(spec)
    neo4j_loader.load(solved, driver, neo4j_server.database, graph_id=game_id)
    pairs = [(Opponent("perfect"), Opponent("perfect")), (Opponent("random"), Opponent("perfect")),
             (Opponent("perfect"), Opponent("slip", 0.3)), (Opponent("random"), Opponent("random"))]
    for seed, opponents in enumerate(pairs):
        stored = Neo4jMatch(solved, driver, neo4j_server.database, game_id=game_id)
        assert games(stored, seed, opponents) == games(Match(solved), seed, opponents)
        for node in {0, stored.node}:
            assert stored.draw_grade(node) == Match(solved).draw_grade(node)


@pytest.mark.neo4j
def test_neo4j_match_reads_what_neo4j_holds(driver, neo4j_server, ids):
    """Flip the optimal flags of the start's moves in Neo4j: the perfect opponent now plays a move the
    solver calls a slip, and the value it reports is Neo4j's."""
    from queries.play_neo4j import Neo4jMatch

    solved = build("chopsticks")
    game_id = ids("standard")
    neo4j_loader.load(solved, driver, neo4j_server.database, graph_id=game_id)
    node = next(n for n in range(solved.graph.num_positions)  # a position with optimal and other moves
                if len({optimal for _, _, optimal in Match(solved, n).moves()}) == 2)
    driver.execute_query("MATCH (p:Position {game: $game, key: $key})-[m:MOVE]->() "
                         "SET m.optimal = NOT m.optimal, p.value = 'tie'",
                         game=game_id, key=solved.graph.key(node), database_=neo4j_server.database)
    stored = Neo4jMatch(solved, driver, neo4j_server.database, game_id=game_id)
    stored.node = node
    assert str(stored.value(node)) == "tie" != str(solved.value(node))
    best = {(label, target) for label, target, optimal in Match(solved, node).moves() if optimal}
    for seed in range(5):
        assert stored.choose(Opponent("perfect"), random.Random(seed)) not in best


@pytest.mark.neo4j
def test_neo4j_match_refuses_a_game_not_loaded_or_loaded_differently(driver, neo4j_server, ids):
    from explorer.core.errors import QueryError
    from queries.play_neo4j import Neo4jMatch

    with pytest.raises(QueryError, match="is not loaded into Neo4j"):
        Neo4jMatch(build("nim:small"), driver, neo4j_server.database, game_id=ids("never-loaded"))
    game_id = ids("other-rules")
    neo4j_loader.load(build("nim:marienbad"), driver, neo4j_server.database, graph_id=game_id)
    with pytest.raises(QueryError, match="load it again"):
        Neo4jMatch(build("nim:small"), driver, neo4j_server.database, game_id=game_id)


def play_cli(*args: str, moves: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "state"), "GAMEGRAPH_PROGRESS": "0", **env}
    return subprocess.run([sys.executable, "-m", "explorer.cli", "play", *args], input=moves, capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=300)


@pytest.mark.neo4j
def test_cli_play_on_neo4j_equals_play_on_the_solver(driver, neo4j_server, tmp_path):
    spec = "chopsticks(fingers=4)"
    neo4j_loader.load(build(spec), driver, neo4j_server.database)  # under its own id, as `gamegraph load` does
    try:
        env = {"NEO4J_URI": neo4j_server.uri, "NEO4J_USER": neo4j_server.user,
               "NEO4J_PASSWORD": neo4j_server.password, "NEO4J_DATABASE": neo4j_server.database}
        runs = [play_cli(spec, "--side", "B", "--opponent", "slip=0.2", "--seed", "3", "--format", "json",
                         *backend, moves="1\n" * 60, tmp_path=tmp_path, **env)
                for backend in ([], ["--backend", "neo4j"])]
        for run in runs:
            assert run.returncode == 0, run.stderr
        assert json.loads(runs[0].stdout) == json.loads(runs[1].stdout)
        assert json.loads(runs[1].stdout)["plies"]
    finally:
        with driver.session(database=neo4j_server.database) as session:
            neo4j_loader.delete_game(session, build(spec).graph.graph_id)


@pytest.mark.parametrize("env, message", [
    ({"NEO4J_URI": "bolt://127.0.0.1:1", "NEO4J_PASSWORD": "x"}, "Neo4j"),
])
def test_cli_play_on_neo4j_down_is_one_line(env, message, tmp_path):
    out = play_cli("nim:small", "--backend", "neo4j", moves="1\n", tmp_path=tmp_path, **env)
    assert out.returncode != 0 and "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamegraph: error: ") and message in lines[0], out.stderr
