"""`gamegraph load SPEC --around POSITION --radius K`: the part of a game solved into a value file around
a position, loaded into the real Neo4j under a game id of its own (explorer/commands/neo4j.py,
explorer.solved.materialise). The values in Neo4j are checked against the value file, position by position."""

from __future__ import annotations

import json

import pytest

from explorer import implicit
from explorer.games import parse_spec
from explorer.solved import PART_MAX_RADIUS, materialise, part_id
from loaders import neo4j_loader
from tests.loaders.test_neo4j_loader import gamegraph, one_error_line
from tests.support.neo4j_fixtures import driver, neo4j_server  # noqa: F401

SPEC = "dobutsu:small"


@pytest.fixture(scope="module")
def values():
    """dobutsu:small solved into its value file in the test's state folder, where the CLI finds it."""
    return implicit.solve(parse_spec(SPEC))


def after_two_moves(game):
    position = game.start()
    for _ in range(2):
        position = game.moves(position)[0].position
    return position


@pytest.mark.neo4j
def test_a_part_is_loaded_under_its_own_id_with_the_value_files_values(values, driver, neo4j_server):  # noqa: F811
    game, db = values.game, neo4j_server.database
    centre = game.format(after_two_moves(game))
    game_id = part_id(game, centre, 2, "both")
    assert game_id not in (game.id, f"{game.id}[nosym]")
    try:
        done = gamegraph("load", SPEC, "--around", centre, "--radius", "2", settings=neo4j_server)
        assert done.returncode == 0, done.stderr
        assert f"game id {game_id!r}" in done.stdout
        part = materialise(values, game.parse(centre), 2, "both")
        stored = neo4j_loader.read_positions(driver, db, game_id)
        assert len(stored) == part.graph.num_positions > 10
        for key, properties in stored.items():
            position = game.parse(key)
            assert properties["value"] == str(values.value(position)), key
            assert properties.get("remoteness") == values.remoteness(position), key
        moves = neo4j_loader.read_moves(driver, db, game_id)
        assert len(moves) == part.graph.num_moves
        for edge in range(part.graph.num_moves):
            source = part.graph.key(int(part.graph.edge_sources()[edge]))
            target = part.graph.key(int(part.graph.succ_indices[edge]))
            assert moves[source, target] == {"label": part.graph.label(edge),
                                             "optimal": bool(part.solution.optimal[edge])}
        properties = neo4j_loader.game_properties(driver, db, game_id)
        assert properties["start_key"] == centre and properties["spec"] == SPEC
        done = gamegraph("load", SPEC, "--around", centre, "--radius", "2", settings=neo4j_server)
        assert done.returncode == 0 and "already loaded and unchanged" in done.stdout, done.stdout + done.stderr
        # The id `load` printed names the part in `query`, on Neo4j and on networkx alike.
        answers = {}
        for backend in ("neo4j", "networkx"):
            done = gamegraph("query", game_id, "neighbourhood", "--k", "6", "--backend", backend, "--format", "json",
                             settings=neo4j_server)
            assert done.returncode == 0, done.stderr
            answers[backend] = {row[0]: row[1] for row in json.loads(done.stdout)["tables"]["positions"]["rows"]}
        assert answers["neo4j"] == answers["networkx"] and set(answers["neo4j"]) == set(stored)
    finally:
        with driver.session(database=db) as session:
            neo4j_loader.delete_game(session, game_id)


@pytest.mark.neo4j
@pytest.mark.parametrize("args,said", [
    (["--around", "garbage", "--radius", "1"], "garbage"),
    (["--around", "A|-/.le/.../.../EL./-", "--radius", "99"], f"--radius: 99 is out of range: it must be from 0 to {PART_MAX_RADIUS}"),
    (["--around", "A|-/.le/.../.../EL./-", "--radius", "-1"], "--radius: -1 is out of range"),
    (["--around", "A|-/.le/.../.../EL./-"], "--around POSITION and --radius K go together"),
    (["--radius", "2"], "--around POSITION and --radius K go together"),
    (["--around", "A|-/.le/.../.../EL./-", "--radius", "6", "--max-positions", "30"], "more than 30 positions"),
    (["--around", "A|-/.le/.../.../EL./-", "--radius", "1", "--bulk"], "loaded over Bolt"),
])
def test_bad_parts_are_one_line_and_write_nothing(values, driver, neo4j_server, args, said):  # noqa: F811
    done = gamegraph("load", SPEC, *args, settings=neo4j_server)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(("gamegraph: error: ", "gamegraph load: error: ")) and said in lines[0], lines[0]


@pytest.mark.neo4j
def test_a_game_without_a_value_file_is_one_line(neo4j_server):  # noqa: F811
    line = one_error_line(gamegraph("load", "dobutsu:lions", "--around", "A|-/.l./.../.../.L./-", "--radius", "1",
                                    settings=neo4j_server))
    assert "no value file yet" in line and "--implicit" in line, line


@pytest.mark.neo4j
def test_querying_a_part_that_is_not_loaded_is_one_line_naming_the_load(values, neo4j_server):  # noqa: F811
    game = values.game
    game_id = part_id(game, game.format(game.start()), 5, "out")  # a part no test loads
    line = one_error_line(gamegraph("query", game_id, "stats", "--backend", "neo4j", settings=neo4j_server))
    assert "is not loaded into Neo4j" in line and "--around" in line and "--radius 5" in line, line
