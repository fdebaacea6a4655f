"""The canvas stays readable after expansions (issue 35), without a browser: a node an expansion brings
is placed with its disc and its label clear of every other node's, so that no caption lies over another
node. (tests/ui/test_canvas_readable_browser.py measures the same on the drawn canvas.)"""

from __future__ import annotations

import itertools

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas.layout import node_box
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend


def _boxes(grown, positions):
    size = canvas.BOARD_SIZE if grown.boards else canvas.NODE_SIZE
    return {k: node_box(p["x"], p["y"], str(grown.nodes[k]["data"].get("label", "")).split("\n"), size / 2)
            for k, p in positions.items() if k in grown.nodes}


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("spec, k", [("dodgem(size=3)", 1), ("tictactoe", 1), ("chopsticks:standard", 2)])
@pytest.mark.parametrize("layout", ["layered", "concentric"])
def test_what_three_expansions_bring_is_placed_clear_of_every_node_and_label(spec, k, layout):
    solved = load_or_build(spec)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, k, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for(layout, grown, key)
    first = set(grown.nodes)
    expanded = set()
    for _ in range(3):
        centre = sorted(set(grown.nodes) - {key} - expanded)[0]
        expanded.add(centre)
        new = canvas.expand(grown, solved.game, solved, backend, centre, "both", False, key)
        canvas.grow_layout(grown, centre, new)
    boxes = _boxes(grown, grown.layout["positions"])
    assert set(boxes) == set(grown.nodes) and len(boxes) > len(first)
    brought = set(grown.nodes) - first
    crowded = [(a, b) for a, b in itertools.combinations(sorted(boxes), 2)
               if (a in brought or b in brought) and not _apart(boxes[a], boxes[b])]
    assert not crowded, crowded[:5]


@pytest.mark.parametrize("spec, k, layout", [("tictactoe", 2, "layered"), ("chopsticks:standard", 2, "layered"),
                                              ("domineering", 2, "concentric"), ("dodgem(size=3)", 2, "layered")])
def test_no_moves_line_runs_through_a_placed_name(spec, k, layout):
    """A move's name is placed where no other move's drawn line (canvas.move_path) crosses its text."""
    from explorer.ui.canvas.captions import LINE_INSET_X, LINE_INSET_Y

    solved = load_or_build(spec)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, k, "both", False, ("s",), 0)
    places = canvas.layout_for(layout, grown, key)["positions"]

    def radius(name):
        return canvas.NODE_SIZE * (1.25 if grown.nodes[name]["data"].get("_focus") else 1) / 2

    paths = {}
    for edge in grown.edges.values():
        d = edge["data"]
        if d["source"] != d["target"]:
            paths[d["id"]] = canvas.move_path(places[d["source"]], places[d["target"]], float(d.get("_bend") or 0),
                                              radius(d["source"]), radius(d["target"]), steps=400)
    named = 0
    for edge in grown.edges.values():
        d = edge["data"]
        if d["_name_at"] < 0:
            continue
        named += 1
        x, y = next((px, py) for px, py, walked in paths[d["id"]] if walked >= d["_name_at"])
        half_w, half_h = len(d["move"]) * canvas.MOVE_CHAR / 2 + 2 - LINE_INSET_X, canvas.MOVE_FONT / 2 + 3 - LINE_INSET_Y
        through = [other for other, path in paths.items() if other != d["id"]
                   and any(abs(px - x) < half_w - 1 and abs(py - y) < half_h - 1 for px, py, _ in path)]
        assert not through, (d["move"], through)
    assert named >= 3


def test_the_layered_layout_names_its_bands_and_another_layout_none():
    """Each band of the layered layout is named (its remoteness, or the draws' distance from here), left of its
    leftmost node at its height; the names go with the focus's data, "" once another layout is chosen."""
    import json

    spec = "dodgem(size=3)"
    solved = load_or_build(spec)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, 2, "both", False, ("s",), 0)
    places = canvas.layout_for("layered", grown, key)["positions"]
    rows = json.loads(grown.nodes[key]["data"]["_rows"])
    remoteness = {grown.nodes[k]["data"].get("remoteness") for k in grown.nodes}
    assert sorted(r["text"] for r in rows) == sorted(f"remoteness {r}" for r in remoteness)
    for row in rows:
        band = [k for k in grown.nodes if f"remoteness {grown.nodes[k]['data'].get('remoteness')}" == row["text"]]
        assert row["x"] < min(places[k]["x"] for k in band) - canvas.NODE_SIZE / 2
        assert min(places[k]["y"] for k in band) - 0.1 <= row["y"] <= max(places[k]["y"] for k in band) + 0.1
    canvas.layout_for("concentric", grown, key)
    assert grown.nodes[key]["data"]["_rows"] == ""


@pytest.mark.parametrize("spec, k", [("tictactoe", 2), ("dodgem(size=3)", 1), ("chopsticks:standard", 2)])
def test_after_expansions_the_layered_layout_is_still_layered_and_its_bands_named(spec, k):
    """A stranger expanded three nodes of tic-tac-toe's layered layout: the new nodes were placed on rings around the
    node expanded, across the bands, and the bands' names no longer matched the rows. Now every node brought sits in
    its own band (remoteness, or a draw's distance from here): the bands stay in order from bottom to top, none
    overlapping another, and each band's name (sent anew with the expansion, `ggData`) is left of its leftmost node
    at its height."""
    import json

    solved = load_or_build(spec)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, k, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for("layered", grown, key)
    first = set(grown.nodes)
    hops = canvas._hops(grown.nodes, grown.edges, key)
    far = max(hops.values()) + 1
    band = {n: (0, d["data"]["remoteness"]) if d["data"].get("remoteness") is not None else (1, hops.get(n, far))
            for n, d in grown.nodes.items()}
    expanded, sent = [], None
    for centre in sorted(set(grown.nodes) - {key}, key=lambda n: (hops.get(n, far), n)):
        if len(expanded) == 3:
            break
        new = canvas.expand(grown, solved.game, solved, backend, centre, "both", False, key)
        if not new:
            continue
        expanded.append(centre)
        for n in new:  # a draw brought is one move further from here than the node expanded
            d = grown.nodes[n]["data"]
            band[n] = (0, d["remoteness"]) if d.get("remoteness") is not None else (1, band[centre][1] + 1)
        canvas.grow_layout(grown, centre, new)
        sent = grown.layout["ggData"].get(key, sent)
        at = grown.layout["positions"]
        for n in new:  # near the node expanded (a band between two drawn ones has a line with room for it)
            assert abs(at[n]["x"] - at[centre]["x"]) <= 5 * canvas.SPACING, (centre, n, at[n], at[centre])
    assert len(expanded) == 3 and len(grown.nodes) > len(first)
    places = grown.layout["positions"]
    ys: dict = {}
    for n in grown.nodes:
        ys.setdefault(band[n], []).append(places[n]["y"])
    lines = {b: {round(places[n]["y"], 1) for n in first if band[n] == b} for b in ys}
    for n in set(grown.nodes) - first:  # on a line of its band, or a band's own new line
        y = round(places[n]["y"], 1)
        if lines[band[n]]:
            assert y in lines[band[n]], (n, band[n], y, lines[band[n]])
        else:
            assert all(y not in at for b, at in lines.items() if b != band[n]), (n, band[n], y)
    order = sorted(ys)
    one_column = all(max(lines[u]) < min(lines[v]) for v, u in zip(order, order[1:]) if lines[u] and lines[v])
    if one_column:  # (a layout of many bands is set in columns side by side: layout.side_by_side)
        for lower, upper in zip(order, order[1:]):  # each band wholly above the one before it
            assert max(ys[upper]) < min(ys[lower]), (lower, upper, ys[lower], ys[upper])
    rows = json.loads(grown.nodes[key]["data"]["_rows"])
    assert sent is not None and json.loads(sent["_rows"]) == rows   # sent to the browser with the expansion
    named = {r["text"]: r for r in rows}
    assert len(named) == len(ys)
    for b, at in ys.items():
        text = f"remoteness {b[1]}" if b[0] == 0 else None
        row = named[text] if text else next(r for r in rows if r["text"].startswith("draws") and
                                            min(at) - 0.1 <= r["y"] <= max(at) + 0.1)
        assert min(at) - 0.1 <= row["y"] <= max(at) + 0.1, (b, row, at)
        assert row["x"] < min(places[n]["x"] for n in grown.nodes if band[n] == b) - canvas.NODE_SIZE / 2


def _by_label(grown, label: str) -> str:
    """The node drawn with `label` (its board's rows joined by "/", as the stranger read them off the canvas)."""
    return next(k for k, e in grown.nodes.items() if "/".join(str(e["data"].get("label", "")).split("\n")[:3]) == label)


def test_a_strangers_three_expansions_keep_each_remoteness_on_its_own_line():
    """A stranger's tic-tac-toe at k=1, layered: expanding X../.../..., then X../.O./..., then XX./.O./... left one
    row mixing remoteness 7, 6 and 5 (a band new to the canvas got a line on top of another new band's, or one with no
    room between its neighbours, and its nodes went on a ring round the node expanded). Now every node sits on a line of
    its own band, no line holds two bands, the bands stay in order (the lower remoteness below), no two nodes' boxes
    (disc and label) overlap, the node expanded never moves, and each band's name is at its line."""
    import json

    spec = "tictactoe"
    solved = load_or_build(spec)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, 1, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for("layered", grown, key)
    for label in ("X../.../...", "X../.O./...", "XX./.O./..."):
        centre = _by_label(grown, label)
        was = dict(grown.layout["positions"][centre])
        new = canvas.expand(grown, solved.game, solved, backend, centre, "both", False, key)
        assert new, label
        canvas.grow_layout(grown, centre, new)
        assert grown.layout["positions"][centre] == was, label        # the node expanded stays where it was
    places = grown.layout["positions"]
    assert set(places) == set(grown.nodes)
    lines: dict = {}
    for n, e in grown.nodes.items():
        lines.setdefault(e["data"]["remoteness"], set()).add(round(places[n]["y"], 1))
    assert len(lines) >= 6                                              # 9, 8, 7, 6, 5 and 1 (at least)
    for r, ys in lines.items():                                         # a line holds one band only
        others = set().union(*(at for s, at in lines.items() if s != r))
        assert not ys & others, (r, ys, others)
    order = sorted(lines)
    for lower, upper in zip(order, order[1:]):                          # the higher remoteness above (y grows down)
        assert max(lines[upper]) < min(lines[lower]), (lower, upper, lines[lower], lines[upper])
    boxes = _boxes(grown, places)
    crowded = [(a, b) for a, b in itertools.combinations(sorted(boxes), 2) if not _apart(boxes[a], boxes[b])]
    assert not crowded, crowded[:5]
    rows = {r["text"]: r for r in json.loads(grown.nodes[key]["data"]["_rows"])}
    assert set(rows) == {f"remoteness {r}" for r in lines}
    for r, ys in lines.items():
        assert min(ys) - 0.1 <= rows[f"remoteness {r}"]["y"] <= max(ys) + 0.1, (r, rows[f"remoteness {r}"], ys)


def test_a_move_through_its_targets_label_ends_at_the_label():
    """The style sheet ends a move at its target's label where it comes through it (target-endpoint
    outside-to-node-or-label: an upward move's arrowhead lay under the label's opaque card, issue 35); the names are
    placed on the line as drawn, cut there. A move that misses the label keeps its whole length."""
    from explorer.ui.canvas.captions import ending_at_label

    up = canvas.move_path({"x": 0, "y": 200}, {"x": 0, "y": 0}, 0.0, 17, 17, steps=200)
    label = canvas._label_box(0, 0, ["X..", "...", "..."], 17)
    cut = ending_at_label(up, label)
    assert abs(cut[-1][1] - label[3]) < 0.01 and abs(cut[-1][0]) < 1e-9    # at the label's bottom edge
    assert abs(cut[-1][2] - (200 - 17 - label[3])) < 0.01                  # its length along the line
    down = canvas.move_path({"x": 0, "y": 0}, {"x": 0, "y": 200}, 0.0, 17, 17)
    assert ending_at_label(down, canvas._label_box(0, 200, ["X.."], 17)) == down  # from above: not through it

