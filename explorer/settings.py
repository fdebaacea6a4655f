"""Where gamegraph keeps its state: $GAMEGRAPH_HOME, else ./.gamegraph.

One state folder per working copy unless told otherwise: the solved-graph cache,
networkx mirrors and the embedded Neo4j server's data and password live there.
The folder is checked where it is first used: it must be a folder this process
can write (created if missing); anything else is one GameGraphError naming
GAMEGRAPH_HOME, never an OSError deep inside a cache write.
"""

from __future__ import annotations

import os
from pathlib import Path

from explorer.errors import GameGraphError

MAX_PATH_LENGTH = 4096  # PATH_MAX on Linux


def state_dir() -> Path:
    """The state folder, created if missing; GameGraphError if it cannot be used. O(path depth)."""
    configured = os.environ.get("GAMEGRAPH_HOME")
    folder = Path(configured or ".gamegraph").absolute()
    where = f"the state folder {_shown(folder)}" + (" (GAMEGRAPH_HOME)" if configured else "")
    if len(os.fsencode(str(folder))) > MAX_PATH_LENGTH:
        raise GameGraphError(f"{where} has a path longer than {MAX_PATH_LENGTH} bytes")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise GameGraphError(f"{where} is a file, not a folder: set GAMEGRAPH_HOME to a folder") from None
    except OSError as error:
        raise GameGraphError(f"cannot use {where}: {error.strerror or error}") from None
    if not folder.is_dir():
        raise GameGraphError(f"{where} is not a folder: set GAMEGRAPH_HOME to a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GameGraphError(f"cannot use {where}: it is not writable by this user")
    return folder


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 200 else f"{text[:160]}...{text[-20:]} ({len(text):,} characters)"
