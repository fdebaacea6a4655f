"""The position itself: where it comes from (URL, typed, lists, random), how it looks, and its moves.

Every way of choosing a position ends in `state.go`, which writes the URL;
the next run reads it back, so typed, listed, clicked and linked positions
all behave the same. Mistakes in typed text are kept in the session and
shown once as `st.error`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from explorer.core.errors import GameGraphError, counted
from explorer.games import Game
from explorer.play import game_over
from explorer.solved import SolvedGraph
from explorer.ui import drawing, local, state
from explorer.ui.clickable import clickable_html
from explorer.ui.widgets import error, md_escape, player_name
from explorer.core.values import Value


def resolve(solved: SolvedGraph, text: str | None) -> tuple[int, str | None]:
    """(node, error): the URL's position, or the start with the reason the URL's was refused."""
    if text is None:
        return 0, None
    try:
        return solved.graph.find(text), None
    except GameGraphError as exc:
        return 0, str(exc)


def shown(solved: SolvedGraph, node: int) -> object:
    """The position as the page shows it: the URL's position when it is this node in another
    orientation (a move followed on the board keeps the board's orientation), else the stored one.
    One canonical key per position, and a shown orientation that follows the moves. O(1)."""
    text = state.url_position()
    if text:
        try:
            position = solved.game.parse(text)
        except GameGraphError:
            position = None
        if position is not None and solved.graph.node_of(position) == node:
            return position
    return solved.graph.position(node)


def shown_moves(solved: SolvedGraph, node: int, here: object) -> list[tuple[dict, object]]:
    """Every move of the node, best first, each with the Move as played on the board `here` (its
    label from that board and the board it leaves): Game.shown_move. O(moves^2) rule calls."""
    return [(move, solved.game.shown_move(here, move["label"], move["to"])) for move in solved.moves(node)]


# -- choosing -------------------------------------------------------------------
def _typed(spec: str, solved: SolvedGraph) -> None:
    text = st.session_state.get("goto_text", "")
    try:
        node = solved.graph.find(text)
    except GameGraphError as exc:
        state.refuse("goto_error", str(exc))
        return
    state.go(spec, solved.graph.key(node))


def _describe(solved: SolvedGraph, node: int) -> str:
    r = solved.remoteness(node)
    return f"{solved.graph.key(node)}  ({solved.value(node)}{'' if r is None else f' in {r}'})"


LISTS = {
    "longest wins": lambda s: local.longest(s, Value.WIN),
    "longest losses": lambda s: local.longest(s, Value.LOSS),
    "on cycles": local.on_cycles,
}


@st.cache_data(show_spinner=False, max_entries=64)
def listed(graph_id: str, kind: str, _solved: SolvedGraph) -> list[int]:
    """The nodes of one quick list, worked out once per graph (the longest lists sort every position)."""
    return LISTS[kind](_solved)


def chooser(game: Game, spec: str, solved: SolvedGraph) -> None:
    """Sidebar controls that jump to a position."""
    start_key = solved.graph.key(0)
    with st.form("goto", border=False):
        st.text_input("Type a position", key="goto_text", placeholder=start_key,
                      help=f"notation: {game.notation_help or start_key}")
        st.form_submit_button("Go to position", on_click=_typed, args=(spec, solved))
    refused = state.refusal("goto_error")
    if refused:
        error(refused)
    kind = st.selectbox("Or pick from", list(LISTS), key="list_kind")
    nodes = listed(solved.graph.graph_id, kind, solved)
    if nodes:
        labels = {solved.graph.key(n): _describe(solved, n) for n in nodes}
        st.selectbox("Position", list(labels), key=f"list_pick_{kind}", format_func=labels.get)
        pick = st.session_state.get(f"list_pick_{kind}")
        st.button("Go to listed position", on_click=state.go, args=(spec, pick), disabled=pick is None)
    else:
        st.caption(f"No positions: this game has none {kind}.")
    left, right = st.columns(2)
    left.button("Start", on_click=state.go, args=(spec, start_key), width="stretch")
    right.button("Random", on_click=_random, args=(spec, solved), width="stretch")


def _random(spec: str, solved: SolvedGraph) -> None:
    state.go(spec, solved.graph.key(local.random_node(solved)))


# -- showing ----------------------------------------------------------------------
def summary(game: Game, solved: SolvedGraph, node: int, position: Any = None) -> str:
    """One sentence: who is to move and what they get with best play (`value_sentence`), for the
    position shown (`position`: the stored one by default)."""
    shown_position = solved.graph.position(node) if position is None else position
    return value_sentence(game, shown_position, int(solved.graph.to_move[node]), solved.value(node),
                          solved.remoteness(node), solved.graph.terminal[node] >= 0)


def value_sentence(game: Game, position: Any, to_move: int, value: Value | str, remoteness: int,
                   finished: bool) -> str:
    """The one sentence every page says under a position's value (the graph page's `summary`, the
    value-file page): what the value means for the player to move; at a finished position, that the
    game is over, why (Game.ending of the board as shown) and who won (explorer.play.game_over).
    Markdown, with the game's own words escaped."""
    mover, other = player_name(game, to_move), player_name(game, 1 - to_move)
    value, r = Value.parse(value) if isinstance(value, str) else value, remoteness
    if finished:
        said = game_over(game, position)
        if said:
            return md_escape(said)
        return {Value.LOSS: f"Game over: {other} has won.", Value.TIE: "Game over: a tie.",
                Value.WIN: f"Game over: {mover} has won."}.get(value, "Game over.")
    if value == Value.WIN:
        return f"{mover} to move wins: best play ends the game in {counted(r, 'move')}."
    if value == Value.LOSS:
        return f"{mover} to move loses: {other} wins, and best resistance lasts {counted(r, 'move')}."
    if value == Value.TIE:
        return f"{mover} to move can hold a tie (the game ends level in {counted(r, 'move')}), but no better."
    return f"{mover} to move: a draw — neither side can force a win, and best play goes on forever."


def board_links(spec: str, solved: SolvedGraph, node: int, here: object = None) -> dict[str, str]:
    """Each legal move's label -> the link to its result as played on the board shown (`here`, the
    stored position by default), from the rules: symmetric twins, merged into one edge of the
    graph, are each playable, and each lands on the board the click makes. O(moves)."""
    graph = solved.graph
    if graph.terminal[node] >= 0:
        return {}
    here = graph.position(node) if here is None else here
    links = {}
    for move in solved.game.moves(here):
        if graph.node_of(move.position) is not None:
            links[move.label] = state.link(spec, solved.game.format(move.position))
    return links


def _board(game: Game, spec: str, solved: SolvedGraph, node: int) -> None:
    """The board drawing; a drawing with links plays the clicked move. The generic view is the notation."""
    position = shown(solved, node)
    links = board_links(spec, solved, node, position)
    board(game, spec, position, links, drawing.move_values(solved, position))


def board(game: Game, spec: str, position: Any, links: dict[str, str], move_values: dict) -> None:
    """`position` drawn with its moves as links (label -> URL) coloured by `move_values` (label ->
    (value, remoteness)); clicking one plays it. The generic view is the notation. Used by the graph
    page and by the page of games answered from a value file (explorer.ui.implicit_page)."""
    picture = drawing.position_svg(game, position, links, move_values)
    if not picture:
        st.code(game.format(position))
        st.caption("This game has no board drawing: its positions are shown in its notation.")
    elif links and "<a " in picture:
        clicked = clickable_html(picture, key="board_svg")
        st.markdown(drawing.move_legend(), unsafe_allow_html=True)
        if clicked:
            label = next((label for label, href in links.items() if state.link(spec, clicked) == href), None)
            state.go(spec, clicked, label)
            st.rerun()
    else:
        st.image(picture)


def header(game: Game, solved: SolvedGraph, node: int, spec: str | None = None) -> None:
    record = solved.record(node)
    left, right = st.columns([3, 2], vertical_alignment="center")
    with left:
        _board(game, spec or game.display_name, solved, node)
    with right:
        mover = player_name(game, record["to_move"])
        st.markdown(f"### `{game.format(shown(solved, node))}`")
        value_line = drawing.value_badge(record["value"], record["remoteness"])
        turn = "whose turn it would be" if record["terminal"] else "to move"  # a finished game has no mover
        st.markdown(f'<div class="gg-value">Value for {mover} ({turn}): {value_line}</div>',
                    unsafe_allow_html=True)
        st.markdown(summary(game, solved, node, shown(solved, node)))
        facts = []
        if record["on_cycle"]:
            facts.append("on a cycle")
        if record["terminal"]:
            facts.append("game over")
        if node == 0:
            facts.append("the start")
        if facts:
            st.caption(" · ".join(facts))
    # Under the board and its facts, across the page: in the facts' column a 1,000 px window left each metric
    # 60 px, and Streamlit cut "draw" to "d…" and "Remoteness" to "Re…".
    cols = st.columns(3)
    # A finished position has no player to move (its value is still the would-be mover's, above).
    cols[0].metric("To move", "—" if record["terminal"] else mover,
                   help="nobody: the game is over" if record["terminal"] else None)
    cols[1].metric("Value", record["value"])
    cols[2].metric("Remoteness", "—" if record["remoteness"] is None else record["remoteness"],
                   help="moves until the game ends with best play (none for a draw)")


# The moves table's columns, heading and rows alike: the move, its result, remoteness (its heading whole at a
# 1,000 px window), optimal.
MOVE_COLUMNS = [3.6, 2, 1.6, 1]


def moves_table(game: Game, spec: str, solved: SolvedGraph, node: int) -> list[dict]:
    """One row per move, best first: a button that plays it, its value for the mover, remoteness, optimal mark."""
    moves = solved.moves(node)
    mover = player_name(game, int(solved.graph.to_move[node]))
    st.markdown(f"#### Moves for {mover}")
    if not moves:
        st.caption("No moves: the game is over.")
        return moves
    head = st.columns(MOVE_COLUMNS)
    for col, text in zip(head, ("move → position", f"result for {mover}", "remoteness", "optimal")):
        col.caption(text)
    # Every legal move, named and followed on the board shown above (mirror images a symmetric graph merged
    # into one edge each get a row, as the board offers each), so the label and the click agree.
    for i, move in enumerate(solved.played_moves(node, shown(solved, node))):
        cols = st.columns(MOVE_COLUMNS, vertical_alignment="center")
        star = "★ " if move["optimal"] else ""
        cols[0].button(f"{star}{md_escape(move['label'])}  →  {md_escape(move['to'])}", key=f"move_{i}",
                       on_click=state.go, args=(spec, move["to"], move["label"]), width="stretch",
                       help=f"play {move['label']}: {mover} gets a {move['value']}")
        cols[1].markdown(drawing.value_badge(move["value"]), unsafe_allow_html=True)
        cols[2].markdown("—" if move["remoteness"] is None else str(move["remoteness"]))
        cols[3].markdown("★ yes" if move["optimal"] else "no")
    return moves
