"""Shared test setup: quiet progress bars, a state folder of the tests' own, and the
real Neo4j server fixture for tests that need it.

Without GAMEGRAPH_HOME the tests use .gamegraph-test in this checkout (as
./scripts/test does), never the user's own state folder: a running
./scripts/explore and its data are left alone.
"""

import os
from pathlib import Path

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
os.environ.setdefault("GAMEGRAPH_HOME", str(Path(__file__).resolve().parents[1] / ".gamegraph-test"))

pytest_plugins = ["tests.neo4j_fixtures"]
