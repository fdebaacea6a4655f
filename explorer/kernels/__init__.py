"""Compiled (numba) kernels for the whole-graph passes: generation, predecessors, solve, cycles.

Every kernel is ``@njit(cache=True)``: the first call in a fresh install compiles
it (seconds, once) and stores machine code; later processes load it in
milliseconds. Import this package only inside functions: numba is heavy and the
CLI must start fast.

Where the cache lives. numba writes next to the source (``__pycache__``) when it
can, else in the user's cache folder (``~/.cache/numba``). On an install where
neither is writable (a read-only site-packages in a container with a read-only
home), a cached function would make numba raise at import, so `cache_dir`
points NUMBA_CACHE_DIR at the gamegraph state folder instead (its folder
``numba-cache``, made owner-only like every folder there). A NUMBA_CACHE_DIR
the user set is always kept.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

NUMBA_CACHE_KIND = "numba-cache"  # the state folder's subfolder numba caches in, when it must


def _writable(folder: Path) -> bool:
    """True when `folder` exists and files can be created there, or it can be created."""
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            return os.access(candidate, os.W_OK | os.X_OK)
    return False


def cache_dir(package: Path | None = None, user_cache: Path | None = None) -> Path | None:
    """The NUMBA_CACHE_DIR gamegraph must set, or None when numba's own choice works.

    Numba's own order: __pycache__ next to this package, then the user cache
    folder. Only when both are unwritable is the state folder used.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    package = package or Path(__file__).resolve().parent
    if user_cache is None:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        user_cache = Path(base) / "numba"
    if _writable(package / "__pycache__") or _writable(user_cache):
        return None
    from explorer.core import private

    return private.state_path(NUMBA_CACHE_KIND)


_folder = cache_dir()
if _folder is not None:
    from explorer.core.private import ensure_private_dir

    with suppress(OSError):  # numba reports a folder it cannot use
        ensure_private_dir(_folder)
    os.environ["NUMBA_CACHE_DIR"] = str(_folder)  # read by numba at its first import, below

from numba import njit  # noqa: E402

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


__all__ = ["cache_dir", "jit", "njit", "probably_cached"]
