"""Playing on the page (AppTest): the board offers every legal move, the opponent answers, slips are
marked, the URL holds the game, the value history is the solver's."""

from __future__ import annotations

import json
import random
import re
from urllib.parse import parse_qs, urlparse

import pytest

pytest.importorskip("streamlit")
from tests.support.ui_support import isolated, markdown, page, text_of  # noqa: E402,F401 - the autouse fixture
from explorer.games import games, parse_spec  # noqa: E402
from explorer.play import Opponent  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui.play_panel import FLIP, history_rows, replay  # noqa: E402
from explorer.ui.widgets import ECHO_LIMIT  # noqa: E402
from tests.ui.test_boards import small_spec  # noqa: E402


def move_buttons(at):
    return [b for b in at.button if b.key and b.key.startswith("play_move_")]


def test_a_whole_game_against_the_perfect_player():
    """attack-only is a loss for the first player: playing B's best moves against the perfect A wins,
    and the perfect player never slips."""
    solved = build("chopsticks:attack-only")
    assert str(solved.value(0)) == "loss"
    at = page(game="chopsticks:attack-only", view="Play", side="B", opp="perfect")
    assert not at.exception, [e.value for e in at.exception]
    for _ in range(60):
        buttons = move_buttons(at)
        if not buttons:
            break
        # The winning move: to a position lost for the opponent, fastest first.
        targets = [b.label.split(" → ")[1] for b in buttons]
        best = min(range(len(buttons)), key=lambda i: (str(solved.value(solved.graph.find(targets[i]))) != "loss",
                                                        solved.remoteness(solved.graph.find(targets[i])) or 0))
        buttons[best].click().run()
        assert not at.exception, [e.value for e in at.exception]
    assert any("Game over" in s.value for s in at.success)
    assert "you **won**" in at.success[0].value
    table = at.dataframe[0].value
    assert not any((table["who"] == "opponent") & (table["slip"] == "SLIP"))
    plies = at.query_params["play"][0] if isinstance(at.query_params["play"], list) else at.query_params["play"]
    assert plies and all(part.isdigit() for part in plies.split("."))


def test_a_broken_link_is_one_line():
    at = page(game="chopsticks:attack-only", view="Play", play="1.99")
    assert not at.exception
    assert any("stops making sense" in e.value for e in at.error)


def test_a_broken_link_offers_the_restart_it_asks_for():
    """"Restart begins afresh" comes with the panel's Restart button, which starts the same game afresh."""
    at = page(game="chopsticks:attack-only", view="Play", side="B", opp="random", play="1.99")
    assert [e for e in at.error if "Restart begins afresh" in text_of(e.value)], [e.value for e in at.error]
    at.button(key="play_restart").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert len([p for p in at.query_params["play"].split(".") if p]) == 1  # afresh: only A's first move
    assert at.query_params["side"] == "B"
    assert at.query_params["opp"] == "random" and move_buttons(at)


def test_a_bad_ply_quoted_shorter_says_how_much_is_shown():
    at = page(game="nim:small", view="Play", play="9" * 9000)
    shown = text_of(at.error[0].value)
    assert f"'{'9' * ECHO_LIMIT}'…, {ECHO_LIMIT} characters shown of 9,000" in shown, shown
    short = page(game="nim:small", view="Play", play="77")
    assert "'77')" in text_of(short.error[0].value) and "shown of" not in short.error[0].value


def test_a_dobutsu_loss_says_which_piece_takes_the_lion():
    """Dōbutsu shōgi ends when a lion can be taken, before the capture: the panel says so in the game's
    words, or the user sees "you lost" beside a board where nothing was taken."""
    game = parse_spec("dobutsu:lions")
    at = page(game="dobutsu:lions", view="Play", side="A", opp="perfect")
    for _ in range(12):
        buttons = move_buttons(at)
        if not buttons:
            break
        # The blunder: a lion step after which B can take A's lion, if there is one; else the first move.
        hanging = [b for b in buttons if game.outcome(game.parse(b.label.split(" → ")[1])) is not None]
        (hanging or buttons)[0].click().run()
        assert not at.exception, [e.value for e in at.exception]
    over = [w.value for w in at.warning if "Game over" in w.value]
    assert over and "you **lost**" in over[0], [w.value for w in at.warning]
    assert re.search(r"B's lion on [a-c][1-4] can take A's lion on [a-c][1-4]", text_of(over[0])), over[0]


def board_markup(at) -> str:
    """The SVG handed to the clickable board component of the Play tab."""
    element = next(e for e in at.get("bidi_component") if e.proto.id.endswith("play_board_svg"))
    return json.loads(element.proto.json)


def board_links(at) -> dict[str, dict[str, str]]:
    """data-move label -> the query of its link."""
    svg = board_markup(at)
    return {move: {k: v[0] for k, v in parse_qs(urlparse(href.replace("&amp;", "&")).query).items()}
            for href, move in re.findall(r'<a href="([^"]+)" data-move="([^"]+)"', svg)}


def positions_played(game, play: str):
    """The positions of a `play=` value, replayed from the rules alone (no solved graph)."""
    position = game.start()
    seen = [position]
    for part in filter(None, play.split(".")):
        position = game.moves(position)[int(part) - 1].position
        seen.append(position)
    return seen


def test_the_board_offers_every_legal_move_as_a_link_to_the_game_after_it():
    game = parse_spec("tictactoe")
    at = page(game="tictactoe", view="Play")
    assert not at.exception, [e.value for e in at.exception]
    links = board_links(at)
    moves = game.moves(game.start())
    assert sorted(links) == sorted(m.label for m in moves) and len(links) == 9
    for number, move in enumerate(moves, 1):
        query = links[move.label]
        assert query["play"] == str(number) and query["view"] == "Play"
        assert query["pos"] == game.format(move.position)  # the position as played, not its canonical twin


def test_following_a_board_link_plays_the_move_in_the_frame_played_and_the_opponent_answers():
    game = parse_spec("tictactoe")
    solved = build("tictactoe")
    at = page(game="tictactoe", view="Play")
    query = board_links(at)["X c1"]
    at.query_params["play"] = query["play"]   # what the click does
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    play = at.query_params["play"]
    assert play.startswith(query["play"] + ".") and len(play.split(".")) == 2  # the opponent answered once
    shown = positions_played(game, play)[-1]
    assert f"Position `{game.format(shown)}`" in markdown(at)
    assert game.format(shown).endswith("..X")   # X stays where it was put (c1), whatever the symmetry
    # the answer is a best move: the value for X did not change (perfect play keeps a tie)
    assert str(solved.value(solved.graph.node_of(shown))) == "tie"
    assert "Slips so far: **you 0**, **opponent 0**" in markdown(at)


@pytest.mark.parametrize("spec,side", [("chopsticks:attack-only", "A"), ("chopsticks:attack-only", "B"),
                                       ("tictactoe", "B"), ("ponghauki", "A")])
def test_a_whole_random_game_the_perfect_player_never_slips_and_the_history_is_the_solvers(spec, side):
    solved = build(spec)
    game = solved.game
    at = page(game=spec, view="Play", side=side)
    rng = random.Random(7)
    human = "AB".index(side)
    for _ in range(60):
        assert not at.exception, [e.value for e in at.exception]
        buttons = [b for b in at.button if b.key and b.key.startswith("play_move_")]
        if not buttons:
            break
        rng.choice(buttons).click().run()
    play = at.query_params["play"]
    played = replay(solved, play)
    match = played.match
    # independently of the page: every opponent ply keeps the value it had (the perfect player never slips)
    seen = positions_played(game, play)
    for ply, (before, after) in enumerate(zip(seen, seen[1:])):
        if game.to_move(before) != human:
            value_before = solved.value(solved.graph.node_of(before))
            value_after = solved.value(solved.graph.node_of(after)).for_previous_player()
            assert value_after == value_before, (ply, game.format(before), game.format(after))
    theirs = sum(p.slip for p in match.plies if p.player != human)
    mine = sum(p.slip for p in match.plies if p.player == human)
    assert theirs == 0 and f"Slips so far: **you {mine}**, **opponent 0**" in markdown(at)
    rows = history_rows(played, human)
    assert len(rows) == len(seen) == len(match.plies) + 1
    for row, position in zip(rows, seen):
        assert row["position"] == game.format(position)   # as played, not the canonical twin
        node = solved.graph.node_of(position)
        mover = str(solved.value(node))
        assert row["value for the mover"] == mover and row["remoteness"] == solved.remoteness(node)
        assert row["value for you"] == (mover if game.to_move(position) == human else FLIP[mover])


def test_undo_goes_back_to_the_players_turn_and_restart_empties_the_game():
    at = page(game="chopsticks:attack-only", view="Play", side="A")
    at.button(key="play_move_1").click().run()
    at.button(key="play_move_1").click().run()
    assert len(at.query_params["play"].split(".")) == 4
    at.button(key="play_undo").click().run()
    assert len(at.query_params["play"].split(".")) == 2
    at.button(key="play_restart").click().run()
    assert at.query_params["play"] == "" and not at.exception


def test_while_playing_the_explored_position_is_folded_away_and_says_what_it_is():
    graph = build("tictactoe").graph
    key = graph.key(graph.find("X../.../..."))
    at = page(game="tictactoe", view="Play", pos=key)
    labels = [e.label for e in at.expander]
    assert any(label.startswith(f"Explored position `{key}`") for label in labels), labels
    assert any("You (X) against the perfect player (O)" in s.value for s in at.subheader)
    at = page(game="tictactoe", view="History", pos=key)
    assert not any(e.label.startswith("Explored position") for e in at.expander)


def test_the_opponent_parser_used_by_the_tab_refuses_nonsense():
    with pytest.raises(Exception, match="not valid"):
        Opponent.parse("slip=2")


def click_component(at, key: str, value: str):
    """A click inside the Streamlit component `key`, sent as the browser sends it: the component's event
    (`setTriggerValue('clicked', value)`) as its trigger widget's value, the other widgets as they stand.
    AppTest has no click for a component, so this builds the run's widget states itself; then the page
    runs once, with the component's callback first, as on a real page. Returns the AppTest."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    element = next(e for e in at.get("bidi_component") if e.proto.id.endswith(key))
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=_make_trigger_id(element.proto.id, "events"),
                                      json_trigger_value=json.dumps([{"event": "clicked", "value": value}])))
    return at._run(states)


@pytest.mark.parametrize("spec,label", [("chopsticks", "R>R"), ("chopsticks", "L>R"), ("tictactoe", "X b1"),
                                        ("ponghauki", None)])
def test_a_click_on_the_play_board_plays_that_move_as_played(spec, label):
    """The board component reports a click with the `pick` of the link clicked (tests/ui/test_play_browser.py
    clicks in Chromium); the page plays exactly that move, even where two moves reach one position
    (R>R and L>R from 1-1|1-1)."""
    game = parse_spec(spec)
    moves = game.moves(game.start())
    label = label or moves[-1].label
    at = page(game=spec, view="Play", side="A")
    assert not at.exception, [e.value for e in at.exception]
    link = board_links(at)[label.replace(">", "&gt;")]
    number = [m.label for m in moves].index(label) + 1
    assert link["pick"] == str(number)
    click_component(at, "play_board_svg", link["pick"])
    assert not at.exception, [e.value for e in at.exception]
    play = at.query_params["play"]
    assert play.split(".")[0] == str(number), (play, number)
    assert f"Your last move: `{label}`" in markdown(at)
    shown = positions_played(game, play)[-1]
    assert game.outcome(shown) is not None or f"Position `{game.format(shown)}`" in markdown(at)


@pytest.fixture
def runs(monkeypatch):
    """How many times the page ran the Play panel (each script run draws it once), as a list to read."""
    from explorer.ui import play_panel

    counted = [0]
    drawn = play_panel.panel

    def counting(*args, **kwargs):
        counted[0] += 1
        return drawn(*args, **kwargs)

    monkeypatch.setattr(play_panel, "panel", counting)
    return counted


def test_each_play_control_costs_one_run_and_the_page_after_it_is_drawn_in_it(runs):
    """A click on the board, a move of the list, Undo, Restart and a new side each change the game in their
    callback, before the run: one script run each, drawing the position after the click. (They were two:
    the click's run applied the move to the URL and called st.rerun() to draw it.)"""
    game = parse_spec("tictactoe")
    at = page(game="tictactoe", view="Play", side="A", opp="perfect")
    assert runs[0] == 1 and not at.exception

    def once(action, what):
        before = runs[0]
        action()
        assert not at.exception, [e.value for e in at.exception]
        assert runs[0] - before == 1, f"{what} took {runs[0] - before} runs"

    link = board_links(at)["X b2"]
    once(lambda: click_component(at, "play_board_svg", link["pick"]), "a click on the board")
    play = at.query_params["play"]
    assert play.split(".")[0] == link["pick"] and len(play.split(".")) == 2  # the move and the answer
    after = positions_played(game, play)[-1]
    assert f"Position `{game.format(after)}`" in markdown(at)   # drawn in that same run
    assert sorted(board_links(at)) == sorted(m.label for m in game.moves(after))
    once(lambda: at.button(key=move_keys(at)[0]).click().run(), "a move of the list")
    assert len(at.query_params["play"].split(".")) == 4
    once(lambda: at.button(key="play_undo").click().run(), "Undo")
    assert at.query_params["play"] == play
    once(lambda: at.button(key="play_restart").click().run(), "Restart")
    assert at.query_params["play"] == "" and "Your last move" not in markdown(at)
    once(lambda: at.radio(key="play_side").set_value("B").run(), "choosing the side")
    assert at.query_params["side"] == "B" and len(at.query_params["play"].split(".")) == 1  # X answered


def test_a_click_naming_no_move_of_the_board_changes_nothing(runs):
    at = page(game="tictactoe", view="Play", side="A")
    for stale in ("10", "0", "O../.../...", "1" * 12):  # no such move; a position no move reaches
        click_component(at, "play_board_svg", stale)
        assert not at.exception and not at.error, stale
        assert at.query_params.get("play", "") == "", stale


def move_keys(at) -> list[str]:
    return [b.key for b in at.button if b.key and b.key.startswith("play_move_")]


@pytest.mark.parametrize("name", sorted(n for n, c in games().items() if c.__module__.startswith("explorer.games.")))
def test_every_shipped_game_is_played_on_its_board(name):
    """The Play tab's board offers exactly the legal moves of the start, each once, as links."""
    spec = small_spec(name)
    game = parse_spec(spec)
    at = page(game=spec, view="Play", side="A")
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    labels = [m.label.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace('"', "&quot;")
              for m in game.moves(game.start())]
    assert sorted(board_links(at)) == sorted(labels)


def test_a_slip_of_the_player_is_marked_where_the_move_is_reported():
    """X throws away the tie: the page says so, with the values before and after, from the solver."""
    solved = build("tictactoe")
    game = solved.game
    for first in range(1, 10):   # a first move after which O's answer leaves X a losing move
        at = page(game="tictactoe", view="Play", side="A", play=str(first))
        position = positions_played(game, at.query_params["play"])[-1]
        moves = game.moves(position)
        losing = [i for i, m in enumerate(moves, 1)
                  if solved.value(solved.graph.node_of(m.position)).for_previous_player() < solved.value(
                      solved.graph.node_of(position))]
        if losing:
            break
    assert losing
    at.query_params["play"] = f"{at.query_params['play']}.{losing[0]}"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    label = moves[losing[0] - 1].label
    assert f"Your last move: `{label}`, your value tie → loss — **SLIP**" in markdown(at)
    assert "Slips so far: **you 1**, **opponent 0**" in markdown(at)


def test_the_value_history_colours_values_as_the_badges_and_diagrams():
    """A tie was purple in the value history but yellow in the badges and diagrams: one colour per
    value, the palette's (explorer/render/palette.py)."""
    from explorer.render import palette
    from explorer.ui.drawing import value_badge
    from tests.render.test_palette import colour_scales, page_charts

    at = page(game="tictactoe", view="Play", side="A", play="1")
    assert not at.exception, [e.value for e in at.exception]
    scales = [scale for chart in page_charts(at) for scale in colour_scales(chart)]
    assert len(scales) == 1  # the value history's points (explorer/render/chart.py)
    for scale in scales:
        assert scale == palette.COLOURS
        for value, colour in scale.items():
            assert f"border:1px solid {colour};" in value_badge(value)


@pytest.mark.parametrize("spec", ["nim:small", "dodgem:3x3", "tictactoe", "chopsticks:attack-only"])
def test_the_play_tab_says_why_the_start_is_won_or_lost(spec):
    """One sentence from the solved values of the first moves, for any game: who wins with perfect play,
    and, when the first player loses, that every first move leaves the other a win and which holds out
    longest (Dōbutsu shōgi's second-player win, said instead of only citing Tanaka)."""
    from explorer.play import Match, Played, start_position
    from explorer.ui.play_panel import opening

    solved = build(spec)
    sentence = opening(solved)
    played = Played(Match(solved), start_position(solved))
    values = played.move_values()
    value = str(solved.value(0))
    if value == "loss":
        most = max(plies for _, plies in values.values())
        tied = sorted(label for label, (_, plies) in values.items() if plies == most)  # all named, not one
        assert "the second player, wins" in sentence and f"each of A's {len(values)} first moves" in sentence
        named = sentence.split("holds out longest after ")[1]
        assert all(label in named for label in tied) and f"(B wins {most} plies later)" in sentence, sentence
    elif value == "win":
        assert "the first player, wins" in sentence and f"in {solved.remoteness(0)} plies" in sentence, sentence
    else:
        kept = sum(1 for after, _ in values.values() if after == value)
        assert f"the start is a {value}, and {kept} of" in sentence, sentence
    at = page(game=spec, view="Play")
    assert any(text_of(c.value) == sentence for c in at.caption), [c.value for c in at.caption]


def test_the_opening_sentence_is_the_same_over_a_value_file(tmp_path):
    """The value-file page's Play tab (explorer/ui/implicit_page.py) gets the same sentence from its reader."""
    from explorer.ui.play_panel import opening
    from tests.explorer.test_play import _value_reader

    values = _value_reader("dodgem:3x3", tmp_path, False)
    assert opening(values) == opening(build("dodgem:3x3", symmetry=False))
    assert "Blue, the first player, wins in 20 plies" in opening(values)


def test_each_move_button_carries_its_full_text_as_a_tooltip():
    at = page(game="teeko:small", view="Play")
    assert not at.exception, [e.value for e in at.exception]
    buttons = move_buttons(at)
    assert buttons and all(b.help == b.label and " → " in b.label for b in buttons)
