"""How fast the CLI starts: import time and whole-command wall time of small commands.

For each command: the time Python spends importing modules (`python -X importtime`,
the sum of every module's own time, median of --runs runs) and the wall time of the
whole command (median of --runs runs, a fresh process each). `show` runs on a warm
cache (as a user's second look at a game), `solve` always generates and solves.
Which heavy packages each command loaded is listed too.

    python -m bench.bench_startup                     # this checkout, table into bench/README.md
    python -m bench.bench_startup --repo /path/to/other/checkout --no-write   # compare another version

Not a test: timings depend on the machine's load (printed with the table).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.readme import publish

HEADING = "CLI start-up (`bench_startup.py`)"
ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (
    ("--help",),
    ("games",),
    ("show", "chopsticks"),
    ("solve", "chopsticks"),
    ("solve", "tictactoe"),
    ("neo4j", "status"),
)
HEAVY = ("numpy", "scipy", "networkx", "neo4j", "pandas", "streamlit", "graphviz")
BUDGET_S = 0.3


def command_env(repo: Path, home: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(repo), "GAMEGRAPH_HOME": home, "GAMEGRAPH_PROGRESS": "0"}


def import_profile(args: tuple[str, ...], env: dict[str, str]) -> tuple[float, list[str]]:
    """(seconds spent importing, heavy top-level packages imported) of one run."""
    argv = ["-c", "pass"] if not args else ["-m", "explorer.cli", *args]
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], env=env, cwd=env["PYTHONPATH"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    total_us, packages = 0, set()
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
        total_us += int(own)
        packages.add(name.split(".")[0])
    return total_us / 1e6, sorted(packages & set(HEAVY))


def wall_and_cpu_time(args: tuple[str, ...], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, user + system CPU seconds) of one run; CPU time suffers less from a busy machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    argv = ["-c", "pass"] if not args else ["-m", "explorer.cli", *args]
    subprocess.run([sys.executable, *argv], env=env, cwd=env["PYTHONPATH"], stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(repo: Path, runs: int) -> list[list[str]]:
    rows = []
    with tempfile.TemporaryDirectory() as home:
        env = command_env(repo, home)
        subprocess.run([sys.executable, "-m", "explorer.cli", "show", "chopsticks"], env=env, cwd=repo,
                       capture_output=True, check=True)  # warm the cache of `show`
        for args in ((), *COMMANDS):
            profiles = [import_profile(args, env) for _ in range(runs)]
            imports = statistics.median(p[0] for p in profiles)
            times = [wall_and_cpu_time(args, env) for _ in range(runs)]
            wall = statistics.median(t[0] for t in times)
            cpu = statistics.median(t[1] for t in times)
            verdict = "yes" if imports <= BUDGET_S else "NO"
            name = f"gamegraph {' '.join(args)}" if args else "python -c pass (Python alone)"
            rows.append([name, f"{imports:.3f}", f"{wall:.3f}", f"{cpu:.3f}", verdict if args else "",
                         ", ".join(profiles[0][1]) or "none"])
    return rows


def table(rows: list[list[str]], runs: int, repo: Path) -> str:
    load = os.getloadavg()[0]
    lines = [
        f"`python -m bench.bench_startup` on {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"{runs} runs per figure (median), checkout `{repo.name}`; load average {load:.1f} at the end "
        f"(the machine was shared: figures are noisy, compare them within one table).",
        "",
        f"| command | import s | wall s | CPU s | imports ≤ {BUDGET_S} s | heavy packages imported |",
        "|---|---:|---:|---:|---|---|",
        *[f"| {' | '.join(row)} |" for row in rows],
        "",
        "import s = the sum of every module's own import time from `python -X importtime`; "
        "wall s = the whole command in a fresh process, Python's start included; CPU s = its user + system "
        "CPU time, which a busy machine inflates less than wall time. "
        "`show` reads the cached solved graph; `solve` generates and solves each time.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repo", type=Path, default=ROOT, help="checkout whose code runs (default: this one)")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    rows = measure(repo, args.runs)
    publish("bench_startup", HEADING, table(rows, args.runs, repo), write=not args.no_write and repo == ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
