"""Dodgem n x n: a plain C retrograde solver (the yardstick of issue 20) against gamegraph's implicit solve.

    python -m bench.bench_c_baseline                        # 3x3, 4x4 and 5x5, both sides, compared
    python -m bench.bench_c_baseline --sizes 5 --gamegraph-only --outputs /tmp/dodgem
    python -m bench.bench_c_baseline --sizes 3 4 --no-write
    python -m bench.bench_c_baseline --sizes 5 --threads 1 2   # gamegraph on one thread, then on two

bench/c/dodgem_retrograde.c is compiled with the system `gcc -O3 -march=native` into a
temporary folder each run; it is never a dependency of the package. Each side solves
in a child process of its own, so its peak RSS (getrusage) is its own:

- C: the executable, whole process (ranking tables, solve, output written);
- gamegraph: `explorer.implicit.solve` into a folder, through bench.bench_implicit.run_one,
  timed around that call (numba compilation, solve, value file written; the interpreter's
  start and imports are left out, its memory is not); with --threads, once per number of
  threads (NUMBA_NUM_THREADS in the child), each a row of its own beside the same run's C.

Both write every index's value (int8) and remoteness, which are compared index by
index, memory-mapped and in slices, whenever both sides' outputs for a size are in the
outputs folder (a temporary one unless --outputs is given: a one-side rerun with the same
--outputs compares against the other side's last files). Results are merged by size and
side into bench/c/results.json and the table goes into bench/README.md between the
`bench_c_baseline` markers.
"""

from __future__ import annotations

import argparse
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

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(__file__).with_name("c") / "dodgem_retrograde.c"
RESULTS = Path(__file__).with_name("c") / "results.json"
HEADING = "C baseline on Dodgem (`bench_c_baseline.py`)"
SIZES = [3, 4, 5]
SLICE = 1 << 24  # indices compared at a time: 48 MB of the two sides' arrays
MIN_TIMED_SECONDS = 0.05  # below this the C side's CPU time is too coarse for a ratio


class BenchError(Exception):
    """A failure the bench reports in one line."""


# -- the C side ---------------------------------------------------------------------------
def compile_baseline(folder: Path) -> Path:
    """The C solver built with the system gcc into `folder`; BenchError without gcc or on a compile error."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise BenchError("no gcc on PATH: the C baseline cannot be built")
    executable = Path(folder) / "dodgem_retrograde"
    done = subprocess.run([gcc, "-O3", "-march=native", "-o", str(executable), str(SOURCE)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"gcc failed on {SOURCE.name}: {done.stderr.strip()[-2000:]}")
    return executable


def gcc_version() -> str:
    gcc = shutil.which("gcc")
    if gcc is None:
        return "no gcc"
    return subprocess.run([gcc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]


def c_paths(outputs: Path, n: int) -> tuple[Path, Path]:
    """Where the C solver writes size n's values (int8) and remoteness (int16), raw."""
    return outputs / f"c-{n}x{n}.value.int8", outputs / f"c-{n}x{n}.remoteness.int16"


def run_c(executable: Path, n: int, outputs: Path) -> dict:
    """Solve Dodgem n x n with the C baseline (a child process); its JSON line as a dict."""
    values, remoteness = c_paths(outputs, n)
    done = subprocess.run([str(executable), str(n), str(values), str(remoteness)], capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"the C baseline failed on {n}x{n}: {done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- the gamegraph side ---------------------------------------------------------------------
def gamegraph_folder(outputs: Path, n: int) -> Path:
    return outputs / f"gamegraph-{n}x{n}"


def solve_gamegraph_here(n: int, folder: Path) -> dict:
    """In this (child) process: gamegraph's implicit solve of Dodgem n x n into `folder`, measured
    around the call (bench.bench_implicit.run_one), with this process's peak RSS."""
    from bench.bench_implicit import run_one
    import explorer.implicit  # noqa: F401  (imported before the clock starts)
    import numpy  # noqa: F401

    cpu, wall = time.process_time(), time.perf_counter()
    row = run_one(f"dodgem:{n}x{n}", False, str(folder))
    row["solve_call_cpu_seconds"] = round(time.process_time() - cpu, 3)
    row["solve_call_wall_seconds"] = round(time.perf_counter() - wall, 3)
    row["peak_rss_bytes"] = own_peak_rss_bytes()
    return row


def own_peak_rss_bytes() -> int:
    """This process's peak RSS: Linux's VmHWM, which starts afresh at exec (ru_maxrss keeps the
    parent's peak across fork and exec); ru_maxrss where there is no /proc."""
    for line in _read_lines("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_gamegraph(n: int, outputs: Path, threads: int | None = None) -> dict:
    """gamegraph's implicit solve of Dodgem n x n in a child process, its state folder a scratch one,
    on `threads` threads (numba's default, one per core, when None)."""
    folder = gamegraph_folder(outputs, n)
    with tempfile.TemporaryDirectory(prefix="gamegraph-home-") as home:
        env = dict(os.environ, GAMEGRAPH_HOME=home, GAMEGRAPH_PROGRESS="0")
        if threads is not None:
            env["NUMBA_NUM_THREADS"] = str(threads)
        done = subprocess.run([sys.executable, "-m", "bench.bench_c_baseline", "--one-gamegraph", str(n),
                               "--outputs", str(outputs)], capture_output=True, text=True, cwd=ROOT, env=env)
    if done.returncode != 0:
        raise BenchError(f"gamegraph's implicit solve failed on {n}x{n}: {done.stderr.strip()[-2000:]}")
    row = json.loads(done.stdout.strip().splitlines()[-1])
    row["folder"] = str(folder)
    return row


# -- index by index ---------------------------------------------------------------------------
def compare(n: int, outputs: Path, examples: int = 5) -> dict:
    """Values and remoteness of every index, C against gamegraph, memory-mapped, SLICE at a time:
    {"indices", "value_mismatches", "remoteness_mismatches", "first": [(index, C, gamegraph), ...]}."""
    import numpy as np

    from explorer import implicit
    from explorer.games import parse_spec

    c_values_path, c_remoteness_path = c_paths(outputs, n)
    folder = gamegraph_folder(outputs, n)
    solved = implicit.ValueFile(parse_spec(f"dodgem:{n}x{n}"), folder)  # compressed or the format before
    g_values, g_remoteness = solved.values, solved.remoteness_array
    c_values = np.memmap(c_values_path, dtype=np.int8, mode="r")
    c_remoteness = np.memmap(c_remoteness_path, dtype=np.int16, mode="r")
    sizes = {len(g_values), len(g_remoteness), len(c_values), len(c_remoteness)}
    if len(sizes) != 1:
        raise BenchError(f"{n}x{n}: the outputs differ in length: gamegraph {len(g_values):,} values, "
                         f"C {len(c_values):,} values and {len(c_remoteness):,} remoteness")
    size = sizes.pop()
    result = {"indices": size, "value_mismatches": 0, "remoteness_mismatches": 0, "first": []}
    for start in range(0, size, SLICE):
        stop = min(start + SLICE, size)
        value_differ = c_values[start:stop] != g_values[start:stop]
        remoteness_differ = c_remoteness[start:stop] != g_remoteness[start:stop]
        result["value_mismatches"] += int(np.count_nonzero(value_differ))
        result["remoteness_mismatches"] += int(np.count_nonzero(remoteness_differ))
        if len(result["first"]) < examples:
            for k in np.flatnonzero(value_differ | remoteness_differ)[:examples - len(result["first"])]:
                i = start + int(k)
                result["first"].append({"index": i, "c": [int(c_values[i]), int(c_remoteness[i])],
                                        "gamegraph": [int(g_values[i]), int(g_remoteness[i])]})
    result["agree"] = result["value_mismatches"] == 0 and result["remoteness_mismatches"] == 0
    return result


SHOW_SAMPLES = 200  # positions `show_latency` reads, each through a value file opened afresh


def show_latency(n: int, outputs: Path, samples: int = SHOW_SAMPLES) -> dict:
    """What `gamegraph show` pays to read a position from gamegraph's value file, interpreter start aside:
    the folder opened (meta.json, the compact file's header and index), the position's record and every
    move's value and remoteness (`ValueFile.record`, `ValueFile.moves`: each successor one more look-up),
    at `samples` positions drawn at random, the page cache warm. Median and p99 in ms, and the moves read."""
    import numpy as np

    from explorer import implicit
    from explorer.games import parse_spec

    game = parse_spec(f"dodgem:{n}x{n}")
    folder = gamegraph_folder(outputs, n)
    rng = np.random.default_rng(39)
    times, moves = [], 0
    for index in rng.integers(0, game.index_space(), samples):
        position = game.unrank(int(index))
        began = time.perf_counter()
        values = implicit.ValueFile(game, folder)
        values.record(position)
        moves += len(values.moves(position))
        times.append(time.perf_counter() - began)
    return {"samples": samples, "median_ms": round(float(np.median(times)) * 1e3, 3),
            "p99_ms": round(float(np.percentile(times, 99)) * 1e3, 3), "moves": moves}


def outputs_present(n: int, outputs: Path) -> bool:
    return all(p.exists() for p in c_paths(outputs, n)) and (gamegraph_folder(outputs, n) / "meta.json").exists()


# -- the report -------------------------------------------------------------------------------
def machine_line() -> str:
    model = next((line.split(":", 1)[1].strip() for line in _read_lines("/proc/cpuinfo")
                  if line.startswith("model name")), platform.processor() or "unknown CPU")
    return (f"{platform.machine()}, {model}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"{gcc_version()}")


def _read_lines(path: str) -> list[str]:
    try:
        return Path(path).read_text().splitlines()
    except OSError:
        return []


def _gamegraph_runs(row: dict) -> list[tuple[str, dict]]:
    """(label, figures) of each gamegraph run of a size: the default one, then one per --threads."""
    runs = [("gamegraph", row["gamegraph"])] if "gamegraph" in row else []
    return runs + [(f"gamegraph, {key.split('@')[1]} thread{'s' if key.split('@')[1] != '1' else ''}", row[key])
                   for key in sorted(k for k in row if k.startswith("gamegraph@"))]


def table(rows: dict[str, dict]) -> str:
    """The README section from the merged results (by size: "c", "gamegraph", "gamegraph@<threads>",
    "comparison"): one row per gamegraph run, beside the C run of the same size."""
    lines = ["| Dodgem | indices | C CPU s | C wall s | C peak bytes/index | gamegraph run | CPU s | wall s "
             "| peak bytes/index | CPU ratio gamegraph/C | wall ratio gamegraph/C | bytes/index at rest "
             "| `show` ms, median / p99 | values and remoteness |",
             "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    runs: list[str] = []
    for key in sorted(rows, key=int):
        row = rows[key]
        c, comparison = row.get("c"), row.get("comparison")
        sides = _gamegraph_runs(row) or [("–", None)]
        indices = (c or sides[0][1])["indices"]
        c_cells = (f"{c['cpu_seconds']:.2f} | {c['wall_seconds']:.2f} | {c['peak_rss_bytes'] / indices:.2f}"
                   if c else "– | – | –")
        for label, g in sides:
            g_cells = (f"{g['cpu_seconds']:.2f} | {g['wall_seconds']:.2f} | {g['peak_rss_bytes'] / indices:.2f}"
                       if g else "– | – | –")
            timed = c and g and c["cpu_seconds"] >= MIN_TIMED_SECONDS
            ratio = f"{g['cpu_seconds'] / c['cpu_seconds']:.2f}×" if timed else "–"
            wall = f"{g['wall_seconds'] / c['wall_seconds']:.2f}×" if timed else "–"
            agreed = (g or {}).get("comparison", comparison)
            if agreed is None:
                agree = "not compared"
            elif agreed["agree"]:
                agree = f"equal at all {agreed['indices']:,} indices"
            else:
                agree = (f"**differ**: {agreed['value_mismatches']:,} values, "
                         f"{agreed['remoteness_mismatches']:,} remoteness")
            rest = f"{g['bytes_at_rest'] / indices:.3f}" if g and "bytes_at_rest" in g else "–"
            show = f"{g['show']['median_ms']:.2f} / {g['show']['p99_ms']:.2f}" if g and "show" in g else "–"
            lines.append(f"| {key}×{key} | {indices:,} | {c_cells} | {label} | {g_cells} | {ratio} | {wall} | {rest} "
                         f"| {show} | {agree} |")
        for side, figures in (("C", c), *sides):
            if figures:
                uptime = f" (`uptime`: {figures['uptime']})" if figures.get("uptime") else ""
                runs.append(f"{key}×{key} {side}: {figures['when']}, load average {figures['load']:.1f}{uptime}")
    lines += ["", "C = bench/c/dodgem_retrograde.c, built with `gcc -O3 -march=native`: the whole process "
              "(tables, every index seeded, the queue solve, values and remoteness written), single-threaded; no "
              f"ratio where it takes under {MIN_TIMED_SECONDS} s. gamegraph = "
              "`explorer.implicit.solve` in a child process, timed around the call: whatever numba compiles or "
              "loads from its cache on the first call, the solve and the value file written; interpreter start "
              "and imports are left out; on numba's default threads (one per core), or on as many as the run "
              "says (NUMBA_NUM_THREADS). CPU s = user + system time (the fair figure on a shared machine); "
              "peak bytes/index = the process's own peak RSS (VmHWM) over the indices, the interpreter's "
              "~170 MB included on the gamegraph side (it dominates the small boards). Values and remoteness "
              "are compared at every index; a row measured one side at a time is compared only "
              "when both sides' outputs were kept (--outputs). Bytes at rest: the value file's folder on disk. "
              f"`show` ms: {SHOW_SAMPLES} positions at random, each read through the value file opened afresh "
              "(its record and every move's value and remoteness, as `gamegraph show` prints them; interpreter "
              "start aside, page cache warm).", "", "Measured: " + "; ".join(runs) + "."]
    return "\n".join(lines)


def header(argv: list[str], rows: dict[str, dict]) -> str:
    """The command of the latest run and the machine; the dates and load averages of every figure
    in the table, which may come from several runs (--c-only, --gamegraph-only)."""
    sides = [row[side] for row in rows.values() for side in ("c", "gamegraph") if side in row]
    whens, loads = sorted(side["when"] for side in sides), [side["load"] for side in sides]
    command = " ".join(["python -m bench.bench_c_baseline", *argv])
    return (f"Latest run `{command}`; figures measured {whens[0]} to {whens[-1]} on {machine_line()}. "
            f"Load average when each was taken: {min(loads):.1f}–{max(loads):.1f}.")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=SIZES, choices=[2, 3, 4, 5], metavar="N",
                        help="board sizes, 2 to 5 (default 3 4 5)")
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--c-only", action="store_true", help="run the C baseline only")
    side.add_argument("--gamegraph-only", action="store_true", help="run gamegraph's implicit solve only")
    parser.add_argument("--outputs", type=Path, help="keep both sides' values and remoteness here "
                        "(default: a temporary folder, removed at the end)")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    parser.add_argument("--threads", nargs="+", type=int, metavar="T",
                        help="run gamegraph once per number of threads (NUMBA_NUM_THREADS), each beside the same C run")
    parser.add_argument("--one-gamegraph", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_gamegraph:
        print(json.dumps(solve_gamegraph_here(args.one_gamegraph, gamegraph_folder(args.outputs, args.one_gamegraph))))
        return 0
    try:
        return _run(args, argv)
    except BenchError as error:
        print(f"bench_c_baseline: {error}", file=sys.stderr)
        return 1


def _run(args, argv: list[str]) -> int:
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    with tempfile.TemporaryDirectory(prefix="gamegraph-c-baseline-") as scratch:
        outputs = (args.outputs or Path(scratch) / "outputs").resolve()
        outputs.mkdir(parents=True, exist_ok=True)
        executable = None if args.gamegraph_only else compile_baseline(Path(scratch))
        for n in args.sizes:
            row = results.setdefault(str(n), {})
            row.pop("comparison", None)
            if not args.gamegraph_only:
                for path in c_paths(outputs, n):
                    path.unlink(missing_ok=True)
                row["c"] = _stamped(run_c(executable, n, outputs))
                print(f"{n}x{n} C: {json.dumps(row['c'])}", flush=True)
            if not args.c_only:
                for key in [k for k in row if k == "gamegraph" or k.startswith("gamegraph@")]:
                    del row[key]  # a run's rows are its own: never beside another run's C
                for threads in args.threads or [None]:
                    shutil.rmtree(gamegraph_folder(outputs, n), ignore_errors=True)
                    solved = run_gamegraph(n, outputs, threads)
                    key = "gamegraph" if threads is None else f"gamegraph@{threads}"
                    row[key] = _stamped({"indices": solved["index_space"],
                                         "cpu_seconds": solved["solve_call_cpu_seconds"],
                                         "wall_seconds": solved["solve_call_wall_seconds"],
                                         "peak_rss_bytes": solved["peak_rss_bytes"],
                                         "child_cpu_seconds": solved["cpu_seconds"],
                                         "max_remoteness": solved["max_remoteness"], "counts": solved["counts"],
                                         "bytes_at_rest": _bytes_at_rest(gamegraph_folder(outputs, n))})
                    print(f"{n}x{n} {key}: {json.dumps(row[key])}", flush=True)
                    row[key]["show"] = show_latency(n, outputs)
                    print(f"{n}x{n} show: {json.dumps(row[key]['show'])}", flush=True)
                    if outputs_present(n, outputs):
                        row[key]["comparison"] = compare(n, outputs)
                        print(f"{n}x{n} compared: {json.dumps(row[key]['comparison'])}", flush=True)
            elif outputs_present(n, outputs):
                row["comparison"] = compare(n, outputs)
                print(f"{n}x{n} compared: {json.dumps(row['comparison'])}", flush=True)
            if not args.no_write:
                RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    mismatched = [n for n in args.sizes
                  if not all(figures.get("comparison", {"agree": True})["agree"]
                             for _, figures in _gamegraph_runs(results[str(n)]))
                  or not results[str(n)].get("comparison", {"agree": True})["agree"]]
    text = header(argv, results) + "\n\n" + table(results)
    from bench.readme import publish

    publish("bench_c_baseline", HEADING, text, write=not args.no_write)
    if mismatched:
        print(f"bench_c_baseline: C and gamegraph differ on {', '.join(f'{n}x{n}' for n in mismatched)}",
              file=sys.stderr)
        return 1
    return 0


def _stamped(figures: dict) -> dict:
    """The figures with when they were taken and the machine's load then (`uptime`: the machine is shared)."""
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip() if shutil.which("uptime") else ""
    return {**figures, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": os.getloadavg()[0],
            "uptime": uptime[uptime.find("load average"):] if "load average" in uptime else uptime}


def _bytes_at_rest(folder: Path) -> int:
    """The bytes of a value file's folder on disk (its files' sizes)."""
    return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())


if __name__ == "__main__":
    sys.exit(main())
