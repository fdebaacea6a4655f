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
points at is replaced, the link stays. A file that exists keeps its mode (and
its owner and group where the process may set them); one that is read-only is
refused unless the command was given --force (`replacing_read_only`). A
command's output folder (`output_folder`) must be new or empty, and is filled
as a hidden sibling renamed into place at the end: it appears whole or not at
all, on an error, SIGINT, SIGTERM or a full disk. A process killed outright
(SIGKILL) leaves its temporary sibling behind; the next write of the same
target removes it (`remove_stale_partials`: only those of processes no longer
running). Every file a command reads (certificates, the
password and pid files) goes through `read_regular_file`, which refuses what
is not a regular file before reading a byte (a FIFO would block for ever) and
bounds the size. An OSError (missing folder, no permission, disk full)
becomes a GameGraphError naming the path and the reason: one line in the CLI.
"""

from __future__ import annotations

import contextvars
import errno
import os
import re
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


# Whether the command was given --force: an existing read-only output file is then replaced (keeping its mode).
# A context variable, set around one command's work (`replacing_read_only`), so the writer below decides for
# every command in one place and nothing leaks into the next call in the same process.
_REPLACE_READ_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("replace_read_only", default=False)


@contextmanager
def replacing_read_only(allowed: bool) -> Iterator[None]:
    """Within the block, `output_file` replaces a read-only existing file when `allowed` (a command's --force)."""
    token = _REPLACE_READ_ONLY.set(bool(allowed))
    try:
        yield
    finally:
        _REPLACE_READ_ONLY.reset(token)


def _read_only(target: Path, info: os.stat_result) -> bool:
    """Whether an existing file is read-only for this process: not writable by it, or (for root, whom
    os.access never refuses) with no write permission for anybody."""
    return not os.access(target, os.W_OK) or not info.st_mode & 0o222


def _existing(target: Path, shown_as: str) -> os.stat_result | None:
    """The status of the regular file `target` replaces, None when there is none; GameGraphError when it is
    read-only and the command was not given --force."""
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise GameGraphError(f"cannot write {_name(shown_as)}: {error.strerror or error}") from None
    if _read_only(target, info) and not _REPLACE_READ_ONLY.get():
        raise GameGraphError(f"cannot write {_name(shown_as)}: it exists and is read-only (mode "
                             f"{stat.S_IMODE(info.st_mode):04o}); give --force to replace it")
    return info


@contextmanager
def output_file(path: str | os.PathLike | None, binary: bool = False) -> Iterator[IO]:
    """A handle on `path` (text, UTF-8, no newline translation; bytes when `binary`), or
    standard output when `path` is None or "-". The file appears only if the block completes.
    A new file's mode is the umask's, as for any file a user's command creates; a file replaced
    keeps its mode (0600 stays 0600; through a symlink, the target's), and a read-only one is
    refused unless the command was given --force (`replacing_read_only`)."""
    if path is None or (isinstance(path, str) and path == STDOUT):
        yield sys.stdout.buffer if binary else sys.stdout
        return
    target = output_target(path)
    like = _existing(target, os.fspath(path))
    try:
        with atomic_file(target, USER_FILE_MODE, binary=binary, like=like) as handle:
            yield handle
            output_target(target)  # still a regular file (or absent) at the moment of the rename
    except OSError as error:
        raise GameGraphError(f"cannot write {_name(path)}: {_reason(error)}") from None


def _reason(error: OSError) -> str:
    """An OSError's reason as a message says it: a full disk named as such."""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"{error.strerror} (the disk is full: nothing was written)"
    return error.strerror or str(error)


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


_PARTIAL = re.compile(r"\.(?P<name>.*)\.(?P<pid>[0-9]{1,10})\.[0-9]{1,7}\.partial")


def _running(pid: int) -> bool:
    """Whether process `pid` exists (of any user) in this machine's view."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0  # another user's process (or a pid no process can have: treated as live, left alone)
    return True


def remove_stale_partials(folder: str | os.PathLike, name: str | None = None) -> list[Path]:
    """Remove from `folder` the temporary siblings (`partial_path`) that killed writers left: ours (same owner),
    named as `partial_path` names them, of a process that no longer runs; only those of target `name` when
    given. Returns what was removed; nothing else is touched and no error escapes. O(entries of `folder`)."""
    removed: list[Path] = []
    prefix = None if name is None else f".{name[:64]}."
    try:
        with os.scandir(folder) as entries:
            found = [entry for entry in entries if entry.name.endswith(".partial")
                     and (prefix is None or entry.name.startswith(prefix))]
    except OSError:
        return removed
    for entry in found:
        match = _PARTIAL.fullmatch(entry.name)
        if not match or (prefix is not None and f".{match['name']}." != prefix) or _running(int(match["pid"])):
            continue
        with suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if info.st_uid != os.geteuid():
                continue
            if stat.S_ISDIR(info.st_mode):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed.append(Path(entry.path))
    return removed


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
def atomic_file(path: str | os.PathLike, mode: int = USER_FILE_MODE, binary: bool = True,
                like: os.stat_result | None = None) -> Iterator[IO]:
    """A new file open for writing that replaces `path` only when the block completes.

    The data goes to `partial_path(path)`, created with `mode` less the umask
    (with `like`, the status of the file it replaces: that file's mode, owner and group,
    the last two where the process may set them), and is renamed over `path` at the
    end: a reader sees the old file or the new one, never half, and a failure (a full
    disk, SIGINT, SIGTERM) leaves nothing behind. Temporary siblings of `path` that a
    killed writer left are removed first (`remove_stale_partials`). The folder must
    exist; OSError when the temporary file cannot be made or renamed."""
    path = Path(path)
    partial = partial_path(path)
    remove_stale_partials(path.parent, path.name)
    try:
        with open_new(partial, mode, binary) as handle:
            if like is not None:
                _take_status(handle.fileno(), like)
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
    remove_stale_partials(folder.parent, folder.name)
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


def _take_status(fd: int, like: os.stat_result) -> None:
    """Give the open file `fd` the mode of `like` (set-id bits dropped) and, where permitted, its owner and group."""
    if (like.st_uid, like.st_gid) != (os.geteuid(), os.getegid()):
        with suppress(OSError):  # only root may give a file away; a group of one's own may be kept
            os.fchown(fd, like.st_uid if os.geteuid() == 0 else -1, like.st_gid)
    os.fchmod(fd, stat.S_IMODE(like.st_mode) & ~(stat.S_ISUID | stat.S_ISGID))


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


@contextmanager
def output_folder(path: str | os.PathLike) -> Iterator[Path]:
    """A new, empty hidden folder to fill, that becomes the output folder `path` only when the block completes:
    ``export --format neo4j-import -o DIR`` appears whole or not at all (an error, SIGINT, SIGTERM and a full disk
    remove the temporary folder; one that a SIGKILL left is removed by the next write of DIR).

    `path` must be new or an empty folder (a symlink to one is followed, the link stays), so `-o /` or `-o ~` never
    scatters files among somebody else's; its parent must exist. An empty folder that is replaced keeps its mode. GameGraphError, one line, naming the folder
    otherwise; O(files written)."""
    text = os.fspath(path)
    if not text:
        raise GameGraphError("the output folder name is empty")
    folder = Path(os.path.realpath(text)) if os.path.islink(text) else Path(text)
    if os.path.basename(os.path.normpath(text)) in (".", ".."):  # `/` is refused below, from its listing
        raise GameGraphError(f"cannot write into the folder {_name(text)}: give a new or empty folder by its name")
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise GameGraphError(f"cannot use the folder {_name(text)}: {error.strerror or error}") from None
    if info is not None:
        if not stat.S_ISDIR(info.st_mode):
            raise GameGraphError(f"cannot create the folder {_name(text)}: a file of that name exists")
        remove_stale_partials(folder)  # what an older version's killed export left inside
        try:
            with os.scandir(folder) as entries:
                first = next(entries, None)
        except OSError as error:
            raise GameGraphError(f"cannot use the folder {_name(text)}: {error.strerror or error}") from None
        if first is not None:
            raise GameGraphError(f"cannot write into the folder {_name(text)}: it is not empty (it holds "
                                 f"{first.name!r}); give a new or empty folder")
    elif not folder.parent.is_dir():
        raise GameGraphError(f"cannot create the folder {_name(text)}: No such file or directory (its parent "
                             "folder must exist)")
    partial = partial_path(folder)
    remove_stale_partials(folder.parent, folder.name)
    shutil.rmtree(partial, ignore_errors=True)  # this process's own, from an earlier write in it
    try:
        partial.mkdir(mode=USER_FOLDER_MODE)
    except OSError as error:
        raise GameGraphError(f"cannot create the folder {_name(text)}: {_reason(error)}") from None
    try:
        yield partial
        if info is not None:
            os.chmod(partial, stat.S_IMODE(info.st_mode))
        os.rename(partial, folder)  # over an empty folder too, atomically; refused if it filled meanwhile
    except OSError as error:
        shutil.rmtree(partial, ignore_errors=True)
        raise GameGraphError(f"cannot write into the folder {_name(text)}: {_reason(error)}") from None
    except GameGraphError as error:  # a file inside could not be written: named in the folder the user gave
        shutil.rmtree(partial, ignore_errors=True)
        raise GameGraphError(str(error).replace(str(partial), _name(text))) from None
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
