"""Solved graphs for the page, from the process-wide build registry (explorer/ui/builds.py).

Every session asks the same registry, so a game is built once however many
visitors open it, and a finished graph opens in milliseconds for the next one.
A game whose size estimate exceeds the page's limits (GAMEGRAPH_UI_MAX_POSITIONS,
GAMEGRAPH_UI_MEMORY) is refused before anything is built, with the estimate.
While a build runs the page shows how long it has taken; when the browser
session ends (the tab is closed) or the visitor moves on, the page stops
waiting and the registry cancels a build nobody else waits for.
"""

from __future__ import annotations

import time

import streamlit as st

from explorer.core import settings
from explorer.games import Game, parse_spec
from explorer.solved import SolvedGraph, cache_path
from explorer.ui import builds

POLL_SECONDS = 0.25


def max_positions() -> int:
    return settings.ui_max_positions()


def session_alive() -> bool:
    """False once this script run's browser session has disconnected (the tab was closed).

    Without a Streamlit runtime (AppTest, bare mode) there is no connection to lose.
    """
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.scriptrunner import get_script_run_ctx
        ctx = get_script_run_ctx()
        if ctx is None or not Runtime.exists():
            return True
        return Runtime.instance().is_active_session(ctx.session_id)
    except Exception:  # an internal API that moved: never stop a page because of it
        return True


def _wait(build: builds.Build, on_tick=None) -> SolvedGraph:
    """Wait for `build` while the session lives; `on_tick(seconds)` lets the page show progress (and lets
    Streamlit stop the run when the visitor moves on). The caller releases the build."""
    began = time.monotonic()
    while not build.wait(POLL_SECONDS):
        if not session_alive():
            st.stop()  # the tab is gone: stop waiting; the registry cancels the build if nobody else waits
            raise builds.BuildCancelled("the browser session ended")  # where st.stop() does not raise (bare mode)
        if on_tick is not None:
            on_tick(time.monotonic() - began)
    return build.outcome()


def by_id(game_id: str) -> SolvedGraph:
    """The solved graph of a canonical game id, with no page output (for cached helpers)."""
    game = parse_spec(game_id)
    registry = builds.registry()
    build = registry.request(game)
    try:
        return _wait(build)
    finally:
        registry.release(build)


def solved(game: Game) -> SolvedGraph:
    """The solved graph of `game`; while it is built the page shows a status box with the time taken."""
    registry = builds.registry()
    build = registry.request(game)  # GraphTooLarge at once when the estimate is over the page's limits
    # One placeholder on every run, whether it shows a status box, a spinner or nothing: so every
    # element below keeps its place in the page, and Streamlit updates the canvas instead of
    # drawing it anew when the first run of a game showed a box and the next does not.
    slot = st.empty()
    try:
        if build.wait(0.05):   # finished (or refused by the child) already: no status box
            result = build.outcome()
        elif cache_path(game, game.has_symmetry()).exists():
            with slot.container(), st.spinner(f"Opening {game.display_name}…"):
                result = _wait(build)
        else:
            with slot.container():
                result, summary = _wait_with_status(game, build)
            # The finished box would push the canvas 54 px down on the game's first visit (issue 35: the graph
            # is the stage): its line becomes a toast, which takes no room, and the placeholder stays, empty.
            slot.empty()
            st.toast(summary, icon=":material/check_circle:")
    finally:
        registry.release(build)
    return result


def _wait_with_status(game: Game, build: builds.Build) -> tuple[SolvedGraph, str]:
    """Wait under a status box with the time taken; (the graph, the line that says it is ready)."""
    verb = "Generating and solving"
    shared = " (another visitor started it; this page waits for the same build)" if build.waiters > 1 else ""
    with st.status(f"{verb} {game.display_name}…", expanded=True) as status:
        estimate = f" — {build.estimate.describe()}" if build.estimate else ""
        st.write(f"Generating every reachable position, then solving them all by retrograde analysis{estimate}.{shared}")
        shown = [0]

        def tick(seconds: float) -> None:
            if int(seconds) > shown[0]:
                shown[0] = int(seconds)
                status.update(label=f"{verb} {game.display_name}… {shown[0]} s")

        try:
            result = _wait(build, tick)
        except Exception:
            status.update(label=f"{verb} {game.display_name} failed", state="error", expanded=False)
            raise
        seconds = time.monotonic() - build.started
        summary = (f"{game.display_name}: {result.graph.num_positions:,} positions, "
                   f"{result.graph.num_moves:,} moves, ready in {seconds:.2f} s")
        status.update(label=summary, state="complete", expanded=False)
    return result, summary
