"""Tier work, what one Dask task does (after GamesmanOne's tier_worker): a tier solved from its children's files,
a loop-free tier in one forward pass or in chunks and their merge, a worker's progress events and warm-up."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable

from explorer import implicit
from explorer.core import progress
from explorer.core.errors import GameGraphError
from explorer.games.base import Game, Tiers
from explorer.tiered.files import _open_tier, _part_path, _remove_parts, _tier_path, _write_tier
from explorer.tiered.tiers import _is_loop_free, tiers_of

# A loopy tier's seeds come from its children a window at a time (explorer.kernels.retrograde.SeedWindows):
# room for one seed per SEED_WINDOW_SHARE positions of the tier (0.5 bytes a position), at least
# SEED_WINDOW_MIN, and more when the children hold over SEED_WINDOW_PASSES windows' worth (each window
# is a pass over the children).
SEED_WINDOW_SHARE = 8
SEED_WINDOW_MIN = 1 << 16
SEED_WINDOW_PASSES = 64
# A loopy tier's progress while its queue is worked: the loop runs in steps of at most TIER_PROGRESS_STEP
# queue entries, after each of which implicit.solve_range's `report` is told the positions worked so far;
# inside a Dask worker they go to the client as events on the run's topic (PROGRESS_TOPIC-<run>), at most
# every PROGRESS_SECONDS.
TIER_PROGRESS_STEP = 1 << 20
PROGRESS_SECONDS = 0.5


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
