"""The walk so far: every visited position with its value, and where a win slipped away.

A move "slips" when the mover's value after it (the successor's value seen
from the mover) is worse than the value they had before it: a win thrown to
a draw or a loss, a tie to a loss. Slower wins and longer losses are not
slips — the value is what matters.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
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
                    "to move": player_name(game, step.to_move), "value": step.value,
                    "remoteness": "—" if step.remoteness is None else str(step.remoteness), "note": note})
    return out


def _back(spec: str) -> None:
    trail = state.history()
    if len(trail) > 1:
        trail.pop()
        state.set_position(spec, trail[-1].key)


def _clear() -> None:
    trail = state.history()
    del trail[:-1]


def panel(game: Game, spec: str) -> None:
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
    ).apply(lambda col: ["color: #b00020; font-weight: bold" if str(v).startswith("⚠") else "" for v in col],
            subset=["note"])
    st.dataframe(styled, hide_index=True, width="stretch")
    left, right, _ = st.columns([1, 1, 4])
    left.button("◀ Back", on_click=_back, args=(spec,), disabled=len(trail) < 2, key="history_back")
    right.button("Clear history", on_click=_clear, disabled=len(trail) < 2, key="history_clear")
