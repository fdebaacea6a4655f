"""Where gamegraph keeps its state: $GAMEGRAPH_HOME, else a per-user data folder.

The default follows the XDG base directory rules: $XDG_DATA_HOME/gamegraph when
XDG_DATA_HOME is an absolute path, else ~/.local/share/gamegraph. It does not
depend on the working directory, so `gamegraph neo4j status` and every query
find the embedded server, its password and the caches from anywhere. The
solved-graph cache, networkx mirrors and the embedded Neo4j server's data and
password live there.
The folder is checked where it is first used: it must be a folder this process
can write (created owner-only if missing); anything else is one GameGraphError
naming GAMEGRAPH_HOME, never an OSError deep inside a cache write.
"""

from __future__ import annotations

import os
from pathlib import Path

from explorer.core.errors import GameGraphError

APP_DIR_NAME = "gamegraph"
MAX_PATH_LENGTH = 4096  # PATH_MAX on Linux


def state_dir() -> Path:
    """The state folder, created (owner-only) if missing; GameGraphError if it cannot be used.

    A relative GAMEGRAPH_HOME is taken from the working directory at the time of
    the call, as any path on a command line. O(path depth)."""
    configured = os.environ.get("GAMEGRAPH_HOME")
    folder = Path(configured).expanduser().absolute() if configured else user_data_dir() / APP_DIR_NAME
    where = f"the state folder {_shown(folder)}" + (" (GAMEGRAPH_HOME)" if configured else "")
    if len(os.fsencode(str(folder))) > MAX_PATH_LENGTH:
        raise GameGraphError(f"{where} has a path longer than {MAX_PATH_LENGTH} bytes")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except FileExistsError:
        raise GameGraphError(f"{where} is a file, not a folder: set GAMEGRAPH_HOME to a folder") from None
    except OSError as error:
        raise GameGraphError(f"cannot use {where}: {error.strerror or error}") from None
    if not folder.is_dir():
        raise GameGraphError(f"{where} is not a folder: set GAMEGRAPH_HOME to a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GameGraphError(f"cannot use {where}: it is not writable by this user")
    return folder


def user_data_dir() -> Path:
    """$XDG_DATA_HOME, else ~/.local/share (the XDG spec ignores a relative XDG_DATA_HOME)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg)
    try:
        return Path.home() / ".local" / "share"
    except RuntimeError:  # no HOME and no passwd entry
        raise GameGraphError("no home folder to keep gamegraph's state in: set GAMEGRAPH_HOME") from None


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 200 else f"{text[:160]}...{text[-20:]} ({len(text):,} characters)"
