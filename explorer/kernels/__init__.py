"""Compiled (numba) kernels for the whole-graph passes: generation, predecessors, solve, cycles.

Every kernel is ``@njit(cache=True)``: the first call in a fresh install compiles
it (seconds, once) and stores machine code; later processes load it in
milliseconds. Import this package only inside functions: numba is heavy and the
CLI must start fast.

Why the cache folder is keyed by the kernel sources. numba checks a cached
function against its own source file only, but a kernel's machine code also holds
every compiled function it calls (inlined or linked: a game's ``solve`` holds
explorer/kernels/retrograde.py's ``solve_cells``, Dōbutsu shōgi's kernels hold
ranking.py's ``rank_position``) and the module constants it reads. Editing only
one of those would leave the stale code running. So numba caches in a folder
named after a hash of every kernel source (`kernel_sources`: this package, and in
each game folder, explorer/games/<name>/, its kernel modules and the modules of
the folder they import, the tables and functions they compile): any edit there
starts a fresh folder, and an unchanged tree keeps loading from the same one. Older folders are pruned
(`prune`), and so are the unkeyed folders numba made in the state folder's ``numba-cache`` before. tests/algorithms/test_kernels.py reproduces the staleness and checks
the fix.

Where the cache lives (`cache_base`): under a NUMBA_CACHE_DIR the user set; else the user's cache
folder, ``$XDG_CACHE_HOME/gamegraph/numba`` (``~/.cache/gamegraph/numba``), shared by every clone of
the same sources; else, when it is not writable (a read-only home in a container), the gamegraph state
folder's ``numba-cache`` (owner-only like every folder there). In it, the folder ``gamegraph-<hash>``,
keyed also by numba's, llvmlite's and Python's versions and the layout of explorer/kernels/cache.py,
which NUMBA_CACHE_DIR then names for numba (and for the processes this one starts, Dask workers
included, which find the base again from it). explorer/kernels/cache.py files each kernel there by
its path inside the package and its source's content, so that a fresh clone, at another path with
other mtimes, loads what another clone or the install's warm-up (explorer/kernels/warmup.py) compiled.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import time
from contextlib import suppress
from pathlib import Path

NUMBA_CACHE_KIND = "numba-cache"  # the state folder's subfolder numba caches in, when it must
KEYED_PREFIX = "gamegraph-"       # a cache folder of ours: this prefix and the kernel sources' hash
KEYED_FOLDER = re.compile(re.escape(KEYED_PREFIX) + r"[0-9a-f]{16}")
KEEP_FOLDERS = 4                  # keyed folders kept beside the current one (other checkouts, recent edits)
IN_USE_SECONDS = 24 * 3600        # a keyed folder used this recently is never pruned (another process's)


def _writable(folder: Path) -> bool:
    """True when `folder` exists and files can be created there, or it can be created."""
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            return os.access(candidate, os.W_OK | os.X_OK)
    return False


_COMPILES = re.compile(r"^(?:from|import) +(?:numba|llvmlite|explorer\.kernels)\b", re.M)
_OWN_IMPORT = re.compile(r"^from +explorer\.games\.(\w+)\.(\w+) +import\b", re.M)


# Modules of this package that compile nothing: where the cache goes and the install's warm-up
# (cache.LAYOUT is in the key instead, so that editing them does not make every process compile again).
NOT_COMPILED = frozenset({"cache.py", "warmup.py"})


def kernel_sources(package: Path | None = None) -> list[Path]:
    """Every file whose text can end up in a kernel's machine code, sorted: the .py files of this
    package but NOT_COMPILED; in each game folder (explorer/games/<name>/), its modules that compile code (a top-level
    import of numba, llvmlite or explorer.kernels) and, transitively, the modules of the folder they
    import at top level (``from explorer.games.<name>.<module> import ...``: the ranking and tables
    the kernels compile or read). A game's rules module is not one of them: editing it keeps the
    cache. O(size of the game folders)."""
    package = package or Path(__file__).resolve().parent
    games = package.parent / "games"
    chosen = {path for path in package.glob("*.py") if path.name not in NOT_COMPILED}
    for folder in sorted(p for p in games.iterdir() if p.is_dir()) if games.is_dir() else ():
        texts = {path: path.read_text(encoding="utf-8", errors="replace") for path in folder.glob("*.py")}
        todo = [path for path, text in texts.items() if _COMPILES.search(text)]
        while todo:
            path = todo.pop()
            if path in chosen:
                continue
            chosen.add(path)
            for game, module in _OWN_IMPORT.findall(texts[path]):
                imported = folder / f"{module}.py"
                if game == folder.name and imported in texts:
                    todo.append(imported)
    return sorted(chosen)


def sources_key(files: list[Path], root: Path, tag: str = "") -> str:
    """16 hex digits of a SHA-256 over `tag` and each file's path below `root` and its bytes: any edit,
    added or removed file changes it. O(their size): about 0.2 MB, milliseconds."""
    digest = hashlib.sha256(tag.encode() + b"\0" if tag else b"")
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def user_cache() -> Path | None:
    """``$XDG_CACHE_HOME/gamegraph/numba`` (an absolute XDG_CACHE_HOME only, as the XDG spec says), else
    ``~/.cache/gamegraph/numba``; None without a home."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:  # no home directory
            return None
    return Path(base) / "gamegraph" / "numba"


def cache_base(user_folder: Path | None = None, name: str = "") -> Path:
    """The folder the keyed cache folders sit in (see the module's docstring for the order): the user's
    NUMBA_CACHE_DIR; else `user_folder` (default `user_cache`) when its folder `name` (the keyed folder)
    can be written; else the state folder's numba-cache.

    A NUMBA_CACHE_DIR naming a keyed folder was set by a gamegraph parent process: its parent
    is the base, so that a child does not nest one keyed folder in another."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        chosen_path = Path(chosen)
        return chosen_path.parent if KEYED_FOLDER.fullmatch(chosen_path.name) else chosen_path
    user_folder = user_folder or user_cache()
    if user_folder is not None and _writable(user_folder / name if name else user_folder):
        return user_folder
    from explorer.core import private

    return private.state_path(NUMBA_CACHE_KIND)


def compiler_tag() -> str:
    """What besides the sources decides the machine code and the files' format: numba's, llvmlite's and
    Python's versions and the cache layout (numba's own index keys the CPU, explorer/kernels/cache.py)."""
    import llvmlite
    import numba

    from explorer.kernels import cache

    return (f"numba {numba.__version__} llvmlite {llvmlite.__version__} {sys.implementation.cache_tag} "
            f"layout {cache.LAYOUT}")


def cache_dir(package: Path | None = None, user_folder: Path | None = None) -> Path:
    """The NUMBA_CACHE_DIR numba compiles into: ``<cache_base>/gamegraph-<hash of kernel_sources and
    compiler_tag>``."""
    package = package or Path(__file__).resolve().parent
    key = sources_key(kernel_sources(package), package.parent, compiler_tag())
    name = f"{KEYED_PREFIX}{key}"
    return cache_base(user_folder, name) / name


def prune(folder: Path, keep: int = KEEP_FOLDERS, in_use_seconds: float = IN_USE_SECONDS) -> list[Path]:
    """Remove the keyed folders beside `folder` (older kernel sources, other checkouts) but the `keep`
    most recently used and any used within `in_use_seconds`, and, in gamegraph's own numba-cache folder
    only, the folders of the unkeyed layout from before (`_unkeyed_folders`); return those removed.
    Called when `folder` is new, so a warm start lists nothing. Errors (a folder in use, no permission)
    are skipped."""
    import shutil

    try:
        siblings = [p for p in folder.parent.iterdir()
                    if p != folder and KEYED_FOLDER.fullmatch(p.name) and p.is_dir() and not p.is_symlink()]
        ages = {p: p.stat().st_mtime for p in siblings}
    except OSError:
        return []
    now = time.time()
    ordered = sorted(siblings, key=ages.__getitem__, reverse=True)
    removed = [p for p in ordered[keep:] if now - ages[p] > in_use_seconds]
    removed += _unkeyed_folders(folder.parent, now - in_use_seconds)
    for path in removed:
        shutil.rmtree(path, ignore_errors=True)
    return removed


NUMBA_FILE = re.compile(r".+\.(?:nbi|nbc)")  # numba's cache files: an index and its compiled data
# numba's folder for one source folder under a NUMBA_CACHE_DIR: its name, "_", SHA-1 of its absolute path
# (numba.core.caching's get_suitable_cache_subpath), e.g. kernels_2095963...: the layout before the keyed one.
UNKEYED_FOLDER = re.compile(r"[^/]*_[0-9a-f]{40}")


def _unkeyed_folders(base: Path, unused_since: float) -> list[Path]:
    """The cache folders numba made in `base` before the cache was keyed, when `base` is gamegraph's own
    numba-cache folder (NUMBA_CACHE_KIND in a folder holding the state folder's marker); else none: a
    user's ~/.cache/numba or NUMBA_CACHE_DIR holds other programs' caches in the same layout. numba named
    each after a source folder (UNKEYED_FOLDER: ``numba-cache/kernels_<SHA-1 of its path>``).
    Only a real folder so named (no symlink anywhere in it) holding numba's files (.nbi, .nbc) and nothing
    else, none of them modified after `unused_since` (an older checkout still running): so nothing
    that is not a numba cache is ever removed. O(files in base)."""
    from explorer.core import settings

    if base.name != NUMBA_CACHE_KIND or base.is_symlink() or not settings._is_marked(base.parent):
        return []
    found = []
    try:
        entries = [p for p in base.iterdir() if UNKEYED_FOLDER.fullmatch(p.name)]
    except OSError:
        return []
    def unreadable(error: OSError) -> None:
        raise error  # a folder not read is a folder not known to hold only numba's files

    for entry in entries:
        if entry.is_symlink() or not entry.is_dir():
            continue
        files, safe = 0, True
        try:
            for where, folders, names in os.walk(entry, onerror=unreadable):
                inside = Path(where)
                if any((inside / name).is_symlink() for name in folders):
                    safe = False
                    break
                for name in names:
                    path = inside / name
                    if (path.is_symlink() or not NUMBA_FILE.fullmatch(name)
                            or path.lstat().st_mtime > unused_since):
                        safe = False
                        break
                    files += 1
                if not safe:
                    break
        except OSError:
            continue
        if safe and files:
            found.append(entry)
    return found


def _use(folder: Path) -> None:
    """Make `folder` (owner-only when it is new, then prune its old siblings) and mark it used now."""
    from explorer.core.private import ensure_private_dir

    fresh = not folder.exists()
    with suppress(OSError):  # numba reports a folder it cannot use
        ensure_private_dir(folder)
        os.utime(folder)  # the pruning's "recently used"
    if fresh:
        prune(folder)


# numba reads NUMBA_NUM_THREADS when imported, and an absurd one was its traceback (0), a warning and one
# thread (abc) or a crash creating the threads (10^9): checked first, one line (InvalidParameter) for every
# entry, not only the CLI's (explorer.core.settings.numba_threads, the variable's one home).
from explorer.core.settings import numba_threads as _numba_threads  # noqa: E402

_numba_threads()
_folder = cache_dir()  # imports numba (its version is in the key); reload_config below makes it read the folder
_use(_folder)
os.environ["NUMBA_CACHE_DIR"] = str(_folder)
# The retrograde queue starts a parallel region per batch (explorer/kernels/retrograde.py). OpenMP's
# default lets an idle thread spin, which on a shared, oversubscribed machine burns the core the other
# thread needs: on the reduced Dōbutsu solve at load 20 the queue took 17 s of CPU spinning against 9 s
# waiting passively. Read by the OpenMP runtime when numba first starts its threads; a user's own wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from numba import njit  # noqa: E402
from numba.core import config as _numba_config  # noqa: E402

_numba_config.reload_config()  # numba was imported by cache_dir, before NUMBA_CACHE_DIR was set

from explorer.kernels import cache as _cache  # noqa: E402

_cache.install(_folder, Path(__file__).resolve().parents[2])  # False on another numba: its own locators then

jit = njit(cache=True, nogil=True)
"""The one decorator every kernel uses, so the options stay the same everywhere."""


def probably_cached(dispatcher) -> bool:
    """Whether numba has this function in this process or in its on-disk cache (its index file
    exists), so that a call will not compile for seconds; True when that cannot be told. Only
    for messages: it reads numba's cache object, which is not a public API."""
    if getattr(dispatcher, "signatures", None):
        return True
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except Exception:  # a plain function, an uncached dispatcher, another numba: say nothing
        return True


__all__ = ["cache_base", "cache_dir", "compiler_tag", "jit", "kernel_sources", "njit", "probably_cached", "prune", "sources_key", "user_cache"]
