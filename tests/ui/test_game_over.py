"""A finished position says that the game is over and why, everywhere it is shown: every board's
caption (never "B to move" after the last move), the explorer's position view and `gamegraph show`.

Every built-in game is covered (a game added later is too): a terminal position is found in the
smallest graph of the game that has one, and the text must name its Game.ending.
"""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("streamlit")
from explorer.games import games, parse_spec  # noqa: E402
from explorer.play import game_over  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui import position as ui_position  # noqa: E402
from explorer.ui.boards import board_svg, turn_caption  # noqa: E402
from tests.games.test_smallest_parameters import smallest_specs  # noqa: E402
from tests.support.ui_support import isolated, markdown, page, text_of  # noqa: E402,F401 - the autouse fixture

BUILTIN = sorted(name for name, cls in games().items() if cls.__module__.startswith("explorer.games."))


def small_spec(name: str) -> str:
    """The game's smallest parameters whose random play reaches a finished position with a reason;
    some games' smallest ones end only level (connect4 1x1), so the next are tried, then the defaults."""
    candidates = [spec for spec in smallest_specs() if re.match(rf"{re.escape(name)}(\(|$)", spec)] + [name]
    for spec in candidates:
        if terminal_position(spec) is not None:
            return spec
    pytest.fail(f"{name}: no finished position with a reason found")


def terminal_position(spec: str, tries: int = 40):
    """A finished position of `spec` reached by random play whose Game.ending gives a reason, else None."""
    game = parse_spec(spec)
    rng = random.Random(7)
    for _ in range(tries):
        position = game.start()
        for _ in range(400):
            if game.outcome(position) is not None:
                break
            position = rng.choice(game.moves(position)).position
        if game.outcome(position) is not None and game.ending(position):
            return position
    return None


def plain(text: str) -> str:
    """Markup reduced to the words a reader sees: tags dropped, entities and line breaks undone."""
    import html

    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("name", BUILTIN)
def test_a_finished_board_says_why_the_game_ended_and_not_whose_move_it_is(name):
    spec = small_spec(name)
    game = parse_spec(spec)
    position = terminal_position(spec)
    ending = game.ending(position).strip().rstrip(".")
    picture = board_svg(game, position, {})
    if picture is None:
        pytest.skip(f"{name} has no board drawing")
    seen = plain(picture)
    assert "to move" not in seen, f"{spec}: a finished board says whose move it is: {seen!r}"
    assert "Game over" in seen and words(ending) in words(seen), f"{spec}: {seen!r} does not name {ending!r}"


@pytest.mark.parametrize("name", BUILTIN)
def test_an_unfinished_board_still_says_whose_move_it_is(name):
    game = parse_spec(name)  # the defaults: some smallest boards are over at the start
    start = game.start()
    assert game.outcome(start) is None
    assert turn_caption(game, start).endswith(" to move")
    picture = board_svg(game, start, {})
    if picture is not None and name != "tictactoe":  # tic-tac-toe's marks say it: no caption
        assert "Game over" not in plain(picture) and " to move" in plain(picture)


def test_the_caption_names_the_winner_from_the_value_for_the_player_to_move():
    game = parse_spec("tictactoe")
    won_by_x = game.parse("OOX/XXX/OXO")  # O to move, lost: X wins
    assert game_over(game, won_by_x) == "Game over: X has three in a row. X wins."
    assert game_over(game, game.start()) is None


@pytest.mark.parametrize("name", BUILTIN)
def test_the_explorer_summary_of_a_finished_position_names_its_ending(name):
    spec = small_spec(name)
    game = parse_spec(spec)
    position = terminal_position(spec)
    solved = build(game)
    node = solved.graph.node_of(position)
    said = text_of(ui_position.summary(game, solved, node, position))
    assert said.startswith("Game over") and words(game.ending(position).rstrip(".")) in words(said), said


def test_the_explorer_page_of_a_finished_position_says_why_and_its_board_does_not_say_to_move():
    game = parse_spec("tictactoe")
    at = page(game="tictactoe", pos="OOX/XXX/OXO")
    assert not at.exception, [e.value for e in at.exception]
    shown = text_of(markdown(at))
    assert "X has three in a row. X wins." in shown
    assert "O to move" not in shown and "(to move)" not in shown and game.ending(game.parse("OOX/XXX/OXO")) in shown


@pytest.mark.parametrize("name", BUILTIN)
def test_the_history_table_names_nobody_to_move_on_a_finished_position(name):
    """The explorer's History table agrees with the header: "—" to move where the game is over (remoteness 0),
    the player's name everywhere else."""
    from explorer.games.base import player_name
    from explorer.ui import history, state

    spec = small_spec(name)
    game, solved = parse_spec(spec), build(spec)
    finished = solved.graph.find(game.format(terminal_position(spec)))
    trail = []
    for node in (0, finished):
        record = solved.record(node)
        trail.append(state.Step(solved.graph.key(node), record["to_move"], record["value"], record["remoteness"]))
    start, end = history.rows(game, trail)
    assert end["to move"] == "—"
    if solved.record(0)["remoteness"] != 0:
        assert start["to move"] == player_name(game, solved.record(0)["to_move"])
