"""CGT values in Neo4j and the networkx mirror: loaded as properties, queried with equal answers.

The expected answers come from the value engine directly (explorer.cgt), not from
either backend, so a loader or query that drops or garbles a value fails here.
"""

from __future__ import annotations

from collections import Counter

import pytest

from explorer.cgt import parse_value
from explorer.cgt.evaluate import value_of
from explorer.cgt.simple import kind
from explorer.cgt.thermograph import thermograph
from explorer.core.errors import QueryError
from explorer.solved import build
from loaders.mirror import to_networkx
from queries.api import NetworkxBackend, run_query
from tests.support.query_support import loaded_backends

GAMES = ["toads-and-frogs", "toads-and-frogs:winning-ways", "domineering(rows=3,cols=3)", "nim:small"]


@pytest.fixture(scope="module")
def solved():
    return {spec: build(spec) for spec in GAMES}


@pytest.fixture(scope="module")
def backends(solved, neo4j_server):
    with loaded_backends(solved, neo4j_server, "test-cgt") as loaded:
        yield loaded


def expected_values(s):
    game, graph = s.game, s.graph
    return {graph.key(n): value_of(game, game.cgt_board(graph.position(n))) for n in range(graph.num_positions)}


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_every_position_carries_its_value_on_both_backends(spec, solved, backends):
    expected = expected_values(solved[spec])
    for backend in backends[spec]:
        for key, value in expected.items():
            stored = backend.position(key)
            assert parse_value(stored["cgt"]) is value and stored["cgt"] == value.ascii()
            assert stored["cgt_kind"] == kind(value)
            th = thermograph(value)
            assert (stored["mean"], stored["temperature"]) == (th.mean, th.temperature)
            assert isinstance(stored["mean"], float) and isinstance(stored["temperature"], float)


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_cgt_kinds_equal_on_both_backends_and_right(spec, solved, backends):
    nx_backend, neo_backend = backends[spec]
    result = run_query(nx_backend, "cgt-kinds")
    assert result.tables == run_query(neo_backend, "cgt-kinds").tables
    expected = Counter(kind(v) for v in expected_values(solved[spec]).values())
    assert {row[0]: row[1] for row in result.tables["by_kind"].rows} == dict(expected)


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_cgt_equal_on_both_backends_for_every_value_present(spec, solved, backends):
    nx_backend, neo_backend = backends[spec]
    expected = expected_values(solved[spec])
    for value in set(expected.values()):
        for spelling in {value.ascii(), str(value)}:
            result = run_query(nx_backend, "cgt-equal", value=spelling, limit=10_000)
            assert result.tables == run_query(neo_backend, "cgt-equal", value=spelling, limit=10_000).tables
            assert {row[0] for row in result.tables["positions"].rows} == {k for k, v in expected.items() if v is value}


@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("limit", [1, 7, 10_000])
def test_cgt_hot_equal_on_both_backends_and_hottest_first(spec, limit, solved, backends):
    nx_backend, neo_backend = backends[spec]
    result = run_query(nx_backend, "cgt-hot", limit=limit)
    assert result.tables == run_query(neo_backend, "cgt-hot", limit=limit).tables
    expected = sorted(((thermograph(v).temperature, k) for k, v in expected_values(solved[spec]).items()),
                      key=lambda pair: (-pair[0], pair[1]))[:limit]
    rows = result.tables["positions"].rows
    assert [(row[3], row[0]) for row in rows] == expected
    for key, cgt, mean, _ in rows:
        assert mean == thermograph(parse_value(cgt)).mean


def test_cgt_queries_refuse_loopy_games_and_bad_values():
    backend = NetworkxBackend(to_networkx(build("chopsticks:attack-only")))
    for name in ("cgt-kinds", "cgt-hot"):
        with pytest.raises(QueryError, match="no combinatorial values"):
            run_query(backend, name)
    tf = NetworkxBackend(to_networkx(build("toads-and-frogs")))
    with pytest.raises(QueryError, match="needs a value"):
        run_query(tf, "cgt-equal")
    from explorer.core.errors import InvalidValue
    with pytest.raises(InvalidValue):
        run_query(tf, "cgt-equal", value="1/3")
    assert run_query(tf, "cgt-equal", value="{0|0}").tables["positions"].rows  # any spelling of *
