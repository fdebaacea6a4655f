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

`--layout SPEC` measures instead how the tasks of a tiered solve lie on a LocalCluster
(`--workers`, default 2): the same solve with loop-free tiers cut into chunks (the default)
and in one task per tier, each in a fresh process, from Dask's task stream: tasks, the most
workers busy at once, the seconds with every worker busy, each worker's busy seconds, beside
wall and CPU time. Printed only (bench/README.md is not touched).

    python -m bench.bench_tiered --layout "connect4(width=6,height=4)"

`--loopy-tier SPEC TIER` measures one tier of a tiered game solved by the loopy path (the retrograde
loop, its child tiers' decided positions entering as seed windows) although the game declares it
loop-free: the game with its `loop_free` declaration dropped (`without_loop_free`, bench- and test-only;
the shipped game keeps its meaning). The tier's descendants and the tier itself are first solved the
shipped way (the reference); then the tier alone by the loopy path in a fresh process, twice (the first
solve loads the compiled code): the second one's wall and CPU time, the process's peak RSS (the memory-mapped
child pages it read included) and the solve's peak anonymous memory over the level before it (sampled: the
cells, queue and seeds without the children), in bytes per position of the tier; and
whether its cells equal the reference's on every index. Printed only.

    python -m bench.bench_tiered --loopy-tier teeko 7
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
    r = measured_solve(spec, f"--{mode}", Path(tempfile.mkdtemp(prefix="home-", dir=scratch)))
    meta = r["meta"]
    folder = Path(meta.get("folder") or meta.get("value_file"))
    on_disk = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    size = meta["index_space"]
    start = meta["start"]
    return {**r, "workload": workload, "indices": size, "peak_per_index": r["peak_mb"] * 2 ** 20 / size,
            "disk_per_index": on_disk / size,
            "start": f"{start['value']}" + ("" if start["remoteness"] is None else f" in {start['remoteness']}"),
            "tiers": len(meta["tiers"]["names"]) if "tiers" in meta else 1}


def measured_solve(spec: str, mode: str, home: Path) -> dict:
    """`gamegraph solve SPEC MODE --format json` in a child process with state folder `home`: its meta,
    wall time, CPU time (user + system of it and every process it started), the largest peak RSS in MB,
    and the load average before and after. Also bench_dobutsu_solve's."""
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"}
    command = [sys.executable, "-c", MEASURED, sys.executable, "-m", "explorer.cli", "solve", spec, mode,
               "--format", "json"]
    load = os.getloadavg()[0]
    began = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - began
    if done.returncode:
        raise SystemExit(f"bench: solve {spec} {mode} failed: {done.stderr.strip().splitlines()[-1:]}")
    out, usage = done.stdout.rsplit("\n", 2)[0], done.stdout.rsplit("\n", 2)[1]
    cpu, maxrss = (float(x) for x in usage.split()[1:])
    return {"meta": json.loads(out), "wall": wall, "cpu": cpu, "peak_mb": maxrss / 1024, "load": load,
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


# The child of a --layout run: the solve on a fresh LocalCluster inside Dask's task stream, the
# stream's summary printed as JSON on the last line. argv: spec, workers, chunk ("none": one task a tier).
LAYOUT_CHILD = """
import json, sys, time
from distributed import get_task_stream
from explorer import tiered
from explorer.games import parse_spec

if __name__ == "__main__":
    spec, workers, chunk = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    chunk = 1 << 40 if chunk == "none" else None if chunk == "auto" else int(chunk)
    client = tiered._client(None, workers)
    began = time.perf_counter()
    with get_task_stream(client) as stream:
        values = tiered.solve(parse_spec(spec), client=client, forward_chunk=chunk, compress=False)
    wall = time.perf_counter() - began
    cluster = client.cluster
    client.close()
    cluster.close()
    spans = [(s["start"], s["stop"], t["worker"], t["key"]) for t in stream.data for s in t["startstops"]
             if s["action"] == "compute"]
    # Each worker's busy time as disjoint intervals first: Dask shifts a worker's times by its estimated
    # clock offset, so the end of one task and the start of the next on one worker may seem to overlap.
    merged = []
    for worker in {w for _, _, w, _ in spans}:
        for a, b in sorted((a, b) for a, b, w, _ in spans if w == worker):
            if merged and merged[-1][2] == worker and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b, worker])
    events = sorted([(a, 1) for a, _, _ in merged] + [(b, -1) for _, b, _ in merged])
    running, most, full, last = 0, 0, 0.0, None
    for when, step in events:
        if running >= workers and last is not None:
            full += when - last
        running += step
        most = max(most, running)
        last = when
    busy = {}
    for a, b, worker, _ in spans:
        busy[worker] = busy.get(worker, 0.0) + b - a
    print(json.dumps({"wall": wall, "tasks": len(stream.data), "chunks": sum("-chunk-" in k for *_, k in spans),
                      "most_at_once": most, "all_busy_s": full, "busy_s": sorted(busy.values()),
                      "start": str(values.meta["start"]["value"])}))
"""


def layout(spec: str, workers: int, scratch: Path, chunk: int | None = None) -> str:
    """The task layout of the same solve with chunked loop-free tiers (`chunk` positions a chunk, default
    tiered.forward_ranges's choice) and with one task a tier (a table)."""
    rows = ["| loop-free tiers | wall s | CPU s | tasks (chunks) | most workers busy at once | s with all busy | "
            "busy s per worker | load before / after |", "|---|---:|---:|---|---:|---:|---|---|"]
    chunked = ("auto", "in chunks (default)") if chunk is None else (str(chunk), f"in chunks of {chunk:,}")
    for chunk, what in (chunked, ("none", "one task a tier")):
        home = Path(tempfile.mkdtemp(prefix="home-", dir=scratch))
        env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"}
        command = [sys.executable, "-c", MEASURED, sys.executable, "-c", LAYOUT_CHILD, spec, str(workers), chunk]
        load = os.getloadavg()[0]
        done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode:
            raise SystemExit(f"bench_tiered: --layout {spec} failed: {done.stderr.strip().splitlines()[-1:]}")
        lines = [line for line in done.stdout.splitlines() if line.strip()]
        cpu = float(lines[-1].split()[1])
        r = json.loads(lines[-2])
        rows.append(f"| {what} | {r['wall']:.1f} | {cpu:.1f} | {r['tasks']} ({r['chunks']}) | {r['most_at_once']} | "
                    f"{r['all_busy_s']:.1f} | {' / '.join(f'{b:.1f}' for b in r['busy_s'])} | "
                    f"{load:.2f} / {os.getloadavg()[0]:.2f} |")
    return (f"`{spec}` on a LocalCluster of {workers} worker processes, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores:\n\n" + "\n".join(rows)
            + "\n\nwall: the solve (cluster started before, files left uncompressed); CPU: the whole child process "
              "and its workers.")


def without_loop_free(game):
    """The same game with its tiers' `loop_free` declaration dropped (bench- and test-only): every tier is
    then solved by the retrograde loop, a tier with children through seed windows. A shallow copy whose
    `tiers` answers the declaration without loop_free; the shipped game is untouched."""
    import copy

    declared = game.tiers()
    variant = copy.copy(game)
    variant.tiers = lambda: declared._replace(loop_free=())
    return variant


# The child of a --loopy-tier run. argv: spec, tier, folder, mode ("reference": the tier's descendants and
# the tier the shipped way, each tier's seconds; "loopy": the tier alone by the loopy path). Prints JSON last.
LOOPY_CHILD = """
import json, resource, sys, threading, time
from explorer import tiered
from explorer.games import parse_spec
from bench.bench_tiered import without_loop_free

def anonymous_kb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("RssAnon:"))

if __name__ == "__main__":
    spec, tier, folder, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    game = parse_spec(spec)
    tiers = tiered.tiers_of(game)
    if mode == "reference":
        needed, stack = set(), [tier]
        while stack:
            t = stack.pop()
            if t not in needed:
                needed.add(t)
                stack += tiers.children[t]
        seconds = {}
        for t in [t for t in tiered.check_tiers(tiers, game.index_space()) if t in needed]:
            seconds[t] = tiered.solve_tier(game, t, folder)["seconds"]
        print(json.dumps({"seconds": seconds}))
    else:
        game = without_loop_free(game)
        # A first solve of the tier into a scratch folder loads every compiled function (a warm worker
        # has them): the measured solve's anonymous memory is then the tier's own, not numba's.
        import os, tempfile
        with tempfile.TemporaryDirectory(dir=folder) as warm:
            for child in tiers.children[tier]:
                os.link(tiered._tier_path(folder, child), tiered._tier_path(warm, child))
            tiered.solve_tier(game, tier, warm)
        peak, stop = [anonymous_kb()], threading.Event()
        def sample():
            while not stop.wait(0.05):
                peak[0] = max(peak[0], anonymous_kb())
        sampler = threading.Thread(target=sample, daemon=True)
        before = anonymous_kb()
        sampler.start()
        cpu, began = time.process_time(), time.perf_counter()
        done = tiered.solve_tier(game, tier, folder)
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
        stop.set()
        sampler.join()
        print(json.dumps({"wall": wall, "cpu": cpu, "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                          "anonymous_kb": peak[0], "anonymous_before_kb": before, "done": done}))
"""


def loopy_tier(spec: str, tier: int, scratch: Path) -> str:
    """Tier `tier` of the game solved by the loopy path (`without_loop_free`) against the shipped path: time,
    peak memory in bytes per position of the tier, and whether the cells agree on every index (a table)."""
    import numpy as np

    from explorer import tiered
    from explorer.games import parse_spec

    game = parse_spec(spec)
    tiers = tiered.tiers_of(game)
    positions = tiers.offsets[tier + 1] - tiers.offsets[tier]
    reference, loopy = scratch / "reference", scratch / "loopy"
    reference.mkdir()
    loopy.mkdir()
    env = {**os.environ, "GAMEGRAPH_HOME": str(scratch / "home"), "GAMEGRAPH_PROGRESS": "0"}

    def child(folder: Path, mode: str) -> dict:
        done = subprocess.run([sys.executable, "-c", LOOPY_CHILD, spec, str(tier), str(folder), mode], env=env,
                              cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode:
            raise SystemExit(f"bench_tiered: --loopy-tier {spec} {tier} ({mode}) failed: "
                             f"{done.stderr.strip().splitlines()[-1:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    load_before = os.getloadavg()
    shipped = child(reference, "reference")
    children = tiers.children[tier]
    for c in children:  # the same child files, read-only
        os.link(tiered._tier_path(reference, c), tiered._tier_path(loopy, c))
    load_loopy = os.getloadavg()
    r = child(loopy, "loopy")
    load_after = os.getloadavg()
    ours, theirs = tiered._open_tier(loopy, tier), tiered._open_tier(reference, tier)
    differ = sum(int(np.count_nonzero(np.asarray(ours[a:a + (1 << 24)]) != np.asarray(theirs[a:a + (1 << 24)])))
                 for a in range(0, positions, 1 << 24))
    child_positions = sum(tiers.offsets[c + 1] - tiers.offsets[c] for c in children)
    decided = 0
    for c in children:
        codes = tiered._summarize(tiered._open_tier(reference, c)).codes
        decided += codes[0] + codes[3] + codes[2]  # loss, win, tie: the seeds
    capacity = tiered.seed_window_capacity(positions)
    capacity = max(capacity, -(-decided // tiered.SEED_WINDOW_PASSES))
    anonymous = (r["anonymous_kb"] - r["anonymous_before_kb"]) * 1024
    load = lambda l: " / ".join(f"{x:.2f}" for x in l)  # noqa: E731
    rows = [f"`{spec}` tier {tier} ({tiers.names[tier]}), {positions:,} positions, solved by the loopy path "
            f"(`loop_free` dropped) from its child tier(s) {', '.join(f'{c} ({tiers.names[c]})' for c in children)} "
            f"({child_positions:,} positions, {decided:,} decided: {decided:,} seeds in windows of {capacity:,}, "
            f"{-(-decided // capacity) if decided else 0} window(s)), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}:",
            "",
            "| figure | value |", "|---|---|",
            f"| shipped path, seconds per tier (descendants first) | "
            f"{', '.join(f'{t}: {s:.1f}' for t, s in shipped['seconds'].items())} |",
            f"| loopy path: wall / CPU s | {r['wall']:.1f} / {r['cpu']:.1f} |",
            f"| peak RSS (child pages read included) | {r['maxrss_kb'] / 1024:,.0f} MB, "
            f"{r['maxrss_kb'] * 1024 / positions:.2f} bytes a position of the tier |",
            f"| peak anonymous memory added by the solve (sampled every 50 ms) | {anonymous / 2**20:,.0f} MB, "
            f"{anonymous / positions:.2f} bytes a position of the tier |",
            f"| cells different from the shipped path's | {differ:,} of {positions:,} |",
            f"| load average (1/5/15 min) before / before the loopy solve / after | {load(load_before)}; "
            f"{load(load_loopy)}; {load(load_after)} |"]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workloads", nargs="+", default=DEFAULT_WORKLOADS, metavar="MODE:SPEC")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    parser.add_argument("--layout", metavar="SPEC", help="the task layout of a tiered solve, chunked and not (printed)")
    parser.add_argument("--workers", type=int, default=2, help="the LocalCluster's workers for --layout")
    parser.add_argument("--chunk", type=int, help="positions a chunk for --layout (default: the solver's choice)")
    parser.add_argument("--loopy-tier", nargs=2, metavar=("SPEC", "TIER"),
                        help="one declared loop-free tier solved by the loopy path, against the shipped path (printed)")
    args = parser.parse_args(argv)
    if args.loopy_tier:
        spec, tier = args.loopy_tier
        with tempfile.TemporaryDirectory(prefix="bench-tiered-") as scratch:
            print(loopy_tier(spec, int(tier), Path(scratch)))
        return
    if args.layout:
        with tempfile.TemporaryDirectory(prefix="bench-tiered-") as scratch:
            print(layout(args.layout, args.workers, Path(scratch), args.chunk))
        return
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with tempfile.TemporaryDirectory(prefix="bench-tiered-") as scratch:
        results = [run(w, Path(scratch)) for w in args.workloads]
    from bench.readme import publish

    publish("bench_tiered", HEADING, table(results, started), write=not args.no_write)


if __name__ == "__main__":
    main()
