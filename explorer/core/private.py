"""The state folder is private: folders 0700, files 0600, written atomically.

Whoever can write into the state folder decides what the next gamegraph
process reads, so it is the owner's alone: created 0700, and tightened to 0700
when it exists with looser modes and belongs to us (a folder of another user is
left as it is). Only a folder gamegraph owns is ever written into or tightened:
settings.state_dir, which every path here goes through, makes the folder with
its marker file, adopts only an empty folder or one holding nothing but
gamegraph's own subfolders, and refuses any other before touching it. The caches in it hold data only (npz loaded with
allow_pickle=False, JSON), never pickles, so even a planted file cannot run code.

This module is the one place that names paths in the state folder
(`state_path`, `cache_path`; `existing_state_path` for a look that must not create the folder)
and writes there (`atomic_private_file`,
`atomic_private_folder`, `new_private_file`: explorer.core.files' atomic
writers with the owner-only modes; each first removes the temporary files a
killed writer left in the folder; `keep_cache_file`, a cache file written or,
when it cannot be, one notice and the answer without it). Something at a cache path that is neither a
regular file nor a folder (a FIFO would block its reader for ever) is refused in
one line by `cache_path`, and so is such a thing inside a folder cache (an implicit
value file's meta.json, a tier file).
"""

from __future__ import annotations

import hashlib
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Callable, Iterator

from explorer.core import files, progress, settings
from explorer.core.errors import GameGraphError, StateFolderReadOnly

DIR_MODE = 0o700
FILE_MODE = 0o600
DIGEST_LENGTH = 16  # hex digits of SHA-1 in a cache file's name


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and missing parents) owner-only, or tighten it to 0700 if it is ours and looser."""
    path = Path(path)
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)  # the mode applies to the last folder only
    info = path.stat()
    if info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) & 0o077:
        path.chmod(DIR_MODE)
    return path


def private_state_dir() -> Path:
    """The state folder (settings.state_dir), made owner-only or tightened to 0700 if ours and looser."""
    return ensure_private_dir(settings.state_dir())


def state_path(*parts: str) -> Path:
    """``<state dir>/<parts...>`` (the state folder is made if missing; nothing below it is).

    A path to read or to write: a state folder of ours that has become read-only is accepted here,
    so caches in it are still read; every writer goes through `private_state_dir` (or the helpers
    below, which call `ensure_private_dir`), where it is refused in one line."""
    return settings.state_dir(writable=False).joinpath(*parts)


def existing_state_path(*parts: str) -> Path | None:
    """``<state dir>/<parts...>``, or None when there is no state folder yet (none at its location, or a folder
    without gamegraph's marker): settings.state_dir_if_present. For looks that only read (`neo4j status`, the
    embedded server's address and password): they create, mark and write nothing where gamegraph has never
    run; a GAMEGRAPH_HOME no command could use is still one GameGraphError."""
    folder = settings.state_dir_if_present()
    return None if folder is None else folder.joinpath(*parts)


def cache_path(kind: str, name: str, key: str, suffix: str = "") -> Path:
    """``<state dir>/<kind>/<name>-<digest><suffix>``, the digest being the first 16 hex digits of SHA-1(key).

    Every cache names its files so: `key` starts with the cache's format
    version and holds whatever the content depends on (the game id, ...), so a
    new format or another game is another file, and `name` (the game's name)
    keeps the folder readable. Nothing is created below the state folder."""
    digest = hashlib.sha1(key.encode()).hexdigest()[:DIGEST_LENGTH]
    path = state_path(kind, f"{name}-{digest}{suffix}")
    check_cache_entry(path)
    return path


def check_cache_entry(path: Path) -> None:
    """GameGraphError (one line) when something at a cache path is neither a regular file nor a folder: a FIFO
    would block its reader for ever, a device or a socket is no cache. Checked with stat, before anything
    opens it; a missing entry is fine (the cache is made). A folder cache (an implicit value file, a tier
    folder) is checked the same way all the way down: its meta.json or a tier file may be a FIFO too.
    O(1) for a file, O(entries) for a folder (one listing of each folder, a stat only for symlinks)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # missing (or a dangling link): no cache yet, written anew
    if stat.S_ISDIR(mode):
        _check_folder_entries(Path(path))
    elif not stat.S_ISREG(mode):
        _refuse_entry(path, mode)


def _refuse_entry(path: Path, mode: int) -> None:
    raise GameGraphError(f"the cache entry {files._name(path)} is {files._kind(mode)}, not a regular file or folder: "
                         "gamegraph did not make it; remove it and run the command again")


def _check_folder_entries(folder: Path) -> None:
    """`check_cache_entry` for everything inside a folder cache: the kind of each entry from its listing
    (d_type, no stat), a stat only for symlinks, whose target counts. Folders inside are checked too
    (an explicit stack, each folder's real path listed once, so a link back up cannot loop)."""
    todo, seen = [folder], set()
    while todo:
        current = todo.pop()
        try:
            real = os.path.realpath(current)
            if real in seen:
                continue
            seen.add(real)
            with os.scandir(current) as listing:
                for entry in listing:
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(Path(entry.path))
                        continue
                    if entry.is_file(follow_symlinks=False):
                        continue
                    try:
                        mode = os.stat(entry.path).st_mode  # a symlink's target, or a FIFO, device, socket
                    except OSError:
                        continue  # dangling: read as missing
                    if stat.S_ISDIR(mode):
                        todo.append(Path(entry.path))
                    elif not stat.S_ISREG(mode):
                        _refuse_entry(Path(entry.path), mode)
        except OSError:
            continue  # unreadable: its reader says why, in one line


@contextmanager
def atomic_private_file(path: Path) -> Iterator[IO[bytes]]:
    """A new file open for binary writing, mode 0600, that replaces `path` only when the block succeeds.

    Its folder is made owner-only first (ensure_private_dir). Writers never
    share a temporary file, and a reader sees the old file or the new one,
    never half (explorer.core.files.atomic_file)."""
    path = Path(path)
    ensure_private_dir(path.parent)
    files.remove_stale_partials(path.parent)  # any that killed writers left in this folder of ours
    with files.atomic_file(path, FILE_MODE) as handle:
        yield handle


@contextmanager
def atomic_private_folder(folder: Path) -> Iterator[Path]:
    """A new empty folder, mode 0700, to fill (with `new_private_file`); it replaces `folder` only when the
    block succeeds, and is removed when it fails. Its parent is made owner-only first."""
    folder = Path(folder)
    ensure_private_dir(folder.parent)
    files.remove_stale_partials(folder.parent)
    with files.atomic_folder(folder, DIR_MODE) as partial:
        yield partial


def keep_cache_file(path: Path | Callable[[], Path], write: Callable[[IO[bytes]], object], doing: str) -> bool:
    """Write one cache file of the state folder with `write(handle)` (0600 in a 0700 folder, whole or not at all:
    `atomic_private_file`); True when written. `path` may be a function giving it, so that a state folder that
    cannot be used is caught too. A cache that cannot be written (a full disk, a read-only state folder, a
    folder in the way) is said in one notice, "<doing> without the cache: ...", and False is returned: the
    caller's answer stands without it (the edge mode's solved graphs, the survey's rows)."""
    target = path
    try:
        target = path() if callable(path) else Path(path)
        private_state_dir()
        with atomic_private_file(target) as handle:
            write(handle)
    except OSError as error:
        progress.notice(f"{doing} without the cache: cannot write the cache file {target}: {error.strerror or error}")
        return False
    except StateFolderReadOnly as error:
        progress.notice(f"{doing} without the cache: {error}")
        return False
    return True


def new_private_file(path: Path) -> IO[bytes]:
    """A file that does not exist yet, created mode 0600 for binary writing (inside `atomic_private_folder`)."""
    return files.open_new(path, FILE_MODE)


def append_private_line(path: Path, line: str) -> None:
    """Append one line of text to `path`, creating it mode 0600 (its folder owner-only) if it is new:
    a log that grows a line at a time (the UI's run times). One write call, so lines of concurrent
    writers do not interleave."""
    path = Path(path)
    ensure_private_dir(path.parent)
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, FILE_MODE), "a") as out:
        out.write(line.rstrip("\n") + "\n")
