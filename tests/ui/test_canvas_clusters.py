"""The canvas's level of detail (explorer/ui/canvas/clusters.py, issue 35) over real games, without a browser:
every position drawn but the page's in exactly one cluster, the clusters counted again from the solved game (value
and remoteness), from a breadth-first search of the drawn moves (distance) and from networkx's strongly connected
components of the drawn subgraph (cycles); each bundled move's count equal to the moves between its two ends; an
opened cluster drawn as its positions, around the place it had, clear of every other node's box."""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas import clusters
from explorer.ui.canvas.layout import node_box
from explorer.ui.widgets import player_name

GAMES = [("tictactoe", 4), ("chopsticks:standard", 4), ("dodgem(size=3)", 4)]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{spec}-{k}" for spec, k in GAMES])
def drawn(request):
    spec, k = request.param
    solved = load_or_build(spec)
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, Backend("arrays", "the solved arrays"), key, k, "both", False, ("s",), 0)
    return spec, k, solved, key, grown


def _digraph(grown) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(grown.nodes)
    g.add_edges_from((e["data"]["source"], e["data"]["target"]) for e in grown.edges.values())
    return g


def _partition(groups: dict[str, list[str]], grown, focus: str) -> None:
    members = [key for keys in groups.values() for key in keys]
    assert len(members) == len(set(members)), "a position in two clusters"
    assert set(members) == set(grown.nodes) - {focus}, "every position but the page's is in a cluster"


def test_value_clusters_are_the_positions_of_one_value_remoteness_and_mover(drawn):
    spec, k, solved, focus, grown = drawn
    groups = clusters.clusters_of(grown.nodes, grown.edges, "value", focus)
    _partition(groups, grown, focus)
    g = solved.graph
    expected = Counter()
    for key in grown.nodes:  # from the solved game, not the canvas's data
        if key != focus:
            node = g.find(key)
            record = solved.record(node)
            expected[(str(record["value"]), record["remoteness"], player_name(solved.game, int(g.to_move[node])))] += 1
    got = Counter()
    for cluster, keys in groups.items():
        _, value, remoteness, mover = cluster.split(" ", 3)
        got[(value, None if remoteness == "-" else int(remoteness), mover)] += len(keys)
        node = clusters.cluster_node(cluster, keys, grown.nodes)["data"]   # its info panel's facts
        assert (node["value"], node.get("remoteness"), node["to move"]) == (
            value, None if remoteness == "-" else int(remoteness), mover)
    assert got == expected
    assert len(groups) < len(grown.nodes) / 2  # a level of detail: far fewer nodes than positions


def test_distance_clusters_are_the_rings_around_the_focus(drawn):
    spec, k, solved, focus, grown = drawn
    groups = clusters.clusters_of(grown.nodes, grown.edges, "distance", focus)
    _partition(groups, grown, focus)
    rings = nx.single_source_shortest_path_length(_digraph(grown).to_undirected(), focus)
    expected = Counter(f"d {d}" for key, d in rings.items() if key != focus)
    expected.update("d -" for key in grown.nodes if key not in rings)
    assert Counter({c: len(keys) for c, keys in groups.items()}) == expected
    assert max(rings.values()) <= k


def test_cycle_clusters_are_networkx_strongly_connected_components(drawn):
    spec, k, solved, focus, grown = drawn
    groups = clusters.clusters_of(grown.nodes, grown.edges, "cycles", focus)
    _partition(groups, grown, focus)
    components = [c for c in nx.strongly_connected_components(_digraph(grown)) if len(c) > 1]
    got = [set(keys) for cluster, keys in groups.items() if cluster.startswith("c ")]
    # the focus is drawn as itself: its component's cluster holds the rest of it
    assert sorted(map(sorted, got)) == sorted(sorted(c - {focus}) for c in components if len(c - {focus}) > 0)
    if spec.startswith("tictactoe"):
        assert not components  # a game without cycles: grouped by value and remoteness, as "value" does
    else:
        assert components, f"{spec} has cycles on its canvas at k={k}"
    value_groups = clusters.clusters_of(grown.nodes, grown.edges, "value", focus)
    on_cycle = set().union(*components) if components else set()
    for cluster, keys in groups.items():
        if not cluster.startswith("c "):
            assert set(keys) <= set(value_groups[cluster]) and not set(keys) & on_cycle


@pytest.mark.parametrize("grouping", ["value", "distance", "cycles"])
def test_bundled_moves_count_the_moves_between_their_ends(drawn, grouping):
    spec, k, solved, focus, grown = drawn
    view, groups = clusters.cluster_view(grown, grouping, [], focus)
    where = {key: clusters.node_id(c) for c, keys in groups.items() for key in keys}
    where[focus] = focus
    assert set(view.nodes) == {focus} | {clusters.node_id(c) for c in groups}
    assert view.nodes[focus]["data"].get("_focus") and not view.nodes[focus]["data"].get("_cluster")
    for c, keys in groups.items():
        data = view.nodes[clusters.node_id(c)]["data"]
        assert data["_count"] == data["positions"] == len(keys) and data["label"].endswith(
            f"{len(keys):,} position{'' if len(keys) == 1 else 's'}")
    between = Counter((where[e["data"]["source"]], where[e["data"]["target"]]) for e in grown.edges.values())
    inside = sum(n for (a, b), n in between.items() if a == b and clusters.is_cluster(a))
    drawn_moves = {(e["data"]["source"], e["data"]["target"]): e["data"].get("_count", 1) for e in view.edges.values()}
    assert drawn_moves == {pair: n for pair, n in between.items() if not (pair[0] == pair[1] and clusters.is_cluster(pair[0]))}
    assert sum(drawn_moves.values()) + inside == len(grown.edges)
    for edge in view.edges.values():  # a bundle is a best move when one of its moves is
        a, b = edge["data"]["source"], edge["data"]["target"]
        best = any(e["data"]["optimal"] for e in grown.edges.values()
                   if where[e["data"]["source"]] == a and where[e["data"]["target"]] == b)
        assert edge["data"]["optimal"] == best


def test_the_canvas_is_left_as_it_was(drawn):
    import copy

    spec, k, solved, focus, grown = drawn
    kept = copy.deepcopy((grown.nodes, grown.edges))
    for grouping in ("value", "distance", "cycles"):
        for name in ("layered", "concentric", "force"):
            some = list(clusters.clusters_of(grown.nodes, grown.edges, grouping, focus))[:2]
            clusters.view_layout(grown, grouping, some, focus, name)
    assert (grown.nodes, grown.edges) == kept


@pytest.mark.parametrize("name", ["layered", "concentric"])
def test_an_opened_cluster_is_drawn_as_its_positions_around_its_place_clear_of_the_rest(drawn, name):
    spec, k, solved, focus, grown = drawn
    closed_view, closed = clusters.view_layout(grown, "value", [], focus, name)
    groups = clusters.clusters_of(grown.nodes, grown.edges, "value", focus)
    biggest = max(groups, key=lambda c: len(groups[c]))
    view, layout = clusters.view_layout(grown, "value", [biggest], focus, name)
    positions = layout["positions"]
    assert clusters.node_id(biggest) not in view.nodes
    assert set(groups[biggest]) <= set(view.nodes) and set(positions) == set(view.nodes)
    for key in groups[biggest]:
        assert not view.nodes[key]["data"].get("_cluster")
    # nothing else moved
    for ident, place in closed["positions"].items():
        if ident in view.nodes:
            assert positions[ident] == place
    # the members are around the place the cluster had: nearer it than the farthest other node is
    centre = closed["positions"][clusters.node_id(biggest)]
    others = [p for i, p in closed["positions"].items() if i != clusters.node_id(biggest)]
    far = max(abs(p["x"] - centre["x"]) + abs(p["y"] - centre["y"]) for p in others)
    assert all(abs(positions[m]["x"] - centre["x"]) + abs(positions[m]["y"] - centre["y"]) <= far + 400
               for m in groups[biggest])
    _no_box_overlaps(view, positions)


@pytest.mark.parametrize("grouping", ["value", "distance", "cycles"])
@pytest.mark.parametrize("name", ["layered", "concentric"])
def test_cluster_nodes_and_their_labels_do_not_overlap(drawn, grouping, name):
    spec, k, solved, focus, grown = drawn
    view, layout = clusters.view_layout(grown, grouping, [], focus, name)
    assert set(layout["positions"]) == set(view.nodes)
    _no_box_overlaps(view, layout["positions"])


def _no_box_overlaps(view, positions) -> None:
    """Each node's box (its disc at the layout's size and its label where `_tm` puts it) clear of every other's."""
    boxes = {}
    for ident, element in view.nodes.items():
        data = element["data"]
        scale = clusters.FOCUS_SCALE if data.get("_focus") else 1.0
        p = positions[ident]
        boxes[ident] = node_box(p["x"], p["y"], str(data.get("label", "")).split("\n"), clusters.CLUSTER_SIZE * scale / 2)
    keys = list(boxes)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            p, q = boxes[a], boxes[b]
            assert p[2] <= q[0] or q[2] <= p[0] or p[3] <= q[1] or q[3] <= p[1], (a, b, p, q)


def test_labels_sit_where_the_layout_leaves_room_for_them(drawn):
    """A node smaller than the layout's room has its label moved down (`_tm`) to where the room puts it."""
    from explorer.ui.canvas.marks import NODE_SIZE, TEXT_MARGIN

    spec, k, solved, focus, grown = drawn
    view, _ = clusters.cluster_view(grown, "value", [], focus)
    for element in view.nodes.values():
        data = element["data"]
        scale = clusters.FOCUS_SCALE if data.get("_focus") else 1.0
        own = data["_cw"] if data.get("_cluster") else NODE_SIZE * scale
        assert data["_tm"] == pytest.approx(TEXT_MARGIN + (clusters.CLUSTER_SIZE * scale - own) / 2, abs=0.06)
        assert own <= clusters.CLUSTER_SIZE * scale


def test_the_default_grouping():
    assert clusters.default_grouping(162, 279, 4) == "value"
    assert clusters.default_grouping(151, 150, 2) == "value"   # a tree past AUTO_NODES
    assert clusters.default_grouping(150, 149, 2) == "off"
    assert clusters.default_grouping(61, 60, 3) == "value"
    assert clusters.default_grouping(34, 34, 3) == "off"   # chopsticks at k=3 reads position by position


def test_density_counts_beside_size():
    """Moves that close cycles make a canvas open grouped at fewer positions than a tree: the same 86 positions
    open plain as a tree and grouped with dobutsu:small's 122 moves at k=2 (the stranger's hairball)."""
    assert clusters.clutter(86, 85) == 86 and clusters.clutter(86, 122) == 86 + clusters.CYCLE_WEIGHT * 37
    assert clusters.default_grouping(86, 85, 2) == "off"
    assert clusters.default_grouping(86, 122, 2) == "value"
    assert clusters.clutter(5, 2) == 5  # (a canvas in parts: no negative cycle rank)


@pytest.mark.parametrize("spec, grouped", [("tictactoe", False), ("chopsticks:standard", False),
                                            ("dodgem(size=3)", False), ("dobutsu:small", True)])
def test_at_k_2_the_small_games_open_plain_and_dobutsu_small_grouped(spec, grouped):
    """The decision on the canvases the page starts at k=2 (graphs.DEFAULT_K), counted from the games themselves."""
    from explorer.ui.graphs import DEFAULT_K

    solved = load_or_build(spec)
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, Backend("arrays", "the solved arrays"), key, DEFAULT_K, "both", False,
                         ("s",), 0)
    chosen = clusters.default_grouping(len(grown.nodes), len(grown.edges), DEFAULT_K)
    assert chosen == ("value" if grouped else "off"), (spec, len(grown.nodes), len(grown.edges))


def test_cluster_titles_read_as_words():
    assert clusters.cluster_title("v win 3 X") == "X wins in 3"
    assert clusters.cluster_title("v loss 0 O") == "O has lost"
    assert clusters.cluster_title("v tie 6 O") == "O ties in 6"
    assert clusters.cluster_title("v draw - B") == "B draws"
    assert clusters.cluster_title("d 1") == "1 move away" and clusters.cluster_title("d 2") == "2 moves away"
    assert clusters.cluster_title("c A|1-1|0-3") == "a cycle"


def test_a_position_found_marks_its_cluster(drawn):
    """What the canvas's search marks (search.mark: `_found` 1, the rest 0) is marked on the cluster that holds it."""
    import copy

    spec, k, solved, focus, grown = drawn
    grown = copy.deepcopy(grown)
    groups = clusters.clusters_of(grown.nodes, grown.edges, "value", focus)
    target = max(groups, key=lambda c: len(groups[c]))
    for key, node in grown.nodes.items():
        node["data"]["_found"] = int(key == groups[target][-1])
    view, _ = clusters.cluster_view(grown, "value", [], focus)
    marked = {i for i, n in view.nodes.items() if n["data"].get("_found")}
    assert marked == {clusters.node_id(target)}
    assert all(n["data"].get("_found") == 0 for i, n in view.nodes.items() if i not in marked)
