"""The state folder is private and its caches are inert (explorer/private.py, explorer/solved.py, loaders/mirror.py).

Folders 0700 (tightened when ours and looser), files 0600, and no cache is
ever unpickled: a pickle planted where a cache lives is refused and rebuilt,
and its code never runs.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from pathlib import Path

import pytest

from explorer.core import private
from explorer.games import parse_spec
from explorer.solved import CACHE_FORMAT, build, cache_path, load_or_build
from loaders import mirror

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


class Payload:
    """Unpickling this creates `marker`: proof that a pickle ran code."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def plant(path: Path, marker: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(Payload(marker)))


def old_mirror_path(game, symmetry: bool = True) -> Path:
    """Where format 1 (a pickle) kept a game's mirror."""
    symmetry = symmetry and game.has_symmetry()
    digest = hashlib.sha1(f"1|{CACHE_FORMAT}|{game.id}|{symmetry}".encode()).hexdigest()[:16]
    return Path(os.environ["GAMEGRAPH_HOME"]) / "mirrors" / f"{game.name}-{digest}.pickle"


def test_the_state_folder_and_caches_are_owner_only(home):
    os.umask(0o022)
    game = parse_spec("chopsticks:standard")
    load_or_build(game)
    mirror.mirror_for(game)
    assert mode(home) == 0o700
    assert mode(home / "graphs") == 0o700 and mode(home / "mirrors") == 0o700
    assert mode(cache_path(game, True)) == 0o600
    assert mode(mirror.mirror_path(game)) == 0o600
    assert not list(home.rglob("*.partial*"))


def test_a_looser_state_folder_of_ours_is_tightened(home):
    for folder in (home, home / "graphs", home / "mirrors"):
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)
    mirror.mirror_for("nim:small")
    assert mode(home) == mode(home / "graphs") == mode(home / "mirrors") == 0o700


def test_ensure_private_dir_creates_and_fixes(tmp_path):
    made = private.ensure_private_dir(tmp_path / "a")
    assert mode(made) == 0o700
    made.chmod(0o777)
    assert mode(private.ensure_private_dir(made)) == 0o700


def test_a_pickle_planted_at_the_old_mirror_path_is_never_unpickled(home, tmp_path):
    game = parse_spec("chopsticks:standard")
    marker = tmp_path / "pwned"
    plant(old_mirror_path(game), marker)
    G = mirror.mirror_for(game)
    assert not marker.exists()
    assert G.number_of_nodes() == build(game).graph.num_positions
    assert not old_mirror_path(game).exists()  # format 1 files are removed, not left to be trusted


def test_a_pickle_planted_at_the_new_paths_is_refused_and_rebuilt(home, tmp_path):
    game = parse_spec("nim:small")
    marker = tmp_path / "pwned"
    plant(mirror.mirror_path(game), marker)
    plant(cache_path(game, True), marker)
    with pytest.raises(ValueError, match="does not hold a networkx mirror"):
        mirror.open(mirror.mirror_path(game))
    G = mirror.mirror_for(game)
    assert not marker.exists()
    assert G.number_of_nodes() == build(game).graph.num_positions
    assert mode(mirror.mirror_path(game)) == 0o600 and mode(cache_path(game, True)) == 0o600
    mirror.open(mirror.mirror_path(game))  # the planted files were replaced by data-only ones


# numba's on-disk cache is pickles by design (numba.core.caching unpickles it whenever cache=True): the one
# module that stands in numba's cache protocol reads them where numba would, in the user's owner-only
# keyed cache folder, and only after each data file's SHA-256 seal has been checked (issue 34).
NUMBA_CACHE_PROTOCOL = {"explorer/kernels/cache.py"}


def test_no_code_loads_pickles():
    """Guard: nothing in the package reads a pickle or allows numpy to, but numba's cache protocol."""
    offenders = []
    for folder in ("explorer", "loaders", "queries"):
        for source in (ROOT / folder).rglob("*.py"):
            if str(source.relative_to(ROOT)) in NUMBA_CACHE_PROTOCOL:
                continue
            text = source.read_text()
            if "pickle.load" in text or "allow_pickle=True" in text or "import pickle" in text:
                offenders.append(str(source.relative_to(ROOT)))
    assert not offenders


def test_a_damaged_mirror_document_is_rebuilt_not_a_traceback(home):
    import json

    import numpy as np

    game = parse_spec("nim:small")
    expected = mirror.mirror_for(game)
    path = mirror.mirror_path(game)
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    document = json.loads(arrays["document"].tobytes())
    document["keys"] = document["keys"][:3]          # edges now point past the keys
    arrays["document"] = np.frombuffer(json.dumps(document).encode(), dtype=np.uint8)
    with path.open("wb") as handle:
        np.savez(handle, **arrays)
    with pytest.raises(ValueError, match="valid networkx mirror"):
        mirror.open(path)
    assert mirror.mirror_for(game).number_of_nodes() == expected.number_of_nodes()


def test_the_survey_cache_is_owner_only(home):
    """A survey summary is a cache in the state folder like the others: 0600 in 0700 folders, even under umask 022."""
    from explorer.analysis import survey

    previous = os.umask(0o022)
    try:
        home.mkdir(parents=True)
        home.chmod(0o755)  # a looser state folder of ours is tightened by the first write
        game = parse_spec("nim:small")
        survey.survey([game])
    finally:
        os.umask(previous)
    path = survey._cache_file(game)
    assert path.parent == home / "survey" and path.exists()
    assert mode(path) == 0o600
    assert mode(home / "survey") == 0o700 and mode(home) == 0o700
    assert not list(home.rglob("*.partial*"))


def test_the_implicit_value_file_is_owner_only(home):
    """The value folder (written whole, then renamed) is 0700 and its files 0600, even under umask 022."""
    from explorer import implicit

    previous = os.umask(0o022)
    try:
        game = parse_spec("dodgem")
        result = implicit.solve(game)
    finally:
        os.umask(previous)
    folder = implicit.folder_for(game)
    assert result.folder == folder
    assert mode(home) == mode(home / "implicit") == mode(folder) == 0o700
    assert sorted(p.name for p in folder.iterdir()) == ["meta.json", implicit.CODES_FILE]
    assert all(mode(p) == 0o600 for p in folder.iterdir())
    assert not list(home.rglob("*.partial*"))
    assert implicit.open_value_file(game).meta["positions"] == 2846


def test_cache_paths_keep_their_names(home):
    """Every cache's file name is <name>-<first 16 hex digits of SHA-1(key)>: existing caches are still found."""
    from explorer import implicit
    from explorer.analysis import survey

    def digest(key: str) -> str:
        return hashlib.sha1(key.encode()).hexdigest()[:16]

    game = parse_spec("chopsticks:standard")
    assert cache_path(game, True) == home / "graphs" / f"chopsticks-{digest(f'{CACHE_FORMAT}|{game.id}|True')}.npz"
    assert mirror.mirror_path(game) == home / "mirrors" / (
        f"chopsticks-{digest(f'{mirror.MIRROR_FORMAT}|{CACHE_FORMAT}|{game.id}|True')}.npz")
    assert survey._cache_file(game) == home / "survey" / f"chopsticks-{digest(f'{survey.CACHE_VERSION}|{game.id}')}.json"
    assert implicit.folder_for(game) == home / "implicit" / f"chopsticks-{digest(f'{implicit.FORMAT}|{game.id}')}"
    assert private.cache_path("graphs", "x", "key", ".npz") == home / "graphs" / f"x-{digest('key')}.npz"


def test_a_killed_builds_temporary_file_is_found_by_its_pid(home):
    """The UI removes what a killed build child was writing: the names files.partial_path gives."""
    from explorer.core import files
    from explorer.ui import builds

    target = cache_path(parse_spec("nim:small"), True)
    target.parent.mkdir(parents=True)
    partial = files.partial_path(target)
    partial.write_bytes(b"half")
    other = target.with_name(f".{target.name}.{os.getpid() + 1}.7.partial")  # another process's
    other.write_bytes(b"half")
    assert files.partial_paths(target.parent, os.getpid()) == [partial]
    builds._remove_partial_files(os.getpid())
    assert not partial.exists() and other.exists()


def test_something_at_a_cache_path_that_is_no_file_is_refused_without_blocking(tmp_path, monkeypatch):
    """A FIFO at a cache path blocked its reader for ever (issue 40): cache_path refuses it in one line."""
    import os

    from explorer.core import private
    from explorer.core.errors import GameGraphError
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    path = private.cache_path("mirrors", "nim", "key", ".npz")
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    with pytest.raises(GameGraphError, match=r"is a FIFO \(named pipe\), not a regular file or folder.*remove it"):
        private.cache_path("mirrors", "nim", "key", ".npz")
    path.unlink()
    path.mkdir()  # a folder cache (the implicit value files) is fine
    assert private.cache_path("mirrors", "nim", "key", ".npz") == path


def test_something_inside_a_folder_cache_that_is_no_file_is_refused_without_blocking(tmp_path, monkeypatch):
    """A FIFO as an implicit value folder's meta.json (or a tier file, or deeper, or behind a symlink) blocked its
    reader for ever: cache_path refuses it in one line naming it; regular files, folders and dangling links pass."""
    import os

    from explorer.core import private
    from explorer.core.errors import GameGraphError
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    folder = private.cache_path("implicit", "dodgem", "key")
    (folder / "inner").mkdir(parents=True)
    (folder / "solved.values").write_bytes(b"x")
    (folder / "inner" / "tier-1.values").write_bytes(b"x")
    (folder / "gone").symlink_to(tmp_path / "nowhere")
    (folder / "up").symlink_to(folder)  # a link back up does not loop
    assert private.cache_path("implicit", "dodgem", "key") == folder
    for fifo in (folder / "meta.json", folder / "inner" / "tier-2.values"):
        os.mkfifo(fifo)
        with pytest.raises(GameGraphError, match=r"cache entry .*" + fifo.name + r" is a FIFO \(named pipe\).*remove it"):
            private.cache_path("implicit", "dodgem", "key")
        fifo.unlink()
    os.mkfifo(tmp_path / "pipe")
    (folder / "meta.json").symlink_to(tmp_path / "pipe")
    with pytest.raises(GameGraphError, match=r"meta.json is a FIFO"):
        private.cache_path("implicit", "dodgem", "key")


def test_keep_cache_file_writes_whole_or_says_why_not_in_one_notice(tmp_path, monkeypatch, capsys):
    """The one writer of a cache file that the answer does not need (the edge mode's solved graphs, the
    survey's rows): written 0600 in a 0700 folder, or one notice naming the reason, and False."""
    import errno

    from explorer.core import private
    from explorer.core.errors import StateFolderReadOnly
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    path = private.cache_path("survey", "nim", "key", ".json")
    assert private.keep_cache_file(path, lambda handle: handle.write(b"{}"), "surveyed") is True
    assert path.read_bytes() == b"{}" and mode(path) == 0o600 and mode(path.parent) == 0o700
    assert capsys.readouterr().err == ""

    def full(handle):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert private.keep_cache_file(path, full, "surveyed") is False
    note, = capsys.readouterr().err.strip().splitlines()
    assert note == f"gamegraph: note: surveyed without the cache: cannot write the cache file {path}: No space left on device"
    assert path.read_bytes() == b"{}" and [p.name for p in path.parent.iterdir()] == [path.name]  # nothing half

    def read_only():
        raise StateFolderReadOnly("the state folder /x is read-only")
    assert private.keep_cache_file(read_only, full, "answered") is False
    assert capsys.readouterr().err == "gamegraph: note: answered without the cache: the state folder /x is read-only\n"


def test_the_solved_graphs_and_the_survey_keep_their_caches_through_the_one_helper(tmp_path, monkeypatch):
    """explorer.solved.graph.keep and explorer.analysis.survey each had a copy of the write-or-notice pattern."""
    from explorer.analysis import survey
    from explorer.core import private
    from explorer.solved import graph
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    kept = []
    real = private.keep_cache_file
    monkeypatch.setattr(private, "keep_cache_file", lambda path, write, doing: (kept.append(doing), real(path, write, doing))[1])
    game = parse_spec("nim:small")
    assert graph.keep(build(game)) is True and graph.is_kept(game, True)
    assert survey.survey([game], use_cache=False)[0]["spec"] == game.id
    assert kept == ["answered", "surveyed"]
    assert load_or_build(game).graph.num_positions == build(game).graph.num_positions  # read back


def test_a_private_write_removes_what_killed_writers_left_in_its_folder(tmp_path, monkeypatch):
    import os

    from explorer.core import private
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    folder = private.state_path("graphs")
    folder.mkdir(parents=True)
    dead = next(pid for pid in range(4_194_000, 4_194_304) if not os.path.exists(f"/proc/{pid}"))
    stale = [folder / f".nim-0123.npz.{dead}.1.partial", folder / f".tictactoe-4567.npz.{dead}.7.partial"]
    for path in stale:
        path.write_bytes(b"half")
    with private.atomic_private_file(folder / "chopsticks-89ab.npz") as handle:
        handle.write(b"whole")
    assert sorted(p.name for p in folder.iterdir()) == ["chopsticks-89ab.npz"]
