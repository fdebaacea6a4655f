"""Where numba caches the kernels (explorer/kernels/__init__.py), and that an edit is never served stale.

numba checks a cached function against its own source file only. A kernel that calls a compiled
function of another module (a game's solve calls explorer/kernels/retrograde.py's solve_cells,
Dōbutsu shōgi's kernels call ranking.py's rank_position) keeps that function's old machine code
after an edit of the other module alone. The reproduction below runs the same two-module package
under plain numba (stale) and under explorer.kernels' keyed cache folder (fresh, and warm again
when nothing changed).

numba also files a cached function under a hash of its folder's absolute path: a second clone compiles
everything again. explorer/kernels/cache.py files gamegraph's kernels by their path inside the package
and their content; below, a copy of the same sources at another path with other mtimes loads what the
first compiled, and a damaged, foreign or other-version cache file costs a compile and one line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from explorer import kernels

ROOT = Path(__file__).resolve().parents[2]

RANKING = '''
def rank(x):  # plain Python, compiled by kernels.py, as Dōbutsu shōgi's ranking.py
    return x + 1
'''

PLAIN_KERNELS = '''
from numba import njit
from toy.ranking import rank

_rank = njit(cache=True)(rank)


@njit(cache=True)
def solve(x):
    return _rank(x) * 10
'''

GAME_KERNELS = '''
from explorer.kernels import njit
from explorer.games.toy.ranking import rank

_rank = njit(cache=True)(rank)


@njit(cache=True)
def solve(x):
    return _rank(x) * 10
'''


def _run_both(script: str, path: Path, cache: Path) -> tuple[str, str]:
    env = {**os.environ, "PYTHONPATH": str(path), "NUMBA_CACHE_DIR": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", script], cwd=path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), done.stderr.strip()


def _run(script: str, path: Path, cache: Path) -> str:
    out, err = _run_both(script, path, cache)
    return out


def _edit_ranking(path: Path) -> None:
    path.write_text(RANKING.replace("x + 1", "x + 22"))


def test_numba_alone_serves_a_stale_kernel_after_an_edit_of_the_module_it_calls(tmp_path):
    """The reproduction: why the cache folder is keyed. If numba ever checks what a kernel calls,
    this fails, and the keyed folder (explorer/kernels/__init__.py) may be simplified."""
    package = tmp_path / "plain" / "toy"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "ranking.py").write_text(RANKING)
    (package / "kernels.py").write_text(PLAIN_KERNELS)
    script = "from toy.kernels import solve; print(solve(1))"
    assert _run(script, package.parent, tmp_path / "cache") == "20"
    _edit_ranking(package / "ranking.py")
    assert _run(script, package.parent, tmp_path / "cache") == "20"  # stale: 230 is right


def _copy_of_the_cache_setup(root: Path) -> Path:
    """A package `explorer` with this checkout's explorer.kernels and explorer.core (what the cache
    setup imports), and a game folder `toy` whose kernel calls its ranking module."""
    explorer = root / "explorer"
    (explorer / "kernels").mkdir(parents=True)
    shutil.copy(ROOT / "explorer" / "__init__.py", explorer / "__init__.py")
    for name in ("__init__.py", "cache.py"):
        shutil.copy(ROOT / "explorer" / "kernels" / name, explorer / "kernels" / name)
    shutil.copytree(ROOT / "explorer" / "core", explorer / "core", ignore=shutil.ignore_patterns("__pycache__"))
    game = explorer / "games" / "toy"
    game.mkdir(parents=True)
    (explorer / "games" / "__init__.py").write_text("")
    (game / "__init__.py").write_text("")
    (game / "ranking.py").write_text(RANKING)
    (game / "kernels.py").write_text(GAME_KERNELS)
    return game


def test_the_keyed_cache_compiles_an_edit_of_a_called_module_and_stays_warm_otherwise(tmp_path):
    game = _copy_of_the_cache_setup(tmp_path / "tree")
    cache = tmp_path / "cache"
    script = ("from explorer.games.toy.kernels import solve; print(solve(1), "
              "sum(solve.stats.cache_hits.values()), sum(solve.stats.cache_misses.values()))")
    assert _run(script, tmp_path / "tree", cache) == "20 0 1"  # compiled and stored
    assert _run(script, tmp_path / "tree", cache) == "20 1 0"  # nothing changed: loaded, warm
    _edit_ranking(game / "ranking.py")
    assert _run(script, tmp_path / "tree", cache) == "230 0 1"  # the edit compiled, not the stale 20
    assert _run(script, tmp_path / "tree", cache) == "230 1 0"
    keyed = sorted(p.name for p in cache.iterdir())
    assert len(keyed) == 2 and all(kernels.KEYED_FOLDER.fullmatch(name) for name in keyed)


def test_the_key_follows_every_kernel_source_and_nothing_else(tmp_path):
    game = _copy_of_the_cache_setup(tmp_path / "tree")
    package = tmp_path / "tree" / "explorer" / "kernels"
    (tmp_path / "tree" / "explorer" / "games" / "nim.py").write_text("# a one-file game: no kernels\n")

    def key() -> str:
        return kernels.sources_key(kernels.kernel_sources(package), package.parent)

    (game / "rules.py").write_text("from explorer.games.toy.ranking import rank\n")  # Python only
    first = key()
    assert key() == first
    (tmp_path / "tree" / "explorer" / "games" / "nim.py").write_text("# edited\n")
    (tmp_path / "tree" / "explorer" / "core" / "values.py").write_text("# edited\n")
    (game / "rules.py").write_text("from explorer.games.toy.ranking import rank  # edited\n")
    (game / "tables.py").write_text("TABLE = (1, 2)\n")  # imported by no kernel module yet
    assert key() == first
    _edit_ranking(game / "ranking.py")  # what the kernel compiles
    edited = key()
    assert edited != first
    (game / "kernels.py").write_text("from explorer.games.toy.tables import TABLE\n" + GAME_KERNELS)
    with_tables = key()
    assert with_tables not in (first, edited)
    (game / "tables.py").write_text("TABLE = (1, 3)\n")  # a constant a kernel reads
    assert key() not in (first, edited, with_tables)
    latest = key()
    (package / "__init__.py").write_text((package / "__init__.py").read_text() + "\n")
    assert key() != latest
    real = {p.relative_to(ROOT).as_posix() for p in kernels.kernel_sources()}
    assert {"explorer/kernels/retrograde.py", "explorer/games/dobutsu/ranking.py",
            "explorer/games/dobutsu/pieces.py", "explorer/kernels/__init__.py"} <= real
    assert not {"explorer/games/nim.py", "explorer/games/base.py", "explorer/games/dobutsu/rules.py"} & real


def test_the_cache_base_is_the_users_cache_then_the_state_folder_and_keeps_the_users_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    writable, locked = tmp_path / "home-cache", tmp_path / "locked"
    writable.mkdir()
    locked.mkdir()
    (writable / "gamegraph-0123456789abcdef").mkdir()
    (writable / "gamegraph-0123456789abcdef").chmod(0o500)  # a read-only keyed folder in a writable base
    locked.chmod(0o500)
    # The permission bits decide, as for an ordinary user (root's os.access says yes to everything).
    monkeypatch.setattr(kernels.os, "access", lambda path, mode: bool(os.stat(path).st_mode & 0o200))
    try:
        assert kernels.cache_base(writable / "numba") == writable / "numba"  # the user's cache, made on use
        assert kernels.cache_base(writable, "gamegraph-fedcba9876543210") == writable
        state = tmp_path / "state" / "numba-cache"
        assert kernels.cache_base(writable, "gamegraph-0123456789abcdef") == state  # read-only: the state folder
        assert kernels.cache_base(locked / "numba") == state
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
        assert kernels.cache_base(locked / "numba") == tmp_path / "mine"  # the user's choice
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine" / "gamegraph-0123456789abcdef"))
        assert kernels.cache_base() == tmp_path / "mine"  # a parent process's keyed folder: not nested
    finally:
        locked.chmod(0o700)
        (writable / "gamegraph-0123456789abcdef").chmod(0o700)
    assert os.environ.get("NUMBA_CACHE_DIR") and kernels.cache_dir().parent == tmp_path / "mine"


def test_the_users_cache_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert kernels.user_cache() == tmp_path / "xdg" / "gamegraph" / "numba"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec: an absolute path only
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert kernels.user_cache() == tmp_path / "home" / ".cache" / "gamegraph" / "numba"


def test_the_key_covers_numba_and_python_but_not_the_cache_machinery(tmp_path):
    """Another numba, llvmlite or Python compiles into a folder of its own; explorer/kernels/cache.py and
    warmup.py compile nothing and are keyed by cache.LAYOUT instead of their text."""
    tag = kernels.compiler_tag()
    import llvmlite
    import numba

    assert numba.__version__ in tag and llvmlite.__version__ in tag and sys.implementation.cache_tag in tag
    files = kernels.kernel_sources()
    assert kernels.sources_key(files, ROOT, tag) != kernels.sources_key(files, ROOT, tag.replace("numba", "numba 0"))
    assert not {p.name for p in files if p.parent.name == "kernels"} & kernels.NOT_COMPILED


def test_the_locator_is_active_on_the_installed_numba():
    """explorer/kernels/cache.py relies on numba's caching internals (cache.RELIED_ON): on another numba it
    steps aside and numba caches per clone again. This fails then, so that the pin is looked at."""
    from explorer.kernels import cache

    assert cache.active(), "numba's caching internals changed: re-read numba/core/caching.py, update cache.py"


COUNTS = ("from explorer.games.toy.kernels import solve; print(solve(1), "
          "sum(solve.stats.cache_hits.values()), sum(solve.stats.cache_misses.values()))")


def test_a_second_clone_at_another_path_with_other_mtimes_loads_the_first_ones_kernels(tmp_path):
    """Under plain numba the second copy compiles again (its folder's path is in numba's file names)."""
    _copy_of_the_cache_setup(tmp_path / "first")
    _copy_of_the_cache_setup(tmp_path / "elsewhere" / "second")
    a_year_ago = time.time() - 365 * 86400
    for path in (tmp_path / "elsewhere").rglob("*.py"):
        os.utime(path, (a_year_ago, a_year_ago))
    cache = tmp_path / "cache"
    assert _run(COUNTS, tmp_path / "first", cache) == "20 0 1"  # compiled and stored
    assert _run(COUNTS, tmp_path / "elsewhere" / "second", cache) == "20 1 0"  # loaded: no compile
    assert len(list(cache.iterdir())) == 1
    game = tmp_path / "elsewhere" / "second" / "explorer" / "games" / "toy"
    _edit_ranking(game / "ranking.py")  # the second clone moves on: its own folder, compiled
    assert _run(COUNTS, tmp_path / "elsewhere" / "second", cache) == "230 0 1"
    assert _run(COUNTS, tmp_path / "first", cache) == "20 1 0"  # the first keeps its kernels


def _damage(kind: str, index: Path) -> None:
    data = sorted(index.parent.glob(index.name[: -len(".nbi")] + ".*.nbc"))
    assert data, "numba wrote the data file"
    if kind == "corrupt":
        raw = bytearray(data[0].read_bytes())
        raw[len(raw) // 2] ^= 0xFF  # one flipped byte in the object code
        data[0].write_bytes(bytes(raw))
    elif kind == "truncated":
        data[0].write_bytes(data[0].read_bytes()[:100])
    elif kind == "foreign":  # another function's valid file under this one's name
        other = next(p for p in index.parent.glob("*.nbc") if not p.name.startswith(index.name[: -len(".nbi")]))
        data[0].write_bytes(other.read_bytes())
    elif kind == "garbage index":
        index.write_bytes(b"not a pickle at all")
    elif kind == "other numba":
        import pickle

        raw = index.read_bytes()
        version = pickle.dumps(pickle.loads(raw), protocol=-1)
        index.write_bytes(pickle.dumps("0.1.0", protocol=-1) + raw[len(version):])


def test_a_damaged_foreign_or_other_version_cache_file_is_rebuilt_with_one_line(tmp_path):
    _copy_of_the_cache_setup(tmp_path / "tree")
    cache = tmp_path / "cache"
    assert _run(COUNTS, tmp_path / "tree", cache) == "20 0 1"
    folder = next(cache.iterdir()) / "explorer" / "games" / "toy"
    index = next(folder.glob("kernels.solve-*.nbi"))
    for kind in ("corrupt", "truncated", "foreign", "garbage index", "other numba"):
        _damage(kind, index)
        out, err = _run_both(COUNTS, tmp_path / "tree", cache)
        assert out == "20 0 1", kind  # compiled again, the right answer
        lines = err.splitlines()
        assert len(lines) == 1 and "Traceback" not in err and index.name in lines[0], (kind, err)
        assert "compiling it again" in lines[0] and ("0.1.0" in lines[0]) == (kind == "other numba")
        assert _run_both(COUNTS, tmp_path / "tree", cache) == ("20 1 0", ""), kind  # rebuilt: warm, quiet


def test_prune_keeps_the_recent_and_the_in_use_folders(tmp_path):
    now = time.time()
    ages = {"gamegraph-000000000000000a": 10, "gamegraph-000000000000000b": 20, "gamegraph-000000000000000c": 3,
            "gamegraph-000000000000000d": 30, "gamegraph-000000000000000e": 0.01}  # days unused
    for name, days in ages.items():
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now - days * 86400, now - days * 86400))
    (tmp_path / "someone-else").mkdir()
    os.utime(tmp_path / "someone-else", (now - 99 * 86400, now - 99 * 86400))
    current = tmp_path / "gamegraph-000000000000000f"
    current.mkdir()
    removed = kernels.prune(current, keep=2, in_use_seconds=86400)
    assert sorted(p.name for p in removed) == ["gamegraph-000000000000000a", "gamegraph-000000000000000b",
                                               "gamegraph-000000000000000d"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gamegraph-000000000000000c", "gamegraph-000000000000000e",
                                                          "gamegraph-000000000000000f", "someone-else"]
    assert kernels.prune(current, keep=0, in_use_seconds=0) and not (tmp_path / "gamegraph-000000000000000c").exists()


def _unkeyed(base: Path, name: str, files: dict[str, str], days: float) -> Path:
    """A folder of numba's unkeyed layout (`<source folder>_<SHA-1>`) with these files, unused for `days`."""
    folder = base / name
    folder.mkdir(parents=True)
    when = time.time() - days * 86400
    for file, text in files.items():
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).write_text(text)
        os.utime(folder / file, (when, when))
    return folder


def test_prune_removes_the_unkeyed_layout_only_in_gamegraphs_own_numba_cache(tmp_path):
    """The folders numba made in the state folder's numba-cache before the cache was keyed go with the next
    prune; nothing else does: not a folder with a file that is not numba's, a symlink, a recently used one,
    nor the same layout in a numba cache that is not gamegraph's (a user's ~/.cache/numba)."""
    kernel_files = {"retrograde.solve-120.py311.nbi": "index", "retrograde.solve-120.py311.1.nbc": "code"}
    sha = "0123456789abcdef0123456789abcdef01234567"
    state = tmp_path / "state"
    (state / "numba-cache").mkdir(parents=True)
    (state / ".gamegraph-state").write_text("marker")
    ours = state / "numba-cache"
    old = _unkeyed(ours, f"kernels_{sha}", kernel_files, days=30)
    old_game = _unkeyed(ours, f"dodgem_{sha[::-1]}", kernel_files, days=30)
    with_notes = _unkeyed(ours, f"notes_{sha}", {**kernel_files, "README.txt": "mine"}, days=30)
    recent = _unkeyed(ours, f"teeko_{sha}", kernel_files, days=0.01)
    other_name = _unkeyed(ours, "kernels", kernel_files, days=30)  # not numba's naming: not ours to judge
    outside = _unkeyed(tmp_path, "elsewhere", kernel_files, days=30)
    (ours / f"linked_{sha}").symlink_to(outside, target_is_directory=True)
    current = ours / "gamegraph-000000000000000f"
    current.mkdir()
    removed = kernels.prune(current, keep=2, in_use_seconds=86400)
    assert sorted(removed) == sorted([old, old_game])
    assert not old.exists() and not old_game.exists()
    for kept in (with_notes, recent, other_name, outside, current):
        assert kept.exists(), kept
    assert (ours / f"linked_{sha}").is_symlink() and all((outside / f).exists() for f in kernel_files)

    user_cache = tmp_path / "user" / "numba-cache"  # the same name, but no state folder's marker beside it
    theirs = _unkeyed(user_cache, f"kernels_{sha}", kernel_files, days=30)
    mine = user_cache / "gamegraph-000000000000000f"
    mine.mkdir()
    assert kernels.prune(mine, keep=2, in_use_seconds=86400) == [] and theirs.exists()


def test_the_warmup_plans_every_builtin_game_in_every_mode_it_offers():
    """The install's warm-up (explorer/kernels/warmup.py) solves every built-in game's presets: the edge mode
    for each, the implicit and the tiered mode for each small enough preset of a game with compiled kernels."""
    from explorer.games import registry
    from explorer.kernels import warmup

    registry.load_builtin_games()
    runs = warmup.plan_runs({**os.environ, "GAMEGRAPH_PROGRESS": "0"})
    assert {game for game, _ in runs} == set(registry.registered())
    argv = [args for _, args in runs]
    for name, cls in registry.registered().items():
        for preset in cls.presets:
            assert ["solve", f"{name}:{preset}", "--max-positions", str(warmup.EDGE_MAX)] in argv
    for spec in ("dodgem:4x4", "dodgem:3x3", "connect4:small", "teeko:small", "chopsticks:standard"):
        assert ["solve", spec, "--implicit"] in argv and ["solve", spec, "--tiered", "--workers", "1"] in argv
    assert ["solve", "dobutsu:small", "--implicit"] in argv  # folded kernels: no tiered solve (it is refused)
    assert ["solve", "dobutsu:small", "--tiered", "--workers", "1"] not in argv
    assert ["solve", "dodgem:5x5", "--implicit"] not in argv  # minutes: compiles nothing 4x4 does not
    for game in registry.registered():  # the UI's draw levels and the mirror's columns, on one preset each
        assert sum(args[0] == "draws" and args[1].split(":")[0] == game for args in argv) == 1
        assert sum(args[0] == "query" and args[1].split(":")[0] == game for args in argv) == 1
    assert ["draws", "dodgem:3x3"] in argv and ["query", "connect4:small", "stats"] in argv
    dealt = warmup.lanes(runs, 2)
    assert sorted(map(tuple, sum(dealt, []))) == sorted(map(tuple, argv)) and len(dealt) == 2
    for game in {game for game, _ in runs}:  # a game's runs in one lane: its index files written by one process
        assert sum(any(args[1].split(":")[0] == game for args in lane) for lane in dealt) == 1


def test_the_warmup_skips_a_complete_cache_and_stamps_only_when_every_run_passed(tmp_path, monkeypatch):
    from explorer.kernels import warmup

    folder = tmp_path / "gamegraph-0123456789abcdef"
    folder.mkdir()
    monkeypatch.setattr(warmup, "plan_runs", lambda env: [("nim", ["games", "--format", "json"]),
                                                          ("toy", ["solve", "no-such-game"])])
    messages = tmp_path / "messages.txt"
    with open(messages, "w") as out:
        assert warmup.warm(folder, jobs=2, out=out) == 1  # the unknown game fails: no stamp
    text = messages.read_text()
    assert "2/2" in text and "no-such-game" in text and "1 of 2 warm-up runs failed" in text
    assert not warmup.stamp_path(folder).exists()
    monkeypatch.setattr(warmup, "plan_runs", lambda env: [("nim", ["games", "--format", "json"])])
    with open(messages, "w") as out:
        assert warmup.warm(folder, jobs=2, out=out) == 0
    assert json.loads(warmup.stamp_path(folder).read_text())["runs"] == 1

    def no_run(*args, **kwargs):
        raise AssertionError("the stamp says the cache is complete: nothing runs")

    monkeypatch.setattr(warmup, "plan_runs", no_run)
    monkeypatch.setattr(warmup.subprocess, "run", no_run)
    with open(messages, "w") as out:
        assert warmup.warm(folder, jobs=2, out=out) == 0
    assert "already compiled" in messages.read_text()


def _where_kernels_cache() -> tuple[str, bool, str]:
    """In a worker: the keyed folder, whether the locator is active, where csr.reverse is cached."""
    from explorer.kernels import cache
    from explorer.kernels.csr import reverse

    return os.environ["NUMBA_CACHE_DIR"], cache.active(), reverse._cache._cache_path


def test_local_dask_workers_read_the_same_cache_as_the_process_that_starts_them():
    """Each worker process imports explorer.kernels again: it must find the parent's keyed folder (through
    NUMBA_CACHE_DIR), not a folder of its own, and file the kernels there by the same locator."""
    from distributed import Client, LocalCluster

    mine = _where_kernels_cache()
    assert mine[1] and mine[2] == os.path.join(mine[0], "explorer", "kernels")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=50, host="127.0.0.1") as cluster, Client(cluster) as client:
        theirs = client.submit(_where_kernels_cache, pure=False).result(timeout=300)
    assert theirs == mine


def test_a_data_file_of_another_signature_in_the_same_slot_is_refused(tmp_path):
    """Two processes compiling two signatures of one kernel at once may each save slot 1 (numba reads the
    index, picks the first free slot, writes): the seal binds the index key, so the int entry never runs
    the float machine code left in its slot."""
    _copy_of_the_cache_setup(tmp_path / "tree")
    as_float = COUNTS.replace("solve(1)", "solve(1.5)")
    assert _run(as_float, tmp_path / "tree", tmp_path / "floats") == "25.0 0 1"
    assert _run(COUNTS, tmp_path / "tree", tmp_path / "ints") == "20 0 1"
    slot = "explorer/games/toy/kernels.solve-*.1.nbc"
    floats, ints = (next((tmp_path / name).glob("*/" + slot)) for name in ("floats", "ints"))
    ints.write_bytes(floats.read_bytes())
    out, err = _run_both(COUNTS, tmp_path / "tree", tmp_path / "ints")
    assert out == "20 0 1" and len(err.splitlines()) == 1 and "damaged or foreign" in err, err
    assert _run_both(COUNTS, tmp_path / "tree", tmp_path / "ints") == ("20 1 0", "")
