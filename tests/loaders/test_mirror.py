"""The networkx mirror: the same data as the SolvedGraph, under docs/model.md's names, and its file cache."""

from __future__ import annotations

import networkx as nx
import pytest

from explorer.games import parse_spec
from explorer.solved import build
from loaders import mirror

GAMES = ["chopsticks", "chopsticks:magic-fingers", "chopsticks:rollover-even-split", "tictactoe", "nim:small",
         "nim:marienbad", "mutorere", "ponghauki", "toads-and-frogs", "domineering"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def flat_record(solved, node: int) -> dict:
    record = solved.record(node)
    if "hands" in record:
        record["hands"] = [f for hand in record["hands"] for f in hand]
    return record


@pytest.mark.parametrize("spec", GAMES)
def test_mirror_attributes_equal_the_solved_graph(spec):
    solved = build(spec)
    graph = solved.graph
    G = mirror.to_networkx(solved)
    assert isinstance(G, nx.DiGraph)
    assert G.number_of_nodes() == graph.num_positions and G.number_of_edges() == graph.num_moves
    for node in range(graph.num_positions):
        assert G.nodes[graph.key(node)] == flat_record(solved, node)
    for node in range(graph.num_positions):
        key = graph.key(node)
        successors = {m["to"]: m for m in solved.moves(node)}
        assert set(G.successors(key)) == set(successors)
        for child, move in successors.items():
            assert G.edges[key, child] == {"label": move["label"], "optimal": move["optimal"]}
    counts = solved.solution.counts()
    assert G.graph["id"] == graph.graph_id and G.graph["name"] == solved.game.name
    assert G.graph["spec"] == solved.game.display_name and G.graph["symmetry"] == graph.symmetry
    assert G.graph["positions"] == graph.num_positions and G.graph["moves"] == graph.num_moves
    assert G.graph["start_key"] == graph.key(0) and "solved_at" in G.graph
    assert {v: G.graph[v] for v in counts} == counts
    for name in solved.game.params.__dataclass_fields__:  # one property per parameter, tuples as lists
        value = getattr(solved.game.params, name)
        assert G.graph[name] == (list(value) if isinstance(value, tuple) else value)


def test_draws_have_no_remoteness_and_nested_fields_are_flattened():
    G = mirror.to_networkx(build("chopsticks"))
    start = G.nodes["A|1-1|1-1"]
    assert start["value"] == "draw" and start["remoteness"] is None and start["hands"] == [1, 1, 1, 1]
    assert all(isinstance(v, (int, str, bool, list, type(None))) for _, data in G.nodes(data=True) for v in data.values())
    assert all(not isinstance(x, list) for _, data in G.nodes(data=True) for x in data["hands"])


def test_no_symmetry_gives_a_larger_mirror_with_its_own_id():
    G = mirror.to_networkx(build("chopsticks", symmetry=False))
    assert G.graph["id"].endswith("[nosym]") and G.graph["symmetry"] is False
    assert G.number_of_nodes() > build("chopsticks").graph.num_positions


def test_flatten():
    assert mirror.flatten(((1, 2), (3, 4))) == [1, 2, 3, 4]
    assert mirror.flatten([[1, [2, 3]], 4]) == [1, 2, 3, 4]
    assert mirror.flatten((1, 3, 5)) == [1, 3, 5]
    assert mirror.flatten("A|1-1|1-1") == "A|1-1|1-1" and mirror.flatten(None) is None


def test_save_and_open_round_trip(tmp_path):
    G = mirror.to_networkx(build("chopsticks:magic-fingers"))
    path = mirror.save(G, tmp_path / "deep" / "m.npz")
    assert path.exists() and not list(path.parent.glob("*.partial"))
    H = mirror.open(path)
    assert H.graph == G.graph
    assert dict(H.nodes(data=True)) == dict(G.nodes(data=True))
    assert {(a, b): d for a, b, d in H.edges(data=True)} == {(a, b): d for a, b, d in G.edges(data=True)}


def test_open_refuses_a_file_that_is_not_a_mirror(tmp_path):
    import pickle

    path = tmp_path / "x.pickle"
    path.write_bytes(pickle.dumps({"not": "a graph"}))
    with pytest.raises(ValueError, match="networkx mirror"):
        mirror.open(path)


def test_mirror_for_caches_and_reopens_fast(home, monkeypatch):
    game = parse_spec("chopsticks:magic-fingers")
    path = mirror.mirror_path(game)
    assert path.parent == home / "mirrors" and path.name.startswith("chopsticks-") and path.suffix == ".npz"
    G = mirror.mirror_for("chopsticks:magic-fingers")
    assert path.exists()
    written = path.stat().st_mtime_ns

    def rebuilt(*args, **kwargs):
        raise AssertionError("the mirror was solved or built again instead of reopened")

    with monkeypatch.context() as patched:  # the second call reads the file: no solve, no build
        patched.setattr(mirror, "load_or_build", rebuilt)
        patched.setattr(mirror, "to_networkx", rebuilt)
        H = mirror.mirror_for("chopsticks:magic-fingers")
    assert path.stat().st_mtime_ns == written  # reopened, not rebuilt
    assert H.graph == G.graph and dict(H.nodes(data=True)) == dict(G.nodes(data=True))


def test_mirror_for_keeps_symmetry_variants_apart(home):
    G = mirror.mirror_for("chopsticks")
    N = mirror.mirror_for(parse_spec("chopsticks"), symmetry=False)
    assert G.graph["id"] != N.graph["id"] and N.number_of_nodes() > G.number_of_nodes()
    assert mirror.mirror_path(parse_spec("chopsticks")) != mirror.mirror_path(parse_spec("chopsticks"), symmetry=False)


def test_mirror_for_rebuilds_a_torn_cache_file(home):
    game = parse_spec("nim:small")
    path = mirror.mirror_path(game)
    expected = mirror.mirror_for(game)
    path.write_bytes(path.read_bytes()[:50])  # a crash mid-write of an older, non-atomic writer
    G = mirror.mirror_for(game)
    assert dict(G.nodes(data=True)) == dict(expected.nodes(data=True))
    assert mirror.open(path).number_of_nodes() == expected.number_of_nodes()


@pytest.mark.parametrize("spec", GAMES + ["connect4:small", "teeko:small", "dodgem", "nim(heaps=0)"])
def test_position_columns_are_the_per_position_references_with_their_types(spec):
    solved = build(spec)
    fast, reference = mirror.position_columns(solved), mirror.position_columns_per_position(solved)
    assert list(fast) == list(reference)
    for name in reference:
        assert fast[name] == reference[name], name
        assert [type(v) for v in fast[name]] == [type(v) for v in reference[name]], name  # True is not 1
