"""Analyses on the page: why a draw holds, the draw map, the variant survey and rule-set diffs."""

from __future__ import annotations

import streamlit as st

from explorer.analysis.draws import NOT_A_DRAW, SAFE, SHARP, DrawAnalysis, analyse, position_report
from explorer.games import Game, parse_spec
from explorer.solved import SolvedGraph
from explorer.ui import state

MAX_MAP_POSITIONS = 400
KIND_COLOURS = {SAFE: "#9fd89f", SHARP: "#f2b36b"}
VALUE_COLOURS = {"win": "#2ca02c", "loss": "#d62728", "draw": "#f2d44e", "tie": "#9467bd"}


@st.cache_resource(max_entries=16, show_spinner=False)
def _analysis(graph_id: str, _solved: SolvedGraph) -> DrawAnalysis:
    return analyse(_solved)


def draw_section(game: Game, solved: SolvedGraph, node: int) -> None:
    """For a drawn position: safe or sharp, in the core or not, and the moves that lose."""
    if solved.solution.value[node] != 1:  # Value.DRAW
        return
    report = position_report(solved, _analysis(solved.graph.graph_id, solved), node)
    where = "inside the drawing core" if report["in_core"] else "outside the drawing core"
    if report["draw_kind"] == "safe":
        st.markdown(f"**Safe draw** ({where}): every move keeps the draw.")
        return
    st.markdown(f"**Sharp draw** ({where}): {report['losing_moves']} move(s) lose; the fastest loses in "
                f"{report['fastest_loss']}.")
    st.dataframe([{"dangerous move": m["label"], "to": m["to"], "loses in": m["loses_in"]}
                  for m in report["dangerous_moves"]], hide_index=True, width="stretch")


def draw_map(game: Game, spec: str, solved: SolvedGraph, key: str) -> None:
    """The draw region coloured by kind; the closed regions (the drawing core) outlined."""
    analysis = _analysis(solved.graph.graph_id, solved)
    counts = analysis.counts()
    if not counts["draws"]:
        st.info(f"{game.display_name} has no drawn positions.")
        return
    st.markdown(f"**{counts['draws']:,} draws**: {counts['safe']:,} safe (green, no move loses), "
                f"{counts['sharp']:,} sharp (orange, some move loses). Drawing core: {counts['core']:,} positions "
                f"in {counts['closed_regions']} closed region(s), outlined in blue: once play is inside, keeping "
                "the draw means staying inside.")
    graph = solved.graph
    draws = [n for n in range(graph.num_positions) if analysis.kind[n] != NOT_A_DRAW]
    if len(draws) > MAX_MAP_POSITIONS:
        st.info(f"The draw region has {len(draws):,} positions; the map draws at most {MAX_MAP_POSITIONS}. "
                "It shows the regions (strongly connected components) instead.")
        _region_map(analysis, draws)
        return
    import graphviz

    # A map rather than a diagram: dots placed by a force-directed layout (sfdp, fast for
    # hundreds of nodes), laid out on the server; hover for the key, click to open it.
    dot = graphviz.Digraph(engine="sfdp", graph_attr={"overlap": "prism", "outputorder": "edgesfirst",
                                                      "bgcolor": "transparent"},
                           node_attr={"shape": "circle", "style": "filled", "label": "", "width": "0.22",
                                      "penwidth": "0.5"},
                           edge_attr={"color": "#bbbbbb", "arrowsize": "0.3", "penwidth": "0.6"})
    chosen = set(draws)
    for n in draws:
        attrs = {"fillcolor": KIND_COLOURS[int(analysis.kind[n])], "tooltip": graph.key(n),
                 "URL": state.link(spec, graph.key(n)), "target": "_self"}
        if analysis.closed[n]:
            attrs.update(color="#1f4fd1", penwidth="1.8")
        if graph.key(n) == key:
            attrs.update(width="0.4", color="#000000", penwidth="3")
        dot.node(str(n), **attrs)
    for n in draws:
        for child in graph.successors(n):
            if int(child) in chosen:
                dot.edge(str(n), str(int(child)))
    from explorer.ui.clickable import clickable_html

    svg = dot.pipe(format="svg").decode("utf-8")
    clicked = clickable_html(svg[svg.index("<svg"):], key="draw_map_svg")
    if clicked:
        state.go(spec, clicked)
        st.rerun()


def _region_map(analysis: DrawAnalysis, draws: list[int]) -> None:
    import graphviz

    sizes: dict[int, int] = {}
    for n in draws:
        sizes[int(analysis.region[n])] = sizes.get(int(analysis.region[n]), 0) + 1
    closed = {int(analysis.region[n]) for n in draws if analysis.closed[n]}
    dot = graphviz.Digraph(node_attr={"shape": "ellipse", "style": "filled"})
    for region, size in sorted(sizes.items(), key=lambda item: -item[1])[:60]:
        dot.node(str(region), f"{size} positions", fillcolor="#9fc5f8" if region in closed else "#eeeeee")
    st.graphviz_chart(dot)


def survey_panel(game: Game) -> None:
    """A heatmap of rule set x fingers coloured by the start's value; a click opens that game."""
    if game.name != "chopsticks":
        st.info("The survey heatmap is drawn for Chopsticks; `gamegraph survey GAME --range NAME=A..B` surveys "
                "any game whose parameters make a finite grid.")
        return
    import altair as alt

    from explorer.analysis.survey import grid, survey

    low, high = st.slider("Fingers", 2, 10, (2, 7), key="survey_fingers")
    rows = survey(grid("chopsticks", {"fingers": range(low, high + 1)}))
    records = []
    for row in rows:
        rules = (f"{row['overflow']} · {'tap dead' if row['attack_dead'] else 'no tap dead'} · split {row['split']}"
                 f"{' +suicide' if row['suicide'] else ''}{' +swaps' if row['swaps'] else ''}")
        start = row["start_value"] + ("" if row["start_remoteness"] is None else f" in {row['start_remoteness']}")
        records.append({"rules": rules, "fingers": row["fingers"], "start": row["start_value"], "detail": start,
                        "spec": row["spec"], "positions": row["positions"]})
    chart = alt.Chart(alt.Data(values=records)).mark_rect(stroke="white").encode(
        x=alt.X("fingers:O", title="fingers"), y=alt.Y("rules:N", title=None, axis=alt.Axis(labelLimit=400)),
        color=alt.Color("start:N", scale=alt.Scale(domain=list(VALUE_COLOURS), range=list(VALUE_COLOURS.values())),
                        title="start, for the first player"),
        tooltip=["rules:N", "fingers:O", "detail:N", "positions:Q"]).add_params(
        alt.selection_point(name="cell", fields=["spec"]))
    event = st.altair_chart(chart, on_select="rerun", key="survey_chart", width="stretch")
    selected = (event.selection.get("cell") or [{}])[0].get("spec") if event and event.selection else None
    if selected:
        state.set_game(parse_spec(selected).display_name)
        st.rerun()
    wins = sum(1 for r in rows if r["start_value"] == "win")
    st.caption(f"{len(rows)} rule sets; the first player wins {wins}. Click a cell to open that game.")


def diff_panel(game: Game, spec: str, solved: SolvedGraph) -> None:
    """The positions this game shares with another rule set whose value differs."""
    from explorer.analysis.diff import diff
    from explorer.solved import load_or_build

    other = st.text_input("Compare with (a spec of the same game)", key="diff_other",
                          placeholder="e.g. chopsticks:rollover")
    if not other.strip():
        st.caption("Name another rule set of this game to see which positions change value.")
        return
    report = diff(solved, load_or_build(parse_spec(other)))
    st.markdown(f"**{report['shared']:,}** shared positions; **{report['changed']:,}** change value. Start: "
                f"{report['start']['first']} here, {report['start']['second']} there.")
    if report["by_change"]:
        st.dataframe([{"change": k, "positions": v} for k, v in report["by_change"].items()], hide_index=True)
        st.dataframe([{"position": state.link(spec, r["key"]), "here": r["before"], "there": r["after"]}
                      for r in report["positions_changed"][:500]], hide_index=True, width="stretch",
                     column_config={"position": st.column_config.LinkColumn(display_text=r"pos=([^&]+)")})
