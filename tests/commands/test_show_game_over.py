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
