"""Draw queries: equal answers on Neo4j and networkx, and right against explorer.analysis.draws."""

from __future__ import annotations

import uuid

import pytest

from explorer.analysis.draws import SHARP, analyse, position_report
from explorer.solved import build
from loaders.mirror import to_networkx
from queries.api import Neo4jBackend, NetworkxBackend, run_query

GAMES = ["chopsticks", "chopsticks:rollover", "chopsticks(fingers=4,attack_dead=true)"]


@pytest.fixture(scope="module")
def solved():
    return {spec: build(spec) for spec in GAMES}


@pytest.fixture(scope="module")
def backends(solved, neo4j_server):
    from loaders import neo4j_loader
    from loaders.settings import open_driver

    run = uuid.uuid4().hex[:10]
    ids = {spec: f"test-draws-{run}:{spec}" for spec in GAMES}
    with open_driver(neo4j_server) as driver:
        try:
            for spec, s in solved.items():
                neo4j_loader.load(s, driver, neo4j_server.database, graph_id=ids[spec])
            yield {spec: (NetworkxBackend(to_networkx(s)),
                          Neo4jBackend(driver, neo4j_server.database, ids[spec], timeout_s=60))
                   for spec, s in solved.items()}
        finally:
            with driver.session(database=neo4j_server.database) as session:
                for game_id in ids.values():
                    neo4j_loader.delete_game(session, game_id)


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
