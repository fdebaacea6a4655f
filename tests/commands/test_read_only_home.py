"""Commands that only look create no state folder. `gamegraph neo4j status` with a GAMEGRAPH_HOME that did not exist
made it (and marked it), so a status query wrote to the disk; it must report that no server of that home runs
(exit 3, which scripts/test reads as stopped) and leave the folder absent. The same for the other commands that
only read, and for a command refused on its arguments before any work. Commands that write (solve, show's cache,
start) still make the folder, owner-only and marked, as before."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from explorer.core import settings


def run(home, *args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0", **env}
    environment.pop("NEO4J_PASSWORD", None)
    return subprocess.run([sys.executable, "-m", "explorer.cli", *args], capture_output=True, text=True,
                          env=environment, stdin=subprocess.DEVNULL, timeout=120, cwd="/")


def test_neo4j_status_of_a_missing_home_says_stopped_and_creates_nothing(tmp_path):
    home = tmp_path / "never-made"
    # An address where nothing listens: the answer is this home's alone.
    out = run(home, "neo4j", "status", NEO4J_URI="bolt://127.0.0.1:1")
    assert out.returncode == 3, out.stderr
    assert "stopped: no server of this state folder" in out.stdout and str(home) in out.stdout
    assert not out.stderr
    assert not home.exists()


def test_neo4j_status_does_not_adopt_an_empty_folder(tmp_path):
    """An empty folder (a fresh `mktemp -d`) is adopted by a command that writes; a status query leaves it empty."""
    home = tmp_path / "empty"
    home.mkdir()
    out = run(home, "neo4j", "status", NEO4J_URI="bolt://127.0.0.1:1")
    assert out.returncode == 3, out.stderr
    assert list(home.iterdir()) == []


@pytest.mark.parametrize("args", [
    ("neo4j", "stop"),
    ("--help",),
    ("games",),
    ("check-game", "nim"),
    ("neo4j", "status"),
    ("verify", "nim"),                                  # no password: one line, and nothing made to say so
    ("query", "nim", "stats", "--backend", "neo4j"),
    ("query", "tictactoe", "no-such-query"),            # refused on its name before the mirror is built
    ("play", "nim", "--side", "C"),
])
def test_commands_that_only_look_or_are_refused_create_no_home(tmp_path, args):
    home = tmp_path / "never-made"
    out = run(home, *args, NEO4J_URI="bolt://127.0.0.1:1")
    assert "Traceback" not in out.stderr
    assert not home.exists(), (args, out.stdout[-300:], out.stderr[-300:])


def test_the_password_hint_names_where_start_will_write_it(tmp_path):
    home = tmp_path / "never-made"
    out = run(home, "verify", "nim", NEO4J_URI="bolt://127.0.0.1:1")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and str(home / "neo4j" / "password") in out.stderr
    assert not home.exists()


def test_a_command_that_writes_still_makes_the_home_owner_only_and_marked(tmp_path):
    home = tmp_path / "made"
    out = run(home, "show", "nim")
    assert out.returncode == 0, out.stderr
    assert (home / settings.STATE_MARKER).is_file()
    assert (home.stat().st_mode & 0o777) == 0o700


def test_existing_state_path_is_none_until_the_folder_is_gamegraphs(tmp_path, monkeypatch):
    from explorer.core import private

    home = tmp_path / "home"
    monkeypatch.setenv("GAMEGRAPH_HOME", str(home))
    assert private.existing_state_path("neo4j") is None and not home.exists()
    home.mkdir()
    assert private.existing_state_path("neo4j") is None and list(home.iterdir()) == []
    settings.state_dir()  # a writer adopts the empty folder
    assert private.existing_state_path("neo4j") == home / "neo4j"
    assert settings.state_dir_location() == home


@pytest.mark.parametrize("make, said", [
    (lambda home: home.write_text(""), "is a file, not a folder"),
    (lambda home: os.mkfifo(home), "is a file, not a folder"),
    (lambda home: (home.parent / "file").write_text("") or None, "cannot be made"),
])
@pytest.mark.parametrize("action", ["status", "stop"])
def test_a_home_no_command_could_use_is_still_refused_in_one_line(tmp_path, make, said, action):
    """Creating nothing is no reason to take a bad GAMEGRAPH_HOME for "nothing there": it is said, exit 2."""
    home = tmp_path / "home"
    make(home)
    if said == "cannot be made":
        home = tmp_path / "file" / "home"  # under a file: it can never be made
    before = sorted(p.name for p in tmp_path.iterdir())
    out = run(home, "neo4j", action, NEO4J_URI="bolt://127.0.0.1:1")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and said in out.stderr, (out.stdout, out.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
