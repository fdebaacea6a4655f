"""Analyses on the page: why a draw holds, the draw map, the variant survey and rule-set diffs."""

from __future__ import annotations

import streamlit as st

from explorer.algorithms.draw_levels import DRAW_LOSE, DRAW_WIN, NONPURE, DrawLevels
from explorer.analysis.draws import NOT_A_DRAW, SAFE, SHARP, DrawAnalysis, analyse, position_report
from explorer.games import Game, parse_spec
from explorer.games.base import player_name
from explorer.render import palette
from explorer.solved import SolvedGraph
from explorer.ui import state
from explorer.ui.widgets import error

MAX_MAP_POSITIONS = 400
KIND_COLOURS = {SAFE: palette.DRAW_KIND_SAFE, SHARP: palette.DRAW_KIND_SHARP}
SURVEY_ORDER = ("win", "loss", "draw", "tie")  # the survey legend's order


@st.cache_resource(max_entries=16, show_spinner=False)
def _analysis(graph_id: str, _solved: SolvedGraph) -> DrawAnalysis:
    return analyse(_solved)


@st.cache_resource(max_entries=16, show_spinner=False)
def _levels(graph_id: str, _solved: SolvedGraph) -> DrawLevels:
    return _solved.draw_levels


def _level_text(game: Game, solved: SolvedGraph, node: int) -> str | None:
    mover = int(solved.graph.to_move[node])
    return _levels(solved.graph.graph_id, solved).describe(node, player_name(game, mover), player_name(game, 1 - mover))


def draw_section(game: Game, solved: SolvedGraph, node: int) -> None:
    """For a drawn position: its draw level and its draw kind, each labelled so the two are not read as
    one contradicting the other ("non-pure" is a level's absence, "sharp" a kind), the kind in the words
    of the value histories ("sharp draw": explorer.analysis.draws.KIND_NAMES, as explorer.ui.history.draw_kind
    writes it); in the core or not, and the moves that lose."""
    if solved.solution.value[node] != 1:  # Value.DRAW
        return
    report = position_report(solved, _analysis(solved.graph.graph_id, solved), node)
    where = "inside the drawing core" if report["in_core"] else "outside the drawing core"
    level_text = _level_text(game, solved, node)
    if level_text:
        head, rest = level_text.split(":", 1)
        source = "([GamesmanClassic's pure draw analysis](https://github.com/GamesCrafters/GamesmanClassic))"
        if int(_levels(solved.graph.graph_id, solved).kind[node]) in (DRAW_WIN, DRAW_LOSE):
            st.markdown(f"Draw level: **{head}**:{rest} {source}")
        else:  # non-pure or dead: no level; the kind below says safe or sharp, as the histories do
            st.markdown(f"Draw level: **none** ({head}:{rest}) {source}")
    kind = f"{report['draw_kind']} draw"
    if report["draw_kind"] == "safe":
        st.markdown(f"Draw kind: **{kind}** ({where}): every move keeps the draw.")
        return
    st.markdown(f"Draw kind: **{kind}** ({where}): {report['losing_moves']} move(s) lose; the fastest loses in "
                f"{report['fastest_loss']}.")
    st.dataframe([{"dangerous move": m["label"], "to": m["to"], "loses in": m["loses_in"]}
                  for m in report["dangerous_moves"]], hide_index=True, width="stretch")


def draw_map(game: Game, spec: str, solved: SolvedGraph, key: str) -> None:
    """The draw region coloured by kind; the closed regions (the drawing core) outlined."""
    analysis = _analysis(solved.graph.graph_id, solved)
    counts = analysis.counts()  # the page offers this tab only to games with draws (explorer/ui/app.py)
    st.markdown(f"**{counts['draws']:,} draws**: {counts['safe']:,} safe (green, no move loses), "
                f"{counts['sharp']:,} sharp (orange, some move loses). Drawing core: {counts['core']:,} positions "
                f"in {counts['closed_regions']} closed region(s), outlined in blue: once play is inside, keeping "
                "the draw means staying inside.")
    levels = _levels(solved.graph.graph_id, solved)
    by_level = st.radio("Colour by", ["draw kind", "draw level"], horizontal=True, key="draw_map_colour",
                        help="draw level: GamesmanClassic's pure draw analysis; deeper blue = higher level, "
                             "solid = draw-win (presses), pale = draw-lose (pressed), grey = non-pure or dead")
    if by_level == "draw level":
        tally = ", ".join(f"{row['positions']:,} {row['class']}" +
                          (f" at level {row['level']}" if row["level"] is not None else "") for row in levels.table())
        st.caption(f"Draw levels: {tally}.")
        st.markdown(" ".join(f'<span style="background:{colour};border:1px solid {palette.RULE};padding:0 0.5em">'
                             f"{name}</span>" for name, colour in LEVEL_LEGEND), unsafe_allow_html=True)
    graph = solved.graph
    draws = [n for n in range(graph.num_positions) if analysis.kind[n] != NOT_A_DRAW]
    if len(draws) > MAX_MAP_POSITIONS:
        st.info(f"The draw region has {len(draws):,} positions; the map draws at most {MAX_MAP_POSITIONS}. "
                "It shows the regions (strongly connected components) instead.")
        _region_map(analysis, draws)
        return
    from explorer.render.dot import draw_map_dot, image
    from explorer.ui.clickable import clickable_html

    chosen = set(draws)
    dots = {str(n): {"fill": _level_colour(levels, n) if by_level == "draw level" else KIND_COLOURS[int(analysis.kind[n])],
                     "key": graph.key(n), "url": state.link(spec, graph.key(n)), "closed": bool(analysis.closed[n])}
            for n in draws}
    centre = next((str(n) for n in draws if graph.key(n) == key), None)
    edges = [(str(n), str(int(child))) for n in draws for child in graph.successors(n) if int(child) in chosen]
    svg = image(draw_map_dot(dots, edges, centre), "svg").decode("utf-8")
    clicked = clickable_html(svg[svg.index("<svg"):], key="draw_map_svg")
    if clicked:
        state.go(spec, clicked)
        st.rerun()


# The draw levels' colours live in the palette; named here too for the canvas, which imports them from this module.
LEVEL_COLOURS, LEVEL_LEGEND = palette.LEVEL_COLOURS, palette.LEVEL_LEGEND


def _level_colour(levels: DrawLevels, node: int) -> str:
    kind = int(levels.kind[node])
    if kind not in (DRAW_WIN, DRAW_LOSE):
        return palette.LEVEL_NONPURE if kind == NONPURE else palette.LEVEL_DEAD
    colour = LEVEL_COLOURS[min(int(levels.level[node]), len(LEVEL_COLOURS) - 1)]
    return colour if kind == DRAW_WIN else colour + palette.DRAW_LOSE_ALPHA  # draw-lose: the same hue, translucent


def _region_map(analysis: DrawAnalysis, draws: list[int]) -> None:
    from explorer.render.dot import region_map_dot

    sizes: dict[int, int] = {}
    for n in draws:
        sizes[int(analysis.region[n])] = sizes.get(int(analysis.region[n]), 0) + 1
    closed = {int(analysis.region[n]) for n in draws if analysis.closed[n]}
    regions = [(str(region), size, region in closed) for region, size in sorted(sizes.items(), key=lambda item: -item[1])[:60]]
    st.graphviz_chart(region_map_dot(regions))


def survey_refusal(game: Game) -> str | None:
    """Why the page draws no survey heatmap for `game`, in one line; None when it declares one (offers.survey)."""
    if game.offers.survey is not None:
        return None
    from explorer.core.errors import shell_hint

    command = shell_hint("survey", game.name, "--range", "NAME=A..B")
    return (f"{game.name} declares no survey heatmap (offers.survey); `{command}` surveys any game whose "
            "parameters make a finite grid")


def survey_available(game: Game) -> bool:
    """Whether the game declares the survey heatmap: rows its rule sets, columns a whole-number parameter."""
    return game.offers.survey is not None


def survey_panel(game: Game) -> None:
    """A heatmap of the game's rule sets x its declared column parameter (offers.survey: Chopsticks' fingers)
    coloured by the start's value; a click opens that game. Offered only where survey_available
    (explorer/ui/app.py decides the tabs)."""
    import altair as alt

    from explorer.analysis.survey import grid, survey

    offered = game.offers.survey
    axis = offered.axis
    low, high = st.slider(axis.replace("_", " ").capitalize(), offered.span[0], offered.span[1], offered.shown,
                          key=f"survey_{axis}")
    games = grid(game.name, {axis: range(low, high + 1)})
    rows = survey(games)
    records = []
    for rule_set, row in zip(games, rows):
        rules = rule_set.survey_rules(rule_set.params)
        start = row["start_value"] + ("" if row["start_remoteness"] is None else f" in {row['start_remoteness']}")
        records.append({"rules": rules, axis: row[axis], "start": row["start_value"], "detail": start,
                        "spec": row["spec"], "positions": row["positions"]})
    chart = alt.Chart(alt.Data(values=records)).mark_rect(stroke="white").encode(
        x=alt.X(f"{axis}:O", title=axis), y=alt.Y("rules:N", title=None, axis=alt.Axis(labelLimit=400)),
        color=alt.Color("start:N", scale=alt.Scale(**palette.scale(SURVEY_ORDER)),
                        title="start, for the first player"),
        tooltip=["rules:N", f"{axis}:O", "detail:N", "positions:Q"]).add_params(
        alt.selection_point(name="cell", fields=["spec"]))
    event = st.altair_chart(chart, on_select="rerun", key="survey_chart", width="stretch")
    selected = (event.selection.get("cell") or [{}])[0].get("spec") if event and event.selection else None
    if selected:
        state.set_game(parse_spec(selected).display_name)
        st.rerun()
    wins = sum(1 for r in rows if r["start_value"] == "win")
    st.caption(f"{len(rows)} rule sets; the first player wins {wins}. Click a cell to open that game.")


OTHER_SPEC = "another spec (type it below)"
DIFF_LIST_LIMIT = 500


def has_other_rule_sets(game: Game) -> bool:
    """Whether the game has parameters, so that another rule set of it exists to compare with."""
    import dataclasses

    return bool(dataclasses.fields(game.params))


def _diff_choices(game: Game) -> list[str]:
    """The same game's presets, as specs, except the one shown."""
    specs = [game.name if preset == "default" else f"{game.name}:{preset}" for preset in type(game).presets]
    return [spec for spec in specs if parse_spec(spec).id != game.id]


@st.cache_data(max_entries=8, show_spinner=False)
def _diff_report(first_id: str, second_id: str, _first: SolvedGraph, _second: SolvedGraph) -> dict:
    from explorer.analysis.diff import diff, only_in_one

    return {**diff(_first, _second), **only_in_one(_first, _second)}


def _other_game(game: Game) -> SolvedGraph | None:
    """The rule set to compare with (a preset, or a typed spec), solved; None (and one st.error line)
    when it cannot be: a malformed spec, an unknown preset, another game, a game over the page's limits."""
    from explorer.core.errors import GameGraphError, shown
    from explorer.ui import loading

    choices = _diff_choices(game)
    preset = st.selectbox("Compare with", [*choices, OTHER_SPEC], key="diff_preset",
                          index=None, placeholder="choose another rule set of this game",
                          help="the game's presets; or type any spec of the same game below")
    typed = st.text_input("Or type a spec of the same game", key="diff_other",
                          placeholder=f"e.g. {(choices or [game.name + '(...)'])[0]}")
    other = typed.strip() or (preset if preset not in (None, OTHER_SPEC) else "")
    if not other:
        st.caption("Choose another rule set of this game to see which positions change value, side by side.")
        return None
    try:
        second = parse_spec(other)
        if second.name != game.name:
            error(f"{shown(other)} is a spec of {second.name}, not of {game.name}: diff compares two rule sets "
                     "of one game")
            return None
        return loading.solved(second)
    except GameGraphError as exc:
        error(f"Cannot compare with {shown(other)}: {exc}")  # a spec of 4,500 characters is cut, as in every box
        return None


def diff_panel(game: Game, spec: str, solved: SolvedGraph) -> None:
    """The positions this game shares with another rule set whose value differs, and one of them side by side."""
    other = _other_game(game)
    if other is None:
        return
    report = _diff_report(solved.game.id, other.game.id, solved, other)
    there = other.game.display_name
    st.markdown(f"**{report['shared']:,}** shared positions; **{report['changed']:,}** change value. "
                f"Only here: {report['only_first']:,}; only in {there}: {report['only_second']:,}. "
                f"Start: {report['start']['first']} here, {report['start']['second']} there.")
    if report["by_change"]:
        _change_chart(report["by_change"])
    picks = _diff_positions(report, there)
    if not picks:
        st.info("No position to compare: the two rule sets share no position and reach none of their own.")
        return
    if st.session_state.get("diff_pick") not in picks:
        st.session_state["diff_pick"] = next(iter(picks))
    if report["positions_changed"]:
        rows = report["positions_changed"][:DIFF_LIST_LIMIT]
        st.caption(f"Positions whose value changes (the first {len(rows):,} by key): click a row to compare it.")
        st.dataframe([{"position": r["key"], "here": _valued(r["before"], r["before_remoteness"]),
                       "there": _valued(r["after"], r["after_remoteness"]), "open": state.link(spec, r["key"])}
                      for r in rows], hide_index=True, width="stretch", height=240, key="diff_table",
                     on_select=lambda: _picked_row(rows), selection_mode="single-row",
                     column_config={"open": st.column_config.LinkColumn(display_text="open here")})
    st.selectbox("Position to compare", list(picks), key="diff_pick", format_func=picks.get)
    _side_by_side(solved, other, st.session_state["diff_pick"])


def _valued(value: str, remoteness: int | None) -> str:
    return value if remoteness is None else f"{value} in {remoteness}"


def _picked_row(rows: list[dict]) -> None:
    chosen = st.session_state.get("diff_table")
    selected = chosen.selection.rows if chosen is not None else []
    if selected and selected[0] < len(rows):
        st.session_state["diff_pick"] = rows[selected[0]]["key"]


def _diff_positions(report: dict, there: str) -> dict[str, str]:
    """Key -> label of the positions offered for the side-by-side view: changed ones first."""
    picks = {r["key"]: f"{r['key']}  ({r['before']} → {r['after']})"
             for r in report["positions_changed"][:DIFF_LIST_LIMIT]}
    picks.update({k: f"{k}  (only here)" for k in report["only_first_sample"]})
    picks.update({k: f"{k}  (only in {there})" for k in report["only_second_sample"]})
    return picks


def _change_chart(by_change: dict[str, int]) -> None:
    import pandas as pd

    frame = pd.DataFrame({"change": [k.replace("->", "→") for k in by_change], "positions": list(by_change.values())})
    st.caption("Positions by change of value (here → there):")
    st.bar_chart(frame, x="change", y="positions", horizontal=True, height=90 + 40 * len(frame))


def _side_by_side(first: SolvedGraph, second: SolvedGraph, key: str) -> None:
    """Two columns, this rule set | the other: the board, the value and the best moves; what differs is marked."""
    from html import escape

    from explorer.analysis.diff import side_by_side
    from explorer.ui import drawing

    detail = side_by_side(first, second, key)
    columns = st.columns(2, border=True)
    sides = (("first", "This rule set", first, detail["best_only_first"]),
             ("second", "The other", second, detail["best_only_second"]))
    for column, (name, title, solved, only_best) in zip(columns, sides):
        with column, st.container(key=f"diff_{name}"):
            st.markdown(f"#### {title}: {solved.game.display_name}")
            side = detail[name]
            if side is None:
                st.warning(f"`{key}` is not a position of {solved.game.display_name}: play from its start "
                           "never reaches it.")
                continue
            picture = drawing.position_svg(solved.game, solved.graph.position(side["node"]))
            if picture:
                st.image(picture)
            mark = "  ≠ differs" if detail["value_differs"] or detail["remoteness_differs"] else ""
            style = f"outline:3px solid {palette.HIGHLIGHT};border-radius:0.5rem;padding:0.2rem;" if mark else ""
            st.markdown(f'<div class="gg-diff-value" style="{style}">Position <code>{escape(side["key"])}</code>: '
                        f'{drawing.value_badge(side["value"], side["remoteness"])}'
                        f'<b style="color:{palette.WARNING}">{mark}</b></div>', unsafe_allow_html=True)
            if not side["best"]:
                st.caption("No moves: the game is over here.")
                continue
            st.markdown("Best moves (★ best here, not under the other rule set):" if only_best else
                        "Best moves (the same under both rule sets):")
            st.dataframe([{"best move": ("★ " if (m["label"], m["to"]) in only_best else "") + m["label"],
                           "to": m["to"], "value for the mover": _valued(m["value"], m["remoteness"])}
                          for m in side["best"]], hide_index=True, width="stretch")
