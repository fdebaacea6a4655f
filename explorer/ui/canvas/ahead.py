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
once (canvas_view.js, 16)."""

from __future__ import annotations

import json
from collections import ChainMap
from typing import Any

from explorer.core.errors import GameGraphError
from explorer.games import Game
from explorer.solved import SolvedGraph
from explorer.ui.backend import Backend
from explorer.ui.canvas.elements import Grown, collapse, expand
from explorer.ui.canvas.layout import PLACED, expansion_order, label_lines, layout_for, room_for
from explorer.ui.canvas.marks import LARGE

AHEAD_NODES = 400          # the most nodes whose next ring is sent ahead (about 100 ms of the server per 100 nodes)
# The other layouts are made ahead for a canvas of at most this many nodes x moves, or a large one (marks.LARGE: plain
# lines, no bends nor names to place): between, bending the moves and placing their names costs seconds (tic-tac-toe
# at k=4, 162 x 279: 2 s of CPU), paid on every change of the canvas; such a canvas changes layout by the round trip.
AHEAD_LAYOUT_WORK = 10_000
AHEAD_BYTES = 1_000_000    # the most JSON sent ahead (positions' data and places); past either, the round trip


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


def collapse_of(grown: Grown, key: str) -> list[str]:
    """What collapsing `key` would take away (elements.collapse on a copy of what each expansion brought)."""
    copy = Grown(scope=grown.scope, nodes=grown.nodes, edges={}, base=set(grown.base),
                 grown={k: set(v) for k, v in grown.grown.items()}, shown={})
    copy.nodes = dict(grown.nodes)  # collapse removes from its own copy
    return sorted(collapse(copy, key))


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
        options = layout_for(name, copy, focus, animate=True)
        edges = {}
        for ident, element in copy.edges.items():
            was = grown.edges[ident]["data"]
            changed = {k: element["data"][k] for k in PLACED if k in element["data"] and element["data"][k] != was.get(k)}
            if changed:
                edges[ident] = changed
        rows = copy.nodes[focus]["data"].get("_rows", "") if focus in copy.nodes else ""
        shapes[name] = {"options": options, "edges": edges, "rows": rows}
    return shapes


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
        own: dict[str, Any] = {}
        for pool, fresh in ((nodes, new_nodes), (edges, new_edges)):
            for ident, element in fresh.items():
                data = element["data"]
                if ident not in pool:
                    pool[ident] = data
                    used += len(json.dumps(data, separators=(",", ":")))
                elif pool[ident] != data:
                    own[ident] = data
                    used += len(json.dumps(data, separators=(",", ":")))
        if own:
            ring["own"] = own
        if room is not None and key in room.positions and new_nodes:
            merged = _Over(new_nodes, grown.nodes)
            places = room.around(key, expansion_order(merged, set(new_nodes)),
                                 {k: label_lines(e) for k, e in new_nodes.items()}, new_nodes)
            ring["p"] = {k: [p["x"], p["y"]] for k, p in places.items()}
            used += 30 * len(places)
        rings[key] = ring
    payload = {"focus": focus, "count": [len(grown.nodes), len(grown.edges)], "preset": preset, "nodes": nodes,
               "edges": edges, "ring": rings, "collapse": {k: collapse_of(grown, k) for k in grown.grown}, "cut": cut}
    small = len(grown.nodes) * len(grown.edges) <= AHEAD_LAYOUT_WORK or len(grown.nodes) >= LARGE
    if layouts and grown.layout is not None and small:  # (name -> the option's text in the Layout box)
        payload["layouts"] = {"names": layouts, "current": grown.layout_name,
                              "shapes": layouts_of(grown, focus, tuple(n for n in layouts if n != grown.layout_name))}
    return payload


def ahead_json(payload: dict[str, Any]) -> str:
    """The payload as JSON to put in a <script type="application/json"> element of the page: every '<' escaped
    (a key or label can never close the element)."""
    return json.dumps(payload, separators=(",", ":")).replace("<", "\\u003c")
