"""Where a browser test module's CPU goes: the explorer server, Chromium (its browser, renderer and GPU processes),
Playwright's driver, pytest itself, and the page's build children, beside the wall time and the load (issue 34).

Runs `python -m pytest -q -p no:xdist FILE... [pytest arguments]` from the repository root, with the suite's
settings (GAMEGRAPH_PROGRESS=0, the bytecode cache of scripts/test) and GAMEGRAPH_UI_RUN_TIMES=1, so that the
shared explorer logs each full script run's server time (explorer/ui/app.py, `measured`; a fragment's rerun, such as
a canvas expansion, is not one of them). Every second it reads /proc for the processes under that pytest: each one's
CPU time (user + system) as last seen alive, and its kind from its command line. A process's last second before it
ends is not seen, so the figures are a little low; the sampler's own CPU is not counted.

    GAMEGRAPH_HOME=... NEO4J_URI=... python -m bench.bench_browser_cpu tests/ui/test_canvas_fit_browser.py -k tictactoe

Not a test: the figures depend on the machine's load (printed before and after).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
KINDS = (("server", r"-m streamlit run "), ("ui command", r"explorer\.cli ui |gamegraph ui "),
         ("build child", r"explorer\.ui\.buildworker"), ("chromium renderer", r"chromium.*--type=renderer"),
         ("chromium gpu", r"chromium.*--type=gpu-process"), ("chromium other", r"chromium"),
         ("playwright driver", r"playwright/driver"), ("pytest", r"pytest"))


def kind_of(command: str) -> str:
    return next((kind for kind, pattern in KINDS if re.search(pattern, command)), "other")


def _stat(pid: str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state first), None for a process gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def sample(root: int, seen: dict[tuple[str, str], list]) -> None:
    """Each live descendant of `root`: its kind and CPU seconds, into `seen` keyed by (pid, start time)."""
    parents = {}
    stats = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit() and (fields := _stat(pid)) is not None:
            parents[pid], stats[pid] = fields[1], fields
    for pid, fields in stats.items():
        up, hops = pid, 0
        while up in parents and up != str(root) and hops < 64:
            up, hops = parents[up], hops + 1
        if up != str(root) or fields[0] == "Z":  # not ours, or ended (a zombie has no command line left)
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        key = (pid, fields[19])
        cpu = (int(fields[11]) + int(fields[12])) / TICK
        entry = seen.setdefault(key, [kind_of(command), 0.0])
        entry[1] = max(entry[1], cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pytest_args", nargs=argparse.REMAINDER, help="test files and pytest arguments")
    args = parser.parse_args(argv)
    if not args.pytest_args:
        parser.error("name a browser test module")
    basetemp = Path(tempfile.mkdtemp(prefix="bench-browser-cpu-"))
    env = {**os.environ, "GAMEGRAPH_PROGRESS": "0", "GAMEGRAPH_UI_RUN_TIMES": "1", "PYTHONPATH": str(ROOT),
           "PYTHONPYCACHEPREFIX": os.environ.get("PYTHONPYCACHEPREFIX")
           or str(Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gamegraph" / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    load_before, began = os.getloadavg(), time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", f"--basetemp={basetemp}",
                              *args.pytest_args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    seen: dict[tuple[str, str], list] = {}
    own = child.pid
    while child.poll() is None:
        sample(own, seen)
        time.sleep(1.0)
    wall, load_after = time.monotonic() - began, os.getloadavg()
    output = child.stdout.read()
    summary = [line for line in output.splitlines() if re.search(r"\d+ (passed|failed|error)", line)]
    by_kind: dict[str, float] = {}
    for kind, cpu in seen.values():
        by_kind[kind] = by_kind.get(kind, 0.0) + cpu
    runs = []
    for log in basetemp.rglob("ui-runs.jsonl"):
        runs += [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    print(f"{' '.join(args.pytest_args)}: {summary[-1] if summary else 'no summary (see below)'}")
    print(f"wall {wall:.1f} s; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"({os.cpu_count()} cores)")
    print(f"CPU {sum(by_kind.values()):.1f} s:")
    for kind, cpu in sorted(by_kind.items(), key=lambda item: -item[1]):
        print(f"  {kind:18} {cpu:7.1f} s")
    if runs:
        print(f"server's full script runs: {len(runs)}, {sum(r['seconds'] for r in runs):.1f} s of wall, "
              f"{sum(r['cpu'] for r in runs):.1f} s of the script thread's CPU (fragment reruns not counted)")
    if child.returncode != 0:
        print(output[-4000:])
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
