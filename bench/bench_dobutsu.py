"""Dōbutsu shōgi's compiled kernels: CPU time per call, and where a reduced solve's time goes.

    python -m bench.bench_dobutsu                      # kernels on the full game, a reduced solve
    python -m bench.bench_dobutsu --quick --no-write
    python -m bench.bench_dobutsu --baseline old_kernels --no-write   # against a copy of older kernels

The whole solve (`gamegraph solve dobutsu --implicit`) spends its time in three kernels, each
run over the folded ranking (1,567,925,964 indices): `move_count` once per index and
`terminal` once per finished one (the first pass, on every core), `predecessors` once per
decided win or loss (the queue, one core). Each kernel is timed here on the same random
indices of the full game, in a compiled loop (no Python call in between), as CPU time of
the thread (time.thread_time): the machine may be shared, and wall time would measure the
others. `--baseline MODULE` times another kernels module (an importable copy of an older
explorer/games/dobutsu/kernels.py with its ranking) on the same indices, and checks that its
results are the same.

The reduced solve (default dobutsu(giraffes=1,elephants=0,chicks=1), 15,991,668 folded
indices) is the implicit solve's compiled loop called directly, first for the first pass
alone (budget 0), then for the queue: the CPU time of each part (all threads) and the
number of queue entries, from which the whole solve's CPU time is estimated.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HEADING = "Dōbutsu shōgi kernels (`bench_dobutsu.py`)"
FULL = "dobutsu"
REDUCED = "dobutsu(giraffes=1,elephants=0,chicks=1)"
KERNELS = ("unrank", "rank", "move_count", "terminal", "predecessors", "successors")


def _loops():
    """The compiled timing loops, each taking the kernel as an argument (compiled per kernel)."""
    from numba import njit

    @njit
    def unrank_all(unrank, ctx, indices, boards, hands, movers):
        for k in range(len(indices)):
            movers[k] = unrank(ctx, indices[k], boards[k], hands[k])
        return movers.sum()

    @njit
    def rank_all(rank, ctx, boards, hands, movers):
        total = 0
        for k in range(len(movers)):
            total += rank(ctx, movers[k], boards[k], hands[k])
        return total

    @njit
    def per_index(kernel, ctx, indices):
        total = 0
        for i in indices:
            total += kernel(ctx, i)
        return total

    @njit
    def per_index_out(kernel, ctx, indices, out):
        total = 0
        for i in indices:
            total += kernel(ctx, i, out)
        return total

    @njit
    def finished(terminal, ctx, indices):
        over = 0
        for i in indices:
            over += 1 if terminal(ctx, i) >= 0 else 0
        return over

    return unrank_all, rank_all, per_index, per_index_out, finished


def time_kernels(module, indices, repeat: int) -> tuple[dict[str, float], dict[str, int], float]:
    """(microseconds of CPU per call, a checksum of the results, the share of finished indices)
    of each kernel of `module` (a kernels module) over `indices` of the folded full game."""
    import numpy as np

    from explorer.games import parse_spec

    unrank_all, rank_all, per_index, per_index_out, finished = _loops()
    kernels = module.kernels(parse_spec(FULL), True)
    ctx, n = kernels.ctx, len(indices)
    boards, hands, movers = np.zeros((n, 12), np.int64), np.zeros((n, 6), np.int64), np.zeros(n, np.int64)
    out = np.empty(max(kernels.max_moves, kernels.max_unmoves), np.int64)
    runs = {
        "unrank": lambda: unrank_all(module._unrank, ctx, indices, boards, hands, movers),
        "rank": lambda: rank_all(module._rank, ctx, boards, hands, movers),  # the boards unrank filled
        "move_count": lambda: per_index(kernels.move_count, ctx, indices),
        "terminal": lambda: per_index(kernels.terminal, ctx, indices),
        "predecessors": lambda: per_index_out(kernels.predecessors, ctx, indices, out),
        "successors": lambda: per_index_out(kernels.successors, ctx, indices, out),
    }
    micros, checks = {}, {}
    for name in KERNELS:
        checks[name] = int(runs[name]())  # compiles, and warms the caches
        best = float("inf")
        for _ in range(repeat):
            began = time.thread_time()
            runs[name]()
            best = min(best, time.thread_time() - began)
        micros[name] = best / n * 1e6
    return micros, checks, finished(kernels.terminal, ctx, indices) / n


def profile_solve(spec: str, module) -> dict:
    """The reduced game's implicit solve with the kernels of `module`, its first pass and its queue
    timed apart (CPU of all threads)."""
    import numpy as np

    from explorer.games import parse_spec
    from explorer.kernels.retrograde import CODE_MASK, LOSS, MORE, TIE, WIN, new_state, no_seeds, tier_wrapper

    game = parse_spec(spec)
    kernels = module.kernels(game)
    solve = tier_wrapper(kernels)
    seeds, runs = no_seeds()
    small = np.empty(64, dtype=np.uint16)  # compile (or load) the loop first: not part of the solve
    solve(kernels.ctx, kernels.max_unmoves, small, np.empty(64, np.int32), new_state(), 0, 0, seeds, runs)
    cells, queue, state = np.empty(kernels.size, np.uint16), np.empty(kernels.size, np.int32), new_state()
    began = time.process_time()
    status = solve(kernels.ctx, kernels.max_unmoves, cells, queue, state, 0, 0, seeds, runs)
    first_pass = time.process_time() - began
    assert status == MORE, status
    began = time.process_time()
    status = solve(kernels.ctx, kernels.max_unmoves, cells, queue, state, 1 << 62, 0, seeds, runs)
    rest = time.process_time() - began
    assert status == 0, status
    codes = cells & CODE_MASK  # every decided win, loss or tie went through the queue once
    entries = int(np.count_nonzero((codes == WIN) | (codes == LOSS) | (codes == TIE)))
    return {"spec": spec, "indices": kernels.size, "first_pass_cpu": first_pass, "queue_cpu": rest,
            "queue_entries": entries, "digest": hashlib.sha1(cells.tobytes()).hexdigest()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=500_000, help="random indices of the full game")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per kernel (the fastest counts)")
    parser.add_argument("--baseline", help="another kernels module to time on the same indices")
    parser.add_argument("--solve", default=REDUCED, help="the reduced game whose solve is profiled ('' for none)")
    parser.add_argument("--quick", action="store_true", help="50,000 samples, no reduced solve")
    parser.add_argument("--no-write", action="store_true", help="print only, leave bench/README.md alone")
    args = parser.parse_args()
    import numpy as np

    from explorer.games import parse_spec

    samples = 50_000 if args.quick else args.samples
    half = parse_spec(FULL).index_space() // 2
    indices = np.random.default_rng(1).integers(0, half, samples).astype(np.int64)
    modules = {"current": importlib.import_module("explorer.games.dobutsu.kernels")}
    if args.baseline:
        try:
            modules = {"baseline": importlib.import_module(args.baseline), **modules}
        except ImportError as error:
            raise SystemExit(f"bench_dobutsu: cannot import the baseline {args.baseline!r}: {error}")
    results = {name: time_kernels(module, indices, args.repeat) for name, module in modules.items()}
    load = os.getloadavg()
    if args.baseline and results["baseline"][1] != results["current"][1]:
        raise SystemExit(f"the baseline's results differ: {results['baseline'][1]} != {results['current'][1]}")
    lines = [f"CPU time per call (µs, thread time, fastest of {args.repeat}) over {samples:,} random indices of the "
             f"folded full game; load average {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f} "
             f"({os.cpu_count()} cores)", "",
             "| kernel | " + " | ".join(results) + (" | speed-up" if args.baseline else "") + " |",
             "|---|" + "---:|" * (len(results) + (1 if args.baseline else 0))]
    for kernel in KERNELS:
        row = [f"{results[name][0][kernel]:.3f}" for name in results]
        if args.baseline:
            row.append(f"{results['baseline'][0][kernel] / results['current'][0][kernel]:.1f}x")
        lines.append(f"| {kernel} | " + " | ".join(row) + " |")
    micros, _, over = results["current"]
    first_pass = micros["move_count"] + over * micros["terminal"]
    lines += ["", f"Finished positions: {over:.1%} of the sample. First pass: move_count + {over:.2f} x terminal "
              f"= {first_pass:.3f} µs an index, {first_pass * half / 1e6:,.0f} s of CPU over {half:,} indices "
              f"(on every core); the queue: {micros['predecessors']:.3f} µs a decided position, at most "
              f"{micros['predecessors'] * half / 1e6:,.0f} s (one core), plus the cell updates."]
    if args.solve and not args.quick:
        solved = {name: profile_solve(args.solve, module) for name, module in modules.items()}
        if len({row["digest"] for row in solved.values()}) > 1:
            raise SystemExit(f"the reduced solve's cells differ: {solved}")
        for name, row in solved.items():
            per_entry = row["queue_cpu"] / max(row["queue_entries"], 1) * 1e6
            lines += ["", f"Reduced solve {row['spec']} ({row['indices']:,} folded indices), {name} kernels: first "
                      f"pass {row['first_pass_cpu']:.1f} s CPU ({row['first_pass_cpu'] / row['indices'] * 1e6:.3f} µs "
                      f"an index), queue {row['queue_cpu']:.1f} s CPU for {row['queue_entries']:,} entries "
                      f"({per_entry:.3f} µs an entry: un-moves and cell updates)."]
    from bench.readme import publish

    publish("bench_dobutsu", HEADING, "\n".join(lines), write=not args.no_write)


if __name__ == "__main__":
    main()
