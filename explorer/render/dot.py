"""Graphviz diagrams of positions and moves: winning lines, certificates, neighbourhoods, cycles, whole graphs.

The one writer of DOT and of the images Graphviz draws from it, for the CLI
(`gamegraph dot`) and the page. Every diagram uses one visual language,
explained by a legend drawn in it: positions are filled by value for the
player to move (the palette of explorer/render/palette.py: win green, loss red,
tie amber, draw blue), each move is coloured by its value for the player who
makes it (GamesmanUni's rule, palette.move_value: a winning move is green though
the position it reaches is red), positions with the same remoteness share a rank
(a row), optimal moves are bold and the others dashed, and the queried position
has a thick double border in the one highlight colour (palette.HIGHLIGHT). A line of play (a winning
line, a cycle) is read like text instead: left to right in rows, wrapped to a slide's shape (16:9) when
short and a page's when long (`per_row`). Builders turn a query result or a certificate into a `Diagram`;
`to_dot` writes its DOT text (O(nodes + edges)); `render` writes .dot, .svg
or .png by file extension (the `dot` program lays out the image), a PNG at DEFAULT_DPI or the
resolution asked (`check_dpi`).

The page draws neighbourhoods its own way (`linked_dot`: left to right by
moves from the centre, every position a link, no legend), and its draw maps
(`draw_map_dot`, `region_map_dot`); `image` runs `dot` on any source with a deadline.
"""

from __future__ import annotations

import html
import math
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.core.errors import GameGraphError, GraphTooLarge, InvalidParameter, QueryError, counted
from explorer.core.files import output_file
from explorer.games.base import MIRRORED_MARK
from explorer.render import palette

if TYPE_CHECKING:  # graphviz and networkx load when a diagram is drawn, not with the CLI
    import graphviz
    import networkx as nx

COLOURS = palette.FILLS  # node fills by value (the legend lists them in this order)
HIGHLIGHT = palette.HIGHLIGHT
OTHER_MOVE = palette.RULE  # a move whose value is not known
MAX_GRAPH_NODES = 500
# Above this many positions dot's spline routing and crossing minimisation take minutes on
# cyclic graphs (Chopsticks: over 10 min for 342 positions); straight edges and capped
# network-simplex passes bring that to about 20 s.
FAST_LAYOUT_NODES = 100
FAST_LAYOUT = {"splines": "line", "mclimit": "0.1", "nslimit": "1", "nslimit1": "1", "remincross": "false",
               "searchsize": "10"}
FORMATS = {".dot": None, ".gv": None, ".svg": "svg", ".png": "png", ".pdf": "pdf"}


@dataclass
class Diagram:
    """What to draw: positions (key -> value, remoteness, terminal), moves, the position to highlight."""

    title: str
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    edges: list[tuple[str, str, str, bool]] = field(default_factory=list)  # from, to, label, optimal
    highlight: str | None = None
    bold_meaning: str = "optimal move"
    thin_meaning: str = "other move"
    # A line of play (a winning line, a cycle): its positions in order, left to right, wrapped into rows
    # that give the picture about `aspect` (width / height): a slide's 16:9 for a short line, a page's for a long one.
    wrap: bool = False
    # More lines for the legend, in plain words (a neighbourhood's mirrored moves).
    notes: list[str] = field(default_factory=list)

    def add_node(self, key: str, value: str, remoteness: int | None, terminal: bool = False) -> None:
        self.nodes.setdefault(key, {"value": value, "remoteness": remoteness, "terminal": terminal})


def _detail(info: dict[str, Any]) -> str:
    value, remoteness = info["value"], info["remoteness"]
    if info.get("terminal"):
        return f"game over: {value}"
    if remoteness is None:
        return value
    return f"{value} in {remoteness}"


def _node_label(key: str, info: dict[str, Any]) -> str:
    if info.get("board"):  # a picture of the board (explorer/render/boards.py): an HTML-like label
        lines = [_detail(info)] + ([f"G = {info['cgt']}"] if info.get("cgt") else []) + (
            [info["note"]] if info.get("note") else [])
        text = "".join(f"<TR><TD>{html.escape(line)}</TD></TR>" for line in lines)
        return (f'<<TABLE BORDER="0" CELLSPACING="2" CELLPADDING="0"><TR><TD>{info["board"]}</TD></TR>'
                f"{text}</TABLE>>")
    if info.get("label"):  # a drawn board instead of the notation
        key = info["label"]
    elif info.get("shown"):  # the position in the orientation that follows the moves of a line
        key = info["shown"]
    detail = _detail(info)
    if info.get("cgt"):
        detail += f"\\nG = {info['cgt']}"
    if info.get("note"):
        detail += f"\\n{info['note']}"
    return f"{key}\\n{detail}"  # DOT's own line break, so each node stays on one line of the source


SLIDE, PAGE = 16 / 9, 1 / 2 ** 0.5  # width / height of a 16:9 slide and of an A4 page upright
SLIDE_LINE = 12  # a line of at most this many positions is laid out for a slide, a longer one for a page


def per_row(count: int, boards: bool) -> int:
    """How many positions of a line of `count` stand in one row so that the rows, stacked, are closest to a
    slide's shape (SLIDE; a page's, PAGE, past SLIDE_LINE positions). A position's place (the node, the move's
    name beside it, the gaps) is about as wide as high with boards (0.95), 1.6 times with notation. O(count)."""
    aspect = SLIDE if count <= SLIDE_LINE else PAGE
    cell = 0.95 if boards else 1.6
    return min(range(1, max(count, 1) + 1),
               key=lambda k: abs(math.log(k * cell / -(-count // k)) - math.log(aspect)))


def to_dot(diagram: Diagram) -> str:
    """The DOT text of a diagram: O(nodes + edges)."""
    import graphviz

    if diagram.wrap:
        return _wrapped_dot(diagram)
    dot = graphviz.Digraph("gamegraph", graph_attr={
        "label": diagram.title, "labelloc": "t", "fontname": "Helvetica", "rankdir": "TB", "newrank": "true"},
        node_attr={"shape": "box", "style": "rounded,filled", "fontname": "Helvetica", "fontsize": "11"},
        edge_attr={"fontname": "Helvetica", "fontsize": "9"})
    if len(diagram.nodes) > FAST_LAYOUT_NODES:
        dot.graph_attr.update(FAST_LAYOUT)
    ids = _ids(diagram)
    ranks: dict[int, list[str]] = {}
    for key, info in diagram.nodes.items():
        _node(dot, diagram, ids, key, info)
        if info["remoteness"] is not None:
            ranks.setdefault(info["remoteness"], []).append(key)
    for remoteness, keys in sorted(ranks.items(), reverse=True):
        with dot.subgraph(name=f"remoteness_{remoteness}") as same:
            same.attr(rank="same")
            for key in keys:
                same.node(ids[key])
    for source, target, label, optimal in diagram.edges:
        _edge(dot, diagram, ids, source, target, label, optimal)
    _legend(dot, diagram)
    return dot.source


def _ids(diagram: Diagram) -> dict[str, str]:
    return {key: f"n{i}" for i, key in enumerate(diagram.nodes)}  # keys may hold DOT's ':' port syntax


def _node(dot: graphviz.Digraph, diagram: Diagram, ids: dict[str, str], key: str, info: dict[str, Any]) -> None:
    attrs = {"label": _node_label(key, info), "fillcolor": COLOURS.get(info["value"], palette.WHITE)}
    if info.get("label"):
        attrs.update(fontname="Courier-Bold", fontsize="12", tooltip=key)
    elif info.get("board") or info.get("shown"):
        attrs["tooltip"] = info.get("shown") or key
        if info.get("board"):
            attrs["margin"] = "0.08"
    if info.get("terminal") and info.get("board"):
        attrs["peripheries"] = "2"  # a board keeps its box: an octagon would stretch its cells
    elif info.get("terminal"):
        attrs["shape"] = "octagon"
    if key == diagram.highlight:
        attrs.update(color=HIGHLIGHT, penwidth="3", peripheries="2")
    dot.node(ids[key], **attrs)


def _edge(dot: graphviz.Digraph, diagram: Diagram, ids: dict[str, str], source: str, target: str, label: str,
          optimal: bool, **extra: str) -> None:
    # coloured by its value for the player who makes it (palette.move_value), as on the boards
    attrs = {"label": label or "", "color": palette.move_colour(diagram.nodes[target]["value"], OTHER_MOVE)}
    attrs.update({"style": "bold", "penwidth": "2.5"} if optimal else {"style": "dashed"})
    dot.edge(ids[source], ids[target], **attrs, **extra)


def _wrapped_dot(diagram: Diagram) -> str:
    """A line of play read like text: its positions left to right in rows of per_row, each row under the one
    before, the move that ends a row going down to the start of the next; the legend under the last row.
    O(nodes + edges)."""
    import graphviz

    boards = any(info.get("board") for info in diagram.nodes.values())
    order = list(diagram.nodes)
    width = per_row(len(order), boards)
    row_of = {key: i // width for i, key in enumerate(order)}
    place = {key: i for i, key in enumerate(order)}
    dot = graphviz.Digraph("gamegraph", graph_attr={
        "label": diagram.title, "labelloc": "t", "fontname": "Helvetica", "fontsize": "16", "rankdir": "TB",
        "newrank": "true", "nodesep": "0.45", "ranksep": "0.55"},
        node_attr={"shape": "box", "style": "rounded,filled", "fontname": "Helvetica", "fontsize": "11"},
        edge_attr={"fontname": "Helvetica", "fontsize": "10"})
    ids = _ids(diagram)
    for key, info in diagram.nodes.items():
        _node(dot, diagram, ids, key, info)
    for row in range(-(-len(order) // width)):
        with dot.subgraph(name=f"row_{row}") as same:
            same.attr(rank="same")
            for key in order[row * width:(row + 1) * width]:
                same.node(ids[key])
    for source, target, label, optimal in diagram.edges:
        # the next position in the same row sets the order left to right; any other move (the one down to the
        # next row, a cycle's way back) leaves the layout alone
        along = place[target] == place[source] + 1 and row_of[target] == row_of[source]
        _edge(dot, diagram, ids, source, target, label, optimal, **({} if along else {"constraint": "false"}))
    _legend(dot, diagram)
    starts = order[::width]  # each row under the one before, starting at the left edge
    for above, below in zip(starts, starts[1:]):
        dot.edge(ids[above], ids[below], style="invis", weight="10")
    if order:  # the legend closes the last row, on its right
        with dot.subgraph(name="legend_row") as same:
            same.attr(rank="same")
            same.node(ids[order[-1]])
            same.node("legend")
        dot.edge(ids[order[-1]], "legend", style="invis")
    return dot.source


def _legend(dot: graphviz.Digraph, diagram: Diagram) -> None:
    """One small box in plain words: the colours of the values the diagram uses, the two arrows, the
    marked position and what a row means."""
    used = [value for value in COLOURS if any(info["value"] == value for info in diagram.nodes.values())]
    swatches = "".join(f'<TD BGCOLOR="{COLOURS[value]}" BORDER="1">{value}</TD>' for value in used or COLOURS)
    lines = ["move colour: its value for the player who makes it",
             f"<B>━━</B> {html.escape(diagram.bold_meaning)}", f"╌╌ {html.escape(diagram.thin_meaning)}"]
    if diagram.highlight is not None:
        lines.append(f'<FONT COLOR="{HIGHLIGHT}"><B>▢</B></FONT> the position asked about')
    if diagram.wrap:
        lines.append("read the line left to right, row after row")
    elif any(info["remoteness"] is not None for info in diagram.nodes.values()):
        lines.append("one row: as many moves from the end")
    lines += [html.escape(note) for note in diagram.notes]
    rows = "".join(f'<TR><TD COLSPAN="{max(len(used), 1)}" ALIGN="LEFT">{line}</TD></TR>' for line in lines)
    label = (f'<<TABLE BORDER="1" COLOR="{palette.RULE}" CELLBORDER="0" CELLSPACING="2" CELLPADDING="2">'
             f'<TR><TD COLSPAN="{max(len(used), 1)}" ALIGN="LEFT">position colour: its value for the player to move there</TD></TR>'
             f"<TR>{swatches}</TR>{rows}</TABLE>>")
    dot.node("legend", label=label, shape="plaintext", style="", fontsize="9")


# -- the page's neighbourhood ----------------------------------------------------------------
LINKED_CENTRE = palette.HIGHLIGHT
LINKED_MOVE = palette.RULE


def linked_dot(centre: str, positions: Mapping[str, Mapping[str, Any]], edges: list[tuple[str, str, str, bool]],
               link: Callable[[str], str], labels: bool = True, drawn: Mapping[str, str] | None = None) -> str:
    """DOT source of positions near `centre`, for a page: ranked left to right by moves from the
    centre, filled by value with the value's colour as border, the centre bold in the highlight
    colour, each move in its value's colour for the player who makes it, optimal moves solid and the
    others dashed. `positions` maps a key to its facts (value, remoteness, distance);
    `edges` are (from, to, label, optimal); `drawn` maps a key to the board it is drawn as (notation), when
    not its key (Game.orient, with the edges' labels named as played: explorer.ui.graphs); every node
    links to `link(board)` (target _top), which is what makes the SVG clickable on the page and in a
    downloaded file. O(nodes log nodes + edges)."""
    drawn = drawn or {}
    import graphviz

    g = graphviz.Digraph("neighbourhood", graph_attr={"rankdir": "LR", "bgcolor": "transparent", "fontname": "Helvetica",
                                                       "nodesep": "0.2", "ranksep": "0.5"},
                         node_attr={"shape": "box", "style": "rounded,filled", "fontname": "Helvetica", "fontsize": "12"},
                         edge_attr={"fontname": "Helvetica", "fontsize": "10", "color": LINKED_MOVE})
    for key, facts in sorted(positions.items(), key=lambda item: (item[1]["distance"], item[0])):
        value, r = facts["value"], facts["remoteness"]
        outcome = value if r is None else f"{value} in {r}"
        board = drawn.get(key, key)
        attrs = {"label": f"{board}\\n{outcome}", "fillcolor": palette.FILLS[value], "color": palette.COLOURS[value],
                 "URL": link(board), "target": "_top",
                 "tooltip": f"{board}: {outcome} for the player to move ({_moves_away(facts['distance'])})"}
        if key == centre:
            attrs.update(penwidth="3", color=LINKED_CENTRE, fontsize="14", id="ggcentre")
        g.node(key, **attrs)
    for source, target, label, optimal in edges:
        attrs = {"style": "solid" if optimal else "dashed", "penwidth": "1.6" if optimal else "1",
                 "color": palette.move_colour(positions[target]["value"], LINKED_MOVE)}
        if labels:
            attrs["label"] = label
        g.edge(source, target, **attrs)
    return g.source


# -- the page's draw maps (explorer/ui/analysis_panel.py) -------------------------------------
def draw_map_dot(dots: Mapping[str, Mapping[str, Any]], edges: list[tuple[str, str]], centre: str | None = None) -> str:
    """DOT source of the draw map: a map rather than a diagram, unlabelled dots placed by a force-directed
    layout (sfdp, fast for hundreds of nodes; `layout` in the source, so `image` draws it), moves as thin
    grey arrows under them. `dots` maps a node id to its facts: `fill` (its colour), `key` (the
    tooltip), `url` (a link, target _self), `closed` (in the drawing core: outlined); the dot `centre`
    is larger, in the highlight colour. O(dots + edges)."""
    import graphviz

    g = graphviz.Digraph("draw_map", graph_attr={"layout": "sfdp", "overlap": "prism", "outputorder": "edgesfirst",
                                                 "bgcolor": "transparent"},
                         node_attr={"shape": "circle", "style": "filled", "label": "", "width": "0.22",
                                    "penwidth": "0.5"},
                         edge_attr={"color": palette.RULE_LIGHT, "arrowsize": "0.3", "penwidth": "0.6"})
    for node, facts in dots.items():
        attrs = {"fillcolor": facts["fill"], "tooltip": facts["key"], "URL": facts["url"], "target": "_self"}
        if facts.get("closed"):
            attrs.update(color=palette.CORE_OUTLINE, penwidth="1.8")
        if node == centre:
            attrs.update(width="0.4", color=palette.HIGHLIGHT, penwidth="3")
        g.node(node, **attrs)
    for source, target in edges:
        g.edge(source, target)
    return g.source


def region_map_dot(regions: list[tuple[str, int, bool]]) -> str:
    """DOT source of the draw regions (strongly connected components of the draws) for a draw region
    too big to map dot by dot: one ellipse per (region id, positions, closed), a closed region (the
    drawing core) filled with the core colour. O(regions)."""
    import graphviz

    g = graphviz.Digraph("draw_regions", node_attr={"shape": "ellipse", "style": "filled"})
    for region, size, closed in regions:
        g.node(region, f"{counted(size, 'position')}", fillcolor=palette.CORE_FILL if closed else palette.NO_FACT)
    return g.source


def _moves_away(distance: int) -> str:
    return "here" if distance == 0 else f"{counted(distance, 'move')} away"


# -- builders --------------------------------------------------------------------------
def _game_name(graph_id: str) -> str:
    """The short spec people use (chopsticks:magic-fingers, marked [nosym] when not symmetry-reduced)
    for a graph id, else the id itself."""
    from explorer.graph import parse_graph_id  # here: `query`'s options read this module's limits, numpy unneeded

    try:
        game, symmetric = parse_graph_id(graph_id)
    except GameGraphError:
        return graph_id
    return game.display_name + ("" if symmetric or not game.has_symmetry() else " [nosym]")


def _steps_diagram(title: str, result: Any, rows: list[dict[str, Any]], highlight: str | None, ends: bool,
                   boards: bool) -> Diagram:
    """The positions and moves of a line of play. Each position is shown as the line plays it on one
    board (the result's `boards` and `named`, Game.shown_line): each board is the one before it
    with the move named applied, whatever orientation the stored key has; with `boards` each node
    is a picture of its board (explorer/render/boards.py), else its notation."""
    diagram = Diagram(title, highlight=highlight, wrap=True)
    shown = list(result.boards or [])
    named = list(result.named or [])
    game = _game_of(result.game) if boards else None
    for i, row in enumerate(rows):
        diagram.add_node(row["key"], row["value"], row["remoteness"],
                         terminal=ends and row is rows[-1] and row["label"] is None and row["remoteness"] == 0)
        info = diagram.nodes[row["key"]]
        if i < len(shown) and "shown" not in info:
            info["shown"] = shown[i]
            if game is not None:
                from explorer.render.boards import board_label
                info["board"] = board_label(game, game.parse(shown[i]))
    closing = None  # a cycle played on one board may come back turned or mirrored: then drawn as it comes back
    if rows and len(shown) > len(rows) and shown[-1] != shown[0]:
        first = diagram.nodes[rows[0]["key"]]
        closing = f"{rows[0]['key']} (as it comes back)"
        diagram.nodes[closing] = {**first, "shown": shown[-1], "note": "the first position again, turned or mirrored"}
        if game is not None:
            from explorer.render.boards import board_label
            diagram.nodes[closing]["board"] = board_label(game, game.parse(shown[-1]))
    for i, row in enumerate(rows):
        if row["to"] is not None:
            label = named[i] if i < len(named) else row["label"]
            target = closing if closing is not None and i == len(rows) - 1 else row["to"]
            diagram.edges.append((row["key"], target, label, bool(row["optimal"])))
    return diagram


def _game_of(graph_id: str) -> Any:
    """The game of a graph id, for drawing its boards."""
    from explorer.graph import parse_graph_id

    return parse_graph_id(graph_id)[0]


def line_diagram(result: Any, boards: bool = False) -> Diagram:
    """A shortest-win line (principal variation) or a plain path, from its QueryResult; `boards`
    draws each position as its board."""
    if result.query not in ("shortest-win", "path"):
        raise QueryError(f"a line diagram needs a shortest-win or path result, not {result.query}")
    rows = result.tables["line" if result.query == "shortest-win" else "path"].records()
    name = _game_name(result.game)
    start = (result.boards or [result.params["position"]])[0]
    title = (f"{name}\nbest play from {start}" if result.query == "shortest-win"
             else f"{name}\nshortest path {start} -> {result.params['to']}")
    return _steps_diagram(title, result, rows, result.params.get("position"), ends=result.query == "shortest-win",
                          boards=boards)


def cycle_diagram(result: Any, boards: bool = False) -> Diagram:
    """The cycle of a shortest-cycle result (the last move closes it back on the position; played on
    one board, it may come back in another orientation of the position)."""
    if result.query != "shortest-cycle":
        raise QueryError(f"a cycle diagram needs a shortest-cycle result, not {result.query}")
    rows = result.tables["cycle"].records()
    start = (result.boards or [result.params["position"]])[0]
    title = f"{_game_name(result.game)}\nshortest cycle through {start} ({counted(len(rows), 'move')})"
    if not rows:
        title = f"{_game_name(result.game)}\n{start}: no cycle of at most {result.params['max_length']} moves"
    return _steps_diagram(title, result, rows, result.params["position"], ends=False, boards=boards)


def neighbourhood_diagram(result: Any) -> Diagram:
    """The positions and moves of a neighbourhood result, drawn as the page's canvas draws them (the
    result's drawing, Game.orient): each position as its board in the orientation that follows the moves
    from the position as typed (the title's too), each move named as played on the board it starts from,
    marked MIRRORED_MARK when it leaves the mirror image (or a turn) of the board its end is drawn as."""
    if result.query != "neighbourhood":
        raise QueryError(f"a neighbourhood diagram needs a neighbourhood result, not {result.query}")
    p = result.params
    drawn, played = result.drawing() or ({}, [])
    centre = drawn.get(p["position"], p["position"])
    diagram = Diagram(f"{_game_name(result.game)}\npositions within {p['k']} moves of {centre} ({p['direction']})",
                      highlight=p["position"])
    for row in result.tables["positions"].records():
        diagram.add_node(row["key"], row["value"], row["remoteness"], row["terminal"])
        if drawn.get(row["key"], row["key"]) != row["key"]:
            diagram.nodes[row["key"]]["shown"] = drawn[row["key"]]
    mirrored = False
    for i, row in enumerate(result.tables["moves"].records()):
        if row["to"] in diagram.nodes:
            label, flip = played[i] if i < len(played) else (row["label"], False)
            mirrored = mirrored or flip
            diagram.edges.append((row["from"], row["to"], (label or "") + (MIRRORED_MARK if flip else ""),
                                  bool(row["optimal"])))
    if mirrored:
        diagram.notes.append(f"{MIRRORED_MARK.strip()} the move leaves the mirror image (or a turn) of the board "
                             "drawn at its end: the same position")
    return diagram


def certificate_diagram(data: dict[str, Any], strategy: int = 0) -> Diagram:
    """One strategy of a certificate: the chosen moves bold, every reply of the other player thin."""
    chosen = data["strategies"][strategy]
    diagram = Diagram(f"{data.get('spec', data['game'])}\n{data['claim']} at {data['position']}: "
                      f"player {chosen['player']}'s {chosen['goal']} strategy", highlight=data["position"],
                      bold_meaning=f"player {chosen['player']}'s chosen move", thin_meaning="a reply to cover")
    positions = chosen["positions"]
    for key, entry in positions.items():
        diagram.add_node(key, entry.get("value", "draw"), entry.get("remoteness"), "outcome" in entry)
    for key, entry in positions.items():
        if "move" in entry:
            diagram.edges.append((key, entry["move"]["to"], entry["move"].get("label", ""), True))
        for reply in entry.get("replies", []):
            diagram.edges.append((key, reply, "", False))
    return diagram


def label_values(diagram: Diagram, position: Any) -> None:
    """Adds each node's combinatorial value (Unicode notation) to its label; `position`
    looks a key up in a backend. O(nodes) look-ups."""
    from explorer.cgt.notation import parse_value

    for key, info in diagram.nodes.items():
        stored = position(key) or {}
        if stored.get("cgt"):
            info["cgt"] = str(parse_value(stored["cgt"]))


def graph_diagram(G: nx.DiGraph, max_nodes: int = MAX_GRAPH_NODES, highlight: str | None = None) -> Diagram:
    """The whole mirror graph; GraphTooLarge above max_nodes positions (dot would take minutes)."""
    if G.number_of_nodes() > max_nodes:
        raise GraphTooLarge(f"{G.graph.get('spec', G.graph.get('id'))} has {G.number_of_nodes():,} positions; "
                            f"whole-graph diagrams are limited to {max_nodes:,} (draw a neighbourhood instead)")
    diagram = Diagram(f"{G.graph.get('spec', G.graph.get('id'))}: the whole graph "
                      f"({G.number_of_nodes()} positions, {G.number_of_edges()} moves)", highlight=highlight)
    for key in sorted(G.nodes):
        node = G.nodes[key]
        diagram.add_node(key, node["value"], node["remoteness"], node["terminal"])
    for source, target, data in sorted(G.edges(data=True), key=lambda e: (e[0], e[1])):
        diagram.edges.append((source, target, data["label"], bool(data["optimal"])))
    return diagram


def position_graph_diagram(solved: Any, max_nodes: int = MAX_GRAPH_NODES) -> Diagram:
    """Straffin's position graph: every position once, drawn as its board, with the two players'
    mirror images merged when the game offers `swap_players` (offers.swap_players; each node then shows the board
    with the first player to move). O(V + E).

    Merging is sound because exchanging the players is a symmetry of such rules: a position
    and its swapped twin have the same value for the player to move (checked here).
    """
    graph, game = solved.graph, solved.game
    swap = game.swap_players if game.offers.swap_players else None
    draw = game.diagram_label if game.offers.diagram_label else None
    reduce = game.canonical if graph.symmetry else (lambda p: p)

    def representative(position):
        if swap is not None and game.to_move(position) != 0:
            position = reduce(swap(position))
        return position

    reps = [representative(graph.position(u)) for u in range(graph.num_positions)]
    keys = [game.format(p) for p in reps]
    if len(set(keys)) > max_nodes:
        raise GraphTooLarge(f"{game.display_name} has {len(set(keys)):,} positions in its position graph; "
                            f"diagrams are limited to {max_nodes:,} (draw a neighbourhood instead)")
    merged = " (players merged: each node is the board with the first player to move)" if swap else ""
    diagram = Diagram(f"{game.display_name}: position graph, {len(set(keys))} positions{merged}",
                      highlight=keys[0], bold_meaning="optimal move", thin_meaning="other move")
    for u, key in enumerate(keys):
        info = {"value": str(solved.value(u)), "remoteness": solved.remoteness(u),
                "terminal": bool(graph.terminal[u] >= 0)}
        if key in diagram.nodes:
            seen = diagram.nodes[key]
            if (seen["value"], seen["remoteness"]) != (info["value"], info["remoteness"]):
                raise GameGraphError(f"{game.name}: swap_players is no symmetry: {graph.key(u)} is {info['value']} "
                                     f"but its twin {key} is {seen['value']}")
            continue
        diagram.add_node(key, info["value"], info["remoteness"], info["terminal"])
        if draw is not None:
            diagram.nodes[key]["label"] = draw(reps[u])
    edges: dict[tuple[str, str], bool] = {}
    for u in range(graph.num_positions):
        for e in graph.edge_range(u):
            pair = (keys[u], keys[int(graph.succ_indices[e])])
            edges[pair] = edges.get(pair, False) or bool(solved.solution.optimal[e])
    diagram.edges = [(a, b, "", optimal) for (a, b), optimal in edges.items()]
    return diagram


# -- output ------------------------------------------------------------------------------
RENDER_TIMEOUT = 20  # seconds the page waits for `dot`


def _run_dot(source: str, fmt: str, timeout: float | None) -> bytes:
    """`dot -T<fmt>` on the source: the image. FileNotFoundError without `dot`, subprocess.TimeoutExpired
    past the timeout, subprocess.CalledProcessError (with dot's stderr) when dot fails."""
    exe = shutil.which("dot")
    if exe is None:
        raise FileNotFoundError("dot")
    return subprocess.run([exe, f"-T{fmt}"], input=source.encode(), capture_output=True, timeout=timeout,
                          check=True).stdout


def image(source: str, fmt: str, timeout: float = RENDER_TIMEOUT) -> bytes:
    """DOT source drawn by Graphviz `dot` as `fmt` (svg, png, ...) for the page, with a deadline;
    a missing or failing `dot` is a GameGraphError."""
    try:
        return _run_dot(source, fmt, timeout)
    except FileNotFoundError:
        raise GameGraphError("Graphviz `dot` is not installed, so diagrams cannot be drawn (install the graphviz package)") from None
    except subprocess.TimeoutExpired:
        raise GameGraphError(f"Graphviz took more than {timeout} s; choose a smaller k") from None
    except subprocess.CalledProcessError as error:
        raise GameGraphError(f"Graphviz failed: {error.stderr.decode(errors='replace')[:300]}") from None


def png_image(source: str, timeout: float = RENDER_TIMEOUT, dpi: int | None = None) -> bytes:
    """DOT source drawn as a PNG at `dpi` (DEFAULT_DPI unless given, check_dpi), as `gamegraph dot -o x.png
    --dpi N` draws it, for the page's downloads (at Graphviz's own 72 dpi the page's neighbourhood PNG was 428 x
    792 px where the CLI's is 2,096 x 700); a picture that would pass MAX_PIXELS at that resolution is drawn at
    the highest that stays within it (the page has no one line to refuse in: its button's file is made when
    clicked). A GameGraphError (one line) as image's."""
    resolution = check_dpi(DEFAULT_DPI if dpi is None else dpi)
    return image(_at_resolution(source, resolution, Path("diagram.png"), fit=True), "png", timeout)


DEFAULT_DPI = 150  # a PNG's resolution unless asked: tic-tac-toe's winning line with boards is 2,200 px wide
# The resolutions the page offers for its PNG downloads (the CLI takes any from MIN_DPI to MAX_DPI): a screen's,
# the default (legible on a projector), print's.
PNG_RESOLUTIONS = (96, DEFAULT_DPI, 300)
MIN_DPI, MAX_DPI = 36, 1200
PAD_IN = 2 * 4 / 72  # dot's default pad around a picture, both sides, in inches
MAX_PIXELS = 100_000_000  # a PNG past this (about 10,000 px square) is refused: it would take minutes and gigabytes


def check_dpi(dpi: Any) -> int:
    """A PNG resolution given by a person (a number or its text): a whole number from MIN_DPI to MAX_DPI, else
    InvalidParameter in one line."""
    text = str(dpi).strip()
    try:
        value = int(text) if not isinstance(dpi, bool) else None
    except ValueError:
        value = None
    if value is None or not MIN_DPI <= value <= MAX_DPI:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise InvalidParameter(f"--dpi {shown!r} is not a resolution: give a whole number of dots per inch from "
                               f"{MIN_DPI} to {MAX_DPI} (default {DEFAULT_DPI})")
    return value


def render(diagram: Diagram | str, path: str | Path, dpi: Any = None) -> Path:
    """Write the diagram to `path`: .dot/.gv as text, .svg/.png/.pdf through Graphviz `dot`; a PNG at `dpi`
    dots per inch (DEFAULT_DPI unless given, check_dpi; refused when the picture would pass MAX_PIXELS).

    The file is written whole or not at all; GameGraphError (one line) when it cannot be.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise InvalidParameter(f"cannot write {path.name!r}: the file name must end in "
                               f"{', '.join(FORMATS)}")
    resolution = check_dpi(DEFAULT_DPI if dpi is None else dpi)
    if dpi is not None and FORMATS[suffix] != "png":
        raise InvalidParameter(f"--dpi sets a PNG's resolution; {path.name!r} is not a .png (SVG and PDF scale freely)")
    text = diagram if isinstance(diagram, str) else to_dot(diagram)
    if FORMATS[suffix] == "png":
        text = _at_resolution(text, resolution, path)
    if FORMATS[suffix] is None:
        with output_file(path) as handle:
            handle.write(text)
        return path
    try:
        data = _run_dot(text, FORMATS[suffix], None)
    except FileNotFoundError:
        raise GameGraphError("the Graphviz `dot` program is not installed (Debian: apt-get install graphviz); "
                             "write a .dot file instead") from None
    except subprocess.CalledProcessError as error:
        raise GameGraphError(f"Graphviz could not draw {path.name}: {error.stderr.decode(errors='replace').strip()}") from None
    with output_file(path, binary=True) as handle:
        handle.write(data)
    return path


def _at_resolution(text: str, dpi: int, path: Path, fit: bool = False) -> str:
    """The DOT text with its resolution set, after checking from dot's layout (its bounding box, in points)
    that the picture stays within MAX_PIXELS: InvalidParameter in one line otherwise, or with `fit` the highest
    resolution (at least MIN_DPI) that stays within it."""
    import re

    try:
        laid = _run_dot(text, "plain", None).decode(errors="replace")
    except (FileNotFoundError, subprocess.CalledProcessError):
        laid = ""  # render() itself says what is wrong with dot
    found = re.match(r"graph\s+\S+\s+(\S+)\s+(\S+)", laid)
    if found:
        # `plain` gives inches, without the pad dot draws around the picture (4 points a side by default)
        width, height = ((float(found[1]) + PAD_IN) * dpi, (float(found[2]) + PAD_IN) * dpi)
        if fit and width * height > MAX_PIXELS:
            dpi = max(MIN_DPI, int(0.98 * dpi * math.sqrt(MAX_PIXELS / (width * height))))  # dot rounds up
        elif width * height > MAX_PIXELS:
            raise InvalidParameter(f"{path.name} at {dpi} dpi would be {width:,.0f} x {height:,.0f} px, past the "
                                   f"{MAX_PIXELS / 1e6:.0f} million pixels a PNG may have here: give a smaller --dpi")
    close = text.rstrip().rfind("}")
    return text[:close] + f"\tdpi={dpi}\n}}\n"
