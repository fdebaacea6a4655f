"""Solved graphs for the page: built once per server process, with progress shown while they are made.

`st.cache_resource` keeps one SolvedGraph per game id for every session, so
a preset opens in milliseconds after the first visit. The UI refuses graphs
above UI_MAX_POSITIONS (GAMEGRAPH_UI_MAX_POSITIONS to change it): a browser
click should not start an hour of generation on a shared server.
"""

from __future__ import annotations

import os
import time

import streamlit as st

from explorer.errors import GraphTooLarge
from explorer.games import Game, parse_spec
from explorer.solved import SolvedGraph, cache_path, load_or_build

DEFAULT_UI_MAX_POSITIONS = 3_000_000
_ready: set[str] = set()   # game ids this process has already built or opened


def max_positions() -> int:
    try:
        return int(os.environ.get("GAMEGRAPH_UI_MAX_POSITIONS") or DEFAULT_UI_MAX_POSITIONS)
    except ValueError:
        return DEFAULT_UI_MAX_POSITIONS


@st.cache_resource(show_spinner=False, max_entries=16)
def by_id(game_id: str) -> SolvedGraph:
    """The solved graph of a canonical game id, with no page output (for cached helpers)."""
    game = parse_spec(game_id)
    try:
        return load_or_build(game, max_positions=max_positions())
    except GraphTooLarge:
        raise GraphTooLarge(
            f"{game.display_name} has more than {max_positions():,} positions, the most this page builds "
            "(GAMEGRAPH_UI_MAX_POSITIONS sets it); solve it with `gamegraph solve` instead, "
            "or choose smaller parameters") from None


def solved(game: Game) -> SolvedGraph:
    """The solved graph of `game`; the first request in this process shows a status box while it is made."""
    if game.id in _ready:
        return by_id(game.id)
    if cache_path(game, game.has_symmetry()).exists():
        with st.spinner(f"Opening {game.display_name}…"):
            result = by_id(game.id)
        _ready.add(game.id)
        return result
    verb = "Generating and solving"
    with st.status(f"{verb} {game.display_name}…", expanded=True) as status:
        st.write("Generating every reachable position, then solving them all by retrograde analysis.")
        started = time.perf_counter()
        try:
            result = by_id(game.id)
        except Exception:
            status.update(label=f"{verb} {game.display_name} failed", state="error", expanded=False)
            raise
        seconds = time.perf_counter() - started
        status.update(label=f"{game.display_name}: {result.graph.num_positions:,} positions, "
                            f"{result.graph.num_moves:,} moves, ready in {seconds:.2f} s",
                      state="complete", expanded=False)
    _ready.add(game.id)
    return result
