"""The real Neo4j server for tests: no mocks, one server for the whole session."""

from __future__ import annotations

import os
import socket

import pytest

from loaders import neo4j_server as server
from loaders.settings import Neo4jSettings


@pytest.fixture(scope="session")
def neo4j_server() -> Neo4jSettings:
    """Settings that reach a running Neo4j.

    scripts/test (and so CI) starts the server before pytest; when it did not, this
    starts it (on a free port unless NEO4J_URI names one, so that it never meets
    the user's own server on the default port), and stops it again at the end so
    that no JVM outlives the session."""
    started_here = not server.status().running
    if started_here and not os.environ.get("NEO4J_URI"):
        # For the whole session: a test that stops and restarts the server finds the same port.
        os.environ["NEO4J_URI"] = f"bolt://127.0.0.1:{free_port()}"
    server.start()
    yield Neo4jSettings.from_env()
    if started_here:
        server.stop()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
