"""`gamegraph ui` honours Streamlit's own settings and never prompts.

The command line it builds is checked against Streamlit's three sources of
settings (flags, STREAMLIT_* variables, config files); then the real command
runs with no terminal and in a pseudo-terminal, with a fresh HOME (no Streamlit
credentials, so a first run), and must serve the page without an "Email:" prompt.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import signal
import socket
import subprocess
import sys
import time
import re
import urllib.request
from pathlib import Path

import pytest

from explorer.commands import ui

ROOT = Path(__file__).resolve().parents[2]


def args(port=None, host=None, headless=False) -> argparse.Namespace:
    return argparse.Namespace(port=port, host=host, headless=headless)


@pytest.fixture
def clean(tmp_path, monkeypatch):
    """No Streamlit config file anywhere and no STREAMLIT_* variable."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for name in list(os.environ):
        if name.startswith("STREAMLIT_"):
            monkeypatch.delenv(name)
    return work


def test_no_option_no_flag_and_the_defaults_go_through_the_environment(clean):
    argv, env, url = ui.launch(args(), environ={}, interactive=True)
    assert not [a for a in argv if a.startswith("--")]
    assert env["STREAMLIT_SERVER_ADDRESS"] == "127.0.0.1"
    assert env["STREAMLIT_SERVER_SHOW_EMAIL_PROMPT"] == "false"
    assert env["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] == "false"
    assert "STREAMLIT_SERVER_HEADLESS" not in env  # in a terminal Streamlit decides (a browser opens when it can)
    assert url == "http://localhost:8501"


def test_without_a_terminal_it_runs_headless(clean):
    _, env, _ = ui.launch(args(), environ={}, interactive=False)
    assert env["STREAMLIT_SERVER_HEADLESS"] == "true"


def test_options_given_become_flags(clean):
    argv, _, url = ui.launch(args(port=8765, host="0.0.0.0", headless=True), environ={}, interactive=True)
    flags = argv[argv.index(str(ui.APP)) + 1:]
    assert flags == ["--server.port", "8765", "--server.address", "0.0.0.0", "--server.headless", "true"]
    assert url == "http://localhost:8765"


def test_streamlit_variables_win_over_gamegraph_defaults(clean):
    user = {"STREAMLIT_SERVER_PORT": "8777", "STREAMLIT_SERVER_ADDRESS": "127.0.0.2",
            "STREAMLIT_SERVER_HEADLESS": "false", "STREAMLIT_SERVER_SHOW_EMAIL_PROMPT": "true"}
    argv, env, url = ui.launch(args(), environ=user, interactive=False)
    assert {k: env[k] for k in user} == user
    assert url == "http://127.0.0.2:8777"
    assert not [a for a in argv if a.startswith("--")]


@pytest.mark.parametrize("where", ["project", "global"])
def test_config_files_win_over_gamegraph_defaults(clean, where):
    folder = clean if where == "project" else Path(os.environ["HOME"])
    (folder / ".streamlit").mkdir(parents=True)
    (folder / ".streamlit" / "config.toml").write_text(
        '[server]\nport = 8788\naddress = "127.0.0.3"\nheadless = false\n[browser]\ngatherUsageStats = true\n')
    argv, env, url = ui.launch(args(), environ={}, interactive=False)
    for option in ("server.address", "server.headless", "browser.gatherUsageStats", "server.port"):
        assert ui.env_var(option) not in env, option  # the file's value stands
    assert env["STREAMLIT_SERVER_SHOW_EMAIL_PROMPT"] == "false"  # not in the file: gamegraph's default
    assert url == "http://127.0.0.3:8788"
    assert not [a for a in argv if a.startswith("--")]


@pytest.mark.parametrize("name, value, says", [
    ("STREAMLIT_SERVER_MAX_UPLOAD_SIZE", "abc", "is not a whole number (Streamlit's server.maxUploadSize)"),
    ("STREAMLIT_SERVER_HEADLESS", "maybe", "is not true or false (Streamlit's server.headless)"),
    ("STREAMLIT_GLOBAL_MIN_CACHED_MESSAGE_SIZE", "ten", "is not a number"),
    ("STREAMLIT_LOGGER_LEVEL", "loud", "is not a Streamlit log level: give one of critical, error"),
    ("STREAMLIT_SERVER_MAX_MESSAGE_SIZE", "-1", "is below 1 (Streamlit's server.maxMessageSize)"),  # a grey page
    ("STREAMLIT_SERVER_MAX_UPLOAD_SIZE", "0", "is below 1"),
    ("STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL", "-5", "is below 0"),
])
def test_a_streamlit_value_streamlit_cannot_read_is_one_line_before_the_server(clean, name, value, says):
    """A stranger's (issue 40): `STREAMLIT_SERVER_MAX_UPLOAD_SIZE=abc gamegraph ui` announced the explorer and
    then printed click's four-line usage error; STREAMLIT_LOGGER_LEVEL=loud Streamlit's own error."""
    from explorer.core.errors import InvalidParameter

    with pytest.raises(InvalidParameter, match=re.escape(says)) as caught:
        ui.launch(args(), environ={name: value}, interactive=False)
    assert str(caught.value).startswith(f"{name}='{value}'") and "\n" not in str(caught.value)


def test_streamlit_values_it_can_read_pass():
    for name, value in (("STREAMLIT_SERVER_MAX_UPLOAD_SIZE", "200"), ("STREAMLIT_SERVER_HEADLESS", "yes"),
                        ("STREAMLIT_LOGGER_LEVEL", "Debug"), ("STREAMLIT_CLIENT_ALLOWED_ORIGINS", "a b"),
                        ("STREAMLIT_GLOBAL_MIN_CACHED_MESSAGE_SIZE", "1e3"), ("STREAMLIT_NOT_AN_OPTION", "x")):
        ui.check_streamlit_values({name: value})


def test_env_var_names_are_streamlits():
    from streamlit import config

    config.get_config_options()
    for option in (*ui.DEFAULTS, "server.headless", "server.port"):
        assert ui.env_var(option) == config._config_options[option].env_var


# -- the real command, on a first run (no credentials) ---------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.read().strip() == b"ok"
    except OSError:
        return False


def first_run_env(tmp_path: Path, port: int, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    return {**env, "HOME": str(tmp_path / "home"), "GAMEGRAPH_HOME": str(tmp_path / "state"),
            "STREAMLIT_SERVER_PORT": str(port), **extra}


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_no_terminal_first_run_serves_without_a_prompt(tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "explorer.cli", "ui"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            env=first_run_env(tmp_path, port))
    try:
        deadline = time.monotonic() + 90
        while not healthy(url):
            assert proc.poll() is None, f"gamegraph ui exited with {proc.returncode}: {proc.stdout.read()}"
            assert time.monotonic() < deadline, "the explorer did not answer"
            time.sleep(0.3)
    finally:
        stop(proc)
    output = proc.stdout.read()
    assert "Email" not in output and url.replace("127.0.0.1", "localhost") in output
    assert not (tmp_path / "home" / ".streamlit" / "credentials.toml").exists()


def test_terminal_first_run_with_a_display_serves_without_a_prompt(tmp_path):
    """In a terminal with a display Streamlit is not headless; before, it asked for an e-mail here."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # BROWSER=true: Python's webbrowser "opens" the page by running `true`.
    env = first_run_env(tmp_path, port, DISPLAY=":99", BROWSER="true", TERM="dumb")
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "explorer.cli", "ui"], cwd=tmp_path, stdin=follower,
                            stdout=follower, stderr=follower, start_new_session=True, env=env)
    os.close(follower)
    output = b""
    try:
        deadline = time.monotonic() + 90
        while not healthy(url):
            while select.select([leader], [], [], 0.2)[0]:
                try:
                    output += os.read(leader, 65536)
                except OSError:
                    break
            assert b"Email" not in output, output.decode(errors="replace")
            assert proc.poll() is None, output.decode(errors="replace")
            assert time.monotonic() < deadline, output.decode(errors="replace")
        time.sleep(1)
        while select.select([leader], [], [], 0.2)[0]:
            try:
                output += os.read(leader, 65536)
            except OSError:
                break
    finally:
        stop(proc)
        os.close(leader)
    assert b"Email" not in output, output.decode(errors="replace")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_streamlit_that_hangs_on_shutdown_is_killed(tmp_path, signum):
    """Streamlit once hung in its shutdown (its output pipe had closed): the command must not."""
    stubborn = ("import os, signal, time\n"
                "signal.signal(signal.SIGTERM, signal.SIG_IGN); signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                "print(os.getpid(), flush=True); time.sleep(600)")
    # SIGINT as a terminal gives it: a process started with SIGINT ignored (as some runners start
    # pytest) passes that on, and a Python started so rightly never raises KeyboardInterrupt.
    driver = ("import os, signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
              "from explorer.commands import ui\nui.STOP_GRACE_S = 2\n"
              f"ui.launch = lambda args: ([sys.executable, '-c', {stubborn!r}], dict(os.environ), 'http://x')\n"
              "sys.exit(ui.run(None))")
    proc = subprocess.Popen([sys.executable, "-c", driver], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        child = int(proc.stdout.readline())
        proc.send_signal(signum)
        assert proc.wait(timeout=60) == 128 + signum  # 2 s of grace; the rest is room for a loaded machine
        deadline = time.monotonic() + 10
        while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not Path(f"/proc/{child}").exists(), "Streamlit outlived the command"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_up_without_neo4j_starts_the_page_with_neo4j_switched_off(clean, monkeypatch):
    """`gamegraph up --no-neo4j` neither starts nor asks Neo4j anything, and tells the page it starts
    the same (GAMEGRAPH_NO_NEO4J=1), so the page never asks for NEO4J_PASSWORD either."""
    from explorer.commands import up
    from loaders import neo4j_server
    from loaders.settings import NO_NEO4J_ENV

    started = []

    class Child:
        def __init__(self, argv, env, stdin):
            started.append(env)

        def wait(self, timeout=None):
            return 0

        def poll(self):
            return 0

    def untouched(*args, **kwargs):
        raise AssertionError("Neo4j was asked")

    monkeypatch.setattr(up, "preset_specs", lambda: [])
    monkeypatch.setattr(neo4j_server, "status", untouched)
    monkeypatch.setattr(neo4j_server, "start", untouched)
    monkeypatch.setattr(ui.subprocess, "Popen", Child)
    monkeypatch.delenv(NO_NEO4J_ENV, raising=False)
    options = argparse.Namespace(port=None, host=None, headless=True, no_neo4j=True, no_ui=False, keep_neo4j=False)
    assert up.run(options) == 0
    assert started and started[0][NO_NEO4J_ENV] == "1"
    options.no_neo4j = False
    monkeypatch.setattr(up, "_start_neo4j", lambda: None)  # no server here: the mirror, as without Neo4j
    monkeypatch.setattr(neo4j_server, "status", lambda: argparse.Namespace(running=True))
    assert up.run(options) == 0
    assert NO_NEO4J_ENV not in started[1]  # with Neo4j wanted, the page looks for it


@pytest.mark.parametrize("kind", ["file", "dangling link"])
def test_a_state_folder_that_cannot_be_used_stops_the_ui_before_its_server_starts(kind, tmp_path):
    """`gamegraph ui` says what is wrong with GAMEGRAPH_HOME in one line and exits 2, as every other command
    does, rather than serving pages that each show the error (no server is started, no port taken)."""
    home = tmp_path / "state"
    if kind == "file":
        home.write_text("not a folder")
    else:
        home.symlink_to(tmp_path / "gone")
    port = free_port()
    done = subprocess.run([sys.executable, "-m", "explorer.cli", "ui"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120, env=first_run_env(tmp_path, port))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "GAMEGRAPH_HOME" in lines[0] and "Traceback" not in done.stderr, done.stderr
    assert not healthy(f"http://127.0.0.1:{port}")
