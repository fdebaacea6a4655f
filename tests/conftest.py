"""Shared test setup: quiet progress bars; the real Neo4j server fixture for tests that need it."""

import os

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
# Every size runs the compiled kernels, so the tests exercise them (explorer.engine);
# tests/test_engine.py covers the plain path small graphs take by default.
os.environ.setdefault("GAMEGRAPH_KERNELS_FROM", "0")

pytest_plugins = ["tests.neo4j_fixtures"]
