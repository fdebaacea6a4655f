"""Whole-game panels: the strategy chart of a game that declares one (`offers.chart`: Chopsticks) and the
value and remoteness histograms."""

from __future__ import annotations

from html import escape
from typing import Any

import pandas as pd
import streamlit as st

from explorer.games import Game, parse_spec
from explorer.games.base import player_name
from explorer.render import palette
from explorer.solved import SolvedGraph
from explorer.ui import data, local, state
from explorer.ui.clickable import clickable_html
from explorer.core.values import Value


@st.cache_resource(show_spinner="Solving every position of the chart…", max_entries=8)
def _chart(game_id: str) -> Any:
    from explorer.render.chart import strategy_chart
    return strategy_chart(parse_spec(game_id))


def chart_table_html(chart: Any, here: tuple[tuple[int, int], tuple[int, int]] | None,
                     link=None) -> str:
    """The chart as an HTML table: rows = mover's hands, columns = opponent's, cells coloured by value.

    `link(mine, theirs)` gives a cell's URL (the position with that mover), or None for no link.
    """
    from explorer.render.chart import cell_value, side_text
    head = "".join(f"<th>{escape(side_text(side))}</th>" for side in chart.hands)
    lines = [f'<table class="gg-chart"><thead><tr><th>mover ↓ / opponent →</th>{head}</tr></thead><tbody>']
    for i, mine in enumerate(chart.hands):
        cells = [f"<th>{escape(side_text(mine))}</th>"]
        for j, theirs in enumerate(chart.hands):
            mark, label = chart.cells[i][j]
            value = cell_value((mark, label))
            if value is None:  # no position has these sides
                cells.append("<td></td>")
                continue
            r = chart.remoteness[i][j]
            current = here is not None and here == (mine, theirs)
            style = f"background:{palette.FILLS[value]};" + (f" outline:3px solid {palette.HIGHLIGHT};" if current else "")
            tip = f"{value}{'' if r is None else f' in {r}'}: {label}"
            text = escape(mark + chart.short(label))
            url = link(mine, theirs) if link else None
            if url:
                text = f'<a href="{escape(url)}">{text}</a>'
            cells.append(f'<td style="{style}" title="{escape(tip)}">{text}</td>')
        lines.append("<tr>" + "".join(cells) + "</tr>")
    lines.append("</tbody></table>")
    css = ("<style>.gg-chart{border-collapse:collapse;font:12px monospace}.gg-chart td,.gg-chart th"
           f"{{border:1px solid {palette.RULE_LIGHT};padding:2px 5px;text-align:center;white-space:nowrap}}"
           f".gg-chart th{{background:{palette.PANEL}}}.gg-chart a{{color:inherit;text-decoration:none;display:block}}"
           ".gg-chart a:hover{text-decoration:underline}</style>")
    return css + "".join(lines)


def chart_refusal(game: Game) -> str | None:
    """Why the page has no strategy chart for `game`, in one line; None when it draws one: the game
    declares a chart (offers.chart) whose size parameter is at most the declared page maximum."""
    from explorer.render.chart import chart_refusal as refusal

    offered = game.offers.chart
    if offered is None:
        return refusal(game)
    size = getattr(game.params, offered.size)
    if size > offered.page_maximum:
        return (f"the page draws the strategy chart of {game.name} up to {offered.size}={offered.page_maximum}"
                f" (this has {offered.size}={size}: too big for a page)")
    return None


def chart_available(game: Game) -> bool:
    return chart_refusal(game) is None


def chart_of(game: Game) -> Any:
    return _chart(game.id)


def chart_panel(game: Game, spec: str, solved: SolvedGraph, node: int) -> Any:
    """Returns the chart shown. Offered only where chart_available (explorer/ui/app.py decides the tabs)."""
    chart = _chart(game.id)
    position = solved.graph.position(node)
    mover = game.to_move(position)
    here = game.chart_sides(game.canonical(position))
    offered = game.offers.chart
    moves = f" ({offered.moves})" if offered.moves else ""
    st.caption(f"Rows: the mover's {offered.sides}; columns: the opponent's. Each cell: + forced win, - forced loss, "
               f"= tie, no mark draw; then the best move{moves}. "
               f"The current position is outlined. Covers every pair of {offered.sides}, reachable from the start or not; "
               f"click a cell to go to that position with {player_name(game, mover)} to move (if it is reachable).")

    def link(mine: tuple[int, ...], theirs: tuple[int, ...]) -> str | None:
        node_there = solved.graph.node_of(game.chart_position(mover, mine, theirs))
        return None if node_there is None else state.link(spec, solved.graph.key(node_there))

    clicked = clickable_html(chart_table_html(chart, here, link), key="chart_table")
    if clicked:
        state.go(spec, clicked)
        st.rerun()
    return chart


@st.cache_data(show_spinner=False, max_entries=64)
def _stats_specs(counts: tuple[tuple[str, int], ...],
                 table: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]) -> tuple[dict, dict | None]:
    """The Vega-Lite specs of the two statistics charts (by value; by remoteness, None without wins,
    losses or ties), from the counts as sorted tuples.

    Cached on the counts: building an Altair chart validates it against the Vega-Lite schema, which
    took most of the tab's server time on every rerun (about 0.2 s of CPU a run), for charts that
    only change with the game."""
    import altair as alt

    counts_of, table_of = dict(counts), {value: dict(rows) for value, rows in table}
    order = [v for v in ("win", "loss", "tie", "draw") if counts_of.get(v)]
    # An explicit value -> colour scale: st.bar_chart's colour column is matched to the
    # categories by sorting, which gave a draw the loss red.
    colour = alt.Color("value:N", scale=alt.Scale(**palette.scale(order)), legend=None)
    values = pd.DataFrame({"value": order, "positions": [counts_of[v] for v in order]})
    by_value = alt.Chart(values).mark_bar().encode(
        x=alt.X("value:N", sort=order, title=None, axis=alt.Axis(labelAngle=0)), y=alt.Y("positions:Q"), color=colour,
        tooltip=["value", "positions"]).properties(height=260).to_dict()
    present = [v for v in ("win", "loss", "tie") if table_of.get(v)]
    if not present:
        return by_value, None
    top = max(max(table_of[v]) for v in present)
    frame = pd.DataFrame([{"remoteness": r, "value": v, "positions": table_of[v].get(r, 0)}
                          for v in present for r in range(top + 1)])
    by_remoteness = alt.Chart(frame).mark_bar().encode(
        x=alt.X("remoteness:O", axis=alt.Axis(labelAngle=0)), y=alt.Y("positions:Q", stack=True),
        color=alt.Color("value:N", scale=alt.Scale(**palette.scale(present)), legend=alt.Legend(orient="top")),
        tooltip=["remoteness", "value", "positions"]).properties(height=300).to_dict()
    return by_value, by_remoteness


def stats_panel(solved: SolvedGraph, backend: Any) -> None:
    counts, table = data.value_counts(backend, solved)
    graph = solved.graph
    cols = st.columns(5)
    cols[0].metric("Positions", f"{graph.num_positions:,}")
    cols[1].metric("Moves", f"{graph.num_moves:,}")
    cols[2].metric("On cycles", f"{int(solved.on_cycle.sum()):,}")
    cols[3].metric("Start", f"{solved.value(0)}")
    longest_win = local.max_remoteness(solved, Value.WIN)
    cols[4].metric("Longest win", "—" if longest_win is None else f"{longest_win} moves")
    by_value, by_remoteness = _stats_specs(tuple(sorted(counts.items())),
                                           tuple(sorted((v, tuple(sorted(t.items()))) for v, t in table.items())))
    st.markdown("**Positions by value** (for the player to move)")
    st.vega_lite_chart(by_value, width="stretch")
    if by_remoteness is not None:
        st.markdown("**Positions by remoteness** (moves to the end with best play; draws have none)")
        st.vega_lite_chart(by_remoteness, width="stretch")
    st.caption(f"Counts answered by {data.answered_by(backend)}.")
