"""The implicit-graph mode at scale: Dodgem 5x5 (about 2.4 x 10^8 indices) and big Chopsticks.

    python -m bench.bench_implicit                          # the default list below
    python -m bench.bench_implicit --specs dodgem:5x5       # one game (results are merged)
    python -m bench.bench_implicit --edge --specs chopsticks:standard(fingers=20)

Each game is solved in a child process (`--one`), so its peak RSS is its own
(getrusage of that process; the value and remoteness arrays are file-backed
memory maps and count when resident). With `--edge` the child also generates
and solves the edge graph without symmetry (explorer.solved.build) and checks
that every reachable position has the same value and remoteness in both.
Results are kept in bench/implicit_results.json (merged by spec) and the table
is written into bench/README.md between the `bench_implicit` markers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RESULTS = Path(__file__).with_name("implicit_results.json")
HEADING = "Implicit-graph mode (`bench_implicit.py`)"
DEFAULT_SPECS = ["dodgem:3x3", "dodgem:4x4", "dodgem:5x5", "chopsticks:standard(fingers=100)"]
# The start's value as published, with the source (see explorer/games/dodgem.py).
PUBLISHED = {
    "dodgem(size=3)": ("win", "Winning Ways, ch. 22: a first-player win"),
    "dodgem(size=4)": ("draw", "desJardins 1996: never ends with perfect play"),
    "dodgem(size=5)": ("draw", "desJardins 1996: never ends with perfect play"),
}


def run_one(spec: str, edge: bool, folder: str | None) -> dict:
    from explorer import implicit
    from explorer.games import parse_spec

    game = parse_spec(spec)
    began = time.perf_counter()
    result = implicit.solve(game, Path(folder) if folder else None)
    seconds = time.perf_counter() - began
    meta = result.meta
    row = {"spec": spec, "id": game.id, "index_space": meta["index_space"], "positions": meta["positions"],
           "counts": meta["counts"], "start": meta["start"], "max_remoteness": meta["max_remoteness"],
           "implicit_seconds": round(seconds, 2), "solve_seconds": meta["seconds"]["solve"],
           "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
           "cpu_seconds": round(sum(os.times()[:2]), 1)}
    if edge:
        from explorer.solved import build

        began = time.perf_counter()
        solved = build(game, symmetry=False)
        row["edge_seconds"] = round(time.perf_counter() - began, 2)
        row["edge_positions"], row["edge_moves"] = solved.graph.num_positions, solved.graph.num_moves
        import numpy as np

        if solved.graph.codes is not None and game.code_space() == game.index_space():
            index = np.array([game.rank(game.decode(int(c))) for c in solved.graph.codes[:1]])  # same encoding?
            assert int(index[0]) == int(solved.graph.codes[0])
            same = (np.asarray(result.values)[solved.graph.codes] == solved.solution.value).all() and \
                   (np.asarray(result.remoteness_array)[solved.graph.codes] == solved.solution.remoteness).all()
        else:
            same = all(result.value(solved.graph.position(v)) == solved.value(v) and
                       result.remoteness(solved.graph.position(v)) == solved.remoteness(v)
                       for v in range(solved.graph.num_positions))
        row["agree"] = bool(same)
    return row


def table(rows: list[dict]) -> str:
    load = os.getloadavg()[0]
    lines = [f"`python -m bench.bench_implicit` on {os.cpu_count()} CPUs shared with other jobs "
             f"(load average {load:.1f} at the end), Python {platform.python_version()}. "
             "Times are wall-clock and noisy for that reason.", "",
             "| game | indices | legal positions | start | value | published | max remoteness | implicit s (wall) | CPU s | peak RSS MB | bytes/index | edge s (reachable, moves) | agree |",
             "|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        published = PUBLISHED.get(r["id"])
        pub = f"{published[0]} ({published[1]})" if published else "–"
        edge = (f"{r['edge_seconds']} ({r['edge_positions']:,}, {r['edge_moves']:,})" if "edge_seconds" in r else "–")
        value = r["start"]["value"] + ("" if r["start"]["remoteness"] is None else f" in {r['start']['remoteness']}")
        key = r["start"]["key"].replace("|", "\\|")  # a pipe would end the table cell
        lines.append(f"| `{r['spec']}` | {r['index_space']:,} | {r['positions']:,} | `{key}` | {value} | {pub} "
                     f"| {r['max_remoteness']} | {r['implicit_seconds']} | {r.get('cpu_seconds', '–')} | {r['peak_rss_mb']:,} "
                     f"| {r['peak_rss_mb'] * 2**20 / r['index_space']:.1f} | {edge} | {r.get('agree', '–')} |")
    lines += ["", "implicit s = `explorer.implicit.solve`: numba compilation (seconds), the compiled retrograde "
              "over every index (value int8, remoteness int16, a uint8 counter, an int32 queue entry) and the "
              "value file written under the state dir; CPU s = user + system time of the child up to then "
              "(the honest figure on a shared machine). Peak RSS is the child process's own, taken before "
              "the edge build; bytes/index = peak RSS / indices (the interpreter's ~170 MB dominate small "
              "games). edge s = `explorer.solved.build(symmetry=False)` (generate, "
              "solve, cycles) in the same child; agree = every reachable position has the same value and remoteness."]
    notes = [f"- `{r['spec']}`: {r['note']}" for r in rows if r.get("note")]
    if notes:
        lines += ["", "Notes:"] + notes
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--specs", nargs="+", default=DEFAULT_SPECS)
    parser.add_argument("--edge", action="store_true", help="also build the edge graph and compare")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help="where the value files go (default: the state dir)")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.edge, args.folder)))
        return
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    for spec in args.specs:
        command = [sys.executable, "-m", "bench.bench_implicit", "--one", spec] + (["--edge"] if args.edge else [])
        if args.folder:
            command += ["--folder", str(Path(args.folder) / spec.replace(":", "-"))]
        output = subprocess.run(command, check=True, capture_output=True, text=True,
                                cwd=Path(__file__).resolve().parents[1]).stdout
        row = json.loads(output.strip().splitlines()[-1])
        print(json.dumps(row), flush=True)
        results[spec] = row
        if not args.no_write:
            RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    if not args.no_write:
        from bench.readme import publish

        publish("bench_implicit", HEADING, table(list(results.values())))


if __name__ == "__main__":
    main()
