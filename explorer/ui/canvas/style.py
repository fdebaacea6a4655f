"""The canvas's style sheet (Cytoscape.js rules over each element's data) and its legend in plain words."""

from __future__ import annotations

from html import escape
from typing import Any

from explorer.render import palette
from explorer.render.palette import INK_SOFT, RULE
from explorer.ui.canvas.elements import MIRRORED_MARK
from explorer.ui.canvas.marks import (BOARD_SIZE, CGT_KIND_COLOURS, DRAW_LEVEL_DEAD, FOCUS_RING, HIGHLIGHT, LABEL_FONT,
                                      LABEL_LINE, MIN_LABEL_PX, MOVE_FONT, NO_FACT, NODE_SIZE, OPTIMAL_EDGE, OTHER_EDGE,
                                      TEXT_MARGIN)

# Whose side a node's value is shown from: the player to move at the page's position (one side for the
# whole canvas, so that a best line reads in one colour from end to end), or each node's own mover.
PERSPECTIVES = {"focus": "the player to move here", "each": "the player to move at each node"}
# The colourings that show a value, and so depend on the perspective.
VALUE_COLOURINGS = ("value", "remoteness")
OTHER_MOVE_OPACITY = 0.55  # a move that is not a best one: dashed, thinner and fainter than a best one


class _Rule:
    """One Cytoscape.js style rule: the component takes any object with dump() -> {selector, style}."""

    def __init__(self, selector: str, style: dict[str, Any]):
        self.selector, self.style = selector, style

    def dump(self) -> dict[str, Any]:
        return {"selector": self.selector, "style": self.style}




SMALLEST = 0.5  # the least size of a node sized by a fact ("Size by"), as a share of its full size


def style_rules(colouring: str, move_labels: bool, boards: bool, large: bool = False,
                perspective: str = "each", sizing: str = "none") -> list[_Rule]:
    """The canvas's style: fills by the chosen colouring, value-coloured borders, the focus ringed;
    a node's value from the `perspective` (PERSPECTIVES: "focus", the page's `_pfill_*` and `_pborder`;
    "each", each node's own mover's); every move in the colour of its value for the player who makes it
    (`_line`, as on the board: a winning move green), best moves solid and thick, other moves dashed and
    fainter, a move on a cycle with a hollow dot in its middle; a move of no known value grey.

    A large canvas draws its moves as plain lines (haystack: no arrows, no dashes) but the selected
    node's, and no labels but the focus's and the selected node's: bezier curves, arrows, dashes,
    double borders and thousands of labels are what make Cytoscape.js slow to draw and to zoom
    (bench/bench_canvas.py).

    `sizing` ("none", or a fact of panel.SIZINGS: each node's `_size_<fact>`, 0 to 1): a node's size from SMALLEST
    of its full size up to it, never larger, so the layouts and the names placed around the full-size nodes stay
    clear; the focus keeps its size. Not with boards, which need their size to be read."""
    size = BOARD_SIZE if boards else NODE_SIZE
    seen = perspective == "focus"
    fill = f"_pfill_{colouring}" if seen and colouring in VALUE_COLOURINGS else f"_fill_{colouring}"
    node_shape = {"background-color": f"data({fill})", "border-color": "data(_pborder)" if seen else "data(_border)",
                  "border-width": 2.5, "width": size, "height": size, "shape": "round-rectangle" if boards else "ellipse"}
    if sizing != "none" and not boards:
        sized = f"mapData(_size_{sizing}, 0, 1, {size * SMALLEST:g}, {size:g})"
        node_shape.update({"width": sized, "height": sized})
    node_label = {"label": "data(label)", "font-size": LABEL_FONT, "color": "#222222", "text-valign": "bottom",
                  "text-margin-y": TEXT_MARGIN, "min-zoomed-font-size": MIN_LABEL_PX,
                  # a board's rows on lines of their own (board_label), in columns
                  "text-wrap": "wrap", "text-max-width": "1000px", "line-height": LABEL_LINE,
                  "font-family": "DejaVu Sans Mono, Menlo, Consolas, monospace",
                  # a white card behind each key, drawn over the moves (Cytoscape.js draws nodes and their
                  # labels after the moves): a move passing a label goes under it, never through its text
                  "text-background-color": "#ffffff", "text-background-opacity": 1,
                  "text-background-padding": 1}
    focus = {"border-width": 5, "outline-width": 3, "outline-color": FOCUS_RING,
             "font-weight": "bold", "width": size * 1.25, "height": size * 1.25}
    move_label = {"font-size": MOVE_FONT, "color": "#444444", "text-background-color": "#ffffff",
                  "text-background-opacity": 0.85, "text-background-padding": 1,
                  "text-background-shape": "round-rectangle", "min-zoomed-font-size": MIN_LABEL_PX}
    if large:
        return _large_rules(colouring, move_labels, boards, node_shape, node_label, focus, move_label) + [FOUND]
    rules = [
        _Rule("node", {**node_shape, **node_label}),
        _Rule("node[_focus]", focus),
        _Rule("node[_scc >= 0]", {"border-style": "double", "border-width": 5}),
        _Rule("edge", {"curve-style": "bezier", "target-arrow-shape": "triangle", "arrow-scale": 0.9,
                       # a move into a node from below (an upward move of the layered layout) ends at its label's
                       # border, not under its opaque card: its arrowhead was hidden there (issue 35). The view keeper
                       # ends the moves at the node again while the labels are hidden (canvas_view.js, 11)
                       "target-endpoint": "outside-to-node-or-label",
                       "width": 1.2, "line-color": OTHER_EDGE, "target-arrow-color": OTHER_EDGE,
                       # level, as every name (docs/ui.md): a layout the browser makes (force-directed) has no
                       # placed spot, and names turned along curved moves read sideways
                       "line-style": "dashed", **move_label, "text-rotation": "none",
                       "label": "data(move)" if move_labels else ""}),
        _Rule("edge[?optimal]", {"line-style": "solid", "width": 2.4, "line-color": OPTIMAL_EDGE,
                                 "target-arrow-color": OPTIMAL_EDGE}),
        # the move's value for its mover (move_colour), faint unless it is a best move
        _Rule("edge[_line]", {"line-color": "data(_line)", "target-arrow-color": "data(_line)",
                              "line-opacity": OTHER_MOVE_OPACITY}),
        _Rule("edge[_line][?optimal]", {"line-opacity": 1}),
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
        # on a cycle: a hollow dot in the middle (the colour says the value, so not another hue)
        _Rule("edge[_cycle]", {"mid-target-arrow-shape": "circle", "mid-target-arrow-fill": "hollow",
                               "mid-target-arrow-color": OPTIMAL_EDGE}),
    ]
    if boards:
        rules.insert(1, _Rule("node[_image]", BOARD_PICTURE))
    return rules + [FOUND]


# What the canvas's search found (canvas/search.py): a halo in the highlight's dark cyan, under the node
FOUND = _Rule("node[_found = 1]", {"underlay-color": HIGHLIGHT, "underlay-opacity": 0.5, "underlay-padding": 9,
                                   "underlay-shape": "ellipse"})


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
        _Rule("edge[_line]", {"line-color": "data(_line)", "target-arrow-color": "data(_line)",
                              "line-opacity": OTHER_MOVE_OPACITY}),
        _Rule("edge[_line][?optimal]", {"line-opacity": 1}),
        _Rule("edge:selected, edge.highlight", {"curve-style": "straight", "target-arrow-shape": "triangle",
                                                "arrow-scale": 0.9, **move_label, "text-rotation": "none",
                                                "label": "data(move)" if move_labels else ""}),
    ]
    if boards:  # a canvas that grew past LARGE keeps its pictures
        rules.insert(2, _Rule("node[_image]", BOARD_PICTURE))
    return rules


SIZE_NOTES = {
    "remoteness": "Size: how far the game is from its end with best play — largest = farthest; a draw smallest.",
    "degree": "Size: how many moves lead from and into the position in the whole game — largest = the most.",
    "temperature": "Size: the temperature of its combinatorial value — small = cold (a number or an infinitesimal), "
                   "larger = hotter (half-way at temperature 1).",
}


def legend(colouring: str, mirrored: int = 0, player: str | None = None, sizing: str = "none", columns: int = 1) -> str:
    """The canvas's key in plain words; `mirrored` moves lead to a node drawn in another orientation;
    `player`: the name of the player whose side the nodes' values are shown from (the perspective
    "focus"), None for each node's own mover; `columns`: how many columns the layered layout set its bands in
    (layout.side_by_side), whose moves between columns run across the canvas."""
    side = (f"for **{player}** (to move at this page's position), on every node" if player
            else "for the player to move at that node")
    fills = {
        "value": f"Fill: the value {side} — green win, red loss, amber tie, blue draw.",
        "remoteness": f"Fill: how soon the game ends with best play, in the colour of the value {side} — "
                      "strong = ends soon, pale = far off; grey = a draw (it never ends).",
        "draw_level": "Fill: draw level — deep blue = a draw one slip from being decided, paler = safer; "
                      "white = a dead draw, grey = not a draw.",
        "cgt_kind": "Fill: kind of combinatorial value — blue number, orange nimber, green infinitesimal, "
                    "pink switch, grey other or none.",
        "temperature": "Fill: the temperature of the combinatorial value G (shown under each position) — pale = "
                       "cold (a number or an infinitesimal: no move is urgent), deeper purple = hotter (half-way "
                       "at temperature 1): where moving first matters most.",
        "cycle": "Fill: dark grey = on a cycle (play can come back to it), pale = on none.",
    }[colouring] + (" " + SIZE_NOTES[sizing] if sizing in SIZE_NOTES else "")
    return (fills + " Border: that value too. Thick ring: the position you are at; double border: on a cycle. "
            "Arrows are moves, coloured by their value for the player who makes them, as on the board: green a "
            "winning move, red a losing one, amber to a tie, blue to a draw; solid and thick = a best move, dashed "
            "and faint = another; a hollow dot in the middle = a move on a cycle (play can come back); a move with "
            "no room for its name is named while its position is selected."
            + (COLUMNS_NOTE.format(count=columns) if columns > 1 else "")
            + (MIRRORED_NOTE.format(count=mirrored) if mirrored else ""))


def _swatch(fill: str, border: str | None = None, square: bool = False) -> str:
    """A node's look in the key strip: a small disc (a square for a cluster) in `fill`, ringed in `border`."""
    return (f'<span style="display:inline-block;width:0.85em;height:0.85em;vertical-align:-0.1em;margin:0 0.2em 0 0.5em;'
            f'border-radius:{"2px" if square else "50%"};background:{fill};border:2px solid {border or RULE}"></span>')


def legend_strip(colouring: str, player: str | None = None, grouped: bool = False) -> str:
    """The legend's key in one line, drawn just above the canvas so that it is in sight with it (issue 35: the legend
    below the canvas was out of view at 1,440x900 and 1,000x800): each fill under the colouring as a swatch, whose
    side the values are seen from (`player`: the perspective "focus"; None, each node's own mover), the moves'
    colours and the focus's ring. The whole legend in words stays below the canvas (`legend`). HTML; the player's
    name is escaped. Colours from the palette (and marks' and the draw map's, which come from it)."""
    side = (f'values for <span style="font-weight:600">{escape(player)}</span> (to move here)' if player
            else "values for the player to move at each node")
    if colouring == "value":
        keys = "".join(_swatch(palette.FILLS[v], palette.COLOURS[v]) + v for v in palette.COLOURS)
        head = f"Fill: {side}"
    elif colouring == "remoteness":
        keys = (_swatch(palette.COLOURS["win"], palette.COLOURS["win"]) + "ends soon"
                + _swatch(palette.FILLS["win"], palette.COLOURS["win"]) + "far off (in the value's colour)"
                + _swatch(NO_FACT) + "a draw")
        head = f"Fill: remoteness, {side}"
    elif colouring == "draw_level":
        levels = palette.LEVEL_COLOURS  # (as elements._fills draws them: a level past the last in the last's blue)
        keys = ("".join(_swatch(colour) + f"level {i}" + ("+" if i == len(levels) - 1 else "")
                        for i, colour in enumerate(levels))
                + _swatch(DRAW_LEVEL_DEAD) + "a dead draw" + _swatch(NO_FACT) + "not a draw")
        head = "Fill: draw level (deep = one slip from decided)"
    elif colouring == "cgt_kind":
        keys = "".join(_swatch(colour) + kind for kind, colour in CGT_KIND_COLOURS.items())
        head = "Fill: kind of combinatorial value"
    elif colouring == "temperature":
        keys = _swatch(palette.TEMPERATURE_COLD) + "cold" + _swatch(palette.TEMPERATURE_HOT) + "hot"
        head = "Fill: temperature"
    else:
        keys = _swatch(palette.ON_CYCLE) + "on a cycle" + _swatch(NO_FACT) + "on none"
        head = "Fill"
    moves = "arrows: the value for the player who moves (solid = best)"
    ring = _swatch("#ffffff", FOCUS_RING) + "thick ring: here"
    cluster = (_swatch(NO_FACT, RULE, square=True) + "a cluster (double-click to open)") if grouped else ""
    return (f'<div class="gg-key" style="font-size:0.8rem;line-height:1.5;color:{INK_SOFT};white-space:normal">'
            f"{head}:{keys} · {moves} ·{ring}{cluster}</div>")


# (issue 35: dobutsu:small at k=2 drew long dashed moves across the canvas, unexplained)
COLUMNS_NOTE = (" **The bands are set in {count} columns side by side** (the drawing is much taller than the canvas), "
                "each read upwards: a move between bands in two columns (as from a draw into a decided position) is "
                "drawn as a long line across the canvas, dashed when it is not a best move. Click a position to pick "
                "out its own moves.")


MIRRORED_NOTE = (" **Mirror images are one node:** the game is stored up to symmetry, so a position and its "
                 "mirror image (or turn) are one node, drawn once. Each move is named as it is played on the "
                 "board drawn at its start; the moves marked{mark} ({count} here) lead to a node drawn as the "
                 "mirror image (or turn) of the board that move leaves.").replace("{mark}", " " + MIRRORED_MARK.strip())


# -- the level of detail (canvas/clusters.py): a closed cluster's node, the moves bundled between clusters ----------
def cluster_rules() -> list[_Rule]:
    """Appended to the sheet of a grouped canvas: a cluster is a rounded square of its `_cw` (growing with its
    count), in the fill its positions have under the colouring, labelled with its name and count even on a
    large sheet; every label sits at `_tm` below its node (where the layout's room for the largest node puts it);
    a bundle of moves is as thick as it is many (`_count`)."""
    return [
        _Rule("node[_tm]", {"text-margin-y": "data(_tm)"}),
        _Rule("node[?_cluster]", {"shape": "round-rectangle", "width": "data(_cw)", "height": "data(_cw)",
                                  "border-width": 4, "label": "data(label)", "font-size": LABEL_FONT,
                                  "font-weight": "bold", "color": "#222222", "text-valign": "bottom",
                                  "text-wrap": "wrap", "text-max-width": "1000px", "line-height": LABEL_LINE,
                                  "text-background-color": "#ffffff", "text-background-opacity": 1,
                                  "text-background-padding": 1, "min-zoomed-font-size": MIN_LABEL_PX}),
        _Rule("edge[_count > 1]", {"width": "mapData(_count, 2, 60, 2.4, 8)"}),
        _Rule("edge[_count][!optimal]", {"line-opacity": 0.3}),  # the bundles of other moves: in the background
    ]


def cluster_legend(grouping: str, what: str) -> str:
    """The legend's line for a grouped canvas: what its clusters hold (`what`, clusters.LEGEND) and how to open one."""
    return (f" **Grouped ({grouping}):** each rounded square is a cluster of {what}, named with how many; its "
            "fill is most of theirs. A move between clusters is drawn once each way, as thick as it is many, and "
            "named with their number. Double-click a cluster to open it (its positions are drawn where it was); "
            "*Collapse what it expanded* on one of them closes it. The page's position is never in a cluster.")
