"""The README's commands, run as a reader would paste them.

- The two commands at the top, with standard input closed (as CI runs them) and
  from another directory: `./scripts/test` on one small file (--collect-only, so
  it cannot recurse into this test), and `./scripts/explore` until the UI answers
  and shows the games, then SIGTERM, after which nothing it started may run.
- Every `gamegraph ...` example of the "Using it" section, in README order, against
  the tests' own state folder and the session's Neo4j: exit 0 and a non-empty
  answer (a query's JSON has rows).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from explorer.commands.play import EXIT_UNFINISHED
from explorer.core.settings import state_dir

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
CHROMIUM = "/usr/bin/chromium"


def code_blocks(text: str) -> list[list[str]]:
    return [block.splitlines() for block in re.findall(r"```bash\n(.*?)```", text, re.S)]


def top_commands() -> list[str]:
    """The commands of the README's first code block: the two that matter most."""
    return [shlex.split(line, comments=True)[0] for line in code_blocks(README)[0] if line.strip()]


def example_commands() -> list[list[str]]:
    """Every `gamegraph ...` line of the "Using it" section, as words (comments dropped)."""
    section = README[README.index("## Using it"):]
    commands = []
    for block in code_blocks(section):
        for line in block:
            words = shlex.split(line, comments=True)
            if words and words[0] == "gamegraph":
                commands.append(words[1:])
    return commands


def test_the_readme_starts_with_the_two_commands():
    assert top_commands() == ["./scripts/explore", "./scripts/test"]
    assert README.index("```bash") < README.index("\n## ")  # before any section


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- ./scripts/test -------------------------------------------------------------------------------
@pytest.mark.neo4j
def test_the_test_command_runs_with_stdin_closed_from_another_directory(neo4j_server, tmp_path):
    script = ROOT / top_commands()[1]
    env = {**os.environ, "GAMEGRAPH_TEST_HOME": str(state_dir()), "NEO4J_URI": neo4j_server.uri}
    env.pop("GAMEGRAPH_HOME", None)
    done = subprocess.run([str(script), "--collect-only", "-q", "tests/games/test_games.py"], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(r"\d+ tests? collected", done.stdout), done.stdout[-2000:]


# -- ./scripts/explore ----------------------------------------------------------------------------
def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.read().strip() == b"ok"
    except OSError:
        return False


def group_members(pgid: int) -> list[int]:
    """Live processes of a process group (zombies excluded)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def port_in_use(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def shows_the_games(url: str, artifact: Path, request) -> None:
    """In Chromium (when there): the page loads a preset and shows its start's value. The run's one Chromium
    (tests/support/browser.py): a second sync Playwright in a process whose first still runs is refused."""
    if not Path(CHROMIUM).exists():
        return
    page = request.getfixturevalue("shared_browser").new_page(viewport={"width": 1400, "height": 1400})
    try:
        page.goto(f"{url}/?game=chopsticks:magic-fingers")
        page.get_by_text("Value for A (to move)").wait_for(timeout=120_000)
        assert "magic" in page.content().lower()
        for busy in ("[data-testid=stStatusWidget]", "[data-testid=stSkeleton]"):  # finished drawing
            page.wait_for_selector(busy, state="detached", timeout=120_000)
        artifact.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(artifact), full_page=True)
    finally:
        page.close()


@pytest.mark.neo4j
def test_the_explore_command_serves_the_games_and_sigterm_stops_everything(tmp_path, request):
    from explorer.commands.up import preset_specs

    script = ROOT / top_commands()[0]
    bolt, web = free_port(), free_port()
    home = tmp_path / "state"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("STREAMLIT_") and k not in ("NEO4J_URI", "NEO4J_PASSWORD")}
    env.update(GAMEGRAPH_HOME=str(home), NEO4J_URI=f"bolt://127.0.0.1:{bolt}", STREAMLIT_SERVER_PORT=str(web))
    env.setdefault("GAMEGRAPH_NEO4J_HEAP", "512m")
    env.setdefault("GAMEGRAPH_NEO4J_PAGECACHE", "64m")
    log = tmp_path / "explore.log"
    url = f"http://127.0.0.1:{web}"
    with open(log, "w") as out:
        proc = subprocess.Popen([str(script)], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    neo4j_pid = None
    try:
        deadline = time.monotonic() + 900
        while not healthy(url):
            assert proc.poll() is None, f"explore exited with {proc.returncode}:\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"the UI did not answer:\n{log.read_text()[-3000:]}"
            time.sleep(1)
        text = log.read_text()
        assert text.count("ready in networkx + Neo4j") == len(preset_specs()), text[-3000:]  # every game
        neo4j_pid = int((home / "neo4j" / "neo4j.pid").read_text())
        assert alive(neo4j_pid) and port_in_use(bolt)
        shows_the_games(url, ROOT / "tests" / "artifacts" / "explore.png", request)
        members = group_members(proc.pid)
        assert len(members) >= 2, members  # gamegraph up and its Streamlit child

        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=180)
        deadline = time.monotonic() + 30
        while (group_members(proc.pid) or alive(neo4j_pid)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert group_members(proc.pid) == [], "the UI outlived explore"
        assert not alive(neo4j_pid), "Neo4j outlived explore"
        assert not port_in_use(bolt) and not port_in_use(web)
        text = log.read_text()
        assert "Received notification" not in text and "Email" not in text, text[-3000:]
        assert "Neo4j stopped" in text
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        pid_file = home / "neo4j" / "neo4j.pid"
        if neo4j_pid is None and pid_file.exists():  # failed before reading it: the server runs in its own session
            neo4j_pid = int(pid_file.read_text().strip() or 0) or None
        if neo4j_pid and alive(neo4j_pid):
            os.kill(neo4j_pid, signal.SIGKILL)


# -- the examples ---------------------------------------------------------------------------------
@pytest.mark.neo4j
def test_every_readme_example_runs_and_answers(neo4j_server, tmp_path):
    commands = example_commands()
    assert len(commands) >= 12 and ["neo4j", "start"] in commands
    env = {**os.environ, "GAMEGRAPH_HOME": str(state_dir()), "GAMEGRAPH_PROGRESS": "0", "PYTHONPATH": str(ROOT),
           "NEO4J_URI": neo4j_server.uri, "NEO4J_USER": neo4j_server.user, "NEO4J_PASSWORD": neo4j_server.password,
           "NEO4J_DATABASE": neo4j_server.database}
    # connect4:6x4's tiered solve (a minute of CPU) is made once a run, shared with tests/games/test_connect4.py:
    # the example `solve connect4:6x4 --tiered` then finds it solved, as after a reader's first paste.
    from explorer.games import parse_spec
    from tests.support.shared_tiers import solved_this_run

    assert ["solve", "connect4:6x4", "--tiered"] in commands
    solved_this_run(parse_spec("connect4:6x4"))
    ran = 0
    for words in commands:
        if words == ["ui"]:
            continue  # runs until stopped: tests/commands/test_ui.py and the explore test above start it
        done = subprocess.run([sys.executable, "-m", "explorer.cli", *words], cwd=tmp_path, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
        shown = f"gamegraph {shlex.join(words)}: {done.stderr[-2000:]}"
        # Standard input is closed here, so a game of `play` is left unfinished: its documented exit status
        # (explorer.commands.play.EXIT_UNFINISHED), said in one line; the piped `printf ... | gamegraph play`
        # examples are not `gamegraph` lines and are played by tests/commands/test_play_input.py.
        assert done.returncode == (EXIT_UNFINISHED if words[0] == "play" else 0), shown
        if words[0] == "play":
            assert "left unfinished" in done.stderr, shown
        assert "Traceback" not in done.stderr, shown
        if "-o" in words:
            written = tmp_path / words[words.index("-o") + 1]
            assert written.is_file() and written.stat().st_size > 0, shown
        else:
            assert done.stdout.strip(), f"{shown}: no output"
        if words[0] == "query" and "json" in words:
            tables = json.loads(done.stdout)["tables"]
            assert any(table["rows"] for table in tables.values()), f"{shown}: the answer is empty"
        ran += 1
    assert ran == len(commands) - 1
