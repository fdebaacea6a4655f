"""scripts/test starts Neo4j only when it is not running, and stops only the server it started.

The script runs for real (bash) in a copy of the scripts folder, with `.venv/bin/gamegraph`,
`.venv/bin/python` and ./scripts/install replaced by stubs that log their calls.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STUB_GAMEGRAPH = """#!/usr/bin/env bash
echo "gamegraph $*" >> "$LOG"
case "$2" in
  status) exit "$STATUS_RC" ;;
  start) echo "NEO4J_URI=$NEO4J_URI GAMEGRAPH_HOME=$GAMEGRAPH_HOME" >> "$ENV_LOG"; exit "$START_RC" ;;
esac
"""
STUB_LINT = """#!/usr/bin/env bash
if [ "${LINT_RC:-0}" != 0 ]; then echo "lint-imports" >> "$LOG"; fi
exit "${LINT_RC:-0}"
"""
STUB_PYTHON = """#!/usr/bin/env bash
if [ "$1" = "-c" ]; then echo 7999; exit 0; fi  # the free-port probe
echo "pytest" >> "$LOG"
exit "$PYTEST_RC"
"""


def stub(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def run_script(tmp_path: Path, status: int, start: int = 0, pytest_rc: int = 0,
               **env_changes: str) -> tuple[int, list[str]]:
    project, log = tmp_path / "project", tmp_path / "calls.log"
    venv_bin = project / ".venv" / "bin"
    (project / "scripts").mkdir(parents=True)
    venv_bin.mkdir(parents=True)
    shutil.copy2(ROOT / "scripts" / "test", project / "scripts" / "test")
    stub(project / "scripts" / "install", '#!/usr/bin/env bash\necho "install $*" >> "$LOG"\n')
    stub(venv_bin / "gamegraph", STUB_GAMEGRAPH)
    stub(venv_bin / "python", STUB_PYTHON)
    stub(venv_bin / "lint-imports", STUB_LINT)
    log.touch()
    env = {**os.environ, "LOG": str(log), "ENV_LOG": str(tmp_path / "env.log"), "STATUS_RC": str(status),
           "START_RC": str(start), "PYTEST_RC": str(pytest_rc)}
    env.pop("NEO4J_URI", None)
    env.pop("GAMEGRAPH_TEST_HOME", None)
    env.update(env_changes)
    # Run from elsewhere, as a user may: the script finds its clone by its own path.
    done = subprocess.run(["bash", str(project / "scripts" / "test")], env=env, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL)
    calls = log.read_text().splitlines()
    assert calls[0] == "install --need-neo4j", calls
    return done.returncode, calls[1:]


def test_a_server_already_running_is_used_and_left_running(tmp_path):
    assert run_script(tmp_path, status=0) == (0, ["gamegraph neo4j status", "pytest"])


def test_a_server_it_started_is_stopped_even_when_tests_fail(tmp_path):
    code, calls = run_script(tmp_path, status=3, pytest_rc=1)
    assert code == 1 and calls == ["gamegraph neo4j status", "gamegraph neo4j start", "pytest", "gamegraph neo4j stop"]


def test_a_failed_start_is_cleaned_up(tmp_path):
    code, calls = run_script(tmp_path, status=3, start=2)
    assert code == 2 and calls == ["gamegraph neo4j status", "gamegraph neo4j start", "gamegraph neo4j stop"]



def test_a_server_it_starts_gets_a_free_port_and_the_tests_own_state_folder(tmp_path):
    assert run_script(tmp_path, status=3)[0] == 0
    started = (tmp_path / "env.log").read_text()
    assert started == f"NEO4J_URI=bolt://127.0.0.1:7999 GAMEGRAPH_HOME={tmp_path / 'project' / '.gamegraph-test'}\n"


def test_neo4j_uri_and_the_test_home_can_be_given(tmp_path):
    assert run_script(tmp_path, status=3, NEO4J_URI="bolt://127.0.0.1:7123",
                      GAMEGRAPH_TEST_HOME=str(tmp_path / "th"))[0] == 0
    assert (tmp_path / "env.log").read_text() == f"NEO4J_URI=bolt://127.0.0.1:7123 GAMEGRAPH_HOME={tmp_path / 'th'}\n"


# -- scripts/install: one line naming what to install -----------------------------------------------
def install_env(tmp_path: Path, *, venv_module: bool, java: bool) -> tuple[Path, dict[str, str]]:
    """A copy of scripts/install and a PATH of stubs: apt-get and dpkg log instead of acting."""
    project, bin_dir = tmp_path / "project", tmp_path / "bin"
    (project / "scripts").mkdir(parents=True)
    bin_dir.mkdir()
    shutil.copy2(ROOT / "scripts" / "install", project / "scripts" / "install")
    shutil.copy2(ROOT / "pyproject.toml", project / "pyproject.toml")
    for tool in ("bash", "env", "cat", "cut", "sha256sum", "id", "dirname", "rm"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    for tool in ("dot", "chromium", "dpkg"):
        stub(bin_dir / tool, "#!/bin/sh\nexit 0\n")
    stub(bin_dir / "apt-get", '#!/bin/sh\necho "apt-get $*" >> "$LOG"\n')
    check = "import ensurepip, venv"
    stub(bin_dir / "python3", f'#!/bin/sh\n[ "$2" = "{check}" ] && exit {0 if venv_module else 1}\n'
                              f'exec {sys.executable} "$@"\n')
    if java:
        for tool in ("java", "javac", "mvn"):
            stub(bin_dir / tool, "#!/bin/sh\nexit 0\n")
    log = tmp_path / "apt.log"
    log.touch()
    return project, {"PATH": str(bin_dir), "LOG": str(log), "HOME": str(tmp_path)}


def test_install_without_java_and_maven_says_what_to_install(tmp_path):
    project, env = install_env(tmp_path, venv_module=True, java=False)
    done = subprocess.run([str(project / "scripts" / "install"), "--need-neo4j"], env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "install: Neo4j needs a Java 17+ JDK and Maven: apt-get install openjdk-17-jdk-headless maven"]
    assert not (project / ".venv").exists()


def test_install_without_the_venv_module_installs_it(tmp_path):
    project, env = install_env(tmp_path, venv_module=False, java=False)
    done = subprocess.run([str(project / "scripts" / "install"), "--need-neo4j"], env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert calls == ["apt-get update -qq", "apt-get install -y -qq python3-venv"], done.stderr
    assert done.returncode == 1 and "openjdk-17-jdk-headless maven" in done.stderr.splitlines()[-1]


def test_a_broken_import_contract_stops_the_run_before_neo4j_and_pytest(tmp_path):
    """lint-imports (the layers of docs/architecture.md) runs first: a back-arrow fails the run at once."""
    code, calls = run_script(tmp_path, status=3, LINT_RC="1")
    assert code == 1 and calls == ["lint-imports"]
