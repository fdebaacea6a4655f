"""The embedded Neo4j server and the settings that reach it, against the real server."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from explorer.core.errors import LauncherError, Neo4jUnavailable
from loaders import neo4j_server as server
from loaders.settings import Neo4jSettings, open_driver, password_file


@pytest.fixture(scope="module")
def neo4j_server(own_neo4j_server):
    """A server of this module's own (tests/support/neo4j_fixtures.py): these tests stop and restart it, with the rest of the suite running beside."""
    return own_neo4j_server


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _unavailable(settings: Neo4jSettings) -> str:
    with pytest.raises(Neo4jUnavailable) as caught:
        open_driver(settings).close()
    return str(caught.value)


@pytest.mark.neo4j
def test_start_is_idempotent(neo4j_server, monkeypatch):
    def started(*args, **kwargs):
        raise AssertionError("a second server was prepared or started")

    before = server.status()
    with monkeypatch.context() as patched:  # the running server answers: no Maven, no javac, no JVM
        for name in ("_classpath", "_compile", "_check_port_free"):
            patched.setattr(server, name, started)
        patched.setattr(server.os, "posix_spawn", started)
        after = server.start()
    assert after.running and after.pid == before.pid


@pytest.mark.neo4j
def test_status_reports_the_running_server(neo4j_server):
    status = server.status()
    assert status.running and status.pid > 0
    assert status.uri == neo4j_server.uri
    assert status.version == "5.26.30"
    assert status.data_dir.is_dir()
    assert f"running (pid {status.pid})" in str(status)


@pytest.mark.neo4j
def test_queries_run_with_the_settings(neo4j_server):
    with open_driver(neo4j_server) as driver:
        records, _, _ = driver.execute_query("RETURN 1 AS one", database_=neo4j_server.database)
        assert records[0]["one"] == 1
        records, _, _ = driver.execute_query("CALL dbms.components() YIELD versions, edition RETURN *")
        assert records[0]["versions"] == ["5.26.30"] and records[0]["edition"] == "community"


@pytest.mark.neo4j
def test_wrong_password_is_refused_clearly(neo4j_server):
    wrong = "not-the-password-" + secrets.token_hex(4)
    message = _unavailable(replace(neo4j_server, password=wrong))
    assert "credentials" in message
    assert neo4j_server.uri in message and repr(neo4j_server.user) in message
    assert wrong not in message and neo4j_server.password not in message


@pytest.mark.neo4j
def test_wrong_database_is_named(neo4j_server):
    message = _unavailable(replace(neo4j_server, database="nosuchdb"))
    assert "no database 'nosuchdb'" in message and neo4j_server.uri in message


def test_closed_port_is_unreachable():
    uri = f"bolt://127.0.0.1:{_free_port()}"
    message = _unavailable(Neo4jSettings(uri, "neo4j", "whatever-password", "neo4j"))
    assert "not reachable" in message and uri in message and "gamegraph neo4j start" in message


@pytest.mark.neo4j
def test_generated_password_is_owner_only(neo4j_server):
    if os.environ.get("NEO4J_PASSWORD"):
        pytest.skip("NEO4J_PASSWORD is set, so no password file is generated")
    path = password_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert neo4j_server.password not in repr(neo4j_server)


def jvm_command_line(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


@pytest.mark.neo4j
def test_data_survives_a_restart_and_only_the_server_asked_for_stops(neo4j_server, monkeypatch):
    """Data survive a stop and a start; a command stops only the server it started; the JVM started again takes
    GAMEGRAPH_NEO4J_JVM_OPTIONS, as a shell splits them, after its own options (so that one given there wins)."""
    token = secrets.token_hex(8)
    with open_driver(neo4j_server) as driver:
        driver.execute_query("CREATE (:GamegraphTestPersistence {token: $token})", token=token,
                             database_=neo4j_server.database)
    try:
        # A command that started a server stops only that one (`only`), never one started since by someone else.
        running = server.status().pid
        assert server.stop(only=running + 1) is False and server.status().pid == running
        assert server.stop(only=running) is True
        assert not server.status().running
        assert "not reachable" in _unavailable(neo4j_server)
        # Added to the run's own (./scripts/test's C1 only), which this server keeps for the modules after this one.
        given = os.environ.get("GAMEGRAPH_NEO4J_JVM_OPTIONS", "")
        monkeypatch.setenv("GAMEGRAPH_NEO4J_JVM_OPTIONS", f"{given} -Dgamegraph.test=restart '-Dgamegraph.words=a b'")
        server.start()
        command = jvm_command_line(server.status().pid)
        classpath = command.index("-cp")
        assert command[classpath - 2:classpath] == ["-Dgamegraph.test=restart", "-Dgamegraph.words=a b"], command
        assert command.index(server.NEO4J_JVM_OPTIONS[-1]) < command.index("-Dgamegraph.test=restart")
        with open_driver(neo4j_server) as driver:
            records, _, _ = driver.execute_query(
                "MATCH (n:GamegraphTestPersistence {token: $token}) DELETE n RETURN count(*) AS found",
                token=token, database_=neo4j_server.database)
        assert records[0]["found"] == 1
    finally:
        server.start()  # the rest of the session needs it running, whatever failed here


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A state folder of its own, so these tests never touch the session's server."""
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    return tmp_path


def test_missing_java_names_what_to_install(elsewhere, monkeypatch):
    monkeypatch.setenv("PATH", str(elsewhere))
    with pytest.raises(LauncherError, match=r"java not found: install a Java 17\+ JDK.*openjdk-17-jdk-headless"):
        server.start(port=_free_port())


def test_missing_maven_names_what_to_install(elsewhere, monkeypatch):
    bin_dir = elsewhere / "bin"
    bin_dir.mkdir()
    for tool in ("java", "javac"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(LauncherError, match=r"mvn not found: install Apache Maven.*apt-get install maven"):
        server.start(port=_free_port())


def test_port_held_by_another_program_is_a_clear_error(elsewhere):
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        with pytest.raises(LauncherError, match=rf"127\.0\.0\.1:{port}.*not a Neo4j server\).* "
                           r"holds that port: .*e\.g\. NEO4J_URI=bolt://127\.0\.0\.1:\d+ gamegraph neo4j start"):
            server.start(port=port)


def test_stale_pid_file_is_ignored_and_removed(elsewhere):
    folder = elsewhere / "home" / "neo4j"
    folder.mkdir(parents=True)
    (folder / "neo4j.pid").write_text(f"{os.getpid()}\n")  # alive, but not a launcher
    (folder / "ready").write_text("bolt://127.0.0.1:1\n")
    assert not server.status().running
    assert not (folder / "neo4j.pid").exists() and not (folder / "ready").exists()
    assert server.stop() is False


def test_short_password_is_rejected(monkeypatch):
    monkeypatch.setenv("NEO4J_PASSWORD", "seven77")
    with pytest.raises(Neo4jUnavailable, match="NEO4J_PASSWORD has 7 characters; Neo4j needs at least 8"):
        Neo4jSettings.from_env()


@pytest.mark.parametrize("content", [b"98765432109876543210\n", b"9" * 4301, b"-1\n", b"0\n", b"hello\n",
                                     b"\xff\xfe\n", b"", "fifo"])
def test_a_pid_file_holding_no_pid_is_stale(elsewhere, content):
    folder = elsewhere / "home" / "neo4j"
    folder.mkdir(parents=True)
    if content == "fifo":
        os.mkfifo(folder / "neo4j.pid")  # must not block the status
    else:
        (folder / "neo4j.pid").write_bytes(content)
    assert not server.status().running
    assert not os.path.lexists(folder / "neo4j.pid")
    assert server.stop() is False


def test_a_folder_where_the_pid_file_belongs_is_reported(elsewhere):
    folder = elsewhere / "home" / "neo4j"
    (folder / "neo4j.pid").mkdir(parents=True)
    with pytest.raises(LauncherError, match="pid file .*it is a folder.*remove it"):
        server.status()


@pytest.mark.parametrize("content, message", [("dir", "it is a folder, not a regular file"),
                                              ("fifo", "it is a FIFO"),
                                              (b"\xff\xfe secret", "is not UTF-8 text")])
def test_a_password_file_that_cannot_be_read_is_one_line(elsewhere, monkeypatch, content, message):
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    path = elsewhere / "home" / "neo4j" / "password"
    path.parent.mkdir(parents=True)
    if content == "dir":
        path.mkdir()
    elif content == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes(content)
    with pytest.raises(Neo4jUnavailable, match=message):
        Neo4jSettings.from_env()


@pytest.mark.parametrize("uri, message", [("bolt://127.0.0.1:70000", "Port out of range"),
                                          ("bolt://127.0.0.1:-1", "Port"), ("bolt://127.0.0.1:abc", "Port"),
                                          ("http://127.0.0.1:7474", "scheme 'http'"), ("bolt://", "no host"),
                                          ("bolt://[::1", "Invalid IPv6 URL"), ("x" * 10_000, "too long"),
                                          ("bolt://127.0.0.1:0", "port 0")])
def test_a_bad_neo4j_uri_is_one_line_before_any_connection(monkeypatch, uri, message):
    monkeypatch.setenv("NEO4J_URI", uri)
    monkeypatch.setenv("NEO4J_PASSWORD", "long-enough-password")
    with pytest.raises(Neo4jUnavailable, match=f"NEO4J_URI .* is not a Neo4j URI: .*{message}"):
        Neo4jSettings.from_env()


@pytest.mark.parametrize("value, message", [("-XX:TieredStopAtLevel=1 gamegraph.Other", "holds 'gamegraph.Other', which is not a JVM option"),
                                            ("'-Xss1m", "cannot be split into options: No closing quotation")])
def test_bad_jvm_options_are_refused_before_a_start(elsewhere, monkeypatch, value, message):
    """A word that is not an option would be taken by java as the class to run (or its argument)."""
    monkeypatch.setenv("GAMEGRAPH_NEO4J_JVM_OPTIONS", value)
    try:
        with pytest.raises(LauncherError, match=re.escape(message)):
            server.start(port=_free_port())
        assert not server.status().running
    finally:
        server.stop()  # a start that was not refused leaves no JVM behind


@pytest.mark.parametrize("name, value", [("GAMEGRAPH_NEO4J_HEAP", "lots"), ("GAMEGRAPH_NEO4J_PAGECACHE", "-1g")])
def test_a_bad_memory_setting_is_refused_before_a_start(elsewhere, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(LauncherError, match=f"{name}='{value}' is not a memory size"):
        server.start(port=_free_port())
