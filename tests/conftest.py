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
# Every size runs the compiled kernels, so the tests exercise them (explorer.algorithms.dispatch);
# tests/algorithms/test_dispatch.py covers the plain path small graphs take by default.
os.environ.setdefault("GAMEGRAPH_KERNELS_FROM", "0")

pytest_plugins = ["tests.support.neo4j_fixtures"]
