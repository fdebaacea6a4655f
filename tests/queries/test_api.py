"""The named queries: every query on both backends gives the same answer, and the answer is right.

"Right" is checked against facts computed independently of the query code:
the game rules (shortest-win follows legal moves to the end), networkx's own
algorithms (ego_graph, shortest paths, simple_cycles, strongly connected
components) and plain counting. Neo4j is the real server (tests/neo4j_fixtures);
games are loaded under unique graph ids and deleted afterwards.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import networkx as nx
import pytest

from explorer.core.errors import InvalidPosition, QueryError, UnreachablePosition
from explorer.games import parse_spec
from explorer.solved import build
from loaders.mirror import to_networkx
from queries import catalog
from queries.api import (QUERIES, Neo4jBackend, NetworkxBackend, QueryResult, check_read_only, query_names,
                         run_query, run_readonly_cypher)
from queries.neo4j_backend import read_rows

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["chopsticks", "chopsticks:magic-fingers", "chopsticks:even-split", "chopsticks:attack-only",
         "tictactoe", "nim:small", "mutorere", "ponghauki", "toads-and-frogs:winning-ways",
         "domineering"]
POSITIONS_PER_GAME = 4


# -- fixtures ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def solved():
    return {spec: build(spec) for spec in GAMES}


@pytest.fixture(scope="module")
def mirrors(solved):
    return {spec: to_networkx(s) for spec, s in solved.items()}


@pytest.fixture(scope="module")
def nx_backends(mirrors):
    return {spec: NetworkxBackend(G) for spec, G in mirrors.items()}


@pytest.fixture(scope="module")
def driver(neo4j_server):  # noqa: F811
    from loaders.settings import open_driver
    with open_driver(neo4j_server) as driver:
        yield driver


@pytest.fixture(scope="module")
def neo_backends(driver, neo4j_server, solved):  # noqa: F811
    """Every game loaded under a unique id (so parallel test runs never collide), deleted afterwards."""
    from loaders import neo4j_loader
    run = uuid.uuid4().hex[:10]
    ids = {spec: f"test-queries-{run}:{spec}" for spec in GAMES}
    try:
        for spec, s in solved.items():
            neo4j_loader.load(s, driver, neo4j_server.database, graph_id=ids[spec])
        yield {spec: Neo4jBackend(driver, neo4j_server.database, ids[spec], timeout_s=60) for spec in GAMES}
    finally:
        with driver.session(database=neo4j_server.database) as session:
            for game_id in ids.values():
                neo4j_loader.delete_game(session, game_id)


def sample_positions(G: nx.DiGraph, count: int = POSITIONS_PER_GAME) -> list[str]:
    """The start, one position of each value present, and a few more chosen by a fixed seed."""
    keys = sorted(G.nodes)
    chosen = [G.graph["start_key"]]
    for value in ("win", "loss", "tie", "draw"):
        of_value = [k for k in keys if G.nodes[k]["value"] == value and not G.nodes[k]["terminal"]]
        if of_value:
            chosen.append(random.Random(value).choice(of_value))
    chosen += random.Random(7).sample(keys, count)
    return list(dict.fromkeys(chosen))


def variants(name: str, G: nx.DiGraph, key: str) -> list[dict]:
    """The argument sets each query is run with at one position."""
    if name == "neighbourhood":
        return [{"position": key, "direction": d, "k": k} for d, k in (("out", 1), ("in", 2), ("both", 3))]
    if name in ("cycles", "draw-cycles"):
        return [{"position": key, "max_length": 6, "limit": 25}]
    if name == "shortest-cycle":
        return [{"position": key}, {"position": key, "max_length": 4}]
    if name == "path":
        target = random.Random(key).choice(sorted(G.nodes))
        return [{"position": key, "to": target}, {"position": key, "to": key}]
    if name == "shortest-win":
        return [] if G.nodes[key]["value"] == "draw" else [{"position": key}]
    if name == "stats":
        return [{"limit": 3}, {}]
    if name == "components":
        return [{"limit": 1}, {}]
    if name == "cgt-equal":
        return [{"value": "*"}, {"value": "0", "limit": 2}]
    if name in ("draw-kinds", "draw-levels"):
        return [{"limit": 2}, {}]
    return [{}]


def applicable(spec: str) -> set[str]:
    """The queries a game answers: combinatorial-value queries only for games that have values."""
    from explorer.cgt.evaluate import supports_cgt
    names = set(query_names())
    return names if supports_cgt(parse_spec(spec)) else names - set(catalog.CGT_QUERIES)


def comparable(result: QueryResult) -> tuple:
    """Everything but the graph id (the Neo4j copies live under test ids)."""
    return result.query, result.params, result.tables, result.truncated, result.notes, result.positions, result.moves


def all_calls(mirrors):
    for spec in GAMES:
        G = mirrors[spec]
        for name in sorted(applicable(spec)):
            keys = sample_positions(G) if QUERIES[name].position else [None]
            for key in keys:
                for params in variants(name, G, key):
                    yield spec, name, params


# -- both backends agree -------------------------------------------------------------------
@pytest.mark.neo4j
@pytest.mark.parametrize("spec", GAMES)
def test_every_query_gives_the_same_answer_on_neo4j_and_networkx(spec, mirrors, nx_backends, neo_backends):
    compared = set()
    for game, name, params in all_calls(mirrors):
        if game != spec:
            continue
        expected = run_query(nx_backends[spec], name, **params)
        actual = run_query(neo_backends[spec], name, **params)
        assert comparable(actual) == comparable(expected), f"{spec} {name} {params}"
        compared.add(name)
    assert compared >= applicable(spec) - {"shortest-win"}
    if any(G.nodes[k]["value"] != "draw" for G in [mirrors[spec]] for k in G):
        assert "shortest-win" in compared


@pytest.mark.neo4j
def test_draw_positions_refuse_shortest_win_the_same_way(nx_backends, neo_backends):
    for backend in (nx_backends["chopsticks"], neo_backends["chopsticks"]):
        with pytest.raises(QueryError, match="is a draw.*draw-cycles"):
            run_query(backend, "shortest-win", position="A|1-1|1-1")


@pytest.mark.neo4j
def test_the_row_cap_is_stated_and_equal_on_both_backends(nx_backends, neo_backends):
    for backend in (nx_backends["chopsticks"], neo_backends["chopsticks"]):
        result = run_query(backend, "neighbourhood", position="A|1-1|1-1", k=4, direction="both", limit=5)
        assert result.truncated and len(result.tables["positions"].rows) == 5
        assert any("row cap" in note for note in result.notes)
        assert {m[0] for m in result.tables["moves"].rows} <= set(result.tables["positions"].column("key"))
    results = [run_query(b["chopsticks"], "neighbourhood", position="A|1-1|1-1", k=4, limit=5)
               for b in (nx_backends, neo_backends)]
    assert comparable(results[0]) == comparable(results[1])


# -- answers checked against independent facts (networkx backend; Neo4j equals it above) ---------
@pytest.mark.parametrize("spec", GAMES)
def test_shortest_win_follows_legal_optimal_moves_down_to_the_end(spec, mirrors, nx_backends):
    G, game = mirrors[spec], parse_spec(spec)
    symmetry = G.graph["symmetry"]
    for key in sample_positions(G, 12):
        if G.nodes[key]["value"] == "draw":
            continue
        result = run_query(nx_backends[spec], "shortest-win", position=key)
        rows = result.tables["line"].records()
        assert rows[0]["key"] == key and len(rows) == G.nodes[key]["remoteness"] + 1
        # the plain lists: positions start to end, the labels of the moves between them, replayed by the rules
        assert result.positions[0] == key and len(result.moves) == len(result.positions) - 1
        for before, label, after in zip(result.positions, result.moves, result.positions[1:]):
            reached = {game.key(m.position, symmetry) for m in game.moves(game.parse(before)) if m.label == label}
            assert after in reached, f"{label} does not lead from {before} to {after}"
        as_json = json.loads(result.to_json())
        assert as_json["positions"] == result.positions and as_json["moves"] == result.moves
        for before, after in zip(rows, rows[1:]):
            legal: dict[str, set[str]] = {}
            for move in game.moves(game.parse(before["key"])):
                legal.setdefault(game.key(move.position, symmetry), set()).add(move.label)
            assert before["to"] == after["key"] and after["key"] in legal, "not a legal move"
            assert before["label"] in legal[after["key"]]
            assert after["remoteness"] == before["remoteness"] - 1
            assert before["optimal"] is True
            flipped = {"win": "loss", "loss": "win", "tie": "tie"}[before["value"]]
            assert after["value"] == flipped
            # the tie-break: no other optimal move with a smaller label
            options = [G.edges[before["key"], t]["label"] for t in G.successors(before["key"])
                       if G.edges[before["key"], t]["optimal"] and G.nodes[t]["remoteness"] == before["remoteness"] - 1]
            assert before["label"] == min(options)
        last = game.parse(rows[-1]["key"])
        assert game.outcome(last) is not None and rows[-1]["label"] is None and rows[-1]["remoteness"] == 0


@pytest.mark.parametrize("spec", GAMES)
def test_shortest_cycle_is_a_cycle_and_none_is_shorter(spec, mirrors, nx_backends):
    G = mirrors[spec]
    reverse = G.reverse(copy=True)
    for key in sample_positions(G, 12):
        rows = run_query(nx_backends[spec], "shortest-cycle", position=key).tables["cycle"].records()
        to_key = nx.single_source_shortest_path_length(reverse, key)
        lengths = [1 + to_key[s] for s in G.successors(key) if s in to_key]
        if not lengths:
            assert rows == [] and not G.nodes[key]["on_cycle"]
            continue
        assert G.nodes[key]["on_cycle"]
        assert len(rows) == min(lengths), "a shorter cycle exists (BFS)"
        assert rows[0]["key"] == key and rows[-1]["to"] == key
        for row, nxt in zip(rows, rows[1:] + [None]):
            assert G.has_edge(row["key"], row["to"]) and G.edges[row["key"], row["to"]]["label"] == row["label"]
            if nxt:
                assert nxt["key"] == row["to"]


def test_shortest_cycle_respects_its_bound(nx_backends):
    result = run_query(nx_backends["chopsticks"], "shortest-cycle", position="A|1-1|1-1", max_length=7)
    assert result.tables["cycle"].rows == [] and "no cycle of at most 7 moves" in result.notes[0]
    assert len(run_query(nx_backends["chopsticks"], "shortest-cycle", position="A|1-1|1-1",
                         max_length=8).tables["cycle"].rows) == 8


@pytest.mark.parametrize("spec", GAMES)
def test_neighbourhood_equals_ego_graph(spec, mirrors, nx_backends):
    G = mirrors[spec]
    for key in sample_positions(G):
        for direction, k in (("out", 2), ("in", 2), ("both", 1), ("both", 3)):
            result = run_query(nx_backends[spec], "neighbourhood", position=key, direction=direction, k=k, limit=10_000)
            base = G.reverse(copy=True) if direction == "in" else G
            ego = nx.ego_graph(base, key, radius=k, undirected=direction == "both")
            assert set(result.tables["positions"].column("key")) == set(ego.nodes)
            moves = {(r[0], r[2]) for r in result.tables["moves"].rows}
            assert moves == set(G.subgraph(ego.nodes).edges)
            distances = dict(zip(result.tables["positions"].column("key"), result.tables["positions"].column("distance")))
            view = G.to_undirected() if direction == "both" else base
            assert distances == nx.single_source_shortest_path_length(view, key, cutoff=k)


@pytest.mark.parametrize("spec", ["chopsticks", "chopsticks:magic-fingers", "chopsticks:even-split"])
def test_cycles_are_the_simple_cycles_networkx_finds(spec, mirrors, nx_backends):
    G = mirrors[spec]
    bound = 6
    for key in sample_positions(G):
        result = run_query(nx_backends[spec], "cycles", position=key, max_length=bound, limit=10_000)
        ours = {tuple(keys[:-1]) for keys in result.tables["cycles"].column("keys")}
        for length, keys in zip(result.tables["cycles"].column("length"), result.tables["cycles"].column("keys")):
            assert keys[0] == keys[-1] == key and len(set(keys[:-1])) == length == len(keys) - 1
        expected = set()
        for cycle in nx.simple_cycles(G, length_bound=bound):
            if key in cycle:
                at = cycle.index(key)
                expected.add(tuple(cycle[at:] + cycle[:at]))
        assert ours == expected
        draws = run_query(nx_backends[spec], "draw-cycles", position=key, max_length=bound, limit=10_000)
        draw_cycles = {tuple(keys[:-1]) for keys in draws.tables["cycles"].column("keys")}
        assert draw_cycles == {c for c in expected if all(G.nodes[k]["value"] == "draw" for k in c)}


@pytest.mark.parametrize("spec", GAMES)
def test_components_cycle_stats_and_stats_match_plain_counts(spec, mirrors, nx_backends):
    G, backend = mirrors[spec], nx_backends[spec]
    cyclic = [c for c in nx.strongly_connected_components(G)
              if len(c) > 1 or any(G.has_edge(n, n) for n in c)]
    components = run_query(backend, "components", limit=10_000).tables["components"]
    assert sorted(components.column("size"), reverse=True) == sorted((len(c) for c in cyclic), reverse=True)
    assert components.column("size") == sorted(components.column("size"), reverse=True)
    for row in components.records():
        assert row["win"] + row["loss"] + row["tie"] + row["draw"] == row["size"]

    by_value = run_query(backend, "cycle-stats").tables["by_value"].records()
    assert sum(r["positions"] for r in by_value) == G.number_of_nodes()
    on_cycle = {n for c in cyclic for n in c}
    assert sum(r["on_cycle"] for r in by_value) == len(on_cycle)
    for row in by_value:
        assert row["on_cycle"] == sum(1 for n in on_cycle if G.nodes[n]["value"] == row["value"])

    stats = run_query(backend, "stats", limit=5)
    assert dict(stats.tables["by_value"].rows) == {
        v: n for v in ("win", "loss", "tie", "draw") if (n := sum(1 for k in G if G.nodes[k]["value"] == v))}
    assert sum(r[2] for r in stats.tables["by_remoteness"].rows) == sum(
        1 for k in G if G.nodes[k]["remoteness"] is not None)
    busiest = stats.tables["most_moves"].records()
    assert busiest[0]["moves"] == max(d for _, d in G.out_degree())
    assert all(G.out_degree(r["key"]) == r["moves"] for r in busiest)
    wins = [G.nodes[k]["remoteness"] for k in G if G.nodes[k]["value"] == "win"]
    assert all(r == max(wins) for r in stats.tables["longest_win"].column("remoteness"))


@pytest.mark.parametrize("spec", GAMES)
def test_path_is_a_shortest_path(spec, mirrors, nx_backends):
    G = mirrors[spec]
    rnd = random.Random(spec)
    game = parse_spec(spec)
    for key in sample_positions(G):
        target = rnd.choice(sorted(G.nodes))
        try:
            result = run_query(nx_backends[spec], "path", position=key, to=target)
        except QueryError as refused:  # play from `key` reaches `target` only as a mirror image of it
            assert nx.has_path(G, key, target) and "never reaches it" in str(refused)
            continue
        rows = result.tables["path"].records()
        if not nx.has_path(G, key, target):
            assert rows == []
            continue
        # The line ends on the very board typed (issue 37): as short as the stored keys' shortest path when
        # some playing of it does, else the rules' shortest line to that board, which is longer.
        shortest = nx.shortest_path_length(G, key, target)
        assert result.boards[0] == key and result.boards[-1] == target
        assert len(rows) - 1 == shortest or len(rows) - 1 > shortest and game.has_symmetry()
        assert rows[0]["key"] == key and rows[-1]["key"] == target and rows[-1]["to"] is None
        for row in rows[:-1]:
            assert G.has_edge(row["key"], row["to"])


def test_a_path_to_exactly_the_board_typed_is_the_same_on_every_backend(nx_backends, neo_backends):
    """The line the rules find when the stored keys' shortest path reaches only a mirror image of the board
    typed (issue 37) reads each move's row from the backend: Neo4j, the mirror and the solved arrays agree."""
    from queries.api import ArraysBackend

    asked = dict(position="A|1-2|1-2", to="A|0-4|2-3")
    answers = [run_query(backend, "path", **asked) for backend in
               (nx_backends["chopsticks"], neo_backends["chopsticks"], ArraysBackend(build("chopsticks")))]
    assert answers[0].boards[-1] == "A|0-4|2-3"
    for answer in answers[1:]:
        assert answer.tables == answers[0].tables and answer.boards == answers[0].boards
        assert answer.named == answers[0].named


# -- bad input ---------------------------------------------------------------------------------
def test_bad_arguments_raise_clear_errors(nx_backends):
    backend = nx_backends["chopsticks"]
    with pytest.raises(QueryError, match="unknown query 'nope'.*neighbourhood.*shortest-win.*stats"):
        run_query(backend, "nope")
    with pytest.raises(QueryError, match=r"k=11 is out of range: it must be from 1 to 10"):
        run_query(backend, "neighbourhood", k=11)
    with pytest.raises(QueryError, match=r"k=0 is out of range"):
        run_query(backend, "neighbourhood", k=0)
    with pytest.raises(QueryError, match=r"max_length=13 is out of range: it must be from 1 to 12"):
        run_query(backend, "cycles", max_length=13)
    with pytest.raises(QueryError, match=r"max_length must be a whole number"):
        run_query(backend, "draw-cycles", max_length="3; MATCH (n) DETACH DELETE n")
    with pytest.raises(QueryError, match=r"limit=0 is out of range"):
        run_query(backend, "components", limit=0)
    with pytest.raises(QueryError, match="direction 'up' is not valid: choose one of out, in, both"):
        run_query(backend, "neighbourhood", direction="up")
    with pytest.raises(QueryError, match="does not take k"):
        run_query(backend, "stats", k=2)
    with pytest.raises(QueryError, match="needs a target position"):
        run_query(backend, "path")
    with pytest.raises(InvalidPosition, match=re.escape("invalid chopsticks position 'A|9-9|1-1'")):
        run_query(backend, "neighbourhood", position="A|9-9|1-1")
    with pytest.raises(InvalidPosition, match="malformed"):
        run_query(backend, "path", to="hello")
    with pytest.raises(UnreachablePosition, match="not reachable"):
        run_query(backend, "shortest-win", position="A|0-0|1-1")


def test_placeholders_are_range_checked_before_substitution():
    assert "{0,3}" in catalog.render("neighbourhood", {"k": 3})
    assert "{{" not in catalog.render("cycles", {"max_length": 5})
    with pytest.raises(QueryError, match="out of range"):
        catalog.render("neighbourhood", {"k": 99})
    with pytest.raises(QueryError, match="whole number"):
        catalog.render("shortest-cycle", {"max_length": "1}]->(x) DETACH DELETE x //"})


def test_every_query_file_is_documented_and_parameterised():
    for name in query_names():
        text = catalog.cypher_text(name)
        header = [line for line in text.splitlines() if line.startswith("//")]
        assert header and header[0].startswith(f"// {name}:"), name
        assert "Parameters:" in text and ":param" in text, name
        assert "$game" in text and "apoc." not in text.lower() and "gds." not in text.lower(), name
        for placeholder in catalog.PLACEHOLDER.findall(text):
            assert catalog.spec(name).int_param(placeholder) is not None
    assert "no strongly-connected-components algorithm" in catalog.cypher_text("components")



def test_the_catalog_alone_defines_tables_columns_and_row_caps():
    from queries import api
    for name, query in QUERIES.items():
        assert query.tables and set(query.capped) <= set(query.tables), name
        limited = query.int_param("limit") is not None
        # A query takes a row cap exactly when its Cypher LIMITs rows, and then something is capped.
        assert limited == ("LIMIT $limit" in catalog.cypher_text(name)) == bool(query.capped), name
        assert api.COLUMNS[name] == {t: list(c) for t, c in query.tables.items()}, name
    # stats.cypher LIMITs both lists, so both are capped.
    assert QUERIES["stats"].capped == ("longest_win", "most_moves")


def test_stats_caps_the_longest_wins_too(nx_backends):
    backend = nx_backends["chopsticks"]  # 14 wins share the longest remoteness
    result = run_query(backend, "stats", limit=3)
    assert len(result.tables["longest_win"].rows) == 3 and len(result.tables["most_moves"].rows) == 3
    assert result.truncated and any(note.startswith("longest_win:") for note in result.notes)
    assert list(result.tables) == list(QUERIES["stats"].tables)
    assert result.tables["longest_win"].columns == ["key", "remoteness"]


def test_shortest_win_looks_the_position_up_once(nx_backends):
    class Counting(NetworkxBackend):
        lookups = 0

        def position(self, key):
            Counting.lookups += 1
            return super().position(key)

    backend = Counting(nx_backends["nim:small"].G)
    run_query(backend, "shortest-win", position="A|1-2-3")
    assert Counting.lookups == 1


@pytest.mark.parametrize("timeout", [0, -1, 0.0, 601, float("nan"), float("inf"), "5", True])
def test_read_rows_refuses_a_timeout_out_of_range_before_connecting(timeout):
    # No driver is needed: the check comes before anything is sent (0 would mean no timeout at all).
    with pytest.raises(QueryError, match=r"timeout must be above 0 and at most 600 seconds"):
        read_rows(None, "neo4j", "RETURN 1", None, timeout_s=timeout)


@pytest.mark.neo4j
def test_the_neo4j_driver_is_closed_when_the_game_is_not_loaded(neo4j_server, monkeypatch):
    """The real driver, spied on: QueryError for a game never loaded, and close() still runs."""
    import argparse

    import loaders.settings
    from explorer.commands import query as commands

    opened = []
    real_open = loaders.settings.open_driver

    def spying_open(settings):
        driver = real_open(settings)
        real_close = driver.close
        driver.close = lambda: (opened.append("closed"), real_close())
        opened.append("opened")
        return driver

    monkeypatch.setattr(loaders.settings, "open_driver", spying_open)
    never_loaded = "nim(heaps=2-9-1)"
    args = argparse.Namespace(spec=never_loaded, no_symmetry=False, backend="neo4j", timeout=5.0)
    with pytest.raises(QueryError, match="not loaded"):
        with commands._backend(args):
            pass
    assert opened == ["opened", "closed"]


# -- Neo4j only: not loaded, console, timeout ----------------------------------------------------------
@pytest.mark.neo4j
def test_a_game_that_is_not_loaded_says_how_to_load_it(driver, neo4j_server):  # noqa: F811
    with pytest.raises(QueryError, match=r"not loaded into Neo4j.*run `gamegraph load 'nim\(heaps=1-1-5\)'`"):
        Neo4jBackend.for_spec(driver, neo4j_server.database, "nim(heaps=1-1-5)")


@pytest.mark.neo4j
def test_neo4j_rejects_bad_positions_like_networkx(neo_backends):
    with pytest.raises(InvalidPosition):
        run_query(neo_backends["nim:small"], "path", position="A|1-2-9", to="A|1-2-3")
    with pytest.raises(UnreachablePosition):
        run_query(neo_backends["chopsticks"], "neighbourhood", position="A|0-0|1-1")
    with pytest.raises(QueryError, match="out of range"):
        run_query(neo_backends["chopsticks"], "cycles", max_length=50)


@pytest.mark.neo4j
def test_console_reads_with_a_row_cap(driver, neo4j_server, neo_backends):  # noqa: F811
    game_id = neo_backends["nim:small"].game_id
    result = run_readonly_cypher(driver, neo4j_server.database,
                                 "MATCH (p:Position {game: $game}) RETURN p.key AS key, p ORDER BY key",
                                 {"game": game_id}, timeout_s=10, row_cap=5)
    assert result.columns == ["key", "p"] and len(result.rows) == 5 and result.truncated
    assert result.rows[0][1]["_labels"] == ["Position"] and result.rows[0][1]["key"] == result.rows[0][0]
    json.dumps(result.to_dict())
    small = run_readonly_cypher(driver, neo4j_server.database, "MATCH (g:Game {id: $game}) RETURN g.spec AS spec",
                                {"game": game_id})
    assert small.rows == [["nim:small"]] and not small.truncated


@pytest.mark.neo4j
def test_console_refuses_writes_by_their_plan(driver, neo4j_server, neo_backends):  # noqa: F811
    game_id = neo_backends["nim:small"].game_id
    for text in ("CREATE (:Hacked)", "MATCH (p:Position) SET p.value = 'win'", "match (n) detach delete n",
                 "MERGE (x:Hacked {a: 1})", "LOAD CSV FROM 'file:///x' AS r RETURN r", "DROP INDEX foo",
                 "MATCH (p) REMOVE p.key", "UNWIND [1] AS x CALL { CREATE (:Hacked) } IN TRANSACTIONS",
                 "CALL db.createLabel('HackedLabel')"):
        with pytest.raises(QueryError, match="read-only Cypher console refused"):
            run_readonly_cypher(driver, neo4j_server.database, text)
    # Names, strings and aliases that merely spell such words are honest reads, and run.
    for text in ("MATCH (p:Position {game: $game}) WHERE p.key <> 'CREATE' RETURN p.set, p.key AS remove // delete",
                 "RETURN 'DETACH DELETE' AS `merge`, $game AS set"):
        check_read_only(text)
        assert run_readonly_cypher(driver, neo4j_server.database, text, {"game": game_id}).rows
    # The READ transaction stays as a second wall for anything that plans as a read but writes.
    with pytest.raises(QueryError, match="read-only: Neo4j refused it"):
        read_rows(driver, neo4j_server.database, "CREATE (h:Hacked {game: $game}) RETURN h", {"game": game_id}, 10)
    records, _, _ = driver.execute_query("MATCH (h:Hacked) RETURN count(h) AS n", database_=neo4j_server.database)
    assert records[0]["n"] == 0


@pytest.mark.neo4j
def test_a_query_over_the_timeout_is_stopped(driver, neo4j_server):  # noqa: F811
    # A cartesian product of matches is refused by the console's plan check before it runs (issue 40);
    # this one passes every check and runs for minutes: 10^8 evaluations in nested reductions.
    cartesian = ("MATCH (a:Position), (b:Position), (c:Position), (d:Position) "
                 "WHERE a.key + b.key + c.key + d.key = 'nothing' RETURN count(*)")
    with pytest.raises(QueryError, match="cartesian product"):
        run_readonly_cypher(driver, neo4j_server.database, cartesian, timeout_s=1)
    # Each step makes a string, so that a JIT-warmed server (the console's tests run the plain sum earlier) cannot
    # finish the 10^8 steps within the timeout (ci12: the plain `t + 1` one returned in time at load 1-4).
    heavy = ("RETURN reduce(s = 0, x IN range(1, 10000) | "
             "s + reduce(t = 0, y IN range(1, 10000) | t + size(toString(x + y)))) AS n")
    began = time.monotonic()
    with pytest.raises(QueryError, match="took longer than the 1 s timeout|not restarted"):
        run_readonly_cypher(driver, neo4j_server.database, heavy, timeout_s=1)
    assert time.monotonic() - began < 30
    # The named queries go through the same read_rows (no console checks); their bounds keep them far
    # below any timeout, and the cartesian product is stopped by the timeout there.
    with pytest.raises(QueryError, match="took longer than the 1 s timeout"):
        read_rows(driver, neo4j_server.database, cartesian, None, timeout_s=1)
    with pytest.raises(QueryError, match="syntax|Invalid input|rejected"):
        run_readonly_cypher(driver, neo4j_server.database, "MATCH (n RETURN n")


# -- the networkx backend's timeout ------------------------------------------------------------------
SLOW_SPEC = "chopsticks(fingers=7)"  # cycles up to 12 moves: about 12 s unbounded on a quiet machine


@pytest.fixture(scope="module")
def slow_mirror():
    return to_networkx(build(SLOW_SPEC))


@pytest.mark.parametrize("name", ["cycles", "draw-cycles"])
def test_networkx_queries_stop_at_their_timeout(slow_mirror, name):
    from explorer.core.errors import QueryTimeout
    began = time.monotonic()
    with pytest.raises(QueryTimeout, match=rf"^query '{name}' took longer than the 0.5 s timeout and was stopped"):
        run_query(NetworkxBackend(slow_mirror, timeout_s=0.5), name, max_length=12)
    assert time.monotonic() - began < 5  # a regression guard, not a speed claim
    # with room to finish, the same query answers (so the timeout above is what stopped it)
    assert run_query(NetworkxBackend(slow_mirror, timeout_s=60), name, max_length=4).tables


@pytest.mark.parametrize("name", query_names())
def test_every_networkx_query_checks_its_deadline(mirrors, name, monkeypatch):
    from explorer.core.errors import QueryTimeout
    from queries.common import Deadline
    monkeypatch.setattr(Deadline, "EVERY", 1)  # read the clock at every check
    # a win to play out; a draw to cycle in; combinatorial values to scan
    spec = {"shortest-win": "nim:small", "cgt-kinds": "toads-and-frogs:winning-ways",
            "cgt-equal": "toads-and-frogs:winning-ways", "cgt-hot": "toads-and-frogs:winning-ways"}.get(name, "chopsticks")
    args = {"to": "B|1-1|1-2"} if name == "path" else {"value": "*"} if name == "cgt-equal" else {}
    with pytest.raises(QueryTimeout, match=rf"^query '{name}' took longer than the 1e-09 s timeout"):
        run_query(NetworkxBackend(mirrors[spec], timeout_s=1e-9), name, **args)


def test_the_timeout_message_is_the_same_on_both_backends():
    from queries import neo4j_backend
    from queries.common import Deadline, timeout_error
    assert str(neo4j_backend._timeout("query 'cycles'", 2)) == str(timeout_error("query 'cycles'", 2))
    deadline = Deadline(0.01, "query 'stats'")
    time.sleep(0.02)
    with pytest.raises(QueryError, match="query 'stats' took longer than the 0.01 s timeout"):
        for _ in range(Deadline.EVERY):
            deadline.check()
    Deadline(None, "no limit").now()  # None: never raises


def test_cli_networkx_query_honours_timeout(tmp_path):
    began = time.monotonic()
    out = cli("query", SLOW_SPEC, "cycles", "--max-length", "12", "--timeout", "0.5", tmp_path=tmp_path)
    assert out.returncode == 2, out.stdout
    assert out.stderr.strip().splitlines() == [
        "gamegraph: error: query 'cycles' took longer than the 0.5 s timeout and was stopped; "
        "narrow it (a smaller bound or limit) or raise the timeout"]
    assert time.monotonic() - began < 120


# -- the command line ---------------------------------------------------------------------------------
def cli(*args: str, tmp_path: Path, **extra_env: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "state"), "GAMEGRAPH_PROGRESS": "0", **extra_env}
    return subprocess.run([sys.executable, "-m", "explorer.cli", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def test_cli_query_prints_tables_and_json(tmp_path):
    out = cli("query", "nim:small", "shortest-win", "--format", "json", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["query"] == "shortest-win" and data["tables"]["line"]["rows"][0][1] == "A|1-2-3"
    out = cli("query", "nim:small", "stats", "--limit", "2", tmp_path=tmp_path)
    assert out.returncode == 0 and "[by_value]" in out.stdout and "row cap" in out.stdout


@pytest.mark.parametrize("args, message", [
    (("query", "nim:small", "nope"), "unknown query 'nope'"),
    (("query", "nim:small", "neighbourhood", "--k", "99"), "k=99 is out of range"),
    (("query", "nim:small", "path", "--to", "A|9-9-9"), "invalid nim position"),
])
def test_cli_query_errors_are_one_line(args, message, tmp_path):
    out = cli(*args, tmp_path=tmp_path)
    assert out.returncode == 2 and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


@pytest.mark.parametrize("timeout, message", [("-1", "the timeout must be above 0 and at most 600 seconds (at least 0.001)"),
                                              ("0", "the timeout must be above 0 and at most 600 seconds (at least 0.001)"),
                                              # rounds to 0 ms in the driver, which would mean no timeout at all
                                              ("1e-320", "the timeout must be above 0 and at most 600 seconds (at least 0.001)"),
                                              ("soon", "'soon' is not a number of seconds (plain digits, e.g. 2.5)")])
def test_cli_refuses_a_bad_timeout_before_connecting(timeout, message, tmp_path):
    out = cli("query", "nim:small", "stats", "--backend", "neo4j", "--timeout", timeout, tmp_path=tmp_path,
              NEO4J_URI="bolt://127.0.0.1:1")  # nothing listens there: the refusal comes first
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines()[-1] == f"gamegraph query: error: argument --timeout: {message}" + (
        f", not {float(timeout)}" if timeout != "soon" else "") + " (see `gamegraph query --help`)"


@pytest.mark.neo4j
def test_cli_neo4j_backend_needs_the_game_loaded(neo4j_server, tmp_path):  # noqa: F811
    out = cli("query", "nim(heaps=1-1-5)", "stats", "--backend", "neo4j", tmp_path=tmp_path,
              NEO4J_URI=neo4j_server.uri, NEO4J_USER=neo4j_server.user, NEO4J_PASSWORD=neo4j_server.password,
              NEO4J_DATABASE=neo4j_server.database)
    assert out.returncode == 2 and "run `gamegraph load 'nim(heaps=1-1-5)'` first" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert words_of_hint(out.stderr) == ["load", "nim(heaps=1-1-5)"]


def words_of_hint(message: str) -> list[str]:
    """The arguments bash passes to gamegraph when the message's `gamegraph ...` hint is pasted."""
    import re

    hint = re.search(r"`(gamegraph [^`]*)`", message)[1]
    done = subprocess.run(["bash", "-c", 'gamegraph() { printf "%s\\n" "$@"; }\n' + hint], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_every_gamegraph_hint_is_quoted_for_the_shell():
    """Each hint in the code is built by shell_hint (no f-string `gamegraph {…}` left)."""
    import re

    from explorer.core.errors import shell_hint

    assert words_of_hint(f"run `{shell_hint('load', 'chopsticks(fingers=4)', '--no-symmetry')}`") == [
        "load", "chopsticks(fingers=4)", "--no-symmetry"]
    unquoted = []
    for path in [*ROOT.glob("explorer/**/*.py"), *ROOT.glob("loaders/*.py"), *ROOT.glob("queries/*.py")]:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"`gamegraph [^`]*\{", line):
                unquoted.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not unquoted, "\n".join(unquoted)


def test_only_a_line_of_play_has_positions_and_moves(tmp_path):
    out = cli("query", "nim:small", "shortest-win", "--format", "json", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["positions"] == [row[1] for row in data["tables"]["line"]["rows"]]
    assert data["moves"] == [row[4] for row in data["tables"]["line"]["rows"]][:-1] and None not in data["moves"]
    stats = json.loads(cli("query", "nim:small", "stats", "--format", "json", tmp_path=tmp_path).stdout)
    assert "positions" not in stats and "moves" not in stats
