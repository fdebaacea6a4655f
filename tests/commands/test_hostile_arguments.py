"""Session 14's sweep of every command with closed standard input, from `/`, with hostile arguments. What it found,
each one line and a non-zero exit now:
- an option that takes a value, given twice, was taken silently at its last value (`play --side A --side B`
  played B; `export -o a -o b` wrote only b): refused, naming the option (explorer.cli.StoreOnce);
- `load SPEC --radius K` without --around, or `--yes` without --bulk, was answered with the missing Neo4j
  password instead of the mistake in the options."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def run(home, *argv: str, cwd="/") -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0", "NEO4J_URI": "bolt://127.0.0.1:1"}
    env.pop("NEO4J_PASSWORD", None)
    return subprocess.run([sys.executable, "-m", "explorer.cli", *argv], capture_output=True, text=True, env=env,
                          timeout=120, cwd=cwd, stdin=subprocess.DEVNULL)


def one_line(out: subprocess.CompletedProcess, needle: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stdout[-300:], out.stderr)
    line, = out.stderr.strip().splitlines()
    assert needle in line and "Traceback" not in out.stderr and "internal error" not in line, line


@pytest.mark.parametrize("argv, option", [
    (("play", "tictactoe", "--side", "A", "--side", "B"), "--side"),
    (("games", "--format", "json", "--format=text"), "--format"),
    (("export", "tictactoe", "-o", "OUT/a.jsonl", "--output", "OUT/b.jsonl"), "-o/--output"),
    (("dot", "tictactoe", "shortest-win", "-o", "OUT/a.svg", "-o", "OUT/b.svg"), "-o/--output"),
    (("query", "tictactoe", "neighbourhood", "--k", "1", "--k", "2"), "--k"),
    (("survey", "chopsticks", "--fingers", "2..3", "--fingers", "3..4"), "--fingers"),
    (("solve", "tictactoe", "--max-positions", "10", "--max-positions", "1000000"), "--max-positions"),
])
def test_an_option_given_twice_is_refused_and_nothing_is_written(tmp_path, argv, option):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    argv = tuple(a.replace("OUT", str(out_dir)) for a in argv)
    out = run(tmp_path / "home", *argv)
    one_line(out, f"{option} is given twice: give it once")
    assert list(out_dir.iterdir()) == []


def test_options_that_may_repeat_still_do(tmp_path):
    """--game-module appends (one game file each); a flag given twice changes nothing; a positional value that
    looks like an option's is not counted."""
    out = run(tmp_path / "home", "--game-module", "/nonexistent-a.py", "--game-module", "/nonexistent-b.py", "games")
    one_line(out, "does not exist")  # the first file is checked: the option was accepted twice
    out = run(tmp_path / "home", "show", "nim:small", "--no-symmetry", "--no-symmetry")
    assert out.returncode == 0, out.stderr
    out = run(tmp_path / "home", "games", "--format", "json")
    assert out.returncode == 0 and out.stdout.startswith("["), out.stderr


@pytest.mark.parametrize("argv, needle", [
    (("load", "nim", "--radius", "2"), "--around POSITION and --radius K go together"),
    (("load", "nim", "--yes"), "--yes confirms a --bulk rebuild"),
])
def test_a_wrong_load_option_is_said_before_neo4j_is_asked(tmp_path, argv, needle):
    one_line(run(tmp_path / "home", *argv), needle)


@pytest.mark.parametrize("address, needle", [("", "an empty address"), (" ", "an empty address"),
                                             ("a b", "is not a scheduler address")])
def test_a_blank_scheduler_address_is_refused_not_taken_for_none(tmp_path, address, needle):
    """`solve --tiered --scheduler ''` ran on a local cluster and exited 0, as if the option were not there."""
    out = run(tmp_path / "home", "solve", "dodgem:3x3", "--tiered", "--scheduler", address)
    one_line(out, needle)
    assert not (tmp_path / "home").exists()


def test_a_bug_in_an_argument_type_is_one_internal_error_line(monkeypatch, capsys):
    """Arguments are parsed under the same net as the commands run: a type that raises is a bug, one line, 70."""
    from explorer import cli
    from explorer.commands import core

    def broken(text: str) -> str:
        raise NameError("a bug")

    monkeypatch.setattr(core, "_scheduler_address", broken)
    monkeypatch.delenv("GAMEGRAPH_DEBUG", raising=False)
    assert cli.main(["solve", "dodgem:3x3", "--tiered", "--scheduler", "x"]) == cli.EXIT_INTERNAL
    err = capsys.readouterr().err
    assert err.startswith("gamegraph: internal error: NameError: 'a bug'") and "Traceback" not in err


# -- terminal output (issue 40) ---------------------------------------------------------------------------------
def run_with(home, *argv: str, stdout=subprocess.PIPE, stderr=subprocess.PIPE, close=()) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"}
    return subprocess.run([sys.executable, "-m", "explorer.cli", *argv], stdout=stdout, stderr=stderr, env=env,
                          timeout=120, stdin=subprocess.DEVNULL, text=True,
                          preexec_fn=(lambda: [os.close(fd) for fd in close]) if close else None)


def test_a_full_standard_output_is_one_line_and_exit_74(tmp_path):
    """`gamegraph games > /dev/full` was "Exception ignored ... OSError" and exit 120."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    from explorer.cli import EXIT_OUTPUT
    for argv in (("games",), ("show", "chopsticks")):
        with open("/dev/full", "w") as full:
            out = run_with(tmp_path / "home", *argv, stdout=full)
        assert out.returncode == EXIT_OUTPUT == 74, (argv, out.returncode, out.stderr)
        line, = out.stderr.strip().splitlines()
        assert "standard output could not be written" in line and "disk is full" in line, line


def test_a_closed_standard_output_is_one_line_and_exit_74(tmp_path):
    """`gamegraph games >&-` was `internal error: AttributeError` and exit 70."""
    out = run_with(tmp_path / "home", "games", stdout=subprocess.DEVNULL, close=(1,))
    assert out.returncode == 74, (out.returncode, out.stderr)
    line, = out.stderr.strip().splitlines()
    assert "standard output is closed" in line, line


def test_an_error_goes_to_standard_output_when_standard_error_is_closed_or_full(tmp_path):
    out = run_with(tmp_path / "home", "show", "nosuchgame", stderr=subprocess.DEVNULL, close=(2,))
    assert out.returncode == 2 and out.stdout.startswith("gamegraph: error: unknown game"), (out.returncode, out.stdout)
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            out = run_with(tmp_path / "home", "show", "nosuchgame", stderr=full)
        assert out.returncode == 2 and out.stdout.count("\n") == 1 and "unknown game" in out.stdout


def test_control_characters_in_a_message_are_shown_escaped(tmp_path):
    """A plugin's message holding ESC[2J (clear the screen), a carriage return and line breaks was echoed raw."""
    module = tmp_path / "evil.py"
    module.write_text('raise ValueError("\\x1b[2J\\x1b[31mfake\\rgamegraph: ok\\nsecond line\\u2028third")\n')
    out = run_with(tmp_path / "home", "--game-module", str(module), "games")
    assert out.returncode == 2, (out.returncode, out.stderr)
    line, = out.stderr.strip().splitlines()
    assert "\x1b" not in out.stderr and "\r" not in out.stderr and "\u2028" not in out.stderr
    assert "\\x1b[2J" in line and "\\r" in line, line
