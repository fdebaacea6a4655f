"""The canvas in the page: the component itself (`draw`), the Neighbourhood tab's controls and events
(`neighbourhood_panel`), the page's view keeper (static/canvas_view.js, `keep_view`); the Cypher
console's canvas is explorer/ui/console_canvas.py."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import streamlit as st

from explorer.core import settings
from explorer.core.errors import GameGraphError
from explorer.games import Game
from explorer.solved import SolvedGraph
from explorer.ui import data, state
from explorer.ui.backend import Backend
import explorer.ui.canvas.clusters as clusters
import explorer.ui.canvas.search as search
from explorer.ui.canvas.ahead import ahead, ahead_json, grouped_ahead
from explorer.ui.canvas.elements import Grown, collapse, expand, has_boards, remove, set_boards, start
from explorer.ui.canvas.layout import EXPAND_ANIMATION_MS, grow_layout, layout_for
from explorer.ui.canvas.marks import (BOARD_SIZE, COMFORT_LABEL_PX, HEIGHT, HIGHLIGHT, INFO_PANEL_SHARE, LABEL_FONT,
                                      LARGE, MAX_NODES, MIN_BOARD_PX, MIN_LABEL_PX, MOVE_FONT, NODE_SIZE, READABLE_ZOOM)
from explorer.ui.canvas.style import (LEAN_MARK, PERSPECTIVES, _Rule, cluster_legend, cluster_rules, legend,
                                      legend_strip, style_rules)
from explorer.ui.widgets import as_text, echo, error, player_name

LAYOUTS = {"layered": "layered by remoteness", "force": "force-directed", "concentric": "concentric around the focus"}
COLOURINGS = {"value": "value", "remoteness": "remoteness", "draw_level": "draw level", "cycle": "on a cycle",
              "cgt_kind": "CGT kind", "temperature": "temperature (CGT)"}
SIZINGS = {"none": "nothing (all alike)", "remoteness": "remoteness", "degree": "degree (moves out and in)",
           "temperature": "temperature (CGT)"}
CGT_ONLY = ("cgt_kind", "temperature")  # choices for games with combinatorial values only
# The bar's first boxes (k, Layout, Colour by) in px: together with two 8 px gaps, 524 px, one row in a 1,000 px window's
# 540 px column; each wide enough for its longest value ("concentric around the focus", "temperature (CGT)") whole.
CONTROL_WIDTHS = (106, 232, 170)
FIND_WIDTH = 290  # px: the search box, beside the Group box (GROUP_WIDTH) in that column, beside the switches at 1,440
EXPAND_DIRECTIONS = {"both": "successors and predecessors", "out": "successors (moves from it)",
                     "in": "predecessors (moves into it)"}


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


def _controls(game: Game, last: tuple[int, str, bool]) -> tuple[int, str, str, str, bool, bool, str, str, str, tuple]:
    """The canvas controls; (k, direction, layout, colouring, boards, move labels, expand direction,
    perspective: whose side the nodes' values are seen from, PERSPECTIVES; sizing, SIZINGS; the bar's two slots for
    the Group box and the search, which need the canvas).
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
    said = []
    if bad is not None:
        used = int(st.session_state["hood_k"])
        said.append(f"The link asks for k={echo(bad)}, which is not a whole number from 1 to {data.MAX_K}: "
                    f"the canvas uses k={used} instead.")
        st.query_params["k"] = str(used)
        st.session_state["hood_k_url"] = used
    st.session_state.setdefault("hood_dir", direction)
    st.session_state.setdefault("hood_labels", labels)
    st.session_state.setdefault("canvas_layout", "layered")
    st.session_state.setdefault("canvas_colour", "value")
    st.session_state.setdefault("canvas_size", "none")
    st.session_state.setdefault("canvas_boards", False)
    st.session_state.setdefault("canvas_expand", "both")
    if st.session_state.get("canvas_perspective") not in PERSPECTIVES:
        st.session_state["canvas_perspective"] = "focus"
    # A saved scene's layout, colouring and sizing (state.SCENE_PARAMS), applied once per link as k is; a value
    # the game does not offer (temperature without CGT values) is refused as an unknown one, naming only its choices
    cgt = supports_cgt(game)
    colourings = _colourings(game)
    sizings = [c for c in SIZINGS if c not in CGT_ONLY or cgt]
    bad_scene = []
    for param, name, allowed in (("layout", "canvas_layout", list(LAYOUTS)), ("colour", "canvas_colour", colourings),
                                 ("size", "canvas_size", sizings)) + tuple(
                                     (param, name, list(choices)) for param, name, choices, _ in SCENE_CHOICES):
        text = st.query_params.get(param)
        if text is not None and st.session_state.get(f"{name}_url") != text:  # (an empty one is refused too)
            st.session_state[f"{name}_url"] = text
            if text in allowed:
                st.session_state[name] = _scene_value(name, text)
            else:
                if _scene_text(name, st.session_state[name]) not in allowed:
                    st.session_state[name] = _scene_value(name, allowed[0])
                bad_scene.append(f"The link's {param}={echo(text)} is not one of {', '.join(allowed)}: "
                                 f"the canvas uses {_scene_text(name, st.session_state[name])}.")
    if st.session_state["canvas_colour"] not in colourings:
        st.session_state["canvas_colour"] = "value"
    if st.session_state["canvas_size"] not in sizings:
        st.session_state["canvas_size"] = "none"
    if said or bad_scene:
        slot.warning(as_text(" ".join(said + bad_scene)))
    # The controls in one bar that wraps (issue 35, the graph is the stage): k, Layout, Colour by, then the Group and
    # Find boxes (`slots`, filled once the canvas is known), then the switches and the More popover. At 1,440 px that is
    # two rows and at 1,000 px (a 540 px column) three, each control's label and value whole: there were four rows and a
    # two-line caption (the canvas began at 501 px of 900 at 1,440 and at 576 at 1,000).
    bar = st.container(horizontal=True, vertical_alignment="bottom", gap="xsmall", wrap=True, key="canvas_bar")
    # "k (moves away, 1 to 10)" was on two lines in a 1,000 px window (its column is 102 px; the label needs 134 and the
    # help mark): "moves away" is in the help
    bar.number_input(f"k (1 to {data.MAX_K})", min_value=1, max_value=data.MAX_K, step=1, width=CONTROL_WIDTHS[0],
                     key="hood_k", on_change=_k_into_url, help=f"k: how many moves away. The canvas starts with the "
                     f"positions up to k moves from here (the nearest {MAX_NODES} at most)")
    bar.selectbox("Layout", list(LAYOUTS), key="canvas_layout", format_func=LAYOUTS.get, width=CONTROL_WIDTHS[1])
    bar.selectbox("Colour by", colourings, key="canvas_colour", format_func=COLOURINGS.get, width=CONTROL_WIDTHS[2])
    slots = (bar.empty(), bar.empty())  # the Group box and the search (_canvas_fragment)
    bar.checkbox("Boards on the nodes", key="canvas_boards", disabled=not has_boards(game),
                 help=None if has_boards(game) else f"{game.display_name} has no board drawing: nodes show its notation")
    bar.checkbox("Move labels", key="hood_labels", on_change=_whole_page)
    bar.button("Lay out again", key="canvas_relayout", on_click=_relayout,
               help="place every node again with the chosen layout")
    more = bar.popover("More", icon=":material/tune:",
                       help="which moves the canvas follows, node sizes, what an expansion adds, whose values")
    more.selectbox("Follow moves", ["both", "out", "in"], key="hood_dir", on_change=_whole_page,
                   format_func={"both": "both ways", "out": "forward", "in": "backward"}.get)
    boards_on = bool(st.session_state["canvas_boards"]) and has_boards(game)
    more.selectbox("Size by", sizings, key="canvas_size", format_func=SIZINGS.get, disabled=boards_on,
                   help="boards keep their size, to be read" if boards_on else
                   "a node from half its size (the least) to its full size (the most)")
    more.selectbox("Expanding a node adds its", list(EXPAND_DIRECTIONS), key="canvas_expand",
                   format_func=EXPAND_DIRECTIONS.get,
                   help="double-click a node (or select it and press the expand button) to add its neighbours")
    more.selectbox("Values seen by", list(PERSPECTIVES), key="canvas_perspective", format_func=PERSPECTIVES.get,
                   help="a node's colour is its value for this player; a move's colour is always its value "
                        "for the player who makes it, as on the board")
    k = int(st.session_state["hood_k"])
    st.session_state["hood_settings"] = (k, st.session_state["hood_dir"], bool(st.session_state["hood_labels"]))
    boards = bool(st.session_state["canvas_boards"]) and has_boards(game)
    return (k, st.session_state["hood_dir"], st.session_state["canvas_layout"], st.session_state["canvas_colour"],
            boards, bool(st.session_state["hood_labels"]), st.session_state["canvas_expand"],
            st.session_state["canvas_perspective"], st.session_state["canvas_size"], slots)


# The saved scene's other settings (state.SCENE_PARAMS): (URL parameter, session key, its choices, the default, written
# only when another is chosen). `dir` changes which positions the canvas starts with and `grow` what each of the
# link's expansions adds: without them a reopened link drew another node set (issue 35).
SCENE_CHOICES = (("dir", "hood_dir", ("both", "out", "in"), "both"),
                 ("grow", "canvas_expand", tuple(EXPAND_DIRECTIONS), "both"),
                 ("boards", "canvas_boards", ("on", "off"), "off"),
                 ("labels", "hood_labels", ("on", "off"), "on"),
                 ("seen", "canvas_perspective", tuple(PERSPECTIVES), "focus"))
_SWITCHES = ("canvas_boards", "hood_labels")  # checkboxes: True and False in the session, "on" and "off" in the URL


def _scene_value(name: str, text: str) -> Any:
    """A scene parameter's text as its control holds it."""
    return text == "on" if name in _SWITCHES else text


def _scene_text(name: str, value: Any) -> str:
    """A control's value as the scene parameter writes it."""
    return ("on" if value else "off") if name in _SWITCHES else str(value)


def _colourings(game: Game) -> list[str]:
    """The "Colour by" choices the game offers (the CGT ones only for a game with combinatorial values)."""
    from explorer.cgt.evaluate import supports_cgt

    cgt = supports_cgt(game)
    return [c for c in COLOURINGS if c not in CGT_ONLY or cgt]


def _k_into_url() -> None:
    """The k chosen goes into the page's address, so a copied link opens the same canvas; the whole
    page runs again (the downloads draw the same neighbourhood: `hood_settings`)."""
    k = int(st.session_state["hood_k"])
    st.session_state["hood_k_url"] = k
    st.query_params["k"] = str(k)
    _whole_page()


def _whole_page() -> None:
    """A control whose change reaches outside the canvas's fragment (k, direction and move labels are the
    downloads' settings too): the whole page runs again, not just the canvas."""
    st.rerun(scope="app")


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
    grown.said = []  # a new action: the last one's lines go
    action, payload = event.get("action"), event.get("data") or {}
    if _cluster_event(grown, action, payload, focus):
        return
    try:
        if action == "expand":
            for key in payload.get("node_ids", [])[:1]:
                if key not in grown.nodes:
                    _refuse(grown, key)
                    continue
                if st.session_state.get(GROUP, "off") != "off":
                    st.session_state[GROUP_EXPANDED] = key  # (_grouped marks the answer's layout as an expansion)
                new = expand(grown, game, solved, backend, key, st.session_state.get("canvas_expand", "both"),
                             grown.boards, focus)
                grow_layout(grown, key, new)
        elif action == "remove":
            remove(grown, {k for k in payload.get("node_ids", []) if k != focus})
        elif action == "collapse" and payload.get("element_group") == "nodes":
            if st.session_state.get(GROUP, "off") != "off":
                st.session_state[GROUP_EXPANDED] = payload.get("element_id")  # (kept in view, as an expansion's)
            collapse(grown, payload.get("element_id"))
        elif action == "open" and payload.get("element_group") == "nodes":
            key = payload.get("element_id")
            board = grown.shown.get(key)  # opened in the orientation it is drawn in, as the moves table does
            state.go(spec, game.format(board) if board is not None else key)
            st.rerun(scope="app")  # another position: the page navigates, not only the canvas
    except GameGraphError as exc:
        grown.said.append(str(exc))


REFUSED = "canvas_refused"  # (how many double-clicks were refused, the last one's node): #gg-refused in the page


def _refuse(grown: Grown, key: Any) -> None:
    """A double-click on a node the server's canvas does not hold (a page drawn from an older answer): one line says
    so, and the page hears it at once (REFUSED, sent as #gg-refused below the canvas, _send_ahead: its script takes
    back what it showed ahead, static/canvas_view.js, 15) instead of waiting for an answer that never comes."""
    shown = str(key)[:60]
    grown.said.append(f"That node ({shown}) is not on the canvas the server holds (the page showed an older one): "
                      "nothing was expanded. Double-click it again once the canvas is redrawn.")
    count, _ = st.session_state.get(REFUSED) or (0, "")
    st.session_state[REFUSED] = (count + 1, shown)


def _on_find(game: Game, solved: SolvedGraph, backend: Backend, focus: str) -> None:
    """The search box (canvas/search.py): what it found is marked and brought into view, or one line says
    why nothing was (the canvas's `said`, shown escaped below it until the next action)."""
    grown: Grown | None = st.session_state.get(GROWN)
    text = str(st.session_state.get("canvas_find") or "")
    if grown is None:
        return
    grown.said = []  # a new action, a box emptied (or left blank) too: the last search's lines go, never stale
    if not text.strip():
        return
    try:
        found, note, added = search.find(grown, game, solved, backend, text, focus)
    except GameGraphError as exc:
        line = str(exc)
        if len(text.strip()) > search.MAX_TEXT:  # (refused from its length) the box keeps what a search may hold:
            # a widget's value travels with every rerun of the page
            st.session_state["canvas_find"] = text.strip()[:search.MAX_TEXT]
            line += f"; the box keeps its first {search.MAX_TEXT} characters"
        grown.said.append(line)
        return
    search.mark(grown, found, added)
    grown.said.append(note)


def neighbourhood_panel(game: Game, spec: str, solved: SolvedGraph, key: str, backend: Backend,
                        last: tuple[int, str, bool]) -> None:
    """The Neighbourhood tab: the canvas around the page's position, grown by expanding its nodes;
    `last` is the controls' last (k, direction, move labels).

    The tab is a Streamlit fragment (issue 35): expanding, collapsing, selecting, a layout, the boards,
    the colouring and the perspective run this function alone again, not the whole page (1.7 s for an
    expansion on tic-tac-toe when the page ran). What must change outside it calls
    st.rerun(scope="app"): opening a position (the page navigates), k, the direction and the move labels
    (the downloads' settings)."""
    _canvas_fragment(game, spec, solved, key, backend, last)


@st.fragment
def _canvas_fragment(game: Game, spec: str, solved: SolvedGraph, key: str, backend: Backend,
                     last: tuple[int, str, bool]) -> None:
    k, direction, layout, colouring, boards, move_labels, _, perspective, sizing, slots = _controls(game, last)
    scope = (solved.graph.graph_id, key, k, direction, backend.kind)
    grown: Grown | None = st.session_state.get(GROWN)
    if grown is None or grown.scope != scope:
        generation = grown.generation + 1 if grown is not None else 0
        from explorer.ui.position import shown
        grown = start(game, solved, backend, key, k, direction, boards, scope, generation,
                      shown(solved, solved.graph.find(key)))
        st.session_state[GROWN] = grown
        _scene_into(grown, game, solved, backend, key, layout)
    grouping = _grouping(grown, k, slots[0])
    # Boards are drawn on canvases of fewer than LARGE positions (one that grew past it keeps them, so
    # that an expansion moves nothing): pictures change the nodes' size, so they are placed again.
    pictures = boards and (grown.boards or len(grown.nodes) < LARGE)
    if pictures != grown.boards:
        set_boards(grown, game, solved, pictures)
        grown.boards, grown.layout = pictures, None
    if grouping != "off":
        grown.layout = None  # (the grouped canvas has its own layout, _grouped; the plain one is made when it is shown)
    elif grown.layout is None or grown.layout_name != layout:
        grown.layout_runs += 1
        grown.layout = {**layout_for(layout, grown, key, animate=grown.layout_runs > 1), "run": grown.layout_runs}
        grown.layout_name = layout
    # No max_chars: Streamlit's box drops a change past it in the browser, so a longer text pasted did nothing, without
    # a word (issue 35); the search refuses it in one line (search.find, _on_find)
    slots[1].text_input("Find on the canvas", key="canvas_find", on_change=_on_find, width=FIND_WIDTH,
                  args=(game, solved, backend, key),
                  placeholder="a position, or value=win remoteness<5 cycle kind=number",
                  help=search.FILTER_HELP[0].upper() + search.FILTER_HELP[1:] + f"; at most {search.MAX_TEXT} "
                  "characters. What is found is ringed in dark cyan and brought into view; a position not drawn yet is "
                  "added with a shortest path to it from here.")
    # The link's line: what the canvas holds, the Copy link button and the link's notes, one row above the canvas (the
    # button was under the canvas and its legend, out of the first screen); how to drag, zoom and expand is the help.
    link_row = st.container(horizontal=True, vertical_alignment="center", gap="small", wrap=False, key="canvas_link_row")
    link_row.caption(f"{len(grown.nodes)} positions and {len(grown.edges)} moves on the canvas, starting from those "
                     f"within {k} of `{key}` — answered by {data.answered_by(backend)}.", width="stretch", wrap=False,
                     help="Drag to pan, Ctrl + scroll to zoom, **click a node** for its facts and to open it, "
                          "**double-click** to expand it. *Copy link* copies the page's address, which holds this "
                          "canvas: its position, k, expansions, layout and style.")
    _copy_link(link_row)
    notes_slot = st.empty()  # the canvas's notes, the link's refused parts among them (below)
    grouped = _grouped(grown, grouping, layout, key, pictures)  # (elements, layout, widget key's end) or None
    widget = f"canvas_{grown.generation}" + (grouped[2] if grouped else "")
    large = len(grouped[0]["nodes"] if grouped else grown.nodes) >= LARGE
    # Every note of the canvas (each said once as it is made: at most one per kind, about nine): the last three hid a
    # link's refused scene when its group=, open= and path= were refused too (issue 35)
    notes = grown.notes + grown.said[-3:] + ([f"{len(grown.nodes)} positions: moves are drawn as plain lines "
                                                   "and positions "
                                  "without their keys" + ("" if pictures or not boards else " or boards")
                                  + ", so the canvas stays quick; click a position for its name, its facts and "
                                  "its moves' arrows and names."] if large else [])
    # One slot on every run (an element that came and went above the canvas would make Streamlit mount it anew),
    # empty, so of no height, when there is nothing to say
    if notes:
        notes_slot.caption("  \n".join(as_text(n) for n in notes))
    seen = perspective if grown.player is not None else "each"
    extra = cluster_rules() if grouped else []
    sheets = {c: [rule.dump() for rule in style_rules(c, move_labels, pictures, large, seen, sizing) + extra]
              for c in _colourings(game)}
    styles = {"names": {c: COLOURINGS[c] for c in sheets}, "current": colouring, "sheets": sheets}
    if has_boards(game) and (pictures or not large):  # (the sheets with boards the other way: canvas_view.js, 19)
        styles["boards"] = {c: [rule.dump() for rule in
                                style_rules(c, move_labels, not pictures, large, seen, sizing) + extra] for c in sheets}
    # The legend's key in one strip right above the canvas, in sight with it (the legend in words, below, was out of
    # view at 1,440x900 and 1,000x800: issue 35); always one element here, so the canvas keeps its place
    st.html(legend_strip(colouring, player_name(game, grown.player) if seen == "focus" else None, bool(grouped)))
    draw(grouped[0] if grouped else grown.elements(), grouped[1] if grouped else grown.layout,
         style_rules(colouring, move_labels, pictures, large, seen, sizing) + extra, key=widget,
         on_change=_on_event, args=(game, spec, solved, backend, key, widget), actions=ACTIONS,
         node_actions=("expand", "remove"))
    columns = (grown.layout or {}).get("ggColumns", 1) if not grouped else 1
    st.caption(legend(colouring, grown.mirrored, player_name(game, grown.player) if seen == "focus" else None,
                      "none" if pictures else sizing, columns)
               + (cluster_legend(clusters.GROUPINGS[grouping], clusters.LEGEND[grouping]) if grouped else ""))
    keep_view(game.offers.board_px)
    _send_ahead(grown, game, solved, backend, key, styles, (grouping, layout, pictures) if grouped else None)
    _scene_out(grown, layout, colouring, sizing)
    _group_out(grown, grouping)


AHEAD = "canvas_ahead"


def _send_ahead(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, focus: str,
                styles: dict[str, Any], grouped: tuple[str, str, bool] | None = None) -> None:
    """The canvas's next ring and its other layouts (canvas/ahead.py), and its style sheet under each colouring
    (`styles`: the rules style_rules gives, by colouring), into the page below the canvas, for the page's script to
    expand, collapse, lay out and colour at once (static/canvas_view.js, 15 to 17). Made again only when the canvas
    changed (its nodes, moves, layout or boards, what an expansion adds, or the style's other settings): kept in the
    session beside the canvas. A `grouped` canvas (clusters.py; its grouping, layout and boards) gets the rings of
    what is drawn (ahead.grouped_ahead: a cluster opened, a position expanded), and the views they were made from
    are kept for the answer (GROUP_MADE)."""
    direction = st.session_state.get("canvas_expand", "both")
    view_kept = st.session_state.get(GROUP_VIEW) if grouped else None
    signature = (grouped, view_kept[0] if view_kept else None, view_kept[3] if view_kept else None,
                 grown.generation, grown.layout_runs, grown.boards, direction, len(grown.edges),
                 hash(frozenset(grown.nodes)), hash(frozenset((k, frozenset(v)) for k, v in grown.grown.items())))
    kept = st.session_state.get(AHEAD)
    if kept is None or kept[0] != signature:
        try:
            if grouped and view_kept is not None and len(view_kept) > 4:
                payload = _grouped_ahead(grown, game, solved, backend, direction, focus, grouped, view_kept)
            else:
                payload = {} if grouped else ahead(grown, game, solved, backend, direction, focus, layouts=LAYOUTS)
        except GameGraphError:
            payload = {}  # (nothing ahead: every expansion makes the round trip, as before)
        kept = (signature, ahead_json(payload))
        st.session_state[AHEAD] = kept
    text = kept[1][:-1] + ("," if len(kept[1]) > 2 else "") + '"styles":' + ahead_json(styles) + "}"  # (the sheets, each run)
    refused = ahead_json(list(st.session_state.get(REFUSED) or (0, "")))
    st.html(f'<script type="application/json" id="gg-ahead">{text}</script>'
            f'<script type="application/json" id="gg-refused">{refused}</script>', unsafe_allow_javascript=True)


def _grouped_ahead(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, direction: str, focus: str,
                   grouped: tuple[str, str, bool], view_kept: tuple) -> dict[str, Any]:
    """The grouped canvas's rings (ahead.grouped_ahead), and the views they were made from kept by the signature
    _grouped will ask for (GROUP_MADE: the answer to that double-click is the view sent ahead, made once)."""
    grouping, layout, pictures = grouped
    opened = list(view_kept[0][2])
    try:
        seconds = settings.ui_ahead_seconds()
    except GameGraphError as exc:  # a bad GAMEGRAPH_UI_AHEAD_SECONDS: said once a canvas, the default used
        error(str(exc))
        seconds = settings.DEFAULT_UI_AHEAD_SECONDS
    payload, made = grouped_ahead(grown, game, solved, backend, direction, focus, grouping, opened, layout,
                                  BOARD_SIZE if pictures else NODE_SIZE, view_kept[4], view_kept[2],
                                  limit_seconds=seconds, layouts=LAYOUTS)
    views = {}
    for (what, ident), (source, now, view, placed) in made.items():  # (another layout's view: under its name)
        signature = _signature(source, grouping, now, ident if what == "layout" else layout,
                               not pictures if what == "boards" else pictures)
        views[(grown.generation,) + signature[1:]] = (view, placed)
    st.session_state[GROUP_MADE] = views
    return payload


def _scene_into(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, focus: str, layout: str = "") -> None:
    """The link's expansions (state.url_scene) and searched positions (state.url_paths: each added with its path
    from here, search.add_path, after as many expansions as it was), made in order on a canvas just started; one
    line for a scene refused (too long, not a list, too many), for expansions of positions the canvas does not
    hold, or for searched positions that could not be added.

    In a layout placed here (layered, concentric) the canvas is laid out first and each expansion then places
    what it brought around its node (grow_layout), as when it was made by double-clicks: laid out once at the
    end, the reopened canvas differed from the one whose link was copied (the stranger's bands in two columns)."""
    keys, refused = state.url_scene()
    if refused:
        grown.notes.append(refused)
    paths, refused = state.url_paths()
    if refused:
        grown.notes.append(refused)
    placed = bool(keys or paths) and layout in ("layered", "concentric")
    if placed:
        grown.layout_runs += 1
        grown.layout_name = layout
        grown.layout = first = {**layout_for(layout, grown, focus, animate=False), "run": grown.layout_runs}
    missing, unreached = 0, 0
    for step in range(len(keys) + 1):
        for target, _ in (p for p in paths if min(p[1], len(keys)) == step):  # the searches made before this expansion
            try:
                search.add_path(grown, game, solved, backend, target, focus)
            except (GameGraphError, KeyError, ValueError, IndexError):  # (not a position, out of reach, too far)
                unreached += 1
        if step == len(keys):
            break
        there = keys[step]
        if there not in grown.nodes:
            missing += 1
            continue
        try:
            new = expand(grown, game, solved, backend, there, st.session_state.get("canvas_expand", "both"),
                         grown.boards, focus)
        except GameGraphError as exc:
            grown.notes.append(str(exc))
            break
        if placed:
            grow_layout(grown, there, new)
    if placed:  # one layout of the whole canvas, at the places the expansions gave (the moves' data hold their bends)
        grown.layout = {**first, "positions": grown.layout["positions"], "run": grown.layout_runs}
    # The last position searched is ringed as the search left it (search.mark's `_found`), which the page's default
    # view keeps in sight beside the page's position (static/canvas_view.js, 7): reopened, the link's view showed the
    # page's position alone, the searched one out of sight above the canvas (Chopsticks, issue 35). Only the data: the
    # layout is the canvas's first, fitted as any first one (a search's `ggFind` would skip it).
    last = [key for key in grown.paths if key in grown.nodes][-1:]
    for key in last:
        grown.nodes[key]["data"]["_found"] = 1
    if missing:
        grown.notes.append(f"{missing} of the link's {len(keys)} expansions name positions not on this canvas: left out.")
    if unreached:
        grown.notes.append(f"{unreached} of the link's {len(paths)} searched positions could not be added with a path "
                           "from here: left out.")


def _scene_out(grown: Grown, layout: str, colouring: str, sizing: str = "none") -> None:
    """The canvas's scene into the URL (state.SCENE_PARAMS), so that the address is always a link to it."""
    expanded = list(grown.grown)[:state.SCENE_EXPANSIONS]
    scene = {"layout": layout, "colour": colouring, "size": None if sizing == "none" else sizing,
             "exp": json.dumps(expanded, separators=(",", ":")) if grown.grown else None,
             "path": _paths_out(grown, expanded)}
    for param, name, _, default in SCENE_CHOICES:
        text = _scene_text(name, st.session_state.get(name, _scene_value(name, default)))
        scene[param] = None if text == default else text
        st.session_state[f"{name}_url"] = scene[param]
    state.write_params(scene)
    st.session_state["canvas_layout_url"], st.session_state["canvas_colour_url"] = layout, colouring
    st.session_state["canvas_size_url"] = scene["size"]


def _paths_out(grown: Grown, expanded: list[str]) -> str | None:
    """The saved scene's `path=` (state.url_paths): the positions a search added that are still drawn, each with
    how many of the scene's expansions (`expanded`, in order) were made before it; at most SCENE_PATHS (the
    last ones) and PATH_TEXT_LIMIT characters."""
    pairs = []
    for target, before in grown.paths.items():
        if target not in grown.nodes:
            continue
        n = 0
        while n < len(expanded) and expanded[n] in before:
            n += 1
        pairs.append([target, n])
    pairs = pairs[-state.SCENE_PATHS:]
    while pairs and len(json.dumps(pairs, separators=(",", ":"))) > state.PATH_TEXT_LIMIT:
        pairs = pairs[1:]
    return json.dumps(pairs, separators=(",", ":")) if pairs else None


COPY_LINK = """<button id="gg-copy" style="font:inherit;font-size:0.85rem;padding:2px 10px;border:1px solid #ccc;
border-radius:6px;background:#fff;cursor:pointer">Copy link</button> <span id="gg-copied" style="font-size:0.8rem;color:#555"></span>
<script>(function () { const b = document.getElementById("gg-copy"); if (!b || b.__gg) return; b.__gg = true;
b.addEventListener("click", () => { const url = window.parent.location.href; const said = document.getElementById("gg-copied");
(navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject()).then(() => { said.textContent = "copied: this canvas's link"; },
() => { said.textContent = "the address bar holds this canvas's link"; }); }); })();</script>"""


def _copy_link(where: Any) -> None:
    """A "Copy link" button (in `where`): the page's address, which holds the scene (_scene_out), to the clipboard.
    The address is read at the click, so a button drawn before the run writes the scene copies the scene."""
    where.html(COPY_LINK, unsafe_allow_javascript=True, width="content")


VIEW_KEEPER = Path(__file__).parent.parent / "static" / "canvas_view.js"


@functools.cache
def _view_keeper_script() -> str:
    return VIEW_KEEPER.read_text(encoding="utf-8")


def keep_view(board_px: int | None = None) -> None:
    """The page's view keeper (static/canvas_view.js, which says what it does): fits that leave the
    component's overlays clear, expansions that move nothing already drawn, the highlight in
    HIGHLIGHT, a tidy info panel. Below the canvas, the same every run of a game, so it never makes Streamlit
    mount the canvas again. `board_px`: the game's least width of a node whose board reads (Offers.board_px), else
    MIN_BOARD_PX."""
    config = json.dumps({"highlight": HIGHLIGHT, "large": LARGE, "readable": READABLE_ZOOM, "leanMark": LEAN_MARK,
                         "minLabel": MIN_LABEL_PX, "comfortLabel": COMFORT_LABEL_PX, "labelFont": LABEL_FONT,
                         "moveFont": MOVE_FONT, "panelShare": INFO_PANEL_SHARE,
                         "minBoard": board_px or MIN_BOARD_PX, "boardSize": BOARD_SIZE})
    st.html(f"<script>window.__ggCanvas = {config};\n{_view_keeper_script()}</script>", unsafe_allow_javascript=True)


# -- the level of detail: positions grouped into clusters that open (canvas/clusters.py) -------------------------
GROUP = "canvas_group"            # the Group box's choice
OPENED = "canvas_group_opened"    # (the canvas's generation, grouping, the clusters opened, in order)
GROUP_VIEW = "canvas_group_view"  # (what the grouped canvas was made from, its elements, its layout)
GROUP_MADE = "canvas_group_made"  # the grouped views made ahead (grouped_ahead), by _signature: a double-click's answer
GROUP_EXPANDED = "canvas_group_expanded"  # the node double-clicked (or collapsed) on a grouped canvas, until its answer is drawn
GROUP_WIDTH = 235  # px: "cycles (strongly connected)" whole, beside the search in a 1,000 px window's 540 px column


def _grouping(grown: Grown, k: int, where: Any = st) -> str:
    """The Group box (in `where`: the search's row, so it takes no height of its own), above the canvas on every
    run: a new canvas opens grouped when it is big
    (clusters.default_grouping) unless a grouping was chosen in this game; a link's `group=` is applied once
    (an unknown one is one escaped line), and its `open=` on the canvas it was made for (state.url_opened)."""
    if st.session_state.get("canvas_group_for") != grown.generation:
        st.session_state["canvas_group_for"] = grown.generation
        st.session_state["canvas_group_default"] = clusters.default_grouping(len(grown.nodes), len(grown.edges), k)
        if not st.session_state.get("canvas_group_chosen"):
            st.session_state[GROUP] = st.session_state["canvas_group_default"]
        asked, refused = state.url_opened()
        if refused:
            grown.notes.append(refused)
        st.session_state[OPENED] = (grown.generation, None, asked)  # (checked against the clusters when grouped)
    text = st.query_params.get("group")
    if text is not None and st.session_state.get("canvas_group_url") != text:  # (an empty one is refused too)
        st.session_state["canvas_group_url"] = text
        if text in clusters.GROUPINGS:
            st.session_state[GROUP] = text
            st.session_state["canvas_group_chosen"] = True
        else:
            st.session_state.setdefault(GROUP, "off")
            grown.notes.append(f"The link's group={echo(text)} is not one of {', '.join(clusters.GROUPINGS)}: the "
                               f"canvas uses {st.session_state[GROUP]}.")
    if st.session_state.get(GROUP) not in clusters.GROUPINGS:
        st.session_state[GROUP] = "off"
    where.selectbox("Group positions", list(clusters.GROUPINGS), key=GROUP, format_func=clusters.GROUPINGS.get,
                    width=GROUP_WIDTH, on_change=_group_chosen,
                    help=f"a level of detail for a big canvas (on by itself past {clusters.AUTO_NODES} positions, fewer "
                         f"when many moves close cycles, or from k={clusters.AUTO_K} past {clusters.AUTO_FLOOR}): "
                         "each cluster is one node; "
                         "double-click it to open it")
    return st.session_state[GROUP]


def _group_chosen() -> None:
    st.session_state["canvas_group_chosen"] = True


def _opened(grown: Grown, grouping: str, focus: str) -> list[str]:
    """The clusters opened on this canvas under this grouping (another grouping starts with every cluster closed);
    a link's ids that name no cluster here are left out in one line."""
    generation, kept_grouping, ids = st.session_state.get(OPENED) or (None, None, [])
    if generation != grown.generation:
        ids = []
    if kept_grouping is None and ids:  # a link's, not checked yet
        known = clusters.clusters_of(grown.nodes, grown.edges, grouping, focus)
        unknown = [i for i in ids if i not in known]
        if unknown:
            grown.notes.append(f"{len(unknown)} of the link's {len(ids)} opened clusters "
                               f"{'is not a cluster' if len(unknown) == 1 else 'are not clusters'} of this canvas: "
                               "left out.")
        ids = [i for i in ids if i in known]
    elif kept_grouping != grouping:
        ids = []
    st.session_state[OPENED] = (grown.generation, grouping, ids)
    return ids


def _signature(grown: Grown, grouping: str, opened: list[str], layout: str, pictures: bool) -> tuple:
    """What a grouped canvas is made from: the canvas, the grouping, the clusters opened, the layout, the boards."""
    found = frozenset(k for k, n in grown.nodes.items() if n["data"].get("_found"))  # (search.mark)
    return (grown.generation, grouping, tuple(opened), layout, pictures, len(grown.nodes), len(grown.edges),
            hash(frozenset(grown.nodes)), found)


def _grouped(grown: Grown, grouping: str, layout: str, focus: str, pictures: bool) -> tuple | None:
    """The grouped canvas's elements and layout (clusters.view_layout), made again only when the canvas, the
    grouping, the clusters opened, the layout or the boards changed (or taken from the views made ahead,
    GROUP_MADE), the view itself, and the end of the component's key. None when not grouped.

    The answer to a double-click (a cluster opened, a position expanded) keeps the component: its layout is
    marked as an expansion's (`ggExpand`, `ggNew`, not fitted), and the page's script (static/canvas_view.js, 15)
    makes the elements the component adds replace what it drew (the component adds an expansion's answer to
    what it shows; a cluster opened would stay drawn). It was mounted anew, a new frame: seconds."""
    if grouping == "off":
        st.session_state.pop(GROUP_EXPANDED, None)
        generation, kept_grouping, ids = st.session_state.get(OPENED) or (None, None, [])
        if generation == grown.generation and kept_grouping is None and ids:  # a link's open= on a canvas not grouped
            grown.notes.append(f"The link opens {len(ids)} cluster{'s' if len(ids) != 1 else ''}, but the canvas is not "
                               "grouped: left out.")
            st.session_state[OPENED] = (generation, grouping, [])
        return None
    opened = _opened(grown, grouping, focus)
    signature = _signature(grown, grouping, opened, layout, pictures)
    found = signature[-1]
    kept = st.session_state.get(GROUP_VIEW)
    if kept is None or kept[0] != signature or st.session_state.get("canvas_relayout"):  # ("Lay out again")
        made = (st.session_state.get(GROUP_MADE) or {}).get(signature)
        if made is not None and not st.session_state.get("canvas_relayout"):
            view, placed = made
        else:
            view, placed = clusters.view_layout(grown, grouping, opened, focus, layout,
                                                BOARD_SIZE if pictures else NODE_SIZE)
        run = kept[3] + 1 if kept else 1
        marked = sorted(i for i, n in view.nodes.items() if n["data"].get("_found"))
        if kept and found and kept[0][-1] != found:
            # a search: the view goes to what it found (static/canvas_view.js, 14); where it added nothing, nothing
            # moves; where it added a path (its positions grouped into clusters that grew or came: `ggRegrouped`),
            # the page's script lays the canvas out without a fit, then brings what was found into the middle
            same = {n["data"]["id"] for n in kept[1]["nodes"]} == set(view.nodes)
            placed = {**placed, "ggFind": marked, **({} if same else {"ggRegrouped": True})}
        expanded = st.session_state.pop(GROUP_EXPANDED, None)
        if expanded is not None and kept is not None and kept[0][:2] == signature[:2]:
            # the answer to a double-click: the component keeps what it drew, and nothing is fitted anew
            before = {n["data"]["id"] for n in kept[1]["nodes"]}
            placed = {**placed, "fit": False, "animate": True, "animationDuration": EXPAND_ANIMATION_MS,
                      "ggExpand": expanded, "ggNew": sorted(set(view.nodes) - before)}
            if placed.get("name") == "fcose":
                placed["randomize"] = False
        kept = (signature, view.elements(), {**placed, "run": run}, run, view)
        st.session_state[GROUP_VIEW] = kept
    st.session_state.pop(GROUP_EXPANDED, None)
    return kept[1], kept[2], "_g0"


def _cluster_event(grown: Grown, action: str | None, payload: dict[str, Any], focus: str) -> bool:
    """A grouped canvas's event: a double-click (or "Open this position") on a cluster opens it; "Collapse what it
    expanded" on a position of an opened cluster that expanded nothing closes it; the Delete key on a cluster
    takes its positions off. True when handled here, False for the usual handling (an expansion of a position
    drawn, which then draws the grouped canvas anew)."""
    grouping = st.session_state.get(GROUP, "off")
    if grouping == "off":
        return False
    generation, kept, ids = st.session_state.get(OPENED) or (grown.generation, grouping, [])
    ids = list(ids) if generation == grown.generation and kept == grouping else []
    ident = payload.get("element_id")
    if action == "expand":
        ident = (payload.get("node_ids") or [None])[0]
    if action in ("expand", "open") and clusters.is_cluster(ident):
        name = clusters.cluster_name(ident)
        known = clusters.clusters_of(grown.nodes, grown.edges, grouping, focus)
        if name not in known:  # (a cluster of a canvas drawn before: the page hears at once)
            _refuse(grown, name)
            return True
        if action == "expand":
            st.session_state[GROUP_EXPANDED] = ident  # (_grouped marks the answer's layout as an expansion)
        if name not in ids:
            ids.append(name)
        st.session_state[OPENED] = (grown.generation, grouping, ids)
        return True
    if action == "collapse" and isinstance(ident, str) and not clusters.is_cluster(ident) and ident not in grown.grown:
        groups = clusters.clusters_of(grown.nodes, grown.edges, grouping, focus)
        closing = [i for i in ids if ident in groups.get(i, ())]
        if closing:  # the answer keeps the view, as an expansion's (_grouped), round the cluster closed again
            st.session_state[GROUP_EXPANDED] = clusters.node_id(closing[0])
        ids = [i for i in ids if i not in closing]
        st.session_state[OPENED] = (grown.generation, grouping, ids)
        return True
    if action == "remove":
        named = [clusters.cluster_name(i) for i in payload.get("node_ids", []) if clusters.is_cluster(i)]
        if named:
            groups = clusters.clusters_of(grown.nodes, grown.edges, grouping, focus)
            remove(grown, {key for name in named for key in groups.get(name, ())} - {focus})
    return False


def _group_out(grown: Grown, grouping: str) -> None:
    """The grouping into the URL when it is not the canvas's default, and the clusters opened (state.SCENE_PARAMS)."""
    _, _, ids = st.session_state.get(OPENED) or (None, None, [])
    scene = {"group": None if grouping == st.session_state.get("canvas_group_default") else grouping,
             "open": json.dumps(ids[:state.OPENED_CLUSTERS], separators=(",", ":")) if grouping != "off" and ids else None}
    state.write_params(scene)
    st.session_state["canvas_group_url"] = scene["group"]
