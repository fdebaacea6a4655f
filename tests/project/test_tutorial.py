"""docs/your-own-game.md works for a stranger: its example, copied to a folder outside the
repository, goes through check-game, solve, show, Neo4j, a query on both backends, a diagram
and a certificate, each by the installed `gamegraph` command run from that folder."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "your-own-game.md"
GAMEGRAPH = Path(sys.executable).with_name("gamegraph")


def example() -> tuple[str, str]:
    """(file name, code) of the tutorial's example block."""
    found = re.search(r"<!-- tutorial-example: (\S+) -->\n```python\n(.*?)```", DOC.read_text(), re.S)
    assert found, "the tutorial lost its marked example"
    return found[1], found[2]


@pytest.fixture
def stranger(tmp_path, monkeypatch):
    """A folder outside the repository holding only the tutorial's file, and a runner of commands there."""
    folder = tmp_path / "my-game"
    folder.mkdir()
    assert ROOT not in folder.parents
    name, code = example()
    (folder / name).write_text(code)
    env = {k: v for k, v in os.environ.items() if k != "GAMEGRAPH_GAME_MODULES"}
    env["PYTHONPATH"] = ""  # only the installed package, as a stranger has it

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([str(GAMEGRAPH), *args], cwd=folder, env=env, capture_output=True, text=True,
                              timeout=300)
        if check:
            assert done.returncode == 0, f"gamegraph {' '.join(args)}: {done.stderr}"
        return done

    run.folder, run.file, run.env = folder, name, env
    return run


def test_the_example_is_about_forty_lines():
    _, code = example()
    lines = [line for line in code.splitlines() if line.strip() and not line.strip().startswith("#")]
    assert len(lines) <= 55


def test_the_tutorial_end_to_end(stranger, neo4j_server):
    # The stranger's own state folder; the server is the test session's (its address and password).
    stranger.env.update(GAMEGRAPH_HOME=str(stranger.folder / ".gamegraph"), NEO4J_URI=neo4j_server.uri,
                        NEO4J_USER=neo4j_server.user, NEO4J_PASSWORD=neo4j_server.password,
                        NEO4J_DATABASE=neo4j_server.database)
    mod = ["--game-module", stranger.file]
    checked = stranger("check-game", stranger.file)
    assert "all checks passed" in checked.stdout

    solved = json.loads(stranger(*mod, "solve", "my-ponghauki", "--format", "json").stdout)
    assert solved["value"] == "draw"
    # Two independent implementations of one game: the tutorial's and the shipped module.
    shipped = json.loads(stranger("solve", "ponghauki", "--format", "json").stdout)
    for kind in ("reduced", "full"):
        assert solved["graphs"][kind]["positions"] == shipped["graphs"][kind]["positions"]
        assert solved["graphs"][kind]["counts"] == shipped["graphs"][kind]["counts"]

    shown = json.loads(stranger(*mod, "show", "my-ponghauki", "O:XO.OX", "--format", "json").stdout)
    assert shown["value"] == "draw" and len(shown["moves"]) == 2

    loaded = stranger(*mod, "load", "my-ponghauki")
    assert "my-ponghauki" in loaded.stdout + loaded.stderr
    stranger(*mod, "verify", "my-ponghauki")
    answers = {}
    for backend in ("neo4j", "networkx"):
        out = stranger(*mod, "query", "my-ponghauki", "stats", "--backend", backend, "--format", "json").stdout
        answers[backend] = json.loads(out)["tables"]["by_value"]
    assert answers["neo4j"] == answers["networkx"]
    assert {row[0]: row[1] for row in answers["neo4j"]["rows"]} == {"win": 4, "loss": 2, "draw": 24}

    stranger(*mod, "dot", "my-ponghauki", "graph", "-o", "whole.dot")
    assert "digraph" in (stranger.folder / "whole.dot").read_text()
    if shutil.which("dot"):
        stranger(*mod, "dot", "my-ponghauki", "graph", "-o", "whole.svg")
        assert (stranger.folder / "whole.svg").read_text().lstrip().startswith("<")

    stranger(*mod, "certificate", "my-ponghauki", "-o", "proof.json")
    assert "proved" in stranger(*mod, "check-certificate", "proof.json").stdout


def test_the_environment_variable_and_errors(stranger):
    env = dict(stranger.env, GAMEGRAPH_GAME_MODULES=str(stranger.folder / stranger.file))
    done = subprocess.run([str(GAMEGRAPH), "games"], cwd=stranger.folder, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and "my-ponghauki" in done.stdout
    missing = stranger("solve", "my-ponghauki", check=False)
    assert missing.returncode == 2 and "unknown game 'my-ponghauki'" in missing.stderr
