"""`gamegraph dot` on a game too large for its solved graph: refused at once in one line that says dot draws
from the solved graph with its edges, and names what reads a value file instead (never --max-positions,
which dot does not take)."""

from __future__ import annotations

import pytest

from explorer import tiered
from explorer.cli import main


@pytest.mark.parametrize("spec", ["connect4:6x4", "teeko"])
def test_a_game_too_large_to_draw_names_the_solve_that_show_play_and_the_ui_read(spec, tmp_path, capsys, monkeypatch):
    # Not yet solved by tiers: the suite's shared state folder may hold connect4:6x4's tier files from
    # tests/games/test_connect4.py, which turns this refusal into the one after a tiered solve (below).
    monkeypatch.setattr(tiered, "exists", lambda game: False)
    assert main(["dot", spec, "shortest-win", "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "dot draws from the solved graph with its edges, which this game is too large for" in err
    assert "--max-positions" not in err
    assert "--tiered" in err and "gamegraph show" in err and "gamegraph play" in err and "the UI" in err
    assert not (tmp_path / "x.svg").exists()


def test_after_a_tiered_solve_the_refusal_names_what_reads_the_tier_files(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(tiered, "exists", lambda game: game.name == "connect4")  # the solve itself takes minutes
    assert main(["dot", "connect4:6x4", "shortest-win", "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "its tiered solve is read by `gamegraph show connect4:6x4`, `gamegraph play connect4:6x4` and the UI" in err
    assert "gamegraph dot 'connect4:6x4@around(POSITION;radius=2;both)' neighbourhood" in err
    assert "--max-positions" not in err and "solve connect4:6x4 --tiered" not in err


def test_a_game_that_fits_is_drawn(tmp_path):
    assert main(["dot", "tictactoe", "shortest-win", "-o", str(tmp_path / "x.dot")]) == 0


@pytest.mark.parametrize("spec", ["connect4:6x4", "teeko"])
def test_a_game_too_large_to_certify_is_refused_without_naming_an_option_certificate_lacks(spec, tmp_path, capsys):
    """certificate has no --max-positions, yet its refusal told the user to raise it (a stranger's note)."""
    assert main(["certificate", spec, "-o", str(tmp_path / "cert.json")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "a certificate is read off the game's whole solved graph" in err and "--max-positions" not in err
    assert not (tmp_path / "cert.json").exists()
