"""scripts/test starts Neo4j only when it is not running, and stops only the server it started.

The script runs for real (bash) in a copy of the scripts folder, with `gamegraph`,
`python3` and ./scripts/install replaced by stubs that log their calls.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUB_GAMEGRAPH = """#!/usr/bin/env bash
echo "gamegraph $*" >> "$LOG"
case "$2" in
  status) exit "$STATUS_RC" ;;
  start) exit "$START_RC" ;;
esac
"""
STUB_PYTHON = """#!/usr/bin/env bash
echo "pytest" >> "$LOG"
exit "$PYTEST_RC"
"""


def stub(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def run_script(tmp_path: Path, status: int, start: int = 0, pytest_rc: int = 0) -> tuple[int, list[str]]:
    project, bin_dir, log = tmp_path / "project", tmp_path / "bin", tmp_path / "calls.log"
    (project / "scripts").mkdir(parents=True)
    bin_dir.mkdir()
    shutil.copy2(ROOT / "scripts" / "test", project / "scripts" / "test")
    stub(project / "scripts" / "install", "#!/usr/bin/env bash\n")
    stub(bin_dir / "gamegraph", STUB_GAMEGRAPH)
    stub(bin_dir / "python3", STUB_PYTHON)
    log.touch()
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "LOG": str(log), "STATUS_RC": str(status),
           "START_RC": str(start), "PYTEST_RC": str(pytest_rc)}
    done = subprocess.run(["bash", str(project / "scripts" / "test")], env=env, capture_output=True, text=True,
                          timeout=60)
    return done.returncode, log.read_text().splitlines()


def test_a_server_already_running_is_used_and_left_running(tmp_path):
    assert run_script(tmp_path, status=0) == (0, ["gamegraph neo4j status", "pytest"])


def test_a_server_it_started_is_stopped_even_when_tests_fail(tmp_path):
    code, calls = run_script(tmp_path, status=3, pytest_rc=1)
    assert code == 1 and calls == ["gamegraph neo4j status", "gamegraph neo4j start", "pytest", "gamegraph neo4j stop"]


def test_a_failed_start_is_cleaned_up(tmp_path):
    code, calls = run_script(tmp_path, status=3, start=2)
    assert code == 2 and calls == ["gamegraph neo4j status", "gamegraph neo4j start", "gamegraph neo4j stop"]

