"""The canvas's layouts: layered by remoteness and concentric around the focus (positions computed
here, a `preset` layout), force-directed (fcose, in the browser); moves bent around the nodes in their
way (`bend_around`); an expansion's new nodes placed around the node expanded (`grow_layout`)."""

from __future__ import annotations

import json
import math
from collections import deque
from functools import cached_property
from typing import Any

from explorer.ui.canvas.captions import FOCUS_RING_WIDTH, _label_box, _no_move_name, move_label_step, place_move_names
from explorer.ui.canvas.elements import Grown
from explorer.ui.canvas.marks import (BOARD_SIZE, HEIGHT, LABEL_CHAR, LARGE, NODE_SIZE, SPACING, TEXT_MARGIN,
                                      label_height)


def row_width(count: int) -> int:
    """How many nodes side by side in one line of a layered band: about the canvas's shape (a 940 x 640
    box) for `count` nodes, so the fitted drawing is neither one long row (whose labels the fit
    shrinks out of sight) nor a tall column."""
    return min(30, max(6, math.ceil(math.sqrt(2.5 * count))))


def _hops(nodes: dict[str, Any], edges: dict[str, dict[str, Any]] | None, focus: str | None) -> dict[str, int]:
    """Moves from `focus` to each node on the canvas, either way (absent when not connected)."""
    neighbours: dict[str, set[str]] = {key: set() for key in nodes}
    for edge in (edges or {}).values():
        a, b = edge["data"]["source"], edge["data"]["target"]
        if a in neighbours and b in neighbours:
            neighbours[a].add(b)
            neighbours[b].add(a)
    distance = {focus: 0} if focus in nodes else {}
    queue = deque(distance)
    while queue:
        here = queue.popleft()
        for there in sorted(neighbours[here]):
            if there not in distance:
                distance[there] = distance[here] + 1
                queue.append(there)
    return distance


def layered_steps(nodes: dict[str, dict[str, Any]], edges: dict[str, dict[str, Any]] | None, spacing: float,
                  node_size: float) -> tuple[float, float]:
    """How far apart a layered layout sets nodes side by side (x) and the lines of a band (y): `spacing`, or more
    when the longest key would not fit between two nodes, or the tallest label and a move's name between two lines."""
    lines = [str(e["data"].get("label", "")).split("\n") for e in nodes.values()]
    longest = max((len(line) for label in lines for line in label), default=0)
    step_x = max(spacing, longest * LABEL_CHAR + 18)
    # a label written as a board (board_label) is several lines high: lines of a band are that much apart
    tallest = max((len(label) for label in lines), default=1)
    moves = [str(e["data"].get("move", "")) for e in (edges or {}).values()]
    step_y = max(spacing * 0.85, label_height(tallest) + spacing * 0.6,
                 move_label_step(tallest, max(map(len, moves), default=0), node_size) + 2)
    return step_x, step_y


UNCONNECTED = (2, 0)  # the band of the draws not connected to the focus: above every other (bands sort as tuples)


def band_of(data: dict[str, Any], hops: int | None) -> tuple[int, int]:
    """A node's band in the layered layout: (0, its remoteness), or for a draw (1, its distance from the focus), or
    UNCONNECTED for a draw not connected to it. (A band of its own, not (1, one more than the farthest distance): an
    expansion's draw one move beyond the farthest took that number, and its band was named "draws, not connected"
    until the canvas was laid out again; issue 35.)"""
    remoteness = data.get("remoteness")
    if remoteness is not None:
        return 0, int(remoteness)
    return (1, hops) if hops is not None else UNCONNECTED


def layered_positions(nodes: dict[str, dict[str, Any]], spacing: float = SPACING,
                      edges: dict[str, dict[str, Any]] | None = None,
                      focus: str | None = None, node_size: float = NODE_SIZE,
                      rows: list[dict[str, Any]] | None = None,
                      placed_in: dict[str, tuple[int, int]] | None = None,
                      missing_room: bool = True, columns: list[int] | None = None) -> dict[str, dict[str, float]]:
    """One band per remoteness (the end of the game, remoteness 0, at the bottom), then the draws,
    which have no remoteness, above the rest in one band per distance from the focus (a draw-heavy
    game such as Chopsticks was one band of everything). A band longer than row_width() wraps into
    lines; within a band, nodes sit under the mean place of their neighbours in the bands below
    (the barycentre heuristic: fewer crossing moves), value then key breaking ties. Side by side,
    nodes are at least `spacing` apart, further when the longest key would not fit between two;
    lines are 0.85 `spacing` apart, and far enough that a move's name, drawn half-way along it, clears
    the label under the node it leaves (and the label under the node it reaches, for a move upwards):
    move_label_step. `missing_room`: leave a line between two bands for the band missing between them, where an
    expansion brings its nodes (not for a grouped canvas, whose clusters open round their own places). `columns`, given,
    gets how many columns side_by_side set the bands in.
    O(V + E) plus the sorts."""
    hops = _hops(nodes, edges, focus)
    bands: dict[tuple[int, int], list[str]] = {}
    for key, element in nodes.items():
        band = band_of(element["data"], hops.get(key))
        bands.setdefault(band, []).append(key)
        if placed_in is not None:
            placed_in[key] = band
    neighbours: dict[str, list[str]] = {key: [] for key in nodes}
    for edge in (edges or {}).values():
        a, b = edge["data"]["source"], edge["data"]["target"]
        if a in neighbours and b in neighbours and a != b:
            neighbours[a].append(b)
            neighbours[b].append(a)
    step_x, step_y = layered_steps(nodes, edges, spacing, node_size)
    width = row_width(len(nodes))
    order = {"win": 0, "tie": 1, "draw": 2, "loss": 3}
    positions: dict[str, dict[str, float]] = {}
    spans: list[tuple[list[str], float, float]] = []  # each band's keys, and where it starts and ends (y)
    y = 0.0
    # Room between two bands for a band between them that is not drawn (remoteness 7 and 5, no 6): a line in the
    # middle where a node (its disc and label) clears both bands' nodes by BOX_GAP, for an expansion to bring it into
    # (Bands; issue 35: without it, such nodes were placed far out along the line, clear of both bands' labels).
    tallest = max((len(str(e["data"].get("label", "")).split("\n")) for e in nodes.values()), default=1)
    room = 2 * (node_size + FOCUS_RING_WIDTH + TEXT_MARGIN + label_height(tallest) + BOX_GAP) + 8  # (+ rounding)
    before = None
    for band in sorted(bands):  # decided positions by remoteness from 0, then the draws by distance
        if missing_room and before is not None and band[0] == before[0] and band[1] - before[1] > 1:
            y += max(0.0, room - step_y - spacing * 0.6)
        before = band
        top = y
        keys = sorted(bands[band], key=lambda k: (order.get(nodes[k]["data"].get("value"), 4), k))
        centre_of = {}
        for rank, key in enumerate(keys):
            placed = [positions[n]["x"] for n in neighbours[key] if n in positions]
            centre_of[key] = (sum(placed) / len(placed) if placed else (rank - (len(keys) - 1) / 2) * step_x, rank)
        keys.sort(key=centre_of.__getitem__)
        for start in range(0, len(keys), width):
            line = keys[start:start + width]
            for i, key in enumerate(line):
                positions[key] = {"x": (i - (len(line) - 1) / 2) * step_x, "y": -y}
            y += step_y
        spans.append((keys, top, y))
        y += spacing * 0.6  # a gap between bands
    placed = side_by_side(positions, spans, step_x, spacing, columns, focus)
    if rows is not None:
        rows.extend(band_names({band: keys for (keys, _, _), band in zip(spans, sorted(bands))}, placed, node_size))
    return placed


ROW_GAP = 10  # px between a layered band's name and its leftmost node


def band_names(bands: dict[tuple[int, int], list[str]], positions: dict[str, dict[str, float]],
               node_size: float) -> list[dict[str, Any]]:
    """Each band's name (row_name), left of its leftmost node (`x`, where the name ends), at the height of its lines'
    middle: what static/canvas_view.js (13) writes beside the band; or, where a move runs through it there, right
    of its rightmost node (`x2`, where the name starts)."""
    names = []
    for band in sorted(bands):
        keys = [k for k in bands[band] if k in positions]
        if not keys:
            continue
        xs, ys = [positions[k]["x"] for k in keys], sorted({positions[k]["y"] for k in keys})
        names.append({"x": round(min(xs) - node_size * 0.625 - ROW_GAP, 1), "y": round((ys[0] + ys[-1]) / 2, 1),
                      "x2": round(max(xs) + node_size * 0.625 + ROW_GAP, 1), "text": row_name(band)})
    return names


def row_name(band: tuple[int, int]) -> str:
    """What a band of the layered layout holds, in words: a remoteness, or the draws at a distance."""
    kind, number = band
    if kind == 0:
        return f"remoteness {number}"
    if band == UNCONNECTED:
        return "draws, not connected"
    return "draws, here" if number == 0 else f"draws, {number} {'move' if number == 1 else 'moves'} away"


CANVAS_WIDTH = 930     # px: about the canvas's width in the page's column (its height is HEIGHT)
CANVAS_SHAPE = CANVAS_WIDTH / HEIGHT
MAX_COLUMNS = 12


def side_by_side(positions: dict[str, dict[str, float]], spans: list[tuple[list[str], float, float]],
                 step_x: float, spacing: float, columns: list[int] | None = None,
                 focus: str | None = None) -> dict[str, dict[str, float]]:
    """The bands of a layered layout much taller than the canvas is (a part of a game with long lines of
    play: a band or two for each of many remoteness values) set in columns side by side, as a newspaper
    sets its text, each column the next bands upwards (whole bands: a band is never split), so that the
    fitted drawing has about the canvas's shape and its labels stay readable (a single column of
    35 bands fitted the canvas at a fifth of the size). `spans`: each band's keys and the extent of
    its lines (y downwards from the first band). The number of columns is the fewest whose drawing the
    canvas shows largest (a drawing it shows at full size stays one column). `columns`, given, gets the number of
    columns (the legend says what they do to the moves between them: style.legend). The column of the `focus`, given,
    goes in the middle of three or more, the others in their order either side of it (issue 35: Dodgem 3x3 at k=2 had
    its focus at the drawing's right edge, and the moves from it ran across the whole canvas).
    O(V + bands x MAX_COLUMNS)."""
    if len(spans) < 2 or not positions:
        if columns is not None:
            columns.append(1)
        return positions
    xs = [p["x"] for p in positions.values()]
    width = max(xs) - min(xs) + step_x  # a node's room on either side
    gap = spacing * 0.6

    def columns_of(count: int) -> list[list[int]]:
        """The bands split in order into `count` columns of about the same height."""
        total = spans[-1][2] - spans[0][1]
        columns: list[list[int]] = [[]]
        for i, (_, top, bottom) in enumerate(spans):
            column = columns[-1]
            if column and len(columns) < count and bottom - spans[column[0]][1] > total / count + gap:
                columns.append([i])
            else:
                column.append(i)
        return columns

    def scale(columns: list[list[int]]) -> tuple[float, int]:
        """The zoom the canvas fits the drawing at, up to 1 (full size: more columns gain nothing), then
        the fewer columns the better."""
        tall = max(spans[c[-1]][2] - spans[c[0]][1] for c in columns) + spacing
        wide = len(columns) * width + (len(columns) - 1) * step_x
        return min(CANVAS_WIDTH / wide, HEIGHT / tall, 1.0), -len(columns)

    best = max((columns_of(n) for n in range(1, min(MAX_COLUMNS, len(spans)) + 1)), key=scale)
    if columns is not None:
        columns.append(len(best))
    if len(best) == 1:
        return positions
    count = len(best)
    mine = next((j for j, column in enumerate(best) if any(focus in spans[i][0] for i in column)), None)
    if mine is not None and count >= 3:  # (the middle slot nearest its own: of four, the second or the third)
        best.insert(min(max(mine, (count - 1) // 2), count // 2), best.pop(mine))
    placed = {}
    for j, column in enumerate(best):
        shift_x = (j - (len(best) - 1) / 2) * (width + step_x)
        shift_y = spans[column[0]][1]  # each column starts where the first one does
        for i in column:
            for key in spans[i][0]:
                placed[key] = {"x": positions[key]["x"] + shift_x, "y": positions[key]["y"] + shift_y}
    return placed


BOX_GAP = 6  # px between the boxes (disc and label) of two nodes an expansion placed apart


def node_box(x: float, y: float, lines: list[str], radius: float) -> tuple[float, float, float, float]:
    """What a node takes on the canvas at (x, y): its disc (with its ring) and its label under it, as one box."""
    ring = radius + FOCUS_RING_WIDTH
    lx1, _, lx2, ly2 = _label_box(x, y, lines, radius)
    return min(x - ring, lx1), y - ring, max(x + ring, lx2), max(y + ring, ly2)


def place_around(positions: dict[str, dict[str, float]], centre: str, new: list[str],
                 spacing: float = SPACING, labels: dict[str, list[str]] | None = None,
                 node_size: float = NODE_SIZE) -> dict[str, dict[str, float]]:
    """Places for the `new` nodes an expansion of `centre` brought, around it, each at least `spacing`
    from every node already placed (and from each other), and, given the nodes' `labels` (their
    lines), with its disc and label clear of every other node's by BOX_GAP (a board's label of four
    lines reached the node placed under it: Dodgem 3x3, issue 35); nothing already placed moves. Tried
    on rings of growing radius, below the centre first (where its successors' bands are). Grids of
    `spacing`-sized cells find the nearby nodes and boxes, so this is O(new x tries), not O(new x V)
    (and O(V) once for the grids: `Room`, which places the expansions of many nodes over one pair of grids)."""
    return Room(positions, spacing, labels, node_size).around(centre, new)


class Bands:
    """The bands of a layered layout as drawn (issue 35: after expansions the layout was no longer layered, and the
    bands' names no longer matched the rows): each band's lines (their y), from the nodes placed (`positions`) and
    their data, so that an expansion's new node goes into its own band (Room.around) and the bands are named anew
    (`names`). Where a band the canvas does not have yet goes, and how the canvas makes room for it, is Room's
    (`_new_line`, `_open`)."""

    def __init__(self, nodes: dict[str, dict[str, Any]], positions: dict[str, dict[str, float]],
                 edges: dict[str, dict[str, Any]], focus: str | None, spacing: float, node_size: float,
                 known: dict[str, tuple[int, int]] | None = None):
        placed = {k: nodes[k] for k in positions if k in nodes}
        known = known or {}
        # (each placed node's distance from the focus: made once, when a node with no known band needs it, or when an
        # expansion of a decided node brings a draw, `band`; without it, such a draw was named "not connected")
        self._graph = (placed, edges, focus)
        self.node_size = node_size
        # (the moves between placed nodes only: an expansion's answer holds its new moves, the ring sent ahead of it
        # does not, and both must find the same steps)
        among = {i: e for i, e in (edges or {}).items() if e["data"]["source"] in placed and e["data"]["target"] in placed}
        self.step_x, step_y = layered_steps(placed, among, spacing, node_size)
        # a node's box (its disc with the focus's ring, and its label) is this tall: two lines are at least that and
        # BOX_GAP apart, or `_free` finds no place on a line made for a band
        tallest = max((len(label_lines(e)) for e in placed.values()), default=1)
        clear = 2 * (node_size / 2 + FOCUS_RING_WIDTH) + TEXT_MARGIN + label_height(tallest) + BOX_GAP + 1
        self.step_y = max(step_y, clear)         # between two lines of a band
        self.gap = max(step_y + spacing * 0.6, clear)  # between two bands' lines (layered_positions' gap)
        self.lines: dict[tuple[int, int], list[float]] = {}
        self.of: dict[str, tuple[int, int]] = {}  # each node's band: where it was placed (`known`), else its own
        for key in placed:
            band = self.of[key] = tuple(known.get(key) or band_of(nodes[key]["data"], self.hops.get(key)))
            self.lines.setdefault(band, []).append(positions[key]["y"])
        self.lines = {band: sorted(set(ys)) for band, ys in self.lines.items()}

    @cached_property
    def hops(self) -> dict[str, int]:
        """Moves from the focus to each placed node (_hops), made on first use. O(V + E) once."""
        return _hops(*self._graph)

    def band(self, data: dict[str, Any], centre: str) -> tuple[int, int]:
        """The band of a node an expansion of `centre` brings (a draw: one move further from the focus than it)."""
        mine = self.of.get(centre)
        hops = mine[1] if mine and mine[0] == 1 else self.hops.get(centre)
        return band_of(data, hops + 1 if hops is not None else None)

    def names(self, positions: dict[str, dict[str, float]],
              more: dict[str, tuple[int, int]] | None = None) -> list[dict[str, Any]]:
        """The bands' names for the canvas as placed now (band_names), each node in the band it was placed in
        (`of`, and `more`: the bands of what a Room's `around` placed)."""
        bands: dict[tuple[int, int], list[str]] = {}
        more = more or {}
        for key in positions:
            band = more.get(key) or self.of.get(key)
            if band is not None:
                bands.setdefault(band, []).append(key)
        return band_names(bands, positions, self.node_size)


ROW_TRIES = 10  # places tried each side of the node expanded, along a line of a band, half a node's step apart
SPLIT = 0.05    # px: a line "beyond" another when this much further (the lines' y are rounded to 0.1)


class Room:
    """The places taken on a canvas (`positions`, with the nodes' `labels`), in grids of `spacing`-sized cells
    built once, and `around`: place_around's places for an expansion, each asked on its own (the grids are
    never changed by it). The canvas's next ring (canvas/ahead.py) places every node's expansion over one Room.
    Given the `bands` of a layered layout, a new node goes on a line of its band (Bands), at the free place nearest
    below or beside the node expanded; a band new to the canvas gets a line of its own between its neighbours', and
    a band with no free place near the node expanded gets one more line: where two lines are too close for it, the
    canvas opens room (`_open`: every line beyond moves further out, with its nodes, so that each node stays on its
    band's line; the node expanded never moves). What moved is in `moved` after `around`."""

    def __init__(self, positions: dict[str, dict[str, float]], spacing: float = SPACING,
                 labels: dict[str, list[str]] | None = None, node_size: float = NODE_SIZE,
                 bands: Bands | None = None):
        self.positions, self.spacing, self.labels, self.radius = positions, spacing, labels, node_size / 2
        self.bands = bands
        self.placed_in: dict[str, tuple[int, int]] = {}  # the last `around`'s new nodes' bands (layered)
        self.moved: dict[str, dict[str, float]] = {}  # the last `around`'s nodes of the canvas moved (room opened)
        self.extra: dict[str, list[str]] = {}  # the labels of the nodes being placed, when `labels` lacks them
        self.grid: dict[tuple[int, int], list[tuple[float, float]]] = {}
        self.boxes: dict[tuple[int, int], list[tuple[float, float, float, float, float]]] = {}  # (+ its node's y)
        for key, p in positions.items():
            self._put(p["x"], p["y"], key, self.grid, self.boxes)
        # `around`'s own: how far each of the canvas's lines (its nodes' y) moved, and the lines it made
        self.shift: dict[float, float] = {}
        self.made: dict[tuple[int, int], list[float]] = {}
        self.lines_y = {p["y"] for p in positions.values()}  # (each line's nodes move with it: `_open`)
        self.spans: dict[float, tuple[float, float]] = {}
        self._now: dict[tuple[int, int], list[float]] | None = None
        self.reach = 0.0
        self.tallest = max(map(len, (labels or {}).values()), default=1)  # (the most lines of a label)
        self.new_grid: dict[tuple[int, int], list[tuple[float, float]]] = {}
        self.new_boxes: dict[tuple[int, int], list[tuple[float, float, float, float, float]]] = {}

    def _cells(self, box):
        cell = self.spacing
        x1, y1, x2, y2 = box[:4]
        return [(i, j) for i in range(math.floor(x1 / cell), math.floor(x2 / cell) + 1)
                for j in range(math.floor(y1 / cell), math.floor(y2 / cell) + 1)]

    def _box(self, x: float, y: float, key: str) -> tuple[float, float, float, float]:
        lines = self.extra.get(key) if key in self.extra else self.labels.get(key, [""])
        return node_box(x, y, lines, self.radius)

    def _put(self, x: float, y: float, key: str, grid, boxes) -> None:
        cell = self.spacing
        grid.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append((x, y))
        if self.labels is not None:
            box = (*self._box(x, y, key), y)
            for c in self._cells(box):
                boxes.setdefault(c, []).append(box)

    def _clear_of(self, x: float, y: float, box, grid, boxes, moved_by: float | None) -> bool:
        """Whether a node at (x, y) with `box` (widened by BOX_GAP) is clear of the nodes in `grid` and `boxes`;
        `moved_by`, given: only of those whose line moved that far (`shift`: the canvas's grids hold the places
        before the room opened, so the node is looked for that much back)."""
        spacing = self.spacing
        if moved_by:
            y -= moved_by
            box = (box[0], box[1] - moved_by, box[2], box[3] - moved_by)
        cx, cy = math.floor(x / spacing), math.floor(y / spacing)
        least = (0.95 * spacing) ** 2
        shift = self.shift
        for i in (-1, 0, 1):  # (plain loops that stop at the first clash: the hot path of an expansion)
            for j in (-1, 0, 1):
                for qx, qy in grid.get((cx + i, cy + j), ()):
                    if (x - qx) ** 2 + (y - qy) ** 2 < least and (moved_by is None or shift.get(qy, 0.0) == moved_by):
                        return False
        if box is None:
            return True
        x1, y1, x2, y2 = box
        for c in self._cells(box):
            for a1, b1, a2, b2, at in boxes.get(c, ()):
                if not (x2 <= a1 or x1 >= a2 or y2 <= b1 or y1 >= b2) and (
                        moved_by is None or shift.get(at, 0.0) == moved_by):
                    return False
        return True

    def _free(self, x: float, y: float, key: str, grid, boxes) -> bool:
        box = None
        if self.labels is not None:
            x1, y1, x2, y2 = self._box(x, y, key)
            box = (x1 - BOX_GAP, y1 - BOX_GAP, x2 + BOX_GAP, y2 + BOX_GAP)
        if not self.shift:
            return self._clear_of(x, y, box, self.grid, self.boxes, None) and self._clear_of(x, y, box, grid, boxes, None)
        # (the canvas's nodes moved alike, those whose lines are now within reach of y only)
        return (all(self._clear_of(x, y, box, self.grid, self.boxes, by) for by, (top, bottom) in self.spans.items()
                    if top - self.reach <= y <= bottom + self.reach)
                and self._clear_of(x, y, box, grid, boxes, None))

    def around(self, centre: str, new: list[str], labels: dict[str, list[str]] | None = None,
               data: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, float]]:
        """place_around's places for `new` around `centre` (their `labels` where the Room's lack them; their `data`,
        key -> element, to find a band for each in a layered layout); what they take is kept apart from the grids, and
        the canvas's nodes moved to open room for them are in `moved`."""
        spacing = self.spacing
        self.extra = labels or {}
        self.new_grid, self.new_boxes = {}, {}
        ox, oy = self.positions[centre]["x"], self.positions[centre]["y"]
        placed: dict[str, dict[str, float]] = {}
        self.placed_in, self.moved, self.shift, self.made, self.spans, self._now = {}, {}, {}, {}, {}, None
        # how far from a line a node's box may reach one on it (discs, labels, the gaps between): `_free`'s
        tallest = max([self.tallest, *map(len, (labels or {}).values())])
        self.reach = 2 * (self.radius + FOCUS_RING_WIDTH + TEXT_MARGIN + label_height(tallest) + BOX_GAP) + 2 * spacing
        for key in new:
            spot = None
            if self.bands is not None and data is not None and key in data:
                band = self.placed_in[key] = self.bands.band(data[key]["data"], centre)
                spot = self._in_band(key, band, ox, oy, placed)
            ring = spacing
            while spot is None:
                count = max(8, int(2 * math.pi * ring / (0.5 * spacing)))
                for i in range(count):  # from straight below, alternating right and left of it
                    turn = (i + 1) // 2 * (1 if i % 2 else -1)
                    angle = math.pi / 2 + 2 * math.pi * turn / count
                    x, y = ox + ring * math.cos(angle), oy + ring * math.sin(angle)
                    if self._free(x, y, key, self.new_grid, self.new_boxes):
                        spot = {"x": round(x, 1), "y": round(y, 1)}
                        break
                ring += 0.6 * spacing
            placed[key] = spot
            self._put(spot["x"], spot["y"], key, self.new_grid, self.new_boxes)
        self.moved = {k: {"x": p["x"], "y": round(p["y"] + self.shift[p["y"]], 1)} for k, p in self.positions.items()
                      if self.shift.get(p["y"])}
        return placed

    def rows(self, placed: dict[str, dict[str, float]]) -> str:
        """The bands' names (the focus's `_rows`, JSON) once the last `around`'s nodes are `placed` and the nodes it
        moved are `moved`: what grow_layout sends with the expansion, and canvas/ahead.py with its ring."""
        names = self.bands.names({**self.positions, **self.moved, **placed}, self.placed_in)
        return json.dumps(names, separators=(",", ":"))

    def _lines_now(self) -> dict[tuple[int, int], list[float]]:
        """Every band's lines where they are now: the canvas's (moved by the room opened) and the ones made."""
        if self._now is None:
            now = {band: sorted(round(y + self.shift.get(y, 0.0), 1) for y in ys)
                   for band, ys in self.bands.lines.items()}
            for band, ys in self.made.items():
                now[band] = sorted(set(now.get(band, [])) | set(ys))
            self._now = now
        return self._now

    def _open(self, at: float, by: float, placed: dict[str, dict[str, float]]) -> None:
        """Room opened on the canvas: every line at `at` or beyond (below it for a `by` > 0, y growing downwards;
        above it for a `by` < 0) moves `by` further, with its nodes: the canvas's (`shift`, by their y before), those
        `around` placed so far (their grids made again), and the lines made."""
        def beyond(y: float) -> bool:
            return y >= at - SPLIT if by > 0 else y <= at + SPLIT

        for y in self.lines_y:
            if beyond(y + self.shift.get(y, 0.0)):
                self.shift[y] = self.shift.get(y, 0.0) + by
        self.spans = {}  # each distance the canvas's lines moved: the lines so moved, from the top one to the bottom one
        for y in self.lines_y:
            now = y + self.shift.get(y, 0.0)
            top, bottom = self.spans.get(self.shift.get(y, 0.0), (now, now))
            self.spans[self.shift.get(y, 0.0)] = (min(top, now), max(bottom, now))
        self._now = None
        self.made = {band: [round(y + by, 1) if beyond(y) else y for y in ys] for band, ys in self.made.items()}
        if any(beyond(p["y"]) for p in placed.values()):
            self.new_grid, self.new_boxes = {}, {}
            for key, p in placed.items():
                if beyond(p["y"]):
                    p["y"] = round(p["y"] + by, 1)
                self._put(p["x"], p["y"], key, self.new_grid, self.new_boxes)

    def _new_line(self, band: tuple[int, int], oy: float, placed: dict[str, dict[str, float]]) -> float:
        """A line for `band`, which has none yet: next to the band before or after it in the layered order (the lower
        remoteness below), a band's gap from it, with room opened (`_open`) where the next line beyond is nearer than
        two gaps, on the side away from the node expanded (at `oy`), which stays where it is."""
        gap = self.bands.gap
        now = self._lines_now()
        ys = sorted({y for lines in now.values() for y in lines} | {p["y"] for p in placed.values()})
        above = [b for b in now if b > band]   # (drawn higher: smaller y)
        below = [b for b in now if b < band]
        if not above and not below:
            return round(oy + gap, 1)
        if above and (not below or max(now[min(above)]) < min(now[max(below)])):
            upper = max(now[min(above)])       # under the band above (its lowest line)
            after = [y for y in ys if y > upper + SPLIT]
            if after and after[0] - upper < 2 * gap:
                if oy < after[0] - SPLIT:      # the lines from the next one down move down
                    self._open(after[0], 2 * gap - (after[0] - upper), placed)
                else:                          # the band above and the lines over it move up
                    self._open(upper, -(2 * gap - (after[0] - upper)), placed)
                    return round(after[0] - gap, 1)
            return round(upper + gap, 1)
        lower = min(now[max(below)])           # over the band below (its highest line)
        before = [y for y in ys if y < lower - SPLIT]
        if before and lower - before[-1] < 2 * gap:
            if oy > before[-1] + SPLIT:
                self._open(before[-1], -(2 * gap - (lower - before[-1])), placed)
            else:
                self._open(lower, 2 * gap - (lower - before[-1]), placed)
                return round(before[-1] + gap, 1)
        return round(lower - gap, 1)

    def _in_band(self, key: str, band: tuple[int, int], ox: float, oy: float,
                 placed: dict[str, dict[str, float]]) -> dict[str, float]:
        """The free place on a line of `band` nearest (ox, oy), the node expanded: its x first, then half a step
        either side, further and further; the nearer line first. A band with no line gets one (`_new_line`); one with
        no free place within ROW_TRIES each side gets one more, next to its lines on the side away from the node
        expanded (`_open` makes the room); on a line made, the place is looked for until found."""
        now = self._lines_now()
        if band not in now:
            line = self._new_line(band, oy, placed)
            self.made[band] = [line]
            self._now = None
            return self._along(key, [line], ox, oy, None)
        spot = self._along(key, now[band], ox, oy, ROW_TRIES)
        if spot is not None:
            return spot
        lines, step = now[band], self.bands.step_y
        if lines[-1] < oy - SPLIT:  # a band above the node expanded: a line over its highest
            self._open(lines[0] - 2 * SPLIT, -step, placed)
            line = round(lines[0] - step, 1)
        else:                       # below it, or across it: a line under its lowest
            self._open(lines[-1] + 2 * SPLIT, step, placed)
            line = round(lines[-1] + step, 1)
        self.made.setdefault(band, []).append(line)
        self._now = None
        return self._along(key, [line], ox, oy, None)

    def _along(self, key: str, lines: list[float], ox: float, oy: float, tries: int | None) -> dict[str, float] | None:
        """The free place on `lines` nearest (ox, oy), `tries` half steps each side at most (None: until one is found,
        as one is past every node's box)."""
        lines = sorted(lines, key=lambda y: abs(y - oy))
        half = self.bands.step_x / 2
        i = 0
        while tries is None or i <= 2 * tries:
            x = ox + (i + 1) // 2 * half * (1 if i % 2 else -1)
            for y in lines:
                if self._free(x, y, key, self.new_grid, self.new_boxes):
                    return {"x": round(x, 1), "y": round(y, 1)}
            i += 1
        return None


def concentric_positions(nodes: dict[str, dict[str, Any]], edges: dict[str, dict[str, Any]],
                         focus: str, spacing: float = SPACING) -> dict[str, dict[str, float]]:
    """Rings around the focus: ring d holds the positions d moves from it on the canvas (either way);
    positions not connected to it on an outer ring."""
    distance = _hops(nodes, edges, focus)
    outer = max(distance.values(), default=0) + 1
    rings: dict[int, list[str]] = {}
    for key in nodes:
        rings.setdefault(distance.get(key, outer), []).append(key)
    positions = {}
    radius = 0.0
    for ring in sorted(rings):
        keys = sorted(rings[ring])
        if ring == 0:
            radius = 0.0
        else:  # far enough out that neighbours on the ring are SPACING apart, and past the last ring
            radius = max(radius + spacing * 1.4, len(keys) * spacing / (2 * math.pi))
        for i, key in enumerate(keys):
            angle = 2 * math.pi * i / len(keys) - math.pi / 2
            positions[key] = {"x": radius * math.cos(angle), "y": radius * math.sin(angle)}
    return positions


def layout_for(name: str, grown: Grown, focus: str, animate: bool = True) -> dict[str, Any]:
    """The Cytoscape.js layout options: a preset of positions computed here, or fcose in the browser.

    `animate` is for a canvas already on screen (another layout, "Lay out again", boards toggled): the
    nodes glide to their new places so the eye can follow them. A canvas's first layout is not
    animated: there is nothing to follow, and nodes still gliding when the page looks finished are
    where a first click misses (the flaky browser test of issue 18)."""
    common = {"fit": True, "padding": 30, "animate": animate, "animationDuration": 400}
    spacing = _spacing(grown)
    if name in ("layered", "concentric"):
        rows: list[dict[str, Any]] = []
        placed_in: dict[str, tuple[int, int]] = {}
        columns: list[int] = []
        positions = (layered_positions(grown.nodes, spacing, grown.edges, focus,
                                       BOARD_SIZE if grown.boards else NODE_SIZE, rows, placed_in, columns=columns)
                     if name == "layered" else concentric_positions(grown.nodes, grown.edges, focus, spacing))
        if name == "layered":
            grown.bands = placed_in
        _row_names(grown, focus, rows)
        bend_around(grown, positions, spacing)
        place_move_names(grown, positions, BOARD_SIZE if grown.boards else NODE_SIZE)
        # (ggLayered: an expansion places its nodes in their bands, room_for; Cytoscape.js ignores it)
        # (ggColumns: the bands set in columns side by side, which the legend explains; Cytoscape.js ignores it too)
        return {**common, "name": "preset", "positions": positions,
                **({"ggLayered": True} if name == "layered" else {}),
                **({"ggColumns": columns[0]} if columns and columns[0] > 1 else {})}
    _row_names(grown, focus, [])
    large = len(grown.nodes) >= LARGE
    for edge in grown.edges.values():  # fcose places nodes away from the moves itself (names in the middle)
        _straight(edge["data"], large)
        _no_move_name(edge["data"])
    return {**common, "name": "fcose", "randomize": True, "nodeRepulsion": 6000, "idealEdgeLength": 90,
            "nodeDimensionsIncludeLabels": True, "animate": animate and len(grown.nodes) <= 400}


def _row_names(grown: Grown, focus: str, rows: list[dict[str, Any]]) -> None:
    """The layered bands' names go with the focus's data (`_rows`, JSON; "" for another layout: a key is
    never taken out, as Cytoscape.js merges new data into old), where static/canvas_view.js (13) reads them and
    writes each beside its band, at a size that stays readable at any zoom."""
    node = grown.nodes.get(focus)
    if node is not None:
        node["data"]["_rows"] = json.dumps(rows, separators=(",", ":")) if rows else ""


def _straight(data: dict[str, Any], large: bool) -> None:
    """A move drawn without a bend of ours (`_bent` 0: Cytoscape's own bezier, which fans out moves joining
    the same two nodes). Both keys are set, never taken out: Cytoscape.js merges an element's new data into
    the old (cy.json), so a `_bend` dropped here stayed in the browser, and after an expansion and a layout
    round trip (layered, force-directed, layered) moves were drawn with the curves of an earlier layout
    (issue 18). The style sheet tests `_bent`. On a `large` canvas (plain lines) a move that never had
    the keys is left without them: no keys for thousands of moves."""
    if not large or "_bent" in data:
        data["_bend"] = 0.0
        data["_bent"] = 0


BEND_STEPS = 12     # bends tried, each way: a quarter `spacing` apart, up to 3 `spacing`s
BEND_CLEAR = 0.35   # a move passes other nodes' centres at least this many `spacing`s away
PARALLEL_STEP = 34  # px between the curves of moves joining the same two nodes (either way), at their middle


def _pair_offsets(edges: list[dict[str, Any]]) -> dict[str, tuple[tuple[str, str], float]]:
    """Moves that join the same two nodes (several moves into one node of a game stored up to symmetry,
    or a move and its way back): each one's pair, in key order, and its curve's offset from the straight
    line in that pair's frame, PARALLEL_STEP apart and centred. Cytoscape.js would fan such moves out by
    itself (its `bezier` bundles), where the server cannot see them to place their names; an explicit bend
    each (`_bend`) draws them where place_move_names knows they are. O(E log E)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for edge in edges:
        a, b = edge["data"]["source"], edge["data"]["target"]
        if a != b:
            groups.setdefault((min(a, b), max(a, b)), []).append(edge)
    offsets = {}
    for pair, members in groups.items():
        members.sort(key=lambda e: e["data"]["id"])
        for i, edge in enumerate(members):
            offsets[edge["data"]["id"]] = (pair, (i - (len(members) - 1) / 2) * PARALLEL_STEP)
    return offsets


def bend_around(grown: Grown, positions: dict[str, dict[str, float]], spacing: float) -> None:
    """Bends each move that would be drawn straight through a node other than its own two ends (in a
    layered layout a move from a band above the focus to one below it can pass right over it): its
    edge gets `_bend`, the distance of its curve's one control point from the middle of the straight
    line (the style sheet draws it as an unbundled bezier), the least, either way, that keeps the
    curve BEND_CLEAR from every other node; the least crowded if none does. Moves joining the same two
    nodes are bent together, PARALLEL_STEP apart (_pair_offsets), each with a `_bend` of its own (0 for
    the middle one of an odd number: straight). Not on a LARGE canvas, whose moves are plain lines.
    O(E x V x tries) in numpy, for fewer than LARGE nodes."""
    import numpy as np

    edges = list(grown.edges.values())
    large = len(grown.nodes) >= LARGE
    for edge in edges:
        _straight(edge["data"], large)
    keys = [k for k in grown.nodes if k in positions]
    if len(keys) >= LARGE or not edges:
        return
    index = {k: i for i, k in enumerate(keys)}
    xy = np.array([[positions[k]["x"], positions[k]["y"]] for k in keys])
    clear = BEND_CLEAR * spacing
    t = np.linspace(0.0, 1.0, 24)[:, None]
    tries = [0.0] + [sign * step * spacing / 4 for step in range(1, BEND_STEPS + 1) for sign in (1, -1)]
    offsets = _pair_offsets(edges)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for edge in edges:
        if edge["data"]["id"] in offsets:
            groups.setdefault(offsets[edge["data"]["id"]][0], []).append(edge)
    for (first, second), members in groups.items():
        a, b = index.get(first), index.get(second)
        if a is None or b is None:
            continue
        p, q = xy[a], xy[b]
        length = float(np.hypot(*(q - p)))
        if length < 1e-9:
            continue
        normal = np.array([-(q - p)[1], (q - p)[0]]) / length  # the pair's frame: from `first` to `second`
        shifts = [offsets[e["data"]["id"]][1] for e in members]
        others = np.delete(xy, [a, b], axis=0)
        # only nodes near the line can be in the way, however it bends
        others = others[np.abs((others - p) @ normal) < BEND_STEPS * spacing / 4 + clear + max(map(abs, shifts))]
        best = 0.0
        if len(others):
            best_gap = -1.0
            for bend in tries:
                gap = float("inf")
                for shift in shifts:
                    control = (p + q) / 2 + (bend + shift) * normal
                    curve = (1 - t) ** 2 * p + 2 * t * (1 - t) * control + t ** 2 * q  # (24, 2)
                    gap = min(gap, float(np.min(np.hypot(*(curve[:, None, :] - others[None, :, :]).transpose(2, 0, 1)))))
                if gap >= clear:
                    best = bend
                    break
                if gap > best_gap:
                    best, best_gap = bend, gap
        for edge, shift in zip(members, shifts):
            if best or len(members) > 1:
                # Cytoscape.js measures control-point-distances along the move's own normal (from its
                # source to its target): the opposite of the pair's for a move from `second` to `first`
                sign = 1 if edge["data"]["source"] == first else -1
                edge["data"]["_bend"] = round(float(sign * (best + shift)), 1)
                edge["data"]["_bent"] = 1


def _spacing(grown: Grown) -> float:
    return SPACING * 1.6 if grown.boards else SPACING  # a board is a bigger node


# A move's data placed by a preset layout (bend_around, place_move_names), sent again after an expansion.
PLACED = ("_bend", "_bent", "_name_at", "_picked_name_at", "_no_name")


def _placed(edge: dict[str, Any]) -> dict[str, Any]:
    """The PLACED keys of a move's data, as they stand (None where absent)."""
    return {k: edge["data"].get(k) for k in PLACED}

# The component animates an expansion's new nodes out of their parent with a 500 ms force layout of
# the whole canvas, whose defaults (edges of 50 px) pull everything together: the crowding after an
# expansion. The layout sent with the expansion is a little longer, so its places are the last word.
EXPAND_ANIMATION_MS = 700


def expansion_order(nodes: dict[str, dict[str, Any]], new: set[str]) -> list[str]:
    """The order an expansion's `new` nodes are placed in (place_around), the nearest places first: by
    remoteness (none last), then value, then key."""
    order = {"win": 0, "tie": 1, "draw": 2, "loss": 3}
    return sorted(new, key=lambda k: (nodes[k]["data"].get("remoteness") is None, nodes[k]["data"].get("remoteness") or 0,
                                      order.get(nodes[k]["data"].get("value"), 4), k))


def label_lines(element: dict[str, Any]) -> list[str]:
    """A node's label, line by line, as place_around measures it."""
    return str(element["data"].get("label", "")).split("\n")


def preset_size(grown: Grown) -> tuple[float, float]:
    """The spacing and node size a preset layout of `grown` places nodes with (boards are bigger nodes)."""
    return _spacing(grown), BOARD_SIZE if grown.boards else NODE_SIZE


def _focus_of(grown: Grown) -> str | None:
    return next((k for k, e in grown.nodes.items() if e["data"].get("_focus")), None)


def room_for(grown: Grown, positions: dict[str, dict[str, float]] | None = None) -> Room:
    """The Room an expansion of the canvas is placed in (grow_layout; canvas/ahead.py's rings, the same places): the
    nodes placed by its preset layout (`positions`, else the layout's own), with their labels, and in a layered
    layout (marked `ggLayered`) its bands."""
    layout = grown.layout or {}
    if positions is None:
        positions = {k: p for k, p in layout.get("positions", {}).items() if k in grown.nodes}
    spacing, size = preset_size(grown)
    bands = (Bands(grown.nodes, positions, grown.edges, _focus_of(grown), spacing, size, grown.bands)
             if layout.get("ggLayered") else None)
    return Room(positions, spacing, {k: label_lines(e) for k, e in grown.nodes.items()}, size, bands)


def grow_layout(grown: Grown, centre: str, new: set[str]) -> None:
    """The layout after expanding `centre` brought `new` nodes: with a preset layout (layered,
    concentric) the new nodes go around `centre` at the canvas's spacing (place_around) and
    nothing else moves; with the force-directed one, fcose runs again from where the nodes are,
    with the canvas's spacing. Neither refits the view. O(new) for a preset."""
    layout = grown.layout
    if not new or layout is None:
        return
    grown.layout_runs += 1
    # ggExpand / ggNew tell the page's view keeper (static/canvas_view.js) that this layout is an
    # expansion: it keeps the rest still and the view clear of the overlays. Cytoscape ignores them.
    step = {"fit": False, "animate": True, "animationDuration": EXPAND_ANIMATION_MS, "run": grown.layout_runs,
            "ggExpand": centre, "ggNew": sorted(new)}
    if layout.get("name") == "preset" and centre in layout["positions"]:
        positions = {k: p for k, p in layout["positions"].items() if k in grown.nodes}
        room = room_for(grown, positions)
        brought = room.around(centre, expansion_order(grown.nodes, new), data=grown.nodes)
        positions.update(brought)
        positions.update(room.moved)  # (the bands beyond a band that needed room, moved further out with their nodes)
        drawn = {i: _placed(e) for i, e in grown.edges.items()}
        bend_around(grown, positions, _spacing(grown))
        place_move_names(grown, positions, BOARD_SIZE if grown.boards else NODE_SIZE)
        # The component adds an expansion's elements (cy.add) and leaves those already drawn as they were: the
        # bends and names placed anew around the new nodes go with the layout, and the view keeper sets them.
        changed = {i: now for i, e in grown.edges.items() if (now := _placed(e)) != drawn.get(i)}
        focus = _focus_of(grown)
        if room.bands is not None:
            grown.bands.update(room.placed_in)
        if room.bands is not None and focus is not None:  # the bands named anew, as they are drawn now
            rows = room.rows(brought)
            if rows != grown.nodes[focus]["data"].get("_rows"):
                grown.nodes[focus]["data"]["_rows"] = rows
                changed[focus] = {"_rows": rows}
        grown.layout = {**layout, **step, "positions": positions, "ggData": changed}
    else:
        grown.layout = {**layout, **step, "randomize": False}
