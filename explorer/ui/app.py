"""The gamegraph explorer page (run by `gamegraph ui`, i.e. `streamlit run explorer/ui/app.py`).

Flow of one run: the URL names the game and the position (`?game=&pos=`),
the sidebar can change either, the solved graph comes from the process-wide
cache, and the panels draw from it. Each panel is guarded: a user mistake is
one `st.error` line, never a traceback, and the rest of the page still works.
Only the open tab runs (tabs rerun on change), so a heavy panel costs nothing
until it is looked at.
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

# `streamlit run` puts this file's folder on sys.path, not the repository: make `explorer` importable.
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import streamlit as st  # noqa: E402

from explorer.core import settings  # noqa: E402
from explorer.core.errors import GameGraphError, GraphTooLarge  # noqa: E402
from explorer.games import Game, parse_spec  # noqa: E402
from explorer.solved import SolvedGraph  # noqa: E402
from explorer.ui import (analysis_panel, backend as backends, cgt_panel, console, downloads, graphs,  # noqa: E402
                         history, loading, overview, picker, play_panel, position, state)
from explorer.ui.widgets import echo, error, guarded, info, page_icon, stage_head  # noqa: E402
from explorer.ui import whole_graph  # noqa: E402



@dataclass
class View:
    """What every panel draws from: the game, its spec, the solved graph, the position and the backend."""

    game: Game
    spec: str
    solved: SolvedGraph
    node: int
    key: str
    backend: backends.Backend


# (tab label, what it is called in an error message, how it is drawn)
PANELS: list[tuple[str, str, Callable[[View], object]]] = [
    ("History", "The history", lambda v: history.panel(v.game, v.spec, v.solved)),
    ("Neighbourhood", "The neighbourhood", lambda v: graphs.neighbourhood(v.game, v.spec, v.solved, v.key, v.backend)),
    ("Cycles", "The cycles", lambda v: graphs.cycles(v.game, v.spec, v.solved, v.key, v.backend)),
    ("Best line", "The best line", lambda v: graphs.best_line(v.game, v.spec, v.solved, v.key, v.backend)),
    ("Strategy chart", "The strategy chart", lambda v: overview.chart_panel(v.game, v.spec, v.solved, v.node)),
    ("Statistics", "The statistics", lambda v: overview.stats_panel(v.solved, v.backend)),
    ("Whole graph", "The whole graph", lambda v: whole_graph.panel(v.game, v.spec, v.solved, v.node)),
    ("Cypher console", "The Cypher console",
     lambda v: console.panel(v.backend, v.solved.graph.graph_id, v.key, v.solved.graph.key(0))),
    ("Downloads", "The downloads", lambda v: downloads.panel(v.game, v.spec, v.solved, v.node, v.backend)),
    ("Sum of games", "The sum builder", lambda v: cgt_panel.sum_builder(v.game, v.solved)),
    ("Play", "Play", lambda v: play_panel.panel(v.game, v.spec, v.solved, v.backend)),
    ("Draw map", "The draw map", lambda v: analysis_panel.draw_map(v.game, v.spec, v.solved, v.key)),
    ("Survey", "The survey", lambda v: analysis_panel.survey_panel(v.game)),
    ("Compare rules", "The comparison", lambda v: analysis_panel.diff_panel(v.game, v.spec, v.solved)),
]


# The tabs (issue 35): fourteen views in six tabs, so that the bar is one line at 1,440 px (and at
# 1,000), with the graph first: a game opens on its neighbourhood canvas, above the fold. A tab of
# several views picks one with a row of buttons under the bar. A view's name is still the `view=`
# value of the URL, so every link made before keeps opening the same view.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Graph", ("Neighbourhood", "Best line", "Cycles", "Whole graph")),
    ("Play", ("Play",)),
    ("History", ("History",)),
    ("Analysis", ("Statistics", "Strategy chart", "Draw map", "Compare rules", "Sum of games", "Survey")),
    ("Cypher console", ("Cypher console",)),
    ("Downloads", ("Downloads",)),
)
DEFAULT_VIEW = "Neighbourhood"
OPENED_ON = "tab_opened_on"  # session state: the tab the session opened on, the tab bar's default (`_views`)


def _views(view: View, shown: list[tuple[str, str, Callable[[View], object]]], asked: str) -> None:
    """The tab bar and the open tab's view: only the open tab runs. `asked` is the view to open
    first (the URL's, else DEFAULT_VIEW); the URL names the view shown."""
    available = {name: (what, draw) for name, what, draw in shown}
    groups = [(group, [name for name in names if name in available]) for group, names in GROUPS]
    groups = [(group, names) for group, names in groups if names]
    group_of = {name: group for group, names in groups for name in names}
    # The tab bar's default is part of its identity in Streamlit (its element id): a default that followed
    # the URL's view made a new tab bar on the run after every tab change, and the next click, sent to the
    # old one, was lost (every other tab click did nothing). So the session keeps the tab it opened on.
    labels = [group for group, _ in groups]
    if st.session_state.get(OPENED_ON) not in labels:
        st.session_state[OPENED_ON] = group_of[asked]
    tabs = st.tabs(labels, key="tab", default=st.session_state[OPENED_ON], on_change="rerun")
    for tab, (group, names) in zip(tabs, groups):
        with tab:
            if not tab.open:
                continue
            chosen = names[0]
            if len(names) > 1:
                slot = f"view_{group}"
                if st.session_state.get(slot) not in names:  # first time, or another game's
                    st.session_state[slot] = asked if asked in names else names[0]
                chosen = st.segmented_control(group, names, key=slot, required=True, label_visibility="collapsed")
            if chosen == DEFAULT_VIEW:
                if st.query_params.get("view") != DEFAULT_VIEW:  # a link's view=Neighbourhood is kept (issue 35)
                    st.query_params.pop("view", None)
            else:
                st.query_params["view"] = chosen
            what, draw = available[chosen]
            with guarded(what):
                draw(view)


def _not_for(view: View) -> dict[str, str]:
    """{tab label: why it is left out} for the tabs that have nothing to show for this game.

    Thirteen tabs do not fit a page; a game shows only those that apply (a URL naming
    another says why it is not there). O(V) for the draw count, once per run."""
    from explorer.cgt.evaluate import supports_cgt
    from explorer.core.values import Value

    game, name = view.game, view.game.display_name
    reasons = {}
    if not view.solved.on_cycle.any():
        reasons["Cycles"] = f"no position of {name} lies on a cycle: once play leaves a position, it never comes back"
    if overview.chart_refusal(game):
        reasons["Strategy chart"] = overview.chart_refusal(game)
    if not supports_cgt(game):
        reasons["Sum of games"] = (f"{name} has no combinatorial values: sums of games are for short partizan or "
                                   "impartial games such as toads-and-frogs, domineering and nim")
    if not (view.solved.solution.value == int(Value.DRAW)).any():
        reasons["Draw map"] = f"{name} has no drawn positions"
    if analysis_panel.survey_refusal(game):
        reasons["Survey"] = analysis_panel.survey_refusal(game)
    if not analysis_panel.has_other_rule_sets(game):
        reasons["Compare rules"] = f"{name} has no parameters, so no other rule set to compare with"
    return reasons


def _game() -> tuple[Game | None, str]:
    """(game, its spec) from the URL; (None, why) for a spec that names no game."""
    try:
        game = parse_spec(state.url_game())
    except GameGraphError as exc:
        return None, str(exc)
    return game, game.display_name


def _bad_spec(why: str) -> None:
    """A link whose game spec is bad: one escaped line saying so, and the picker to choose a game, set
    to the game the spec names with its first preset (else the default game). No other game is shown
    in its place: the user would take it for the game asked."""
    error(f"The game in the link is not valid: {why}. Choose a game in the sidebar.")
    suggested = picker.named_game(state.url_game())
    with st.sidebar:
        st.header("gamegraph")
        picker.sidebar(suggested)
    st.markdown(f"Or open [{suggested.display_name}]({state.link(suggested.display_name)}) as the sidebar shows it.")


def _backend_line(chosen: backends.Backend) -> None:
    """Which backend answers, and why Neo4j is not it when it is not."""
    if chosen.kind == "neo4j":
        st.caption(f"Backend: **{chosen.description}**")
    else:
        st.caption(f"Backend: **{chosen.description}**. Neo4j is not used: {chosen.neo4j_reason}")


def _backend(solved: SolvedGraph) -> backends.Backend:
    """The backend for this game; if even the mirror cannot be made, the solved arrays answer."""
    try:
        return backends.choose(solved.graph.graph_id, solved.graph.num_positions, solved=solved)
    except GameGraphError as exc:
        return backends.Backend("arrays", f"the solved arrays in memory (the networkx mirror failed: {exc})",
                                neo4j_reason=backends.connection().reason or "it does not hold this game")


def main() -> None:
    st.set_page_config(page_title="gamegraph explorer", page_icon=page_icon(), layout="wide")
    # The link's parameters the page does not read, those given twice, an empty game= or pos=: one line each, and
    # the address made what the page reads (each then checked by its reader: a bad value is its own line)
    for line in (state.url_unknown(), state.url_repeated(), state.url_empty()):
        if line:
            info(line)
    game, spec = _game()
    if game is None:
        _bad_spec(spec)
        return
    with st.sidebar:
        st.header("gamegraph")
        picker.sidebar(game)
    from explorer.ui import implicit_page
    if implicit_page.wanted(game):  # too large for a graph: the value file answers
        implicit_page.page(game, spec)
        return
    try:
        solved = loading.solved(game)
    except GraphTooLarge as exc:  # the command that solves it, how long, and the presets that open now
        implicit_page.too_large(game, str(exc))
        return
    except GameGraphError as exc:
        error(str(exc))
        st.markdown(f"[Open {state.DEFAULT_GAME} instead]({state.link(state.DEFAULT_GAME)})")
        return
    if st.query_params.get("game") != spec:
        st.query_params["game"] = spec  # the URL always names the game the page shows

    asked = state.url_position()
    node, problem = position.resolve(solved, asked)
    if problem:
        error(f"{problem}. Showing the start position instead.")
        st.query_params["pos"] = solved.graph.key(node)  # the URL names the position shown
    key = solved.graph.key(node)
    # A symmetric twin keeps its orientation on the board, so a move followed there is drawn as named;
    # every question is still asked of its canonical key (position.shown).
    shown_text = game.format(position.shown(solved, node))
    twin = shown_text if shown_text != key else None
    record = solved.record(node)
    state.record_visit(state.Step(shown_text, record["to_move"], record["value"], record["remoteness"],
                                  state.pending_move(), game.id))

    with st.sidebar:
        st.divider()
        st.subheader("Position")
        with guarded("The position chooser"):
            position.chooser(game, spec, solved)
        st.divider()
        chosen = _backend(solved)
        _backend_line(chosen)  # in the sidebar beside its button: the page's head is the canvas's room
        st.button("Check Neo4j again", on_click=backends.forget, key="neo4j_recheck",
                  help="look for a Neo4j server again (after starting one or loading this game)")

    stage_head(game.display_name, game.description)
    if twin:
        st.caption(f"`{twin}` is stored as its symmetric equivalent `{key}` (same value, same moves up to "
                   "symmetry); the board keeps the orientation the moves gave it.")
    view = View(game, spec, solved, node, key, chosen)
    left_out = _not_for(view)
    asked_view = st.query_params.get("view")
    groups = dict(GROUPS)
    if asked_view in groups:  # a tab's name (view=Analysis): its first view this game has
        asked_view = next((name for name in groups[asked_view] if name not in left_out), DEFAULT_VIEW)
        st.query_params["view"] = asked_view
    if asked_view in left_out:
        info(f"No {asked_view} tab here: {left_out[asked_view]}.")
        del st.query_params["view"]
    elif asked_view is not None and asked_view not in {name for name, _, _ in PANELS}:
        info(f"There is no tab called {echo(asked_view)}; the tabs are below (the page opens on {DEFAULT_VIEW}).")
        del st.query_params["view"]
    shown = [panel for panel in PANELS if panel[0] not in left_out]
    asked = asked_view if asked_view in {name for name, _, _ in shown} else DEFAULT_VIEW
    _views(view, shown, asked)

    # The explored position under the views (issue 35: the canvas opens above the fold). While the Play
    # tab is open the game being played is the page's subject: the explored position folds away.
    explored = (st.expander(f"Explored position `{key}` (not the game you are playing: that is in the Play tab)")
                if play_panel.playing() else st.container())
    with explored:
        with guarded("The position"):
            position.header(game, solved, node, spec)
        with guarded("The moves"):
            position.moves_table(game, spec, solved, node)
        with guarded("The combinatorial value"):
            cgt_panel.value_section(game, solved, node)
        with guarded("The draw analysis"):
            analysis_panel.draw_section(game, solved, node)


# Opt-in server-side measurement of each script run (bench/bench_ui.py sets it): the run's wall time
# and the CPU time of the script's thread go, one JSON line per run, to ui-runs.jsonl in the state
# folder; PROFILE also keeps each run's cProfile stats there (ui-profile/run-N.prof), to see what
# dominates a rerun. Both are off by default: a user's page writes nothing.
RUN_TIMES_FILE = "ui-runs.jsonl"
PROFILE_FOLDER = "ui-profile"


@contextmanager
def measured(what: str):
    """Time (and, with GAMEGRAPH_UI_PROFILE=1, profile) one script run, if asked for; the page's own
    errors pass through untouched, and a log that cannot be written is one warning in the server's log."""
    timing, profiling = settings.ui_run_times(), settings.ui_profile()
    if not (timing or profiling):
        yield
        return
    import cProfile

    import marshal

    from explorer.core.private import append_private_line, atomic_private_file, private_state_dir
    from explorer.ui.widgets import log

    profiler = cProfile.Profile() if profiling else None
    began, cpu_began, ended_by = time.perf_counter(), time.thread_time(), "end"
    if profiler:
        profiler.enable()
    try:
        yield
    except BaseException as exc:  # Streamlit stops a run for a rerun or a stop by raising through it
        ended_by = type(exc).__name__
        raise
    finally:
        if profiler:
            profiler.disable()
        seconds, cpu = time.perf_counter() - began, time.thread_time() - cpu_began
        run = {"what": what, "ended": time.time(), "seconds": round(seconds, 4), "cpu": round(cpu, 4),
               "ended_by": ended_by, "view": st.query_params.get("view"), "game": st.query_params.get("game")}
        try:
            folder = private_state_dir()
            if profiler:
                profiles = folder / PROFILE_FOLDER
                taken = sum(1 for _ in profiles.glob("run-*.prof")) if profiles.is_dir() else 0
                run["profile"] = f"{PROFILE_FOLDER}/run-{taken}.prof"
                profiler.create_stats()  # what Profile.dump_stats writes, through the one private writer
                with atomic_private_file(folder / run["profile"]) as out:
                    marshal.dump(profiler.stats, out)
            append_private_line(folder / RUN_TIMES_FILE, json.dumps(run))
        except (OSError, GameGraphError) as exc:
            log.warning("the run's server time was not logged: %s", exc)


with measured("page"):
    main()
