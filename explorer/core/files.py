"""Files in and out, written whole or not at all, with one-line errors.

This module is the one home of atomic writing: `atomic_file` (a file) and
`atomic_folder` (a folder of files) write to a temporary sibling named by
`partial_path` and rename it over the target at the end, so a reader never
sees half a file and a failure leaves nothing behind. The mode is a
parameter: user outputs take the umask's (0o666 less the umask), the state
folder's caches 0600 and 0700 (explorer.core.private, which calls these).

Every file a command writes on request (exports, diagrams, certificates,
neo4j-admin import files) goes through `output_file`: the target must be a
regular file or not exist yet (a folder, a FIFO, a device, or a symlink to
one of those is refused before anything is written), and it is written with
`atomic_file`. A symlink to a regular file is written through: the file it
points at is replaced, the link stays. A command's output folder
(`make_folder`) must be new or empty. Every file a command reads (certificates, the
password and pid files) goes through `read_regular_file`, which refuses what
is not a regular file before reading a byte (a FIFO would block for ever) and
bounds the size. An OSError (missing folder, no permission, disk full)
becomes a GameGraphError naming the path and the reason: one line in the CLI.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import threading
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Iterator

from explorer.core.errors import GameGraphError

STDOUT = "-"
MAX_SHOWN_PATH = 200


def _name(path: str | os.PathLike) -> str:
    """A path as a message shows it: as typed, cut when very long."""
    text = os.fsdecode(os.fspath(path))
    return text if len(text) <= MAX_SHOWN_PATH else f"{text[:MAX_SHOWN_PATH - 40]}...{text[-20:]} ({len(text):,} characters)"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def output_target(path: str | os.PathLike) -> Path:
    """The regular file that writing to `path` should create or replace; GameGraphError otherwise.

    Refuses an empty name, a name that ends in a slash or is `.`/`..`, and an
    existing folder, FIFO, device or socket, also behind symlinks. A symlink
    (to a regular file, or dangling) resolves to the file it names. O(path length).
    """
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if not text:
        raise GameGraphError("the output file name is empty")
    if os.path.basename(text) in ("", ".", ".."):  # "out/." is a folder although Path("out/.").name is "out"
        raise GameGraphError(f"cannot write {_name(text)}: it names a folder; give a file name")
    target = Path(text)
    try:
        if target.is_symlink():
            target = Path(os.path.realpath(target))
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    except OSError as error:
        raise GameGraphError(f"cannot write {_name(text)}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        raise GameGraphError(f"cannot write {_name(text)}: it is {_kind(mode)}, not a regular file")
    return target


@contextmanager
def output_file(path: str | os.PathLike | None, binary: bool = False) -> Iterator[IO]:
    """A handle on `path` (text, UTF-8, no newline translation; bytes when `binary`), or
    standard output when `path` is None or "-". The file appears only if the block completes;
    its mode is the umask's, as for any file a user's command creates."""
    if path is None or (isinstance(path, str) and path == STDOUT):
        yield sys.stdout.buffer if binary else sys.stdout
        return
    target = output_target(path)
    try:
        with atomic_file(target, USER_FILE_MODE, binary=binary) as handle:
            yield handle
            output_target(target)  # still a regular file (or absent) at the moment of the rename
    except OSError as error:
        raise GameGraphError(f"cannot write {_name(path)}: {error.strerror or error}") from None


# -- atomic writing ------------------------------------------------------------
USER_FILE_MODE = 0o666    # less the umask: what any program's new file gets
USER_FOLDER_MODE = 0o777


def partial_path(target: Path) -> Path:
    """The temporary sibling a write of `target` fills before the rename.

    Same folder, so the rename is atomic; hidden, and short whatever the
    target's name; named after the process and the thread, so writers never
    share one (`partial_paths` finds a killed process's)."""
    target = Path(target)
    return target.with_name(f".{target.name[:64]}.{os.getpid()}.{threading.get_ident() % 1_000_000}.partial")


def partial_paths(folder: Path, pid: int) -> list[Path]:
    """The temporary files and folders process `pid` left in `folder` (a killed writer leaves them)."""
    return list(Path(folder).glob(f".*.{pid}.[0-9]*.partial"))


def open_new(path: Path, mode: int = USER_FILE_MODE, binary: bool = True) -> IO:
    """`path` created for writing, with `mode` less the umask; OSError if anything is there already
    (a symlink included). Text is UTF-8 without newline translation."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    try:
        return os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="")
    except BaseException:
        os.close(fd)
        raise


@contextmanager
def atomic_file(path: str | os.PathLike, mode: int = USER_FILE_MODE, binary: bool = True) -> Iterator[IO]:
    """A new file open for writing that replaces `path` only when the block completes.

    The data goes to `partial_path(path)`, created with `mode` less the umask,
    and is renamed over `path` at the end: a reader sees the old file or the
    new one, never half, and a failure leaves nothing behind. The folder must
    exist; OSError when the temporary file cannot be made or renamed."""
    path = Path(path)
    partial = partial_path(path)
    try:
        with open_new(partial, mode, binary) as handle:
            yield handle
        os.replace(partial, path)
    finally:
        with suppress(OSError):  # nothing to remove when the folder itself is missing or not a folder
            partial.unlink(missing_ok=True)


@contextmanager
def atomic_folder(folder: str | os.PathLike, mode: int = USER_FOLDER_MODE) -> Iterator[Path]:
    """A new empty folder (`mode` less the umask) to fill, put in place of `folder` only when the block
    completes (an older `folder` is removed first); removed with its content when the block fails.
    The parent folder must exist."""
    folder = Path(folder)
    partial = partial_path(folder)
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(mode=mode)
    try:
        yield partial
        if folder.exists():
            shutil.rmtree(folder)
        partial.replace(folder)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise


def read_regular_file(path: str | os.PathLike, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `max_bytes`; GameGraphError (one line) otherwise.

    The file is opened without blocking and checked with fstat before any read,
    so a FIFO, a device or a folder is refused at once, and a huge file is
    refused by its size. O(file size).
    """
    name = _name(path)
    if not os.fspath(path):
        raise GameGraphError(f"the {what} name is empty")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        raise GameGraphError(f"cannot read the {what} {name}: {error.strerror or error}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise GameGraphError(f"cannot read the {what} {name}: it is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > max_bytes:
            raise GameGraphError(f"the {what} {name} has {info.st_size:,} bytes; the limit is {max_bytes:,}")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:  # grew while being read
                raise GameGraphError(f"the {what} {name} has more than {max_bytes:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise GameGraphError(f"cannot read the {what} {name}: {error.strerror or error}") from None
    finally:
        os.close(fd)


def make_folder(path: str | os.PathLike) -> Path:
    """An output folder to fill: created when missing (its parent must exist, as for any output
    file), taken when it exists and is empty; GameGraphError naming it otherwise.

    A folder output (``export --format neo4j-import -o DIR``) goes only into a new or empty folder, so
    `-o /` or `-o ~` never scatters files among somebody else's. O(entries listed: stops at the first)."""
    if not os.fspath(path):
        raise GameGraphError("the output folder name is empty")
    folder = Path(path)
    try:
        folder.mkdir()
        return folder
    except FileExistsError:
        pass
    except OSError as error:
        raise GameGraphError(f"cannot create the folder {_name(path)}: {error.strerror or error}") from None
    if not folder.is_dir():
        raise GameGraphError(f"cannot create the folder {_name(path)}: a file of that name exists")
    try:
        with os.scandir(folder) as entries:
            first = next(entries, None)
    except OSError as error:
        raise GameGraphError(f"cannot use the folder {_name(path)}: {error.strerror or error}") from None
    if first is not None:
        raise GameGraphError(f"cannot write into the folder {_name(path)}: it is not empty (it holds "
                             f"{first.name!r}); give a new or empty folder")
    return folder
