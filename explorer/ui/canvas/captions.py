"""Where the moves' names go: each name level on its own move, at the first spot clear of every node's
disc and label and of the names placed before it (`place_move_names`), measured on the move as
Cytoscape.js draws it (`move_path`)."""

from __future__ import annotations

import math
from typing import Any

from explorer.ui.canvas.elements import Grown
from explorer.ui.canvas.marks import (LARGE, LABEL_CHAR, MOVE_CHAR, MOVE_HALF_HEIGHT, NODE_SIZE, TEXT_MARGIN,
                                      label_height)


def move_label_step(label_lines: int, move_chars: int, node_size: float = NODE_SIZE) -> float:
    """The least distance between two lines of a layered layout at which the name of a move straight down
    between them fits between the label under the node it leaves (the focus, the largest) and the node it
    reaches: names are drawn level, just past the label (place_move_names). At 100 px apart tic-tac-toe's
    3-line keys had the names drawn on them, half-way along each move (issue 18)."""
    if move_chars == 0:
        return 0.0
    return node_size * 1.25 / 2 + TEXT_MARGIN + label_height(label_lines) + 2 * MOVE_HALF_HEIGHT + node_size / 2


def _label_box(x: float, y: float, lines: list[str], radius: float) -> tuple[float, float, float, float]:
    """The box (x1, y1, x2, y2) of a node's label, under the node of `radius` at (x, y)."""
    half = max(map(len, lines), default=0) * LABEL_CHAR / 2
    return x - half, y + radius + TEXT_MARGIN, x + half, y + radius + TEXT_MARGIN + label_height(len(lines))


def move_path(a: dict[str, float], b: dict[str, float], bend: float, start_radius: float,
              end_radius: float, steps: int = 48) -> list[tuple[float, float, float]]:
    """The move from a node at `a` to one at `b` as Cytoscape.js draws it, as points (x, y, distance
    along the drawn line from its start): straight, or with `bend` (its `_bend`) the unbundled bezier
    whose control point is `bend` from the middle of the centres' line along its normal (weight 0.5),
    each end cut at the node's border towards the control point (the discs' radii). A move's name is
    drawn `source-text-offset` along this same line (Cytoscape.js walks a bezier by arc length)."""
    ax, ay, bx, by = a["x"], a["y"], b["x"], b["y"]
    length = math.hypot(bx - ax, by - ay)
    if length < 1e-9:
        return []
    cx = (ax + bx) / 2 - bend * (by - ay) / length
    cy = (ay + by) / 2 + bend * (bx - ax) / length

    def cut(x, y, r):  # the border of the disc at (x, y) towards the control point
        d = math.hypot(cx - x, cy - y)
        return (x + (cx - x) * r / d, y + (cy - y) * r / d) if d > 1e-9 else (x, y)

    (x0, y0), (x2, y2) = cut(ax, ay, start_radius), cut(bx, by, end_radius)
    points, walked = [], 0.0
    for i in range(steps + 1):
        t = i / steps
        x = (1 - t) ** 2 * x0 + 2 * t * (1 - t) * cx + t * t * x2
        y = (1 - t) ** 2 * y0 + 2 * t * (1 - t) * cy + t * t * y2
        if points:
            walked += math.hypot(x - points[-1][0], y - points[-1][1])
        points.append((x, y, walked))
    return points


def ending_at_label(path: list[tuple[float, float, float]],
                    label: tuple[float, float, float, float]) -> list[tuple[float, float, float]]:
    """`path` (move_path) cut where it first enters the box `label` of the node it reaches: the style sheet ends a
    move at its target's label when it comes through it (target-endpoint outside-to-node-or-label: an upward move of
    the layered layout, whose arrowhead lay under the label's card), and its arrow is drawn there."""
    x1, y1, x2, y2 = label
    inside = [i for i, (x, y, _) in enumerate(path) if x1 < x < x2 and y1 < y < y2]
    if not inside or inside[0] == 0:
        return path
    i = inside[0]
    (ax, ay, ad), (bx, by, bd) = path[i - 1], path[i]
    # the border's crossing between the last point outside and the first inside, by halving
    lo, hi = 0.0, 1.0
    for _ in range(20):
        mid = (lo + hi) / 2
        x, y = ax + (bx - ax) * mid, ay + (by - ay) * mid
        if x1 < x < x2 and y1 < y < y2:
            hi = mid
        else:
            lo = mid
    return path[:i] + [(ax + (bx - ax) * lo, ay + (by - ay) * lo, ad + (bd - ad) * lo)]


ARROW = 9  # px: the arrow at a move's end, which a name keeps clear of
NODE_RING_WIDTH = 3    # px a node's drawing reaches past its disc: half its border, and a margin
FOCUS_RING_WIDTH = 7   # the focus's: its thick border and its outline (style_rules)


def _no_move_name(data: dict[str, Any]) -> None:
    """A move's name placed nowhere yet. Every key is set, never taken out: Cytoscape.js merges an element's
    new data into the old (cy.json), so a key dropped here stayed in the browser, and a move placed anew kept
    its old `_no_name` beside its new `_name_at`: drawn twice when highlighted, once turned along the move
    over the labels (issue 18, boards turned on over an expanded Chopsticks). The selectors test the values."""
    data["_name_at"] = data["_picked_name_at"] = -1
    data["_no_name"] = 0


LINE_STEP = 3.0   # px between the points of a move's line that a name must not hold
# px of a name's box that another move's line may graze, across and up or down: its margin, outside the card
# drawn behind the text (MOVE_HALF_HEIGHT and the 2 px added to the half width are margins)
LINE_INSET_X, LINE_INSET_Y = 2.0, 3.0


def _dense(path: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
    """Points along a drawn move (move_path) at most LINE_STEP apart."""
    points = []
    for (x1, y1, s1), (x2, y2, s2) in zip(path, path[1:]):
        parts = max(1, math.ceil((s2 - s1) / LINE_STEP))
        points.extend((x1 + (x2 - x1) * i / parts, y1 + (y2 - y1) * i / parts) for i in range(parts))
    if path:
        points.append(path[-1][:2])
    return points


def place_move_names(grown: Grown, positions: dict[str, dict[str, float]], node_size: float) -> None:
    """Where each move's name goes: `_name_at`, its distance along the move as drawn (straight, or the
    curve of a bent move: move_path) from the border of the node it leaves; the style sheet draws it
    there, level, as Cytoscape's source label, so a name always sits on its own move. The first spot,
    from that node, at which the name's box clears every position's disc and label (a board's label
    measured with all its lines), the names placed before it and the line of every other move. None found, the move gets `_no_name`
    and no name is drawn on it (it is named when its node is selected, and in the info panel): a name
    drawn over another, or over a node's label, cannot be read. Large canvases draw no names. In the
    middle of the move, as before, a move straight down had its name on the key under the node it
    leaves (tic-tac-toe at k=1 and 2), and the names of moves fanned out by Cytoscape.js sat off their
    curves (issue 18). A grid of CELL-sized cells finds the boxes near a spot: O(E x tries)."""
    for edge in grown.edges.values():
        _no_move_name(edge["data"])
    if len(grown.nodes) >= LARGE:
        return
    cell = 60.0
    grid: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
    # The discs and labels alone: a move without a spot of its own is named while its node is selected
    # (the component highlights that node's moves), at `_picked_name_at`, the first spot that clears them and
    # the names of that node's other moves; other moves' names it may cover, as they are not highlighted.
    # Drawn mid-move and turned along it, these names covered node labels (issue 18).
    node_grid: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
    by_node: dict[str, list[tuple[float, float, float, float]]] = {}   # the names of each node's moves

    def cells(box):
        x1, y1, x2, y2 = box
        return [(i, j) for i in range(math.floor(x1 / cell), math.floor(x2 / cell) + 1)
                for j in range(math.floor(y1 / cell), math.floor(y2 / cell) + 1)]

    def put(box, into=grid):
        for c in cells(box):
            into.setdefault(c, []).append(box)

    def apart(box, others):
        x1, y1, x2, y2 = box
        return all(x2 <= a1 or x1 >= a2 or y2 <= b1 or y1 >= b2 for a1, b1, a2, b2 in others)

    def clear(box, of=grid):
        return apart(box, (other for c in cells(box) for other in of.get(c, ())))

    def radius(key: str) -> float:
        return node_size * (1.25 if grown.nodes[key]["data"].get("_focus") else 1) / 2

    for key, node in grown.nodes.items():
        p = positions.get(key)
        if p is not None:
            r = radius(key)
            ring = r + (FOCUS_RING_WIDTH if node["data"].get("_focus") else NODE_RING_WIDTH)  # border, outline
            for box in ((p["x"] - ring, p["y"] - ring, p["x"] + ring, p["y"] + ring),
                        _label_box(p["x"], p["y"], str(node["data"].get("label", "")).split("\n"), r)):
                put(box)
                put(box, node_grid)
    # the moves leaving the focus first (the ones read first), then in order
    edges = sorted(grown.edges.values(), key=lambda e: not grown.nodes.get(e["data"]["source"], {})
                   .get("data", {}).get("_focus"))
    def spot(path, half_w, half_h, fits):
        """The first distance along `path` from its start where the name's box `fits`, and that box."""
        total, i = path[-1][2], 0
        d = half_h
        while d < total - ARROW - half_h:
            while i + 1 < len(path) and path[i + 1][2] < d:
                i += 1
            (x1, y1, s1), (x2, y2, s2) = path[i], path[min(i + 1, len(path) - 1)]
            f = (d - s1) / (s2 - s1) if s2 > s1 else 0.0
            x, y = x1 + (x2 - x1) * f, y1 + (y2 - y1) * f
            box = (x - half_w, y - half_h, x + half_w, y + half_h)
            if fits(box):
                return round(d, 1), box
            d += 3
        return None, None

    # Every move's drawn line, as points LINE_STEP apart: a name is never placed where another move's line
    # crosses it (tic-tac-toe's and Chopsticks' names were crossed by the moves fanning out around them).
    paths: dict[str, list[tuple[float, float, float]]] = {}
    line_grid: dict[tuple[int, int], list[tuple[float, float, str]]] = {}
    for edge in edges:
        data = edge["data"]
        a, b = positions.get(data["source"]), positions.get(data["target"])
        if a is None or b is None or data["source"] == data["target"]:
            continue
        path = move_path(a, b, float(data.get("_bend") or 0.0), radius(data["source"]), radius(data["target"]))
        if path:
            lines = str(grown.nodes[data["target"]]["data"].get("label", "")).split("\n")
            path = ending_at_label(path, _label_box(b["x"], b["y"], lines, radius(data["target"])))
            paths[data["id"]] = path
            for x, y in _dense(path):
                line_grid.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append((x, y, data["id"]))

    def uncrossed(box, own: str) -> bool:
        x1, y1, x2, y2 = box[0] + LINE_INSET_X, box[1] + LINE_INSET_Y, box[2] - LINE_INSET_X, box[3] - LINE_INSET_Y
        return not any(x1 < x < x2 and y1 < y < y2 and other != own
                       for c in cells(box) for x, y, other in line_grid.get(c, ()))

    unnamed = []
    for edge in edges:
        data = edge["data"]
        path = paths.get(data["id"])
        if path is None:
            continue
        half_w, half_h = len(str(data.get("move", ""))) * MOVE_CHAR / 2 + 2, MOVE_HALF_HEIGHT
        d, box = spot(path, half_w, half_h, lambda box, own=data["id"]: clear(box) and uncrossed(box, own))
        if d is None:
            data["_no_name"] = 1
            unnamed.append((data, path, half_w, half_h))
            continue
        data["_name_at"] = d
        put(box)
        for end in (data["source"], data["target"]):
            by_node.setdefault(end, []).append(box)
    for data, path, half_w, half_h in unnamed:
        ends = (data["source"], data["target"])
        d, box = spot(path, half_w, half_h,
                      lambda box: clear(box, node_grid) and all(apart(box, by_node.get(end, ())) for end in ends)
                      and uncrossed(box, data["id"]))
        if d is not None:
            data["_picked_name_at"] = d
            for end in ends:
                by_node.setdefault(end, []).append(box)
