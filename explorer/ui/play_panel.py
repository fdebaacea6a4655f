"""Play against the perfect player on the page, with slips marked and the value history drawn.

The game so far lives in the URL (`play=2.1.3`: each ply's move number in the
position's move list, `side=A|B`, `opp=perfect|random|slip=0.1`), so a copied
link replays the same game. Each run replays those plies from the start, lets
the opponent answer when it is its turn, and shows the moves as buttons.
"""

from __future__ import annotations

import random

import streamlit as st

from explorer.errors import InvalidParameter
from explorer.games import Game
from explorer.play import Match, Opponent, result_for
from explorer.solved import SolvedGraph

VALUE_SCORE = {"win": 1.0, "tie": 0.5, "draw": 0.0, "loss": -1.0}
MAX_PLIES = 500


def _replay(solved: SolvedGraph, text: str) -> Match:
    match = Match(solved)
    for part in filter(None, text.split(".")[:MAX_PLIES]):
        moves = match.moves()
        if not part.isdigit() or not 1 <= int(part) <= len(moves) or match.over:
            raise InvalidParameter(f"the game in the link stops making sense at ply {len(match.plies) + 1} "
                                   f"({part[:10]!r}); restart it")
        label, target, _ = moves[int(part) - 1]
        match.play(label, target)
    return match


def _push(index: int) -> None:
    current = st.query_params.get("play", "")
    st.query_params["play"] = f"{current}.{index}" if current else str(index)


def panel(game: Game, spec: str, solved: SolvedGraph) -> None:
    side_text = st.query_params.get("side", "A")
    opponent_text = st.query_params.get("opp", "perfect")
    left, middle, right = st.columns([1, 2, 2])
    side = left.radio("You play", ["A", "B"], index=0 if side_text != "B" else 1, horizontal=True, key="play_side")
    choice = middle.selectbox("Opponent", ["perfect", "slip=0.1", "slip=0.3", "random"],
                              index=["perfect", "slip=0.1", "slip=0.3", "random"].index(opponent_text)
                              if opponent_text in ("perfect", "slip=0.1", "slip=0.3", "random") else 0,
                              key="play_opponent")
    if side != side_text or choice != opponent_text:
        st.query_params.update({"side": side, "opp": choice, "play": ""})
        st.rerun()
    opponent = Opponent.parse(choice)
    human = 0 if side == "A" else 1
    match = _replay(solved, st.query_params.get("play", ""))
    # The opponent answers at once; its randomness is seeded by the ply, so a link replays the same game.
    while not match.over and match.to_move() != human and len(match.plies) < MAX_PLIES:
        label, target = match.choose(opponent, random.Random(len(match.plies)))
        number = next(i for i, (l, t, _) in enumerate(match.moves(), 1) if l == label and t == target)
        match.play(label, target)
        _push(number)
    with right:
        cols = st.columns(2)
        if cols[0].button("Undo my last move", disabled=not match.plies, key="play_undo"):
            plies = st.query_params.get("play", "").split(".")
            while plies and plies[-1] and len(plies) > 0:
                plies.pop()
                replayed = _replay(solved, ".".join(plies))
                if replayed.to_move() == human:
                    break
            st.query_params["play"] = ".".join(plies)
            st.rerun()
        if cols[1].button("Restart", key="play_restart"):
            st.query_params["play"] = ""
            st.rerun()

    key = solved.graph.key(match.node)
    if match.over:
        st.success(f"Game over at `{key}`: you **{result_for(match, human)}**.")
    else:
        value = solved.value(match.node)
        remoteness = solved.remoteness(match.node)
        st.markdown(f"Position `{key}`: your move. Your value here: **{value}**"
                    f"{'' if remoteness is None else f' in {remoteness}'}.")
        for number, (label, target, _) in enumerate(match.moves(), 1):
            if st.button(f"{label} → {solved.graph.key(target)}", key=f"play_move_{number}"):
                _push(number)
                st.rerun()
    if match.plies:
        mine = sum(1 for p in match.plies if p.slip and p.player == human)
        theirs = sum(1 for p in match.plies if p.slip and p.player != human)
        st.markdown(f"Slips so far: **you {mine}**, **opponent {theirs}**")
        st.dataframe([{"ply": p.ply, "who": "you" if p.player == human else "opponent", "move": p.label,
                       "to": p.after, "your value" if p.player == human else "its value":
                       f"{p.value_before} → {p.value_after}", "slip": "SLIP" if p.slip else ""}
                      for p in match.plies], hide_index=True, width="stretch")
        history = match.history()
        st.caption("Value history: the value for the player to move after each ply "
                   "(1 win, 0.5 tie, 0 draw, -1 loss), and the remoteness")
        st.line_chart({"value": [VALUE_SCORE[row["value"]] for row in history],
                       "remoteness": [row["remoteness"] if row["remoteness"] is not None else 0 for row in history]})
    st.caption("Share this game: the page's URL holds every move.")
