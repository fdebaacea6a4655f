"""Where gamegraph keeps its state: $GAMEGRAPH_HOME, else a per-user data folder.

The default follows the XDG base directory rules: $XDG_DATA_HOME/gamegraph when
XDG_DATA_HOME is an absolute path, else ~/.local/share/gamegraph. It does not
depend on the working directory, so `gamegraph neo4j status` and every query
find the embedded server, its password and the caches from anywhere. The
solved-graph cache, networkx mirrors and the embedded Neo4j server's data and
password live there.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_DIR_NAME = "gamegraph"


def state_dir() -> Path:
    """The state folder (not created here). A relative GAMEGRAPH_HOME is taken from
    the working directory at the time of the call, as any path on a command line."""
    home = os.environ.get("GAMEGRAPH_HOME")
    if home:
        return Path(home).expanduser().absolute()
    return user_data_dir() / APP_DIR_NAME


def user_data_dir() -> Path:
    """$XDG_DATA_HOME, else ~/.local/share (the XDG spec ignores a relative XDG_DATA_HOME)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg)
    return Path.home() / ".local" / "share"
