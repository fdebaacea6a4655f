"""`gamegraph play --side`: the game's own names for its sides (X and O, Blue and Red), in any case, as well
as A and B; a side the game does not have is refused in one line that names them. `--side X` answered
"choose A or B" while the page calls the sides "A (X)"."""

from __future__ import annotations

import json

import pytest

from explorer.cli import main
from explorer.commands.play import EXIT_UNFINISHED


def played_side(capsys, *args: str) -> str:
    """The side the JSON report says was played; no input, so the game stops at the human's first move
    (EXIT_UNFINISHED) or after the opponent's (--max-plies 1)."""
    assert main(["play", *args, "--format", "json", "--max-plies", "1"]) in (0, EXIT_UNFINISHED)
    return json.loads(capsys.readouterr().out)["side"]


@pytest.mark.parametrize("spec,side,index", [("tictactoe", "X", "A"), ("tictactoe", "o", "B"),
                                             ("dodgem:3x3", "blue", "A"), ("dodgem:3x3", "RED", "B"),
                                             ("ponghauki", "Red", "A"), ("tictactoe", "b", "B"),
                                             ("chopsticks", "second", "B"), ("tictactoe", " x ", "A")])
def test_a_game_s_own_name_for_a_side_is_that_side(spec, side, index, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", open("/dev/null"))
    assert played_side(capsys, spec, "--side", side, "--opponent", "random") == index


@pytest.mark.parametrize("spec,side,names", [("tictactoe", "Z", "choose X (or A), who moves first, or O (or B)"),
                                             ("dodgem:3x3", "X", "choose Blue (or A), who moves first, or Red (or B)"),
                                             ("chopsticks", "X", "choose A, who moves first, or B")])
def test_a_side_the_game_does_not_have_is_refused_naming_its_sides(spec, side, names, capsys):
    assert main(["play", spec, "--side", side]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"side {side!r} is not valid for" in err and names in err, err


def test_a_long_side_is_cut_in_the_refusal(capsys):
    assert main(["play", "tictactoe", "--side", "Q" * 5_000]) == 2
    assert len(capsys.readouterr().err) < 300
