"""The tiered solver: a game's ranking solved tier by tier, the tier DAG run by Dask.distributed.

A game may split its ranking into tiers (offers.tiers, explorer.games.base.Tiers): every
move stays in its tier or goes to a *child* tier, and the tiers form a DAG, as in
GamesmanOne. A game without tiers is one tier, the whole ranking, so the implicit mode
(explorer.implicit) is the one-tier case of the same range solve (`implicit.solve_range`).

A tier is solved by the one compiled retrograde loop (explorer.kernels.retrograde.solve_cells)
over its index range, its children's decided positions entering the loop as *seeds*, read
from their tier files memory-mapped and read-only (`seeds_of`). Cycles inside a tier are
allowed. Each tier is written to ``tier-<t>.values`` atomically and owner-only
(explorer.core.private); a tier already written is never solved again, so an interrupted
solve resumes from the tiers it finished. A tier file holds the kernel's final cell per
position (uint16, or uint32 when a remoteness needs it): the value code in the low 3 bits
(explorer.core.values.Value; 6 = no position) and the remoteness above it.
`_write_tier` and `_open_tier` are the only functions that know that layout on disk.

Dask.distributed (`dask`, `distributed` from PyPI) runs the DAG: one task per tier, given the
game's spec (parsed again in the worker) and the tier, its children's futures as its
dependencies. By default a LocalCluster of worker *processes* on this machine's cores, one
thread each; `scheduler=ADDRESS` (or DASK_SCHEDULER_ADDRESS) uses an existing cluster
whose workers see the same folder. docs/distributed.md says how and why.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from explorer import implicit
from explorer.core import private, progress
from explorer.core.errors import GameGraphError
from explorer.core.values import Value
from explorer.games.base import Game, Tiers

FORMAT = 2  # 2: tier files are compact value files (explorer.core.valuestore)
CACHE_KIND = "tiered"  # the state folder's subfolder of tier folders
SCHEDULER_VARIABLE = "DASK_SCHEDULER_ADDRESS"
NO_POSITION = 6  # a tier cell's code for an index that names no position (explorer.kernels.retrograde)


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
    return private.cache_path(CACHE_KIND, game.name, f"{FORMAT}|{game.id}")


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


def _compress_tier(folder: Path, tier: int) -> None:
    """Rewrite a tier's file in zstd chunks (about 0.25 bytes a position on Dodgem 5x5; bench/README.md),
    atomically: a reader sees the old file or the new one. Nothing to do when it is compressed already."""
    from explorer.core import valuestore

    store = _open_store(folder, tier)
    if store is None or store.codec != "none":
        return
    cells = store.as_memmap()
    valuestore.write(_tier_path(folder, tier), cells, chunk=COMPRESSED_CHUNK, codec="zstd")
    del cells
    store.close()


# -- one tier ---------------------------------------------------------------------------------------

def solve_tier(game: Game | str, tier: int, folder: str | os.PathLike, *children_done: Any) -> dict[str, Any]:
    """Solve one tier from its children's files and write ``tier-<t>.values``; skipped when it is
    written already. `game` is a Game or its spec (a Dask worker parses it again: a spec is all a
    task carries); `children_done` are the children's results, only there so that Dask runs the
    children first. Peak memory: the tier's cells (2 bytes a position), the live queue (4 bytes a
    decided win or loss), 4 bytes a decided child position (the seeds), the children memory-mapped.
    Returns what was done: tier, positions, seconds, whether it was skipped."""
    from explorer.games.spec import parse_spec
    from explorer.kernels.retrograde import finish_cells, seeds_of

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
    seeds, seed_runs = seeds_of(children)
    del children
    cells = implicit.solve_range(game, kernels, lo, hi, seeds, seed_runs,
                                 f"{game.display_name} tier {tier} ({tiers.names[tier]})")
    del seeds, seed_runs
    finish_cells(cells)
    _write_tier(folder, tier, cells)
    done.update(seconds=round(time.perf_counter() - t0, 3), skipped=False)
    return done


def _is_loop_free(tiers: Tiers, tier: int) -> bool:
    """Whether the tier is solved forward: declared loop-free, with at most one child."""
    return bool(tiers.loop_free) and tiers.loop_free[tier] and len(tiers.children[tier]) <= 1


def _solve_forward(game: Game, kernels, tiers: Tiers, tier: int, folder: Path):
    """A loop-free tier's cells in one pass over its successors (explorer.kernels.retrograde.forward_cells),
    its child memory-mapped: 2 bytes a position of the tier (4 if a remoteness needs it), no queue, every core."""
    import numpy as np

    from explorer.kernels.retrograde import BAD_SUCCESSOR, OVERFLOW, STUCK, forward_wrapper, payload_limit

    lo, hi = tiers.offsets[tier], tiers.offsets[tier + 1]
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
        with progress.bar(f"{game.display_name} tier {tier} ({tiers.names[tier]})", total=hi - lo) as bar:
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


# -- the DAG on Dask --------------------------------------------------------------------------------

def _tier_task(spec: str, tier: int, folder: str, *children_done: Any) -> dict[str, Any]:
    """solve_tier as a Dask task: quiet (a worker's bars would garble the client's on a shared
    terminal; the client shows one bar for all tiers)."""
    from explorer.core import settings

    name = settings.PROGRESS_ENV
    before = os.environ.get(name)
    os.environ[name] = "0"
    try:
        return solve_tier(spec, tier, folder, *children_done)
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def scheduler_address(scheduler: str | None) -> str | None:
    """The cluster to use: the given address, else DASK_SCHEDULER_ADDRESS, else None (a local cluster)."""
    return scheduler or os.environ.get(SCHEDULER_VARIABLE) or None


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
            outcome["client"] = Client(address, timeout="10s")
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
          processes: bool = True, client=None, compress: bool = True) -> "TieredValues":
    """Solve every tier of the game not solved yet in `folder` (default: the state folder's) on Dask,
    children first, compress every tier file (unless `compress` is False: they stay memory-mappable,
    2 bytes a position), then write ``meta.json``; return the reader. `client`: an existing
    distributed.Client to use (kept open); else one made by `_client` and closed at the end."""
    _require(game)
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
    seconds = 0.0
    if todo:
        t0 = time.perf_counter()
        _run_dag(game, tiers, todo, folder, scheduler, workers, processes, client)
        seconds = time.perf_counter() - t0
    if compress:
        _compress_all(game, tiers, folder)
    if todo or not (folder / "meta.json").exists():
        _write_meta(game, tiers, folder, seconds)
    return TieredValues(game, folder)


def _compress_all(game: Game, tiers: Tiers, folder: Path) -> None:
    """Compress the tier files still uncompressed, in this process, with a progress bar over positions.
    After the whole DAG: a parent solved later would read a compressed child into memory, not map it."""
    count = len(tiers.offsets) - 1
    with progress.bar(f"compressing the tiers of {game.display_name}", total=tiers.offsets[-1]) as bar:
        for t in range(count):
            _compress_tier(folder, t)
            bar.update(tiers.offsets[t + 1] - tiers.offsets[t])


def _run_dag(game: Game, tiers: Tiers, todo: list[int], folder: Path, scheduler, workers, processes, client) -> None:
    """Submit one task per tier to solve, each depending on its children's tasks, and wait for all,
    with a progress bar over the positions of the finished tiers and one line per tier."""
    from distributed import as_completed

    own = client is None
    if own:
        client = _client(scheduler, workers, processes)
    try:
        from importlib.util import find_spec

        # Dask serves its dashboard only with bokeh (installed with gamegraph: dask[diagnostics]).
        dashboard = f"dashboard {client.dashboard_link}" if find_spec("bokeh") else "no dashboard (bokeh is missing)"
        if progress.enabled():
            workers_now = len(client.scheduler_info().get("workers", {}))
            progress.notice(f"solving {len(todo)} tier(s) of {game.display_name} on Dask: {workers_now} worker(s)"
                            f" at {client.scheduler.address}, {dashboard}")
        futures: dict[int, Any] = {}
        for t in todo:  # children first: their futures exist when a parent is submitted
            needs = [futures[c] for c in tiers.children[t] if c in futures]
            futures[t] = client.submit(_tier_task, game.id, t, str(folder), *needs, pure=False,
                                       key=f"tier-{t}-{game.name}-{os.getpid()}-{time.time_ns()}")
        total = sum(tiers.offsets[t + 1] - tiers.offsets[t] for t in todo)
        with progress.bar(f"tiers of {game.display_name}", total=total) as bar:
            for future in as_completed(list(futures.values())):
                try:
                    done = future.result()
                except GameGraphError:
                    raise
                except Exception as error:  # a worker died or a task failed: say which, never a traceback
                    raise GameGraphError(f"a tier of {game.display_name} failed on Dask: "
                                         f"{type(error).__name__}: {error}") from None
                bar.update(done["positions"])
                bar.set_postfix_str(f"tier {done['tier']} ({done['name']}) in {done['seconds']} s")
    finally:
        if own:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()


def _require(game: Game) -> None:
    if not supports(game):
        raise GameGraphError(f"{game.display_name} offers no ranking with compiled kernels, "
                             "so it has no tiered (or implicit) solve")


def _claim(game: Game, tiers: Tiers, folder: Path) -> None:
    """Mark the folder as this game's tiers (``game.json``), or refuse a folder of another game or tiers,
    whose tier files would be read as this game's."""
    mark = {"format": FORMAT, "game": game.id, "offsets": list(tiers.offsets)}
    path = folder / "game.json"
    if path.exists():
        try:
            found = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise GameGraphError(f"cannot read {path}: {error}") from None
        if found != mark:
            raise GameGraphError(f"{folder} holds the tiers of {found.get('game')} (format {found.get('format')}), "
                                 f"not of {game.id}: use another folder")
        return
    with private.atomic_private_file(path) as handle:
        handle.write((json.dumps(mark) + "\n").encode())


def _write_meta(game: Game, tiers: Tiers, folder: Path, seconds: float) -> None:
    """``meta.json``: counts of each value over all tiers, the deepest remoteness, the start."""
    import numpy as np

    counts = {str(v): 0 for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}
    invalid, deepest, stored = 0, 0, 0
    for t in range(len(tiers.offsets) - 1):
        cells = _open_tier(folder, t)
        codes = np.asarray(cells & 7, dtype=np.uint8)
        for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW):
            counts[str(v)] += int(np.count_nonzero(codes == int(v)))
        invalid += int(np.count_nonzero(codes == NO_POSITION))
        decided = (codes == Value.WIN) | (codes == Value.LOSS) | (codes == Value.TIE)
        if decided.any():
            deepest = max(deepest, int((cells[decided] >> 3).max()))
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
            "seconds": round(seconds, 3)}
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
    return "--implicit" if game.index_space() < implicit.MAX_INDICES else None


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
