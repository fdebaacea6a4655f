"""The state folder is the same from any working directory, and every command finds
the embedded server and its password from anywhere."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.core.settings import state_dir
from loaders import settings as neo4j_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_home(monkeypatch, tmp_path):
    monkeypatch.delenv("GAMEGRAPH_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    return tmp_path


def test_default_is_per_user_and_ignores_the_working_directory(no_home, monkeypatch):
    expected = no_home / "user" / ".local" / "share" / "gamegraph"
    for where in (no_home, Path("/")):
        monkeypatch.chdir(where)
        assert state_dir() == expected


def test_xdg_data_home_is_followed_when_absolute(no_home, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(no_home / "xdg"))
    assert state_dir() == no_home / "xdg" / "gamegraph"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/xdg")  # the XDG rules say: ignore it
    assert state_dir() == no_home / "user" / ".local" / "share" / "gamegraph"


def test_gamegraph_home_wins(no_home, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(no_home / "xdg"))
    monkeypatch.setenv("GAMEGRAPH_HOME", str(no_home / "mine"))
    assert state_dir() == no_home / "mine"
    monkeypatch.setenv("GAMEGRAPH_HOME", "~/state")
    assert state_dir() == no_home / "user" / "state"


def test_the_uri_of_a_running_embedded_server_is_found(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path))
    monkeypatch.delenv("NEO4J_URI", raising=False)
    folder = neo4j_settings.neo4j_dir()
    folder.mkdir()
    assert neo4j_settings.neo4j_uri() == neo4j_settings.DEFAULT_URI
    (folder / "ready").write_text("bolt://127.0.0.1:7999\n")
    (folder / "neo4j.pid").write_text(f"{os.getpid()}\n")  # a live process
    assert neo4j_settings.neo4j_uri() == "bolt://127.0.0.1:7999"
    monkeypatch.setenv("NEO4J_URI", "bolt://elsewhere:7687")
    assert neo4j_settings.neo4j_uri() == "bolt://elsewhere:7687"  # the environment wins
    monkeypatch.delenv("NEO4J_URI")
    (folder / "neo4j.pid").write_text("99999999999999999999\n")  # no such process
    assert neo4j_settings.neo4j_uri() == neo4j_settings.DEFAULT_URI


@pytest.mark.neo4j
def test_status_and_queries_find_the_server_from_any_directory(neo4j_server, tmp_path):
    """With only the state folder known (no NEO4J_URI, no NEO4J_PASSWORD, another working
    directory), status sees the server and a Neo4j query logs in with the password file."""
    if os.environ.get("NEO4J_PASSWORD"):
        pytest.skip("the server's password comes from NEO4J_PASSWORD, not from the state folder")
    env = {k: v for k, v in os.environ.items() if k not in ("NEO4J_URI", "NEO4J_PASSWORD")}
    env.update(GAMEGRAPH_HOME=str(state_dir()), GAMEGRAPH_PROGRESS="0", PYTHONPATH=str(ROOT))
    for cwd in (tmp_path, Path("/")):
        status = subprocess.run([sys.executable, "-m", "explorer.cli", "neo4j", "status"], cwd=cwd, env=env,
                                capture_output=True, text=True, timeout=120)
        assert status.returncode == 0 and "running" in status.stdout, status.stdout + status.stderr
        assert neo4j_server.uri in status.stdout
    load = subprocess.run([sys.executable, "-m", "explorer.cli", "load", "nim:small"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert load.returncode == 0, load.stderr
    query = subprocess.run([sys.executable, "-m", "explorer.cli", "query", "nim:small", "stats", "--backend", "neo4j"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert query.returncode == 0 and query.stdout.strip(), query.stderr


def test_only_the_settings_modules_name_gamegraph_variables():
    """Every GAMEGRAPH_* variable is read in explorer/core/settings.py (the Neo4j ones in loaders/settings.py):
    elsewhere a variable's name appears in prose only, never as a string of its own."""
    import re

    homes = {ROOT / "explorer" / "core" / "settings.py", ROOT / "loaders" / "settings.py"}
    name = re.compile(r"""["']GAMEGRAPH_[A-Z0-9_]+["']|\bGAMEGRAPH_[A-Z0-9_]+\s*=\s*["']""")
    offenders = [f"{source.relative_to(ROOT)}: {found}"
                 for folder in ("explorer", "loaders", "queries") for source in (ROOT / folder).rglob("*.py")
                 if source not in homes for found in name.findall(source.read_text())]
    assert not offenders


def test_progress_and_debug_settings(monkeypatch):
    from explorer.core import settings

    monkeypatch.delenv("GAMEGRAPH_PROGRESS", raising=False)
    monkeypatch.delenv("GAMEGRAPH_DEBUG", raising=False)
    assert settings.progress() is None and not settings.debug()
    for text, shown in (("0", False), ("false", False), ("no", False), ("1", True), ("yes", True)):
        monkeypatch.setenv("GAMEGRAPH_PROGRESS", text)
        assert settings.progress() is shown
    monkeypatch.setenv("GAMEGRAPH_DEBUG", "1")
    assert settings.debug()
    monkeypatch.setenv("GAMEGRAPH_DEBUG", "yes")  # only 1 turns tracebacks on
    assert not settings.debug()
