"""The state folder is the same from any working directory, and every command finds
the embedded server and its password from anywhere."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.core import private, settings
from explorer.core.errors import GameGraphError, StateFolderReadOnly
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


# -- a state folder gamegraph owns, and nothing else (issue 19, item 1) -------------------------------
def snapshot(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry below `folder` (itself included) with its mode, size and mtime: what must not change."""
    entries = {".": folder.lstat()}
    entries.update({str(p.relative_to(folder)): p.lstat() for p in folder.rglob("*")})
    return {name: (info.st_mode, info.st_size, info.st_mtime_ns) for name, info in entries.items()}


def foreign_folder(path: Path) -> Path:
    """A folder of somebody else's, mode 0755, with files and a subfolder named like one of ours."""
    path.mkdir(mode=0o755)
    path.chmod(0o755)
    (path / "notes.txt").write_text("mine\n")
    (path / "graphs").mkdir()
    (path / "graphs" / "photo.png").write_bytes(b"\x89PNG")
    return path


def test_a_missing_state_folder_is_made_owner_only_with_its_marker(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "new" / "state"))
    folder = state_dir()
    assert folder == tmp_path / "new" / "state"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert (folder / settings.STATE_MARKER).is_file() and [p.name for p in folder.iterdir()] == [settings.STATE_MARKER]


def test_an_empty_folder_is_adopted_as_mktemp_makes_it(tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir(mode=0o700)
    monkeypatch.setenv("GAMEGRAPH_HOME", str(empty))
    assert state_dir() == empty and (empty / settings.STATE_MARKER).is_file()


def test_a_state_folder_of_an_earlier_version_is_adopted_with_its_caches(tmp_path, monkeypatch):
    """graphs/, mirrors/ and neo4j/ but no marker: made by gamegraph before the marker existed."""
    old = tmp_path / "old"
    for sub in ("graphs", "mirrors", "neo4j"):
        (old / sub).mkdir(parents=True)
    (old / "graphs" / "chopsticks-0123456789abcdef.npz").write_bytes(b"cache")
    monkeypatch.setenv("GAMEGRAPH_HOME", str(old))
    assert state_dir() == old and (old / settings.STATE_MARKER).is_file()
    assert (old / "graphs" / "chopsticks-0123456789abcdef.npz").read_bytes() == b"cache"


@pytest.mark.parametrize("make", [
    lambda p: foreign_folder(p),
    lambda p: (p.mkdir(), (p / "graphs").symlink_to("/tmp"), p)[-1],  # one of our names, but a symlink
    lambda p: (p.mkdir(), (p / settings.STATE_MARKER).symlink_to("/etc/hostname"), p)[-1],  # a marker that is a link
    lambda p: (p.mkdir(), (p / "neo4j").mkdir(), (p / ".bashrc").write_text(""), p)[-1],
])
def test_a_foreign_folder_is_refused_in_one_line_and_left_exactly_as_it_was(tmp_path, monkeypatch, make):
    folder = make(tmp_path / "foreign")
    before = snapshot(folder)
    monkeypatch.setenv("GAMEGRAPH_HOME", str(folder))
    with pytest.raises(GameGraphError, match="gamegraph did not make .* set GAMEGRAPH_HOME to a new or empty folder"):
        state_dir()
    with pytest.raises(GameGraphError):
        private.private_state_dir()
    with pytest.raises(GameGraphError):
        private.state_path("graphs")
    assert snapshot(folder) == before


def fake_root(path: Path) -> Path:
    """A stand-in for / or /etc: system-looking content, mode 0755 (the real ones are never touched)."""
    path.mkdir(mode=0o755)
    path.chmod(0o755)
    for name in ("bin", "etc", "usr", "tmp"):
        (path / name).mkdir()
    (path / "passwd").write_text("root:x:0:0::/root:/bin/sh\n")
    return path


def test_every_command_leaves_a_foreign_folder_untouched(tmp_path):
    """As the issue ran it (as root when the tests are): show, neo4j stop, solve, query, export and a
    neo4j-import export into a fake / , a fake /etc and a scratch 0755 folder with content; mode,
    listing and mtimes are unchanged and each command says so in one line."""
    every = [["show", "chopsticks"], ["neo4j", "stop"], ["neo4j", "status"], ["solve", "nim:small"],
             ["query", "nim:small", "stats"], ["export", "nim:small", "-o", str(tmp_path / "out.jsonl")]]
    for folder, commands in ((foreign_folder(tmp_path / "scratch"), every),
                             (fake_root(tmp_path / "root"), every[:2]), (fake_root(tmp_path / "etc"), every[:2])):
        before = snapshot(folder)
        env = {**os.environ, "GAMEGRAPH_HOME": str(folder), "GAMEGRAPH_PROGRESS": "0", "PYTHONPATH": str(ROOT)}
        for argv in commands:
            done = subprocess.run([sys.executable, "-m", "explorer.cli", *argv], env=env, capture_output=True,
                                  text=True, timeout=120)
            if argv[0] == "solve":  # keeps no state: it answers, and writes nothing there either
                assert done.returncode == 0, done.stderr
            else:
                assert done.returncode != 0, (argv, done.stdout)
                line, = done.stderr.strip().splitlines()
                assert "gamegraph did not make" in line and "Traceback" not in line
        assert snapshot(folder) == before, folder


def test_a_marked_folder_that_became_read_only_is_still_read(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    folder = state_dir()
    real_access = os.access
    monkeypatch.setattr(settings.os, "access", lambda path, mode: False if Path(path) == folder else real_access(path, mode))
    assert private.state_path("graphs") == folder / "graphs"  # reading: fine
    with pytest.raises(StateFolderReadOnly, match="not writable"):
        private.private_state_dir()  # writing: one line


def test_the_subfolders_adopted_are_exactly_the_ones_gamegraph_makes():
    """settings (the bottom layer) names the state folder's subfolders once more, to recognise an earlier
    version's folder; each is defined where it is used, and this keeps the two lists equal."""
    from explorer import implicit, kernels, solved
    from explorer.analysis import survey
    from loaders import mirror
    from loaders import settings as loader_settings

    made = {solved.CACHE_KIND, mirror.CACHE_KIND, loader_settings.NEO4J_KIND, implicit.CACHE_KIND,
            survey.CACHE_KIND, kernels.NUMBA_CACHE_KIND}
    assert settings.STATE_SUBFOLDERS == made


def marked_state_folder(path: Path, monkeypatch) -> Path:
    """A state folder gamegraph made (marker included), with an `implicit` subfolder holding a file."""
    monkeypatch.setenv("GAMEGRAPH_HOME", str(path))
    state_dir()
    (path / "implicit" / "game-0123").mkdir(parents=True)
    (path / "implicit" / "game-0123" / "meta.json").write_text("{}")
    return path


@pytest.mark.parametrize("marked", [False, True], ids=["adopted", "marked"])
def test_a_subfolder_linked_to_the_same_subfolder_of_another_state_folder_is_used(tmp_path, monkeypatch, marked):
    """Reusing a large value file: `implicit` linked to another state folder's `implicit`, in a new folder
    (adopted) or in one gamegraph already uses (marked); its files are read through the link."""
    other = marked_state_folder(tmp_path / "other", monkeypatch)
    mine = tmp_path / "mine"
    mine.mkdir()
    if marked:
        monkeypatch.setenv("GAMEGRAPH_HOME", str(mine))
        state_dir()
    (mine / "implicit").symlink_to(other / "implicit")
    monkeypatch.setenv("GAMEGRAPH_HOME", str(mine))
    assert state_dir() == mine and (mine / settings.STATE_MARKER).is_file()
    assert private.state_path("implicit", "game-0123", "meta.json").read_text() == "{}"
    assert (mine / "implicit").is_symlink()


@pytest.mark.parametrize("marked", [False, True], ids=["adopted", "marked"])
@pytest.mark.parametrize("target", [
    lambda other, tmp: tmp / "plain",                       # a folder of that name outside any state folder
    lambda other, tmp: other / "graphs",                   # another subfolder of a state folder
    lambda other, tmp: other,                              # the state folder itself
    lambda other, tmp: other / "implicit" / "game-0123",   # deeper inside it
    lambda other, tmp: tmp / "missing" / "implicit",       # nothing there
], ids=["outside", "other-name", "the-folder", "deeper", "dangling"])
def test_a_subfolder_linked_anywhere_else_is_refused_in_one_line_and_nothing_is_written(tmp_path, monkeypatch,
                                                                                        marked, target):
    other = marked_state_folder(tmp_path / "other", monkeypatch)
    (other / "graphs").mkdir()
    (tmp_path / "plain" / "implicit").mkdir(parents=True)
    where = target(other, tmp_path)
    if where == tmp_path / "plain":
        where = where / "implicit"
    mine = tmp_path / "mine"
    mine.mkdir()
    if marked:
        monkeypatch.setenv("GAMEGRAPH_HOME", str(mine))
        state_dir()
    (mine / "implicit").symlink_to(where)
    before, elsewhere = snapshot(mine), snapshot(tmp_path)
    monkeypatch.setenv("GAMEGRAPH_HOME", str(mine))
    with pytest.raises(GameGraphError) as refused:
        state_dir()
    message = str(refused.value)
    assert "\n" not in message and "'implicit'" in message and "a link, but not to the implicit folder" in message
    with pytest.raises(GameGraphError):
        private.private_state_dir()
    assert snapshot(mine) == before and snapshot(tmp_path) == elsewhere
