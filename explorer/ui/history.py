"""The walk so far: every visited position with its value, and where a win slipped away.

A move "slips" when the mover's value after it (the successor's value seen
from the mover) is worse than the value they had before it: a win thrown to
a draw or a loss, a tie to a loss. Slower wins and longer losses are not
slips — the value is what matters.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
# DataFrame.style imports pandas' Styler on first use, which compiles its Jinja templates: about 0.7 s
# that the first click on this tab would wait for. Imported with the page instead (once per server).
import pandas.io.formats.style  # noqa: F401
import streamlit as st

from explorer.games import Game
from explorer.render import palette
from explorer.ui import state
from explorer.ui.widgets import player_name
from explorer.core.values import Value


def slip(before: state.Step, after: state.Step) -> tuple[str, str] | None:
    """(mover's value before, after) when the move between the steps made it worse, else None."""
    if after.move is None:
        return None  # a jump, not a move: nothing was played
    had = Value.parse(before.value)
    got = Value.parse(after.value).for_previous_player()
    return (str(had), str(got)) if got < had else None


def rows(game: Game, trail: list[state.Step]) -> list[dict[str, Any]]:
    out = []
    for i, step in enumerate(trail):
        note = ""
        if i and step.move is None:
            note = "jumped here"
        elif i:
            lost = slip(trail[i - 1], step)
            if lost:
                who = player_name(game, trail[i - 1].to_move)
                note = f"⚠ {who}'s {lost[0]} slipped to a {lost[1]}"
        out.append({"#": i, "move": step.move or "", "position": step.key,
                    # Remoteness 0 is a finished position (and only that): nobody is to move, as its header says.
                    "to move": "—" if step.remoteness == 0 else player_name(game, step.to_move), "value": step.value,
                    "remoteness": "—" if step.remoteness is None else str(step.remoteness), "note": note})
    return out


def value_history_chart(points: list, players: tuple[str, str], key: str) -> None:
    """The value history (explorer/render/chart.py) under its heading, with a line on how to read it."""
    from explorer.render.chart import value_history

    st.markdown("#### Value history")
    draws = any(p.value == "draw" for p in points)
    st.caption(f"One row per position, the start at the top. Left: {players[0]} wins, right: {players[1]} wins; "
               "the further out, the sooner (the edge is the end of the game). Draws and ties sit in the middle "
               "column" + (", labelled with their draw level, or as safe or sharp (whether a move loses) when they have none"
                              if draws else "") + ". Colour: the value for the "
               "player to move; a ringed point is where a move changed the outcome. Hover a point for the position.")
    with st.container(key=key):
        st.vega_lite_chart(value_history(points, players), width="stretch")


def draw_kind(solved: Any, node: int) -> str | None:
    """What a value history calls a draw without a draw level (non-pure or dead): "safe draw" or "sharp draw"
    (explorer/analysis/draws.py: whether some move loses), from the page's one cached draw analysis; None
    when `node` is no draw. The one home of these words for the explorer's and the Play tab's histories.
    O(1) after the analysis, made once per game (O(V + E))."""
    from explorer.analysis.draws import KIND_NAMES
    from explorer.ui.analysis_panel import _analysis  # the page's one cached draw analysis

    named = KIND_NAMES.get(int(_analysis(solved.graph.graph_id, solved).kind[node]))
    return f"{named} draw" if named else None


def history_points(trail: list[state.Step], solved: Any = None) -> list:
    """The walk as the value history's points; a jump starts afresh but stays on the chart (not
    ringed). Draws come from `solved` when given: a draw-win or draw-lose with its draw level; any other
    draw by its real kind, "safe draw" or "sharp draw" (explorer/analysis/draws.py: whether some move
    loses), since "non-pure" says nothing there (every draw of Chopsticks is non-pure). O(steps) after
    the draw analysis, made once per game (O(V + E))."""
    from explorer.render.chart import HistoryPoint

    points = []
    for i, step in enumerate(trail):
        level = kind = None
        if solved is not None and step.value == "draw":
            node = solved.graph.find(step.key)
            record = solved.draw_record(node)
            level, kind = record["draw_level"], record["draw_class"]
            if level is None:
                kind = draw_kind(solved, node) or kind
        points.append(HistoryPoint(i, step.to_move, step.value, step.remoteness, step.key, step.move, level, kind))
    return points


def _back(spec: str) -> None:
    trail = state.history()
    if len(trail) > 1:
        trail.pop()
        state.set_position(spec, trail[-1].key)


def _clear() -> None:
    trail = state.history()
    del trail[:-1]


def panel(game: Game, spec: str, solved: Any = None) -> None:
    trail = state.history()
    table = rows(game, trail)
    slips = [row for row in table if row["note"].startswith("⚠")]
    if slips:
        first = f"step {slips[0]['#']} ({slips[0]['move']}): {slips[0]['note'][2:]}"
        st.warning(f"A slip at {first}." if len(slips) == 1 else f"{len(slips)} slips; the first at {first}.")
    elif len(trail) > 1:
        st.success("No slips so far: every move kept the mover's value.")
    frame = pd.DataFrame(table)
    styled = frame.style.apply(
        lambda col: [f"background-color: {palette.FILLS.get(v, '')}" for v in col], subset=["value"]
    ).apply(lambda col: [f"color: {palette.WARNING}; font-weight: bold" if str(v).startswith("⚠") else "" for v in col],
            subset=["note"])
    st.dataframe(styled, hide_index=True, width="stretch")
    left, right, _ = st.columns([1, 1, 4])
    left.button("◀ Back", on_click=_back, args=(spec,), disabled=len(trail) < 2, key="history_back")
    right.button("Clear history", on_click=_clear, disabled=len(trail) < 2, key="history_clear")
    if trail:
        value_history_chart(history_points(trail, solved), (player_name(game, 0), player_name(game, 1)),
                            key="history_value_history")
