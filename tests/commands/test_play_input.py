"""`gamegraph play` when standard input ends before the game does. It exited 0 with `</dev/null`, so a script could
not tell a game played to its end from one abandoned at the first move. Now the game is left unfinished in one
line on standard error and exit status 4 (EXIT_UNFINISHED); a game that ends, or stops at --max-plies, exits 0;
a refused move is exit 2, as every refused input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from explorer.commands.play import EXIT_UNFINISHED


def play(home, *args: str, stdin=None, input: str | None = None, shell_suffix: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"}
    if shell_suffix:  # a redirection only a shell can make (`0<&-`: no standard input at all)
        import shlex

        line = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "explorer.cli", "play", *args])
        return subprocess.run(f"{line} {shell_suffix}", shell=True, capture_output=True, text=True, env=env,
                              timeout=300, cwd="/")
    return subprocess.run([sys.executable, "-m", "explorer.cli", "play", *args], capture_output=True, text=True,
                          env=env, timeout=300, cwd="/", stdin=stdin, input=input)


def unfinished_line(out: subprocess.CompletedProcess, plies: int) -> None:
    assert out.returncode == EXIT_UNFINISHED == 4, (out.stdout[-300:], out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert lines[0].startswith("gamegraph: play: the game was left unfinished after "
                               f"{plies} {'ply' if plies == 1 else 'plies'}") and "standard input" in lines[0]


@pytest.mark.parametrize("how", ["devnull", "closed", "empty pipe"])
def test_no_input_at_all_leaves_the_game_unfinished(tmp_path, how):
    home = tmp_path / "home"
    out = (play(home, "tictactoe", stdin=subprocess.DEVNULL) if how == "devnull" else
           play(home, "tictactoe", shell_suffix="0<&-") if how == "closed" else
           play(home, "tictactoe", input=""))
    unfinished_line(out, 0)
    assert "X to move" in out.stdout  # the position and the moves offered were shown first


def test_a_pipe_that_ends_mid_game_leaves_it_unfinished(tmp_path):
    """`printf 'a1\\n' | gamegraph play tictactoe`: a1 is X's move to a1 (the label without the mover's letter),
    the perfect player answers, and the input ends: two plies."""
    out = play(tmp_path / "home", "tictactoe", input="a1\n")
    unfinished_line(out, 2)
    assert "you: X a1 -> " in out.stdout and "opponent: O " in out.stdout


def test_json_keeps_its_report_and_says_the_same(tmp_path):
    out = play(tmp_path / "home", "tictactoe", "--format", "json", input="1\n")
    unfinished_line(out, 2)
    report = json.loads(out.stdout)
    assert not report["over"] and report["result"] is None and len(report["plies"]) == 2
    assert report["stopped"] == "no more moves on standard input"


def test_a_game_that_ends_and_one_stopped_at_max_plies_exit_0(tmp_path):
    home = tmp_path / "home"
    ended = play(home, "tictactoe", input="1\n" * 9)
    assert ended.returncode == 0 and "game over after" in ended.stdout and not ended.stderr, ended.stderr
    stopped = play(home, "tictactoe", "--max-plies", "2", input="1\n" * 9)
    assert stopped.returncode == 0 and not stopped.stderr, stopped.stderr
    assert "game stopped after 2 plies: the limit set by --max-plies" in stopped.stdout
    bad = play(home, "tictactoe", input="z9\n")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not a legal move" in bad.stderr


def test_a_label_without_the_movers_letter_names_a_move_only_when_it_names_one(tmp_path):
    from explorer.games import parse_spec
    from explorer.play import Match, Played, start_position
    from explorer.solved import build

    solved = build(parse_spec("tictactoe"))
    played = Played(Match(solved), start_position(solved))
    labels = {label: number for number, label, _, _ in played.moves()}
    assert played.find("a1") == labels["X a1"] == played.find("X a1")
    with pytest.raises(Exception, match="not a legal move"):
        played.find("")
    nim_solved = build(parse_spec("nim:small"))
    nim = Played(Match(nim_solved), start_position(nim_solved))
    # "take 1 from heap 1" less its first word is "1 from heap 1": a number typed is still a move's number.
    assert nim.find("1") == 1
