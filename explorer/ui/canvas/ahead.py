"""The canvas's next ring, sent ahead (issue 35: "give the canvas what it needs ahead of time"): for each node on
the canvas, what a double-click on it would add (its new positions and moves, with their data and, in a layout
placed here, their places), and for each expanded node what collapsing it would take away. The page's script
(static/canvas_view.js, 15) shows an expansion or a collapse from it at once, in the browser, and the server's
answer, which still comes (the canvas's state, the saved scene in the URL and the downloads follow it), settles
the data without moving what was shown: the places here are the ones the server's answer gives (the same
`expand` on the same canvas, placed by the same `Room` as grow_layout).

Each ring is the server's own expansion (`elements.expand`) on a copy-on-write fork of the canvas, so there is one
home for what an expansion adds. The neighbourhoods are asked of the page's backend when it is the networkx mirror,
and of the solved arrays otherwise (the same answers, queries/arrays_backend.py; Neo4j's round trip per node would
cost seconds). Bounded: at most AHEAD_NODES nodes' rings and AHEAD_BYTES of JSON (the newest nodes first, then
the first neighbourhood by distance); a node past the cap expands by the round trip, as before.

The other layouts of the canvas go ahead too (`layouts_of`: the places and the moves' bends and names each would
give), for a canvas small enough (AHEAD_LAYOUT_WORK) or large, so that choosing one in the Layout box switches at
once (canvas_view.js, 16). So does the canvas with its boards turned on or off (`boards_of`: the nodes' pictures and
the layout they are placed anew in), so that the "Boards on the nodes" box draws them at once (canvas_view.js, 19).

A grouped canvas (canvas/clusters.py) gets its rings too (`grouped_ahead`): for each closed cluster, what opening it
changes on the canvas drawn, and for each position drawn as itself, what expanding it changes once the positions it
brings are grouped. Each is the difference between the grouped canvas drawn and the one the server's answer then
draws (clusters.view_layout, on the canvas as it is with one more cluster opened, or on a fork expanded): elements
added, taken off and changed, and the places of what is added or moved. So are its collapses (for each position
drawn as itself, what "Collapse what it expanded" changes: what it brought taken off, or its opened cluster closed
again) and its other layouts (the grouped canvas laid out by each). Bounded by AHEAD_GROUPED_SECONDS (opening
a large cluster places and names every move again: 0.2-0.5 s of the server each); the views made are handed back,
so the server's answer to one of them is not made twice."""

from __future__ import annotations

import dataclasses
import json
import time
from itertools import zip_longest
from collections import ChainMap
from typing import Any

from explorer.core.errors import GameGraphError
from explorer.core.settings import DEFAULT_UI_AHEAD_SECONDS
from explorer.games import Game
from explorer.solved import SolvedGraph
from explorer.ui.backend import Backend
import explorer.ui.canvas.clusters as clusters
from explorer.ui.canvas.elements import Grown, collapse, expand, set_boards
from explorer.ui.canvas.layout import PLACED, expansion_order, label_lines, layout_for, room_for
from explorer.ui.canvas.marks import BOARD_SIZE, LARGE, NODE_SIZE

AHEAD_NODES = 400          # the most nodes whose next ring is sent ahead (about 100 ms of the server per 100 nodes)
# The other layouts are made ahead for a canvas of at most this many nodes x moves, or a large one (marks.LARGE: plain
# lines, no bends nor names to place): between, bending the moves and placing their names costs seconds (tic-tac-toe
# at k=4, 162 x 279: 2 s of CPU), paid on every change of the canvas; such a canvas changes layout by the round trip.
AHEAD_LAYOUT_WORK = 10_000
AHEAD_BYTES = 1_000_000    # the most JSON sent ahead (positions' data and places); past either, the round trip
# the most server time spent on a grouped canvas's rings (the rest: the round trip); GAMEGRAPH_UI_AHEAD_SECONDS sets it
AHEAD_GROUPED_SECONDS = DEFAULT_UI_AHEAD_SECONDS


class _Over(ChainMap):
    """A canvas map with the fork's own additions over the canvas's: reads fall through, writes stay in the
    fork (an expansion only adds keys that are not on the canvas, so the length is the sum)."""

    def __len__(self) -> int:
        return sum(len(m) for m in self.maps)


def _fork(grown: Grown) -> Grown:
    """A copy of the canvas to expand without changing it: O(1), its additions kept apart (`_Over`)."""
    return Grown(scope=grown.scope, nodes=_Over({}, grown.nodes), edges=_Over({}, grown.edges),
                 base=set(), grown={}, boards=grown.boards, player=grown.player, shown=_Over({}, grown.shown))


def _order(grown: Grown) -> list[str]:
    """The nodes whose rings go first when the cap cuts: the newest first, which are what an expansion just brought
    (where the user is exploring), then the first neighbourhood from its edge inwards (its order is by distance
    from the focus, and a node within k - 1 has its neighbours on the canvas already)."""
    return list(reversed(list(grown.nodes)))


def _ahead_backend(backend: Backend) -> Backend:
    """The backend the rings are asked of: the mirror itself, else the solved arrays (queries=None)."""
    if backend.kind == "networkx" and backend.queries is not None:
        return backend
    return Backend("arrays", "the solved arrays")


def ring_of(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, key: str, direction: str,
            focus: str) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """What expanding `key` would add to the canvas: (new nodes, new moves), each id -> element; the canvas is left
    as it is."""
    fork = _fork(grown)
    expand(fork, game, solved, backend, key, direction, grown.boards, focus)
    return fork.nodes.maps[0], fork.edges.maps[0]


def _collapsed(grown: Grown, key: str, edges: bool = True) -> tuple[Grown, set[str]]:
    """The canvas as collapsing `key` would leave it (elements.collapse on a copy: the canvas is left as it is), and
    the keys it takes away. `edges=False` leaves the copy's moves out (the keys alone are wanted)."""
    copy = Grown(scope=grown.scope, nodes=dict(grown.nodes), edges=dict(grown.edges) if edges else {},
                 base=set(grown.base), grown={k: set(v) for k, v in grown.grown.items()}, generation=grown.generation,
                 boards=grown.boards, player=grown.player, shown=dict(grown.shown), paths=dict(grown.paths))
    gone = collapse(copy, key)
    return copy, gone


def collapse_of(grown: Grown, key: str) -> list[str]:
    """What collapsing `key` would take away (elements.collapse on a copy of what each expansion brought)."""
    return sorted(_collapsed(grown, key, edges=False)[1])


def layouts_of(grown: Grown, focus: str, names: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Each layout of `names` as the server would make it for the canvas as it is (layout.layout_for, on a copy of
    the moves' and the focus's data, which it writes): name -> the Cytoscape.js options (with the places of a
    preset), the moves' placed data that differ from what is drawn (`edges`: id -> PLACED keys) and the layered
    bands' names (`rows`, the focus's `_rows`). The page's script switches to one at once (canvas_view.js, 16)."""
    shapes = {}
    for name in names:
        copy = Grown(scope=grown.scope, nodes=dict(grown.nodes), edges={i: {"data": dict(e["data"])} for i, e in grown.edges.items()},
                     base=grown.base, boards=grown.boards, player=grown.player, shown=grown.shown)
        if focus in copy.nodes:
            copy.nodes[focus] = {**copy.nodes[focus], "data": dict(copy.nodes[focus]["data"])}
        shapes[name] = _laid_out(grown, copy, name, focus)
    return shapes


def _laid_out(grown: Grown, copy: Grown, name: str, focus: str) -> dict[str, Any]:
    """`copy` (of `grown`, its moves' and focus's data its own) laid out by the layout `name`, in the form the page's
    script switches to: the Cytoscape.js options, the moves' placed data that differ from `grown`'s (`edges`: id ->
    PLACED keys) and the bands' names (`rows`, the focus's `_rows`). O(nodes + moves) besides the layout."""
    options = layout_for(name, copy, focus, animate=True)
    edges = {}
    for ident, element in copy.edges.items():
        was = grown.edges[ident]["data"]
        changed = {k: element["data"][k] for k in PLACED if k in element["data"] and element["data"][k] != was.get(k)}
        if changed:
            edges[ident] = changed
    rows = copy.nodes[focus]["data"].get("_rows", "") if focus in copy.nodes else ""
    return {"options": options, "edges": edges, "rows": rows}


def with_boards(grown: Grown, game: Game, solved: SolvedGraph, boards: bool) -> Grown:
    """A copy of the canvas with its board pictures turned on or off (elements.set_boards on copies of the nodes' and
    moves' data, which it and a layout write), as the server holds it after the click before laying it out again
    (panel._canvas_fragment: boards set, `layout` None, then made anew): every other field as the canvas's
    (dataclasses.replace, so a field added to Grown is carried, not dropped). The canvas is left as it is."""
    copy = dataclasses.replace(grown, nodes={k: {**e, "data": dict(e["data"])} for k, e in grown.nodes.items()},
                               edges={i: {**e, "data": dict(e["data"])} for i, e in grown.edges.items()},
                               bands=dict(grown.bands), notes=list(grown.notes), said=list(grown.said),
                               boards=boards, layout=None)
    set_boards(copy, game, solved, boards)
    return copy


def _changed_nodes(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The nodes of `after` whose data differ from `before`'s: id -> their whole data (the page's script drops the
    keys it no longer has, as a picture taken off)."""
    return {k: e["data"] for k, e in after.items() if k in before and e["data"] != before[k]["data"]}


def boards_of(grown: Grown, game: Game, solved: SolvedGraph, focus: str) -> dict[str, Any] | None:
    """The canvas with its boards turned the other way, as the server would draw it after a click on "Boards on the
    nodes" (panel._canvas_fragment: elements.set_boards, then the layout made again, since a board is larger than a
    disc): `on` (the boards after the click), the nodes whose data change (`nodes`: id -> data, a picture added or
    taken off), and the layout in layouts_of's form (`options`, `edges`, `rows`). The page's script draws it at once
    (canvas_view.js, 19). None for a canvas without a layout, or one the boards would not change (a large one:
    pictures are drawn below marks.LARGE positions only)."""
    if grown.layout is None or (not grown.boards and len(grown.nodes) >= LARGE):
        return None
    copy = with_boards(grown, game, solved, not grown.boards)
    nodes = _changed_nodes(grown.nodes, copy.nodes)
    if not nodes:
        return None  # (a game without drawings)
    shape = _laid_out(grown, copy, grown.layout_name, focus)
    if focus in nodes:  # (the focus's data carry the bands' names: the layout's own)
        nodes[focus] = {**nodes[focus], "_rows": shape["rows"]}
    return {"on": copy.boards, "nodes": nodes, **shape}


def ahead(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, direction: str, focus: str,
          limit_nodes: int = AHEAD_NODES, limit_bytes: int = AHEAD_BYTES, layouts: dict[str, str] | None = None
          ) -> dict[str, Any]:
    """The payload the page's script reads (canvas_view.js, 15): the canvas it was made for (its focus and its
    numbers of nodes and moves: a payload for another canvas is not used), the elements of the rings (`nodes`,
    `edges`: id -> data, each once; a ring whose element differs from the one kept, as a node drawn in another
    orientation, holds its own in `own`), each node's ring (`ring`: key -> new node ids, new move ids, places), and
    each expanded node's collapse (`collapse`: key -> ids). `cut` says whether the cap left nodes out. Given the
    `layouts` (name -> the text the Layout box shows), every other layout of the canvas too (`layouts`: layouts_of),
    which the page's script switches to when that option is clicked."""
    layout = grown.layout or {}
    preset = layout.get("name") == "preset" and "positions" in layout
    room = None
    if preset:
        room = room_for(grown)
    asked = _ahead_backend(backend)
    nodes: dict[str, dict[str, Any]] = {}
    edges: dict[str, dict[str, Any]] = {}
    rings: dict[str, dict[str, Any]] = {}
    used, cut = 0, False
    for key in _order(grown):
        if len(rings) >= limit_nodes or used >= limit_bytes:
            cut = True
            break
        try:
            new_nodes, new_edges = ring_of(grown, game, solved, asked, key, direction, focus)
        except GameGraphError:
            continue  # (a position the arrays do not hold: a part of a value file) its expansion makes the round trip
        if not new_nodes and not new_edges:
            rings[key] = {"n": [], "e": []}
            continue
        ring: dict[str, Any] = {"n": sorted(new_nodes), "e": sorted(new_edges)}
        used += _pooled((nodes, edges), (new_nodes, new_edges), ring)
        if room is not None and key in room.positions and new_nodes:
            merged = _Over(new_nodes, grown.nodes)
            places = room.around(key, expansion_order(merged, set(new_nodes)),
                                 {k: label_lines(e) for k, e in new_nodes.items()}, new_nodes)
            ring["p"] = {k: [p["x"], p["y"]] for k, p in places.items()}
            used += 30 * len(places)
            if room.moved:  # (a layered band that needed room: the bands beyond it moved further out, as the answer's)
                ring["m"] = {k: [p["x"], p["y"]] for k, p in room.moved.items()}
                used += 30 * len(room.moved)
            if room.bands is not None and focus in grown.nodes:  # the bands' names as the answer's (`_rows`)
                rows = room.rows(places)
                if rows != grown.nodes[focus]["data"].get("_rows"):
                    ring["d"] = {focus: {"_rows": rows}}
                    used += len(rows)
        rings[key] = ring
    payload = {"focus": focus, "count": [len(grown.nodes), len(grown.edges)], "preset": preset, "nodes": nodes,
               "edges": edges, "ring": rings, "collapse": {k: collapse_of(grown, k) for k in grown.grown}, "cut": cut}
    small = len(grown.nodes) * len(grown.edges) <= AHEAD_LAYOUT_WORK or len(grown.nodes) >= LARGE
    if layouts and grown.layout is not None and small:  # (name -> the option's text in the Layout box)
        payload["layouts"] = {"names": layouts, "current": grown.layout_name,
                              "shapes": layouts_of(grown, focus, tuple(n for n in layouts if n != grown.layout_name))}
        shape = boards_of(grown, game, solved, focus)
        if shape is not None and used + len(json.dumps(shape, separators=(",", ":"))) <= limit_bytes:
            payload["boards"] = shape
    return payload


def _pooled(pools: tuple[dict, dict], fresh: tuple[dict, dict], ring: dict[str, Any]) -> int:
    """The new elements' data into the payload's shared pools (`nodes`, `edges`), each once; an element whose data
    differ from the one pooled goes in the ring's own (`own`). Returns the JSON bytes added."""
    used = 0
    own: dict[str, Any] = {}
    for pool, elements in zip(pools, fresh):
        for ident, element in elements.items():
            data = element["data"]
            if ident not in pool:
                pool[ident] = data
                used += len(json.dumps(data, separators=(",", ":")))
            elif pool[ident] != data:
                own[ident] = data
                used += len(json.dumps(data, separators=(",", ":")))
    if own:
        ring["own"] = own
    return used


def _place(layout: dict[str, Any], key: str) -> list[float] | None:
    place = (layout.get("positions") or {}).get(key)
    return None if place is None else [place["x"], place["y"]]


def view_ring(view: Grown, layout: dict[str, Any], after: Grown, placed: dict[str, Any],
              pools: tuple[dict, dict]) -> tuple[dict[str, Any], int]:
    """What turns the grouped canvas drawn (`view`, laid out by `layout`) into `after` (laid out by `placed`): the
    nodes and moves added (`n`, `e`: their data pooled), the ids taken off (`gone`: a cluster opened, the moves
    bundled with it), the data of what stays that changed (`d`: id -> data, as a cluster's count, a move's bend),
    and in a layout placed here the places of what is added (`p`) and of what moves (`m`). And its JSON bytes."""
    new_nodes = {k: e for k, e in after.nodes.items() if k not in view.nodes}
    new_edges = {k: e for k, e in after.edges.items() if k not in view.edges}
    ring: dict[str, Any] = {"n": sorted(new_nodes), "e": sorted(new_edges),
                            "gone": sorted(set(view.nodes) - set(after.nodes)) + sorted(set(view.edges) - set(after.edges))}
    changed = {k: e["data"] for pool, now in ((after.nodes, view.nodes), (after.edges, view.edges))
               for k, e in pool.items() if k in now and e["data"] != now[k]["data"]}
    if changed:
        ring["d"] = changed
    used = _pooled(pools, (new_nodes, new_edges), ring)
    if "positions" in placed:
        ring["p"] = {k: _place(placed, k) for k in new_nodes}
        moved = {k: there for k in after.nodes if k in view.nodes
                 and (there := _place(placed, k)) is not None and there != _place(layout, k)}
        if moved:
            ring["m"] = moved
    used += len(json.dumps({k: v for k, v in ring.items() if k not in ("own",)}, separators=(",", ":")))
    return ring, used


def grouped_ahead(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, direction: str, focus: str,
                  grouping: str, opened: list[str], name: str, drawn_size: float, view: Grown, layout: dict[str, Any],
                  limit_seconds: float = AHEAD_GROUPED_SECONDS, limit_bytes: int = AHEAD_BYTES,
                  layouts: dict[str, str] | None = None
                  ) -> tuple[dict[str, Any], dict[tuple[str, str], tuple[Grown, list[str], Grown, dict[str, Any]]]]:
    """The payload the page's script reads (canvas_view.js, 15) for a grouped canvas drawn as `view` (laid out by
    `layout`), as `ahead`'s but `grouped`, and with each ring a view_ring: what a double-click on a closed cluster
    (it opens) or on a position drawn as itself (it expands) changes (`ring`), and what "Collapse what it expanded"
    on a position drawn as itself changes (`shut`: position -> its ring; for a position of an opened cluster that
    expanded nothing, which closes its cluster, the cluster's node id, whose ring is in `closing`). Given the
    `layouts` (name -> the text the Layout box shows), the grouped canvas under each other layout too (`layouts`,
    as `ahead`'s: the preset's places or fcose's options, the moves' data that differ, the bands' names), which the
    page's script switches to when that option is clicked (canvas_view.js, 16), and with its boards turned the other
    way (`boards`, boards_of's form: the made view's key is ("boards", "")), which the "Boards on the nodes" box draws
    at once (canvas_view.js, 19).
    The first ring always; then the collapse of the newest expansion drawn, the boards, the other layouts, and the
    rest in turn
    (a cluster, a position, a collapse: the clusters the smallest first, the cheapest to place, the positions and
    expansions the newest first) until `limit_seconds` or `limit_bytes` (`cut` then says so).
    Also returns the views made, (what, id) -> (the canvas they were made from, the clusters opened, the view,
    its layout), so that the server's answer to that double-click, collapse or layout (("layout", name)) is the
    very view sent ahead."""
    began = time.perf_counter()
    nodes: dict[str, dict[str, Any]] = {}
    edges: dict[str, dict[str, Any]] = {}
    rings: dict[str, dict[str, Any]] = {}
    shut: dict[str, Any] = {}
    closing: dict[str, dict[str, Any]] = {}
    shapes: dict[str, dict[str, Any]] = {}
    made: dict[tuple[str, str], tuple[Grown, list[str], Grown, dict[str, Any]]] = {}
    groups = clusters.clusters_of(grown.nodes, grown.edges, grouping, focus)
    closed_ones = sorted((i for i in view.nodes if clusters.is_cluster(i) and clusters.cluster_name(i) in groups),
                         key=lambda i: (len(groups[clusters.cluster_name(i)]), i))
    positions = [k for k in reversed(list(view.nodes)) if not clusters.is_cluster(k) and k in grown.nodes]
    member_of = {key: cluster for cluster in opened for key in groups.get(cluster, ())}
    # what "Collapse what it expanded" does on each (panel._cluster_event, _on_event): the expansions the newest first
    # (the one just made is the likeliest to be taken back), then the opened clusters closed again
    drawn = set(positions)
    shuts: list[tuple[str, str]] = [("shut", key) for key in reversed(list(grown.grown)) if key in drawn]
    for key in positions:
        if key not in grown.grown and key in member_of and ("close", member_of[key]) not in shuts:
            shuts.append(("close", member_of[key]))
    base = None
    asked = _ahead_backend(backend)
    used, cut = 0, False
    order: list[tuple[str, str]] = []
    for cluster, key, shutting in zip_longest(closed_ones, positions, shuts[1:]):
        order += ([("open", cluster)] if cluster else []) + ([("expand", key)] if key else []) + ([shutting] if shutting else [])
    others = [("layout", n) for n in (layouts or {}) if n != name]
    order = order[:1] + shuts[:1] + [("boards", "")] + others + order[1:]
    boards = None
    for what, ident in order:
        if (rings or shapes or shut) and (time.perf_counter() - began >= limit_seconds or used >= limit_bytes):
            cut = True
            break
        try:
            if what == "boards":  # the grouped canvas with its boards turned the other way (boards_of's form)
                if not grown.boards and len(grown.nodes) >= LARGE:
                    continue
                source = with_boards(grown, game, solved, not grown.boards)
                if not _changed_nodes(grown.nodes, source.nodes):
                    continue  # (a game without drawings)
                after, placed = clusters.view_layout(source, grouping, list(opened), focus, name,
                                                     BOARD_SIZE if source.boards else NODE_SIZE)
                if set(after.nodes) != set(view.nodes) or set(after.edges) != set(view.edges):
                    continue
                boards = {**_shape(view, after, placed, focus), "on": source.boards,
                          "nodes": _changed_nodes(view.nodes, after.nodes)}
                used += len(json.dumps(boards, separators=(",", ":")))
                made[(what, ident)] = (source, list(opened), after, placed)
                continue
            if what == "layout":
                after, placed = clusters.view_layout(grown, grouping, list(opened), focus, ident, drawn_size)
                shapes[ident] = shape = _shape(view, after, placed, focus)
                used += len(json.dumps(shape, separators=(",", ":")))
                made[(what, ident)] = (grown, list(opened), after, placed)
                continue
            if what in ("open", "close"):
                if base is None and name in ("layered", "concentric"):
                    base = clusters.closed_layout(grown, grouping, focus, name, drawn_size)
                source = grown
                now = (list(opened) + [clusters.cluster_name(ident)] if what == "open"
                       else [i for i in opened if i != ident])
            elif what == "shut":
                source, now = _collapsed(grown, ident)[0], list(opened)
            else:
                source, now = _fork(grown), list(opened)
                if not expand(source, game, solved, asked, ident, direction, grown.boards, focus):
                    rings[ident] = {"n": [], "e": []}
                    continue
            after, placed = clusters.view_layout(source, grouping, now, focus, name, drawn_size,
                                                 closed=base if source is grown else None)
        except GameGraphError:
            continue  # (a position the arrays do not hold) its expansion makes the round trip
        ring, size = view_ring(view, layout, after, placed, (nodes, edges))
        used += size
        if what == "close":
            closing[clusters.node_id(ident)] = ring
            for key in groups.get(ident, ()):
                if key in view.nodes and key not in grown.grown:
                    shut[key] = clusters.node_id(ident)
        elif what == "shut":
            shut[ident] = ring
        else:
            rings[ident] = ring
        made[(what, ident)] = (source, now, after, placed)
    payload = {"focus": focus, "count": [len(view.nodes), len(view.edges)], "grouped": True,
               "preset": "positions" in layout, "nodes": nodes, "edges": edges, "ring": rings, "collapse": {},
               "shut": shut, "closing": closing, "cut": cut}
    if shapes:
        payload["layouts"] = {"names": layouts, "current": name, "shapes": shapes}
    if boards is not None:
        payload["boards"] = boards
    return payload, made


def _shape(view: Grown, after: Grown, placed: dict[str, Any], focus: str) -> dict[str, Any]:
    """The grouped canvas drawn (`view`) under another layout (`after`, laid out by `placed`), as the page's script
    switches to it (canvas_view.js, 16; layouts_of's form): the layout's options, the moves' data that differ (a
    bend, a name's place) and the layered bands' names."""
    changed = {}
    for ident, element in after.edges.items():
        was = view.edges[ident]["data"] if ident in view.edges else {}
        diff = {k: v for k, v in element["data"].items() if was.get(k) != v}
        if diff:
            changed[ident] = diff
    rows = after.nodes[focus]["data"].get("_rows", "") if focus in after.nodes else ""
    return {"options": placed, "edges": changed, "rows": rows}


def ahead_json(payload: dict[str, Any]) -> str:
    """The payload as JSON to put in a <script type="application/json"> element of the page: every '<' escaped
    (a key or label can never close the element)."""
    return json.dumps(payload, separators=(",", ":")).replace("<", "\\u003c")
