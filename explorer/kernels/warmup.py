"""Compile every built-in game's kernels into the cache once per install: ``python -m explorer.kernels.warmup``.

scripts/install runs it. It solves a small instance of every built-in game in every mode the CLI, the UI,
the tests and the tiered solver use (docs/kernels.md): each preset in the edge mode with the kernels forced
(GAMEGRAPH_KERNELS_FROM=0, as the tests run), and each preset of at most `IMPLICIT_MAX` indices in the
implicit and the tiered mode (one local Dask worker process: the tier kernels compile in the worker, as
on any cluster); and for each game's smallest preset, `draws` and `query ... stats` (draw levels and the
networkx mirror's position columns, which the UI reads). Each is a ``gamegraph solve`` in a process of its own, in a throw-away state folder,
`jobs` at a time (a game's runs in one lane, so two processes seldom write one index file), every one
compiling into the keyed folder of explorer/kernels/__init__.py, named to them by NUMBA_CACHE_DIR. One
warm-up of a folder at a time (a lock file in it): a second one, from another clone's install or test
run, says so and returns at once rather than compiling the same kernels again or waiting.

When every run has passed, a stamp ``warm-<cpu>.json`` in the keyed folder says so: the next install with
the same kernel sources, numba and CPU skips the work (a fraction of a second: the import of
explorer.kernels and one file test). A run that fails is named on stderr and leaves no stamp, so that the
next install tries again; the exit status is then 1. Bigger instances than these compile nothing more in
most games; where one does (a wider cell on a long game), that one specialisation compiles on first use
and is cached from then on.

The games and their sizes come from a subprocess (`PLAN`), since this layer (explorer/kernels) must not
import the games; the runs go through the CLI, which is what a user runs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from explorer.core.errors import GameGraphError, escaped, parse_error_line, shown
from explorer.core.settings import (HOME_ENV, KERNELS_FROM_ENV, MAX_THREADS_PER_CORE, PROGRESS_ENV, check_library_environment,
                                    per_core_count)

IMPLICIT_MAX = 3_000_000   # indices of the largest preset solved in the implicit and tiered modes
EDGE_MAX = 2_000_000       # --max-positions of the edge-mode runs (a larger preset is refused at once)
PLAN_VERSION = 2           # in the stamp's name: a plan that runs more makes the stamps before it incomplete
REFUSED = 2                # the CLI's exit status for a refused request: a preset over --max-positions is skipped

PLAN = r"""
import json
from explorer.games import registry
from explorer.games.spec import parse_spec
registry.load_builtin_games()
plan = []
for name, cls in sorted(registry.registered().items()):
    for preset in sorted(getattr(cls, "presets", {}) or {"": None}):
        spec = f"{name}:{preset}" if preset else name
        game = parse_spec(spec)
        size = game.implicit_size() if game.offers.implicit_kernels else None
        plan.append({"game": name, "spec": spec, "implicit_size": size, "folded": bool(game.offers.folded)})
print(json.dumps(plan))
"""


def cpu_id() -> str:
    """12 hex digits naming this CPU as numba's code generation sees it (model and feature flags)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
        lines = [line for line in text.splitlines() if line.startswith(("model name", "flags", "Features"))]
        described = "\n".join(sorted(set(lines)))
    except OSError:
        described = ""
    described = described or f"{platform.machine()} {platform.processor()}"
    cpu = os.environ.get("NUMBA_CPU_NAME", "") + os.environ.get("NUMBA_CPU_FEATURES", "")
    return hashlib.sha256((described + cpu).encode()).hexdigest()[:12]


def stamp_path(folder: Path) -> Path:
    """The stamp of a complete warm-up of `folder` on this CPU by this version of the plan."""
    return folder / f"warm-{cpu_id()}-{PLAN_VERSION}.json"


def plan_runs(env: dict[str, str]) -> list[tuple[str, list[str]]]:
    """(game, CLI arguments) of every warm-up run, the games' runs in order: edge, implicit, tiered."""
    done = subprocess.run([sys.executable, "-c", PLAN], env=env, capture_output=True, text=True, check=True)
    runs, smallest = [], {}
    for entry in json.loads(done.stdout):
        runs.append((entry["game"], ["solve", entry["spec"], "--max-positions", str(EDGE_MAX)]))
        size = entry["implicit_size"]
        if size is not None and size <= IMPLICIT_MAX:
            runs.append((entry["game"], ["solve", entry["spec"], "--implicit"]))
            if not entry["folded"]:  # folded kernels (Dōbutsu shōgi) have no tiered solve: it refuses them
                runs.append((entry["game"], ["solve", entry["spec"], "--tiered", "--workers", "1"]))
        order = (size is None, size or 0)
        if entry["game"] not in smallest or order < smallest[entry["game"]][0]:
            smallest[entry["game"]] = (order, entry["spec"])
    for game, (_, spec) in sorted(smallest.items()):  # what the UI and `show` add: draw levels, the mirror's columns
        runs += [(game, ["draws", spec]), (game, ["query", spec, "stats"])]
    return runs


def _weight(game_runs: list[list[str]]) -> float:
    """A game's share of the warm-up: compiling costs once per mode (edge, implicit, tiered), a run
    that finds its kernels compiled a tenth of that (measured: a first run 20-60 s of CPU, a warm 1-4 s)."""
    modes = {args[2] if len(args) > 2 and args[2] in ("--implicit", "--tiered") else "edge" for args in game_runs}
    return len(modes) + 0.1 * len(game_runs)


def lanes(runs: list[tuple[str, list[str]]], jobs: int) -> list[list[list[str]]]:
    """The runs dealt to `jobs` lanes, a game's runs in one lane, the lanes balanced by `_weight`."""
    by_game: dict[str, list[list[str]]] = {}
    for game, args in runs:
        by_game.setdefault(game, []).append(args)
    dealt: list[list[list[str]]] = [[] for _ in range(max(1, jobs))]
    load = [0.0] * len(dealt)
    for game_runs in sorted(by_game.values(), key=_weight, reverse=True):
        lightest = load.index(min(load))
        dealt[lightest].extend(game_runs)
        load[lightest] += _weight(game_runs)
    return [lane for lane in dealt if lane]


def _elapsed(seconds: float) -> str:
    return f"{int(seconds) // 60}m{int(seconds) % 60:02d}s"


def warm(folder: Path, jobs: int, force: bool = False, out=sys.stderr) -> int:
    """Run the warm-up into `folder` unless its stamp is there (or `force`); 0 when done or already warm."""
    stamp = stamp_path(folder)
    if stamp.exists() and not force:
        print(f"kernels: already compiled for these sources, numba and CPU ({folder})", file=out)
        return 0
    import fcntl

    with open(folder / "warmup.lock", "a") as lock:  # one warm-up of a folder at a time (two clones, two users' runs)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # not waited for: until it ends, what a process needs compiles on first use
            print(f"kernels: another warm-up of this cache is running ({folder}); not waiting for it", file=out)
            return 0
        return _warm(folder, jobs, stamp, out)


def _warm(folder: Path, jobs: int, stamp: Path, out) -> int:
    home = Path(tempfile.mkdtemp(prefix="gamegraph-warmup-"))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder), HOME_ENV: str(home),
           KERNELS_FROM_ENV: "0", PROGRESS_ENV: "0"}
    env.pop("DASK_SCHEDULER_ADDRESS", None)  # a local worker, compiling into this machine's cache
    started = time.monotonic()
    failed: list[str] = []
    lock = threading.Lock()
    try:
        try:
            runs = plan_runs(env)
        except (subprocess.CalledProcessError, ValueError) as error:
            last = (getattr(error, "stderr", "") or str(error)).strip().splitlines() or ["no message"]
            print(f"kernels: cannot list the games to compile ({last[-1]}); they compile on first use", file=out)
            return 1
        total, count = len(runs), [0]
        tty = out.isatty()

        def lane(own: list[list[str]]) -> None:
            for args in own:
                done = subprocess.run([sys.executable, "-m", "explorer.cli", *args], env=env, text=True,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                with lock:
                    count[0] += 1
                    refused = done.returncode == REFUSED and "--max-positions" in done.stderr  # too large
                    if done.returncode != 0 and not refused:
                        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
                        failed.append(f"gamegraph {' '.join(args)}: exit {done.returncode}: {last}")
                    line = (f"kernels: compiling every game's kernels once for this install: {count[0]}/{total} "
                            f"({' '.join(args[1:])}), {_elapsed(time.monotonic() - started)}")
                    print(("\r" + line + "\033[K") if tty else line, end="" if tty else "\n", file=out, flush=True)

        threads = [threading.Thread(target=lane, args=(own,)) for own in lanes(runs, jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if tty:
            print(file=out)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    seconds = time.monotonic() - started
    if failed:
        for line in failed:
            print(f"kernels: {line}", file=out)
        print(f"kernels: {len(failed)} of {total} warm-up runs failed; the kernels they need compile on first use",
              file=out)
        return 1
    stamp.write_text(json.dumps({"runs": total, "seconds": round(seconds, 1), "jobs": jobs}) + "\n")
    print(f"kernels: compiled in {_elapsed(seconds)} into {folder}", file=out)
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, with a bad argument in one escaped line (not a usage block), as the CLI's own parser does;
    exit status 2. (An absurd NUMBA_NUM_THREADS is refused in one line before this module runs: the import
    of explorer.kernels checks it, explorer.core.settings.numba_threads.)"""

    def error(self, message: str):
        print(escaped(parse_error_line(self.prog, message)), file=sys.stderr)
        raise SystemExit(2)


def _jobs(text: str) -> int:
    """argparse type of --jobs: a whole number of runs at a time, 1 to MAX_THREADS_PER_CORE per core (a
    billion lanes were a billion lists; a Unicode digit passed as int() reads it)."""
    value, most = per_core_count(text)
    if not 1 <= value <= most:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number of runs at a time from 1 to {most} "
                                         f"({MAX_THREADS_PER_CORE} per core of this machine)")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m explorer.kernels.warmup", description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=_jobs, default=min(2, os.cpu_count() or 1),
                        help="runs at a time (default: 2, or 1 on one core)")
    parser.add_argument("--force", action="store_true", help="run even when the stamp says the cache is complete")
    parser.add_argument("--list", action="store_true", help="print the runs and exit")
    args = parser.parse_args(argv)
    try:  # what every run would refuse (NUMBA_DISABLE_JIT set, a Dask timeout that is no duration): one line
        check_library_environment()
    except GameGraphError as error:
        print(escaped(f"{parser.prog}: error: {error}"), file=sys.stderr)
        return 2
    from explorer import kernels

    folder = Path(os.environ["NUMBA_CACHE_DIR"])  # set by explorer.kernels: the keyed folder
    assert kernels.KEYED_FOLDER.fullmatch(folder.name)
    if args.list:
        for game, run in plan_runs({**os.environ, PROGRESS_ENV: "0"}):
            print("gamegraph", *run)
        return 0
    return warm(folder, args.jobs, args.force)


if __name__ == "__main__":
    sys.exit(main())
