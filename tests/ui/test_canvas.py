"""explorer.ui.canvas without a browser: the elements it sends, how expanding and collapsing
change them, the layouts it computes, and the console's graph as elements.

Each expectation is checked against the solved graph itself (its successors, values and
remoteness), not against numbers written here."""

from __future__ import annotations

import math

import pytest

from explorer.render import palette
from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend


@pytest.fixture(scope="module")
def chopsticks():
    solved = load_or_build("chopsticks:standard")
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for("chopsticks:standard")))
    return solved, backend


def test_the_start_holds_the_neighbourhood_with_facts_and_fills(chopsticks):
    solved, backend = chopsticks
    key = "A|1-2|1-3"
    grown = canvas.start(solved.game, solved, backend, key, 1, "out", False, ("s",), 0)
    node = solved.graph.find(key)
    expected = {key} | {solved.graph.key(int(t)) for t in solved.graph.successors(node)}
    assert set(grown.nodes) == expected
    assert all(e["data"]["source"] == key for e in grown.edges.values())
    for k, element in grown.nodes.items():
        record = solved.record(solved.graph.find(k))
        assert element["data"]["value"] == record["value"]
        assert element["data"]["_fill_value"] == palette.FILLS[record["value"]]
        assert element["data"]["_border"] == palette.COLOURS[record["value"]]
        assert ("_focus" in element["data"]) == (k == key)
        assert ("_scc" in element["data"] and element["data"]["_scc"] >= 0) == bool(record["on_cycle"])
    optimal = {e["data"]["target"] for e in grown.edges.values() if e["data"]["optimal"]}
    assert optimal == {m["to"] for m in solved.moves(node) if m["optimal"]} & set(grown.nodes)


def test_expand_adds_neighbours_and_collapse_takes_them_away_again(chopsticks):
    solved, backend = chopsticks
    key = "A|1-2|1-3"
    grown = canvas.start(solved.game, solved, backend, key, 1, "out", False, ("s",), 0)
    base_nodes, base_edges = set(grown.nodes), set(grown.edges)
    leaf = sorted(base_nodes - {key})[0]
    added = canvas.expand(grown, solved.game, solved, backend, leaf, "out", False, key)
    successors = {solved.graph.key(int(t)) for t in solved.graph.successors(solved.graph.find(leaf))}
    assert added == successors - base_nodes and added
    assert successors <= set(grown.nodes)
    assert {e["data"]["target"] for e in grown.edges.values() if e["data"]["source"] == leaf} == successors
    # a second expansion from a node the first one brought, then collapse the first: both go
    deeper = sorted(added)[0]
    brought = canvas.expand(grown, solved.game, solved, backend, deeper, "out", False, key)
    gone = canvas.collapse(grown, leaf)
    assert gone == added | brought
    assert set(grown.nodes) == base_nodes and set(grown.edges) == base_edges
    assert all(e["data"]["source"] in grown.nodes and e["data"]["target"] in grown.nodes for e in grown.edges.values())


def test_an_expansion_that_adds_nothing_says_so_and_is_not_kept(chopsticks):
    """The stranger's double-click (issue 35) on a node whose neighbours were all drawn said nothing, yet the
    saved scene's exp= named it: one short line now, and the expansion is not kept (exp= is made from `grown`)."""
    solved, backend = chopsticks
    key = "A|1-2|1-3"
    grown = canvas.start(solved.game, solved, backend, key, 1, "out", False, ("s",), 0)
    nodes, edges = set(grown.nodes), set(grown.edges)
    assert canvas.expand(grown, solved.game, solved, backend, key, "out", False, key) == set()
    assert set(grown.nodes) == nodes and set(grown.edges) == edges
    assert key not in grown.grown
    assert len(grown.said) == 1 and "added nothing" in grown.said[0] and key in grown.said[0]
    canvas.expand(grown, solved.game, solved, backend, key, "out", False, key)  # asked again: said once
    assert len(grown.said) == 1
    leaf = sorted(nodes - {key})[0]  # one that adds something is kept, as before
    assert canvas.expand(grown, solved.game, solved, backend, leaf, "out", False, key)
    assert leaf in grown.grown


def test_an_expansions_line_goes_with_the_next_action(chopsticks, monkeypatch):
    """The stranger's stale note: "Expanding … added nothing" stayed below the canvas after later expansions
    that did add positions. It belongs to that double-click: the next event (panel._on_event, as the
    component sends it) replaces it, and the canvas's own notes (how it started) stay."""
    from explorer.ui.canvas import panel

    solved, backend = chopsticks
    key = "A|1-2|1-3"
    grown = canvas.start(solved.game, solved, backend, key, 1, "out", False, ("s",), 0)
    grown.notes.append("how the canvas started")
    session = {canvas.GROWN: grown, "canvas_expand": "out"}
    monkeypatch.setattr(panel.st, "session_state", session)
    leaf = sorted(set(grown.nodes) - {key})[0]

    def double_click(node: str, stamp: int) -> None:
        session["w"] = {"action": "expand", "data": {"node_ids": [node]}, "timestamp": stamp}
        panel._on_event(solved.game, "chopsticks:standard", solved, backend, key, "w")

    double_click(key, 1)  # its successors are all drawn: nothing added
    assert [n for n in grown.said if "added nothing" in n]
    before = len(grown.nodes)
    double_click(leaf, 2)
    assert len(grown.nodes) > before  # this one added positions
    assert not [n for n in grown.said if "added nothing" in n], grown.said
    assert grown.notes == ["how the canvas started"]
    double_click(leaf, 2)  # the component repeating its last event changes nothing
    assert not grown.said


def test_a_full_canvas_says_why_it_cannot_expand_once_and_how_to_make_room(chopsticks, monkeypatch):
    solved, backend = chopsticks
    key = "A|1-2|1-3"
    monkeypatch.setattr(canvas.elements, "MAX_NODES", 5)
    grown = canvas.start(solved.game, solved, backend, key, 3, "out", False, ("s",), 0)
    assert len(grown.nodes) == 5 and "remove or collapse some to expand others" in grown.notes[-1]
    leaf = sorted(set(grown.nodes) - {key})[0]
    for _ in range(3):  # double-clicked again and again
        assert canvas.expand(grown, solved.game, solved, backend, leaf, "out", False, key) == set()
    refusals = [note for note in grown.said if "holds at most 5 positions" in note]
    assert len(refusals) == 1 and len(grown.nodes) == 5
    canvas.remove(grown, {sorted(set(grown.nodes) - {key, leaf})[0]})
    assert canvas.expand(grown, solved.game, solved, backend, leaf, "out", False, key)  # room again


def test_collapse_keeps_what_another_expansion_still_holds(chopsticks):
    solved, backend = chopsticks
    key = "A|1-2|1-3"
    grown = canvas.start(solved.game, solved, backend, key, 1, "out", False, ("s",), 0)
    first, second = sorted(set(grown.nodes) - {key})[:2]
    from_first = canvas.expand(grown, solved.game, solved, backend, first, "out", False, key)
    canvas.expand(grown, solved.game, solved, backend, second, "out", False, key)
    shared = from_first & {solved.graph.key(int(t)) for t in solved.graph.successors(solved.graph.find(second))}
    canvas.collapse(grown, first)
    assert shared <= set(grown.nodes)


def test_the_predecessor_direction_adds_moves_into_the_node(chopsticks):
    solved, backend = chopsticks
    key = "A|1-2|1-3"
    grown = canvas.start(solved.game, solved, backend, key, 1, "out", False, ("s",), 0)
    canvas.expand(grown, solved.game, solved, backend, key, "in", False, key)
    into = {e["data"]["source"] for e in grown.edges.values() if e["data"]["target"] == key}
    assert into and all(key in {solved.graph.key(int(t)) for t in solved.graph.successors(solved.graph.find(p))}
                        for p in into)


def test_layered_bands_follow_remoteness_and_rings_follow_distance(chopsticks):
    solved, backend = chopsticks
    key = "A|1-2|1-3"
    grown = canvas.start(solved.game, solved, backend, key, 3, "both", False, ("s",), 0)
    layered = canvas.layered_positions(grown.nodes)
    remoteness = {k: e["data"].get("remoteness") for k, e in grown.nodes.items()}
    finite = sorted((r, -layered[k]["y"]) for k, r in remoteness.items() if r is not None)
    assert all(a[1] <= b[1] for a, b in zip(finite, finite[1:]) if a[0] < b[0])  # higher remoteness, higher band
    draws = [-layered[k]["y"] for k, r in remoteness.items() if r is None]
    assert draws and min(draws) > max(y for _, y in finite)  # draws in the top band
    rings = canvas.concentric_positions(grown.nodes, grown.edges, key)
    assert rings[key] == {"x": 0.0, "y": 0.0}
    radius = {k: (p["x"] ** 2 + p["y"] ** 2) ** 0.5 for k, p in rings.items()}
    one_away = {e["data"]["target"] for e in grown.edges.values() if e["data"]["source"] == key} | {
        e["data"]["source"] for e in grown.edges.values() if e["data"]["target"] == key}
    assert max(radius[k] for k in one_away) < min(r for k, r in radius.items() if k not in one_away | {key})


def test_boards_are_svg_pictures_and_toggle_without_touching_the_rest():
    solved = load_or_build("tictactoe")
    backend = Backend("arrays", "the solved arrays")
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, 1, "out", False, ("s",), 0)
    before = {k: dict(e["data"]) for k, e in grown.nodes.items()}
    canvas.set_boards(grown, solved.game, solved, True)
    assert all(e["data"]["_image"].startswith("data:image/svg+xml;base64,") for e in grown.nodes.values())
    canvas.set_boards(grown, solved.game, solved, False)
    assert {k: e["data"] for k, e in grown.nodes.items()} == before


def test_style_rules_switch_the_fill_by_colouring_only():
    for colouring in canvas.COLOURINGS:
        rules = [r.dump() for r in canvas.style_rules(colouring, True, False)]
        node = next(r for r in rules if r["selector"] == "node")
        assert node["style"]["background-color"] == f"data(_fill_{colouring})"
    assert next(r for r in (x.dump() for x in canvas.style_rules("value", False, False))
                if r["selector"] == "edge")["style"]["label"] == ""
    # a large canvas draws cheap edges (later rules win in Cytoscape.js), labels or not
    large = [r.dump() for r in canvas.style_rules("value", True, False, large=True)]
    edge = [r for r in large if r["selector"] == "edge"][-1]["style"]
    assert edge["curve-style"] == "haystack"
    # ... and is lean: marked first (canvas_view.js drops the component's defaults before the mark), and no
    # rule for every node or move sets a label, an arrow or a font (Cytoscape.js, which draws neither, would
    # still compute them for each of thousands of elements; Cytoscape's defaults are no label and no arrow)
    assert large[0]["selector"] == canvas.LEAN_MARK
    for rule in large:
        if rule["selector"] in ("node", "edge"):
            assert not {"label", "source-label", "target-arrow-shape", "font-size", "text-rotation"} & set(rule["style"])
    # ... but the selected node's moves (the component highlights them) keep their arrows and names
    chosen = [r for r in large if r["selector"] == "edge:selected, edge.highlight"][-1]["style"]
    assert chosen["target-arrow-shape"] == "triangle" and chosen["curve-style"] == "straight"
    assert chosen["label"] == "data(move)"
    # ... and the focus and the selected position their keys
    assert next(r for r in large if r["selector"] == "node:selected, node[_focus]")["style"]["label"] == "data(label)"
    # a small canvas's sheet is not marked: the component's look stays under it
    assert all(r["selector"] != canvas.LEAN_MARK for r in rules)


def test_console_graph_becomes_elements_and_only_this_games_positions_open():
    graph = {"nodes": [{"id": "n:1", "labels": ["Position"], "properties": {"key": "A|1", "value": "win", "game": "g1"}},
                       {"id": "n:2", "labels": ["Position"], "properties": {"key": "B|0", "value": "loss", "game": "g2"}}],
             "relationships": [{"id": "r:1", "type": "MOVE", "start": "n:1", "end": "n:2",
                                "properties": {"label": "take", "optimal": True}}]}
    elements = canvas.console_elements(graph, "g1")
    nodes = {n["data"]["id"]: n["data"] for n in elements["nodes"]}
    assert nodes["n:1"]["label"] == "A|1" and nodes["n:1"]["_key"] == "A|1"
    assert "_key" not in nodes["n:2"]  # another game's position is drawn but not opened on this page
    assert nodes["n:2"]["_fill_value"] == palette.FILLS["loss"]
    edge = elements["edges"][0]["data"]
    assert (edge["source"], edge["target"], edge["move"], edge["optimal"]) == ("n:1", "n:2", "take", True)


def test_the_layered_layout_splits_the_draws_by_distance_and_fits_the_canvas(chopsticks):
    """Chopsticks near its start is nearly all draws: they used to make one band, many nodes wide,
    which the fit shrank until the keys were hidden. Now one band per distance from the focus,
    wrapped to about the canvas's shape, every node clear of the others."""
    solved, backend = chopsticks
    key = "B|1-2|1-4"
    grown = canvas.start(solved.game, solved, backend, key, 2, "both", False, ("s",), 0)
    positions = canvas.layout_for("layered", grown, key)["positions"]
    assert set(positions) == set(grown.nodes)
    hops = canvas._hops(grown.nodes, grown.edges, key)
    draws = [k for k, e in grown.nodes.items() if e["data"].get("remoteness") is None]
    assert len(draws) > len(grown.nodes) / 2
    bands = {}
    for k in draws:
        bands.setdefault(hops[k], set()).add(positions[k]["y"])
    assert len(bands) > 1
    for d, ys in bands.items():  # a nearer band's lines are all below a farther band's
        for e, others in bands.items():
            if d < e:
                assert min(ys) > max(others)
    xs = [p["x"] for p in positions.values()]
    ys = [p["y"] for p in positions.values()]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    assert 0.6 <= width / height <= 2.5  # the canvas is 940 x 640
    per_line = {}
    for p in positions.values():
        per_line[p["y"]] = per_line.get(p["y"], 0) + 1
    assert max(per_line.values()) <= canvas.row_width(len(positions))
    points = list(positions.values())
    closest = min(((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5
                  for i, a in enumerate(points) for b in points[i + 1:])
    assert closest >= 0.8 * canvas.SPACING


def test_an_expansion_places_its_nodes_around_the_node_and_moves_nothing_else(chopsticks):
    solved, backend = chopsticks
    key = "B|1-2|1-4"
    grown = canvas.start(solved.game, solved, backend, key, 1, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for("layered", grown, key)
    before = dict(grown.layout["positions"])
    hops = canvas._hops(grown.nodes, grown.edges, key)
    for edge_node in sorted(k for k, d in hops.items() if d == 1):  # the first one that brings new nodes
        new = canvas.expand(grown, solved.game, solved, backend, edge_node, "both", False, key)
        if new:
            break
    assert new
    canvas.grow_layout(grown, edge_node, new)
    after = grown.layout["positions"]
    assert {k: after[k] for k in before} == before               # nothing already placed moved
    assert set(after) == set(grown.nodes)
    centre = after[edge_node]
    for k in new:
        others = [p for o, p in after.items() if o != k]
        assert min(((after[k]["x"] - p["x"]) ** 2 + (after[k]["y"] - p["y"]) ** 2) ** 0.5
                   for p in others) >= 0.9 * canvas.SPACING         # not crowded
        assert ((after[k]["x"] - centre["x"]) ** 2 + (after[k]["y"] - centre["y"]) ** 2) ** 0.5 <= 5 * canvas.SPACING
    assert grown.layout["fit"] is False and grown.layout["animationDuration"] > 500


def _played(game, board, label):
    """The board `label` leaves when played on `board` (the rules' own move of that name)."""
    moves = [m.position for m in game.moves(board) if m.label == label]
    assert moves, f"no move {label!r} on {game.format(board)}"
    return moves[0]


@pytest.mark.parametrize("spec", ["tictactoe", "connect4"])
def test_moves_are_named_on_the_board_drawn_and_lead_to_the_board_drawn(spec):
    """Mirror images are one node. Starting from the page's board in an orientation other than the
    stored one, each move on the canvas is named as on the board drawn at its start (as the moves
    table names it), and leads to the board drawn at its end, or is marked as leading to its mirror."""
    from explorer.ui import position
    solved = load_or_build(spec)
    game = solved.game
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    # a position one move in whose mirror image is not stored: the page shows it as played
    start = solved.graph.position(0)
    twin = next(m.position for m in game.moves(start) if game.format(m.position) != game.key(m.position))
    key = game.key(twin)
    grown = canvas.start(game, solved, backend, key, 2, "out", True, ("s",), 0, twin)
    assert grown.nodes[key]["data"]["position"] == game.format(twin)
    assert grown.nodes[key]["data"]["label"] == canvas.board_label(game.format(twin))
    table = {m["to"]: shown.label for m, shown in position.shown_moves(solved, solved.graph.find(key), twin)}
    marked = 0
    for edge in grown.edges.values():
        data = edge["data"]
        source, target = grown.shown[data["source"]], grown.shown[data["target"]]
        label = data["move"].removesuffix(canvas.MIRRORED_MARK)
        after = _played(game, source, label)
        assert game.key(after) == data["target"]                       # the move named reaches that node
        if data.get("_mirrored"):
            marked += 1
            assert game.format(after) != game.format(target)
        else:
            assert game.format(after) == game.format(target)           # and its board is the one drawn
        if data["source"] == key:
            assert label == table[data["target"]]                      # as the moves table names it
    assert marked == grown.mirrored
    assert (canvas.MIRRORED_MARK.strip() in canvas.legend("value", grown.mirrored)) == (marked > 0)
    for k, element in grown.nodes.items():                             # labels and boards as drawn
        assert element["data"]["position"] == game.format(grown.shown[k])   # the info panel's, not the id
        assert element["data"]["label"] == canvas.board_label(game.format(grown.shown[k]))
        assert element["data"]["_image"] == canvas.board_image(game, grown.shown[k])


# -- what a stranger found (issue 18) ------------------------------------------------------------
def test_the_info_panel_shows_facts_in_plain_words(chopsticks):
    """The panel lists a node's data under its names: no raw field names ("terminal") or booleans."""
    solved, backend = chopsticks
    graph = solved.graph
    near_end = next(graph.key(n) for n in range(graph.num_positions)
                    if any(solved.record(int(s))["terminal"] for s in graph.successors(n)))
    grown = canvas.start(solved.game, solved, backend, near_end, 1, "both", False, ("s",), 0)
    ends = 0
    for key, element in grown.nodes.items():
        data = element["data"]
        record = solved.record(solved.graph.find(key))
        shown = {k: v for k, v in data.items() if not k.startswith("_") and k not in ("id", "label")}
        assert not any(isinstance(v, bool) for v in shown.values()), shown
        assert "terminal" not in shown and "on_cycle" not in shown
        assert shown["game over"] == ("yes" if record["terminal"] else "no")
        assert shown["on a cycle"] == ("yes" if record["on_cycle"] else "no")
        assert shown["position"] == solved.game.format(canvas._board(grown, solved, key))  # the board drawn
        # whose value it is, named: the fill shows the page's perspective, "win" alone read against it (H5)
        mover = shown["to move"]
        assert mover in ("A", "B")
        said = {"win": f"{mover} has won" if record["remoteness"] == 0 else f"{mover} wins in {record['remoteness']}",
                "loss": f"{mover} has lost" if record["remoteness"] == 0 else f"{mover} loses in {record['remoteness']}",
                "draw": f"{mover} draws"}
        assert shown["outcome"] == said[record["value"]], (key, shown)
        ends += record["terminal"]
    assert ends  # the check above met a finished game too


def test_the_highlight_is_no_value_colour():
    """What is selected or an expansion brought is highlighted in a colour no value has (the
    component's own red is a loss's), and the page's view keeper is given that colour."""
    distance, nearest = palette.nearest_value(canvas.HIGHLIGHT)
    assert distance >= palette.MIN_DISTANCE, (canvas.HIGHLIGHT, nearest)
    for mark in (canvas.OPTIMAL_EDGE, canvas.OTHER_EDGE):
        assert palette.distance(canvas.HIGHLIGHT, mark) >= palette.MIN_DISTANCE
    script = canvas.VIEW_KEEPER.read_text(encoding="utf-8")
    assert "node.highlight" in script and "edge.highlight" in script and "CONFIG.highlight" in script


# the canvas's box (canvas.HEIGHT high, about 940 px wide in the page) less the info panel's strip
# and the fit's padding: the part a fitted drawing gets
FIT_BOX = (940 - 60 - 60, canvas.HEIGHT - 60)


@pytest.mark.parametrize("spec", ["tictactoe", "connect4"])
def test_board_labels_are_legible_at_the_default_zoom(spec):
    """A grid game's label is its board, row by row (not one line of dots and slashes such as
    `..../..../..../XO..`), drawn at a readable size once the default layered canvas is fitted, and
    no two labels overlap."""
    from explorer.ui import graphs, position

    solved = load_or_build(spec)
    game = solved.game
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(game, solved, backend, key, graphs.DEFAULT_K, "both", False, ("s",), 0,
                         position.shown(solved, solved.graph.find(key)))
    places = canvas.layout_for("layered", grown, key)["positions"]
    boxes = {}
    for k, element in grown.nodes.items():
        rows = element["data"]["position"].split("/")
        lines = element["data"]["label"].split("\n")
        assert max(map(len, lines)) <= max(map(len, rows)) + 2   # as wide as a board row, not the notation
        width, height = max(map(len, lines)) * canvas.LABEL_CHAR, canvas.label_height(len(lines))
        x, y = places[k]["x"], places[k]["y"] + 17               # below the node (34 px)
        boxes[k] = (x - width / 2, y, x + width / 2, y + height)
    x1 = min(b[0] for b in boxes.values()); x2 = max(b[2] for b in boxes.values())
    y1 = min(p["y"] - 17 for p in places.values()); y2 = max(b[3] for b in boxes.values())
    zoom = min(FIT_BOX[0] / (x2 - x1), FIT_BOX[1] / (y2 - y1))
    assert canvas.LABEL_FONT * zoom >= 10, f"labels drawn {canvas.LABEL_FONT * zoom:.1f} px high"
    keys = sorted(boxes)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            A, B = boxes[a], boxes[b]
            assert A[2] <= B[0] or B[2] <= A[0] or A[3] <= B[1] or B[3] <= A[1], (a, b)


def _curve(source, target, bend, steps=40, radii=(0.0, 0.0)):
    """Points of a move as Cytoscape.js draws it: straight, or with `_bend` an unbundled bezier whose one
    control point is `bend` from the middle of the line (positive to the left of source -> target, on
    the screen, whose y grows downwards: as measured in Chromium by the browser test of this); with `radii`,
    from the border of each end's disc towards the control point, where Cytoscape.js starts and ends it."""
    (ax, ay), (bx, by) = source, target
    length = math.hypot(bx - ax, by - ay)
    nx, ny = (-(by - ay) / length, (bx - ax) / length)  # a unit normal
    cx, cy = (ax + bx) / 2 + BEND_SIGN * bend * nx, (ay + by) / 2 + BEND_SIGN * bend * ny
    for r, end in zip(radii, ("a", "b")):
        x, y = (ax, ay) if end == "a" else (bx, by)
        d = math.hypot(cx - x, cy - y)
        if r and d > 1e-9:
            x, y = x + (cx - x) * r / d, y + (cy - y) * r / d
        if end == "a":
            ax, ay = x, y
        else:
            bx, by = x, y
    return [((1 - t) ** 2 * ax + 2 * t * (1 - t) * cx + t * t * bx, (1 - t) ** 2 * ay + 2 * t * (1 - t) * cy + t * t * by)
            for t in (i / steps for i in range(steps + 1))]


BEND_SIGN = 1  # Cytoscape's side for a positive control-point distance (measured in Chromium)


@pytest.mark.parametrize("spec", ["chopsticks:standard", "tictactoe", "connect4"])
def test_no_move_runs_through_a_node(spec):
    """A move is drawn around every node but its two ends (in Chopsticks a move from a band above the
    start to one below it ran straight through the start)."""
    solved = load_or_build(spec)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, 2, "both", False, ("s",), 0)
    places = canvas.layout_for("layered", grown, key)["positions"]
    radius = 17 * 1.25 + 4   # the focus's disc (the largest) and its ring
    for edge in grown.edges.values():
        data = edge["data"]
        a, b = places[data["source"]], places[data["target"]]
        points = _curve((a["x"], a["y"]), (b["x"], b["y"]), data.get("_bend", 0))
        for other, p in places.items():
            if other in (data["source"], data["target"]):
                continue
            closest = min(math.hypot(x - p["x"], y - p["y"]) for x, y in points)
            assert closest > radius, (data["source"], data["target"], other, closest)


BAD_K = ["abc", "999", "-1", "0", "<b>x</b>", "**2**", "9" * 5000]   # past 4,300 digits int() itself raises


def test_k_in_the_address_is_honoured_and_a_bad_one_is_one_escaped_warning(tmp_path, monkeypatch):
    """`&k=3` opens the canvas at k=3 with no warning; a k out of its bounds (or not a number) is said
    in one warning line as Play says a bad side= (quoted, cut to 40 characters, shown literally), the
    canvas keeps its k, and the address is corrected to that k (it was a grey caption, and stayed)."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from explorer.ui import backend as ui_backend, data
    from explorer.ui.widgets import ECHO_LIMIT, echo
    from tests.support.ui_support import text_of

    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")   # nothing listens there: the mirror answers
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    ui_backend.connection.clear()
    app = str(Path(canvas.__file__).parent.parent / "app.py")

    def page(k: str) -> AppTest:
        at = AppTest.from_file(app, default_timeout=300)
        at.query_params.update(game="chopsticks:standard", view="Neighbourhood", k=k)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    at = page("3")
    assert at.number_input(key="hood_k").value == 3
    assert any("within 3 of" in c.value for c in at.caption)
    assert not at.warning and at.query_params["k"] == "3"
    assert at.query_params["view"] == "Neighbourhood"  # the link's view is kept after the run (it was dropped)
    for bad in BAD_K:
        at = page(bad)
        used = at.number_input(key="hood_k").value
        assert 1 <= used <= data.MAX_K and str(used) != bad
        said = [text_of(w.value) for w in at.warning]
        assert len(said) == 1, said
        assert echo(bad) in said[0] and f"from 1 to {data.MAX_K}" in said[0], said
        assert f"the canvas uses k={used} instead" in said[0], said
        assert len(said[0]) < ECHO_LIMIT + 200   # a long value is cut, not repeated whole
        raw = at.warning[0].value
        assert "<b>" not in raw and "**" not in raw   # shown literally: escaped, never bold or HTML
        assert any(f"within {used} of" in c.value for c in at.caption)
        assert at.query_params["k"] == str(used)   # the address corrected
        assert not any("in the page's address" in c.value for c in at.caption)   # no grey caption too
    ui_backend.connection.clear()


def test_a_layered_layout_much_taller_than_the_canvas_is_set_in_columns_of_whole_bands():
    """A part of a game with long lines (two positions at each of 40 remoteness values) was one tall column
    that the canvas fitted at a fifth of its size: its bands go side by side, about the canvas's shape,
    each band whole and in one column, remoteness still growing upwards within a column."""
    from explorer.ui import canvas

    nodes = {f"p{r}-{i}": {"data": {"id": f"p{r}-{i}", "label": f"p{r}-{i}", "value": "win" if r % 2 else "loss",
                                    "remoteness": r}} for r in range(40) for i in range(2)}
    positions = canvas.layered_positions(nodes)
    xs, ys = [p["x"] for p in positions.values()], [p["y"] for p in positions.values()]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    assert canvas.CANVAS_SHAPE / 2.5 < width / height < canvas.CANVAS_SHAPE * 2.5, (width, height)
    assert len({round(positions[f"p{r}-0"]["x"] + positions[f"p{r}-1"]["x"]) for r in range(40)}) > 1  # columns
    for r in range(40):  # a band is whole: both of its positions on one line
        assert positions[f"p{r}-0"]["y"] == positions[f"p{r}-1"]["y"]
    column_of = {}
    for r in range(40):
        column_of[r] = sum(1 for c in sorted({round(positions[f"p{q}-0"]["x"] + positions[f"p{q}-1"]["x"])
                                               for q in range(40)})
                           if c < round(positions[f"p{r}-0"]["x"] + positions[f"p{r}-1"]["x"]))
    for r in range(39):  # read in order: up a column, then on in the next one to the right
        same = column_of[r] == column_of[r + 1]
        assert (same and positions[f"p{r + 1}-0"]["y"] < positions[f"p{r}-0"]["y"]) or \
            column_of[r + 1] == column_of[r] + 1, r
    short = {k: v for k, v in nodes.items() if v["data"]["remoteness"] < 3}
    placed = canvas.layered_positions(short)  # a drawing of the canvas's shape already: one column
    assert all(abs(placed[f"p{r}-0"]["x"] + placed[f"p{r}-1"]["x"]) < 1e-6 for r in range(3))  # one centred column


@pytest.mark.parametrize("spec, k, layout", [("tictactoe", 1, "layered"), ("tictactoe", 2, "layered"),
                                              ("chopsticks:standard", 2, "layered"), ("domineering", 2, "layered"),
                                              ("domineering", 2, "concentric"), ("tictactoe", 2, "concentric")])
def test_move_names_sit_on_their_moves_clear_of_every_label_node_and_name(spec, k, layout):
    """A move's name was drawn half-way along it, which on a move straight down is on the key under the node
    it leaves (tic-tac-toe at k=1 and 2, issue 18); names of bent moves, and of moves Cytoscape.js fanned out
    between the same two nodes, were left in the middle, over other names. Each name now sits, level, on its
    move's drawn line (straight or curved: canvas.move_path, which Cytoscape.js walks by arc length), clear
    of every node's disc and label (Domineering's boards are labels of several lines, measured whole) and of
    the other names; a move with no such spot has no name drawn (`_no_name`)."""
    from explorer.ui import position

    solved = load_or_build(spec)
    game = solved.game
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(game, solved, backend, key, k, "both", False, ("s",), 0,
                         position.shown(solved, solved.graph.find(key)))
    places = canvas.layout_for(layout, grown, key)["positions"]

    def radius(name):
        return canvas.NODE_SIZE * (1.25 if grown.nodes[name]["data"].get("_focus") else 1) / 2

    obstacles = {}
    for name, element in grown.nodes.items():
        x, y, r = places[name]["x"], places[name]["y"], radius(name)
        lines = element["data"]["label"].split("\n")
        assert canvas._label_box(x, y, lines, r)[3] - canvas._label_box(x, y, lines, r)[1] >= \
            len(lines) * canvas.LABEL_FONT  # every line of a board's label is in its box
        obstacles[name] = [(x - r, y - r, x + r, y + r), canvas._label_box(x, y, lines, r)]
    # moves that join the same two nodes are each drawn on a curve of their own, never on one another
    pairs = {}
    for edge in grown.edges.values():
        data = edge["data"]
        pair = tuple(sorted((data["source"], data["target"])))
        sign = 1 if data["source"] == pair[0] else -1
        pairs.setdefault(pair, []).append(sign * float(data.get("_bend", 0.0)))
    for pair, bends in pairs.items():
        assert len(set(bends)) == len(bends), (pair, bends)

    named, names, picked, by_node = 0, [], 0, {}
    # the names placed for everyone first, then those drawn only while their node is selected (`_picked_name_at`)
    # (every key set, -1 or 0 for none: Cytoscape.js merges new data into old, so a key dropped stayed there)
    for edge in sorted(grown.edges.values(), key=lambda e: e["data"]["_name_at"] < 0):
        data = edge["data"]
        at = data["_name_at"]
        assert data["_no_name"] == (1 if at < 0 else 0), data   # never a name left in the middle, over others
        if at < 0:
            at = data["_picked_name_at"]
            if at < 0:
                continue
        else:
            assert data["_picked_name_at"] == -1, data
        path = canvas.move_path(places[data["source"]], places[data["target"]], float(data.get("_bend", 0.0)),
                                radius(data["source"]), radius(data["target"]))
        # the point along the drawn line (walked independently of the canvas's own walk)
        x, y = next((px, py) for px, py, walked in path if walked >= at)
        curve = _curve((places[data["source"]]["x"], places[data["source"]]["y"]),
                       (places[data["target"]]["x"], places[data["target"]]["y"]), data.get("_bend", 0), 400,
                       (radius(data["source"]), radius(data["target"])))
        assert min(math.hypot(x - cx, y - cy) for cx, cy in curve) < 3, data   # on the move as drawn
        half_w, half_h = len(data["move"]) * canvas.MOVE_CHAR / 2, canvas.MOVE_FONT / 2
        box = (x - half_w, y - half_h, x + half_w, y + half_h)
        for other, boxes in obstacles.items():
            for x1, y1, x2, y2 in boxes:
                assert box[2] <= x1 + 2 or box[0] >= x2 - 2 or box[3] <= y1 + 2 or box[1] >= y2 - 2, \
                    (data["move"], other)
        ends = (data["source"], data["target"])
        if data["_name_at"] < 0:   # shown with the other moves of its node, highlighted: clear of their names
            for x1, y1, x2, y2 in (b for end in ends for b in by_node.get(end, ())):
                assert box[2] <= x1 + 2 or box[0] >= x2 - 2 or box[3] <= y1 + 2 or box[1] >= y2 - 2, data["move"]
            for end in ends:
                by_node.setdefault(end, []).append(box)
            picked += 1
            continue
        for x1, y1, x2, y2 in names:  # nor on another move's name
            assert box[2] <= x1 + 2 or box[0] >= x2 - 2 or box[3] <= y1 + 2 or box[1] >= y2 - 2, data["move"]
        names.append(box)
        for end in ends:
            by_node.setdefault(end, []).append(box)
        named += 1
    # (at least half: since issue 35 no name is placed where another move's line crosses it, and Domineering
    # at k=2 names 4 of its 7 moves; the others are named while an end is selected or under the pointer)
    assert named >= 3 and named >= 0.5 * len(grown.edges), (named, len(grown.edges))
    if layout == "layered":
        assert all(e["data"]["_name_at"] >= 0 for e in grown.edges.values() if e["data"]["source"] == key)
    sheet = {r.dump()["selector"]: r.dump()["style"] for r in canvas.style_rules("value", True, False)}
    assert sheet["edge[_name_at >= 0]"]["source-label"] == "data(move)" and sheet["edge[_name_at >= 0]"]["label"] == ""
    assert sheet["edge[?_no_name]"]["label"] == ""
    # named while highlighted: level, at its own spot when it has one (not turned along the move, mid-way)
    assert sheet["edge[?_no_name].highlight, edge[?_no_name]:selected"]["text-rotation"] == "none"
    spot = sheet["edge[_picked_name_at >= 0].highlight, edge[_picked_name_at >= 0]:selected"]
    assert spot["source-text-offset"] == "data(_picked_name_at)" and spot["source-text-rotation"] == "none"
    assert spot["label"] == "" and spot["source-label"] == "data(move)"
    assert {r.dump()["selector"]: r.dump()["style"] for r in canvas.style_rules("value", False, False)}[
        "edge[_name_at >= 0]"]["source-label"] == ""  # move labels off: none anywhere


def test_every_label_and_move_name_is_legible_at_the_readable_zoom():
    """The default view never zooms out past READABLE_ZOOM: there, labels and move names are at least
    MIN_LABEL_PX on screen (move names were 10 px, 6 px on screen), and the view keeper hides smaller ones."""
    for font in (canvas.LABEL_FONT, canvas.MOVE_FONT):
        assert font * canvas.READABLE_ZOOM >= canvas.MIN_LABEL_PX
    sheet = {rule.selector: rule.style for rule in canvas.style_rules("value", True, False)}
    assert sheet["node"]["min-zoomed-font-size"] == sheet["edge"]["min-zoomed-font-size"] == canvas.MIN_LABEL_PX
    assert sheet["edge"]["font-size"] == canvas.MOVE_FONT


def test_a_moves_placing_data_is_never_dropped_and_an_expansion_sends_what_it_placed_anew(chopsticks):
    """Cytoscape.js merges an element's new data into the old: a `_bend` taken out stayed in the browser, so after
    an expansion and layered -> force-directed -> layered the moves kept an earlier layout's curves (issue 18).
    Every move carries all of canvas.PLACED after every layout; and the expansion's layout carries (`ggData`)
    the placing data of every move already drawn that it changed, which the component would not send."""
    solved, backend = chopsticks
    key = "A|1-2|1-3"
    grown = canvas.start(solved.game, solved, backend, key, 2, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for("layered", grown, key)
    assert any(e["data"]["_bent"] for e in grown.edges.values())   # the test needs a bent move

    def placing():
        return {i: {k: e["data"].get(k) for k in canvas.PLACED} for i, e in grown.edges.items()}

    def all_placed():
        return all(set(canvas.PLACED) <= set(e["data"]) for e in grown.edges.values())

    assert all_placed()
    hops = canvas._hops(grown.nodes, grown.edges, key)
    for node in sorted(k for k, d in hops.items() if d == 2):
        before = placing()
        new = canvas.expand(grown, solved.game, solved, backend, node, "both", False, key)
        if new:
            break
    assert new
    canvas.grow_layout(grown, node, new)
    assert all_placed()
    sent = grown.layout["ggData"]
    now = placing()
    assert {i: d for i, d in now.items() if i in before and d != before[i]} == {i: d for i, d in sent.items() if i in before}
    for name in ("force", "layered"):
        grown.layout = canvas.layout_for(name, grown, key)
        assert all_placed()
        if name == "force":
            assert not any(e["data"]["_bent"] or e["data"]["_bend"] for e in grown.edges.values())
    # a move straight in the fresh layout is straight, whatever it was before
    fresh = canvas.Grown(scope=())
    fresh.nodes = {k: {"data": {x: v for x, v in n["data"].items()}} for k, n in grown.nodes.items()}
    fresh.edges = {i: {"data": {x: v for x, v in e["data"].items() if x not in canvas.PLACED}}
                   for i, e in grown.edges.items()}
    canvas.layout_for("layered", fresh, key)
    assert placing() == {i: {k: e["data"].get(k) for k in canvas.PLACED} for i, e in fresh.edges.items()}
    rule = next(r for r in canvas.style_rules("value", True, False) if "control-point-distances" in r.style)
    assert rule.selector == "edge[?_bent]"


def test_a_cgt_value_in_the_info_panel_is_written_as_the_page_writes_it():
    """Issue 38: the node's info panel printed the stored ASCII '+-1' where the page prints '±1' (Winning Ways:
    Domineering 2x2 is ±1); the panel now uses the notation's display spelling, as the CGT panel does."""
    from explorer.cgt.notation import parse_value

    solved = load_or_build("domineering(rows=2,cols=2)")
    key = solved.graph.key(0)
    stored = solved.record(0)["cgt"]
    node = canvas.position_node(solved.game, solved, key, False, key, None)
    assert node["data"]["CGT value"] == str(parse_value(stored)) == "±1" != stored
