"""The canvas's level of detail (issue 35): the positions drawn, grouped into clusters that open.

A big neighbourhood (tic-tac-toe at k=4 is 162 positions, dobutsu:small at k=3 is 456) is a hairball drawn
position by position. Grouped, each cluster is one node: the positions of one value and remoteness (for the
player to move there), or at one distance from the page's position, or of one cycle (a strongly connected
component of the moves drawn, `explorer.algorithms.scc`, with the positions on no cycle grouped by value and
remoteness). Moves between clusters are drawn once per pair and way, with their number. The page's position
is never inside a cluster (it is drawn as itself, the one position every canvas shows). Opening a cluster draws
its members where it was, as ordinary nodes (double-click, expand and open them as on the plain canvas).

Everything here is pure: the canvas's nodes and moves (`Grown`'s elements) in, the view's elements and their
layout out; the canvas itself is never changed. The layouts are the canvas's own (`layered_positions`, or
`_rings`, concentric rings as tight as the boxes allow, over the graph of clusters, `Room` for an opened cluster's
members, `bend_around` and `place_move_names` after; fcose through `layout_for`),
placed with room for a node of CLUSTER_SIZE, the largest a cluster is drawn (BOARD_SIZE with boards on): each node's
label is moved down (`_tm`) to where that room puts it, so no caption lands where the layout did not expect one.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from types import SimpleNamespace
from typing import Any

from explorer.ui.canvas.captions import place_move_names
from explorer.ui.canvas.elements import Grown, value_words
from explorer.ui.canvas.layout import (BOX_GAP, Room, _hops, bend_around, expansion_order,
                                       label_lines, layered_positions, layout_for)
from explorer.ui.canvas.marks import BOARD_SIZE, LABEL_CHAR, NODE_SIZE, SPACING, TEXT_MARGIN, label_height

GROUPINGS = {"off": "off", "value": "value & remoteness", "distance": "distance from here",
             "cycles": "cycles (strongly connected)"}
AUTO_NODES = 150     # a canvas whose clutter (`clutter`: its positions, its moves that close a cycle twice) passes
#                      this opens grouped: a tree of more positions than this, dobutsu:small at k=2 (86 positions,
#                      122 moves: 160), not tic-tac-toe at k=2 (16, 15: 16) nor k=3 (54, 81: 110)
CYCLE_WEIGHT = 2     # what a move that closes a cycle adds to the clutter, in positions
AUTO_K = 3           # and so does one from this k on,
AUTO_FLOOR = 60      # when it has more positions than this (chopsticks at k=3, 34 positions, reads as it is)
CLUSTER_MARK = "\x1e"  # starts every cluster node's id and aggregated move's id: no position's key holds it
SMALLEST = 36.0      # px: the width of a cluster of two positions; one of GROWN_AT or more is CLUSTER_SIZE
CLUSTER_SIZE = 52.0  # px: the largest cluster, which the grouped canvas's layouts leave room for
GROWN_AT = 200
GROUPED_SPACING = SPACING
RING_STEP = 8.0      # px: the grouped concentric layout tries each ring's radius in these steps (_rings)
TURNS = 6            # and each ring turned by 0, 1/6, ... 5/6 of a slot
FOCUS_LINES = 3      # a focus labelled in more lines than this is labelled "this position" when grouped
FOCUS_SCALE = 1.25   # the focus is drawn this much larger (style.style_rules)
LEGEND = {
    "value": "positions of one value and remoteness for the player to move there",
    "distance": "positions at one distance (in moves, either way) from this page's position",
    "cycles": "positions that can all reach each other by the moves drawn (a cycle); those on no cycle by value "
              "and remoteness",
}


def clutter(count: int, moves: int) -> int:
    """How hard a canvas of `count` positions and `moves` moves is to read drawn position by position, in positions:
    its positions, and CYCLE_WEIGHT more for each move beyond a spanning tree's `count - 1` (its cycle rank). A
    tree is laid out in bands without a crossing; each move that closes a cycle runs across bands and captions
    (dobutsu:small at k=2, 86 positions, was a tangle at 122 moves; tic-tac-toe at k=2, a tree of 16, reads)."""
    return count + CYCLE_WEIGHT * max(0, moves - count + 1)


def default_grouping(count: int, moves: int, k: int) -> str:
    """How a canvas of `count` positions and `moves` moves started at `k` opens: grouped by value and remoteness
    when it is big or dense (`clutter` past AUTO_NODES), or from k=AUTO_K past AUTO_FLOOR positions."""
    return "value" if clutter(count, moves) > AUTO_NODES or (k >= AUTO_K and count > AUTO_FLOOR) else "off"


def node_id(cluster: str) -> str:
    return CLUSTER_MARK + cluster


def is_cluster(element_id: Any) -> bool:
    return isinstance(element_id, str) and element_id.startswith(CLUSTER_MARK)


def cluster_name(element_id: str) -> str:
    """The cluster id of a cluster node's id (what the saved scene's `open=` names)."""
    return element_id[len(CLUSTER_MARK):]


def _value_id(data: dict[str, Any]) -> str:
    remoteness = data.get("remoteness")
    return f"v {data.get('value', '?')} {'-' if remoteness is None else int(remoteness)} {data.get('to move', '?')}"


def strongly_connected_keys(nodes: dict[str, Any], edges: dict[str, dict[str, Any]]) -> list[list[str]]:
    """The strongly connected components of the moves drawn (each a list of keys, in the canvas's order), by
    the project's one SCC (explorer.algorithms.scc) over the drawn graph as successor CSR arrays. O(V + E)."""
    import numpy as np

    from explorer.algorithms.scc import strongly_connected

    keys = list(nodes)
    index = {key: i for i, key in enumerate(keys)}
    succ: list[list[int]] = [[] for _ in keys]
    for edge in edges.values():
        a, b = index.get(edge["data"]["source"]), index.get(edge["data"]["target"])
        if a is not None and b is not None:
            succ[a].append(b)
    indptr = np.zeros(len(keys) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(s) for s in succ])
    indices = np.array([t for s in succ for t in s], dtype=np.int32)
    graph = SimpleNamespace(num_positions=len(keys), succ_indptr=indptr, succ_indices=indices)
    labels, _ = strongly_connected(graph)
    parts: dict[int, list[str]] = {}
    for key, label in zip(keys, labels):
        parts.setdefault(int(label), []).append(key)
    return list(parts.values())


def clusters_of(nodes: dict[str, dict[str, Any]], edges: dict[str, dict[str, Any]], grouping: str,
                focus: str) -> dict[str, list[str]]:
    """Cluster id -> its positions' keys (in the canvas's order): every position on the canvas but `focus` in
    exactly one. Ids: "v <value> <remoteness or -> <player to move>", "d <moves from focus or ->", "c <the first
    key of the cycle>". O(V + E)."""
    groups: dict[str, list[str]] = {}
    if grouping == "distance":
        hops = _hops(nodes, edges, focus)
        for key in nodes:
            if key != focus:
                groups.setdefault(f"d {hops.get(key, '-')}", []).append(key)
        return groups
    cycle_of: dict[str, str] = {}
    if grouping == "cycles":
        for part in strongly_connected_keys(nodes, edges):
            if len(part) > 1:
                for key in part:
                    cycle_of[key] = f"c {part[0]}"
    for key, element in nodes.items():
        if key != focus:
            groups.setdefault(cycle_of.get(key) or _value_id(element["data"]), []).append(key)
    return groups


def cluster_title(cluster: str) -> str:
    """A cluster's name in words, from its id: "X wins in 3", "2 moves away", "a cycle"."""
    kind, _, rest = cluster.partition(" ")
    if kind == "d":
        return "not connected here" if rest == "-" else f"{rest} {'move' if rest == '1' else 'moves'} away"
    if kind == "c":
        return "a cycle"
    value, remoteness, player = (rest.split(" ", 2) + ["", ""])[:3]
    return value_words(value, remoteness, player)


def _mode(values: list[Any]) -> Any:
    """The most common of `values`, the first seen on a tie."""
    counts = Counter(values)
    return max(counts, key=lambda v: (counts[v], -values.index(v)))


FILL_KEYS = ("_fill_", "_pfill_", "_border", "_pborder")


def cluster_node(cluster: str, members: list[str], nodes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One closed cluster's node: its name and count as its label, and under every colouring the fill most of
    its members have (a cluster of one value and remoteness: theirs exactly), so the style sheet's rules colour
    it as they colour its positions; its width grows with its count (SMALLEST to CLUSTER_SIZE, logarithmically)."""
    datas = [nodes[key]["data"] for key in members]
    count = len(members)
    title = cluster_title(cluster)
    data: dict[str, Any] = {"id": node_id(cluster), "label": f"{title}\n{count:,} position{'' if count == 1 else 's'}",
                            "cluster": title,
                            "positions": count, "_cluster": 1, "_count": count, "_scc": 0 if cluster[0] == "c" else -1}
    for name in {k for d in datas for k in d if k.startswith(FILL_KEYS)}:
        data[name] = _mode([d.get(name) for d in datas if name in d])
    if any("_found" in d for d in datas):  # what the canvas's search found (search.mark) is found in its cluster
        data["_found"] = int(any(d.get("_found") for d in datas))
    data["value"] = _mode([d.get("value") for d in datas])
    movers = {d.get("to move") for d in datas}
    if len(movers) == 1 and None not in movers:
        data["to move"] = movers.pop()
    remoteness = {d.get("remoteness") for d in datas}
    if len(remoteness) == 1 and None not in remoteness:
        data["remoteness"] = remoteness.pop()
    share = min(1.0, math.log(count) / math.log(GROWN_AT)) if count > 1 else 0.0
    data["_cw"] = round(SMALLEST + (CLUSTER_SIZE - SMALLEST) * share, 1)
    return {"data": data}


def cluster_view(grown: Grown, grouping: str, opened: set[str] | list[str], focus: str,
                 drawn_size: float = NODE_SIZE) -> tuple[Grown, dict[str, list[str]]]:
    """The canvas as drawn grouped: a Grown (for the layouts; never the canvas's own) of one node per closed
    cluster (of one position too: the labels of a grouped canvas are all two short lines), the members of `opened`
    clusters and the focus as their own nodes (copies), and the moves between them: a move between two positions
    drawn as themselves as it is, and the moves from one drawn node to another where either is a cluster as one
    aggregated move each way
    (`_count`, named "n moves" or the one move's name; a best move if any is, in the mover's colour when they
    all share it). Moves inside a closed cluster are not drawn. Also returns every cluster's members.
    `drawn_size`: the size the canvas draws a position at (NODE_SIZE, BOARD_SIZE with boards). O(V + E)."""
    groups = clusters_of(grown.nodes, grown.edges, grouping, focus)
    opened = set(opened)
    where = {focus: focus} if focus in grown.nodes else {}   # position key -> the id of the node it is drawn in
    view = Grown(scope=("clusters", grouping), boards=True, player=grown.player)
    for cluster, members in groups.items():
        if cluster not in opened:
            for key in members:
                where[key] = node_id(cluster)
        else:
            for key in members:
                where[key] = key
    for key, element in grown.nodes.items():
        shown = where[key]
        if shown == key:
            view.nodes[key] = {**element, "data": {**element["data"]}}
            if key == focus and str(element["data"].get("label", "")).count("\n") >= FOCUS_LINES:
                view.nodes[key]["data"]["label"] = "this position"  # (a tall board's label: every band that tall)
        elif shown not in view.nodes:
            cluster = cluster_name(shown)
            view.nodes[shown] = cluster_node(cluster, groups[cluster], grown.nodes)
    model = _model_size(drawn_size)
    for element in view.nodes.values():  # every label where the layout's largest node's would be
        data = element["data"]
        scale = FOCUS_SCALE if data.get("_focus") else 1.0
        own = data["_cw"] if data.get("_cluster") else drawn_size * scale
        data["_tm"] = round(TEXT_MARGIN + (model * scale - own) / 2, 1)
    bundles: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for edge_id, edge in grown.edges.items():
        a, b = where.get(edge["data"]["source"]), where.get(edge["data"]["target"])
        if a is None or b is None or a == b and is_cluster(a):
            continue
        if not is_cluster(a) and not is_cluster(b):
            view.edges[edge_id] = {**edge, "data": {**edge["data"]}}
        else:
            bundles.setdefault((a, b), []).append(edge["data"])
    for (a, b), moves in bundles.items():
        lines = {m.get("_line") for m in moves}
        data = {"id": f"{CLUSTER_MARK}{a}\x1f{b}", "source": a, "target": b, "label": "MOVES",
                "move": moves[0]["move"] if len(moves) == 1 else f"{len(moves)} moves",
                "optimal": any(m.get("optimal") for m in moves), "_count": len(moves)}
        if len(lines) == 1 and None not in lines:
            data["_line"], data["_value"] = lines.pop(), moves[0].get("_value")
        if any(m.get("_cycle") for m in moves):
            data["_cycle"] = 1
        view.edges[data["id"]] = {"data": data}
    return view, groups


def _model_size(drawn_size: float) -> float:
    """The node size the grouped canvas's layouts leave room for: the largest cluster, or a board if larger."""
    return max(CLUSTER_SIZE, drawn_size)


def _spacing(drawn_size: float) -> float:
    return max(GROUPED_SPACING, SPACING * 1.6 if drawn_size >= BOARD_SIZE else 0.0)


def _rings(view: Grown, focus: str, wide: float, tall: float) -> dict[str, dict[str, float]]:
    """The concentric layout of the graph of clusters: ring d holds the nodes d moves from the focus (either way;
    those not connected on an outer ring), as layout.concentric_positions, but as tight as boxes of `wide` x `tall`
    (a node and its label) allow: each ring at the least radius past the last one's where none of its boxes meets
    another (two boxes meet when they are less than `wide` apart across and `tall` apart down), found in steps of
    RING_STEP, the ring turned by the share of a slot (of TURNS) that lets it be least. With concentric_positions' spacing (1.4 of a chord per ring, however few nodes it holds) tic-tac-toe's
    11 clusters at k=4 spread over 2,400 px, and the view zoomed out past reading. O(rings x TURNS x steps x nodes^2), for
    the few dozen nodes of a grouped canvas."""
    hops = _hops(view.nodes, view.edges, focus)
    outer = max(hops.values(), default=0) + 1
    rings: dict[int, list[str]] = {}
    for key in view.nodes:
        rings.setdefault(hops.get(key, outer), []).append(key)
    placed: list[tuple[float, float]] = []
    positions: dict[str, dict[str, float]] = {}
    radius = -RING_STEP
    for ring in sorted(rings):
        keys = sorted(rings[ring])
        if ring == 0 and len(keys) == 1:
            spots, radius = [(0.0, 0.0)], 0.0
        else:
            best = None
            for turn in range(TURNS):  # the ring turned by a share of a slot: the least radius of them
                at = max(radius + RING_STEP, min(wide, tall))
                while True:
                    slot = [2 * math.pi * (i + turn / TURNS) / len(keys) - math.pi / 2 for i in range(len(keys))]
                    spots = [(at * math.cos(a), at * math.sin(a)) for a in slot]
                    if all(abs(x - u) >= wide or abs(y - v) >= tall
                           for i, (x, y) in enumerate(spots) for j, (u, v) in enumerate(placed + spots)
                           if j != len(placed) + i):
                        break
                    at += RING_STEP
                if best is None or at < best[0]:
                    best = (at, spots)
            radius, spots = best
        placed += spots
        for key, (x, y) in zip(keys, spots):
            positions[key] = {"x": round(x, 1), "y": round(y, 1)}
    return positions


def _preset(view: Grown, name: str, focus: str, drawn_size: float, animate: bool) -> tuple[dict[str, Any], list]:
    """The canvas's own layered places (layout.layered_positions), or concentric rings (_rings), over the
    grouped canvas, with its spacing and node size, and the layered bands' names."""
    rows: list[dict[str, Any]] = []
    spacing, size = _spacing(drawn_size), _model_size(drawn_size)
    if name == "layered":  # (which spaces nodes by their labels itself)
        # no room for a missing band: an opened cluster's members go round its place, never into a band, and the
        # room made tic-tac-toe's grouped k=4 tall enough to be set in three columns, too wide for a 1000 px window
        positions = layered_positions(view.nodes, spacing, view.edges, focus, size, rows, missing_room=False)
    else:  # rings whose boxes stay apart at any angle (_rings)
        lines = [label_lines(e) for e in view.nodes.values()]
        wide = max((len(line) for label in lines for line in label), default=0) * LABEL_CHAR + 2 * BOX_GAP
        tall = size * FOCUS_SCALE + TEXT_MARGIN + label_height(max(map(len, lines), default=1)) + 2 * BOX_GAP
        positions = _rings(view, focus, max(size * FOCUS_SCALE, wide), tall)
    return {"fit": True, "padding": 30, "animate": animate, "animationDuration": 400, "name": "preset",
            "positions": positions}, rows


def closed_layout(grown: Grown, grouping: str, focus: str, name: str, drawn_size: float = NODE_SIZE,
                  animate: bool = False) -> tuple[dict[str, Any], list]:
    """The layout (layered or concentric) of the grouped canvas with every cluster closed, and its bands' names:
    what view_layout places opened clusters around. The same for every choice of clusters opened on one canvas,
    so the ring sent ahead (canvas/ahead.py) makes it once for all of them."""
    return _preset(cluster_view(grown, grouping, [], focus, drawn_size)[0], name, focus, drawn_size, animate)


def view_layout(grown: Grown, grouping: str, opened: list[str], focus: str, name: str,
                drawn_size: float = NODE_SIZE, animate: bool = False,
                closed: tuple[dict[str, Any], list] | None = None) -> tuple[Grown, dict[str, Any]]:
    """The grouped canvas (cluster_view) and its layout. A layout placed here (layered, concentric) is made over
    the graph of clusters with every cluster closed, then each opened cluster's members are placed around the
    place it had (the Room an expansion's new nodes are placed by; nothing else moves), and the moves bent and
    named for the whole. The layered bands' names are kept for the value grouping only (the others' clusters
    have no remoteness: their bands are not what the names would say). Force-directed: fcose in the browser.
    `closed`: closed_layout's answer for this canvas, when it was made already (the same `animate`)."""
    view, groups = cluster_view(grown, grouping, opened, focus, drawn_size)
    if name not in ("layered", "concentric"):
        return view, layout_for(name, view, focus, animate=animate)
    if closed is None:
        closed = (_preset(view, name, focus, drawn_size, animate) if not set(opened) & set(groups)
                  else closed_layout(grown, grouping, focus, name, drawn_size, animate))
    layout, rows = closed
    positions = dict(layout["positions"])
    spacing, size = _spacing(drawn_size), _model_size(drawn_size)
    for cluster in opened:
        centre = node_id(cluster)
        members = [k for k in groups.get(cluster, []) if k in view.nodes and k not in positions]
        if centre not in positions or not members:
            continue
        room = Room({k: p for k, p in positions.items() if k in view.nodes}, spacing,
                    {k: label_lines(e) for k, e in view.nodes.items()}, size)
        room.positions[centre] = positions[centre]  # (the grids were made without it: its members may take its place)
        positions.update(room.around(centre, expansion_order(view.nodes, set(members))))
    positions = {k: p for k, p in positions.items() if k in view.nodes}
    bend_around(view, positions, spacing)
    place_move_names(view, positions, size)
    if focus in view.nodes:  # (static/canvas_view.js, 13, writes them)
        named = rows and grouping == "value"
        view.nodes[focus]["data"]["_rows"] = json.dumps(rows, separators=(",", ":")) if named else ""
    return view, {**layout, "positions": positions}
