"""Combinatorial values on the page: a position's value with its mean, temperature and
thermograph, each move's value, and a sum builder.

Only for games that offer combinatorial values (explorer.cgt.evaluate.supports_cgt).
The sum builder is the point of the theory: pick a few positions, possibly of
different games, and see the value of playing them side by side and which first
moves win it — found from the components' values alone.
"""

from __future__ import annotations

import streamlit as st

from explorer.cgt.evaluate import supports_cgt
from explorer.analysis.cgt_report import (OUTCOME_WORDS, Component, describe, parse_component, sum_report,
                                          total_value, value)
from explorer.cgt.forms import CGValue
from explorer.games import Game
from explorer.solved import SolvedGraph

MAX_LISTED_BOARDS = 300
SUM_KEY = "cgt_sum"


@st.cache_data(max_entries=64, show_spinner=False)
def _describe(game_id: str, board_text: str) -> dict:
    from explorer.games import parse_spec

    game = parse_spec(game_id)
    return describe(parse_component(game, board_text))


def value_section(game: Game, solved: SolvedGraph, node: int) -> None:
    """The position's value, mean, temperature and thermograph, and both sides' moves with their
    values, best ones starred (the moves that win, explorer.cgt.evaluate.best_moves)."""
    if not supports_cgt(game):
        return
    board_text = game.format_board(game.cgt_board(solved.graph.position(node)))
    record = _describe(game.id, board_text)
    st.markdown(f"**Combinatorial value** G = `{record['value']}` · {record['kind']} · "
                f"mean **{record['mean']}** · temperature **{record['temperature']}** · "
                f"outcome **{record['outcome']}**: {record['outcome_text']}")
    thermograph_chart(value(parse_component(game, board_text)), f"{board_text} = {record['value']}")
    if record["left_moves"] == record["right_moves"]:  # impartial (Nim): one table says it all
        st.caption("Moves (the game is impartial: both sides have the same options; ★ best)")
        rows = [{"best": "★" if m["best"] else "", "move": m["move"], "to": m["position"], "value": m["value"]}
                for m in record["left_moves"]]
        if rows:
            st.dataframe(rows, hide_index=True, width="stretch")
        else:
            st.write("none")
        return
    left, right = st.columns(2)
    for column, side in ((left, "left"), (right, "right")):
        rows = [{"best": "★" if m["best"] else "", "move": m["move"], "to": m["position"], "value": m["value"]}
                for m in record[f"{side}_moves"]]
        with column:
            st.caption(f"{_side_name(game, side)}'s moves (★ best for {_side_name(game, side)})")
            if rows:
                st.dataframe(rows, hide_index=True, width="stretch")
            else:
                st.write("none")


def thermograph_chart(v: CGValue, title: str, key: str = "thermograph_position") -> None:
    """The value's thermograph, drawn by explorer.render.thermograph (walls labelled, the mast with
    the mean and temperature), with a line saying how to read it. Its expander is keyed, so that whether
    it is open is the reader's choice and stays so through every rerun (unkeyed, a rerun made it anew and
    opened it again a moment after a click had closed it)."""
    from explorer.cgt.thermograph import thermograph
    from explorer.render.thermograph import thermograph_svg

    title = title if len(title) <= 80 else title[:79] + "…"
    with st.expander("Thermograph", expanded=True, key=key, on_change="rerun"):
        st.image(thermograph_svg(thermograph(v), f"thermograph of {title}"))
        st.caption("Temperature t upwards, values with Left's side on the left. The left wall is where play "
                   "ends when Left starts and every move costs t, the right wall when Right starts; where "
                   "they meet (the temperature) the mast rises over the mean.")


def _side_name(game: Game, side: str) -> str:
    names = game.offers.player_names or ("Left", "Right")
    return f"{'Left' if side == 'left' else 'Right'} ({names[0 if side == 'left' else 1]})"


def split_positions(text: str) -> list[str]:
    """The positions of a comma-separated list, split only at commas outside parentheses, so that a
    SPEC::BOARD of a game with several parameters (``domineering(rows=2,cols=2)::../..``) stays one. O(len)."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)  # a stray ")" is the position parser's to refuse, not a reason to stop splitting
        elif char == "," and depth == 0:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def sum_builder(game: Game, solved: SolvedGraph) -> None:
    """Pick positions (of this game or, as SPEC::BOARD, of another) and analyse their sum.
    Offered only to games with combinatorial values (explorer/ui/app.py decides the tabs)."""
    boards = sorted({game.format_board(game.cgt_board(solved.graph.position(n)))
                     for n in range(min(solved.graph.num_positions, 20 * MAX_LISTED_BOARDS))})[:MAX_LISTED_BOARDS]
    st.write("Play several positions side by side: each turn, the player to move chooses one component "
             "and moves there. The sum's value says who wins it, and the winning first moves follow from "
             "the components' values alone.")
    chosen = st.multiselect("Positions of this game", boards, key=f"{SUM_KEY}_boards",
                            default=boards[:2] if len(boards) >= 2 else boards)
    extra = st.text_input("More positions, comma-separated (a board of this game, or SPEC::BOARD of another, "
                          "e.g. nim::1-2 or domineering(rows=2,cols=2)::../..)", key=f"{SUM_KEY}_extra")
    texts = list(chosen) + split_positions(extra)
    if not texts:
        st.info("Pick at least one position.")
        return
    components: list[Component] = [parse_component(game, text) for text in texts[:12]]
    report = sum_report(components)
    st.markdown(f"### G = `{report['value']}`")
    st.markdown(f"{report['kind']} · mean **{report['mean']}** · temperature **{report['temperature']}** · "
                f"outcome **{report['outcome']}**: {OUTCOME_WORDS[report['outcome']]}")
    st.dataframe([{"#": i + 1, "position": c.text, "game": c.game.display_name,
                   "value": _describe(c.game.id, c.text)["value"]} for i, c in enumerate(components)],
                 hide_index=True, width="stretch")
    for side in ("left", "right"):
        wins = report[f"{side}_wins_by"]
        st.markdown(f"**{_side_name(game, side)} moving first**")
        if wins:
            st.dataframe([{"move": w["move"], "in": f"#{w['component']}", "component becomes": w["position"],
                           "sum becomes": w["sum_after"]} for w in wins], hide_index=True, width="stretch")
        else:
            st.write("loses: every move leaves a sum the other side wins.")
    thermograph_chart(total_value(components), f"the sum = {report['value']}", key="thermograph_sum")
