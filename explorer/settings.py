"""Where gamegraph keeps its state: $GAMEGRAPH_HOME, else ./.gamegraph.

One state folder per working copy unless told otherwise: the solved-graph cache,
networkx mirrors and the embedded Neo4j server's data and password live there.
"""

from __future__ import annotations

import os
from pathlib import Path


def state_dir() -> Path:
    return Path(os.environ.get("GAMEGRAPH_HOME") or ".gamegraph").absolute()
