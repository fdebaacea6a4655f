"""`gamegraph neo4j status` with a state folder whose server is stopped, while something else answers at the URI
commands would use. A stranger with a fresh GAMEGRAPH_HOME read "stopped" while another folder's server answered
on the same port, so queries reached a database status said was not there. Exit codes keep their meaning for this
state folder (scripts/test relies on it): 0 running, 3 stopped."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.support.neo4j_fixtures import free_port

# A stand-in listener: it answers Bolt's handshake with version 5.8 when `bolt` is set, else closes on the first
# bytes. Its command line can carry the embedded launcher's class and --home, as the real launcher's does.
LISTENER = textwrap.dedent("""
    import socket, sys
    port, bolt = int(sys.argv[1]), sys.argv[2] == "bolt"
    server = socket.socket()
    server.bind(("127.0.0.1", port))
    server.listen()
    print("listening", flush=True)
    while True:
        connection, _ = server.accept()
        with connection:
            if connection.recv(20) and bolt:
                connection.sendall(bytes([0, 0, 8, 5]))
""")


def status(home, uri: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0", "NEO4J_URI": uri}
    return subprocess.run([sys.executable, "-m", "explorer.cli", "neo4j", "status"],
                          capture_output=True, text=True, env=env, timeout=60)


@pytest.fixture
def listener():
    """Start a listener on a free port: listener(bolt, *extra_argv) -> (port, pid); stopped after the test."""
    started = []

    def start(bolt: bool, *extra: str) -> tuple[int, int]:
        port = free_port()
        process = subprocess.Popen([sys.executable, "-c", LISTENER, str(port), "bolt" if bolt else "plain", *extra],
                                   stdout=subprocess.PIPE, text=True)
        started.append(process)
        assert process.stdout.readline().strip() == "listening"
        return port, process.pid

    yield start
    for process in started:
        process.kill()
        process.wait()


def test_another_state_folders_server_is_named(tmp_path, listener):
    other = tmp_path / "other-home"
    port, pid = listener(True, "gamegraph.Neo4jLauncher", f"--home={other / 'neo4j'}", "--bolt-port=0")
    out = status(tmp_path / "fresh", f"bolt://127.0.0.1:{port}")
    assert out.returncode == 3, out.stderr  # this folder's server is stopped, whatever answers there
    first, second = out.stdout.splitlines()[:2]
    assert "stopped: no server of this state folder" in first and str(tmp_path / "fresh") in first
    assert second == (f"but something else answers at bolt://127.0.0.1:{port}: "
                      f"the embedded Neo4j of another state folder, GAMEGRAPH_HOME={other} (pid {pid})")
    assert "Traceback" not in out.stderr


def test_another_bolt_server_and_a_program_that_is_not_one(tmp_path, listener):
    port, pid = listener(True)
    out = status(tmp_path / "fresh", f"bolt://localhost:{port}")
    assert out.returncode == 3
    assert f"something else answers at bolt://localhost:{port}: a Neo4j (Bolt) server: " in out.stdout
    assert f"(pid {pid})" in out.stdout
    port, pid = listener(False)
    out = status(tmp_path / "fresh", f"bolt://127.0.0.1:{port}")
    assert out.returncode == 3
    assert f"something else answers at bolt://127.0.0.1:{port}: a program that does not speak Bolt" in out.stdout


def test_nothing_answers_is_a_plain_stopped(tmp_path):
    out = status(tmp_path / "fresh", f"bolt://127.0.0.1:{free_port()}")
    assert out.returncode == 3
    assert "stopped: no server of this state folder" in out.stdout and "something else" not in out.stdout


@pytest.mark.neo4j
def test_the_real_server_of_another_state_folder(tmp_path, neo4j_server):
    out = status(tmp_path / "fresh", neo4j_server.uri)
    assert out.returncode == 3
    assert "the embedded Neo4j of another state folder, GAMEGRAPH_HOME=" in out.stdout, out.stdout
