"""The real Neo4j server for tests: no mocks, one server for the whole session, and one of their own for the
few modules that stop, restart or measure it (`own_neo4j_server`: a second server per xdist worker, which
those modules take in turn)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

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


def launcher_reused(home: Path) -> None:
    """Into the state folder `home`: the session server's jars resolved by Maven and its compiled launcher
    (loaders.neo4j_server keeps them by the pom's and source's hash, and checks them as it starts): a fresh
    state folder resolved them again, 11 s of Maven and a javac (16 s at load 6) before its JVM started. The
    first run's resolution is still run by test_readme's explore test, on a state folder of its own."""
    built, target = server.neo4j_dir(), Path(home) / "neo4j"
    target.mkdir(parents=True, exist_ok=True)
    for name in ("classpath.txt", "classpath.key", "classes.key"):
        if (built / name).exists():
            shutil.copy2(built / name, target / name)
    if (built / "classes").exists():
        shutil.copytree(built / "classes", target / "classes", dirs_exist_ok=True)


class SpareServer:
    """Where the xdist worker's second embedded server lives: its state folder and Bolt URI."""

    def __init__(self, home: Path, uri: str):
        self.home, self.uri = home, uri

    @contextmanager
    def pointed_at(self):
        """The environment reaching this server (GAMEGRAPH_HOME, NEO4J_URI, its heap; the password from its folder)."""
        with pytest.MonkeyPatch.context() as env:
            env.setenv("GAMEGRAPH_HOME", str(self.home))
            env.setenv("NEO4J_URI", self.uri)
            env.setenv("GAMEGRAPH_NEO4J_HEAP", "768m")
            env.setenv("GAMEGRAPH_NEO4J_PAGECACHE", "64m")
            for name in ("NEO4J_PASSWORD", "NEO4J_USER", "NEO4J_DATABASE"):
                env.delenv(name, raising=False)
            yield env


@pytest.fixture(scope="session")
def spare_neo4j_server(tmp_path_factory) -> SpareServer:
    """The second embedded server of this worker (see `own_neo4j_server`): started by the first module that
    asks, kept for the next ones, stopped when the session ends. One JVM start is 20-30 s of CPU here: the
    four modules that took a server each started four."""
    home = tmp_path_factory.mktemp("own-neo4j") / "state"
    launcher_reused(home)
    spare = SpareServer(home, f"bolt://127.0.0.1:{free_port()}")
    yield spare
    with spare.pointed_at():
        if server.status().running:
            server.stop()


def emptied(settings: Neo4jSettings) -> None:
    """Every node and relationship of the server's database deleted: a module finds it as a fresh server's."""
    from loaders.settings import open_driver

    with open_driver(settings) as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n", database_=settings.database)  # thousands at most
        records, _, _ = driver.execute_query("MATCH (n) RETURN count(n) AS n", database_=settings.database)
        assert records[0]["n"] == 0


@pytest.fixture(scope="module")
def own_neo4j_server(spare_neo4j_server) -> Neo4jSettings:
    """A Neo4j server of the test module's own while it runs, in a state folder of its own, that the environment
    points at while the module runs (GAMEGRAPH_HOME, NEO4J_URI; the password file of that folder): for modules
    that stop and restart their server, replace its database, compare the whole database or its connections
    before and after, or measure the server's CPU. They used to take the shared server alone (`serial`), and the
    other xdist worker waited for them; on a server of their own the rest of the suite runs beside them.
    The server is the worker's `spare_neo4j_server`, shared in turn by the modules that run on that worker (a
    file runs whole on one worker, so no two modules use it at once): each module finds it running (started
    again when a module before left it stopped) with an empty database. A module takes it by defining its own
    module-scoped `neo4j_server` fixture that returns this one (tests/queries/test_console.py does)."""
    with spare_neo4j_server.pointed_at():
        server.start()  # at once when it runs
        settings = Neo4jSettings.from_env()
        emptied(settings)
        yield settings  # left as the module leaves it: the next module starts it again if it must


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def driver(neo4j_server):
    """One driver per test module, on the test server."""
    from loaders.settings import open_driver

    with open_driver(neo4j_server) as driver:
        yield driver


@pytest.fixture
def ids(driver, neo4j_server, request):
    """Unique graph ids for one test (named after its module); every game loaded under them is deleted afterwards."""
    from loaders import neo4j_loader

    created: list[str] = []
    prefix = request.module.__name__.rsplit(".", 1)[-1].replace("_", "-")

    def make(name: str) -> str:
        created.append(f"{prefix}-{uuid.uuid4().hex[:12]}:{name}")
        return created[-1]

    yield make
    with driver.session(database=neo4j_server.database) as session:
        for game_id in created:
            neo4j_loader.delete_game(session, game_id)


def start_script(tmp_path: Path, settings: Neo4jSettings, text: str, *args: str) -> subprocess.Popen:
    """Run `text` as a Python script in its own process, reaching the test server (tests that kill loads)."""
    root = Path(__file__).resolve().parents[2]
    script = tmp_path / f"script-{uuid.uuid4().hex[:8]}.py"
    script.write_text(text)
    env = {**os.environ, "PYTHONPATH": str(root), "NEO4J_URI": settings.uri, "NEO4J_USER": settings.user,
           "NEO4J_PASSWORD": settings.password, "NEO4J_DATABASE": settings.database, "GAMEGRAPH_PROGRESS": "0"}
    return subprocess.Popen([sys.executable, str(script), *args], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(path: Path, process: subprocess.Popen, seconds: float = 300) -> None:
    """Until `path` exists; fails at once if the process ended first."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.05)
