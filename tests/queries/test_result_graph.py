"""queries.results.result_graph: the nodes, relationships and paths of a console result, for the canvas.

Built from real driver objects (neo4j.graph), nested as Neo4j returns them: in a path, in a list,
in a map, and a relationship whose ends the rows never name."""

from __future__ import annotations

from neo4j.graph import Graph, Node, Path

from queries.results import ConsoleResult, result_graph


def _graph():
    graph = Graph()
    a = Node(graph, "n:1", 1, ["Position"], {"key": "A|1-2", "value": "win", "game": "nim"})
    b = Node(graph, "n:2", 2, ["Position"], {"key": "B|0-2", "value": "loss", "game": "nim"})
    c = Node(graph, "n:3", 3, ["Position"], {"key": "A|0-0", "value": "loss", "game": "nim"})
    move = graph.relationship_type("MOVE")
    first = move(graph, "r:1", 1, {"label": "1:1", "optimal": True})
    first._start_node, first._end_node = a, b
    second = move(graph, "r:2", 2, {"label": "2:2", "optimal": False})
    second._start_node, second._end_node = b, c
    return a, b, c, first, second


def test_paths_lists_and_maps_give_every_node_and_relationship_once():
    a, b, c, first, second = _graph()
    rows = [[Path(a, first, second), "text"], [[a, b], {"m": first}], [None, 3]]
    found = result_graph(rows)
    assert sorted(n["id"] for n in found["nodes"]) == ["n:1", "n:2", "n:3"]
    assert sorted((r["start"], r["type"], r["end"]) for r in found["relationships"]) == [
        ("n:1", "MOVE", "n:2"), ("n:2", "MOVE", "n:3")]
    by_id = {n["id"]: n for n in found["nodes"]}
    assert by_id["n:1"] == {"id": "n:1", "labels": ["Position"],
                            "properties": {"key": "A|1-2", "value": "win", "game": "nim"}}
    assert {r["id"]: r["properties"] for r in found["relationships"]}["r:2"] == {"label": "2:2", "optimal": False}


def test_a_relationship_alone_brings_its_two_ends():
    _, _, _, first, _ = _graph()
    found = result_graph([[first]])
    assert sorted(n["properties"]["key"] for n in found["nodes"]) == ["A|1-2", "B|0-2"]
    assert len(found["relationships"]) == 1


def test_rows_of_plain_values_have_no_graph_and_the_node_cap_holds():
    assert result_graph([["A|1-2", 3, [1, 2], {"k": "v"}]]) is None
    a, b, c, first, second = _graph()
    capped = result_graph([[Path(a, first, second)]], max_nodes=2)
    assert len(capped["nodes"]) == 2
    ids = {n["id"] for n in capped["nodes"]}
    assert all(r["start"] in ids and r["end"] in ids for r in capped["relationships"])  # no dangling edge
    assert ConsoleResult(["n"], [[1]], False, 10).graph is None  # a result without a graph says so
