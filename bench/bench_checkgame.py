"""`gamegraph check-game` on every shipped game and preset, as tests/explorer/test_checkgame.py runs it.

Run: python -m bench.bench_checkgame [--limit N] [--profile SPEC] [SPEC ...]   (prints Markdown; writes nothing)

One row per spec: wall and CPU seconds of `check_game(game, limit)` (limit 100,000 as the test), the
reachable positions, and whether it passed or was refused as too large; the load average before and
after. The compiled kernels come from numba's on-disk cache (warm after the install); run it twice
if the first run compiled. With --profile SPEC, a cProfile of that spec's check (top 25 by
cumulative time) instead.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")


def measure(spec: str, limit: int) -> tuple[float, float, str]:
    from explorer.checkgame import check_game
    from explorer.core.errors import GraphTooLarge
    from explorer.games import parse_spec

    wall, cpu = time.perf_counter(), time.process_time()
    try:
        report = check_game(parse_spec(spec), limit=limit)
        result = f"{report.positions:,}, " + ("ok" if report.ok else "FAIL")
    except GraphTooLarge:
        result = f"over {limit:,}: refused"
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("specs", nargs="*")
    parser.add_argument("--limit", type=int, default=100_000)
    parser.add_argument("--profile")
    args = parser.parse_args()
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(measure, args.profile, args.limit)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return
    from explorer.games import shipped_specs

    specs = args.specs or shipped_specs()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| spec | wall s | CPU s | positions, result |")
    print("|---|---:|---:|---|")
    total_wall = total_cpu = 0.0
    for spec in specs:
        wall, cpu, result = measure(spec, args.limit)
        total_wall, total_cpu = total_wall + wall, total_cpu + cpu
        print(f"| {spec} | {wall:.2f} | {cpu:.2f} | {result} |", flush=True)
    print(f"| **all {len(specs)}** | **{total_wall:.1f}** | **{total_cpu:.1f}** | |")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
