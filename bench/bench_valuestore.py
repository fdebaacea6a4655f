"""Compact value files (explorer.core.valuestore) on real solved data: size at rest, throughput, random access.

    python -m bench.bench_valuestore                                   # Dodgem 4x4 and 5x5, solved here
    python -m bench.bench_valuestore --solved dodgem:5x5=/tmp/d5       # reuse an implicit value folder
    python -m bench.bench_valuestore --specs dodgem:4x4 --no-write     # quick check of the script

Each game is solved with the implicit mode (explorer.implicit.solve, into a
temporary folder unless --solved names one), and its value.npy + remoteness.npy
(3 bytes a position) packed into 2-byte codes. Then, for each codec, level and
chunk size: the file written (wall and CPU seconds), its bytes per position at
rest, the whole file read back (`to_array`, checked equal to the codes), and the
latency of random access on a freshly opened store: one position at a time
(`store[i]`: a chunk read and decompressed unless the 64 MiB cache holds it),
and 10,000 positions at once (`store[indices]`). CPU time is this process's
(Blosc's threads included); the load average is read before and after each game.
The file is read back from the page cache: disk speed is not measured.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from explorer.core import valuestore  # noqa: E402

HEADING = "Compact value files (`bench_valuestore.py`)"
DEFAULT_SPECS = ["dodgem:4x4", "dodgem:5x5"]
# (codec, level, chunk); the slow levels only where the file is small.
CONFIGS = [("none", None, 2 ** 20), ("zstd", 1, 2 ** 20), ("zstd", 3, 2 ** 20), ("zstd", 9, 2 ** 20),
           ("zstd", 19, 2 ** 20), ("blosc", 5, 2 ** 20), ("blosc", 9, 2 ** 20), ("zstd", 3, 2 ** 16)]
SLOW_LEVEL, SLOW_LEVEL_LIMIT = 19, 10 ** 7  # zstd 19 runs at a few MB/s: only on games under 10^7 positions
SINGLE_READS, COLD_READS, BATCH = 2000, 200, 10_000


def timed(work):
    """(result, wall seconds, CPU seconds) of work()."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def solved_folder(spec: str, given: dict[str, str], scratch: Path) -> tuple[Path, float | None]:
    if spec in given:
        return Path(given[spec]), None
    from explorer import implicit
    from explorer.games import parse_spec

    folder = scratch / spec.replace(":", "-")
    _, wall, _ = timed(lambda: implicit.solve(parse_spec(spec), folder=folder))
    return folder, wall


def measure(codes: np.ndarray, codec: str, level: int | None, chunk: int, folder: Path) -> dict:
    path = folder / f"{codec}-{level}-{chunk}.values"
    _, write_wall, write_cpu = timed(lambda: valuestore.write(path, codes, chunk=chunk, codec=codec, level=level))
    size = path.stat().st_size
    store = valuestore.open(path)
    back, read_wall, read_cpu = timed(store.to_array)
    if not np.array_equal(back, codes):
        raise SystemExit(f"{path}: the file does not read back as written")
    del back
    rng = np.random.default_rng(1)
    cold = np.empty(COLD_READS)
    for j, i in enumerate(rng.integers(0, len(codes), COLD_READS)):  # what `show` does: open, read one, close
        began = time.perf_counter()
        with valuestore.open(path) as store:
            store[int(i)]
        cold[j] = time.perf_counter() - began
    store = valuestore.open(path)
    singles = rng.integers(0, len(codes), SINGLE_READS)
    latencies = np.empty(SINGLE_READS)
    for j, i in enumerate(singles):
        began = time.perf_counter()
        store[int(i)]
        latencies[j] = time.perf_counter() - began
    batch = rng.integers(0, len(codes), BATCH)
    got, batch_wall, _ = timed(lambda: store[batch])
    if not np.array_equal(got, codes[batch]):
        raise SystemExit(f"{path}: random reads differ from the codes")
    path.unlink()
    mb = codes.nbytes / 1e6
    return {"codec": codec, "level": level, "chunk": chunk, "bytes": size, "per_position": size / len(codes),
            "write_wall": write_wall, "write_cpu": write_cpu, "write_mb_s": mb / write_wall,
            "read_wall": read_wall, "read_cpu": read_cpu, "read_mb_s": mb / read_wall,
            "cold_median_us": float(np.median(cold)) * 1e6,
            "single_median_us": float(np.median(latencies)) * 1e6, "single_p99_us": float(np.percentile(latencies, 99)) * 1e6,
            "batch_ms": batch_wall * 1e3}


def run(spec: str, given: dict[str, str], scratch: Path) -> dict:
    load_before = os.getloadavg()[0]
    folder, solve_wall = solved_folder(spec, given, scratch)
    from explorer import implicit
    from explorer.games import parse_spec

    solved = implicit.ValueFile(parse_spec(spec), folder)  # either format: the arrays read whole
    value, remoteness = np.asarray(solved.values), np.asarray(solved.remoteness_array)
    npy_bytes = value.nbytes + remoteness.nbytes  # the format before's value.npy + remoteness.npy, headers aside
    codes, pack_wall, pack_cpu = timed(lambda: valuestore.pack(value, remoteness))
    rows = []
    for codec, level, chunk in CONFIGS:
        if level == SLOW_LEVEL and len(codes) > SLOW_LEVEL_LIMIT:
            continue
        rows.append(measure(codes, codec, level, chunk, scratch))
        print(f"{spec} {rows[-1]}", flush=True)
    return {"spec": spec, "positions": len(codes), "npy_bytes": npy_bytes, "solve_wall": solve_wall,
            "pack_wall": pack_wall, "pack_cpu": pack_cpu, "rows": rows,
            "load": (load_before, os.getloadavg()[0])}


def table(results: list[dict], started: str) -> str:
    lines = [f"`python -m bench.bench_valuestore` on {started}, {os.cpu_count()} CPUs shared with other jobs, "
             f"Python {platform.python_version()}, numcodecs {__import__('numcodecs').__version__}. "
             "Each game's value.npy + remoteness.npy (the implicit mode's 3 bytes a position) packed into "
             "2-byte codes and written with each codec; times are wall-clock (CPU in brackets) and noisy on "
             "this shared machine; the read is from the page cache.", ""]
    for r in results:
        solved = f"solved here in {r['solve_wall']:.0f} s" if r["solve_wall"] is not None else "solved beforehand"
        lines += [f"**`{r['spec']}`**: {r['positions']:,} positions ({solved}); .npy files "
                  f"{r['npy_bytes'] / r['positions']:.2f} bytes a position; pack {r['pack_wall']:.2f} s "
                  f"({r['pack_cpu']:.2f} s CPU); load average {r['load'][0]:.1f} before, {r['load'][1]:.1f} after.", "",
                  "| codec | level | chunk | bytes at rest | bytes/position | write s (CPU) | write MB/s "
                  "| full read s (CPU) | read MB/s | open + one read µs | `store[i]` median µs | p99 µs | 10,000 at once ms |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for row in r["rows"]:
            lines.append(f"| {row['codec']} | {row['level'] if row['level'] is not None else '–'} | {row['chunk']:,} "
                         f"| {row['bytes']:,} | {row['per_position']:.3f} | {row['write_wall']:.2f} ({row['write_cpu']:.2f}) "
                         f"| {row['write_mb_s']:,.0f} | {row['read_wall']:.2f} ({row['read_cpu']:.2f}) "
                         f"| {row['read_mb_s']:,.0f} | {row['cold_median_us']:,.0f} | {row['single_median_us']:,.0f} | {row['single_p99_us']:,.0f} "
                         f"| {row['batch_ms']:,.1f} |")
        lines.append("")
    lines += ["MB/s are of codes (2 bytes a position). Open + one read: the median of "
              f"{COLD_READS} times opening the file, reading one position at random and closing it (what "
              "`show` pays: the header, the index and one chunk decompressed). `store[i]`: "
              f"{SINGLE_READS:,} single positions at random through one store (a read decompresses one chunk "
              "unless one of the last 64 MiB of chunks holds it; codec none reads through the memory map). zstd 19 is measured on games under "
              f"{SLOW_LEVEL_LIMIT:,} positions only (it writes at a few MB/s)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--specs", nargs="+", default=DEFAULT_SPECS)
    parser.add_argument("--solved", nargs="*", default=[], metavar="SPEC=FOLDER",
                        help="an implicit value folder (value.npy, remoteness.npy) already solved for SPEC")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    given = dict(item.split("=", 1) for item in args.solved)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with tempfile.TemporaryDirectory(prefix="bench-valuestore-") as scratch:
        results = [run(spec, given, Path(scratch)) for spec in args.specs]
    from bench.readme import publish

    publish("bench_valuestore", HEADING, table(results, started), write=not args.no_write)


if __name__ == "__main__":
    main()
