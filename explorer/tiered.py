"""The tiered solver: a game's ranking solved tier by tier, the tier DAG run by Dask.distributed.

A game may split its ranking into tiers (offers.tiers, explorer.games.base.Tiers): every
move stays in its tier or goes to a *child* tier, and the tiers form a DAG, as in
GamesmanOne. A game without tiers is one tier, the whole ranking, so the implicit mode
(explorer.implicit) is the one-tier case of the same range solve (`implicit.solve_range`).

A tier is solved by the one compiled retrograde loop (explorer.kernels.retrograde.solve_cells)
over its index range, its children's decided positions entering the loop as *seeds*, read
from their tier files memory-mapped and read-only, a window at a time (`SeedWindows`).
Cycles inside a tier are allowed. Each tier is written to ``tier-<t>.values`` atomically and owner-only
(explorer.core.private); a tier already written is never solved again, so an interrupted
solve resumes from the tiers it finished. A tier file holds the kernel's final cell per
position (uint16, or uint32 when a remoteness needs it): the value code in the low 3 bits
(explorer.core.values.Value; 6 = no position) and the remoteness above it.
`_write_tier` and `_open_tier` are the only functions that know that layout on disk.

Dask.distributed (`dask`, `distributed` from PyPI) runs the DAG: one task per tier, given the
game's spec (parsed again in the worker) and the tier, its children's futures as its
dependencies; a loop-free tier is cut into chunks, one task each, and a merge (`forward_ranges`),
so that several workers share it. By default a LocalCluster of worker *processes* on this machine's cores, one
thread each; `scheduler=ADDRESS` (or DASK_SCHEDULER_ADDRESS) uses an existing cluster
whose workers see the same folder. docs/distributed.md says how and why.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable, NamedTuple

from explorer import implicit
from explorer.core import private, progress
from explorer.core.errors import GameGraphError
from explorer.core.values import Value
from explorer.games.base import Game, Tiers

FORMAT = 2  # 2: tier files are compact value files (explorer.core.valuestore)
# A loopy tier's seeds come from its children a window at a time (explorer.kernels.retrograde.SeedWindows):
# room for one seed per SEED_WINDOW_SHARE positions of the tier (0.5 bytes a position), at least
# SEED_WINDOW_MIN, and more when the children hold over SEED_WINDOW_PASSES windows' worth (each window
# is a pass over the children).
SEED_WINDOW_SHARE = 8
SEED_WINDOW_MIN = 1 << 16
SEED_WINDOW_PASSES = 64
CACHE_KIND = "tiered"  # the state folder's subfolder of tier folders
SCHEDULER_VARIABLE = "DASK_SCHEDULER_ADDRESS"
NO_POSITION = 6  # a tier cell's code for an index that names no position (explorer.kernels.retrograde)
# A loopy tier's progress while its queue is worked: the loop runs in steps of at most TIER_PROGRESS_STEP
# queue entries, after each of which implicit.solve_range's `report` is told the positions worked so far;
# inside a Dask worker they go to the client as events on the run's topic (PROGRESS_TOPIC-<run>), at most
# every PROGRESS_SECONDS.
TIER_PROGRESS_STEP = 1 << 20
PROGRESS_SECONDS = 0.5
PROGRESS_TOPIC = "gamegraph-tier-progress"


def supports(game: Game) -> bool:
    """Whether the game can be solved by tiers: it has a ranking with compiled kernels (a game
    without declared tiers is one tier)."""
    return implicit.supports(game)


def tiers_of(game: Game) -> Tiers:
    """The game's tiers, or the whole ranking as one tier."""
    declared = game.tiers() if game.offers.tiers else None
    if declared is not None:
        return declared
    return Tiers(offsets=(0, game.index_space()), children=((),), names=("all positions",))


def folder_for(game: Game) -> Path:
    """``<state dir>/tiered/<name>-<hash>``."""
    return private.cache_path(CACHE_KIND, game.name, f"{FORMAT}|{game.stored_id}")


def check_tiers(tiers: Tiers, size: int) -> list[int]:
    """The tiers in an order that puts every child before its parents; a GameGraphError when the
    declaration is not a partition of range(size) into ranges, or its child relation is no DAG."""
    offsets, count = tiers.offsets, len(tiers.offsets) - 1
    if count < 1 or offsets[0] != 0 or offsets[-1] != size:
        raise GameGraphError(f"the tiers' offsets must run from 0 to the index space ({size:,}), "
                             f"not {offsets[0] if offsets else None} to {offsets[-1] if offsets else None}")
    if any(b < a for a, b in zip(offsets, offsets[1:])):
        raise GameGraphError("the tiers' offsets must not decrease")
    if len(tiers.children) != count or len(tiers.names) != count:
        raise GameGraphError(f"{count} tiers need {count} lists of children and {count} names")
    if tiers.loop_free and len(tiers.loop_free) != count:
        raise GameGraphError(f"{count} tiers need {count} loop_free flags (or none), not {len(tiers.loop_free)}")
    for t, children in enumerate(tiers.children):
        for c in children:
            if not 0 <= c < count or c == t:
                raise GameGraphError(f"tier {t} ({tiers.names[t]}) names child {c}, which is no other tier")
    order, state = [], [0] * count  # 0 new, 1 on the path, 2 done
    for root in range(count):
        stack = [(root, iter(tiers.children[root]))]
        if state[root]:
            continue
        state[root] = 1
        while stack:
            t, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                state[t] = 2
                order.append(t)
            elif state[child] == 1:
                raise GameGraphError(f"the tiers' child relation has a cycle through tier {child} "
                                     f"({tiers.names[child]})")
            elif state[child] == 0:
                state[child] = 1
                stack.append((child, iter(tiers.children[child])))
    return order


# -- one tier on disk: the only functions that know its layout --------------------------------------
# A tier is one compact value file (explorer.core.valuestore): the kernel's final cells, 2 bytes a
# position. Written uncompressed while the solve runs, so that parents memory-map their children;
# compressed into zstd chunks when every tier is done (`_compress_tier`), read at random from then on.

COMPRESSED_CHUNK = 1 << 16  # positions a compressed chunk: a look-up by `show` decompresses 128 KiB


def _tier_path(folder: Path, tier: int) -> Path:
    return Path(folder) / f"tier-{tier}.values"


def _write_tier(folder: Path, tier: int, cells) -> None:
    """A solved tier's final cells, uncompressed (a parent memory-maps them), written whole or not at all, 0600."""
    from explorer.core import valuestore

    valuestore.write(_tier_path(folder, tier), cells, codec="none")


def _open_store(folder: Path, tier: int):
    """A written tier as a valuestore.Store (random access, either codec); None when not written yet."""
    from explorer.core import valuestore

    path = _tier_path(folder, tier)
    if not path.exists():
        return None
    try:
        return valuestore.open(path)
    except valuestore.BadValueFile as error:
        raise GameGraphError(f"{error}; delete that file and run the same solve again to redo its tier") from None


def _open_tier(folder: Path, tier: int):
    """A written tier's cells as an array: memory-mapped read-only while uncompressed, else decompressed
    into memory (2 bytes a position); None when the tier is not written yet."""
    store = _open_store(folder, tier)
    if store is None:
        return None
    return store.as_memmap() if store.codec == "none" else store.to_array()


def _compress_tier(folder: Path, tier: int) -> "TierSummary | None":
    """Rewrite a tier's file in zstd chunks (about 0.25 bytes a position on Dodgem 5x5; bench/README.md),
    atomically: a reader sees the old file or the new one, and return its summary (`_summarize`, read
    on the way). None when there is nothing to do: not written, or compressed already."""
    from explorer.core import valuestore

    store = _open_store(folder, tier)
    if store is None or store.codec != "none":
        return None
    cells = store.as_memmap()
    summary = _summarize(cells)
    valuestore.write(_tier_path(folder, tier), cells, chunk=COMPRESSED_CHUNK, codec="zstd")
    del cells
    store.close()
    return summary


class TierSummary(NamedTuple):
    """What meta.json says of a tier: the positions of each code (explorer.core.values.Value, NO_POSITION
    at 6), the deepest remoteness of a win, loss or tie (0: none)."""
    codes: tuple[int, ...]
    deepest: int


SUMMARY_BLOCK = 1 << 22  # positions counted at a time: bounded temporaries


def _summarize(cells) -> TierSummary:
    """The tier's TierSummary, in blocks of SUMMARY_BLOCK (a memory map is read once, in order). O(N)."""
    import numpy as np

    codes = np.zeros(8, dtype=np.int64)
    deepest = 0
    for start in range(0, len(cells), SUMMARY_BLOCK):
        block = np.asarray(cells[start:start + SUMMARY_BLOCK])
        code = block & 7
        codes += np.bincount(code, minlength=8)
        decided = (code == Value.WIN) | (code == Value.LOSS) | (code == Value.TIE)
        if decided.any():
            deepest = max(deepest, int((block[decided] >> 3).max()))
    return TierSummary(tuple(int(c) for c in codes), deepest)


# -- one tier ---------------------------------------------------------------------------------------

def solve_tier(game: Game | str, tier: int, folder: str | os.PathLike, *children_done: Any,
               report: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Solve one tier from its children's files and write ``tier-<t>.values``; skipped when it is
    written already. `game` is a Game or its spec (a Dask worker parses it again: a spec is all a
    task carries); `children_done` are the children's results, only there so that Dask runs the
    children first. `report`: called with the positions of a loopy tier worked off its queue so far,
    every TIER_PROGRESS_STEP of them (implicit.solve_range's steps; a Dask task's goes to the client's bar).
    Peak memory: the tier's cells (2 bytes a position), the live queue (4 bytes a
    decided win or loss), one window of seeds (4 bytes a seed: seed_window_capacity), the children
    memory-mapped.
    Returns what was done: tier, positions, seconds, whether it was skipped."""
    from explorer.games.spec import parse_spec
    from explorer.kernels.retrograde import SeedWindows, finish_cells

    if isinstance(game, str):
        game = parse_spec(game)
    folder = Path(folder)
    tiers = tiers_of(game)
    lo, hi = tiers.offsets[tier], tiers.offsets[tier + 1]
    done = {"tier": tier, "name": tiers.names[tier], "positions": hi - lo, "seconds": 0.0, "skipped": True}
    if _tier_path(folder, tier).exists():
        return done
    t0 = time.perf_counter()
    kernels = game.implicit_kernels()
    if _is_loop_free(tiers, tier):
        cells = _solve_forward(game, kernels, tiers, tier, folder)
        _write_tier(folder, tier, cells)
        done.update(seconds=round(time.perf_counter() - t0, 3), skipped=False, mode="forward")
        return done
    children = []
    for child in tiers.children[tier]:
        cells = _open_tier(folder, child)
        if cells is None:
            raise GameGraphError(f"tier {tier} ({tiers.names[tier]}) needs child tier {child} "
                                 f"({tiers.names[child]}), which is not solved")
        children.append((tiers.offsets[child], cells))
    windows = SeedWindows(children, seed_window_capacity(hi - lo), SEED_WINDOW_PASSES)
    del children
    cells = implicit.solve_range(game, kernels, lo, hi, *windows.first(),
                                 f"{game.display_name} tier {tier} ({tiers.names[tier]})", windows=windows,
                                 report=report, step=None if report is None else TIER_PROGRESS_STEP)
    del windows
    finish_cells(cells)
    _write_tier(folder, tier, cells)
    done.update(seconds=round(time.perf_counter() - t0, 3), skipped=False)
    return done


def _worker_report(topic: str, tier: int) -> Callable[[int], None] | None:
    """A `report` for solve_tier inside a Dask worker: the tier and its positions worked, logged as an
    event on `topic` (Worker.log_event), which the client follows (`_DagProgress`), at most every
    PROGRESS_SECONDS. None outside a worker (a tier solved in this process shows its own bar)."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        return None
    last = [0.0]

    def report(worked: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_SECONDS:
            last[0] = now
            worker.log_event(topic, {"tier": tier, "worked": int(worked)})

    return report


def _solve_tier_task(game: str, tier: int, folder: str, topic: str | None, *children_done: Any) -> dict[str, Any]:
    """solve_tier as a Dask task: a loopy tier tells the client its progress on `topic` (None: bars off)."""
    report = _worker_report(topic, tier) if topic else None
    return solve_tier(game, tier, folder, *children_done, report=report)


def seed_window_capacity(positions: int) -> int:
    """Seeds in one window for a loopy tier of this many positions (SeedWindows may raise it to
    keep the passes over the children at most SEED_WINDOW_PASSES)."""
    return max(SEED_WINDOW_MIN, positions // SEED_WINDOW_SHARE)


def _is_loop_free(tiers: Tiers, tier: int) -> bool:
    """Whether the tier is solved forward: declared loop-free, with at most one child."""
    return bool(tiers.loop_free) and tiers.loop_free[tier] and len(tiers.children[tier]) <= 1


def _solve_forward(game: Game, kernels, tiers: Tiers, tier: int, folder: Path, start: int = 0,
                   end: int | None = None):
    """A loop-free tier's cells in one pass over its successors (explorer.kernels.retrograde.forward_cells),
    its child memory-mapped: 2 bytes a position of the tier (4 if a remoteness needs it), no queue, every core.
    `start`, `end`: only the positions [start, end) of the tier (a chunk; default the whole tier)."""
    import numpy as np

    from explorer.kernels.retrograde import BAD_SUCCESSOR, OVERFLOW, STUCK, forward_wrapper, payload_limit

    first = tiers.offsets[tier]
    end = tiers.offsets[tier + 1] - first if end is None else end
    lo, hi = first + start, first + end
    whole = tiers.offsets[tier + 1] - first
    child_lo, child_cells = 0, np.zeros(0, dtype=np.uint16)
    for child in tiers.children[tier]:
        child_cells = _open_tier(folder, child)
        if child_cells is None:
            raise GameGraphError(f"tier {tier} ({tiers.names[tier]}) needs child tier {child} "
                                 f"({tiers.names[child]}), which is not solved")
        child_lo = tiers.offsets[child]
    kernel = kernels.forward or forward_wrapper(kernels.labelled_successors, kernels.valid, kernels.terminal)
    for dtype in (np.uint16, np.uint32):
        cells = np.empty(hi - lo, dtype=dtype)
        status = np.zeros(1, dtype=np.int64)
        with progress.bar(f"{game.display_name} tier {tier} ({tiers.names[tier]})"
                          + (f" [{start:,}:{end:,}]" if (start, end) != (0, whole) else ""),
                          total=hi - lo) as bar:
            kernel(kernels.ctx, kernels.max_moves, lo, cells, child_lo, child_cells, status)
            bar.update(hi - lo)
        code = int(status[0])
        if code <= STUCK:
            stuck = game.format(game.unrank(lo + STUCK - code))
            raise GameGraphError(f"{game.display_name}: position {stuck} is not over but has no moves")
        if code == BAD_SUCCESSOR:
            raise GameGraphError(f"{game.display_name}: a move from tier {tier} ({tiers.names[tier]}) leaves for a "
                                 "tier that is not its declared child (its Tiers declaration is wrong)")
        if code != OVERFLOW:
            return cells
    raise GameGraphError(f"{game.display_name}: a remoteness exceeds {payload_limit(cells):,}")


# -- a loop-free tier in chunks ---------------------------------------------------------------------
# Every position of a loop-free tier is decided from its child's finished cells alone (forward_cells),
# so the tier's index range splits into chunks solved as separate Dask tasks, on several workers at
# once: Connect Four's tiers form a chain, one tier ready at a time, which would otherwise keep one
# worker busy. Each chunk task writes its own part file (a value file, codec none, atomically); one
# merge task concatenates the parts into the tier's file, written atomically as an unchunked solve
# writes it (the same bytes: tests/explorer/test_tiered.py), then removes them. A part already
# written is not solved again, so an interrupted tier resumes from its finished chunks.

MIN_FORWARD_CHUNK = 1 << 20  # the fewest positions worth a task (Connect Four: about half a second of CPU)
FORWARD_TASKS_PER_WORKER = 4  # chunks a tier is cut into per worker: a late chunk leaves no worker idle long


def forward_ranges(size: int, workers: int, chunk: int | None = None) -> list[tuple[int, int]]:
    """The chunks [start, end) of a loop-free tier of `size` positions: `chunk` positions each when given,
    else FORWARD_TASKS_PER_WORKER per worker of at least MIN_FORWARD_CHUNK; one chunk (the whole tier,
    no merge) for one worker."""
    if chunk is None:
        tasks = 1 if workers <= 1 else min(-(-size // MIN_FORWARD_CHUNK), FORWARD_TASKS_PER_WORKER * workers)
        chunk = -(-size // max(tasks, 1))
    chunk = max(int(chunk), 1)
    return [(a, min(a + chunk, size)) for a in range(0, size, chunk)] or [(0, 0)]


def _part_path(folder: Path, tier: int, start: int, end: int) -> Path:
    return Path(folder) / f"tier-{tier}.part-{start}-{end}.values"


def _remove_parts(folder: Path, tier: int) -> None:
    """The part files of a tier whose file is written (left by an interrupted merge or another chunking)."""
    for part in Path(folder).glob(f"tier-{tier}.part-*.values"):
        part.unlink(missing_ok=True)


def solve_forward_chunk(game: Game | str, tier: int, start: int, end: int, folder: str | os.PathLike,
                        *children_done: Any) -> dict[str, Any]:
    """Solve positions [start, end) of a loop-free tier into their part file; skipped when the part or the
    tier's file is written already. Peak memory: 2 bytes a position of the chunk, the child memory-mapped."""
    from explorer.core import valuestore
    from explorer.games.spec import parse_spec

    if isinstance(game, str):
        game = parse_spec(game)
    folder = Path(folder)
    tiers = tiers_of(game)
    done = {"tier": tier, "name": tiers.names[tier], "chunk": (start, end), "positions": end - start,
            "seconds": 0.0, "skipped": True}
    part = _part_path(folder, tier, start, end)
    if _tier_path(folder, tier).exists() or part.exists():
        return done
    t0 = time.perf_counter()
    cells = _solve_forward(game, game.implicit_kernels(), tiers, tier, folder, start, end)
    valuestore.write(part, cells, codec="none")
    done.update(seconds=round(time.perf_counter() - t0, 3), skipped=False)
    return done


def merge_forward_chunks(game: Game | str, tier: int, folder: str | os.PathLike, ranges: list[tuple[int, int]],
                         *chunks_done: Any) -> dict[str, Any]:
    """The tier's file from its chunks' part files (uint32 throughout when one chunk needed it, as the
    unchunked solve does), written atomically, then the parts removed; skipped when it is written already.
    Peak memory: 2 bytes a position of the tier (4 with uint32), the parts memory-mapped."""
    import numpy as np

    from explorer.core import valuestore
    from explorer.games.spec import parse_spec

    if isinstance(game, str):
        game = parse_spec(game)
    folder = Path(folder)
    tiers = tiers_of(game)
    lo, hi = tiers.offsets[tier], tiers.offsets[tier + 1]
    done = {"tier": tier, "name": tiers.names[tier], "positions": hi - lo, "seconds": 0.0, "skipped": True,
            "mode": "forward", "chunks": len(ranges)}
    if _tier_path(folder, tier).exists():
        _remove_parts(folder, tier)
        return done
    t0 = time.perf_counter()
    parts = []
    for start, end in ranges:
        path = _part_path(folder, tier, start, end)
        try:
            parts.append((start, end, valuestore.open(path)))
        except valuestore.BadValueFile as error:
            raise GameGraphError(f"{error}; delete that file and run the same solve again to redo its chunk") from None
        except GameGraphError:
            raise GameGraphError(f"tier {tier} ({tiers.names[tier]}) misses the part file {path.name} "
                                 "of one of its chunks: run the same solve again") from None
    ends = [0] + [b for _, b, _ in parts]
    if ends[-1] != hi - lo or any(a != ends[k] or len(store) != b - a for k, (a, b, store) in enumerate(parts)):
        raise GameGraphError(f"the chunks of tier {tier} ({tiers.names[tier]}) do not cover it")
    dtype = max((store.dtype for _, _, store in parts), key=lambda d: d.itemsize)
    cells = np.empty(hi - lo, dtype=dtype)
    for start, end, store in parts:
        cells[start:end] = store.as_memmap()
        store.close()
    _write_tier(folder, tier, cells)
    del cells, parts
    _remove_parts(folder, tier)
    done.update(seconds=round(time.perf_counter() - t0, 3), skipped=False)
    return done


# -- the DAG on Dask --------------------------------------------------------------------------------

def _quiet_task(work, *args: Any) -> dict[str, Any]:
    """solve_tier (`_solve_tier_task`), solve_forward_chunk or merge_forward_chunks as a Dask task: quiet (a
    worker's bars would garble the client's on a shared terminal; the client shows a bar per tier)."""
    from explorer.core import settings

    name = settings.PROGRESS_ENV
    before = os.environ.get(name)
    os.environ[name] = "0"
    try:
        return work(*args)
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def scheduler_address(scheduler: str | None) -> str | None:
    """The cluster to use: the given address, else DASK_SCHEDULER_ADDRESS, else None (a local cluster).
    An address Dask cannot parse (an unknown scheme, no port, a port out of range) is an InvalidParameter
    naming it and where it came from, checked by `solve` before anything else, also when every tier is
    written already and no scheduler would be asked."""
    address = scheduler or os.environ.get(SCHEDULER_VARIABLE) or None
    if address is None:
        return None
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    from explorer.core.errors import InvalidParameter, shown

    source = "--scheduler" if scheduler else SCHEDULER_VARIABLE
    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme != "inproc" and not 0 < parse_host_port(location)[1] < 65536:
            raise ValueError("its port is not one of 1-65535")
    except (ValueError, TypeError) as error:
        raise InvalidParameter(f"{source} {shown(address)} is not a Dask scheduler address ({error}); "
                               "give one like tcp://10.0.0.5:8786") from None
    return address


CONNECT_SECONDS = 20  # the longest wait for an existing scheduler to answer


def _connect(address: str):
    """A Client on the scheduler at `address`, or a GameGraphError in one line within CONNECT_SECONDS:
    also when something else listens there (a web server that never answers Dask's handshake, which
    Client's own timeout does not cover, or one whose bytes Dask reads as a huge message length)."""
    import threading

    from distributed import Client

    outcome: dict[str, Any] = {}

    def attempt() -> None:
        try:
            # Half the deadline (10 s): a refused connection is retried until then and reported as such.
            outcome["client"] = Client(address, timeout=f"{CONNECT_SECONDS / 2:g}s")
        except BaseException as error:  # noqa: BLE001 - reported below, in one line
            outcome["error"] = error

    thread = threading.Thread(target=attempt, name="dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS)
    if "client" in outcome:
        return outcome["client"]
    error = outcome.get("error")
    if error is None:
        why = f"no answer within {CONNECT_SECONDS} s"
    elif isinstance(error, MemoryError):
        why = "its answer is not Dask's"
    else:
        why = f"{type(error).__name__}: {error}"
    raise GameGraphError(f"cannot reach the Dask scheduler at {address} ({why}); is a Dask scheduler "
                         "listening there? (docs/distributed.md)")


WORKERS_PER_CORE = 4  # a local cluster beyond this many processes a core only takes turns (and memory)


def max_local_workers() -> int:
    """The most worker processes a local cluster may start here: WORKERS_PER_CORE per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_local_workers(workers: int | None) -> None:
    """Refuse, before any work, a local cluster of more processes than `max_local_workers` (InvalidParameter)."""
    from explorer.core.errors import InvalidParameter

    if workers is not None and workers > max_local_workers():
        raise InvalidParameter(
            f"--workers {workers:,}: a local cluster of more than {max_local_workers()} worker processes "
            f"({WORKERS_PER_CORE} per core of this machine's {os.cpu_count() or 1}) only takes turns on its cores; "
            "for more, start workers on other machines and pass --scheduler (docs/distributed.md)")


def _client(scheduler: str | None, workers: int | None, processes: bool = True):
    """A distributed.Client: on the scheduler at `scheduler`, or on a new LocalCluster of `workers`
    processes (default: this machine's cores), one thread each, since the kernel uses its cores
    through numba only in its short parallel passes. A GameGraphError when the address answers not."""
    from distributed import Client, LocalCluster

    address = scheduler_address(scheduler)
    if address:
        return _connect(address)
    count = workers or os.cpu_count() or 1
    try:
        # Loopback only, the dashboard too (on a free port): nothing listens beyond this machine.
        where = {"host": "127.0.0.1", "worker_dashboard_address": "127.0.0.1:0"} if processes else {}  # else in-process
        # The workers' scratch space in the state folder, not Dask's default /tmp/dask-scratch-space.
        scratch = private.ensure_private_dir(private.private_state_dir() / "dask")
        cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=processes,
                               dashboard_address="127.0.0.1:0", silence_logs=50, local_directory=str(scratch),
                               **where)
        return Client(cluster)
    except (OSError, TimeoutError, RuntimeError) as error:
        raise GameGraphError(f"cannot start a local Dask cluster of {count} worker(s): {error}") from None


def solve(game: Game, folder: Path | None = None, scheduler: str | None = None, workers: int | None = None,
          processes: bool = True, client=None, compress: bool = True,
          forward_chunk: int | None = None) -> "TieredValues":
    """Solve every tier of the game not solved yet in `folder` (default: the state folder's) on Dask,
    children first, compress every tier file (unless `compress` is False: they stay memory-mappable,
    2 bytes a position), then write ``meta.json``; return the reader. `client`: an existing
    distributed.Client to use (kept open); else one made by `_client` and closed at the end.
    `forward_chunk`: the positions of a chunk of a loop-free tier (default: forward_ranges chooses)."""
    _require(game)
    check_local_workers(workers)  # here, not where the cluster starts: a solve already written starts none
    scheduler_address(scheduler)  # likewise: a bad address is refused even when no scheduler is needed
    tiers = tiers_of(game)
    size = game.index_space()
    order = check_tiers(tiers, size)
    check_size(game, tiers)
    in_state_folder = folder is None
    folder = Path(folder) if folder else folder_for(game)
    if in_state_folder:
        private.private_state_dir()
    private.ensure_private_dir(folder)
    _claim(game, tiers, folder)
    todo = [t for t in order if not _tier_path(folder, t).exists()]
    for t in set(order) - set(todo):
        _remove_parts(folder, t)
    seconds = 0.0
    if todo:
        t0 = time.perf_counter()
        _run_dag(game, tiers, todo, folder, scheduler, workers, processes, client, forward_chunk)
        seconds = time.perf_counter() - t0
    summaries = _compress_all(game, tiers, folder) if compress else {}
    if todo or not (folder / "meta.json").exists():
        _write_meta(game, tiers, folder, seconds, summaries)
    return TieredValues(game, folder)


def _compress_all(game: Game, tiers: Tiers, folder: Path) -> dict[int, "TierSummary"]:
    """Compress the tier files still uncompressed, in this process, with a progress bar over positions.
    After the whole DAG: a parent solved later would read a compressed child into memory, not map it.
    Returns the summary (`_summarize`) of each tier it compressed, taken from the memory map just
    before it is compressed (the pages at hand), so `_write_meta` need not decompress those tiers."""
    count = len(tiers.offsets) - 1
    summaries: dict[int, TierSummary] = {}
    with progress.bar(f"compressing the tiers of {game.display_name}", total=tiers.offsets[-1]) as bar:
        for t in range(count):
            summary = _compress_tier(folder, t)
            if summary is not None:
                summaries[t] = summary
            bar.update(tiers.offsets[t + 1] - tiers.offsets[t])
    return summaries


def _run_dag(game: Game, tiers: Tiers, todo: list[int], folder: Path, scheduler, workers, processes, client,
             forward_chunk: int | None = None) -> None:
    """Submit the tasks of every tier to solve, each depending on its children's, and wait for all: one
    task per tier, or for a loop-free tier one per chunk (forward_ranges; `forward_chunk` forces the
    chunk size) and a merge. Shows a bar over the positions of the finished tiers and a bar per tier
    that runs (`_DagProgress`)."""
    own = client is None
    if own:
        client = _client(scheduler, workers, processes)
    shown = None
    try:
        from importlib.util import find_spec

        addresses = sorted(client.scheduler_info().get("workers", {}))
        workers_now = len(addresses)
        stamp = f"{game.name}-{os.getpid()}-{time.time_ns()}"
        # Bars on or off asked before a task can run (in-process); the run's own topic for its loopy tiers' progress.
        shown = _DagProgress(game, tiers, todo, client, progress.enabled(), f"{PROGRESS_TOPIC}-{stamp}")
        if shown.enabled:
            # Dask serves its dashboard only with bokeh (installed with gamegraph: dask[diagnostics]).
            dashboard = f"dashboard {client.dashboard_link}" if find_spec("bokeh") else "no dashboard (bokeh is missing)"
            progress.notice(f"solving {len(todo)} tier(s) of {game.display_name} on Dask: {workers_now} worker(s)"
                            f" at {client.scheduler.address}, {dashboard}")
        # Every worker loads the game's compiled kernels at once, beside the first tier (seconds each, more
        # on a loaded machine), rather than at its first chunk while the others wait for it to finish.
        warm = [client.submit(_quiet_task, _warm_up, game.id, workers=[w], allow_other_workers=True, pure=False,
                              key=f"warm-up-{w}-{stamp}") for w in addresses]
        done_of: dict[int, Any] = {}  # the future whose end means the tier's file is written
        tier_of_key: dict[str, int] = {}
        submitted: list[Any] = []
        for t in todo:  # children first: their futures exist when a parent is submitted
            needs = [done_of[c] for c in tiers.children[t] if c in done_of]
            size = tiers.offsets[t + 1] - tiers.offsets[t]
            ranges = forward_ranges(size, workers_now, forward_chunk) if _is_loop_free(tiers, t) else [(0, size)]
            if len(ranges) > 1:
                # Chunk k goes to worker k mod W (a loose restriction: another one if that one is gone): else
                # Dask puts every chunk where the child's (tiny) result is, and only work stealing spreads them.
                parts = [client.submit(_quiet_task, solve_forward_chunk, game.id, t, a, b, str(folder), *needs,
                                       pure=False, key=f"tier-{t}-chunk-{a}-{stamp}",
                                       workers=[addresses[k % workers_now]] if addresses else None,
                                       allow_other_workers=True)
                         for k, (a, b) in enumerate(ranges)]
                done_of[t] = client.submit(_quiet_task, merge_forward_chunks, game.id, t, str(folder), ranges, *parts,
                                           pure=False, key=f"tier-{t}-merge-{stamp}")
                tier_of_key.update((part.key, t) for part in parts)
                submitted += parts
            else:
                done_of[t] = client.submit(_quiet_task, _solve_tier_task, game.id, t, str(folder), shown.topic,
                                           *needs, pure=False, key=f"tier-{t}-{stamp}")
            tier_of_key[done_of[t].key] = t
            submitted.append(done_of[t])
        shown.tier_of_key = tier_of_key
        with shown:
            for future in _as_finished(submitted, shown):
                try:
                    done = future.result()
                except GameGraphError:
                    raise
                except Exception as error:  # a worker died or a task failed: say which, never a traceback
                    raise GameGraphError(f"a tier of {game.display_name} failed on Dask: "
                                         f"{type(error).__name__}: {error}") from None
                shown.finished(done)
        del warm  # done by now, or not needed any more
    finally:
        if shown is not None:
            shown.unsubscribe()
        if own:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()


def _warm_up(spec: str) -> dict[str, Any]:
    """Parse the game and load its compiled kernels in this worker (numba's cache) before its first task: the
    one-pass solve of loop-free tiers too, called on no positions (numba loads a kernel at its first call)."""
    import numpy as np

    from explorer.games.spec import parse_spec
    from explorer.kernels.retrograde import forward_wrapper

    game = parse_spec(spec)
    kernels = game.implicit_kernels()
    tiers = tiers_of(game)
    if any(_is_loop_free(tiers, t) for t in range(len(tiers.names))):
        kernel = kernels.forward or forward_wrapper(kernels.labelled_successors, kernels.valid, kernels.terminal)
        nothing = np.zeros(0, dtype=np.uint16)
        kernel(kernels.ctx, kernels.max_moves, 0, nothing, 0, nothing, np.zeros(1, dtype=np.int64))
    return {}


POLL_SECONDS = 0.25  # how often the client asks the scheduler which tasks run, while bars are shown


def _as_finished(futures: list[Any], shown: "_DagProgress"):
    """The futures as they finish (distributed.as_completed); while bars are shown, the scheduler is asked
    every POLL_SECONDS which tiers run in between, so that a tier's bar appears when it starts."""
    from distributed import as_completed

    finished = as_completed(futures)
    if not shown.enabled:
        yield from finished
        return
    while not finished.is_empty():
        batch = finished.next_batch(block=False)
        if batch:
            yield from batch
        else:
            shown.poll()
            time.sleep(POLL_SECONDS)


class _DagProgress:
    """The client's bars (explorer.core.progress): one over the positions of the finished tiers, and one
    per running tier (its name, its positions done as its chunks finish, or as a loopy tier's queue is
    worked: the events its worker logs on `topic`, `_worker_report`), gone when the tier is written.
    A tier runs when the scheduler says one of its tasks is processing (Client.processing), or when one
    of its chunks has finished. Nothing is shown, the scheduler not asked and no topic followed, when
    bars are off. Events reach the client from workers anywhere (a cluster elsewhere too)."""

    def __init__(self, game: Game, tiers: Tiers, todo: list[int], client, enabled: bool, topic: str | None = None):
        self.game, self.tiers, self.client, self.enabled = game, tiers, client, enabled
        self.tier_of_key: dict[str, int] = {}  # a task's key -> its tier, filled as tasks are submitted
        self.worked: dict[int, int] = {}  # a loopy tier -> its positions worked, as its worker last said
        self.written_tiers: set[int] = set()  # a late event must not open their bars again
        self.topic = topic if enabled else None
        if self.topic:  # before any task is submitted: an event logged before the subscription is lost
            client.subscribe_topic(self.topic, self._progressed)
        self.total = sum(tiers.offsets[t + 1] - tiers.offsets[t] for t in todo)
        self.count = len(todo)
        self.written = 0
        self.bars: dict[int, tuple[Any, Any]] = {}  # tier -> (context manager, bar)
        self.chunk_seconds: dict[int, float] = {}  # tier -> seconds its finished chunks took

    def __enter__(self) -> "_DagProgress":
        self.overall_context = progress.bar(f"{self.game.display_name}: 0 of {self.count} tier(s)", total=self.total)
        self.overall = self.overall_context.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        for tier in list(self.bars):
            self._close(tier)
        self.overall_context.__exit__(*exc)

    def _bar(self, tier: int):
        if tier not in self.bars:
            lo, hi = self.tiers.offsets[tier], self.tiers.offsets[tier + 1]
            context = progress.bar(f"tier {tier} ({self.tiers.names[tier]})", total=hi - lo)
            self.bars[tier] = (context, context.__enter__())
        return self.bars[tier][1]

    def _close(self, tier: int) -> None:
        context, _ = self.bars.pop(tier)
        context.__exit__(None, None, None)

    def _progressed(self, event) -> None:
        """A worker's event (timestamp, {"tier", "worked"}), in the client's event loop thread: only kept
        here (one dict item set), shown by the next `poll` in the thread that owns the bars."""
        _, message = event
        tier, worked = int(message["tier"]), int(message["worked"])
        self.worked[tier] = max(worked, self.worked.get(tier, 0))

    def unsubscribe(self) -> None:
        """Stop following the run's topic (the client may live on: one given to `solve`)."""
        if self.topic:
            topic, self.topic = self.topic, None
            try:
                self.client.unsubscribe_topic(topic)
            except Exception:  # noqa: BLE001 - a closed client has no subscription left anyway
                pass

    def poll(self) -> None:
        """Open a bar for each tier the scheduler runs now, move a loopy tier's bar to its positions worked;
        let every bar show the time gone by."""
        try:
            running = {self.tier_of_key[key] for keys in self.client.processing().values() for key in keys
                       if key in self.tier_of_key}
        except Exception:  # noqa: BLE001 - only the bars depend on it; a failed task is reported by its future
            running = set()
        for tier in sorted(running):
            self._bar(tier)
        for tier, worked in list(self.worked.items()):
            if tier not in self.written_tiers:
                bar = self._bar(tier)
                if worked > bar.n:
                    bar.update(worked - bar.n)
        for _, bar in self.bars.values():
            bar.update(0)
        self.overall.update(0)

    def finished(self, done: dict[str, Any]) -> None:
        """A chunk advances its tier's bar; a written tier closes its bar and advances the overall one."""
        tier = done["tier"]
        if "chunk" in done:
            self.chunk_seconds[tier] = self.chunk_seconds.get(tier, 0.0) + done["seconds"]
            if self.enabled:
                self._bar(tier).update(done["positions"])
            return
        self.written_tiers.add(tier)
        if tier in self.bars:
            self._close(tier)
        self.written += 1
        self.overall.update(done["positions"])
        self.overall.set_description_str(f"{self.game.display_name}: {self.written} of {self.count} tier(s)")
        seconds = done["seconds"] + self.chunk_seconds.pop(tier, 0.0)  # a chunked tier: its chunks' and merge's
        self.overall.set_postfix_str(f"tier {tier} ({done['name']}) in {seconds:.3g} s")


def _require(game: Game) -> None:
    if not supports(game):
        raise GameGraphError(f"{game.display_name} offers no ranking with compiled kernels, "
                             "so it has no tiered (or implicit) solve")


def _claim(game: Game, tiers: Tiers, folder: Path) -> None:
    """Mark the folder as this game's tiers (``game.json``), or refuse a folder of another game or tiers,
    whose tier files would be read as this game's."""
    mark = {"format": FORMAT, "game": game.id, "offsets": list(tiers.offsets), **implicit.ranking_mark(game)}
    path = folder / "game.json"
    if path.exists():
        try:
            found = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise GameGraphError(f"cannot read {path}: {error}") from None
        if found != mark:
            raise GameGraphError(f"{folder} holds the tiers of {found.get('game')} (format {found.get('format')}, "
                                 f"ranking version {found.get('ranking', 0)}), not of {game.id} (format {FORMAT}, "
                                 f"ranking version {game.ranking_version}): use another folder")
        return
    with private.atomic_private_file(path) as handle:
        handle.write((json.dumps(mark) + "\n").encode())


def _write_meta(game: Game, tiers: Tiers, folder: Path, seconds: float,
                summaries: dict[int, TierSummary] | None = None) -> None:
    """``meta.json``: counts of each value over all tiers, the deepest remoteness, the start. `summaries`:
    the tiers summarized already (by `_compress_all`); any other tier is read once here."""
    summaries = summaries or {}
    counts = {str(v): 0 for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}
    invalid, deepest, stored = 0, 0, 0
    for t in range(len(tiers.offsets) - 1):
        summary = summaries.get(t)
        if summary is None:
            summary = _summarize(_open_tier(folder, t))
        for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW):
            counts[str(v)] += summary.codes[int(v)]
        invalid += summary.codes[NO_POSITION]
        deepest = max(deepest, summary.deepest)
        stored += _tier_path(folder, t).stat().st_size
    values = TieredValues(game, folder, meta={})
    start = game.start()
    meta = {"format": FORMAT, "game": game.id, "display_name": game.display_name, "index_space": game.index_space(),
            "tiers": {"offsets": list(tiers.offsets), "children": [list(c) for c in tiers.children],
                      "names": list(tiers.names)},
            "positions": game.index_space() - invalid, "invalid_indices": invalid, "counts": counts,
            "max_remoteness": deepest, "bytes_on_disk": stored,
            "start": {"index": game.rank(start), "key": game.format(start), "value": str(values.value(start)),
                      "remoteness": values.remoteness(start)},
            "seconds": round(seconds, 3), **implicit.ranking_mark(game)}
    with private.atomic_private_file(folder / "meta.json") as handle:
        handle.write((json.dumps(meta, indent=2) + "\n").encode())


def exists(game: Game) -> bool:
    return supports(game) and (folder_for(game) / "meta.json").exists()


def open_values(game: Game, folder: Path | None = None) -> "TieredValues":
    """The game's solved tiers; a GameGraphError saying how to make them when there are none."""
    _require(game)
    folder = Path(folder) if folder else folder_for(game)
    if not (folder / "meta.json").exists():
        raise GameGraphError(f"{game.display_name} has no tiered solve yet: run gamegraph solve "
                             f"'{game.display_name}' --tiered")
    return TieredValues(game, folder)


def edgeless_flag(game: Game) -> str | None:
    """The `solve` option that solves this game without stored edges, for hints: --tiered for a game
    with tiers, --implicit for one whose ranking fits one tier, None when neither can."""
    if not implicit.supports(game):
        return None
    tiers = game.tiers() if game.offers.tiers else None
    if tiers is not None:
        largest = max(b - a for a, b in zip(tiers.offsets, tiers.offsets[1:]))
        return "--tiered" if largest < implicit.MAX_INDICES else None
    size = game.implicit_size()  # a folded ranking is solved over its half (Offers.folded): no kernels built
    return "--implicit" if size < implicit.MAX_INDICES else None


def check_size(game: Game, tiers: Tiers) -> None:
    """Refuse before any work, in one line (GraphTooLarge): a tier over the one-tier limit, or a tier
    whose solve needs more memory than is available: 2 bytes a position of the tier (4 for the
    queue and seeds of a loopy one) and its children's files read through the page cache."""
    from explorer.core.errors import GraphTooLarge
    from explorer.core.limits import meminfo_available

    sizes = [b - a for a, b in zip(tiers.offsets, tiers.offsets[1:])]
    t = max(range(len(sizes)), key=sizes.__getitem__)
    if sizes[t] >= implicit.MAX_INDICES:
        raise GraphTooLarge(f"{game.display_name}: tier {t} ({tiers.names[t]}) has {sizes[t]:,} indices; the tiered "
                            f"solver solves a tier of at most {implicit.MAX_INDICES - 1:,}")
    available = meminfo_available()
    for t, size in enumerate(sizes):
        need = size * (2 if _is_loop_free(tiers, t) else 6) + sum(2 * sizes[c] for c in tiers.children[t])
        if available is not None and need > available:
            raise GraphTooLarge(f"{game.display_name}: tier {t} ({tiers.names[t]}) needs about {need / 2**30:,.1f} GiB "
                                f"to solve, and {available / 2**30:,.1f} GiB of memory is available")


def solved_exists(game: Game) -> bool:
    """Whether the game has a tiered solve or an implicit value file in the state folder."""
    return exists(game) or implicit.exists(game)


def open_solved(game: Game) -> "implicit.ValueFile":
    """The game's values without a graph: its tiered solve, else its implicit value file (the same
    interface: value, remoteness, record, moves, best_line); a GameGraphError saying how to make one."""
    if exists(game):
        return open_values(game)
    return implicit.open_value_file(game)


class TieredValues(implicit.ValueFile):
    """A tiered solve's values and remoteness, read from the memory-mapped tier files: the interface
    of implicit.ValueFile (value, remoteness, record, moves, best_line), one tier file read per look-up."""

    def __init__(self, game: Game, folder: Path, meta: dict[str, Any] | None = None):
        self.game = game
        self.folder = Path(folder)
        self.tiers = tiers_of(game)
        try:
            self.meta = meta if meta is not None else json.loads((self.folder / "meta.json").read_text())
            if meta is None and (self.meta.get("format") != FORMAT or self.meta.get("game") != game.id):
                raise ValueError("tier files of another game or format")
            if meta is None:
                implicit.check_ranking(self.meta, game, "tier files")
        except (OSError, ValueError) as error:
            raise GameGraphError(f"cannot read the tiered solve in {self.folder}: {error}") from None
        self._cells: dict[int, Any] = {}

    def cell(self, index: int) -> int:
        """The stored cell of a global index (value code in the low 3 bits, remoteness above)."""
        from bisect import bisect_right

        tier = bisect_right(self.tiers.offsets, index) - 1
        if tier not in self._cells:
            cells = _open_store(self.folder, tier)  # one chunk read a look-up, compressed or not
            if cells is None:
                raise GameGraphError(f"tier {tier} of {self.game.display_name} is not solved in {self.folder}")
            self._cells[tier] = cells
        return int(self._cells[tier][index - self.tiers.offsets[tier]])

    def value(self, position: Any) -> Value:
        code = self.cell(self.game.rank(position)) & 7
        if code == NO_POSITION:
            raise GameGraphError(f"{self.game.format(position)} is no legal position of {self.game.display_name}")
        return Value(code)

    def remoteness(self, position: Any) -> int | None:
        cell = self.cell(self.game.rank(position))
        return None if (cell & 7) in (Value.DRAW, NO_POSITION) else cell >> 3

    def arrays(self):
        """(value int8, remoteness int32) over the whole ranking, as the implicit mode's value file
        holds them (-2 / -1 where no position; -1 for draws): for comparisons, O(N) memory."""
        import numpy as np

        value = np.empty(self.tiers.offsets[-1], dtype=np.int8)
        remoteness = np.empty(self.tiers.offsets[-1], dtype=np.int32)
        for t in range(len(self.tiers.offsets) - 1):
            lo, hi = self.tiers.offsets[t], self.tiers.offsets[t + 1]
            cells = np.asarray(_open_tier(self.folder, t)).astype(np.int64)
            codes = cells & 7
            value[lo:hi] = np.where(codes == NO_POSITION, implicit.INVALID, codes)
            remoteness[lo:hi] = np.where((codes == Value.DRAW) | (codes == NO_POSITION), -1, cells >> 3)
        return value, remoteness
