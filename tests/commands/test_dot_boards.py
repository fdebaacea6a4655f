"""`gamegraph dot --boards`: a line or a cycle drawn with each position as its board, played in one orientation."""

from __future__ import annotations

import re
import shutil

import pytest

from explorer.cli import main


def test_a_tictactoe_line_draws_boards_that_follow_the_moves(tmp_path):
    out = tmp_path / "line.dot"
    assert main(["dot", "tictactoe", "shortest-win", "--position", "X../.O./...", "--boards", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    boards = ["".join(re.findall(r"<B>([XO ])</B>", line)).replace(" ", ".")
              for line in text.splitlines() if re.match(r"\s*n\d+ \[label=<<TABLE", line)]
    assert boards[0] == "X...O...."
    for before, after in zip(boards, boards[1:]):  # one more mark each move, none moved
        changed = [i for i in range(9) if before[i] != after[i]]
        assert len(changed) == 1 and before[changed[0]] == "."


def test_a_chopsticks_cycle_draws_hands(tmp_path):
    out = tmp_path / "cycle.dot"
    assert main(["dot", "chopsticks", "cycle", "--boards", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count(">left<") == 8
    assert "position colour: its value for the player to move there" in text  # the legend, both colour rules
    assert "move colour: its value for the player who makes it" in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_a_board_line_renders_as_png(tmp_path):
    out = tmp_path / "line.png"
    assert main(["dot", "chopsticks", "shortest-win", "--position", "A|3-3|3-2", "--boards", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_boards_are_for_lines_and_cycles_only(tmp_path, capsys):
    assert main(["dot", "chopsticks", "graph", "--boards", "-o", str(tmp_path / "g.dot")]) == 2
    assert "--boards draws the boards of a line or a cycle" in capsys.readouterr().err
