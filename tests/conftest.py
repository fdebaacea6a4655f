"""Shared test setup: quiet progress bars; the real Neo4j server fixture for tests that need it."""

import os

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")

pytest_plugins = ["tests.neo4j_fixtures"]
