"""The tiered solver (issue 21): `gamegraph solve SPEC --tiered` against a baseline in the same run.

Each workload runs the CLI in a fresh state folder, as a user would, in a child process,
and reports wall time beside the CPU time of the process and everything it started
(the Dask workers included: getrusage of the children), its peak resident memory (the
largest of the client and a worker, as the kernel reports it: children's ru_maxrss),
bytes per position at peak and on disk, and the start's value. A workload
`implicit:SPEC` runs `solve --implicit` instead: the one-process baseline.

    python -m bench.bench_tiered                                  # the default workloads
    python -m bench.bench_tiered --workloads tiered:connect4:6x4 implicit:dodgem:5x5 tiered:dodgem:5x5

The machine is shared: the load average is printed beside every row. Never asserted by a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADING = "Tiered solver on Dask (`bench_tiered.py`)"
DEFAULT_WORKLOADS = ["tiered:connect4:5x4", "implicit:connect4:6x4", "tiered:connect4:6x4", "tiered:connect4(width=5,height=5)"]


# A fresh process per run that starts the CLI and prints its children's usage: so that the peak
# (ru_maxrss) is this run's, not the largest of every run so far.
MEASURED = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
            "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
            "print('USAGE', u.ru_utime + u.ru_stime, u.ru_maxrss); sys.exit(code)")


def run(workload: str, scratch: Path) -> dict:
    """One CLI solve in its own state folder: wall, CPU (itself and its children), peak RSS, the meta."""
    mode, spec = workload.split(":", 1)
    if mode not in ("tiered", "implicit"):
        raise SystemExit(f"bench_tiered: a workload is tiered:SPEC or implicit:SPEC, not {workload!r}")
    home = Path(tempfile.mkdtemp(prefix="home-", dir=scratch))
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"}
    command = [sys.executable, "-c", MEASURED, sys.executable, "-m", "explorer.cli", "solve", spec, f"--{mode}",
               "--format", "json"]
    load = os.getloadavg()[0]
    began = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - began
    if done.returncode:
        raise SystemExit(f"bench_tiered: {workload} failed: {done.stderr.strip().splitlines()[-1:]}")
    out, usage = done.stdout.rsplit("\n", 2)[0], done.stdout.rsplit("\n", 2)[1]
    meta = json.loads(out)
    cpu, maxrss = (float(x) for x in usage.split()[1:])
    folder = Path(meta.get("folder") or meta.get("value_file"))
    on_disk = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    size = meta["index_space"]
    start = meta["start"]
    return {"workload": workload, "indices": size, "wall": wall, "cpu": cpu, "peak_mb": maxrss / 1024,
            "peak_per_index": maxrss * 1024 / size, "disk_per_index": on_disk / size,
            "start": f"{start['value']}" + ("" if start["remoteness"] is None else f" in {start['remoteness']}"),
            "tiers": len(meta["tiers"]["names"]) if "tiers" in meta else 1, "load": load,
            "load_after": os.getloadavg()[0]}


def table(results: list[dict], started: str) -> str:
    lines = [f"Run {started} on {platform.node() or 'this machine'} ({os.cpu_count()} cores), Python "
             f"{platform.python_version()}. Each row is one `gamegraph solve` in a fresh state folder.",
             "",
             "| workload | indices | tiers | wall s | CPU s | peak RSS MB | peak bytes/index | disk bytes/index | start | load before / after |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in results:
        lines.append(f"| `{r['workload']}` | {r['indices']:,} | {r['tiers']} | {r['wall']:.1f} | {r['cpu']:.1f} | "
                     f"{r['peak_mb']:,.0f} | {r['peak_per_index']:.2f} | {r['disk_per_index']:.3f} | {r['start']} | "
                     f"{r['load']:.2f} / {r['load_after']:.2f} |")
    lines += ["", "CPU s: the solve's process and every process it started (the Dask workers), user + system. "
              "Peak RSS: the largest single process (client or worker); a memory-mapped child tier counts as "
              "far as its pages were read. `implicit:` rows are the one-process baseline of the same run."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workloads", nargs="+", default=DEFAULT_WORKLOADS, metavar="MODE:SPEC")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with tempfile.TemporaryDirectory(prefix="bench-tiered-") as scratch:
        results = [run(w, Path(scratch)) for w in args.workloads]
    from bench.readme import publish

    publish("bench_tiered", HEADING, table(results, started), write=not args.no_write)


if __name__ == "__main__":
    main()
