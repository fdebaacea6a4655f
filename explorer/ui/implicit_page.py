"""The explorer page for games too large for a graph: answered from a value file, with boards and play.

Used instead of the graph page when the game is solved into a value file
(`gamegraph solve SPEC --implicit` or `--tiered`) and too large for the page's
graph: its size estimate (its ranking when it has none) exceeds the page's limit,
GAMEGRAPH_UI_MAX_POSITIONS (3,000,000 by default; set it lower to see this page on
a small game, e.g. `GAMEGRAPH_UI_MAX_POSITIONS=1000` for dobutsu:small). That is
Dobutsu shogi, Dodgem 5x5, Connect Four 6x4, Teeko.

It shows one position as a board (explorer/ui/boards through explorer.ui.drawing, as
the graph page draws it): every legal move is a link on the board, coloured by its
value for the mover with its remoteness in the tooltip; the same moves in a table
with links to the successors; the best line as boards in a row, each with the move
that led to it; a Neighbourhood tab, the canvas of the graph page (explorer/ui/canvas/)
over a small part materialised around the position (explorer.solved.materialise: values,
remoteness and optimal moves read from the file, grown when a node at its edge is
expanded, up to the canvas's limit); and a Play tab against the perfect player
(explorer/ui/play_panel.py over the value file). Everything is read from the
memory-mapped value file, a few chunk reads per position: nothing else is materialised.
Cycles, draw levels and the console need the whole graph and are not offered here;
`gamegraph load SPEC --around POSITION --radius K` loads a part into Neo4j.
"""

from __future__ import annotations

import os
from typing import Any

import streamlit as st

from explorer.core.errors import GameGraphError, GraphTooLarge, counted
from explorer.games import Game
from explorer.ui import drawing, play_panel, state
from explorer.ui.widgets import echo, error, guarded, info, md_escape, player_name, stage_head
from queries.arrays_backend import ArraysBackend, SolvedView

# The page's graph limit in positions; None: GAMEGRAPH_UI_MAX_POSITIONS (explorer.core.settings), the
# limit over which the graph page refuses a game. Tests lower it.
LIMIT: int | None = None
LINE_BOARDS = 24          # boards of the best line shown at first (four rows)
LINE_MOST = 200           # the longest best line offered (Dobutsu shogi's start: 78 plies)
BOARDS_PER_ROW = 6
HOOD_TAB = "Neighbourhood"
TABS = [HOOD_TAB, "Best line", play_panel.TAB]  # the canvas first, as on the graph page (issue 35)
HOOD_START = (2, "both", True)  # the canvas's first k, direction and move labels (its controls keep them after)
PART = "implicit_part"          # session state: the part on the canvas, kept while it grows


def _limit() -> int:
    from explorer.core import settings

    return LIMIT if LIMIT is not None else settings.ui_max_positions()


def wanted(game: Game) -> bool:
    """Solved into a value file and too large for the page's graph. Without the file the usual page
    refuses at once with the size estimate and the command that makes the file (explorer.ui.builds)."""
    from explorer.solved import GRAPH, GRAPH_FIRST, choose

    try:
        return choose(game, GRAPH_FIRST, _limit()) != GRAPH  # explorer.solved decides how a game is read
    except GameGraphError:  # a bad GAMEGRAPH_UI_MAX_POSITIONS: the graph page reports it in one line
        return False


# -- how many positions ----------------------------------------------------------------------------
# A value file ranks every index of the game's ranking, reachable from the start or not (a tiered solve ranks
# whole tiers): its count of legal positions is not the game's size. The positions reachable from the start
# are counted by explorer.implicit.reachable, the implicit mode's walk; at once for a ranking of at most
# REACH_AT_ONCE indices, else when asked (the largest take 30-100 s and several hundred MB), then kept.
REACH_AT_ONCE = 1_000_000
_REACHABLE: dict[str, int] = {}   # game id -> positions reachable from its start, counted in this process


def reachable_count(game: Game) -> int | None:
    """The positions reachable from the game's start, when counted already or small enough to count now; None
    otherwise. O(reachable positions + their moves) the first time, O(1) after."""
    if game.id not in _REACHABLE and game.index_space() <= REACH_AT_ONCE:
        count_reachable(game)
    return _REACHABLE.get(game.id)


def count_reachable(game: Game) -> None:
    from explorer import implicit

    _REACHABLE[game.id] = int(implicit.reachable(game)["positions"])


REACH_FAILED = "implicit_reach_failed"  # session state: why the count asked for failed, shown once


def _count_clicked(game: Game) -> None:
    """The button's callback: the count, or one line saying why not (a callback's exception would be a traceback)."""
    try:
        count_reachable(game)
    except GameGraphError as exc:
        st.session_state[REACH_FAILED] = str(exc)
    except MemoryError:
        st.session_state[REACH_FAILED] = "out of memory: the walk keeps a bit per index and two levels of positions"


def solved_sentence(game: Game, values: Any) -> str:
    """What the value file holds, in honest numbers: the legal positions of the ranking it solved (every index,
    reachable or not) and, when counted, how many of them are reachable from the start."""
    meta = values.meta
    ranked = (f"{meta['positions']:,} legal positions solved: every index of the ranking ({meta['index_space']:,}) "
              "that holds a position, reachable from the start or not")
    reached = reachable_count(game)
    if reached is None:
        return ranked + "; the button below counts the reachable ones"
    folded = " (a position and its colour-swapped twin count once)" if getattr(values, "half", None) else ""
    return f"{reached:,} positions reachable from the start{folded}, of {ranked}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _position(game: Game, values: Any) -> Any:
    """The URL's position, or the start with one line saying why the URL's was refused."""
    asked = state.url_position()
    if not asked:
        return game.start()
    try:
        position = game.parse(asked)
        values.value(position)   # a position the file holds as no legal one: GameGraphError
        return position
    except GameGraphError as exc:
        error(f"{exc}. Showing the start position instead.")
        return game.start()


def page(game: Game, spec: str) -> None:
    from explorer.solved import TIERED, VALUES_ONLY, open_solved

    stage_head(game.display_name, game.description)
    try:
        stored = open_solved(game, VALUES_ONLY)  # a tiered solve or the implicit mode's value file
    except GameGraphError as exc:
        error(f"{exc} (the game is too large for a graph: the page reads its value file)")
        return
    values = stored.values
    source = "the tiered solve" if stored.kind == TIERED else "the value file of the implicit mode"
    position = _position(game, values)
    if st.query_params.get("game") != spec:
        st.query_params["game"] = spec
    asked_view = st.query_params.get("view")
    if asked_view is not None and asked_view not in TABS:
        info(f"No {echo(asked_view)} tab for a game answered from a value file; the tabs are below.")
        del st.query_params["view"]
    tabs = st.tabs(TABS, key="view", bind="query-params")
    with tabs[0]:
        if tabs[0].open:
            with guarded("The neighbourhood"):
                neighbourhood(game, spec, values, position)
    with tabs[1]:
        if tabs[1].open:
            with guarded("The best line"):
                best_line(game, spec, values, position)
    with tabs[2]:
        if tabs[2].open:
            with guarded("Play"):
                play_panel.panel(game, spec, values)
    # What the file holds, under the views (issue 35: three lines above the tabs kept the canvas out of the
    # first screen).
    st.caption(f"Answered from {source}: {solved_sentence(game, values)}; no graph in memory. The Neighbourhood "
               "tab draws a small part around a position; cycles, draw levels and the Cypher console need the "
               "whole graph and are not offered for this game.")
    if reachable_count(game) is None:
        st.button("Count the positions reachable from the start", key="implicit_reach", on_click=_count_clicked,
                  args=(game,), help="walks the game from its start over its compiled rules, with no graph: "
                                     "seconds for a few million indices, a minute or two for the largest games")
    failed = st.session_state.pop(REACH_FAILED, None)
    if failed:
        error(f"The positions reachable from the start could not be counted: {failed}")
    # The explored position under the views (issue 35: the canvas first). While the Play tab is open the
    # game being played is the page's subject: the explored position folds away.
    key = game.format(position)
    explored = (st.expander(f"Explored position `{key}` (not the game you are playing: that is in the Play tab)")
                if play_panel.playing() else st.container())
    with explored:
        with guarded("The position"):
            _header(game, spec, values, position)
        with guarded("The moves"):
            _moves(game, spec, values, position)


def _header(game: Game, spec: str, values: Any, position: Any) -> None:
    """The board with every move on it (a link, coloured by its value), and the position's value."""
    from explorer.ui.position import board, value_sentence

    record = values.record(position)
    left, right = st.columns([3, 2], vertical_alignment="center")
    with left:
        links, move_values = {}, {}
        if not record["terminal"]:
            for move in game.moves(position):
                links.setdefault(move.label, state.link(spec, game.format(move.position)))
                child = values.value(move.position).for_previous_player()
                move_values.setdefault(move.label, (str(child), values.remoteness(move.position)))
        board(game, spec, position, links, move_values)
    with right:
        mover = player_name(game, record["to_move"])
        st.markdown(f"### `{record['key']}`")
        # The value once, as the graph page shows it (explorer.ui.position.header); a game over says so in
        # the summary below.
        turn = "whose turn it would be" if record["terminal"] else "to move"  # a finished game has no mover
        st.markdown(f'<div class="gg-value">Value for {mover} ({turn}): '
                    f'{drawing.value_badge(record["value"], record["remoteness"])}</div>', unsafe_allow_html=True)
        st.markdown(value_sentence(game, position, record["to_move"], record["value"], record["remoteness"],
                                   record["terminal"]))
        if record["key"] != game.format(game.start()):
            st.button("Back to the start", key="implicit_start", on_click=state.go,
                      args=(spec, game.format(game.start())))


def _moves(game: Game, spec: str, values: Any, position: Any) -> None:
    """Every move, best first, with its value and remoteness for the mover and a link to its result."""
    moves = values.moves(position)
    if not moves:
        return
    mover = player_name(game, game.to_move(position))
    lines = [f"| | move | result | value for {mover} | remoteness |", "|---|---|---|---|---:|"]
    for m in moves:
        r = "" if m["remoteness"] is None else str(m["remoteness"])
        lines.append(f"| {'★' if m['optimal'] else ''} | {_cell(m['label'])} | "
                     f"[`{_cell(m['to'])}`]({state.link(spec, m['to'])}) | {drawing.value_badge(m['value'])} | {r} |")
    st.markdown("\n".join(lines), unsafe_allow_html=True)
    st.caption("★ optimal (keeps the value: the fastest win, the slowest loss). Moves reaching the same "
               "position are listed once.")


def best_line(game: Game, spec: str, values: Any, position: Any) -> None:
    """The best line from the position as boards in a row, each with the move that led to it and the value
    for the player to move there. O(length x moves) chunk reads."""
    shown = st.number_input("Moves shown", 1, LINE_MOST, LINE_BOARDS, key="implicit_line_length",
                            help="the line stops earlier where the game ends or a position repeats")
    line = values.best_line(position, limit=int(shown))
    moves = len(line) - 1
    first = line[0]
    mover, other = player_name(game, first["to_move"]), player_name(game, 1 - first["to_move"])
    if moves == 0:
        st.info("The game is over here: there is no line to play.")
        return
    whole = first["remoteness"] is not None and moves == first["remoteness"]
    length = counted(moves, "move") + ("" if whole or first["value"] == "draw" else f" (of {first['remoteness']})")
    st.markdown({"win": f"**{mover} wins**: {mover} takes the fastest win, {other} resists longest. "
                        f"Shown: {length}.",
                 "loss": f"**{other} wins**: {other} takes the fastest win, {mover} resists longest. "
                         f"Shown: {length}.",
                 "tie": f"**A tie** with best play on both sides. Shown: {length}."}.get(
        first["value"], f"**A draw: nobody can force a win.** Shown: {length}, until a position repeats."))
    for row in range(0, len(line), BOARDS_PER_ROW):
        cols = st.columns(BOARDS_PER_ROW)
        for col, (i, step) in zip(cols, enumerate(line[row:row + BOARDS_PER_ROW], row)):
            with col:
                before = line[i - 1].get("move") if i else None
                st.markdown(unbroken(f"**{i}.** " + (md_escape(before) if before else "here")), unsafe_allow_html=True)
                picture = drawing.position_svg(game, game.parse(step["key"]))
                if picture:
                    st.image(picture, width="stretch")
                else:
                    st.code(step["key"])
                who = player_name(game, step["to_move"])
                link = unbroken_link(step["key"], state.link(spec, step["key"]))
                st.markdown(f"{link}  \n{who}: {drawing.value_badge(step['value'], step['remoteness'])}",
                            unsafe_allow_html=True)


UNBROKEN = '<span class="gg-notation" style="white-space: nowrap">{}</span>'
# A key may be wider than its column (a Dobutsu key in a column of six): it breaks only between the board's
# rows, after a "/" (<wbr>), never inside a row. Streamlit's inline code breaks anywhere (its class sets
# white-space: pre-wrap and word-break: break-word), whatever its parent says, so the code carries its own style.
ROWS_ONLY = '<span class="gg-key">{}</span>'
ROWS_ONLY_CODE = ('<a href="{href}" target="_blank" rel="noopener noreferrer"><code style="white-space: normal; '
                  'word-break: keep-all; overflow-wrap: normal; font-size: 0.72rem">{key}</code></a>')


def unbroken(notation: str) -> str:
    """A move in the game's notation (markdown), kept on one line: a caption wraps between words, never
    inside a move such as `E a1-b2`."""
    return UNBROKEN.format(notation)


def unbroken_link(key: str, href: str) -> str:
    """A position's key as a link that breaks, when its column is too narrow, only between the board's rows
    (after a "/"), never inside one: `B|-/.le/<wbr>...` and so on."""
    import html

    rows = html.escape(key).replace("/", "/<wbr>")
    return ROWS_ONLY.format(ROWS_ONLY_CODE.format(href=html.escape(href), key=rows))


# -- the Neighbourhood tab ---------------------------------------------------------------------
class PartQueries(ArraysBackend):
    """The canvas's queries over a part materialised from the value file (explorer.solved.SolvedPart): the
    position queries over its arrays (queries.arrays_backend). Asked for the 1-move neighbourhood of a
    position whose moves leave the part (the canvas expanding a node at its edge), it first grows the part
    around that position, in place, so the canvas, which holds the same part, finds the new positions; past
    the part's limit the expansion says plainly that the part ends there."""

    def __init__(self, part: Any):
        super().__init__(part)
        self.part = part

    def run(self, name: str, args: dict[str, Any]) -> Any:
        if name == "neighbourhood" and args.get("k") == 1:
            key, direction = args["position"], args.get("direction", "both")
            if not self.part.complete(key, direction):
                try:
                    self.part.grow(key, 1, direction)
                except GraphTooLarge:
                    raise GameGraphError(f"the part materialised from the value file holds at most "
                                         f"{self.part.limit:,} positions, so it ends at {key}: open that position "
                                         "to draw the part around it") from None
                self.G = SolvedView(self.part)  # the view caches keys and moves: read the grown arrays
        return super().run(name, args)


def neighbourhood(game: Game, spec: str, values: Any, position: Any) -> None:
    """The canvas of the graph page (explorer.ui.canvas) over the part within k moves of the position,
    materialised from the value file (explorer.solved.materialise) with at most the canvas's MAX_NODES
    positions: past that, the largest radius that fits, said in one line. The canvas's own controls choose
    k and the direction; the part is kept in the session while expansions grow it."""
    from explorer.core.errors import shell_hint
    from explorer.solved import PART_MAX_RADIUS, materialise
    from explorer.ui import canvas
    from explorer.ui.backend import Backend

    key = game.format(position)
    from explorer.ui import data

    # The k the canvas will use on this run: a link's k= (applied once by the canvas's controls, which
    # run after this), else the box's, else the start's; so that the part is made to that radius.
    asked = state.link_k_to_apply(data.MAX_K)
    k = asked if asked is not None else int(st.session_state.get("hood_k", HOOD_START[0]))
    direction = st.session_state.get("hood_dir", HOOD_START[1])
    radius = min(k, PART_MAX_RADIUS)
    scope = (game.id, key, radius, direction)
    kept = st.session_state.get(PART)
    if kept is None or kept[0] != scope:
        note = "" if k <= PART_MAX_RADIUS else f"A part reaches {PART_MAX_RADIUS} moves at most. "
        try:
            part = materialise(values, position, radius, direction, limit=canvas.MAX_NODES)
        except GraphTooLarge as exc:
            fits = getattr(exc, "fits", 0)
            part = materialise(values, position, fits, direction, limit=canvas.MAX_NODES)
            note = (f"{exc}: the canvas starts from the positions within {fits} "
                    f"{'move' if fits == 1 else 'moves'}; expand its nodes to go further. ")
        kept = (scope, part, note)
        st.session_state[PART] = kept
    _, part, note = kept
    # Always one caption here: an element that came and went above the canvas would make Streamlit mount it anew.
    st.caption(note + f"A part of {game.display_name} materialised from the value file around `{key}`: every "
               "value, remoteness and best move is the whole game's; cycles are those inside the part, and "
               "expanding a node at its edge materialises more.")
    backend = Backend("arrays", f"a part of {part.graph.num_positions:,} positions materialised from the value "
                                "file (values from the whole game)", queries=PartQueries(part))
    canvas.neighbourhood_panel(game, spec, part, key, backend, HOOD_START)
    command = shell_hint("load", spec, "--around", key, "--radius", str(part.radius),
                         *(["--direction", part.direction] if part.direction != "both" else []))
    st.caption(f"Load this part into Neo4j (as a game id of its own, `{part.graph.graph_id}`): `{command}`")


# -- a big game not solved here yet (issue 35) -------------------------------------------------------
def openable_presets(game: Game, limit: int) -> list[tuple[str, str]]:
    """(spec, how it opens) of the game's other presets that this page opens: from a value file (as explorer.solved
    chooses for a game too large for the page's graph), or small enough for its graph (by the estimate, nothing
    built). O(presets)."""
    from explorer.core import limits
    from explorer.games import parse_spec
    from explorer.solved import GRAPH, GRAPH_FIRST, choose

    found = []
    for preset in type(game).presets:
        try:
            other = parse_spec(f"{game.name}:{preset}")
            if other.id == game.id:
                continue
            if choose(other, GRAPH_FIRST, limit) != GRAPH:
                found.append((other.display_name, "from its value file"))
                continue
            estimate = limits.estimate(other)
            if estimate is not None and estimate.positions <= limit:
                found.append((other.display_name, f"{estimate.positions:,} positions at most"))
        except GameGraphError:
            continue
    return found


def too_large(game: Game, why: str) -> None:
    """A game too large for the page's graph and not solved here: one line giving the refusal `why` (the
    estimate, the limit or memory budget over, the variable that raises it) and the remedy explorer.solved gives
    the page (the command that solves it, how long that takes here, that the page then opens it), once; then
    links to the presets that open now."""
    from explorer.solved import advice
    from explorer.tiered import edgeless_flag

    remedy = advice(game, command="ui")
    said = why if remedy in why else f"{why}; {remedy}"
    # a game the page can solve is a state to act on, not a fault: a note, its command shown as code
    if edgeless_flag(game) is not None:
        info(said, commands=True)
    else:
        error(said)
    solve_here(game)
    presets = openable_presets(game, _limit())
    if presets:
        st.markdown("Open now: " + " · ".join(f"[{md_escape(spec)}]({state.link(spec)}) ({how})"
                                               for spec, how in presets))
    else:
        st.markdown(f"[Open {state.DEFAULT_GAME} instead]({state.link(state.DEFAULT_GAME)})")


JOB_POLL_SECONDS = 3   # how often the page looks at a solve started from it


def solve_here(game: Game) -> None:
    """A button that runs the solve the refusal names, in the background (explorer.ui.solve_jobs), and while it
    runs, its progress: elapsed against the time it takes here, and the solver's own progress line. When it
    has finished the page reruns and opens the game from its value file; a solve that failed says why in one
    line, and the button offers it again."""
    from explorer.solved import solve_seconds, solve_time
    from explorer.tiered import edgeless_flag
    from explorer.ui import solve_jobs

    if edgeless_flag(game) is None:
        return
    job = solve_jobs.current(game)
    status = job.status(game) if job is not None else None
    if status == solve_jobs.RUNNING:
        _, slowest, _ = solve_seconds(game)
        _job_progress(game, slowest)
        return
    if status == solve_jobs.FAILED:
        error(f"The solve of {game.display_name} started here stopped: {job.last_line() or 'it printed nothing'}")
    if st.button(f"Solve {game.display_name} here, in the background: {solve_time(game)}", type="primary",
                 key="solve_here", help=f"Runs `{' '.join(solve_jobs.command(game))}` on the server; it goes on "
                                        "if you close the page, and the page opens the game when it is done"):
        try:
            solve_jobs.start(game)
        except GameGraphError as exc:
            error(str(exc))
            return
        st.rerun()


@st.fragment(run_every=JOB_POLL_SECONDS)
def _job_progress(game: Game, slowest: float) -> None:
    """The running solve's progress, redrawn every JOB_POLL_SECONDS without the rest of the page; the whole
    page reruns once it has ended (then opening the game, or saying why not)."""
    from explorer.solved import solve_time
    from explorer.ui import solve_jobs

    job = solve_jobs.current(game)
    if job is None or job.status(game) != solve_jobs.RUNNING:
        st.rerun()
        return
    elapsed = job.elapsed()
    minutes, seconds = divmod(int(elapsed), 60)
    fraction = min(elapsed / slowest, 0.99) if slowest > 0 else 0.0
    expected = f"of {solve_time(game)}"
    if slowest > 0 and elapsed > slowest:  # (the bar then stands at 99 %: say why it has not ended)
        expected = (f"longer than the {solve_time(game)}: other work is running on this machine (load "
                    f"{os.getloadavg()[0]:.1f}) and stretches it")
    st.progress(fraction, text=f"Solving {game.display_name} here: {minutes} min {seconds:02d} s so far, "
                               f"{expected}. The page opens the game when it is done; you may close it meanwhile.")
    line = job.last_line()
    if line:
        st.caption(md_escape(line))
