"""`gamegraph show SPEC POSITION` of a finished position says why the game ended and who won
(explorer.play.game_over, from Game.ending), for every built-in game; an unfinished one does not."""

from __future__ import annotations

import json
import re

import pytest

from explorer.cli import main
from explorer.games import parse_spec
from tests.ui.test_game_over import BUILTIN, small_spec, terminal_position, words


@pytest.fixture()
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GAMEGRAPH_PROGRESS", "0")
    return tmp_path / "home"


@pytest.mark.parametrize("name", BUILTIN)
def test_show_of_a_finished_position_names_its_ending(name, home, capsys):
    spec = small_spec(name)
    game = parse_spec(spec)
    position = terminal_position(spec)
    assert main(["show", spec, game.format(position)]) == 0
    out = capsys.readouterr().out
    ending = words(game.ending(position).rstrip("."))
    said = next((line for line in out.splitlines() if line.startswith("Game over")), None)
    assert said is not None and ending in words(said), out
    assert " to move" not in out, out  # nobody is to move in a finished game
    assert main(["show", spec, game.format(position), "--format", "json"]) == 0
    assert ending in json.loads(capsys.readouterr().out)["game_over"]


def test_show_of_an_unfinished_position_has_no_ending(home, capsys):
    assert main(["show", "tictactoe"]) == 0
    out = capsys.readouterr().out
    assert "Game over" not in out and re.search(r"player X to move", out)
    assert main(["show", "tictactoe", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["game_over"] is None


@pytest.mark.parametrize("name", [name for name in BUILTIN if parse_spec(small_spec(name)).has_symmetry()])
def test_show_of_the_start_names_each_move_with_the_board_it_reaches(name, home, capsys):
    """Without a position, `show` prints the start's moves as played on the start's board (the UI's moves
    table), not as the stored mirror images: tic-tac-toe's "X a3" reaches X../.../..., not .../.../..X."""
    spec = small_spec(name)
    game = parse_spec(spec)
    assert main(["show", spec]) == 0
    out = capsys.readouterr().out
    if game.outcome(game.start()) is not None:  # a start with no move (domineering 1x1) prints no table
        assert "remoteness\n" not in out
        return
    expected = {(m.label, game.format(m.position)) for m in game.moves(game.start())}
    table = out.split("remoteness\n", 1)[1].split("\n\n", 1)[0].splitlines()
    printed = {tuple(re.split(r"\s{2,}", line[2:].strip())[:2]) for line in table}
    assert printed and printed <= expected, out  # one move per symmetry class is stored, each as played here
