"""Panels about the graph around a position: its neighbourhood, the cycles through it, the best line.

The answers come from `data` (the backend in use through the query library);
the neighbourhood is the interactive canvas (`canvas`, drawn in the browser).
`drawn` is its Graphviz twin for the Downloads panel, made with the same
controls (k, direction, labels); it is kept per graph, position and controls,
so a rerun does not ask the backend or run Graphviz again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import streamlit as st

from explorer.render import dot as dots
from explorer.core.errors import counted
from explorer.games import Game
from explorer.games.base import MIRRORED_MARK
from explorer.solved import SolvedGraph
from explorer.ui import canvas, data, drawing, position, state
from explorer.ui.backend import Backend
from explorer.ui.local import Neighbourhood
from explorer.ui.widgets import md_escape, player_name
from queries.results import QueryResult

DEFAULT_K = 2


@dataclass
class Shown:
    """A neighbourhood diagram as drawn: DOT source, SVG and the k it was drawn for."""

    dot: str
    svg: bytes
    k: int


def png_resolution(key: str) -> int:
    """The resolution a PNG download is drawn at, chosen beside its button (render.dot.PNG_RESOLUTIONS; the
    CLI's --dpi, whose default it starts from). O(1)."""
    return int(st.selectbox("PNG resolution", dots.PNG_RESOLUTIONS, index=dots.PNG_RESOLUTIONS.index(dots.DEFAULT_DPI),
                            key=key, width=220, format_func=_resolution_name,
                            help="dots per inch of the PNG file: 150 reads on a projector, 300 prints; the SVG "
                                 "scales freely (`gamegraph dot --dpi N` takes any from "
                                 f"{dots.MIN_DPI} to {dots.MAX_DPI})"))


def _resolution_name(dpi: int) -> str:
    return {96: "96 dpi (screen)", dots.DEFAULT_DPI: f"{dots.DEFAULT_DPI} dpi (slides)", 300: "300 dpi (print)"}.get(
        dpi, f"{dpi} dpi")


def settings() -> tuple[int, str, bool]:
    """The neighbourhood controls' last values (k, direction, labels), also used by the downloads.

    Kept under a plain session key: Streamlit forgets a widget's state in runs
    where the widget is not drawn (another tab is open).
    """
    return st.session_state.get("hood_settings", (DEFAULT_K, "both", True))


def drawn(spec: str, solved: SolvedGraph, key: str, backend: Backend) -> tuple[Shown, Neighbourhood]:
    """The neighbourhood diagram for the current controls (QueryError for a bad k or too many positions),
    drawn from the position as the page shows it (position.shown), as the canvas is."""
    k, direction, labels = settings()
    board = solved.game.format(position.shown(solved, solved.graph.find(key)))
    return _drawn(solved.graph.graph_id, spec, key, board, k, direction, labels, backend.kind, solved, backend)


@st.cache_data(show_spinner=False, max_entries=64)
def _drawn(graph_id: str, spec: str, key: str, board: str, k: int, direction: str, labels: bool, backend_kind: str,
           _solved: SolvedGraph, _backend: Backend) -> tuple[Shown, Neighbourhood]:
    """`drawn`, kept per (graph id, position, its board as shown, k, direction, labels, backend kind): one query
    and one Graphviz run per diagram, not per rerun. Errors are not kept."""
    hood = data.neighbourhood(_backend, _solved, key, k, direction)
    shown, edges = oriented(_solved, hood, board)
    dot = dots.linked_dot(hood.centre, hood.positions, edges, lambda there: state.link(spec, there), labels=labels,
                          drawn=shown)
    return Shown(dot=dot, svg=dots.image(dot, "svg"), k=k), hood


def oriented(solved: SolvedGraph, hood: Neighbourhood, board: str) -> tuple[dict[str, str], list[tuple[str, str, str, bool]]]:
    """A neighbourhood as the canvas draws it (Game.orient) from `board`, the centre as the page shows it:
    (key -> the board it is drawn as, notation; the moves (from, to, name as played on the board drawn at
    their start, marked MIRRORED_MARK when they leave the mirror image of the board drawn at their end,
    optimal)). O(moves x moves of a position) rule calls."""
    game = solved.game
    boards = {hood.centre: game.parse(board)}
    played = game.orient([(source, label, target) for source, target, label, _ in hood.edges], boards,
                         lambda key: solved.graph.position(solved.graph.find(key)))
    edges = [(source, target, (name or "") + (MIRRORED_MARK if mirrored else ""), optimal)
             for (source, target, _, optimal), (name, mirrored) in zip(hood.edges, played)]
    return {key: game.format(position) for key, position in boards.items()}, edges


def neighbourhood(game: Game, spec: str, solved: SolvedGraph, key: str, backend: Backend) -> None:
    """The Neighbourhood tab: the interactive canvas (explorer.ui.canvas); Graphviz draws the downloads."""
    canvas.neighbourhood_panel(game, spec, solved, key, backend, settings())


def _played(game: Game, keys: list[str], labels: list[str | None], here: object) -> list[tuple[str, str | None]]:
    """A line of stored keys as played on the board shown (`here`): [(board notation, move into it
    as named on the board before)], each board the one before with that move (Game.shown_line)."""
    return [(game.format(p), label) for p, label in game.shown_line(keys, labels, here)]


def line_rows(line: list[tuple[str, str | None]], stored: list[str]) -> list[dict[str, object]]:
    """The best line's table: each ply's number, its move and the position it reaches as played on the board
    shown (`line`, from _played: one name per move, the CLI's since queries.results.played_tables), and the
    position's stored key (the graph's, for Cypher). O(plies)."""
    return [{"#": i, "move": label or "", "position": board, "stored key": key}
            for i, ((board, label), key) in enumerate(zip(line, stored))]


def _chain(steps: list[tuple[str, str | None]]) -> str:
    return "".join((f" —{md_escape(label)}→ " if label else "") + f"`{board}`" for board, label in steps)


def cycles(game: Game, spec: str, solved: SolvedGraph, key: str, backend: Backend) -> None:
    node = solved.graph.find(key)
    if not solved.on_cycle[node]:
        st.info(f"`{key}` lies on no cycle: once play leaves it, it never comes back.")
        return
    found = data.cycles(backend, solved, key)
    here = position.shown(solved, node)
    st.caption(f"Answered by {data.answered_by(backend)}. Each cycle is played on the board shown above; it may "
               "come back to this position turned or mirrored, which is the same position.")
    if found.shortest:
        steps = _played(game, found.shortest.keys, found.shortest.labels, here)
        st.markdown(f"**Shortest cycle through `{steps[0][0]}`** ({counted(found.shortest.length, 'move')}):  \n{_chain(steps)}")
    draw_set = {tuple(c.keys) for c in found.draw_cycles}
    st.markdown(f"**{counted(len(found.cycles), 'simple cycle')}** of up to {data.MAX_CYCLE_LENGTH} moves "
                f"{'passes' if len(found.cycles) == 1 else 'pass'} through here "
                f"(shortest first, at most {data.MAX_CYCLES} listed); **{len(found.draw_cycles)}** visit only draws — "
                "both sides can go round those forever without giving anything away.")
    for note in found.notes:
        st.caption(note)
    for i, cycle in enumerate(found.cycles):
        tag = " · draws only" if tuple(cycle.keys) in draw_set else ""
        with st.expander(f"{i + 1}. {counted(cycle.length, 'move')}{tag}", expanded=i == 0):
            steps = _played(game, cycle.keys, cycle.labels, here)
            st.markdown(_chain(steps))
            if cycle.length:
                board, label = steps[1]
                st.button(f"Play {label} (to {board})", key=f"cycle_step_{i}",
                          on_click=state.go, args=(spec, board, label))


def _step_by(delta: int, slider_key: str, last: int) -> None:
    st.session_state[slider_key] = min(max(st.session_state.get(slider_key, 0) + delta, 0), last)


def best_line(game: Game, spec: str, solved: SolvedGraph, key: str, backend: Backend) -> None:
    """Optimal play from here, stepped through move by move (the shortest forced win for a won position)."""
    node = solved.graph.find(key)
    here = position.shown(solved, node)
    found = data.best_line(backend, solved, game.format(here))
    # Played on the board shown: each board is the one before it with the move named (Game.shown_line).
    line = _played(game, [k for k, _ in found.steps], [label for _, label in found.steps[1:]], here)
    start = line[0][0]
    value = str(solved.value(node))
    mover = player_name(game, int(solved.graph.to_move[node]))
    other = player_name(game, 1 - int(solved.graph.to_move[node]))
    moves = len(line) - 1
    if moves == 0:
        st.info("The game is over here: there is no line to play.")
        return
    if value == "win":
        st.markdown(f"**{mover} wins in {counted(moves, 'move')}**: {mover} takes the fastest win, {other} resists longest.")
    elif value == "loss":
        st.markdown(f"**{other} wins in {counted(moves, 'move')}**: {other} takes the fastest win, {mover} resists longest.")
    elif value == "tie":
        st.markdown(f"**A tie in {counted(moves, 'move')}** with best play on both sides.")
    else:
        ends = found.steps[-1][0]
        back = "here" if ends == key else f"`{line[-1][0]}`"
        st.markdown(f"**A draw: nobody can force a win.** With optimal moves on both sides play comes back "
                    f"{back} after {counted(moves, 'move')}, and can go round forever.")
    slider_key = f"line_step_{key}"
    st.session_state.setdefault(slider_key, 0)
    left, middle, right = st.columns([1, 8, 1], vertical_alignment="bottom")
    left.button("◀", key="line_prev", on_click=_step_by, args=(-1, slider_key, moves), help="one move back")
    middle.slider("Move", 0, moves, key=slider_key)
    right.button("▶", key="line_next", on_click=_step_by, args=(1, slider_key, moves), help="one move on")
    step = int(st.session_state[slider_key])
    board, label = line[step]
    here_node = solved.graph.find(board)
    cols = st.columns([3, 2], vertical_alignment="center")
    with cols[0]:
        picture = drawing.position_svg(game, game.parse(board))
        if picture:
            st.image(picture)
    with cols[1]:
        st.markdown(f"Move {step} of {moves}: `{board}`" + (f" after **{md_escape(label)}**" if label else " (here)"))
        st.markdown(drawing.value_badge(str(solved.value(here_node)), solved.remoteness(here_node))
                    + f" for {player_name(game, int(solved.graph.to_move[here_node]))} to move",
                    unsafe_allow_html=True)
        if step < moves:
            st.markdown(f"next: **{md_escape(line[step + 1][1] or '')}**")
        st.button("Go to this position", key="line_go", on_click=state.go, args=(spec, board), disabled=step == 0)
    with st.expander("The whole line"):
        st.dataframe(line_rows(line, [k for k, _ in found.steps]), hide_index=True, width="stretch")
        st.caption("Each move and position is named as played on the board shown, as `gamegraph query` names "
                   "them. The stored key is the one Neo4j and the mirror keep (a position and its mirror "
                   "images share one): the one to use in Cypher, as {key: ...}.")
    st.caption(f"Answered by {data.answered_by(backend)}.")
    if value != "draw":
        _line_downloads(spec, start, found.result)
    _path_form(spec, solved, key, backend)


def _line_downloads(spec: str, key: str, line: QueryResult | None) -> None:
    """The line (the shortest-win answer already shown) as a diagram in `gamegraph dot`'s style
    (explorer.render.dot), as DOT, SVG and PNG files (the PNG at the resolution chosen, png_resolution); none
    when the solved arrays gave the line."""
    if line is None:
        return
    source = dots.to_dot(dots.line_diagram(line, boards=True))  # a slide: each position drawn as its board
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{spec}__{key}__line").strip("_")
    dpi = png_resolution("dl_line_png_dpi")
    # Buttons as wide as their names (fixed columns cut them to "Line (…" at a 1,000 px window).
    with st.container(horizontal=True, gap="small"):
        st.download_button("Line (DOT)", source, file_name=f"{base}.dot", mime="text/vnd.graphviz", key="dl_line_dot",
                           on_click="ignore")
        st.download_button("Line (SVG)", lambda: dots.image(source, "svg"), file_name=f"{base}.svg",
                           mime="image/svg+xml", key="dl_line_svg", on_click="ignore")
        st.download_button("Line (PNG)", lambda: dots.png_image(source, dpi=dpi), file_name=f"{base}.png",
                           mime="image/png", key="dl_line_png", on_click="ignore")


def _path_form(spec: str, solved: SolvedGraph, key: str, backend: Backend) -> None:
    """Any sequence of moves (not optimal play) from here to a typed position: the `path` query."""
    with st.form("path_form", border=False):
        st.text_input("Shortest path from here to…", key="path_to", placeholder=solved.graph.key(0),
                      help="any moves, not optimal play: how few moves reach that position")
        asked = st.form_submit_button("Find path")
    if asked and st.session_state.get("path_to"):
        # From the board shown to exactly the board typed, each move named as played (queries.api's path).
        here = solved.game.format(position.shown(solved, solved.graph.find(key)))
        played = data.played_path(backend, solved, here, st.session_state["path_to"])
        st.markdown(f"**{counted(len(played) - 1, 'move')}:** " + _chain(played))
