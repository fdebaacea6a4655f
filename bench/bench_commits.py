"""Two revisions of gamegraph on the same workloads, in one run: did a change cost speed?

    python -m bench.bench_commits --base e41bb82                 # base vs the work tree
    python -m bench.bench_commits --base e41bb82 --new HEAD --repeat 3 --no-write
    python -m bench.bench_commits --base e41bb82 --workloads edge:chopsticks(fingers=40) implicit:dodgem:5x5

Each revision is checked out into a temporary git worktree (the work tree itself
when --new is omitted) and imported from there by the same Python. Every
measurement runs in a child process of its own, so peak memory (ru_maxrss) is
that of one workload; runs alternate base / new, so both share the machine's
noise. A warm-up run per revision fills its numba cache first (each tree has
its own), so no timed run compiles. Workloads:

- ``edge:SPEC``: ``explorer.solved.build(SPEC)``: generate, solve, cycles.
- ``implicit:SPEC``: ``explorer.implicit.solve(game, folder)``: the implicit solve.

The table (median wall and CPU seconds, peak RSS, and new / base) goes into
bench/README.md between the ``bench_commits`` markers, with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
HEADING = "Two revisions side by side (`bench_commits.py`)"
WORKLOADS = ["edge:chopsticks(fingers=40)", "edge:chopsticks:attack-only(fingers=100)", "edge:nim:marienbad",
             "implicit:dodgem:4x4", "implicit:dodgem:5x5"]
WARM_UP = ["edge:chopsticks(fingers=12)", "implicit:dodgem:3x3"]

# Run in the child with the revision's tree first on sys.path; prints one JSON line.
CHILD = r"""
import json, os, resource, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
kind, spec = sys.argv[2].split(":", 1)
os.environ["GAMEGRAPH_PROGRESS"] = "0"
from explorer.games import parse_spec
game = parse_spec(spec)
wall, cpu = time.perf_counter(), time.process_time()
if kind == "edge":
    from explorer.solved import build
    solved = build(game)
    size = solved.graph.num_positions
elif kind == "implicit":
    from explorer import implicit
    with tempfile.TemporaryDirectory() as folder:
        values = implicit.solve(game, folder=__import__("pathlib").Path(folder) / "v")
        size = len(values.values)
else:
    raise SystemExit(f"unknown workload kind {kind!r}")
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
import explorer
print(json.dumps({"wall": wall, "cpu": cpu, "size": size, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "tree": os.path.dirname(os.path.dirname(explorer.__file__))}))
"""


def measure(tree: Path, workload: str, home: Path) -> dict:
    env = dict(os.environ, GAMEGRAPH_HOME=str(home), GAMEGRAPH_PROGRESS="0")
    env.pop("GAMEGRAPH_KERNELS_FROM", None)
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), workload], env=env, cwd=tree,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{workload} failed in {tree}:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["tree"]).resolve() != tree.resolve():
        raise SystemExit(f"{workload} imported gamegraph from {result['tree']}, not from {tree}")
    return result


def worktree(revision: str, where: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(where), revision], check=True)
    return where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the revision to compare against (e.g. a commit before a change)")
    parser.add_argument("--new", help="the revision to measure (default: the work tree as it is)")
    parser.add_argument("--workloads", nargs="+", default=WORKLOADS, metavar="KIND:SPEC")
    parser.add_argument("--repeat", type=int, default=3, help="runs per revision and workload (median reported)")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="gamegraph-bench-commits-"))
    trees = {"base": worktree(args.base, scratch / "base"),
             "new": worktree(args.new, scratch / "new") if args.new else ROOT}
    labels = {"base": _describe(args.base), "new": _describe(args.new) if args.new else "work tree"}
    homes = {name: scratch / f"home-{name}" for name in trees}
    loads = [os.getloadavg()[0]]
    try:
        for name, tree in trees.items():
            for workload in WARM_UP:
                measure(tree, workload, homes[name])
        results: dict[str, dict[str, list[dict]]] = {w: {"base": [], "new": []} for w in args.workloads}
        for workload in args.workloads:
            for _ in range(args.repeat):
                for name in ("base", "new"):
                    results[workload][name].append(measure(trees[name], workload, homes[name]))
                    loads.append(os.getloadavg()[0])
                    print(f"{workload} {name}: {results[workload][name][-1]['wall']:.2f} s", file=sys.stderr)
    finally:
        for name, tree in trees.items():
            if tree != ROOT:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    text = _table(results, labels, loads, args.repeat)
    print(text)
    if not args.no_write:
        from bench.readme import write_section

        write_section("bench_commits", HEADING, text)
    return 0


def _describe(revision: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h %s", revision],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()[:90]


def _table(results, labels, loads, repeat) -> str:
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [f"`python -m bench.bench_commits`, {when}: {platform.machine()}, {os.cpu_count()} CPUs, "
             f"Python {platform.python_version()}. Load average during the run: {min(loads):.1f}–{max(loads):.1f}. "
             f"Median of {repeat} runs each, alternating base and new.",
             "", f"- base: {labels['base']}", f"- new: {labels['new']}", "",
             "| workload | positions | base wall s | base CPU s | base peak MB | new wall s | new CPU s | new peak MB | new/base CPU |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for workload, runs in results.items():
        base, new = runs["base"], runs["new"]
        med = {name: {key: statistics.median(r[key] for r in rs) for key in ("wall", "cpu", "rss")}
               for name, rs in (("base", base), ("new", new))}
        ratio = med["new"]["cpu"] / med["base"]["cpu"] if med["base"]["cpu"] else float("nan")
        lines.append(f"| `{workload}` | {new[0]['size']:,} | {med['base']['wall']:.2f} | {med['base']['cpu']:.2f} | "
                     f"{med['base']['rss'] / 2**20:.0f} | {med['new']['wall']:.2f} | {med['new']['cpu']:.2f} | "
                     f"{med['new']['rss'] / 2**20:.0f} | {ratio:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
