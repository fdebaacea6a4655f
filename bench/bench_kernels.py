"""Compiled kernels against the numpy path they replaced, and how their cost scales.

    python -m bench.bench_kernels                 # the full run (several GB at the largest sizes)
    python -m bench.bench_kernels --quick --no-write

Every measurement runs in its own child process, one at a time, so the peak
resident memory (ru_maxrss) is that of one graph and one implementation:

- compile: first-call time of the kernels with an empty numba cache, then with
  the cache filled, and a small build on the default plain path (no numba).
- speed-up: the numpy path (explorer.graph.generate_levels, scipy
  predecessors, level-by-level solve) and the compiled path (explorer.graph,
  explorer.solver with the kernels) on the same graph, end to end (generate +
  solve); values and remoteness must agree position by position (node ids are
  the same: both number each breadth-first level in code order).
- scaling: the compiled path over a range of finger counts, with the cycle
  pass (SCC) too, peak RSS and the cost per position and move.

    python -m bench.bench_kernels --install [--before 2ea1499]   # compiled once per install (issue 34)

`--install` measures what a user of a fresh clone pays (its own section in bench/README.md): the
install's warm-up (explorer/kernels/warmup.py) into an empty per-user cache from one fresh clone, then
in a second fresh clone (another path, other mtimes) the first and a second `gamegraph solve
dodgem:4x4 --implicit` and `gamegraph solve dodgem:4x4 --tiered --workers 2` (fresh local Dask
workers each time); with `--before COMMIT`, the same solves in a clone of that commit with an empty
numba cache (before the warm-up existed, a fresh clone compiled on first use). CPU is that of the
command and every process it waited for (RUSAGE_CHILDREN), beside wall time and the load average.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
HEADING = "Compiled kernels (`bench_kernels.py`)"
SPEED_UP = ["chopsticks(fingers=60)", "chopsticks:attack-only(fingers=100)", "chopsticks:magic-fingers(fingers=50)"]
SCALING = {"chopsticks": [5, 10, 20, 30, 40, 50, 60], "chopsticks:attack-only": [5, 10, 25, 50, 75, 100]}
QUICK_SPEED_UP = ["chopsticks(fingers=20)", "chopsticks:attack-only(fingers=30)"]
QUICK_SCALING = {"chopsticks": [5, 10, 20], "chopsticks:attack-only": [10, 30]}


# -- the child: one graph, one implementation ------------------------------------------
def digest(*arrays) -> str:
    h = hashlib.sha1()
    for a in arrays:
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def rss_now() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def child(spec: str, path: str) -> dict:
    from explorer.games import parse_spec

    game = parse_spec(spec)
    out: dict = {"spec": spec, "path": path}
    if path == "compiled":  # load every kernel first: the first-call cost is measured by compile_times
        os.environ["GAMEGRAPH_KERNELS_FROM"] = "0"
        from explorer.solved import build

        build("chopsticks")
    out["base_rss"] = rss_now()
    clock = time.perf_counter
    cpu = time.process_time
    if path == "numpy":
        from explorer import graph as generation, solver

        t0, c0 = clock(), cpu()
        graph = generation.generate_levels(game, max_positions=10 ** 10)
        t1, c1 = clock(), cpu()
        solution = solver.solve_levels(graph)
        t2, c2 = clock(), cpu()
        out.update(generate=t1 - t0, solve=t2 - t1, generate_cpu=c1 - c0, solve_cpu=c2 - c1)
    else:
        from explorer.algorithms.scc import strongly_connected
        from explorer.graph import generate
        from explorer.solver import solve

        t0, c0 = clock(), cpu()
        graph = generate(game, max_positions=10 ** 10, compiled=True)
        t1, c1 = clock(), cpu()
        graph.predecessors_csr  # noqa: B018 -- timed on its own, then reused by solve
        t2 = clock()
        solution = solve(graph)
        t3, c3 = clock(), cpu()
        del graph.__dict__["predecessors_csr"]
        t4, c4 = clock(), cpu()
        strongly_connected(graph)
        t5, c5 = clock(), cpu()
        out.update(generate=t1 - t0, predecessors=t2 - t1, solve=t3 - t1, cycles=t5 - t4,
                   generate_cpu=c1 - c0, solve_cpu=c3 - c1, cycles_cpu=c5 - c4)
    out.update(positions=graph.num_positions, moves=graph.num_moves, start=int(solution.value[0]),
               digest=digest(graph.codes, solution.value, solution.remoteness),
               optimal=int(solution.optimal.sum()),
               peak_rss=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    return out


def compile_child(spec: str) -> dict:
    """Seconds (wall and CPU) to a first build in this process (cache state set by the parent)."""
    t0 = time.perf_counter()
    from explorer.solved import build

    solved = build(spec)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"seconds": time.perf_counter() - t0, "cpu": usage.ru_utime + usage.ru_stime,
            "numba": "numba" in sys.modules, "positions": solved.graph.num_positions}


def spawn(args: list[str], env: dict | None = None) -> dict:
    done = subprocess.run([sys.executable, "-m", "bench.bench_kernels", *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "GAMEGRAPH_PROGRESS": "0", **(env or {})})
    if done.returncode != 0:
        print(f"child {args} failed with exit code {done.returncode}: {done.stderr.strip()[-500:]}", flush=True)
        return {"failed": done.returncode}
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- compiled once per install (--install) -------------------------------------------------
INSTALL_HEADING = "Compiled once per install (`bench_kernels.py --install`)"
INSTALL_RUNS = (("solve", "dodgem:4x4", "--implicit"), ("solve", "dodgem:4x4", "--tiered", "--workers", "2"))


def timed(argv: list[str], env: dict, cwd: Path) -> dict:
    """Wall and CPU seconds (the child and every process it waited for) of one command, the load before."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    row = {"wall": wall, "cpu": cpu, "load": load, "stderr": done.stderr}
    print(f"{' '.join(argv[2:])}: {wall:.1f} s wall, {cpu:.1f} s CPU, load {load:.1f}", flush=True)
    return row


def fresh_clone(commit: str, where: Path) -> Path:
    """A clone of this repository at `commit` in `where` (its files new: new path, new mtimes)."""
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(where)], check=True)
    subprocess.run(["git", "-C", str(where), "checkout", "--quiet", commit], check=True)
    return where


def install_times(before: str | None, user_cache: Path | None = None) -> dict:
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    out: dict = {"head": head}
    with tempfile.TemporaryDirectory(prefix="bench-install-") as scratch:
        tmp = Path(scratch)
        base = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "DASK_SCHEDULER_ADDRESS")}
        base.update(XDG_CACHE_HOME=str(user_cache or tmp / "user-cache"), GAMEGRAPH_PROGRESS="0")
        installed = fresh_clone(head, tmp / "installed")
        env = {**base, "PYTHONPATH": str(installed), "GAMEGRAPH_HOME": str(tmp / "home-install")}
        out["warmup"] = timed([sys.executable, "-m", "explorer.kernels.warmup"], env, installed)
        out["reused"] = user_cache is not None
        out["skip"] = timed([sys.executable, "-m", "explorer.kernels.warmup"], env, installed)
        clone = fresh_clone(head, tmp / "elsewhere" / "second-clone")
        for run in INSTALL_RUNS:
            env = {**base, "PYTHONPATH": str(clone), "GAMEGRAPH_HOME": str(tmp / f"home-{run[-1]}")}
            first = timed([sys.executable, "-m", "explorer.cli", *run], env, clone)
            shutil.rmtree(tmp / f"home-{run[-1]}")  # the second solves again too, on a warm cache
            out[" ".join(run[1:])] = {"first": first, "warm": timed([sys.executable, "-m", "explorer.cli", *run], env,
                                                                        clone)}
        if before:
            old = fresh_clone(before, tmp / "before")
            for run in INSTALL_RUNS:
                env = {**base, "PYTHONPATH": str(old), "GAMEGRAPH_HOME": str(tmp / f"old-{run[-1]}"),
                       "NUMBA_CACHE_DIR": str(tmp / "old-numba-cache")}
                first = timed([sys.executable, "-m", "explorer.cli", *run], env, old)
                shutil.rmtree(tmp / f"old-{run[-1]}")
                out["before " + " ".join(run[1:])] = {
                    "first": first, "warm": timed([sys.executable, "-m", "explorer.cli", *run], env, old)}
    return out


def install_text(times: dict, before: str | None, started: str) -> str:
    w, k = times["warmup"], times["skip"]
    warmup = (f"from a fresh clone into an empty per-user cache: {w['wall']:.0f} s wall, {w['cpu']:.0f} s CPU "
              f"(load {w['load']:.1f}); run again (the stamp says the cache is complete): {k['wall']:.2f} s wall, "
              f"{k['cpu']:.2f} s CPU." if not times.get("reused") else
              f"run beforehand into the cache given by --user-cache (its time: below); run again from the fresh "
              f"clone, the stamp says the cache is complete: {k['wall']:.2f} s wall, {k['cpu']:.2f} s CPU "
              f"(load {k['load']:.1f}).")
    lines = [
        f"`python -m bench.bench_kernels --install{' --before ' + before if before else ''}`, {started}, at "
        f"{times['head']}: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"numba {_version('numba')}. Load average (1 min) before each command in the table; the machine was "
        "shared, so every figure is inflated, the warm ones alike.",
        "",
        f"**The install's warm-up** (`python -m explorer.kernels.warmup`, run by `scripts/install`) {warmup}",
        "",
        "**First compiled call in a second fresh clone** (another path, other mtimes) against a second call, "
        "each a fresh process (the tiered runs each start fresh local Dask workers):",
        "",
        "| command | cache | first wall s | first CPU s | warm wall s | warm CPU s | extra CPU s | first / warm CPU "
        "| load |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for label, cache in ((f"before ({before})", "empty, per clone (before)"), ("", "after the install's warm-up")):
        if label and not before:
            continue
        for run in INSTALL_RUNS:
            row = times[("before " if label else "") + " ".join(run[1:])]
            first, warm = row["first"], row["warm"]
            lines.append(f"| `gamegraph {' '.join(run)}` | {cache} | {first['wall']:.1f} | {first['cpu']:.1f} "
                         f"| {warm['wall']:.1f} | {warm['cpu']:.1f} | {first['cpu'] - warm['cpu']:.1f} "
                         f"| {first['cpu'] / warm['cpu']:.2f}× | {first['load']:.1f}, {warm['load']:.1f} |")
    return "\n".join(lines)


# -- the parent ---------------------------------------------------------------------------
def compile_times() -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {"NUMBA_CACHE_DIR": cache, "GAMEGRAPH_KERNELS_FROM": "0"}
        cold = spawn(["--compile", "chopsticks"], env)
        warm = spawn(["--compile", "chopsticks"], env)
    plain = spawn(["--compile", "chopsticks"], {"GAMEGRAPH_KERNELS_FROM": ""})
    return {"cold": cold, "warm": warm, "plain": plain}


def fmt_rate(count: float, seconds: float) -> str:
    rate = count / seconds if seconds > 0 else float("inf")
    return f"{rate / 1e6:.1f}M"


def gb(nbytes: int) -> str:
    return f"{nbytes / 1e9:.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (checks the script)")
    parser.add_argument("--no-write", action="store_true", help="print the tables only")
    parser.add_argument("--speed-up", nargs="*", metavar="SPEC", help="graphs for the speed-up table")
    parser.add_argument("--scaling", nargs="*", metavar="BASE:FINGERS", help="e.g. chopsticks:5 chopsticks:attack-only:10")
    parser.add_argument("--no-compile", action="store_true", help="skip the first-call measurement")
    parser.add_argument("--install", action="store_true",
                        help="only the first call in a fresh clone after the install's warm-up (issue 34)")
    parser.add_argument("--before", metavar="COMMIT", help="with --install: also a clone of COMMIT, cache empty")
    parser.add_argument("--user-cache", type=Path, metavar="DIR",
                        help="with --install: an XDG_CACHE_HOME the warm-up already filled (its run not timed here)")
    parser.add_argument("--child", nargs=2, metavar=("SPEC", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--compile", metavar="SPEC", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    if args.compile:
        print(json.dumps(compile_child(args.compile)))
        return
    if args.install:
        started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        from bench.readme import publish

        publish("bench_kernels_install", INSTALL_HEADING, install_text(install_times(args.before, args.user_cache), args.before,
                                                                        started), write=not args.no_write)
        return
    speed_specs = args.speed_up if args.speed_up is not None else QUICK_SPEED_UP if args.quick else SPEED_UP
    scaling = QUICK_SCALING if args.quick else SCALING
    if args.scaling is not None:
        scaling = {}
        for item in args.scaling:
            base, fingers = item.rsplit(":", 1)
            scaling.setdefault(base, []).append(int(fingers))
    loads = [os.getloadavg()[0]]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    compiled_runs: dict[str, dict] = {}

    def compiled(spec: str) -> dict:
        if spec not in compiled_runs:
            compiled_runs[spec] = spawn(["--child", spec, "compiled"])
            loads.append(os.getloadavg()[0])
            r = compiled_runs[spec]
            if "failed" in r:
                return r
            print(f"compiled {spec}: {r['positions']:,} positions, {r['moves']:,} moves, generate {r['generate']:.2f} s, "
                  f"solve {r['solve']:.2f} s, cycles {r['cycles']:.2f} s, peak {gb(r['peak_rss'])} GB", flush=True)
        return compiled_runs[spec]

    comp = None if args.no_compile else compile_times()
    print(f"compile: {comp}", flush=True)
    speed_rows = []
    for spec in speed_specs:
        fast = compiled(spec)
        slow = spawn(["--child", spec, "numpy"])
        loads.append(os.getloadavg()[0])
        if "failed" in slow or "failed" in fast:
            speed_rows.append((spec, slow, fast))
            continue
        print(f"numpy {spec}: generate {slow['generate']:.2f} s, solve {slow['solve']:.2f} s, "
              f"peak {gb(slow['peak_rss'])} GB", flush=True)
        if (slow["digest"], slow["optimal"]) != (fast["digest"], fast["optimal"]):
            raise SystemExit(f"{spec}: the numpy and compiled paths disagree: {slow} {fast}")
        speed_rows.append((spec, slow, fast))
    scaling_rows = []
    for base, fingers_list in scaling.items():
        for fingers in fingers_list:
            spec = f"{base}(fingers={fingers})"
            row = compiled(spec)
            if "failed" not in row:
                scaling_rows.append(row)

    lines = [
        f"`python -m bench.bench_kernels`, {started}: {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, numba {_version('numba')}, numpy {_version('numpy')}. "
        f"Load average during the run: {min(loads):.1f}–{max(loads):.1f} on {os.cpu_count()} CPUs"
        + (" — the machine was shared with other jobs, so every time here is inflated, the numpy baseline "
           "and the kernels alike (both ran in this same run)." if max(loads) > (os.cpu_count() or 1) else "."),
        "",
    ]
    if comp:
        lines += [
        "**First call.** `build('chopsticks')` (342 positions) in a fresh process, wall / CPU seconds "
        "including imports: "
        f"{comp['cold']['seconds']:.1f} / {comp['cold']['cpu']:.1f} s through the kernels with an empty numba "
        f"cache (every kernel compiled once, then cached), "
        f"{comp['warm']['seconds']:.2f} / {comp['warm']['cpu']:.2f} s through the kernels once the cache is "
        f"filled (importing numba, loading machine code), "
        f"{comp['plain']['seconds']:.2f} / {comp['plain']['cpu']:.2f} s on the default path, which keeps graphs "
        f"this small on plain numpy (numba {'loaded' if comp['plain']['numba'] else 'not loaded'}; "
        "explorer/algorithms/dispatch.py). The timed runs below load the cached kernels before the clock starts.",
        "",
        ]
    lines += [
        "**Speed-up over the numpy path**, end to end (generate + solve: predecessors, values, remoteness, "
        "optimal moves), each in its own process; values and remoteness agree on every position.",
        "",
        "| graph | positions | moves | numpy generate s | numpy solve s | numpy total s | compiled generate s "
        "| compiled solve s | compiled total s | speed-up total | speed-up solve | compiled generate moves/s "
        "| peak RSS numpy GB | peak RSS compiled GB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for spec, slow, fast in speed_rows:
        if "failed" in slow or "failed" in fast:
            which = "numpy" if "failed" in slow else "compiled"
            code = (slow if "failed" in slow else fast)["failed"]
            lines.append(f"| `{spec}` | {which} run killed (exit code {code}; -9 = out of memory on the shared "
                         "machine) | | | | | | | | | | | | |")
            continue
        st, ft = slow["generate"] + slow["solve"], fast["generate"] + fast["solve"]
        lines.append(
            f"| `{spec}` | {fast['positions']:,} | {fast['moves']:,} | {slow['generate']:.2f} | {slow['solve']:.2f} "
            f"| {st:.2f} | {fast['generate']:.2f} | {fast['solve']:.2f} | {ft:.2f} | {st / ft:.1f}× "
            f"| {slow['solve'] / fast['solve']:.1f}× | {fmt_rate(fast['moves'], fast['generate'])} "
            f"| {gb(slow['peak_rss'])} | {gb(fast['peak_rss'])} |")
    lines += [
        "",
        "**Scaling of the compiled path** (symmetry-reduced; solve includes building the predecessor arrays "
        "and the optimal-move flags; cycles = the SCC pass). CPU seconds are this process's own (user + system), "
        "the fairer measure on a shared machine. CPU ns per (position + move) and bytes per position "
        "and per move stay roughly flat as the graph grows by three orders of magnitude: the cost is O(V + E). "
        "Peak RSS is the whole process; graph RSS subtracts what the process held before generating "
        "(interpreter, libraries, loaded kernels). Generation also holds 8 bytes per code of the code space "
        "(2 × fingers⁴ codes) while it runs. Tiny graphs are dominated by fixed costs.",
        "",
        "| graph | positions | moves | generate s | generate moves/s | predecessors s | solve s | cycles s "
        "| total s | total CPU s | ns CPU per (V+E) | peak RSS GB | graph RSS GB | graph bytes per position "
        "| graph bytes per move |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in scaling_rows:
        total = r["generate"] + r["solve"] + r["cycles"]
        size = r["positions"] + r["moves"]
        graph_rss = r["peak_rss"] - r["base_rss"]
        total_cpu = r["generate_cpu"] + r["solve_cpu"] + r["cycles_cpu"]
        lines.append(
            f"| `{r['spec']}` | {r['positions']:,} | {r['moves']:,} | {r['generate']:.3f} "
            f"| {fmt_rate(r['moves'], r['generate'])} | {r['predecessors']:.3f} | {r['solve']:.3f} | {r['cycles']:.3f} "
            f"| {total:.3f} | {total_cpu:.3f} | {1e9 * total_cpu / size:.0f} | {gb(r['peak_rss'])} | {gb(graph_rss)} "
            f"| {graph_rss / r['positions']:.0f} | {graph_rss / max(r['moves'], 1):.1f} |")
    text = "\n".join(lines)
    from bench.readme import publish

    publish("bench_kernels", HEADING, text, write=not args.no_write)


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    main()
