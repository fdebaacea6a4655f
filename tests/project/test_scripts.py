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
printf '%s\n' "$@" > "$ARGS_LOG"  # pytest's arguments, one a line
exit "$PYTEST_RC"
"""


def stub(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def run_script(tmp_path: Path, status: int, start: int = 0, pytest_rc: int = 0, args: tuple[str, ...] = (),
               **env_changes: str) -> tuple[int, list[str]]:
    project, log = tmp_path / "project", tmp_path / "calls.log"
    venv_bin = project / ".venv" / "bin"
    (project / "scripts").mkdir(parents=True, exist_ok=True)
    venv_bin.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "scripts" / "test", project / "scripts" / "test")
    stub(project / "scripts" / "install", '#!/usr/bin/env bash\necho "install $*" >> "$LOG"\n')
    stub(venv_bin / "gamegraph", STUB_GAMEGRAPH)
    stub(venv_bin / "python", STUB_PYTHON)
    stub(venv_bin / "lint-imports", STUB_LINT)
    log.write_text("")
    env = {**os.environ, "LOG": str(log), "ENV_LOG": str(tmp_path / "env.log"), "STATUS_RC": str(status),
           "START_RC": str(start), "PYTEST_RC": str(pytest_rc), "ARGS_LOG": str(tmp_path / "args.log")}
    env.pop("NEO4J_URI", None)
    env.pop("GAMEGRAPH_TEST_HOME", None)
    env.update(env_changes)
    # Run from elsewhere, as a user may: the script finds its clone by its own path.
    done = subprocess.run(["bash", str(project / "scripts" / "test"), *args], env=env, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL)
    calls = log.read_text().splitlines()
    assert calls[0] == "install --need-neo4j", calls
    return done.returncode, calls[1:]


def test_a_server_already_running_is_used_and_left_running(tmp_path):
    assert run_script(tmp_path, status=0) == (0, ["gamegraph neo4j status", "pytest"])


def test_a_server_it_started_is_stopped_even_when_tests_fail(tmp_path):
    code, calls = run_script(tmp_path, status=3, pytest_rc=1)
    assert code == 1 and calls == ["gamegraph neo4j status", "gamegraph neo4j start", "pytest", "gamegraph neo4j stop"]


def pytest_args(tmp_path: Path, *args: str) -> list[str]:
    """What scripts/test passes to `python -m pytest`, given these arguments (paths from the stub project)."""
    assert run_script(tmp_path, status=0, args=args)[0] == 0
    called = (tmp_path / "args.log").read_text().splitlines()
    assert called[:2] == ["-m", "pytest"], called
    return called[2:]


def test_the_whole_suite_runs_on_two_worker_processes_a_file_whole_on_one(tmp_path):
    """In the order tests/conftest.py gives (longest first), not xdist's own (most tests first)."""
    assert pytest_args(tmp_path) == ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder"]
    assert pytest_args(tmp_path / "m", "-m", "not browser", "-q") == ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder", "-m",
                                                                      "not browser", "-q"]


def test_given_tests_or_a_choice_of_workers_run_as_asked(tmp_path):
    (tmp_path / "project" / "tests").mkdir(parents=True)
    (tmp_path / "project" / "tests" / "test_x.py").touch()
    assert pytest_args(tmp_path, "tests/test_x.py", "-k", "a and not b", "-q") == ["tests/test_x.py", "-k",
                                                                                 "a and not b", "-q"]
    assert pytest_args(tmp_path, "tests/test_x.py::test_y", "-x") == ["tests/test_x.py::test_y", "-x"]
    for chosen in (["-n", "0"], ["-n4"], ["-p", "no:xdist"], ["--dist=load"], ["--collect-only"]):
        assert pytest_args(tmp_path, *chosen) == chosen, chosen
    assert pytest_args(tmp_path, "-p", "no:cacheprovider") == ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder", "-p", "no:cacheprovider"]


def test_quick_leaves_out_the_browser_and_slow_tests(tmp_path):
    assert pytest_args(tmp_path, "--quick", "-x") == ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder", "-m", "not browser and not slow",
                                                      "-x"]
    (tmp_path / "project" / "tests" / "ui").mkdir(parents=True)
    assert pytest_args(tmp_path, "--quick", "tests/ui") == ["-m", "not browser and not slow", "tests/ui"]


def test_ci_runs_the_whole_suite_and_prints_the_20_slowest_tests(tmp_path):
    """.ci/run is ./scripts/test with -q and --durations=20 (it dropped its own arguments before)."""
    project = tmp_path / "project"
    (project / ".ci").mkdir(parents=True)
    (project / "scripts").mkdir()
    shutil.copy2(ROOT / ".ci" / "run", project / ".ci" / "run")
    stub(project / "scripts" / "test", '#!/usr/bin/env bash\nprintf "%s\\n" "$@" > "$ARGS_LOG"\n')
    done = subprocess.run(["bash", str(project / ".ci" / "run"), "-x"], env={**os.environ, "ARGS_LOG": str(tmp_path / "a")},
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "a").read_text().splitlines() == ["-q", "--durations=20", "-x"]


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


# -- scripts/install: apt-get for what is missing, or one line naming what to install ----------------
JAVA_PACKAGES = "openjdk-17-jdk-headless maven"
APT_INSTALLS_JAVA = """#!/bin/sh
echo "apt-get $*" >> "$LOG"
case "$*" in *install*openjdk*) for t in java javac mvn; do printf '#!/bin/sh\\nexit 0\\n' > "$BIN/$t"; chmod +x "$BIN/$t"; done ;; esac
"""


def install_env(tmp_path: Path, *, venv_module: bool, java: bool, uid: int = 0, sudo: bool = False,
                apt_installs_java: bool = False) -> tuple[Path, dict[str, str]]:
    """A copy of scripts/install and a PATH of stubs: apt-get (and sudo) log instead of acting, `id -u`
    says `uid`, and `python3 -m venv` fails, so that a run stops before pip (it would go online)."""
    project, bin_dir = tmp_path / "project", tmp_path / "bin"
    (project / "scripts").mkdir(parents=True)
    bin_dir.mkdir()
    shutil.copy2(ROOT / "scripts" / "install", project / "scripts" / "install")
    shutil.copy2(ROOT / "pyproject.toml", project / "pyproject.toml")
    for tool in ("bash", "env", "cat", "cut", "sha256sum", "dirname", "rm", "chmod"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    stub(bin_dir / "id", f"#!/bin/sh\necho {uid}\n")
    for tool in ("dot", "chromium", "dpkg"):
        stub(bin_dir / tool, "#!/bin/sh\nexit 0\n")
    stub(bin_dir / "apt-get", APT_INSTALLS_JAVA if apt_installs_java else '#!/bin/sh\necho "apt-get $*" >> "$LOG"\n')
    if sudo:
        stub(bin_dir / "sudo", '#!/bin/sh\necho "sudo $1" >> "$LOG"\nexec "$@"\n')
    check = "import ensurepip, venv"
    stub(bin_dir / "python3", f'#!/bin/sh\n[ "$2" = "{check}" ] && exit {0 if venv_module else 1}\n'
                              '[ "$1" = "-m" ] && [ "$2" = "venv" ] && exit 1\n'
                              f'exec {sys.executable} "$@"\n')
    if java:
        for tool in ("java", "javac", "mvn"):
            stub(bin_dir / tool, "#!/bin/sh\nexit 0\n")
    log = tmp_path / "apt.log"
    log.touch()
    return project, {"PATH": str(bin_dir), "LOG": str(log), "HOME": str(tmp_path), "BIN": str(bin_dir)}


def run_install(project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(project / "scripts" / "install"), *args], env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


def apt_calls(tmp_path: Path) -> list[str]:
    return (tmp_path / "apt.log").read_text().splitlines()


def test_install_without_java_and_maven_installs_them_with_apt_get(tmp_path):
    """java, javac and mvn absent from PATH: apt-get is asked for the JDK and Maven, and once they are
    there the run goes on (here to the venv step, which the stub python3 fails)."""
    project, env = install_env(tmp_path, venv_module=True, java=False, apt_installs_java=True)
    done = run_install(project, env, "--need-neo4j")
    assert apt_calls(tmp_path) == ["apt-get update -qq", f"apt-get install -y -qq {JAVA_PACKAGES}"], done.stderr
    assert done.stderr.splitlines()[0] == f"install: apt-get install {JAVA_PACKAGES}"
    assert "Neo4j needs" not in done.stderr and "warning" not in done.stderr
    assert "could not create .venv" in done.stderr.splitlines()[-1]  # past the Java check


def test_install_with_java_and_maven_asks_apt_get_for_nothing(tmp_path):
    project, env = install_env(tmp_path, venv_module=True, java=True)
    done = run_install(project, env, "--need-neo4j")
    assert apt_calls(tmp_path) == [] and "install: apt-get" not in done.stderr, done.stderr


def test_install_says_in_one_line_when_apt_get_left_java_missing(tmp_path):
    project, env = install_env(tmp_path, venv_module=True, java=False)
    done = run_install(project, env, "--need-neo4j")
    assert apt_calls(tmp_path) == ["apt-get update -qq", f"apt-get install -y -qq {JAVA_PACKAGES}"]
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"install: apt-get install {JAVA_PACKAGES}",
        f"install: Neo4j needs a Java 17+ JDK and Maven: apt-get install {JAVA_PACKAGES}"]
    assert not (project / ".venv").exists()


def test_install_goes_through_sudo_when_not_root(tmp_path):
    project, env = install_env(tmp_path, venv_module=True, java=False, uid=1000, sudo=True, apt_installs_java=True)
    run_install(project, env, "--need-neo4j")
    assert apt_calls(tmp_path) == ["sudo apt-get", "apt-get update -qq", "sudo apt-get",
                                   f"apt-get install -y -qq {JAVA_PACKAGES}"]


def test_install_without_root_or_sudo_names_what_to_run(tmp_path):
    project, env = install_env(tmp_path, venv_module=True, java=False, uid=1000)
    done = run_install(project, env, "--need-neo4j")
    assert done.returncode == 1 and apt_calls(tmp_path) == []
    assert done.stderr.splitlines() == [
        f"install: Neo4j needs a Java 17+ JDK and Maven: apt-get install {JAVA_PACKAGES}"]
    done = run_install(project, env)  # Neo4j not required: a warning, and the install goes on
    assert done.stderr.splitlines()[0].startswith("install: warning: without a Java 17+ JDK and Maven")
    assert apt_calls(tmp_path) == []


def test_install_without_the_venv_module_installs_it(tmp_path):
    project, env = install_env(tmp_path, venv_module=False, java=False)
    done = run_install(project, env, "--need-neo4j")
    assert apt_calls(tmp_path) == ["apt-get update -qq", f"apt-get install -y -qq python3-venv {JAVA_PACKAGES}"], \
        done.stderr
    assert done.returncode == 1 and JAVA_PACKAGES in done.stderr.splitlines()[-1]


def test_a_broken_import_contract_stops_the_run_before_neo4j_and_pytest(tmp_path):
    """lint-imports (the layers of docs/architecture.md) runs first: a back-arrow fails the run at once."""
    code, calls = run_script(tmp_path, status=3, LINT_RC="1")
    assert code == 1 and calls == ["lint-imports"]


def test_install_adds_libatomic1_where_dpkg_lacks_it(tmp_path):
    """A minimal Debian (debootstrap minbase) lacks libatomic1, which the Node.js inside Playwright links:
    without it every browser test fails to start its driver. dpkg says it is missing: apt-get adds it."""
    project, env = install_env(tmp_path, venv_module=True, java=True)
    stub(Path(env["BIN"]) / "dpkg", '#!/bin/sh\n[ "$2" = libatomic1 ] && exit 1\nexit 0\n')
    done = run_install(project, env)
    assert apt_calls(tmp_path) == ["apt-get update -qq", "apt-get install -y -qq libatomic1"], done.stderr
