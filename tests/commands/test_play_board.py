"""`gamegraph play` in a terminal (issue 37): the board is drawn before every move (the game's own text drawing,
explorer.commands.play.board_text), the player is prompted with the legal moves, `q` quits with EXIT_UNFINISHED,
and `--no-board` keeps the plain lines a script reads (the same output less the drawings and the prompt)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from explorer.commands.play import EXIT_UNFINISHED, board_text
from explorer.games import parse_spec

PROMPT = "  your move (its number, its label or the position it reaches; q quits): "


def play(home, *args: str, input: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"}
    return subprocess.run([sys.executable, "-m", "explorer.cli", "play", *args], capture_output=True, text=True,
                          env=env, timeout=300, cwd="/", input=input)


def drawn(game, position) -> str:
    return "\n".join("    " + line for line in board_text(game, position).splitlines())


def test_the_board_is_drawn_before_every_move_and_after_the_last(tmp_path):
    game = parse_spec("tictactoe")
    out = play(tmp_path / "home", "tictactoe", input="a1\nb1\nc1\na2\nb2\nc2\n")
    assert out.returncode in (0, 2), out.stderr  # the perfect O may end it before all moves are read
    start = game.start()
    # the files and ranks the moves name ("X a1"), as on the page's and the diagrams' boards
    assert drawn(game, start) == "    3 . . .\n    2 . . .\n    1 . . .\n      a b c"
    assert drawn(game, start) + "\n" + game.format(start) + ": X to move" in out.stdout
    after = next(m.position for m in game.moves(start) if m.label == "X a1")
    assert "    3 . . .\n    2 . . .\n    1 X . .\n      a b c\n" + game.format(after) + ": O to move" in out.stdout
    # one drawing per position shown, each right above its line
    lines = out.stdout.splitlines()
    positions = [i for i, line in enumerate(lines) if " to move, " in line]
    assert positions and all(lines[i - 4:i] == drawn(game, game.parse(lines[i].split(":")[0])).splitlines()
                             for i in positions)
    # the finished game's board is drawn too, right before the result
    ended = play(tmp_path / "home", "tictactoe", "--opponent", "random", input="1\n" * 5)
    assert ended.returncode == 0, ended.stderr
    lines = ended.stdout.splitlines()
    over = next(i for i, line in enumerate(lines) if line.startswith("game over after "))
    last = next(line for line in reversed(lines[:over]) if " -> " in line).split(" -> ")[1].split()[0]
    assert game.outcome(game.parse(last)) is not None and lines[over - 4:over] == drawn(game, game.parse(last)).splitlines()


def test_the_prompt_follows_the_legal_moves(tmp_path):
    game = parse_spec("tictactoe")
    labels = [m.label for m in game.moves(game.start())]
    out = play(tmp_path / "home", "tictactoe", input="")
    listed = "  your moves: " + ", ".join(f"{i}) {label}" for i, label in enumerate(labels, 1))
    assert listed + "\n" + PROMPT in out.stdout, out.stdout
    assert out.returncode == EXIT_UNFINISHED


def test_q_quits_with_its_exit_status_and_one_line(tmp_path):
    for word in ("q", "Q", "quit"):
        out = play(tmp_path / "home", "tictactoe", input=f"a1\n{word}\n")
        assert out.returncode == EXIT_UNFINISHED == 4, (out.stdout[-300:], out.stderr)
        assert out.stderr.strip().splitlines() == [
            "gamegraph: play: you quit; the game was left unfinished after 2 plies; exit status 4"]
        assert "game over" not in out.stdout and "value history" in out.stdout
    plain = play(tmp_path / "home", "tictactoe", "--no-board", input="q\n")  # a script's q quits too
    assert plain.returncode == EXIT_UNFINISHED and "you quit" in plain.stderr


def test_no_board_is_the_plain_output_without_drawings_or_prompt(tmp_path):
    """--no-board prints exactly the lines the board output has besides its drawings, blank lines and
    prompts (the prompt's line echoes the move read); those lines are the text format's, for scripts."""
    for spec, moves in (("tictactoe", "a1\nb1\nc1\na2\nb2\nc2\n"), ("ponghauki", "1\n1\n1\n1\n"),
                        ("chopsticks", "1\n1\n")):
        game = parse_spec(spec)
        plain = play(tmp_path / "home", spec, "--no-board", input=moves)
        board = play(tmp_path / "home", spec, input=moves)
        assert plain.returncode == board.returncode and plain.stderr == board.stderr
        assert PROMPT.strip() not in plain.stdout and not any(line.startswith("    ") or not line.strip()
                                                              for line in plain.stdout.splitlines())
        kept = [line for line in board.stdout.splitlines()
                if line.strip() and not line.startswith("    ") and not line.startswith(PROMPT)]
        assert kept == plain.stdout.splitlines()
        assert board.stdout.startswith("\n") == (board_text(game, game.start()) is not None)  # none: no drawing
        shapes = re.compile(r"(\S+: .+ to move, .+ for (you|them)|  your moves: .+|  (you|opponent): .+ -> .+|"
                            r"game over after .+|slips: .+|value history \(for the player to move\): .+)")
        assert all(shapes.fullmatch(line) for line in plain.stdout.splitlines()), plain.stdout  # today's lines only
