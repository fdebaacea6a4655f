"""The state folder is the same from any working directory, and every command finds
the embedded server and its password from anywhere."""

from __future__ import annotations

import importlib.util
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


def test_the_canvas_time_for_what_it_sends_ahead_is_a_number_of_seconds(monkeypatch):
    monkeypatch.delenv(settings.UI_AHEAD_SECONDS_ENV, raising=False)
    assert settings.ui_ahead_seconds() == settings.DEFAULT_UI_AHEAD_SECONDS == 2.0
    for text, seconds in (("60", 60.0), (" 0.5 ", 0.5), ("600", 600.0), ("", 2.0)):
        monkeypatch.setenv(settings.UI_AHEAD_SECONDS_ENV, text)
        assert settings.ui_ahead_seconds() == seconds
    for text in ("0", "-1", "nan", "inf", "601", "two", "1e400", "\u0663", "9" * 500, "1_0x"):
        monkeypatch.setenv(settings.UI_AHEAD_SECONDS_ENV, text)
        with pytest.raises(GameGraphError, match="GAMEGRAPH_UI_AHEAD_SECONDS=") as caught:
            settings.ui_ahead_seconds()
        assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


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
            # solve too: it keeps its result in the state folder (issue 34), so it is refused like the rest
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


# -- the libraries' variables, checked where gamegraph reads or passes them on (issue 40) -------------------
@pytest.mark.parametrize("name, value, needle", [
    ("NUMBA_NUM_THREADS", "0", "from 1 to"), ("NUMBA_NUM_THREADS", "abc", "from 1 to"),
    ("NUMBA_NUM_THREADS", "100000", "from 1 to"), ("NUMBA_NUM_THREADS", "٣", "from 1 to"),
    ("NUMBA_NUM_THREADS", "9" * 400, "from 1 to"), ("NUMBA_DISABLE_JIT", "1", "compiler"),
    ("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "abc", "not a duration"),
    ("DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP", "-1s", "not a duration"),
    ("DASK_DISTRIBUTED__WORKER__PROFILE__INTERVAL", "", "not a duration"),
    ("NUMBA_THREADING_LAYER", "bogus", "threading layers"), ("NUMBA_THREADING_LAYER", "", "threading layers"),
    ("NUMBA_THREADING_LAYER_PRIORITY", "bogus", "tbb, omp and workqueue"),
    ("NUMBA_THREADING_LAYER_PRIORITY", "omp omp tbb", "tbb, omp and workqueue"),
])
def test_library_variables_that_broke_the_run_are_one_line(monkeypatch, name, value, needle):
    monkeypatch.setenv(name, value)
    with pytest.raises(GameGraphError, match=needle) as caught:
        settings.check_library_environment()
    assert name in str(caught.value) and "\n" not in str(caught.value) and len(str(caught.value)) < 300


def test_library_variables_that_work_are_taken(monkeypatch):
    for name, value in (("NUMBA_NUM_THREADS", "1"), ("NUMBA_NUM_THREADS", "2"), ("NUMBA_DISABLE_JIT", "0"),
                        ("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "30s"),
                        ("DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP", "2")):
        monkeypatch.setenv(name, value)
    settings.check_library_environment()
    assert settings.numba_threads() == 2


def test_the_cli_says_a_bad_library_variable_in_one_line_before_numba_runs(tmp_path):
    """NUMBA_NUM_THREADS=100000 was a segmentation fault (exit 139), 0 and NUMBA_DISABLE_JIT=1 internal errors;
    so were NUMBA_THREADING_LAYER=bogus (and tbb without Intel TBB) at the first parallel kernel, and numba warned
    with a traceback of NUMBA_OPT=abc and went on (session 18's stranger)."""
    tbb = importlib.util.find_spec("tbb") is not None
    for name, value in (("NUMBA_NUM_THREADS", "100000"), ("NUMBA_NUM_THREADS", "0"), ("NUMBA_DISABLE_JIT", "1"),
                        ("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "abc"), ("NUMBA_THREADING_LAYER", "bogus"),
                        *([] if tbb else [("NUMBA_THREADING_LAYER", "tbb")]), ("NUMBA_OPT", "abc")):
        env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_KERNELS_FROM": "0", name: value}
        out = subprocess.run([sys.executable, "-m", "explorer.cli", "solve", "chopsticks:attack-only"],
                             capture_output=True, text=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
        assert out.returncode == 2, (name, value, out.returncode, out.stderr[-500:])
        line, = out.stderr.strip().splitlines()
        assert line.startswith("gamegraph: error: ") and name in line, line


_IMPORT_KERNELS = """
import sys
from explorer.core.errors import InvalidParameter
try:
    import explorer.kernels
except InvalidParameter as error:
    print(error)
    print("numba imported" if "numba" in sys.modules else "numba not imported")
"""


@pytest.mark.parametrize("value", ["0", "-2", str(10 ** 9), "abc", "2.5", ""])
def test_every_import_of_the_kernels_says_an_absurd_thread_count_in_one_line_before_numba(tmp_path, value):
    """Not only the CLI: the Python API, the warm-up and the bench import explorer.kernels, which checks
    NUMBA_NUM_THREADS (settings.numba_threads) before importing numba, which read 0 as a traceback, abc as a
    warning and 10^9 as a crash. One line (InvalidParameter) naming the variable; unset or empty, numba's
    own default."""
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "home"), "NUMBA_NUM_THREADS": value}
    out = subprocess.run([sys.executable, "-c", _IMPORT_KERNELS], capture_output=True, text=True, env=env,
                         timeout=300, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr[-500:]
    if not value:
        assert out.stdout == ""
        return
    line, after = out.stdout.strip().splitlines()
    assert f"NUMBA_NUM_THREADS={value!r}" in line and "from 1 to" in line, line
    assert after == "numba not imported"


def _warmup(tmp_path, *argv: str, **variables: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "home"), **variables}
    return subprocess.run([sys.executable, "-m", "explorer.kernels.warmup", *argv], capture_output=True, text=True,
                          env=env, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("value", ["abc", "0", "-3", "100000", "\x1b[2J", "\u0663", "9" * 5000])
def test_the_warmup_says_an_absurd_thread_count_in_one_line(tmp_path, value):
    """`python -m explorer.kernels.warmup` imports explorer.kernels before any line of the warm-up runs: the
    check of NUMBA_NUM_THREADS there was a traceback ending in the message. One escaped line now, exit 2."""
    out = _warmup(tmp_path, "--list", NUMBA_NUM_THREADS=value)
    assert out.returncode == 2 and out.stdout == "", (out.returncode, out.stderr[-800:])
    line, = out.stderr.strip().splitlines()
    assert line.startswith("python -m explorer.kernels.warmup: error: NUMBA_NUM_THREADS=") and "from 1 to" in line
    assert "\x1b" not in line and len(line) < 400, line


@pytest.mark.parametrize("argv, variables, needle", [
    (["--jobs", "abc"], {}, "--jobs"), (["--jobs", ""], {}, "--jobs"), (["--jobs", "0"], {}, "--jobs"),
    (["--jobs", "9" * 30], {}, "--jobs"), (["--jobs", "\u0663"], {}, "--jobs"), (["--bogus", "\x1b[2J"], {}, "--bogus"),
    (["--list"], {"NUMBA_DISABLE_JIT": "1"}, "NUMBA_DISABLE_JIT"),
])
def test_the_warmup_refuses_bad_input_in_one_line(tmp_path, argv, variables, needle):
    """--jobs took a billion (a billion lanes), a Unicode digit, and argparse's usage block; NUMBA_DISABLE_JIT
    made every run of the warm-up fail one after the other."""
    out = _warmup(tmp_path, *argv, **variables)
    assert out.returncode == 2 and out.stdout == "", (out.returncode, out.stdout[-300:], out.stderr[-800:])
    line, = out.stderr.strip().splitlines()
    assert line.startswith("python -m explorer.kernels.warmup: error: ") and needle in line and "\x1b" not in line


def test_a_blank_thread_count_is_unset_before_numba_reads_it(tmp_path):
    """NUMBA_NUM_THREADS='' passed the check as unset, and numba then warned with a traceback that it cannot
    parse ''."""
    for value in ("", "  "):
        out = _warmup(tmp_path, "--list", NUMBA_NUM_THREADS=value)
        assert out.returncode == 0 and "gamegraph solve" in out.stdout, out.stderr[-800:]
        assert "Traceback" not in out.stderr and "NUMBA_NUM_THREADS" not in out.stderr, out.stderr[-800:]


def test_streamlit_variables_are_checked_and_an_empty_address_means_this_machine():
    changes = settings.streamlit_environment({"STREAMLIT_SERVER_ADDRESS": "  "})
    assert changes == {"STREAMLIT_SERVER_ADDRESS": "127.0.0.1"}
    assert settings.streamlit_environment({"STREAMLIT_SERVER_ADDRESS": "0.0.0.0", "STREAMLIT_SERVER_PORT": "8501",
                                           "STREAMLIT_THEME_BASE": "dark",
                                           "STREAMLIT_GLOBAL_DEVELOPMENT_MODE": "false"}) == {}
    for name, value in (("STREAMLIT_SERVER_PORT", "-1"), ("STREAMLIT_SERVER_PORT", "70000"),
                        ("STREAMLIT_SERVER_PORT", "http"), ("STREAMLIT_THEME_BASE", "bogus"),
                        ("STREAMLIT_GLOBAL_DEVELOPMENT_MODE", "true")):
        with pytest.raises(GameGraphError) as caught:
            settings.streamlit_environment({name: value})
        assert name in str(caught.value) and "\n" not in str(caught.value)


def test_the_ui_child_listens_on_loopback_when_the_address_variable_is_empty(monkeypatch):
    import argparse

    from explorer.commands import ui
    monkeypatch.setenv("STREAMLIT_SERVER_ADDRESS", "")
    argv, environ, url = ui.launch(argparse.Namespace(host=None, port=None, headless=True),
                                   environ=dict(os.environ), interactive=False)
    assert environ["STREAMLIT_SERVER_ADDRESS"] == "127.0.0.1" and "localhost" in url


@pytest.mark.parametrize("name", ["GAMEGRAPH_NEO4J_ADMIN_HEAP", "HEAP_SIZE", "GAMEGRAPH_NEO4J_IMPORT_MEMORY"])
def test_java_memory_sizes_from_the_environment_are_checked(monkeypatch, name):
    from explorer.core.errors import GameGraphError as Error
    for other in ("GAMEGRAPH_NEO4J_ADMIN_HEAP", "HEAP_SIZE", "GAMEGRAPH_NEO4J_IMPORT_MEMORY"):
        monkeypatch.delenv(other, raising=False)
    read = neo4j_settings.import_memory if "IMPORT" in name else neo4j_settings.admin_heap
    monkeypatch.setenv(name, "abc")  # reached Java as -Xmxabc
    with pytest.raises(Error, match=name):
        read()
    monkeypatch.setenv(name, "3g")
    assert read() == "3g"


def test_a_host_name_no_resolver_takes_is_one_line():
    """A 70-letter host in NEO4J_URI was `internal error: UnicodeError ... idna`."""
    for uri in ("bolt://" + "a" * 70 + ":7687", "bolt://a..b:7687", "bolt://" + "a." * 130 + "b:7687"):
        with pytest.raises(GameGraphError, match="not a valid name"):
            neo4j_settings.check_uri(uri)
    assert neo4j_settings.check_uri("bolt://" + "a" * 63 + ".example:7687")[1] == 7687


def test_the_jvms_gamegraph_starts_write_no_perf_data_outside_the_state_folder():
    """hsperfdata_<user> was left in the system's temporary folder (issue 40): the server's and neo4j-admin's
    JVMs (which take the server's options) run with -XX:-UsePerfData. Checked by hand on a restarted server:
    no /tmp/hsperfdata_<user>/<its pid>."""
    from loaders import neo4j_server
    assert "-XX:-UsePerfData" in neo4j_server.NEO4J_JVM_OPTIONS
    assert "-XX:+UsePerfData" not in neo4j_server.NEO4J_JVM_OPTIONS


def test_maven_and_javac_run_with_perf_data_off_and_the_users_maven_options_kept(tmp_path, monkeypatch):
    """Resolving the jars (Maven's JVM) and compiling the launcher (javac's) left /tmp/hsperfdata_<user> too:
    each runs with -XX:-UsePerfData, Maven's through MAVEN_OPTS after the user's own options."""
    from loaders import neo4j_server
    ran = []
    monkeypatch.setattr(neo4j_server, "_tool", lambda name, hint: f"/usr/bin/{name}")
    monkeypatch.setattr(neo4j_server, "_run", lambda argv, what, env=None: ran.append((argv, env)))
    monkeypatch.setenv("MAVEN_OPTS", "-Xmx700m")
    (tmp_path / "classpath.txt").write_text("")  # what Maven would have written
    neo4j_server._classpath(tmp_path)
    neo4j_server._compile(tmp_path, "launcher.jar")
    (maven, maven_env), (javac, javac_env) = ran
    assert maven[0].endswith("mvn") and maven_env["MAVEN_OPTS"].split() == ["-Xmx700m", "-XX:-UsePerfData"]
    assert javac[0].endswith("javac") and javac[1] == "-J-XX:-UsePerfData" and javac_env is None


def test_a_full_disk_leaves_no_empty_marker_and_no_folder_made_for_it(tmp_path, monkeypatch):
    """A fresh state folder on a full disk got a 0-byte .gamegraph-state (issue 40): now one line, and
    neither the marker nor the folder made for it is left."""
    import errno

    real_write = os.write

    def full(fd, data):
        if data.startswith(b"This folder is gamegraph's state folder"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    for home in (tmp_path / "fresh", tmp_path / "empty"):
        if home.name == "empty":
            home.mkdir()
        monkeypatch.setenv("GAMEGRAPH_HOME", str(home))
        with pytest.raises(GameGraphError, match="No space left") as caught:
            state_dir()
        assert "\n" not in str(caught.value)
        assert not (home / settings.STATE_MARKER).exists()
        assert home.exists() == (home.name == "empty")
