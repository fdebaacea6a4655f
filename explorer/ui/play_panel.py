"""Play against the perfect player on the board drawing, with slips marked and the value history drawn.

The game so far lives in the URL (`play=2.1.3`, `side=A|B`, `opp=perfect|random|slip=0.1`),
so a copied link replays the same game. Each number is a move's place (1-based) in the
rules' list of legal moves of the position as it was played, so the board shows the
position exactly as the player made it (a symmetric twin, merged in the solved graph,
is not swapped in) while values come from the solved graph of its canonical form.
Each run replays those plies from the start, lets the opponent answer when it is its
turn, and draws the board with every legal move as a link (explorer/ui/boards); a
compact list of the same moves sits under it for games whose drawing has no links.
Replaying costs O(plies x moves per position).

Every control (a click on the board, a move of the list, Undo, Restart, the side and
opponent) changes the URL in its widget's callback, which Streamlit runs before the
script: the run that follows draws the new position, so one click is one run (it was
two: the click's run, then `st.rerun()` to draw what it had changed).

The same panel plays a game too large for a graph over its value file (explorer/ui/implicit_page.py):
`solved` is then the value-file reader (explorer.play.Solved), the opponent is the same perfect
player without draw levels, and each position costs a few chunk reads.
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from explorer.core.errors import InvalidParameter, counted
from explorer.games import Game
from explorer.play import RESULT_WORDS, Match, Opponent, Played, Solved, result_for, start_position
from explorer.ui import drawing, state
from explorer.ui.widgets import as_text, echo, error, player_name

VALUE_ORDER = ["win", "tie", "draw", "loss"]
FLIP = {"win": "loss", "loss": "win", "tie": "tie", "draw": "draw"}
OPPONENTS = ["perfect", "slip=0.1", "slip=0.3", "random"]
SIDES = ("A", "B")
MAX_PLIES = 500
TAB = "Play"
BOARD_KEY = "play_board_svg"  # the clickable board's widget key


def playing() -> bool:
    """True when the Play tab is the open one (the page then shows the game, not the explored position)."""
    return st.query_params.get("view") == TAB


def replay(solved: Solved, text: str, backend: Any = None) -> Played:
    """The game named by a `play=` value; a number that is not a legal move is one clear error
    (InvalidParameter). See replay_valid_prefix for the page's forgiving reading."""
    played, refused = replay_valid_prefix(solved, text, backend)
    if refused is not None:
        raise InvalidParameter(refused)
    return played


def replay_valid_prefix(solved: Solved, text: str, backend: Any = None) -> tuple[Played, str | None]:
    """The game named by a `play=` value, played up to its first move that is not a legal one, and
    the line saying which ply was refused and why (None when every ply was legal): a link cut or
    edited by hand keeps the moves it got right. With the page on Neo4j, the values, optimal moves
    and draw grades are the loaded game's (queries.play_neo4j), asked position by position;
    otherwise the solved graph's. O(plies x moves per position)."""
    match = Match(solved)
    if backend is not None and backend.kind == "neo4j" and backend.queries is not None:
        from queries.play_neo4j import Neo4jMatch

        match = Neo4jMatch(solved, backend.driver, backend.database, game_id=backend.queries.game_id)
    played = Played(match, start_position(solved))
    for part in filter(None, text.split(".")[:MAX_PLIES]):
        why = _refusal(played, part)
        if why is not None:
            kept = len(played.numbers)
            carry_on = ("The game starts from the beginning." if kept == 0 else
                        f"The {'move' if kept == 1 else f'{kept} moves'} before it {'is' if kept == 1 else 'are'} "
                        f"played, and the game goes on from there (the perfect player's answer, when it is its "
                        f"turn, is added to the link); Restart begins afresh.")
            return played, f"The game in the link stops making sense at ply {kept + 1} ({echo(part)}): {why}. {carry_on}"
        played.play(int(part))
    return played, None


def _refusal(played: Played, part: str) -> str | None:
    """Why `part` of a `play=` value is not a move of the position reached, or None when it is one."""
    if played.match.over:
        return "the game was already over"
    count = len(played.moves())
    # ASCII digits, and few: int() refuses a string of 4,300 digits or a superscript two
    if not (part.isascii() and part.isdigit() and len(part) <= 9):
        return f"a move is a number from 1 to {count}, its place in the list of legal moves"
    if not 1 <= int(part) <= count:
        return f"that position has {count} legal move{'s' if count != 1 else ''}, numbered 1 to {count}"
    return None


def _sequence(numbers: list[int]) -> str:
    return ".".join(map(str, numbers))


def _link(spec: str, numbers: list[int], side: str, opponent: str, key: str) -> str:
    """The URL of the game after these plies (`pos` names the position reached, `pick` the move, which the
    board component reports back on a click: two moves may reach one position; Ctrl-click opens the game
    in a new tab)."""
    return "?" + urlencode({"game": spec, "pos": key, "view": TAB, "side": side, "opp": opponent,
                            "play": _sequence(numbers), "pick": str(numbers[-1])})


def _answer(played: Played, opponent: Opponent, human: int) -> None:
    """The opponent moves while it is its turn; its randomness is seeded by the ply, so a link replays."""
    match = played.match
    while not match.over and match.to_move() != human and len(match.plies) < MAX_PLIES:
        _, target = match.choose(opponent, random.Random(len(match.plies)))
        played.play(played.number_reaching(target))


def _controls(solved: Solved, side_text: str, opponent_text: str) -> tuple[str, str]:
    left, middle, right = st.columns([1, 2, 2], vertical_alignment="bottom")
    side = left.radio("You play", ["A", "B"], index=0 if side_text != "B" else 1, horizontal=True, key="play_side",
                      format_func=lambda s: player_name(solved.game, "AB".index(s)), on_change=_new_settings,
                      help="the first player to move, or the second")
    choice = middle.selectbox("Opponent", OPPONENTS,
                              index=OPPONENTS.index(opponent_text) if opponent_text in OPPONENTS else 0,
                              key="play_opponent", on_change=_new_settings,
                              help="perfect: the fastest win, the slowest loss, keeps a draw; slip=p: a random "
                                   "move with probability p; random: any legal move")
    if side != side_text or choice != opponent_text:  # a widget changed without its callback (not on the page)
        _new_settings()
    return side, choice


def _new_settings() -> None:
    """The side or opponent chosen: a new game with them (a callback, so that the run it starts shows it)."""
    side, choice = st.session_state.get("play_side"), st.session_state.get("play_opponent")
    st.query_params.update({"side": side if side in SIDES else SIDES[0],
                            "opp": choice if choice in OPPONENTS else OPPONENTS[0], "play": ""})


def _restart() -> None:
    st.query_params["play"] = ""


def _restart_button() -> None:
    """The panel's one Restart: the same game settings (side, opponent), no moves played."""
    st.button("Restart", key="play_restart", width="content", on_click=_restart)


def _play_move(numbers: list[int], number: int) -> None:
    """The move `number` played after the plies `numbers` (a callback: the run it starts replays the game
    with it and lets the opponent answer)."""
    st.query_params["play"] = _sequence([*numbers, number])


def _undo(solved: Solved, numbers: list[int], human: int) -> None:
    """Back to the last position where it was the human's turn before their last move (Undo's callback)."""
    plies = list(numbers)
    while plies:
        plies.pop()
        if replay(solved, _sequence(plies)).match.to_move() == human:
            break
    st.query_params["play"] = _sequence(plies)


def _url_settings(game: Game) -> tuple[str, str]:
    """The side and opponent the link asks for; a value that is not one of the page's choices is
    named (quoted, cut when long, shown literally) in one warning line with what is used instead,
    and replaced in the URL, and the game carries on (the moves in the link are kept)."""
    side_text, bad_side = state.url_choice("side", SIDES, SIDES[0])
    opponent_text, bad_opponent = state.url_choice("opp", OPPONENTS, OPPONENTS[0])
    if bad_side is not None:
        st.warning(as_text(f"The link asks for side {echo(bad_side)}, which is not A ({player_name(game, 0)}) or B "
                           f"({player_name(game, 1)}): you play A ({player_name(game, 0)}) instead."))
        st.query_params["side"] = side_text
    if bad_opponent is not None:
        st.warning(as_text(f"The link asks for the opponent {echo(bad_opponent)}, which is not one of {', '.join(OPPONENTS)}: "
                           f"the {opponent_text} player is used instead."))
        st.query_params["opp"] = opponent_text
    return side_text, opponent_text


def panel(game: Game, spec: str, solved: Solved, backend: Any = None) -> None:
    side_text, opponent_text = _url_settings(game)
    side, choice = _controls(solved, side_text, opponent_text)
    opponent = Opponent.parse(choice)
    human = 0 if side == "A" else 1
    you, them = player_name(game, human), player_name(game, 1 - human)
    played, refused = replay_valid_prefix(solved, st.query_params.get("play", ""), backend)
    if refused is not None:  # a bad link: say where it breaks; the game carries on from the moves before it
        error(refused)
    _answer(played, opponent, human)
    if st.query_params.get("play", "") != _sequence(played.numbers):
        st.query_params["play"] = _sequence(played.numbers)
    match = played.match

    st.subheader(f"You ({you}) against the {choice} player ({them})")
    st.caption(as_text(opening(solved)))  # literal: a move label may hold Markdown (Dōbutsu's drop C*b3)
    left, right = st.columns([3, 2])
    with left:
        _board(game, spec, played, side, choice)
    with right:
        _status(game, played, human)
        # One row that wraps, each button as wide as its name: two fixed columns cut "Undo my last move" to
        # "Undo my …" at a 1,000 px window.
        with st.container(horizontal=True):
            st.button("Undo my last move", disabled=not played.numbers, key="play_undo", width="content",
                      on_click=_undo, args=(solved, list(played.numbers), human))
            _restart_button()
    _move_list(played)
    if match.plies:
        _plies_table(played, human)
        _history_chart(played, human)
    source = ("the game as loaded into Neo4j" if backend is not None and backend.kind == "neo4j" else
              "the solved graph" if match.graph_backed else "the value file (no graph, so no draw levels: in a draw "
                                                            "the perfect player keeps the draw without pressing)")
    st.caption(f"Values and the opponent's moves come from {source}. Share this game: the page's URL holds every move.")


def opening(solved: Solved) -> str:
    """Why the start is won, lost, tied or drawn, in one sentence from the solved values of the first
    moves (any game, no special case): Dōbutsu shōgi's says that each of A's first moves leaves B, the
    second player, a win (Tanaka's result) and which one holds out longest. O(first moves) value reads."""
    played = Played(Match(solved), start_position(solved))
    game, match = solved.game, played.match
    first, second = player_name(game, match.to_move()), player_name(game, 1 - match.to_move())
    value, remoteness = str(match.value(match.node)), match.remoteness(match.node)
    moves = list(played.move_values().items())  # [(label, (its value for the mover, plies left after it))]
    if not moves:
        return f"The start is already over: {first} has {RESULT_WORDS[value]} ({game.ending(game.start()) or value})."
    count = f"{first}'s only first move" if len(moves) == 1 else f"{first}'s {len(moves)} first moves"
    keeping = [(label, plies or 0) for label, (after, plies) in moves if after == value]
    if value == "loss":
        plies = max(p for _, p in keeping)
        longest = sorted(label for label, p in keeping if p == plies)  # every move tied for the longest, named
        named = longest[0] if len(longest) == 1 else ", ".join(longest[:-1]) + f" or {longest[-1]}"
        every = count if len(moves) == 1 else f"each of {count}"
        return (f"With perfect play, {second}, the second player, wins in {_plies(remoteness)}: {every} leaves "
                f"{second} a win; {first} holds out longest after {named} ({second} wins {_plies(plies)} later).")
    if value == "win":
        label, plies = min(keeping, key=lambda move: (move[1], move[0]))
        which = (f"only {label} of {count} keeps the win" if len(keeping) == 1 else
                 f"{len(keeping)} of {count} keep the win, the fastest {label}")
        after = f" ({_plies(plies)} after it)" if plies else ", and it ends the game"
        return f"With perfect play, {first}, the first player, wins in {_plies(remoteness)}: {which}{after}."
    kept = f"{len(keeping)} of {count} keep{'s' if len(keeping) == 1 else ''} it"
    return f"With perfect play, neither player can force a win: the start is a {value}, and {kept}."


def _plies(number: int | None) -> str:
    return counted(number or 0, "ply", "plies")


def _board(game: Game, spec: str, played: Played, side: str, choice: str) -> None:
    """The played position's drawing, each legal move a link; a click plays its move in the board's
    callback (`clicked_move`), before the run that draws the position after it."""
    from explorer.ui.clickable import clickable_html

    solved = played.match.solved
    links, by_key = {}, {}
    moves = played.moves()
    for number, label, position, _ in moves:
        # The position as it would stand, not its canonical twin: the click names exactly this move.
        key = solved.game.format(position)
        by_key.setdefault(key, number)
        links[label] = _link(spec, played.numbers + [number], side, choice, key)
    # GamesmanUni's hint: off by default, so that a game against the solver is a game. Kept for the session
    # while another tab is open: the tabs run only the open one's panel, and a widget not drawn in a run lost
    # its value (switched on, a look at the Graph tab and back, and the values were off).
    hint = st.toggle("Show move values", key="play_move_values", persist_state="session",
                     help="colour each move on the board by its value for you (win green, loss red, tie amber, "
                          "draw blue); hover a move for its remoteness")
    values = played.move_values() if hint and links else None
    picture = drawing.position_svg(game, played.position, links, values)
    numbers, legal = list(played.numbers), {number for number, *_ in moves}

    def clicked_move() -> None:
        """The move the click names (its `pick`, else the position it reaches), played; a click that names
        no legal move of this board (a stale or forged one) is ignored."""
        clicked = getattr(st.session_state.get(BOARD_KEY), "clicked", None)
        if not isinstance(clicked, str):
            return
        if clicked.isascii() and clicked.isdigit() and len(clicked) <= 9 and int(clicked) in legal:
            _play_move(numbers, int(clicked))
        elif clicked in by_key:
            _play_move(numbers, by_key[clicked])

    with st.container(key="play_board"):
        if not picture:
            st.code(solved.game.format(played.position))
            return
        if links and "<a " in picture:
            st.caption("Click the board to play a move.")
            clickable_html(picture, key=BOARD_KEY, on_click=clicked_move)
            if values:
                st.markdown(drawing.move_legend(), unsafe_allow_html=True)
            return
        st.image(picture)


def _status(game: Game, played: Played, human: int) -> None:
    match = played.match
    solved = match.solved
    shown = solved.game.format(played.position)
    if match.over:
        result = result_for(match, human)
        box = {"win": st.success, "loss": st.warning}.get(result, st.info)  # a loss is not shown in green
        why = played.ending()
        box(f"Game over at `{shown}`: you **{RESULT_WORDS[result]}**." + (f" {_sentence(why)}" if why else ""))
    else:
        value, remoteness = str(match.value(match.node)), match.remoteness(match.node)
        st.markdown(f"### Your move ({player_name(game, human)})")
        st.markdown(f'Position `{shown}` — your value here: '
                    f'{drawing.value_badge(value, remoteness)}', unsafe_allow_html=True)
    mine = [p for p in match.plies if p.player == human]
    theirs = [p for p in match.plies if p.player != human]
    for who, whose, plies in (("Your last move", "your", mine), ("The opponent's answer", "its", theirs)):
        if plies and (plies is mine or plies[-1].ply > (mine[-1].ply if mine else 0)):
            p = plies[-1]
            mark = " — **SLIP**" if p.slip else ""
            st.markdown(f"{who}: `{p.label}`, {whose} value {p.value_before} → {p.value_after}{mark}")
    st.markdown(f"Slips so far: **you {sum(p.slip for p in mine)}**, **opponent {sum(p.slip for p in theirs)}**")
    # The board as played, not its stored (canonical) form: the explorer opens a mirror image as it is given.
    st.caption(f"[Explore this position]({state.link(solved.game.display_name, shown)}) (opens the explorer at "
               f"`{shown}` and leaves the game)")


def _sentence(text: str) -> str:
    """A game's reason as a sentence of the status line (capital first, full stop), as literal text:
    Markdown's characters in it are escaped."""
    text = text[:1].upper() + text[1:]
    return as_text(text if text.endswith(".") else text + ".")


def _move_list(played: Played) -> None:
    """The same moves as compact buttons: for drawings without links, keyboards and screen readers."""
    moves = played.moves()
    if not moves:
        return
    solved = played.match.solved
    texts = [f"{label} → {solved.game.format(position)}" for _, label, position, _ in moves]
    st.caption("Or choose a move from the list (move → position reached):")
    # A row that wraps, each button as wide as its text, so that none is cut at any window width (columns
    # counted from the text's length cut tic-tac-toe's "X b3 → XX./.O./..." at a 1,000 px window).
    with st.container(horizontal=True):
        for (number, _, _, _), text in zip(moves, texts):
            st.button(text, key=f"play_move_{number}", help=text, width="content",
                      on_click=_play_move, args=(list(played.numbers), number))


def _plies_table(played: Played, human: int) -> None:
    st.dataframe([{"ply": p.ply, "who": "you" if p.player == human else "opponent", "move": p.label,
                   "to": shown, "mover's value": f"{p.value_before} → {p.value_after}",
                   "slip": "SLIP" if p.slip else ""} for p, shown in zip(played.match.plies, played.shown)],
                 hide_index=True, width="stretch")


def history_rows(played: Played, human: int) -> list[dict]:
    """The value history from the human's side (a steady line), with the mover's own value kept;
    positions in the frame played."""
    rows = []
    shown = [played.match.solved.game.format(start_position(played.match.solved)), *played.shown]
    for row, position in zip(played.match.history(), shown):
        mine = row["value"] if row["to_move"] == human else FLIP[row["value"]]
        rows.append({"ply": row["ply"], "position": position, "to move": "you" if row["to_move"] == human
                     else "opponent", "value for you": mine, "value for the mover": row["value"],
                     "remoteness": row["remoteness"]})
    return rows


def history_points(played: Played) -> list:
    """The course of the game for the value history (explorer/render/chart.py): each position reached,
    in the frame played, with the move into it and, for a draw, its draw level, or without one its real kind
    (explorer.ui.history.draw_kind: safe or sharp, as the explorer's history says; "non-pure" told nothing,
    every draw of Chopsticks is one). O(plies) after the draw analysis, made once per game."""
    from explorer.algorithms.draw_levels import CLASS_NAMES
    from explorer.render.chart import HistoryPoint
    from explorer.ui.history import draw_kind

    match = played.match
    shown = [match.solved.game.format(start_position(match.solved)), *played.shown]
    labels = [None, *(p.label for p in match.plies)]
    points = []
    for row, position, label in zip(match.history(), shown, labels):
        level = kind = None
        if row["value"] == "draw":
            node = match.find(row["position"])
            code, grade, _ = match.draw_grade(node)
            kind, level = CLASS_NAMES.get(code), (grade if grade >= 0 else None)
            if level is None and match.graph_backed:  # a value file has no graph to analyse
                kind = draw_kind(match.solved, node) or kind
        points.append(HistoryPoint(row["ply"], row["to_move"], row["value"], row["remoteness"], position, label,
                                   level, kind))
    return points


def _history_chart(played: Played, human: int) -> None:
    """GamesmanUni's visual value history of the game so far (explorer/ui/history.py draws it)."""
    from explorer.ui.history import value_history_chart

    game = played.match.solved.game
    names = tuple(player_name(game, p) + (" (you)" if p == human else "") for p in (0, 1))
    value_history_chart(history_points(played), names, key="play_value_history")
