"""Graph generation rate (moves per second of CPU), this tree against another, in fresh processes.

    python -m bench.bench_generate                                    # chopsticks(fingers=40, 60), 3 rounds
    python -m bench.bench_generate --other /path/to/a/checkout        # before/after, alternating
    python -m bench.bench_generate --specs "chopsticks(fingers=60)" --rounds 5 --repeat 2
    python -m bench.bench_generate --threads 1 2                      # one core against two, alternating

The machine's memory speed drifts 2-3x with what else runs (bench/README, "The machine's own
speed drifts"), and generation is memory-bound, so one figure means little: each round runs every
tree in its own fresh process, one after the other, with a calibration (a 16M random gather from
1 GiB and a 1 GiB streaming multiply, CPU seconds) and the load average beside it. A child warms
the kernels on a tiny game, then times `explorer.graph.generate(game, compiled=True)` (CPU =
user + system of the call, and wall) `--repeat` times. Every tree must give the same graph
(a digest of its arrays is compared, across thread counts too: NUMBA_NUM_THREADS of each child).
Prints a markdown table; writes nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPECS = ["chopsticks(fingers=40)", "chopsticks(fingers=60)"]


def child(spec: str, repeat: int) -> list[dict]:
    """Runs in a fresh process whose PYTHONPATH puts the measured tree first."""
    import resource

    from explorer.games import parse_spec
    from explorer.graph import generate

    generate(parse_spec("chopsticks(fingers=5)"), max_positions=10 ** 10, compiled=True)  # load the kernels
    game = parse_spec(spec)
    rows = []
    for _ in range(repeat):
        r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        graph = generate(game, max_positions=10 ** 10, compiled=True)
        t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
        digest = hashlib.sha1()
        for array in (graph.codes, graph.succ_indptr, graph.succ_indices, graph.edge_label, graph.terminal):
            digest.update(array.tobytes())
        rows.append(dict(tree=str(Path(sys.modules["explorer"].__file__).parents[1]), wall=t1 - t0,
                         user=r1.ru_utime - r0.ru_utime, system=r1.ru_stime - r0.ru_stime,
                         moves=graph.num_moves, positions=graph.num_positions, digest=digest.hexdigest()[:16]))
        del graph
    return rows


def calibrate() -> dict:
    """CPU seconds of a memory-latency-bound gather and a memory-bandwidth-bound stream (numpy)."""
    import numpy as np

    data = np.arange(1 << 27, dtype=np.int64)  # 1 GiB
    where = np.random.default_rng(1).integers(0, len(data), 1 << 24)
    data[where].sum()
    t = time.process_time()
    data[where].sum()
    gather = time.process_time() - t
    t = time.process_time()
    (data * 3).sum()
    return dict(gather=gather, stream=time.process_time() - t)


def run_child(tree: Path, args: list[str], threads: int | None = None) -> object:
    env = dict(os.environ, PYTHONPATH=str(tree), GAMEGRAPH_PROGRESS="0")
    if threads:
        env["NUMBA_NUM_THREADS"] = str(threads)
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", nargs="+", default=SPECS)
    parser.add_argument("--other", type=Path, help="another checkout to measure, alternating with this one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=1, help="generations per fresh process")
    parser.add_argument("--threads", type=int, nargs="+", default=[0],
                        help="numba threads of each child, alternating (0: numba's default, one per core)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--calibrate", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        print(json.dumps(child(options.child[0], int(options.child[1]))))
        return
    if options.calibrate:
        print(json.dumps(calibrate()))
        return
    trees = [("other", options.other.resolve()), ("this", ROOT)] if options.other else [("this", ROOT)]
    for tree in trees:
        if not (tree[1] / "explorer" / "graph.py").is_file():
            sys.exit(f"{tree[1]} is no gamegraph checkout (no explorer/graph.py)")
    if any(t < 0 for t in options.threads):
        sys.exit("--threads takes 0 (numba's default) or a positive number of threads")
    print("| time | load | spec | tree | threads | round | wall s | user s | sys s | CPU moves/s | wall moves/s "
          "| gather s | stream s | digest |")
    print("|---|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
    digests: dict[str, set[str]] = {}
    for spec in options.specs:
        for round_ in range(options.rounds):
            for (name, tree), threads in [(tree, threads) for tree in trees for threads in options.threads]:
                calibration = run_child(ROOT, ["--calibrate"])
                load = os.getloadavg()[0]
                for row in run_child(tree, ["--child", spec, str(options.repeat)], threads):
                    cpu = row["user"] + row["system"]
                    digests.setdefault(spec, set()).add(row["digest"])
                    print(f"| {time.strftime('%H:%M:%S')} | {load:.1f} | `{spec}` | {name} "
                          f"| {threads or 'default'} | {round_} "
                          f"| {row['wall']:.2f} | {row['user']:.2f} | {row['system']:.2f} "
                          f"| {row['moves'] / cpu / 1e6:.1f}M | {row['moves'] / row['wall'] / 1e6:.1f}M "
                          f"| {calibration['gather']:.2f} | {calibration['stream']:.2f} | {row['digest']} |", flush=True)
    differing = [spec for spec, seen in digests.items() if len(seen) > 1]
    if differing:
        sys.exit(f"the trees gave different graphs for {', '.join(differing)}")


if __name__ == "__main__":
    main()
