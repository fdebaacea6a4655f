"""Dōbutsu shōgi solved whole (issue 22), its figures beside the published ones.

Runs `gamegraph solve dobutsu --implicit` as a user would, in a child process and a fresh
state folder (or reads the value file of an earlier run: `--home FOLDER`), then walks the
positions reachable from the start over the compiled kernels (explorer.implicit.reachable)
and compares every figure with its source:

- Tanaka, 「どうぶつしょうぎ」の完全解析, IPSJ SIG Technical Report 2009-GI-22(3)
  (https://ipsj.ixsq.nii.ac.jp/records/62415): the second player wins in 78 plies. In
  gamegraph's model (explorer/games/dobutsu/rules.py) the game is over when the mover *can*
  take the lion, so the capture is not played: the start is a loss in 77 for the first player.
- 1,567,925,964 positions with the first player to move, and 246,803,167 reachable from the
  start, of which 140,298,614 are over by a lion capture, 7,018,985 by a successful try and
  99,485,568 not over. These are the figures public Dōbutsu solvers check themselves against;
  no primary source found here states them, so they are printed as "as used by public
  solvers". They count a position once with its colour-swapped twin (the mover's point of
  view, as gamegraph's folded ranking does) and once with its left-right mirror image: the
  walk counts the reachable positions the mirror leaves in place (the kernels' `mirrored`),
  and the count up to the mirror is (all + those) / 2.

Every figure must match: the script exits 1 and says which one differs otherwise. Wall time
beside CPU time (the solve's process, user + system) and peak memory; the machine is shared,
so the load average is printed too. Takes about 20-45 min of CPU; never run by the tests.

    python -m bench.bench_dobutsu_solve                      # solve, walk, write bench/README.md
    python -m bench.bench_dobutsu_solve --home /tmp/dob-home # reuse a solved value file
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_tiered import measured_solve

HEADING = "Dōbutsu shōgi solved whole (`bench_dobutsu_solve.py`)"
TANAKA = "Tanaka 2009 (IPSJ SIG-GI 2009-GI-22(3))"
PUBLIC = "as used by public solvers"
PUBLISHED = [  # (figure, expected, source)
    ("start: value for the first player", "loss", TANAKA),
    ("start: plies to the end, the lion capture included", 78, TANAKA),
    ("positions with the first player to move", 1_567_925_964, PUBLIC),
    ("reachable from the start, up to the mirror", 246_803_167, PUBLIC),
    ("  of them over by a lion capture (a win for the mover)", 140_298_614, PUBLIC),
    ("  of them over by a try (a loss for the mover)", 7_018_985, PUBLIC),
    ("  of them not over", 99_485_568, PUBLIC),
]


def walk(home: Path) -> dict:
    """The walk from the start over the value file in `home` (this process), with its CPU time."""
    os.environ["GAMEGRAPH_HOME"] = str(home)
    from explorer import implicit
    from explorer.games import parse_spec
    from explorer.games.dobutsu.kernels import mirrored

    game = parse_spec("dobutsu")
    values = implicit.open_value_file(game)
    began, cpu = time.perf_counter(), time.process_time()
    result = implicit.reachable(game, values, image=mirrored)
    result.update(wall=time.perf_counter() - began, cpu=time.process_time() - cpu, meta=values.meta,
                  peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return result


def up_to_mirror(reach: dict) -> tuple[int, int, int, int]:
    """Reachable positions, those over by a capture, by a try, and not over, counting a position once
    with its mirror image: (all + left in place by the mirror) / 2 each."""
    def count(part: dict) -> tuple[int, int, int, int]:
        over = part["finished"]
        return part["positions"], over["win"], over["loss"], part["positions"] - sum(over.values())

    return tuple((a + f) // 2 for a, f in zip(count(reach), count(reach["fixed"])))


def figures(reach: dict) -> list:
    meta = reach["meta"]
    start = meta["start"]
    return [start["value"], start["remoteness"] + 1 if start["value"] == "loss" else None, meta["positions"],
            *up_to_mirror(reach)]


def table(reach: dict, solved: dict | None, started: str) -> tuple[str, bool]:
    meta = reach["meta"]
    found = figures(reach)
    lines = [f"Run {started}, {os.cpu_count()} cores, Python {sys.version.split()[0]}.", "",
             "| figure | gamegraph | published | source | |", "|---|---:|---:|---|---|"]
    agree = True
    for (name, expected, source), value in zip(PUBLISHED, found):
        same = value == expected
        agree &= same
        shown = (lambda x: f"{x:,}" if isinstance(x, int) else str(x))
        lines.append(f"| {name} | {shown(value)} | {shown(expected)} | {source} | {'✓' if same else '✗ differs'} |")
    counts = meta["counts"]
    lines += ["", f"All {meta['positions']:,} positions: win {counts['win']:,}, loss {counts['loss']:,}, "
                  f"draw {counts['draw']:,}, tie {counts['tie']:,} for the player to move; the longest win or loss "
                  f"takes {meta['max_remoteness']} plies. Reachable from the start ({reach['depth']} levels deep), "
                  f"{reach['positions']:,} positions counting mirror images apart ({reach['fixed']['positions']:,} "
                  "their own mirror image): " + ", ".join(f"{k} {v:,}" for k, v in reach["counts"].items() if v)
                  + ".", "",
              "| step | wall s | CPU s | peak RSS MB | bytes/position at peak | load before / after |",
              "|---|---:|---:|---:|---:|---|"]
    if solved:
        lines.append(f"| `gamegraph solve dobutsu --implicit` | {solved['wall']:.0f} | {solved['cpu']:.0f} | "
                     f"{solved['peak_mb']:,.0f} | {solved['peak_mb'] * 2 ** 20 / meta['positions']:.2f} | "
                     f"{solved['load']:.2f} / {solved['load_after']:.2f} |")
    else:
        lines.append(f"| the solve (an earlier run; its own clock) | {sum(meta['seconds'].values()):.0f} | – | – | – | – |")
    lines.append(f"| walk from the start (`implicit.reachable`) | {reach['wall']:.0f} | {reach['cpu']:.0f} | "
                 f"{reach['peak_mb']:,.0f} | – | – |")
    return "\n".join(lines), agree


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, help="a state folder holding a solved value file: walk it, no solve")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if args.home:
        solved, reach = None, walk(args.home)
    else:
        with tempfile.TemporaryDirectory(prefix="bench-dobutsu-") as scratch:
            solved = measured_solve("dobutsu", "--implicit", Path(scratch))
            reach = walk(Path(scratch))
    text, agree = table(reach, solved, started)
    from bench.readme import publish

    publish("bench_dobutsu_solve", HEADING, text, write=not args.no_write)
    if not agree:
        raise SystemExit("bench_dobutsu_solve: a figure differs from the published one (✗ above)")


if __name__ == "__main__":
    main()
