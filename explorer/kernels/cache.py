"""numba's cache for gamegraph's kernels, shared by every clone and process of one install, read back safely.

numba (0.68) files a cached function under a folder named after the SHA-1 of its source folder's absolute
path (``numba.core.caching._CacheLocator.get_suitable_cache_subpath``): a second clone, a copy in a
temporary folder or a moved checkout never finds the first one's machine code, and compiles everything
again. `KeyedLocator` files the kernels of gamegraph's own package by their path *inside* the package
(``<keyed folder>/explorer/kernels``, ``<keyed folder>/explorer/games/dodgem``) and stamps them with the
SHA-256 of the source file's bytes (never its mtime), in the folder that explorer/kernels/__init__.py keys
by the hash of every kernel source, numba's and Python's versions (`cache_dir`). So two clones with the
same kernel sources share one folder, whatever their paths and mtimes.

Two guards make a damaged folder cost a compile, never a crash or a wrong kernel:

- every data file (``.nbc``) written here starts with `MAGIC` and a SHA-256 of its file name, the index key
  it was saved under and its payload, checked before numba unpickles it and links its object code: a
  truncated, corrupted or foreign file (one copied from another function or another cache, or one of another
  signature that a second process saved in the same slot at the same time) is refused;
- a cache file numba cannot read (a bad index, a refused data file, one numba fails to rebuild) is removed
  with its index, one line goes to stderr, and numba compiles the function again and stores it anew; an
  index of another numba version or another source is named the same way (numba alone ignores it quietly).

What this relies on in numba is pinned (`RELIED_ON`: the versions whose numba/core/caching.py was read,
and the names `_check` looks up). On any other numba, or when a name is missing, `install` returns False
and changes nothing: numba keeps its own locators (the cache still works, in the same keyed folder, but
per clone again). tests/algorithms/test_kernel_cache.py fails when the locator is not active, so an
upgrade of numba is noticed.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import inspect
import os
import pickle
import sys
from pathlib import Path

LAYOUT = "2"            # the files' layout in a keyed folder (part of its key): bump when it changes
RELIED_ON = ("0.68.",)  # numba versions whose caching internals this module was written against
MAGIC = b"gamegraph numba cache 2\n"
SEAL = 32               # bytes of SHA-256 after MAGIC


class CorruptCacheFile(Exception):
    """A data file that is not the one this cache wrote under its name (truncated, altered, foreign)."""


_installed: dict[str, Path] = {}  # "folder": the keyed folder, "root": the folder holding the explorer package
_reported: set[str] = set()        # cache files already named on stderr by this process


def active() -> bool:
    """True when `install` registered the locator and the guards in this process."""
    return bool(_installed)


def _check(numba, caching) -> None:
    """Raise unless numba's caching internals are those this module was written against."""
    if not numba.__version__.startswith(RELIED_ON):
        raise RuntimeError(f"numba {numba.__version__}")
    locator = caching._CacheLocator
    assert locator.__abstractmethods__ == {"get_cache_path", "get_source_stamp", "get_disambiguator"}
    assert callable(locator.ensure_cache_path)
    assert list(inspect.signature(locator.from_function).parameters) == ["py_func", "py_file"]
    assert isinstance(caching.CacheImpl._locator_classes, list) and hasattr(caching.config, "CACHE_DIR")
    assert list(inspect.signature(caching.Cache.load_overload).parameters) == ["self", "sig", "target_context"]
    index = caching.IndexDataCacheFile
    assert list(inspect.signature(index.__init__).parameters) == ["self", "cache_path", "filename_base",
                                                                  "source_stamp"]
    for name in ("load", "save", "_load_index", "_load_data", "_save_data", "_dump", "_data_path", "_open_for_write"):
        assert callable(getattr(index, name))
    assert list(inspect.signature(index._load_data).parameters) == ["self", "name"]
    assert list(inspect.signature(index._save_data).parameters) == ["self", "name", "data"]
    assert list(inspect.signature(index.load).parameters) == ["self", "key"]
    assert list(inspect.signature(index.save).parameters) == ["self", "key", "data"]


@functools.lru_cache(maxsize=None)
def _content_stamp(path: str, mtime_ns: int, size: int) -> str:
    """SHA-256 of a source file's bytes (memoized by its mtime and size, so an edit is re-read)."""
    with open(path, "rb") as source:
        return hashlib.sha256(source.read()).hexdigest()


def _make_locator(caching):
    class KeyedLocator(caching._CacheLocator):
        """Files a function of gamegraph's package at its source folder's path inside the package, under
        the keyed folder, stamped with its source's content hash; any other function: not mine (None)."""

        def __init__(self, py_func, py_file, cache_path):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = cache_path

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            status = os.stat(self._py_file)
            return "sha256:" + _content_stamp(self._py_file, status.st_mtime_ns, status.st_size)

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            folder, root = _installed.get("folder"), _installed.get("root")
            if folder is None or caching.config.CACHE_DIR != str(folder):
                return None  # numba was pointed elsewhere since install: its own locators decide
            try:
                inside = Path(py_file).resolve().parent.relative_to(root)
            except (ValueError, OSError):
                return None  # not gamegraph's own source (a game from outside the package)
            self = cls(py_func, py_file, str(folder.joinpath(*inside.parts)))
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    return KeyedLocator


def _ours(path: str) -> bool:
    folder = _installed.get("folder")
    return folder is not None and (path == str(folder) or path.startswith(str(folder) + os.sep))


def _seal(name: str, key, payload: bytes) -> bytes:
    """SHA-256 of the data file's name, the index key it was saved under (signature, CPU, bytecode) and its
    payload: a file of another function, or of another signature of this one (two processes saving the
    same slot at once), does not pass."""
    return hashlib.sha256(name.encode() + b"\0" + repr(key).encode() + b"\0" + payload).digest()


def _say(cache_file, why: str) -> None:
    name = os.path.join(cache_file._cache_path, cache_file._index_name)
    if name in _reported:
        return
    _reported.add(name)
    print(f"gamegraph: compiled-kernel cache {cache_file._index_name} {why}: compiling it again", file=sys.stderr)


def _discard(cache_file) -> None:
    """Remove a function's index and every data file of it (numba writes a fresh set)."""
    base = cache_file._index_name[: -len(".nbi")]
    doomed = [cache_file._index_path, *glob.glob(os.path.join(glob.escape(cache_file._cache_path),
                                                              glob.escape(base) + ".*.nbc"))]
    for path in doomed:
        try:
            os.unlink(path)
        except OSError:
            pass


def _explain_miss(cache_file) -> None:
    """After a miss: an index left by another numba version, or stamped by another source, is named."""
    try:
        with open(cache_file._index_path, "rb") as index:
            version = pickle.load(index)
            rest = index.read()
        if version != cache_file._version:
            _say(cache_file, f"was written by numba {version}, not {cache_file._version}")
            return
        stamp, _ = pickle.loads(rest)
    except Exception:  # no index (a first compile), or one numba will overwrite: nothing to say
        return
    if stamp != cache_file._source_stamp:
        _say(cache_file, "belongs to another source of this function")


def install(folder: Path, root: Path) -> bool:
    """Register `KeyedLocator` ahead of numba's own locators for functions under `root` (the folder that
    holds the explorer package), caching in `folder` (the keyed folder, NUMBA_CACHE_DIR), and the guards
    on numba's cache files there. Idempotent. False, and nothing changed, when numba's internals are not
    those of `RELIED_ON`."""
    try:
        import numba
        from numba.core import caching

        _check(numba, caching)
    except Exception:
        return False
    if _installed:
        _installed.update(folder=Path(folder), root=Path(root))
        return True
    _installed.update(folder=Path(folder), root=Path(root))
    caching.CacheImpl._locator_classes.insert(0, _make_locator(caching))
    index = caching.IndexDataCacheFile
    plain_load_data, plain_save_data = index._load_data, index._save_data
    plain_load, plain_save = index.load, index.save

    def load(self, key):  # the key reaches _load_data through the instance (numba passes only the name)
        self._gamegraph_key = key
        return plain_load(self, key)

    def save(self, key, data):
        self._gamegraph_key = key
        return plain_save(self, key, data)
    plain_load_overload = caching.Cache.load_overload

    def _load_data(self, name):
        if not _ours(self._cache_path):
            return plain_load_data(self, name)
        with open(self._data_path(name), "rb") as data:
            raw = data.read()
        payload = raw[len(MAGIC) + SEAL:]
        seal = _seal(name, getattr(self, "_gamegraph_key", None), payload)
        if not raw.startswith(MAGIC) or raw[len(MAGIC):len(MAGIC) + SEAL] != seal:
            raise CorruptCacheFile(name)
        return pickle.loads(payload)

    def _save_data(self, name, data):
        if not _ours(self._cache_path):
            return plain_save_data(self, name, data)
        payload = self._dump(data)
        with self._open_for_write(self._data_path(name)) as out:
            out.write(MAGIC + _seal(name, getattr(self, "_gamegraph_key", None), payload) + payload)

    def load_overload(self, sig, target_context):
        cache_file = getattr(self, "_cache_file", None)
        if cache_file is None or not _ours(cache_file._cache_path):
            return plain_load_overload(self, sig, target_context)
        try:
            found = plain_load_overload(self, sig, target_context)
        except Exception as error:  # a file numba cannot read or rebuild: compile again, one line
            why = "is damaged or foreign" if isinstance(error, CorruptCacheFile) else \
                f"could not be read ({type(error).__name__})"
            _say(cache_file, why)
            _discard(cache_file)
            return None
        if found is None:
            _explain_miss(cache_file)
        return found

    index._load_data, index._save_data, index.load, index.save = _load_data, _save_data, load, save
    caching.Cache.load_overload = load_overload
    return True
