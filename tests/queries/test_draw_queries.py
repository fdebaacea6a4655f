"""Draw queries: equal answers on Neo4j and networkx, and right against explorer.analysis.draws."""

from __future__ import annotations


import pytest

from explorer.algorithms.draw_levels import CLASS_NAMES, draw_levels
from explorer.analysis.draws import SHARP, analyse, position_report
from explorer.solved import build
from queries.api import run_query
from tests.support.query_support import loaded_backends

GAMES = ["chopsticks", "chopsticks:rollover", "chopsticks(fingers=4,attack_dead=true)", "ponghauki", "mutorere"]


@pytest.fixture(scope="module")
def solved():
    return {spec: build(spec) for spec in GAMES}


@pytest.fixture(scope="module")
def backends(solved, neo4j_server):
    with loaded_backends(solved, neo4j_server, "test-draws") as loaded:
        yield loaded


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_draw_kinds_on_both_backends(spec, solved, backends):
    analysis = analyse(solved[spec])
    counts = analysis.counts()
    results = [run_query(b, "draw-kinds", limit=10_000) for b in backends[spec]]
    assert results[0].tables == results[1].tables
    summary = dict(map(tuple, results[0].tables["summary"].rows))
    assert summary.get("safe", 0) == counts["safe"] and summary.get("sharp", 0) == counts["sharp"]
    graph = solved[spec].graph
    expected = {graph.key(n): (int(analysis.losing_moves[n]), int(analysis.fastest_loss[n]))
                for n in range(graph.num_positions) if analysis.kind[n] == SHARP}
    assert {row[0]: (row[1], row[2]) for row in results[0].tables["sharpest"].rows} == expected


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_dangerous_moves_on_both_backends(spec, solved, backends):
    s = solved[spec]
    analysis = analyse(s)
    sharp = [n for n in range(s.graph.num_positions) if analysis.kind[n] == SHARP][:8] + [0]
    for node in sharp:
        key = s.graph.key(node)
        results = [run_query(b, "dangerous-moves", position=key) for b in backends[spec]]
        assert results[0].tables == results[1].tables
        report = position_report(s, analysis, node)
        expected = [[m["label"], m["to"], m["loses_in"]] for m in report.get("dangerous_moves", [])]
        assert sorted(results[0].tables["moves"].rows) == sorted(expected)


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_draw_levels_on_both_backends(spec, solved, backends):
    levels = draw_levels(solved[spec].graph, solved[spec].solution.value)
    results = [run_query(b, "draw-levels", limit=10_000) for b in backends[spec]]
    assert results[0].tables == results[1].tables
    tally = {(row[0], row[1]): row[2] for row in results[0].tables["levels"].rows}
    assert tally == {(row["level"], row["class"]): row["positions"] for row in levels.table()}
    graph = solved[spec].graph
    expected = {graph.key(n): (CLASS_NAMES[int(levels.kind[n])], int(levels.level[n]), int(levels.remoteness[n]))
                for n in range(graph.num_positions) if levels.level[n] >= 0}
    assert {row[0]: tuple(row[1:]) for row in results[0].tables["deepest"].rows} == expected


@pytest.mark.neo4j
def test_the_console_shows_the_library_query_as_its_tables(solved, backends):
    """The UI console runs queries/draw-levels.cypher as typed and splits its one row of
    lists of maps into the query's two tables, with the rows the query API gives."""
    from pathlib import Path

    from explorer.ui import console
    from queries.console import run_readonly_cypher

    neo4j = backends["ponghauki"][1]
    text = (Path(__file__).resolve().parents[2] / "queries" / "draw-levels.cypher").read_text()
    result = run_readonly_cypher(neo4j.driver, neo4j.database, text, {"game": neo4j.game_id, "limit": 10_000})
    shown = console._shown(result)
    assert shown["rows"] == [] and [name for name, _ in shown["nested"]] == ["levels", "deepest"]
    expected = run_query(neo4j, "draw-levels", limit=10_000).tables
    for name, records in shown["nested"]:
        columns = expected[name].columns
        assert [[record[c] for c in columns] for record in records] == expected[name].rows
