"""The real Neo4j server for tests: no mocks, one server for the whole session."""

from __future__ import annotations

import pytest

from loaders import neo4j_server as server
from loaders.settings import Neo4jSettings


@pytest.fixture(scope="session")
def neo4j_server() -> Neo4jSettings:
    """Settings that reach a running Neo4j.

    scripts/test (and so CI) starts the server before pytest; when it did not, this
    starts it, and stops it again at the end so that no JVM outlives the session."""
    started_here = not server.status().running
    server.start()
    yield Neo4jSettings.from_env()
    if started_here:
        server.stop()
