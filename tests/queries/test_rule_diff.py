"""`gamegraph diff` on Neo4j (queries/rule_diff.py) equals the in-memory diff (explorer.analysis.diff)."""

from __future__ import annotations

import json

import pytest

from explorer.analysis.diff import diff
from explorer.cli import main
from explorer.core.errors import InvalidParameter, QueryError
from explorer.solved import build
from queries.rule_diff import neo4j_diff
from tests.support.query_support import loaded_backends

PAIRS = [("chopsticks", "chopsticks:rollover"), ("chopsticks:even-split", "chopsticks:rollover-even-split"),
         ("mutorere", "mutorere(putahi=free)"), ("ponghauki", "ponghauki"), ("dodgem:3x3", "dodgem:3x3")]
SPECS = sorted({spec for pair in PAIRS for spec in pair})


@pytest.fixture(scope="module")
def solved():
    return {spec: build(spec) for spec in SPECS}


@pytest.fixture(scope="module")
def backends(solved, neo4j_server):
    with loaded_backends(solved, neo4j_server, "test-rule-diff") as loaded:
        yield loaded


@pytest.mark.neo4j
@pytest.mark.parametrize("first,second", PAIRS)
def test_neo4j_diff_equals_the_in_memory_diff(first, second, solved, backends):
    neo4j_first, neo4j_second = backends[first][1], backends[second][1]
    found = neo4j_diff(neo4j_first.driver, neo4j_first.database, neo4j_first.game_id, neo4j_second.game_id)
    expected = diff(solved[first], solved[second])
    assert found == expected
    assert json.dumps(found) == json.dumps(expected)  # the same keys in the same order: the same JSON
    if first != second:
        assert expected["changed"] > 0  # a pair that shows something


@pytest.mark.neo4j
def test_neo4j_diff_refuses_two_games_and_a_game_not_loaded(backends):
    mutorere, ponghauki = backends["mutorere"][1], backends["ponghauki"][1]
    with pytest.raises(InvalidParameter, match="one game"):
        neo4j_diff(mutorere.driver, mutorere.database, mutorere.game_id, ponghauki.game_id)
    with pytest.raises(QueryError, match="is not loaded"):
        neo4j_diff(mutorere.driver, mutorere.database, mutorere.game_id, "no-such-game-id")


@pytest.mark.neo4j
def test_cli_diff_on_neo4j_names_the_missing_load(neo4j_server, capsys, monkeypatch):
    monkeypatch.setenv("NEO4J_URI", neo4j_server.uri)
    assert main(["load", "dodgem:3x3"]) == 0  # the first game is there (run alone, no earlier test loaded it)
    capsys.readouterr()
    code = main(["diff", "dodgem:3x3", "dodgem(size=2)", "--backend", "neo4j"])
    assert code == 2
    assert "gamegraph load 'dodgem(size=2)'" in capsys.readouterr().err
