"""The canvas's elements: a position's node (its facts and its fill under every colouring), a move's
edge, the graph on the canvas grown by expansions and shrunk by collapses (`Grown`), its nodes drawn in
the orientation that follows the moves (`orient`), and the Cypher console's results as elements."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from explorer.core.values import Value
from explorer.games import Game
from explorer.games.base import MIRRORED_MARK
from explorer.render import palette
from explorer.solved import SolvedGraph
from explorer.ui import data, drawing
from explorer.ui.analysis_panel import LEVEL_COLOURS
from explorer.ui.backend import Backend
from explorer.ui.canvas.marks import (CGT_KIND_COLOURS, DRAW_LEVEL_DEAD, EXPAND_LIMIT, LARGE, MAX_NODES, NO_FACT,
                                      OTHER_EDGE)
from explorer.ui.widgets import player_name


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
    heat = facts.get("temperature")
    return {"_fill_value": fill, "_fill_remoteness": by_remoteness, "_fill_draw_level": by_level,
            "_fill_cgt_kind": CGT_KIND_COLOURS.get(kind, NO_FACT) if kind else NO_FACT,
            "_fill_temperature": NO_FACT if heat is None else _mix(palette.TEMPERATURE_COLD, palette.TEMPERATURE_HOT,
                                                                   warmth(heat)),
            "_fill_cycle": palette.ON_CYCLE if facts.get("on_cycle") else NO_FACT}


def warmth(temperature: float | None) -> float:
    """A temperature on a scale from 0 (cold: t <= 0, a number or an infinitesimal) towards 1 (hot), half-way at
    t = 1, without a game-wide maximum (which would mean evaluating every position): t / (t + 1)."""
    if temperature is None or temperature <= 0:
        return 0.0
    return float(temperature) / (float(temperature) + 1.0)


def _degrees(solved: SolvedGraph) -> tuple[Any, int]:
    """Each position's degree (its moves out and in, in the whole game, or in the part of it made so far) and
    the greatest; O(V + E) once per game, and again each time a part grows (a materialised part of a value
    file gains positions as the canvas expands past it)."""
    g = solved.graph
    size = (g.num_positions, len(g.succ_indices))
    cached = getattr(solved, "_canvas_degrees", None)
    if cached is None or cached[0] != size:
        import numpy as np

        degree = np.diff(g.succ_indptr) + np.bincount(g.succ_indices, minlength=g.num_positions)
        cached = (size, degree, int(degree.max(initial=0)))
        object.__setattr__(solved, "_canvas_degrees", cached)
    return cached[1], cached[2]


def _sizes(solved: SolvedGraph, node: int, record: dict[str, Any], max_remoteness: int) -> dict[str, float]:
    """A node's size under each "Size by" choice (panel.SIZINGS), from 0 (the smallest) to 1 (full size)."""
    degree, most = _degrees(solved)
    remoteness = record.get("remoteness")
    return {"_size_remoteness": 0.0 if remoteness is None else min(remoteness / max(max_remoteness, 1), 1.0),
            "_size_degree": float(degree[node]) / max(most, 1),
            "_size_temperature": warmth(record.get("temperature"))}


def seen_by_previous(value: Any) -> Any:
    """A value for the player to move at a position, as the player who moved into it sees it
    (Value.for_previous_player: a win is the mover's loss); what is not a value stays as it is."""
    try:
        return str(Value.parse(str(value)).for_previous_player())
    except (KeyError, ValueError):
        return value


def seen_by(value: Any, to_move: int, player: int | None) -> Any:
    """A position's value (for `to_move`, the player to move there) from `player`'s side: the same
    when `player` is to move there (or None: each node's own mover), else as the other player sees it."""
    return value if player is None or int(to_move) == int(player) else seen_by_previous(value)


def _perspective(facts: dict[str, Any], max_remoteness: int) -> dict[str, str]:
    """The fills and border that show a value, from the canvas's stated perspective (`_pfill_value`,
    `_pfill_remoteness`, `_pborder`): `facts` carry the value already seen from that side."""
    fills = _fills(facts, max_remoteness)
    return {"_pfill_value": fills["_fill_value"], "_pfill_remoteness": fills["_fill_remoteness"],
            "_pborder": palette.COLOURS.get(facts.get("value"), OTHER_EDGE)}


def move_colour(edge: dict[str, Any], target_value: Any) -> None:
    """Colours a move by its value for the player who makes it, as the board colours its moves: the
    value of the position it reaches as that player sees it (`_value`, and `_line` its strong colour;
    a winning move green). A move into a position of no known value keeps the neutral grey."""
    mover = seen_by_previous(target_value)
    if mover in palette.COLOURS:
        edge["data"]["_value"], edge["data"]["_line"] = mover, palette.COLOURS[mover]


def board_image(game: Game, position: Any) -> str | None:
    """The game's board drawing of `position` as an SVG data URI, None when the game has no drawing."""
    svg = drawing.position_svg(game, position)
    if not svg:
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def has_boards(game: Game) -> bool:
    return game.offers.board is not None


def _temperature_text(temperature: float | None) -> str | None:
    """A temperature for the info panel: an exact fraction where it is one (temperatures are dyadic), else as stored."""
    if temperature is None:
        return None
    from fractions import Fraction

    exact = Fraction(float(temperature)).limit_denominator(1 << 20)
    return str(exact) if float(exact) == float(temperature) else f"{temperature:g}"


def cgt_text(stored: str | None) -> str | None:
    """A stored CGT value (ASCII, '+-1') as the page writes it ('±1'): the notation's one spelling for display
    (explorer.cgt.notation's shown_stored, as `gamegraph query` prints it)."""
    if not stored:
        return None
    from explorer.cgt.notation import shown_stored

    return shown_stored(stored)


def position_node(game: Game, solved: SolvedGraph, key: str, boards: bool, focus: str,
                  player: int | None = None) -> dict[str, Any]:
    """The canvas node of one position: its key as label, its facts (shown in the info panel) and
    the fills of every colouring, for the player to move there (`_fill_*`, `_border`) and from
    `player`'s side (`_pfill_*`, `_pborder`: the page's perspective, the player to move at its
    position). O(1) (the first call builds the draw levels, O(V + E))."""
    node = solved.graph.find(key)
    record = solved.record(node)
    max_remoteness = _max_remoteness(solved)
    # The info panel shows these under their names, in plain words: no raw field names or booleans.
    facts = {
        "id": key, "label": board_label(key) + (f"\nG = {cgt_text(record['cgt'])}" if record.get("cgt") else ""),
        "position": key, "value": record["value"],
        # whose value, in words: the node's fill shows the page's perspective, which may be the other player's
        "outcome": value_words(record["value"], record["remoteness"], player_name(game, int(record["to_move"]))),
        "remoteness": record["remoteness"],
        "to move": player_name(game, int(record["to_move"])),
        "game over": _yes_no(record["terminal"]), "on a cycle": _yes_no(record["on_cycle"]),
        "draw level": record.get("draw_level"), "CGT value": cgt_text(record.get("cgt")),
        "temperature": _temperature_text(record.get("temperature")),
    }
    payload = {k: v for k, v in facts.items() if v is not None}
    payload.update(_fills({"value": record["value"], "remoteness": record["remoteness"],
                           "draw_level": record.get("draw_level"), "cgt_kind": record.get("cgt_kind"),
                           "temperature": record.get("temperature"), "on_cycle": record["on_cycle"]},
                          max_remoteness))
    payload.update(_sizes(solved, node, record, max_remoteness))
    payload["_border"] = palette.COLOURS.get(record["value"], OTHER_EDGE)
    payload.update(_perspective({"value": seen_by(record["value"], record["to_move"], player),
                                 "remoteness": record["remoteness"]}, max_remoteness))
    payload["_scc"] = int(record["scc"]) if record["on_cycle"] else -1
    if key == focus:
        payload["_focus"] = 1
    if boards:
        image = board_image(game, solved.graph.position(node))
        if image:
            payload["_image"] = image
    return {"data": payload}


VALUE_WORDS = {"win": "{p} wins in {r}", "loss": "{p} loses in {r}", "tie": "{p} ties in {r}",
               "draw": "{p} draws"}
OVER_WORDS = {"loss": "{p} has lost", "tie": "a tie: game over", "win": "{p} has won"}


def value_words(value: Any, remoteness: Any, player: str) -> str:
    """A value in words for the player to move, named ("B wins in 3", "O has lost"): the info panel's and a
    cluster's, which say whose value it is where the fills show one perspective for every node."""
    if str(remoteness) == "0" and value in OVER_WORDS:
        return OVER_WORDS[value].format(p=player)
    return VALUE_WORDS.get(value, "{p}: value unknown").format(p=player, r=remoteness)


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
    # In the layered layout, the band each node was placed in (layout.band_of): an expansion places what it brings in
    # its band and names the bands as drawn (layout.Bands), whatever the distances on the grown canvas are now.
    bands: dict[str, tuple[int, int]] = field(default_factory=dict)
    boards: bool = False
    notes: list[str] = field(default_factory=list)   # about the canvas itself (how it started): they stay
    # The last action's lines (an expansion, a removal, a search): the next action replaces them, so a line
    # such as "Expanding … added nothing" goes with the double-click that made it (panel's _on_event, _on_find).
    said: list[str] = field(default_factory=list)
    # The perspective of the nodes' `_pfill_*`: the player to move at the page's position (start sets it).
    player: int | None = None
    # The board each node is drawn as (key -> position), in the orientation that follows the moves
    # from the page's position (games with a symmetry only; see orient).
    shown: dict[str, Any] = field(default_factory=dict)
    # The positions a search added with their path from the focus (canvas/search.py, add_path), in order, each with
    # the expansions made before it: the saved scene's `path=` (panel._scene_out), so a copied link keeps them.
    paths: dict[str, frozenset[str]] = field(default_factory=dict)

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
    if grown.player is None and focus in hood.positions:
        grown.player = int(solved.graph.to_move[solved.graph.find(focus)])
    for key in hood.positions:
        if key not in grown.nodes:
            grown.nodes[key] = position_node(game, solved, key, False, focus, grown.player)
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
        move_colour(edge, grown.nodes[target]["data"].get("value"))
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


def _board(grown: Grown, solved: SolvedGraph, key: str) -> Any:
    """The board node `key` is drawn as: its orientation on the canvas, else the stored one."""
    board = grown.shown.get(key)
    return board if board is not None else solved.graph.position(solved.graph.find(key))


def orient(grown: Grown, game: Game, solved: SolvedGraph, new: set[str], added: list[dict[str, Any]],
           focus: str, focus_board: Any = None) -> None:
    """Draws the new nodes in the orientation that follows the moves from the page's position as the page
    shows it, and names the new moves as played on the board drawn at their start, marking MIRRORED_MARK
    a move into a node drawn as another orientation of the board it leaves (the legend explains it):
    Game.orient, which the neighbourhood's tables, diagrams and downloads use too. O(new moves x moves of
    a position)."""
    if focus in new:
        grown.shown[focus] = focus_board if focus_board is not None else solved.graph.position(solved.graph.find(focus))
    played = game.orient([(edge["data"]["source"], edge["data"]["move"], edge["data"]["target"]) for edge in added],
                         grown.shown, lambda key: solved.graph.position(solved.graph.find(key)))
    for edge, (label, mirrored) in zip(added, played):
        data = edge["data"]
        data["move"] = (label or data["move"]) + (MIRRORED_MARK if mirrored else "")
        if mirrored:
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
        if refusal not in grown.said:  # asked again: said once, not once more per double-click
            grown.said.append(refusal)
        return set()
    hood, truncated = data.neighbourhood_capped(backend, solved, key, 1, direction, min(EXPAND_LIMIT, room + 1))
    moves = len(grown.edges)
    new = _add(grown, game, solved, hood, boards, focus)
    if not new and len(grown.edges) == moves and not truncated:
        # Nothing new: said in one line, and not kept as an expansion (the saved scene's exp= would name it)
        name = game.format(grown.shown[key]) if key in grown.shown else key
        said = f"Expanding {name} added nothing: its neighbours and moves are all on the canvas already."
        if said not in grown.said:
            grown.said.append(said)
        return new
    grown.grown.setdefault(key, set()).update(new)
    if truncated:
        grown.said.append(f"{key} has more neighbours than one expansion adds ({min(EXPAND_LIMIT, room + 1)}); "
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
    values = {node["data"]["id"]: node["data"].get("value") for node in nodes}
    for rel in graph["relationships"]:
        props = rel["properties"]
        edge = {"data": {"id": rel["id"], "source": rel["start"], "target": rel["end"], "label": rel["type"],
                         "move": str(props.get("label", rel["type"])), "optimal": bool(props.get("optimal")),
                         **{k: _shown(v) for k, v in props.items() if k not in ("label", "optimal")}}}
        move_colour(edge, values.get(rel["end"]))
        edges.append(edge)
    return {"nodes": nodes, "edges": edges}


def _shown(value: Any) -> Any:
    """A property as the info panel shows it (lists as text)."""
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)
