"""The variant survey: the grid it walks, its rows against the solver, its cache, formats and Neo4j nodes."""

from __future__ import annotations

import csv
import io
import json

import pytest

from explorer.analysis import survey as survey_module
from explorer.analysis.survey import grid, parse_range, summarise, survey
from explorer.cli import main
from explorer.core.errors import InvalidParameter
from explorer.games import parse_spec
from explorer.games.chopsticks.rules import Chopsticks
from explorer.solved import build


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))


def test_grid_is_every_meaningful_combination():
    games = grid("chopsticks", {"fingers": range(2, 4)})
    # 2 overflow x 2 attack_dead x (none + even + 4 transfer variants) x 2 finger counts
    assert len(games) == 2 * 2 * 6 * 2 == len({g.id for g in games})
    assert all(g.params.split == "transfer" or not (g.params.suicide or g.params.swaps) for g in games)
    presets = {Chopsticks(Chopsticks.Params(**values)).id for values in Chopsticks.presets.values()}
    assert presets <= {g.id for g in grid("chopsticks", {"fingers": range(5, 6)})}


@pytest.mark.parametrize("preset", sorted(Chopsticks.presets))
def test_rows_agree_with_the_solver_for_every_preset(preset):
    game = parse_spec(f"chopsticks:{preset}")
    (row,) = survey([game])
    solved = build(game)
    assert row["start_value"] == str(solved.value(0)) and row["start_remoteness"] == solved.remoteness(0)
    assert {v: row[v] for v in ("win", "loss", "tie", "draw")} == solved.solution.counts()
    assert row["positions"] == solved.graph.num_positions and row["moves"] == solved.graph.num_moves
    assert row["moves_from_win"] + row["moves_from_loss"] + row["moves_from_tie"] + row["moves_from_draw"] == row["moves"]
    assert row["on_cycle_share"] == pytest.approx(solved.on_cycle.mean(), abs=1e-6)


def test_cache_is_reused(monkeypatch):
    games = grid("chopsticks", {"fingers": range(3, 4)})[:3]
    first = survey(games)
    monkeypatch.setattr(survey_module, "summarise", lambda game: pytest.fail("solved again despite the cache"))
    assert survey(games) == first


def test_formats_and_errors(capsys, tmp_path):
    assert main(["survey", "chopsticks", "--fingers", "3", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 24
    assert main(["survey", "chopsticks", "--fingers", "3", "--format", "csv", "-o", str(tmp_path / "s.csv")]) == 0
    parsed = list(csv.DictReader(io.StringIO((tmp_path / "s.csv").read_text())))
    assert [r["spec"] for r in parsed] == [r["spec"] for r in rows]
    assert main(["survey", "chopsticks", "--fingers", "3"]) == 0
    assert "24 rule sets" in capsys.readouterr().out
    for bad in (["--fingers", "9..2"], ["--fingers", "x"], ["--range", "colour=1..2"], ["--range", "fingers"]):
        assert main(["survey", "chopsticks", *bad]) == 2
    with pytest.raises(InvalidParameter):
        parse_range("1..")
    capsys.readouterr()
    assert main(["survey", "tictactoe", "--range", "x=1..2"]) == 2  # a game without parameters says so
    assert capsys.readouterr().err.strip().endswith("tictactoe has no parameter x: it has no parameters to range over")


@pytest.mark.neo4j
def test_variant_nodes_answer_cypher(neo4j_server, capsys, monkeypatch):
    from loaders.settings import open_driver

    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_server.password)  # the state folder here is a fresh one
    monkeypatch.setenv("NEO4J_URI", neo4j_server.uri)
    assert main(["survey", "chopsticks", "--fingers", "3", "--neo4j", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out.split("\nwrote")[0])
    with open_driver(neo4j_server) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (v:Variant {game: 'chopsticks', fingers: 3}) WHERE v.start_value = 'win' RETURN v.spec AS spec",
            database_=neo4j_server.database)
        assert sorted(r["spec"] for r in records) == sorted(r["spec"] for r in rows if r["start_value"] == "win")
        driver.execute_query("MATCH (v:Variant {game: 'chopsticks', fingers: 3}) DETACH DELETE v",
                             database_=neo4j_server.database)
