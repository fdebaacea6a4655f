"""The state folder is private: folders 0700, files 0600, written atomically.

Whoever can write into the state folder decides what the next gamegraph
process reads, so it is the owner's alone: created 0700, and tightened to 0700
when it exists with looser modes and belongs to us (a folder of another user is
left as it is). The caches in it hold data only (npz loaded with
allow_pickle=False, JSON), never pickles, so even a planted file cannot run code.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from explorer.core import settings

DIR_MODE = 0o700
FILE_MODE = 0o600


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and missing parents) owner-only, or tighten it to 0700 if it is ours and looser."""
    path = Path(path)
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)  # the mode applies to the last folder only
    info = path.stat()
    if info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) & 0o077:
        path.chmod(DIR_MODE)
    return path


def state_subdir(name: str) -> Path:
    """``<state dir>/<name>``, the state folder and the subfolder both private."""
    root = ensure_private_dir(settings.state_dir())
    return ensure_private_dir(root / name)


@contextmanager
def atomic_private_file(path: Path) -> Iterator[IO[bytes]]:
    """A new file open for binary writing, mode 0600, that replaces `path` only when the block succeeds.

    Writers never share a temporary file (it is named after the process and
    thread), and a reader sees the old file or the new one, never half.
    """
    path = Path(path)
    partial = path.with_name(f"{path.stem}.{os.getpid()}.{_thread_tag()}.partial{path.suffix}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _thread_tag() -> int:
    import threading
    return threading.get_ident() % 1_000_000
