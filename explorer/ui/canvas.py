"""The interactive graph canvas: positions and moves drawn in the browser by Cytoscape.js.

The canvas is the `streamlit-cytoscape` component (docs/ui.md says why that one):
the browser pans, zooms, fits and drags without asking the server; the server
answers only when the graph itself changes. Its data come from the one
neighbourhood query (`queries.api`, through `explorer.ui.data`, on Neo4j, the
networkx mirror or the solved arrays): the Neighbourhood tab starts from the
positions within k moves of the page's position, and expanding a node asks the
same query for that node's 1-step neighbourhood, whose new positions the
component adds in place around it. Collapsing takes away what an expansion
added (unless something else still holds it). The Cypher console draws its
results on the same canvas (`console_elements`).

Styling is by selectors over each node's data, so switching the colouring or
the edge labels changes only the style sheet, never the elements: every node
carries its fill for each colouring (`_fill_value`, `_fill_remoteness`, ...).
Value colours come from explorer.render.palette, draw levels from the draw
map's scale (analysis_panel.LEVEL_COLOURS).

Layouts: layered by remoteness and concentric around the focus are positions
computed here (a `preset` layout); force-directed is fcose, in the browser.
A layout is computed when the canvas is made or the layout is switched; an
expansion only adds places for the nodes it brought, around the expanded node
(`grow_layout`), so it moves nothing already placed.

The component is used as it is; a small script of ours (static/canvas_view.js, run by `keep_view`)
reaches its Cytoscape.js instance in the page and keeps every fit clear of the component's overlays
(info panel, bars, zoom buttons), skips the component's whole-canvas force layout on an expansion
(so nothing already drawn moves) and after an expansion moves the view only as much as it must.

In a game stored up to symmetry, nodes are drawn, labelled and opened in the orientation that
follows the moves from the page's position, and moves are named as on the board drawn at their
start, as the moves table names them (`orient`); a move into a node drawn as the mirror image of
the board it leaves is marked, and the legend says that mirror images are one node.
"""

from __future__ import annotations

import base64
import functools
import json
import math
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from explorer.core.errors import GameGraphError
from explorer.games import Game
from explorer.render import palette
from explorer.solved import SolvedGraph
from explorer.ui import data, drawing, state
from explorer.ui.analysis_panel import LEVEL_COLOURS
from explorer.ui.backend import Backend
from explorer.ui.widgets import as_text, echo, player_name

MAX_NODES = 2000          # the most positions the canvas holds (bench/bench_canvas.py: about 3 s to draw that many)
EXPAND_LIMIT = 200        # the most positions one expansion adds (a node with more neighbours shows the nearest)
HEIGHT = 640
# The least zoom of the canvas's default view (static/canvas_view.js): a label's 12 px are 7.2 px on screen,
# still read (0.7 cut a 30-node part that fitted at 0.64 down to 19 nodes in sight). A drawing too large to
# fit at it is shown at it around the focus, filling the free area; Fit shows all of it.
READABLE_ZOOM = 0.6

LAYOUTS = {"layered": "layered by remoteness", "force": "force-directed", "concentric": "concentric around the focus"}
COLOURINGS = {"value": "value", "remoteness": "remoteness", "draw_level": "draw level", "cgt_kind": "CGT kind"}
EXPAND_DIRECTIONS = {"both": "successors and predecessors", "out": "successors (moves from it)",
                     "in": "predecessors (moves into it)"}

# Colours that are not values: the marks of the canvas (greys and one accent), and the CGT kinds
# (the Okabe-Ito qualitative set, safe for the common colour blindnesses).
OPTIMAL_EDGE, OTHER_EDGE, FOCUS_RING = "#333333", "#b0b0b0", "#000000"
CYCLE_EDGE, CYCLE_OPTIMAL_EDGE = "#c39bd3", "#6c3483"  # a move on a cycle: light purple, a best one dark
# What is selected, and what an expansion brought: dark cyan, which no value is (palette.nearest_value
# puts it more than palette.MIN_DISTANCE from every value colour); the component's own is red, a loss.
HIGHLIGHT = "#008b8b"
NO_FACT = "#eeeeee"
CGT_KIND_COLOURS = {"number": "#0072b2", "nimber": "#e69f00", "infinitesimal": "#009e73", "switch": "#cc79a7",
                    "other": "#999999"}
DRAW_LEVEL_DEAD = "#ffffff"


# -- the elements ------------------------------------------------------------------
def _mix(strong: str, light: str, t: float) -> str:
    """The colour t of the way from `strong` (t=0) to `light` (t=1), in RGB."""
    a = [int(strong[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(light[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def _fills(facts: dict[str, Any], max_remoteness: int) -> dict[str, str]:
    """A node's fill under each colouring: value (palette fill), remoteness (the value's strong colour
    for a game that ends now, fading to its light fill at the greatest remoteness), draw level (the
    draw map's blues), CGT kind."""
    value = facts.get("value")
    fill = palette.FILLS.get(value, NO_FACT)
    remoteness = facts.get("remoteness")
    if remoteness is None or value not in palette.COLOURS:
        by_remoteness = NO_FACT
    else:
        by_remoteness = _mix(palette.COLOURS[value], palette.FILLS[value], min(remoteness / max(max_remoteness, 1), 1.0))
    level = facts.get("draw_level")
    by_level = LEVEL_COLOURS[min(level, len(LEVEL_COLOURS) - 1)] if level is not None else (
        DRAW_LEVEL_DEAD if value == "draw" else NO_FACT)
    kind = facts.get("cgt_kind")
    return {"_fill_value": fill, "_fill_remoteness": by_remoteness, "_fill_draw_level": by_level,
            "_fill_cgt_kind": CGT_KIND_COLOURS.get(kind, NO_FACT) if kind else NO_FACT}


def board_image(game: Game, position: Any) -> str | None:
    """The game's board drawing of `position` as an SVG data URI, None when the game has no drawing."""
    svg = drawing.position_svg(game, position)
    if not svg:
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def has_boards(game: Game) -> bool:
    return game.offers.board is not None


def position_node(game: Game, solved: SolvedGraph, key: str, boards: bool, focus: str) -> dict[str, Any]:
    """The canvas node of one position: its key as label, its facts (shown in the info panel) and
    the fills of every colouring. O(1) (the first call builds the draw levels, O(V + E))."""
    node = solved.graph.find(key)
    record = solved.record(node)
    max_remoteness = _max_remoteness(solved)
    # The info panel shows these under their names, in plain words: no raw field names or booleans.
    facts = {
        "id": key, "label": board_label(key), "position": key, "value": record["value"],
        "remoteness": record["remoteness"],
        "to move": player_name(game, int(record["to_move"])),
        "game over": _yes_no(record["terminal"]), "on a cycle": _yes_no(record["on_cycle"]),
        "draw level": record.get("draw_level"), "CGT value": record.get("cgt"),
    }
    payload = {k: v for k, v in facts.items() if v is not None}
    payload.update(_fills({"value": record["value"], "remoteness": record["remoteness"],
                           "draw_level": record.get("draw_level"), "cgt_kind": record.get("cgt_kind")},
                          max_remoteness))
    payload["_border"] = palette.COLOURS.get(record["value"], OTHER_EDGE)
    payload["_scc"] = int(record["scc"]) if record["on_cycle"] else -1
    if key == focus:
        payload["_focus"] = 1
    if boards:
        image = board_image(game, solved.graph.position(node))
        if image:
            payload["_image"] = image
    return {"data": payload}


def board_label(notation: str) -> str:
    """A node's label: a notation written row by row ("X../.O./..." as three lines, a prefix such as
    "A|" on a line of its own), so that a grid game's label reads as its board, in the style sheet's
    monospace font; a notation without rows ("A|1-1|1-1") stays one line."""
    if "/" not in notation:
        return notation
    rows = notation.split("/")
    head, bar, first = rows[0].rpartition("|")
    return "\n".join(([head + bar] if bar else []) + [first] + rows[1:])


def _yes_no(flag: Any) -> str:
    return "yes" if flag else "no"


def _max_remoteness(solved: SolvedGraph) -> int:
    cached = getattr(solved, "_canvas_max_remoteness", None)
    if cached is None:
        cached = int(solved.solution.remoteness.max(initial=0))
        object.__setattr__(solved, "_canvas_max_remoteness", cached)
    return cached


def move_edge(source: str, label: str, target: str, optimal: bool, on_cycle: bool) -> dict[str, Any]:
    """The canvas edge of one move; its id is (from, label, to), so the same move is never drawn twice."""
    payload: dict[str, Any] = {"id": f"{source}\x1f{label}\x1f{target}", "source": source, "target": target,
                               "label": "MOVE", "move": label, "optimal": bool(optimal)}
    if on_cycle:
        payload["_cycle"] = 1
    return {"data": payload}


# -- the canvas's graph, grown and shrunk ------------------------------------------------
@dataclass
class Grown:
    """What is on the canvas: nodes (key -> element) and edges (id -> element) in the order added,
    what each expansion added (expanded key -> the keys it brought), and the base (the first
    neighbourhood), which collapsing never takes away."""

    scope: tuple
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    edges: dict[str, dict[str, Any]] = field(default_factory=dict)
    base: set[str] = field(default_factory=set)
    grown: dict[str, set[str]] = field(default_factory=dict)
    generation: int = 0
    handled: int = 0
    layout: dict[str, Any] | None = None
    layout_name: str = ""
    layout_runs: int = 0      # counts layouts made: a new one always differs, so the browser runs it again
    boards: bool = False
    notes: list[str] = field(default_factory=list)
    # The board each node is drawn as (key -> position), in the orientation that follows the moves
    # from the page's position (games with a symmetry only; see orient).
    shown: dict[str, Any] = field(default_factory=dict)

    def elements(self) -> dict[str, list[dict[str, Any]]]:
        return {"nodes": list(self.nodes.values()), "edges": list(self.edges.values())}

    @property
    def mirrored(self) -> int:
        """How many moves on the canvas lead to a node drawn in another orientation (see orient). O(E)."""
        return sum(1 for edge in self.edges.values() if edge["data"].get("_mirrored"))


def _add(grown: Grown, game: Game, solved: SolvedGraph, hood, boards: bool, focus: str,
         focus_board: Any = None) -> set[str]:
    """Adds a Neighbourhood's positions and moves; returns the keys that were new. O(size of hood).
    `focus_board`: the page's position as the page shows it (position.shown), where the moves start."""
    new = set()
    for key in hood.positions:
        if key not in grown.nodes:
            grown.nodes[key] = position_node(game, solved, key, False, focus)
            new.add(key)
    added = []
    scc, on_cycle = solved.scc, solved.on_cycle
    for source, target, label, optimal in hood.edges:
        if source not in grown.nodes or target not in grown.nodes:
            continue  # a capped answer: the move leads past the positions kept (or to one removed)
        edge = move_edge(source, label, target, optimal, False)
        if edge["data"]["id"] in grown.edges:
            continue
        a, b = solved.graph.find(source), solved.graph.find(target)
        if on_cycle[a] and scc[a] == scc[b]:
            edge["data"]["_cycle"] = 1
        grown.edges[edge["data"]["id"]] = edge
        added.append(edge)
    if game.has_symmetry():
        orient(grown, game, solved, new, added, focus, focus_board)
    if boards:
        for key in new:
            image = board_image(game, _board(grown, solved, key))
            if image:
                grown.nodes[key]["data"]["_image"] = image
    return new


MIRRORED_MARK = " ⇄"


def _board(grown: Grown, solved: SolvedGraph, key: str) -> Any:
    """The board node `key` is drawn as: its orientation on the canvas, else the stored one."""
    board = grown.shown.get(key)
    return board if board is not None else solved.graph.position(solved.graph.find(key))


def orient(grown: Grown, game: Game, solved: SolvedGraph, new: set[str], added: list[dict[str, Any]],
           focus: str, focus_board: Any = None) -> None:
    """Draws the new nodes in the orientation that follows the moves, and names the new moves as
    they are played on the board drawn at their start (Game.shown_move), as the moves table does.

    The graph stores one node for a position and its mirror images, and each move's label is read
    on the stored key. Starting from the page's position as the page shows it, a node reached by a
    move is drawn as the board that move leaves (the first move found, breadth first); a node no
    drawn move reaches is drawn as stored. A move whose board differs from the one its end is drawn
    as (the same position, mirrored or turned: another way there) is marked MIRRORED_MARK, which
    the legend explains. O(new moves x moves of a position)."""
    if focus in new:
        grown.shown[focus] = focus_board if focus_board is not None else solved.graph.position(solved.graph.find(focus))
    leaving: dict[str, list[dict[str, Any]]] = {}
    for edge in added:
        leaving.setdefault(edge["data"]["source"], []).append(edge)
    queue = deque(sorted(source for source in leaving if source in grown.shown))
    done: set[str] = set()
    pending = sorted(leaving)
    while queue or pending:
        if not queue:  # a part no drawn move reaches from what is oriented: drawn as stored
            source = pending.pop()
            if source in done:
                continue
            grown.shown.setdefault(source, solved.graph.position(solved.graph.find(source)))
            queue.append(source)
        source = queue.popleft()
        if source in done:
            continue
        done.add(source)
        for edge in leaving.get(source, []):
            data = edge["data"]
            move = game.shown_move(grown.shown[source], data["move"], data["target"])
            data["move"] = move.label or data["move"]
            target = data["target"]
            if target not in grown.shown:
                grown.shown[target] = move.position
                queue.append(target)
            elif target != source and game.format(grown.shown[target]) != game.format(move.position):
                data["move"] += MIRRORED_MARK
                data["_mirrored"] = 1
    for key in new:  # the label is the board as drawn; the stored key stays the node's id
        text = game.format(_board(grown, solved, key))
        if text != key:  # (the info panel shows `position`, not the id: canvas_view.js hides the id's row)
            grown.nodes[key]["data"].update(label=board_label(text), position=text)


def start(game: Game, solved: SolvedGraph, backend: Backend, key: str, k: int, direction: str, boards: bool,
          scope: tuple, generation: int, focus_board: Any = None) -> Grown:
    """The canvas of the positions within k moves of `key`: the nearest MAX_NODES of them; `focus_board`
    is `key`'s position as the page shows it (the orientation the canvas's moves start from)."""
    hood, truncated = data.neighbourhood_capped(backend, solved, key, k, direction, MAX_NODES)
    pictures = boards and len(hood.positions) < LARGE  # (a picture a node is 4 kB: 15 MB for 2,000 nodes)
    grown = Grown(scope=scope, generation=generation, boards=pictures)
    grown.base = _add(grown, game, solved, hood, pictures, key, focus_board)
    if truncated:
        grown.notes.append(f"k={k} reaches more than {MAX_NODES} positions: the canvas shows the nearest "
                           f"{MAX_NODES}, as many as it holds; remove or collapse some to expand others, or open a "
                           "position further out")
    return grown


def expand(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, key: str, direction: str,
           boards: bool, focus: str) -> set[str]:
    """Adds `key`'s 1-step neighbourhood (the neighbourhood query with k=1); returns the new keys."""
    if key not in grown.nodes:
        return set()
    room = MAX_NODES - len(grown.nodes)
    if room <= 0:
        refusal = f"the canvas holds at most {MAX_NODES} positions: collapse or remove some first"
        if grown.notes[-1:] != [refusal]:  # asked again: said once, not once more per double-click
            grown.notes.append(refusal)
        return set()
    hood, truncated = data.neighbourhood_capped(backend, solved, key, 1, direction, min(EXPAND_LIMIT, room + 1))
    new = _add(grown, game, solved, hood, boards, focus)
    grown.grown.setdefault(key, set()).update(new)
    if truncated:
        grown.notes.append(f"`{key}` has more neighbours than one expansion adds ({min(EXPAND_LIMIT, room + 1)}); "
                           "the nearest by key are shown")
    return new


def collapse(grown: Grown, key: str) -> set[str]:
    """Takes away what expanding `key` added, and what expanding those added, except the base,
    the node itself and what another expansion still holds. Returns the keys removed."""
    gone: set[str] = set()
    stack = [key]
    while stack:
        here = stack.pop()
        for child in grown.grown.pop(here, set()):
            if child in grown.base or child == key or child in gone:
                continue
            held = any(child in brought for owner, brought in grown.grown.items() if owner not in gone | {here})
            if held:
                continue
            gone.add(child)
            stack.append(child)
    remove(grown, gone)
    return gone


def remove(grown: Grown, keys: set[str]) -> None:
    """Takes positions (and their moves) off the canvas."""
    for key in keys:
        grown.nodes.pop(key, None)
        grown.grown.pop(key, None)
        grown.shown.pop(key, None)
    grown.base -= keys
    for brought in grown.grown.values():
        brought -= keys
    grown.edges = {i: e for i, e in grown.edges.items()
                   if e["data"]["source"] not in keys and e["data"]["target"] not in keys}


def set_boards(grown: Grown, game: Game, solved: SolvedGraph, boards: bool) -> None:
    """Adds or takes away the board pictures of the nodes on the canvas (positions stay where they are)."""
    for key, element in grown.nodes.items():
        has = "_image" in element["data"]
        if boards and not has:
            image = board_image(game, _board(grown, solved, key))
            if image:
                element["data"]["_image"] = image
        elif not boards and has:
            del element["data"]["_image"]


# -- layouts -----------------------------------------------------------------------
SPACING = 90
LABEL_FONT = 12           # px: the nodes' labels
LABEL_LINE = 1.2          # their line height, in fonts
LABEL_CHAR = 7.3          # px per character of a LABEL_FONT label in the style sheet's monospace font


def label_height(lines: int) -> float:
    """The height of a node's label of `lines` lines, below the node, in model px."""
    return 3 + lines * LABEL_FONT * LABEL_LINE


NODE_SIZE = 34            # px: a node's width and height (the focus is 1.25 times that); BOARD_SIZE with boards
BOARD_SIZE = 64
# px: the moves' names. 12, as the nodes' labels: at 10 they were 6 px on screen at READABLE_ZOOM, under
# MIN_LABEL_PX, so a default view (a value-file part of Dodgem 4x4 opens at zoom 0.63) drew them as specks.
MOVE_FONT = 12
MOVE_CHAR = 0.62 * MOVE_FONT  # px per character of a move's name
# The least size, on screen, at which a label or a move's name is drawn (static/canvas_view.js, 11): below it
# it is hidden, not drawn as an unreadable speck. Every label is at least this at READABLE_ZOOM, so the default
# view shows them all. (Cytoscape's min-zoomed-font-size cannot do it: it rounds the zoom up to a power of
# two, so a 10 px name stayed drawn down to zoom 0.5, 5 px high.)
MIN_LABEL_PX = 7
TEXT_MARGIN = 3           # px between a node and its label


MOVE_HALF_HEIGHT = MOVE_FONT / 2 + 3  # half the height a move's name takes, with its card and a margin


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


def place_move_names(grown: Grown, positions: dict[str, dict[str, float]], node_size: float) -> None:
    """Where each move's name goes: `_name_at`, its distance along the move as drawn (straight, or the
    curve of a bent move: move_path) from the border of the node it leaves; the style sheet draws it
    there, level, as Cytoscape's source label, so a name always sits on its own move. The first spot,
    from that node, at which the name's box clears every position's disc and label (a board's label
    measured with all its lines) and the names placed before it. None found, the move gets `_no_name`
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

    unnamed = []
    for edge in edges:
        data = edge["data"]
        a, b = positions.get(data["source"]), positions.get(data["target"])
        if a is None or b is None or data["source"] == data["target"]:
            continue
        path = move_path(a, b, float(data.get("_bend") or 0.0), radius(data["source"]), radius(data["target"]))
        if not path:
            continue
        half_w, half_h = len(str(data.get("move", ""))) * MOVE_CHAR / 2 + 2, MOVE_HALF_HEIGHT
        d, box = spot(path, half_w, half_h, clear)
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
                      lambda box: clear(box, node_grid) and all(apart(box, by_node.get(end, ())) for end in ends))
        if d is not None:
            data["_picked_name_at"] = d
            for end in ends:
                by_node.setdefault(end, []).append(box)


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


def layered_positions(nodes: dict[str, dict[str, Any]], spacing: float = SPACING,
                      edges: dict[str, dict[str, Any]] | None = None,
                      focus: str | None = None, node_size: float = NODE_SIZE) -> dict[str, dict[str, float]]:
    """One band per remoteness (the end of the game, remoteness 0, at the bottom), then the draws,
    which have no remoteness, above the rest in one band per distance from the focus (a draw-heavy
    game such as Chopsticks was one band of everything). A band longer than row_width() wraps into
    lines; within a band, nodes sit under the mean place of their neighbours in the bands below
    (the barycentre heuristic: fewer crossing moves), value then key breaking ties. Side by side,
    nodes are at least `spacing` apart, further when the longest key would not fit between two;
    lines are 0.85 `spacing` apart, and far enough that a move's name, drawn half-way along it, clears
    the label under the node it leaves (and the label under the node it reaches, for a move upwards):
    move_label_step. O(V + E) plus the sorts."""
    hops = _hops(nodes, edges, focus)
    far = max(hops.values(), default=0) + 1
    bands: dict[tuple[int, int], list[str]] = {}
    for key, element in nodes.items():
        remoteness = element["data"].get("remoteness")
        band = (0, int(remoteness)) if remoteness is not None else (1, hops.get(key, far))
        bands.setdefault(band, []).append(key)
    neighbours: dict[str, list[str]] = {key: [] for key in nodes}
    for edge in (edges or {}).values():
        a, b = edge["data"]["source"], edge["data"]["target"]
        if a in neighbours and b in neighbours and a != b:
            neighbours[a].append(b)
            neighbours[b].append(a)
    lines = [str(e["data"].get("label", "")).split("\n") for e in nodes.values()]
    longest = max((len(line) for label in lines for line in label), default=0)
    step_x = max(spacing, longest * LABEL_CHAR + 18)
    # a label written as a board (board_label) is several lines high: lines of a band are that much apart
    tallest = max((len(label) for label in lines), default=1)
    moves = [str(e["data"].get("move", "")) for e in (edges or {}).values()]
    step_y = max(spacing * 0.85, label_height(tallest) + spacing * 0.6,
                 move_label_step(tallest, max(map(len, moves), default=0), node_size) + 2)
    width = row_width(len(nodes))
    order = {"win": 0, "tie": 1, "draw": 2, "loss": 3}
    positions: dict[str, dict[str, float]] = {}
    spans: list[tuple[list[str], float, float]] = []  # each band's keys, and where it starts and ends (y)
    y = 0.0
    for band in sorted(bands):  # decided positions by remoteness from 0, then the draws by distance
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
    return side_by_side(positions, spans, step_x, spacing)


CANVAS_WIDTH = 930     # px: about the canvas's width in the page's column (its height is HEIGHT)
CANVAS_SHAPE = CANVAS_WIDTH / HEIGHT
MAX_COLUMNS = 12


def side_by_side(positions: dict[str, dict[str, float]], spans: list[tuple[list[str], float, float]],
                 step_x: float, spacing: float) -> dict[str, dict[str, float]]:
    """The bands of a layered layout much taller than the canvas is (a part of a game with long lines of
    play: a band or two for each of many remoteness values) set in columns side by side, as a newspaper
    sets its text, each column the next bands upwards (whole bands: a band is never split), so that the
    fitted drawing has about the canvas's shape and its labels stay readable (a single column of
    35 bands fitted the canvas at a fifth of the size). `spans`: each band's keys and the extent of
    its lines (y downwards from the first band). The number of columns is the fewest whose drawing the
    canvas shows largest (a drawing it shows at full size stays one column). O(V + bands x MAX_COLUMNS)."""
    if len(spans) < 2 or not positions:
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
    if len(best) == 1:
        return positions
    placed = {}
    for j, column in enumerate(best):
        shift_x = (j - (len(best) - 1) / 2) * (width + step_x)
        shift_y = spans[column[0]][1]  # each column starts where the first one does
        for i in column:
            for key in spans[i][0]:
                placed[key] = {"x": positions[key]["x"] + shift_x, "y": positions[key]["y"] + shift_y}
    return placed


def place_around(positions: dict[str, dict[str, float]], centre: str, new: list[str],
                 spacing: float = SPACING) -> dict[str, dict[str, float]]:
    """Places for the `new` nodes an expansion of `centre` brought, around it, each at least `spacing`
    from every node already placed (and from each other); nothing already placed moves. Tried on
    rings of growing radius, below the centre first (where its successors' bands are). A grid of
    `spacing`-sized cells finds the nearby nodes, so this is O(new x tries), not O(new x V)."""
    cell = spacing
    grid: dict[tuple[int, int], list[tuple[float, float]]] = {}

    def put(x: float, y: float) -> None:
        grid.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append((x, y))

    def free(x: float, y: float) -> bool:
        cx, cy = math.floor(x / cell), math.floor(y / cell)
        return all((x - qx) ** 2 + (y - qy) ** 2 >= (0.95 * spacing) ** 2
                   for i in (-1, 0, 1) for j in (-1, 0, 1) for qx, qy in grid.get((cx + i, cy + j), ()))

    for p in positions.values():
        put(p["x"], p["y"])
    ox, oy = positions[centre]["x"], positions[centre]["y"]
    placed: dict[str, dict[str, float]] = {}
    for key in new:
        radius, spot = spacing, None
        while spot is None:
            count = max(8, int(2 * math.pi * radius / (0.5 * spacing)))
            for i in range(count):  # from straight below, alternating right and left of it
                turn = (i + 1) // 2 * (1 if i % 2 else -1)
                angle = math.pi / 2 + 2 * math.pi * turn / count
                x, y = ox + radius * math.cos(angle), oy + radius * math.sin(angle)
                if free(x, y):
                    spot = {"x": round(x, 1), "y": round(y, 1)}
                    break
            radius += 0.6 * spacing
        placed[key] = spot
        put(spot["x"], spot["y"])
    return placed


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
        positions = (layered_positions(grown.nodes, spacing, grown.edges, focus,
                                       BOARD_SIZE if grown.boards else NODE_SIZE) if name == "layered"
                     else concentric_positions(grown.nodes, grown.edges, focus, spacing))
        bend_around(grown, positions, spacing)
        place_move_names(grown, positions, BOARD_SIZE if grown.boards else NODE_SIZE)
        return {**common, "name": "preset", "positions": positions}
    large = len(grown.nodes) >= LARGE
    for edge in grown.edges.values():  # fcose places nodes away from the moves itself (names in the middle)
        _straight(edge["data"], large)
        _no_move_name(edge["data"])
    return {**common, "name": "fcose", "randomize": True, "nodeRepulsion": 6000, "idealEdgeLength": 90,
            "nodeDimensionsIncludeLabels": True, "animate": animate and len(grown.nodes) <= 400}


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
        order = {"win": 0, "tie": 1, "draw": 2, "loss": 3}
        fresh = sorted(new, key=lambda k: (grown.nodes[k]["data"].get("remoteness") is None,
                                           grown.nodes[k]["data"].get("remoteness") or 0,
                                           order.get(grown.nodes[k]["data"].get("value"), 4), k))
        positions.update(place_around(positions, centre, fresh, _spacing(grown)))
        drawn = {i: _placed(e) for i, e in grown.edges.items()}
        bend_around(grown, positions, _spacing(grown))
        place_move_names(grown, positions, BOARD_SIZE if grown.boards else NODE_SIZE)
        # The component adds an expansion's elements (cy.add) and leaves those already drawn as they were: the
        # bends and names placed anew around the new nodes go with the layout, and the view keeper sets them.
        changed = {i: now for i, e in grown.edges.items() if (now := _placed(e)) != drawn.get(i)}
        grown.layout = {**layout, **step, "positions": positions, "ggData": changed}
    else:
        grown.layout = {**layout, **step, "randomize": False}


# -- the style sheet ------------------------------------------------------------------
class _Rule:
    """One Cytoscape.js style rule: the component takes any object with dump() -> {selector, style}."""

    def __init__(self, selector: str, style: dict[str, Any]):
        self.selector, self.style = selector, style

    def dump(self) -> dict[str, Any]:
        return {"selector": self.selector, "style": self.style}


LARGE = 400  # from this many positions, moves are drawn the cheap way (plain lines, unlabelled) and no boards


def style_rules(colouring: str, move_labels: bool, boards: bool, large: bool = False) -> list[_Rule]:
    """The canvas's style: fills by the chosen colouring, value-coloured borders, the focus ringed,
    optimal moves solid and dark, other moves dashed and light, moves on a cycle in the accent colour.

    A large canvas draws its moves as plain lines (haystack: no arrows, no dashes) but the selected
    node's, and no labels but the focus's and the selected node's: bezier curves, arrows, dashes,
    double borders and thousands of labels are what make Cytoscape.js slow to draw and to zoom
    (bench/bench_canvas.py)."""
    size = BOARD_SIZE if boards else NODE_SIZE
    node_shape = {"background-color": f"data(_fill_{colouring})", "border-color": "data(_border)",
                  "border-width": 2.5, "width": size, "height": size, "shape": "round-rectangle" if boards else "ellipse"}
    node_label = {"label": "data(label)", "font-size": LABEL_FONT, "color": "#222222", "text-valign": "bottom",
                  "text-margin-y": TEXT_MARGIN, "min-zoomed-font-size": MIN_LABEL_PX,
                  # a board's rows on lines of their own (board_label), in columns
                  "text-wrap": "wrap", "text-max-width": "1000px", "line-height": LABEL_LINE,
                  "font-family": "DejaVu Sans Mono, Menlo, Consolas, monospace",
                  # a light card behind each key, so the moves crossing it do not hide it
                  "text-background-color": "#ffffff", "text-background-opacity": 0.8,
                  "text-background-padding": 1}
    focus = {"border-width": 5, "outline-width": 3, "outline-color": FOCUS_RING,
             "font-weight": "bold", "width": size * 1.25, "height": size * 1.25}
    move_label = {"font-size": MOVE_FONT, "color": "#444444", "text-background-color": "#ffffff",
                  "text-background-opacity": 0.85, "text-background-padding": 1,
                  "text-background-shape": "round-rectangle", "min-zoomed-font-size": MIN_LABEL_PX}
    if large:
        return _large_rules(colouring, move_labels, boards, node_shape, node_label, focus, move_label)
    rules = [
        _Rule("node", {**node_shape, **node_label}),
        _Rule("node[_focus]", focus),
        _Rule("node[_scc >= 0]", {"border-style": "double", "border-width": 5}),
        _Rule("edge", {"curve-style": "bezier", "target-arrow-shape": "triangle", "arrow-scale": 0.9,
                       "width": 1.2, "line-color": OTHER_EDGE, "target-arrow-color": OTHER_EDGE,
                       # level, as every name (docs/ui.md): a layout the browser makes (force-directed) has no
                       # placed spot, and names turned along curved moves read sideways
                       "line-style": "dashed", **move_label, "text-rotation": "none",
                       "label": "data(move)" if move_labels else ""}),
        _Rule("edge[?optimal]", {"line-style": "solid", "width": 2.4, "line-color": OPTIMAL_EDGE,
                                 "target-arrow-color": OPTIMAL_EDGE}),
        _Rule("edge[?_bent]", {"curve-style": "unbundled-bezier", "control-point-distances": "data(_bend)",
                              "control-point-weights": 0.5}),  # around a node in its way (bend_around)
        # the name placed clear of the labels at both ends (place_move_names), level
        _Rule("edge[_name_at >= 0]", {"label": "", "source-label": "data(move)" if move_labels else "",
                                      "source-text-offset": "data(_name_at)", "source-text-rotation": "none"}),
        # no room for the name anywhere on the move (place_move_names): named only when highlighted
        _Rule("edge[?_no_name]", {"label": ""}),
        # level, and at the spot found for it while its node is selected, or else in the middle
        _Rule("edge[?_no_name].highlight, edge[?_no_name]:selected", {"label": "data(move)" if move_labels else "",
                                                                       "text-rotation": "none"}),
        _Rule("edge[_picked_name_at >= 0].highlight, edge[_picked_name_at >= 0]:selected",
              {"label": "", "source-label": "data(move)" if move_labels else "",
               "source-text-offset": "data(_picked_name_at)", "source-text-rotation": "none"}),
        _Rule("edge[_cycle]", {"line-color": CYCLE_EDGE, "target-arrow-color": CYCLE_EDGE}),
        _Rule("edge[_cycle][?optimal]", {"line-color": CYCLE_OPTIMAL_EDGE, "target-arrow-color": CYCLE_OPTIMAL_EDGE}),
    ]
    if boards:
        rules.insert(1, _Rule("node[_image]", BOARD_PICTURE))
    return rules


# only with boards on: turning them off takes `_image` out of the elements, but Cytoscape.js merges
# an element's new data into the old (cy.json), so the pictures stayed drawn
BOARD_PICTURE = {"background-image": "data(_image)", "background-fit": "contain", "background-width": "88%",
                 "background-height": "88%", "background-image-containment": "inside", "background-clip": "node"}
# The first rule of a large canvas's sheet: a class no element has. static/canvas_view.js drops the rules
# the component puts before ours (its default look, which ours override) from a sheet that has it.
LEAN_MARK = ".gg-lean"


def _large_rules(colouring: str, move_labels: bool, boards: bool, node_shape: dict, node_label: dict,
                 focus: dict, move_label: dict) -> list[_Rule]:
    """A large canvas's sheet: only what is drawn. Its moves are haystack lines (a straight line between
    the centres, without the arrow or the cut at each node's border that cost the most to draw) but the
    selected node's (which the component highlights), drawn with their arrows and names; its positions
    are unlabelled but the focus and the selected one (keys show in the panel on click). Cytoscape.js
    computes each element's style property by property: every property a rule sets for all elements
    (labels, fonts, arrows that are never drawn) costs 2,000 nodes and 7,000 moves their time at the
    first drawing, so the base rules set only what is drawn and the label's properties go on the rules
    of the few elements that show one (bench/bench_canvas.py: a third off the time to interactive)."""
    rules = [
        _Rule(LEAN_MARK, {"label": ""}),
        _Rule("node", node_shape),  # no double border on a cycle: a plain one draws quicker
        _Rule("node[_focus]", focus),
        _Rule("node[_scc >= 0]", {"border-width": 5}),
        _Rule("node:selected, node[_focus]", node_label),
        # (haystack-radius 0, Cytoscape's default: a line between the centres)
        _Rule("edge", {"curve-style": "haystack", "width": 1.2, "line-color": OTHER_EDGE}),
        _Rule("edge[?optimal]", {"width": 2.4, "line-color": OPTIMAL_EDGE}),
        _Rule("edge[_cycle]", {"line-color": CYCLE_EDGE}),
        _Rule("edge[_cycle][?optimal]", {"line-color": CYCLE_OPTIMAL_EDGE}),
        _Rule("edge:selected, edge.highlight", {"curve-style": "straight", "target-arrow-shape": "triangle",
                                                "arrow-scale": 0.9, **move_label, "text-rotation": "none",
                                                "label": "data(move)" if move_labels else ""}),
    ]
    if boards:  # a canvas that grew past LARGE keeps its pictures
        rules.insert(2, _Rule("node[_image]", BOARD_PICTURE))
    return rules


def legend(colouring: str, mirrored: int = 0) -> str:
    """The canvas's key in plain words; `mirrored` moves lead to a node drawn in another orientation."""
    fills = {
        "value": "Fill: the value for the player to move there — green win, red loss, amber tie, blue draw.",
        "remoteness": "Fill: how soon the game ends with best play — strong colour = ends soon, pale = far off; "
                      "grey = a draw (it never ends).",
        "draw_level": "Fill: draw level — deep blue = a draw one slip from being decided, paler = safer; "
                      "white = a dead draw, grey = not a draw.",
        "cgt_kind": "Fill: kind of combinatorial value — blue number, orange nimber, green infinitesimal, "
                    "pink switch, grey other or none.",
    }[colouring]
    return (fills + " Border: the value. Thick ring: the position you are at; double border: on a cycle. "
            "Arrows are moves: solid dark = a best move, dashed light = another move; purple = a move on a cycle "
            "(play can come back); a move with no room for its name is named while its position is selected."
            + (MIRRORED_NOTE.format(count=mirrored) if mirrored else ""))


MIRRORED_NOTE = (" **Mirror images are one node:** the game is stored up to symmetry, so a position and its "
                 "mirror image (or turn) are one node, drawn once. Each move is named as it is played on the "
                 "board drawn at its start; the moves marked{mark} ({count} here) lead to a node drawn as the "
                 "mirror image (or turn) of the board that move leaves.").replace("{mark}", " " + MIRRORED_MARK.strip())


# -- drawing ----------------------------------------------------------------------
def draw(elements: dict[str, list], layout: dict[str, Any], rules: list[_Rule], key: str, on_change=None,
         args: tuple = (), actions: tuple[tuple[str, str], ...] = (), node_actions: tuple[str, ...] = ()) -> Any:
    """The component itself: elements, layout and style; node actions ('expand', 'remove') and info
    panel buttons (name, label) come back to `on_change` through st.session_state[key]."""
    from streamlit_cytoscape import InfopanelAction, streamlit_cytoscape

    callback = functools.partial(on_change, *args) if on_change is not None else None
    return streamlit_cytoscape(elements, layout=layout, node_styles=rules, height=HEIGHT, key=key,
                               on_change=callback, node_actions=list(node_actions),
                               infopanel_actions=[InfopanelAction(name, label) for name, label in actions])


# -- the Neighbourhood tab ---------------------------------------------------------------
GROWN = "canvas_grown"
ACTIONS = (("open", "Open this position"), ("collapse", "Collapse what it expanded"))


def _controls(game: Game, last: tuple[int, str, bool]) -> tuple[int, str, str, str, bool, bool, str]:
    """The canvas controls; (k, direction, layout, colouring, boards, move labels, expand direction).
    k, direction and labels start from `last` and are kept as `hood_settings` for the downloads
    (graphs.settings), which draw the same neighbourhood with Graphviz."""
    from explorer.cgt.evaluate import supports_cgt

    k, direction, labels = last
    st.session_state.setdefault("hood_k", min(max(int(k), 1), data.MAX_K))
    _, bad = state.url_k(data.MAX_K)
    asked = state.link_k_to_apply(data.MAX_K)
    if asked is not None:
        st.session_state["hood_k"] = st.session_state["hood_k_url"] = asked
    # A bad k= from a link is said once, as Play says a bad side= or opp= (quoted, cut, escaped), and the
    # address is corrected to the k used. The slot is there on every run: a warning that came and went
    # above the canvas would make Streamlit mount the canvas anew.
    slot = st.empty()
    if bad is not None:
        used = int(st.session_state["hood_k"])
        slot.warning(as_text(f"The link asks for k={echo(bad)}, which is not a whole number from 1 to {data.MAX_K}: "
                             f"the canvas uses k={used} instead."))
        st.query_params["k"] = str(used)
        st.session_state["hood_k_url"] = used
    st.session_state.setdefault("hood_dir", direction)
    st.session_state.setdefault("hood_labels", labels)
    st.session_state.setdefault("canvas_layout", "layered")
    st.session_state.setdefault("canvas_colour", "value")
    st.session_state.setdefault("canvas_boards", False)
    st.session_state.setdefault("canvas_expand", "both")
    colourings = [c for c in COLOURINGS if c != "cgt_kind" or supports_cgt(game)]
    if st.session_state["canvas_colour"] not in colourings:
        st.session_state["canvas_colour"] = "value"
    top = st.columns([1, 1.2, 1.6, 1.2], vertical_alignment="bottom")
    top[0].number_input(f"k (moves away, 1 to {data.MAX_K})", min_value=1, max_value=data.MAX_K, step=1,
                        key="hood_k", on_change=_k_into_url, help=f"the canvas starts with the positions up to k moves from here "
                                           f"(the nearest {MAX_NODES} at most)")
    top[1].selectbox("Follow moves", ["both", "out", "in"], key="hood_dir",
                     format_func={"both": "both ways", "out": "forward", "in": "backward"}.get)
    top[2].selectbox("Layout", list(LAYOUTS), key="canvas_layout", format_func=LAYOUTS.get)
    top[3].selectbox("Colour by", colourings, key="canvas_colour", format_func=COLOURINGS.get)
    low = st.columns([1.6, 1, 1, 1.4], vertical_alignment="bottom")
    low[0].selectbox("Expanding a node adds its", list(EXPAND_DIRECTIONS), key="canvas_expand",
                     format_func=EXPAND_DIRECTIONS.get,
                     help="double-click a node (or select it and press the expand button) to add its neighbours")
    low[1].checkbox("Boards on the nodes", key="canvas_boards", disabled=not has_boards(game),
                    help=None if has_boards(game) else f"{game.display_name} has no board drawing: nodes show its notation")
    low[2].checkbox("Move labels", key="hood_labels")
    low[3].button("Lay out again", key="canvas_relayout", on_click=_relayout,
                  help="place every node again with the chosen layout")
    k = int(st.session_state["hood_k"])
    st.session_state["hood_settings"] = (k, st.session_state["hood_dir"], bool(st.session_state["hood_labels"]))
    boards = bool(st.session_state["canvas_boards"]) and has_boards(game)
    return (k, st.session_state["hood_dir"], st.session_state["canvas_layout"], st.session_state["canvas_colour"],
            boards, bool(st.session_state["hood_labels"]), st.session_state["canvas_expand"])


def _k_into_url() -> None:
    """The k chosen goes into the page's address, so a copied link opens the same canvas."""
    k = int(st.session_state["hood_k"])
    st.session_state["hood_k_url"] = k
    st.query_params["k"] = str(k)


def _relayout() -> None:
    grown = st.session_state.get(GROWN)
    if grown is not None:
        grown.layout = None


def _on_event(game: Game, spec: str, solved: SolvedGraph, backend: Backend, focus: str, widget: str) -> None:
    """What the canvas sent back: an expansion, a removal, or an info panel button (open, collapse).

    Each event carries a timestamp; one already handled (the component repeats its last value) is ignored."""
    event = st.session_state.get(widget) or {}
    grown: Grown | None = st.session_state.get(GROWN)
    stamp = int(event.get("timestamp") or 0)
    if grown is None or stamp <= grown.handled:
        return
    grown.handled = stamp
    action, payload = event.get("action"), event.get("data") or {}
    try:
        if action == "expand":
            for key in payload.get("node_ids", [])[:1]:
                new = expand(grown, game, solved, backend, key, st.session_state.get("canvas_expand", "both"),
                             grown.boards, focus)
                grow_layout(grown, key, new)
        elif action == "remove":
            remove(grown, {k for k in payload.get("node_ids", []) if k != focus})
        elif action == "collapse" and payload.get("element_group") == "nodes":
            collapse(grown, payload.get("element_id"))
        elif action == "open" and payload.get("element_group") == "nodes":
            key = payload.get("element_id")
            board = grown.shown.get(key)  # opened in the orientation it is drawn in, as the moves table does
            state.go(spec, game.format(board) if board is not None else key)
    except GameGraphError as exc:
        grown.notes.append(str(exc))


def neighbourhood_panel(game: Game, spec: str, solved: SolvedGraph, key: str, backend: Backend,
                        last: tuple[int, str, bool]) -> None:
    """The Neighbourhood tab: the canvas around the page's position, grown by expanding its nodes;
    `last` is the controls' last (k, direction, move labels)."""
    k, direction, layout, colouring, boards, move_labels, _ = _controls(game, last)
    scope = (solved.graph.graph_id, key, k, direction, backend.kind)
    grown: Grown | None = st.session_state.get(GROWN)
    if grown is None or grown.scope != scope:
        generation = grown.generation + 1 if grown is not None else 0
        from explorer.ui.position import shown
        grown = start(game, solved, backend, key, k, direction, boards, scope, generation,
                      shown(solved, solved.graph.find(key)))
        st.session_state[GROWN] = grown
    # Boards are drawn on canvases of fewer than LARGE positions (one that grew past it keeps them, so
    # that an expansion moves nothing): pictures change the nodes' size, so they are placed again.
    pictures = boards and (grown.boards or len(grown.nodes) < LARGE)
    if pictures != grown.boards:
        set_boards(grown, game, solved, pictures)
        grown.boards, grown.layout = pictures, None
    if grown.layout is None or grown.layout_name != layout:
        grown.layout_runs += 1
        grown.layout = {**layout_for(layout, grown, key, animate=grown.layout_runs > 1), "run": grown.layout_runs}
        grown.layout_name = layout
    st.caption(f"{len(grown.nodes)} positions and {len(grown.edges)} moves on the canvas, starting from those within "
               f"{k} of `{key}` — answered by {data.answered_by(backend)}. Drag to pan, Ctrl + scroll to zoom, "
               "**click a node** for its facts and to open it, **double-click** to expand it.")
    widget = f"canvas_{grown.generation}"
    large = len(grown.nodes) >= LARGE
    # Nothing above the canvas may come and go between runs: Streamlit would mount it anew (a new
    # iframe, the graph drawn again), so the notes go below it.
    notes = grown.notes[-3:] + ([f"{len(grown.nodes)} positions: moves are drawn as plain lines and positions "
                                  "without their keys" + ("" if pictures or not boards else " or boards")
                                  + ", so the canvas stays quick; click a position for its name, its facts and "
                                  "its moves' arrows and names."] if large else [])
    st.caption("  \n".join(notes))  # always one element here, so the canvas below keeps its place
    draw(grown.elements(), grown.layout, style_rules(colouring, move_labels, pictures, large), key=widget,
         on_change=_on_event, args=(game, spec, solved, backend, key, widget), actions=ACTIONS,
         node_actions=("expand", "remove"))
    st.caption(legend(colouring, grown.mirrored))
    keep_view()


VIEW_KEEPER = Path(__file__).with_name("static") / "canvas_view.js"


@functools.cache
def _view_keeper_script() -> str:
    return VIEW_KEEPER.read_text(encoding="utf-8")


def keep_view() -> None:
    """The page's view keeper (static/canvas_view.js, which says what it does): fits that leave the
    component's overlays clear, expansions that move nothing already drawn, the highlight in
    HIGHLIGHT, a tidy info panel. Below the canvas, the same every run, so it never makes Streamlit
    mount the canvas again."""
    config = json.dumps({"highlight": HIGHLIGHT, "large": LARGE, "readable": READABLE_ZOOM, "leanMark": LEAN_MARK,
                         "minLabel": MIN_LABEL_PX, "labelFont": LABEL_FONT, "moveFont": MOVE_FONT})
    st.html(f"<script>window.__ggCanvas = {config};\n{_view_keeper_script()}</script>", unsafe_allow_javascript=True)


# -- the Cypher console's graphs ------------------------------------------------------
def console_elements(graph: dict[str, list[dict[str, Any]]], graph_id: str) -> dict[str, list[dict[str, Any]]]:
    """Canvas elements for the nodes and relationships of a console result (queries.results.result_graph):
    a Position node is labelled with its key and filled with its value; any other node with its labels.
    A position of this page's game (`graph_id`) can be opened from its info panel."""
    nodes = []
    for node in graph["nodes"]:
        props = node["properties"]
        value = props.get("value")
        label = str(props.get("key") or ":".join(node["labels"]) or node["id"])
        payload = {"id": node["id"], "label": label, **{k: _shown(v) for k, v in props.items() if k != "label"}}
        payload.update(_fills({"value": value, "remoteness": props.get("remoteness"),
                               "draw_level": props.get("draw_level"), "cgt_kind": props.get("cgt_kind")},
                              max(int(props.get("remoteness") or 0), 1)))
        payload["_border"] = palette.COLOURS.get(value, OTHER_EDGE)
        payload["_scc"] = -1
        if "key" in props and props.get("game") == graph_id:
            payload["_key"] = props["key"]
        nodes.append({"data": payload})
    edges = []
    for rel in graph["relationships"]:
        props = rel["properties"]
        edges.append({"data": {"id": rel["id"], "source": rel["start"], "target": rel["end"], "label": rel["type"],
                               "move": str(props.get("label", rel["type"])), "optimal": bool(props.get("optimal")),
                               **{k: _shown(v) for k, v in props.items() if k not in ("label", "optimal")}}})
    return {"nodes": nodes, "edges": edges}


def _shown(value: Any) -> Any:
    """A property as the info panel shows it (lists as text)."""
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


def console_canvas(graph: dict[str, list[dict[str, Any]]], spec: str, graph_id: str, widget: str) -> None:
    """A console result's graph on the canvas (force-directed); 'Open this position' opens a Position."""
    elements = console_elements(graph, graph_id)
    layout = {"name": "fcose", "fit": True, "padding": 30, "animate": False, "randomize": True,
              "nodeRepulsion": 6000, "idealEdgeLength": 90}
    draw(elements, layout, style_rules("value", True, False, len(elements["nodes"]) >= LARGE), key=widget,
         on_change=_on_console_event,
         args=(spec, widget), actions=(("open", "Open this position"),))
    # the same view keeper as the neighbourhood's: its fit keeps clear of the folded info panel's strip (4 nodes
    # of a path result were half under it at 1,300 px) and of the bars, readably; a tap reveals the node clicked
    keep_view()


def _on_console_event(spec: str, widget: str) -> None:
    event = st.session_state.get(widget) or {}
    payload = event.get("data") or {}
    stamp = int(event.get("timestamp") or 0)
    if event.get("action") != "open" or stamp <= st.session_state.get("console_canvas_handled", 0):
        return
    st.session_state["console_canvas_handled"] = stamp
    key = (payload.get("element_data") or {}).get("_key")
    if key:
        state.go(spec, key)
