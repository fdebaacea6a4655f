"""The explorer page for games too large for a graph: answered from the implicit mode's value file.

Used instead of the graph page when the game offers the implicit mode and its
ranking is larger than the graph limit (Dodgem 5x5, Chopsticks at 100 fingers).
It shows one position, its moves with each successor's value (links to them)
and a best line, all read from the memory-mapped value file: nothing else is
materialised. Neighbourhood diagrams, cycles, Neo4j and the console need a
graph and are not offered here.
"""

from __future__ import annotations

import streamlit as st

from explorer import implicit, tiered
from explorer.core.errors import GameGraphError
from explorer.games import Game
from explorer.graph import DEFAULT_MAX_POSITIONS
from explorer.ui import state
from explorer.ui.widgets import error, player_name

LIMIT = DEFAULT_MAX_POSITIONS  # rankings larger than this get this page


def wanted(game: Game) -> bool:
    """Too large for a graph and already solved into a value file. Without the file the
    usual page refuses at once with the size estimate (explorer.ui.builds), which is
    quicker to read than a missing file; the CLI's `solve --implicit` makes the file."""
    size = game.index_space()
    return implicit.supports(game) and size is not None and size > LIMIT and tiered.solved_exists(game)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def page(game: Game, spec: str) -> None:
    st.title(game.display_name)
    st.caption(game.description)
    try:
        values = tiered.open_solved(game)  # a tiered solve or the implicit mode's value file
    except GameGraphError as exc:
        error(f"{exc} (the game is too large for a graph: the page reads its value file)")
        return
    meta = values.meta
    source = "the tiered solve" if isinstance(values, tiered.TieredValues) else "the value file of the implicit mode"
    st.caption(f"Answered from {source}: {meta['positions']:,} positions solved, "
               "no graph in memory. Diagrams, cycles and Neo4j need a graph and are not offered for this game.")
    asked = state.url_position()
    position = game.start()
    if asked:
        try:
            position = game.parse(asked)
        except GameGraphError as exc:
            error(f"{exc}. Showing the start position instead.")
    record = values.record(position)
    remoteness = "" if record["remoteness"] is None else f" in {record['remoteness']}"
    over = "   (game over)" if record["terminal"] else ""
    st.subheader(f"`{record['key']}`")
    st.markdown(f"**{player_name(game, record['to_move'])}** to move: **{record['value']}{remoteness}**{over}")
    moves = values.moves(position)
    if moves:
        lines = ["| | move | result | value for the mover | remoteness |", "|---|---|---|---|---:|"]
        for m in moves:
            r = "" if m["remoteness"] is None else str(m["remoteness"])
            lines.append(f"| {'★' if m['optimal'] else ''} | {_cell(m['label'])} | "
                         f"[`{_cell(m['to'])}`]({state.link(spec, m['to'])}) | {m['value']} | {r} |")
        st.markdown("\n".join(lines))
        st.caption("★ optimal")
    with st.expander("Best line"):
        line = values.best_line(position, limit=40)
        st.markdown("\n".join(
            f"{i}. [`{_cell(step['key'])}`]({state.link(spec, step['key'])}) {step['value']}"
            f"{'' if step['remoteness'] is None else ' in ' + str(step['remoteness'])}"
            f"{'  → ' + _cell(step['move']) if 'move' in step else ''}" for i, step in enumerate(line)))
