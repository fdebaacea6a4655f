"""Where gamegraph keeps its state: GAMEGRAPH_HOME, or ./.gamegraph in the working directory."""

from __future__ import annotations

import os
from pathlib import Path


def state_dir() -> Path:
    return Path(os.environ.get("GAMEGRAPH_HOME") or Path.cwd() / ".gamegraph")
