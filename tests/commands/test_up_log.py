"""`gamegraph up`'s log line per game: a symmetry-reduced count says so, with the count in all beside it
(it said "connect4:small 80541 positions 152287 moves" while README and check-game say 161,029)."""

from __future__ import annotations

import pytest

from explorer.commands import up
from explorer.graph import generate
from explorer.games import parse_spec
from explorer.solved import build


def test_a_symmetric_game_is_counted_up_to_symmetry_and_in_all(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    up._prepare("tictactoe", None, None)
    line = capsys.readouterr().err
    assert "765 positions and 2,096 moves up to symmetry (5,478 positions in all)" in line, line


@pytest.mark.parametrize("spec", ["tictactoe", "nim:marienbad", "connect4(width=4,height=3,connect=3)"])
def test_the_count_in_all_is_the_graph_without_symmetry(spec):
    solved = build(spec)
    full = generate(parse_spec(spec), symmetry=False)
    assert f"up to symmetry ({full.num_positions:,} positions in all)" in up.counted_graph(solved)
    assert full.num_positions > solved.graph.num_positions


def test_a_game_without_symmetry_is_counted_plainly(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    up._prepare("dodgem:3x3", None, None)
    line = capsys.readouterr().err
    assert "symmetry" not in line and f"{build('dodgem:3x3').graph.num_positions:,} positions and " in line, line
