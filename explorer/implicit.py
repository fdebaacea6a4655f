"""The implicit-graph mode: solve a game over its perfect ranking and answer from a value file.

For games too large to hold as edges. `solve` runs the compiled retrograde
solver (explorer.kernels.retrograde.solve_cells, through the game's cached wrapper) over every index of the game's ranking
(Game.index_space / rank / unrank / unmoves, compiled as ImplicitKernels) and
keeps the result as a value file: a folder under the state dir (0700, its
files 0600, written whole or not at all: explorer.core.private) with

- ``solved.values``: each index's value and remoteness in a 2-byte code (4 if a remoteness
  passes 8,191), in zstd chunks of 65,536 read at random: the compact value file of
  explorer.core.valuestore, the tiered solver's format (Dodgem 5x5: 0.25 bytes an index);
- ``meta.json``: format, game id, index encoding, dtypes, counts, start, timings.

A folder of the format before (``value.npy``, int8 values, -2 where no position, and
``remoteness.npy``, int16 or int32, -1 for draws: 3 bytes an index) is still read, memory-mapped;
`solve` converts it once instead of solving again (`compress`: the new file written whole and
renamed, then the old ones removed, so an interruption leaves the old file readable).

`ValueFile` reads either without loading it: the value and remoteness of any position
(one chunk decompressed), its moves (each successor's value read from the file), a
neighbourhood or a best line, materialised only as far as it is shown. No symmetry reduction here: every
position is its own index, except for the colour-swap fold (ImplicitKernels.folded): a
game whose ranking puts each position's colour-swapped twin `size` indices further solves
and stores the first half only, and a position is read at its index folded into it.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import time
from pathlib import Path
from typing import Any, Callable

from explorer.core import private, progress, records, settings
from explorer.core.errors import GameGraphError, GraphTooLarge
from explorer.games.base import Game
from explorer.core.values import Value

FORMAT = 1  # the folder's key: a compressed value file keeps it (the old files are read and converted)
INVALID = -2
CODES_FILE = "solved.values"  # the compact value file (explorer.core.valuestore)
OLD_FILES = ("value.npy", "remoteness.npy")  # the format before: 3 bytes an index, memory-mapped
MAX_INDICES = 2 ** 31  # int32 queue entries
# The most a solve holds an index: its 2-byte cell and, at worst, a 4-byte queue entry (the queue gives back the
# pages behind its head, and a first level of more than a quarter of the cells is read from them, never queued:
# explorer.kernels.retrograde.queue_first_level; so it is less in practice. Dōbutsu shōgi peaked at 5.3 bytes an
# index when its first level, 85% of its indices, was queued; 2.34-2.50 since, measured whole: bench/README.md).
# The worst case, for a game that declares no measured figure of its own (Offers.solve_bytes).
BYTES_PER_INDEX_SOLVING = 6
# What the loop holds whatever the game's size: its batch buffers (at most BATCH_ROOM predecessors' room, 32 MiB of
# int64 and 16 MiB of int32: explorer.kernels.retrograde.solve_cells) and the rounding to pages.
SOLVE_BUFFERS = 64 * 2 ** 20
# What the solve MAPS, against the address-space limit (ulimit -v), which counts a map whole the moment it is made,
# touched or not: every index's cell (2 bytes) and its queue entry (4 bytes: the queue is one anonymous map of the
# whole ranking, of which only the live part fills). A solve whose remoteness outgrows 2-byte cells solves again in
# 4-byte ones (the 2-byte ones given back first), 2 bytes an index more than checked: a refusal then is `_mapping`'s.
CELL_BYTES, QUEUE_ENTRY_BYTES = 2, 4
BYTES_MAPPED_PER_INDEX = CELL_BYTES + QUEUE_ENTRY_BYTES
# And, mapped after the check whatever the game's size: numba's threads and the solve's compiled code, loaded on its
# first call. Measured with VmSize on dobutsu:small (2026-11-30, numba 0.68, OpenMP layer): 211 MiB with one
# thread, and 72 MiB each thread more (its 8 MiB stack and the 64 MiB its malloc arena reserves): 283 with two,
# 427 with four, 715 with eight.
SOLVE_RUNTIME_MAPS = 256 * 2 ** 20
THREAD_MAPS = 72 * 2 ** 20
CACHE_KIND = "implicit"  # the state folder's subfolder of value files


def supports(game: Game) -> bool:
    """Whether the game offers a ranking with compiled kernels (its declaration: offers.implicit_kernels)
    and these parameters have the ranking; without importing numba."""
    return game.offers.implicit_kernels and game.index_space() is not None


def folder_for(game: Game) -> Path:
    """``<state dir>/implicit/<name>-<hash>``."""
    return private.cache_path(CACHE_KIND, game.name, f"{FORMAT}|{game.stored_id}")


def ranking_mark(game: Game) -> dict[str, int]:
    """The ranking's version in the meta of a value file or tier folder, for a game that has one (Game.ranking_version).
    A per-game version rather than a new FORMAT: only that game's indices changed meaning, so the
    other games' value files stay valid (the folder's key, Game.stored_id, changes with it too)."""
    return {"ranking": game.ranking_version} if game.ranking_version else {}


def check_ranking(meta: dict[str, Any], game: Game, what: str) -> None:
    """A ValueError when `meta` (a value file's or tier folder's) was written under another ranking
    version of the game than today's: its indices would be read as other positions."""
    if meta.get("ranking", 0) != game.ranking_version:
        raise ValueError(f"{what} of the game's ranking version {meta.get('ranking', 0)}, "
                         f"not {game.ranking_version}: solve it again")


def _require(game: Game) -> None:
    if not supports(game):
        raise GameGraphError(f"{game.display_name} offers no ranking and un-moves, so it has no implicit mode")


def solving_memory(game: Game) -> tuple[int, float, bool] | None:
    """(bytes, bytes an index, declared) the implicit solve of `game` holds at most: its indices at the game's
    declared figure (Offers.solve_bytes: measured, with a margin; declared True) or at the worst case
    (BYTES_PER_INDEX_SOLVING), plus SOLVE_BUFFERS. None without a ranking. O(1)."""
    size = game.implicit_size()
    if size is None:
        return None
    declared = game.offers.solve_bytes
    per_index = float(declared) if declared is not None else float(BYTES_PER_INDEX_SOLVING)
    return int(per_index * size) + SOLVE_BUFFERS, per_index, declared is not None


def mapped_memory(game: Game, threads: int | None = None) -> int | None:
    """The address space the implicit solve of `game` maps beyond what the process maps before it (what
    RLIMIT_AS counts): BYTES_MAPPED_PER_INDEX an index, its cells and its whole queue, touched or not; SOLVE_BUFFERS;
    and SOLVE_RUNTIME_MAPS with THREAD_MAPS a thread beyond the first (`threads`, default
    `settings.solve_threads`). None without a ranking. O(1)."""
    size = game.implicit_size()
    if size is None:
        return None
    threads = settings.solve_threads() if threads is None else threads
    return BYTES_MAPPED_PER_INDEX * size + SOLVE_BUFFERS + SOLVE_RUNTIME_MAPS + THREAD_MAPS * max(0, threads - 1)


def check_memory(game: Game) -> None:
    """Refuse at once, in one line (GraphTooLarge) naming the limit, a solve that would not fit, before anything is
    built (explorer.core.limits.short_of_room): what it keeps in memory (`solving_memory`: the game's measured
    figure where it declares one, else the worst case) against the memory available now, and what it maps
    (`mapped_memory`: the queue is mapped whole) against the address space left (ulimit -v). O(1)."""
    from explorer.core import limits

    found = solving_memory(game)
    if found is None:
        return
    need, per_index, declared = found
    threads = settings.solve_threads()
    mapped = mapped_memory(game, threads)
    short = limits.short_of_room(need, mapped)
    if short is None:
        return
    room, _ = short
    size, human = game.implicit_size(), limits.human_bytes
    if room.limit == limits.ADDRESS_SPACE_LEAVES:
        fixed = mapped - BYTES_MAPPED_PER_INDEX * size
        raise GraphTooLarge(f"solving {game.display_name} maps {human(mapped)} ({size:,} indices, "
                            f"{BYTES_MAPPED_PER_INDEX} bytes each: a {CELL_BYTES}-byte cell and a "
                            f"{QUEUE_ENTRY_BYTES}-byte queue entry, the queue mapped whole though only its live "
                            f"part fills; and {human(fixed)} for buffers, compiled code and {threads} "
                            f"thread{'s' if threads != 1 else ''}), more than the {human(room.bytes)} {room.limit}; "
                            f"raise it by {human(mapped - room.bytes)} or solve it on a larger machine")
    basis = "as measured, with a margin" if declared else "at worst"
    raise GraphTooLarge(f"solving {game.display_name} takes up to {human(need)} of memory "
                        f"({size:,} indices, {per_index:g} bytes each {basis}), more than the "
                        f"{human(room.bytes)} {room.limit}; close other work or solve it on a larger machine")


@contextlib.contextmanager
def _mapping(game: Game, what: str, nbytes: int):
    """The system's refusal to map the solve's `what` (`nbytes`: an OSError ENOMEM from mmap, numpy's MemoryError)
    as one line (GraphTooLarge), for when `check_memory`'s figures fall short of the system's (a limit lowered,
    memory taken, since the check). Raised inside the solve's partial folder: nothing is left written."""
    try:
        yield
    except (MemoryError, OSError) as error:
        if isinstance(error, OSError) and error.errno != errno.ENOMEM:
            raise
        from explorer.core import limits

        raise GraphTooLarge(f"solving {game.display_name}: the system refused to map its {what} "
                            f"({limits.human_bytes(nbytes)}): no memory or address space left for this process "
                            "(ulimit -v, a container's limit, other work); close other work, raise the limit or "
                            "solve it on a larger machine") from None


class _MemoryWatch:
    """A solve's own memory between the loop's steps: its cells and the queue's pages still held (_Queue.resident,
    the level sort's scratch included), not the interpreter's nor a first compile's. Keeps the most seen (`peak`:
    a step's pages are given back only after it, so its end is its peak) and, for a game that declares its figure
    (Offers.solve_bytes), checks the declaration: a solve grown past the game's figure means its queue outgrew it.
    Then, once, the worst case of the rest (every index a cell and a queue entry, less what is already held) must be
    available now, else the solve stops with one line (GraphTooLarge) instead of running on into the kernel's
    out-of-memory kill. A step's growth is seen at its end: QUEUE_STEP queue entries apart. Cheap: one mincore
    call a step (a byte a 4 KiB page of the queue), against the step's 16 million entries worked."""

    def __init__(self, game: Game):
        found = solving_memory(game)
        size = game.implicit_size()
        self.game = game
        self.allowed = int(found[1] * size) if found and found[2] else None  # the declaration, less the buffers
        self.worst = BYTES_PER_INDEX_SOLVING * size
        self.peak = 0
        self.settled = self.allowed is None

    def after_step(self, cells, queue: "_Queue", more: bool) -> None:
        """After a return of the loop, before the queue gives pages back; `more`: the loop goes on."""
        queued = queue.resident()
        if queued is None:
            self.settled = True  # unknown on this system: the check before the solve stands alone
            return
        held = cells.nbytes + queued
        self.peak = max(self.peak, held)
        if self.settled or not more or held <= self.allowed:
            return
        from explorer.core import limits

        rest = max(0, self.worst - held)
        room = limits.resident_room()  # the queue is mapped whole already: the rest is pages filled
        if room is not None and rest > room.bytes:
            human = limits.human_bytes
            raise GraphTooLarge(f"solving {self.game.display_name} stopped: its cells and queue hold {human(held)}, "
                                f"more than the {human(self.allowed)} its game declares (Offers.solve_bytes), and "
                                f"could need up to {human(rest)} more, more than the {human(room.bytes)} "
                                f"{room.limit}; close other work or solve it on a larger machine")
        self.settled = True


def solve(game: Game, folder: Path | None = None) -> "ValueFile":
    """Solve every index of the game's ranking; write the value file atomically (a
    partial folder renamed at the end), owner-only. O(N + E) time. While solving: a
    2-byte cell per index and the live part of the queue (4 bytes an entry; the pages
    behind its head are given back); the cells are then finished and counted in one pass
    (finish_cells) and written as they are, in compressed chunks, both on the solve's threads
    (explorer.core.valuestore). A value file of the format before
    is converted instead (`compress`), with a note: the same values, no solve."""
    import numba

    from explorer.core import valuestore
    from explorer.kernels.retrograde import finish_cells, no_seeds

    _require(game)
    in_state_folder = not folder
    folder = Path(folder) if folder else folder_for(game)
    if _old_format(folder, game):
        return compress(game, folder)
    check_memory(game)
    watch = _MemoryWatch(game)  # the peak measured, and the game's declaration checked if it makes one
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    kernels = game.implicit_kernels()
    size = kernels.size
    if size >= MAX_INDICES:
        tiers = "; its tiers can be solved one at a time: solve it with --tiered" if game.offers.tiers else ""
        raise GraphTooLarge(f"{game.display_name} has {size:,} indices; the implicit mode solves at most "
                            f"{MAX_INDICES - 1:,} (up to 6 bytes each while solving){tiers}")
    if in_state_folder:
        private.private_state_dir()
    with private.atomic_private_folder(folder) as partial:
        seconds["setup"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        # The whole ranking as one tier: the tiered solver's range solve without seeds.
        cells = solve_range(game, kernels, 0, size, *no_seeds(), watch=watch)
        seconds["solve"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        # What is still open is a draw, and each code counted (valuestore.summarize's counts), in one pass on every
        # core, in place.
        deepest, codes = finish_cells(cells)
        seconds["decode"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        valuestore.write(partial / CODES_FILE, cells, chunk=valuestore.RANDOM_ACCESS_CHUNK, codec="zstd",
                         threads=numba.get_num_threads())  # the chunks compressed on the solve's threads
        seconds["write"] = time.perf_counter() - t0
        start = kernels.fold_index(game.rank(game.start()))
        value, remoteness = valuestore.unpack(cells[start:start + 1])
        del cells
        meta = _meta(game, kernels, codes, deepest, int(value[0]), int(remoteness[0]), remoteness.dtype)
        meta["seconds"] = {k: round(v, 3) for k, v in seconds.items()}
        if watch.peak:  # the figure a declaration (Offers.solve_bytes) is measured by; declared None without one
            meta["memory"] = {"cells_and_queue_peak": watch.peak, "declared": watch.allowed}
        _write_meta(partial, meta)
    return ValueFile(game, folder)


def _meta(game: Game, kernels, codes, deepest: int, start_value: int, start_remoteness: int,
          remoteness_dtype) -> dict[str, Any]:
    """meta.json of a value file: `codes` counts the indices of each code (finish_cells, as valuestore.summarize)."""
    from explorer.core import valuestore

    size = kernels.size
    invalid = int(codes[valuestore.NO_POSITION])
    start = kernels.fold_index(game.rank(game.start()))
    folded = {"folded": {"ranking_indices": 2 * size, "twin_offset": size}} if kernels.folded else {}
    return {"format": FORMAT, "game": game.id, "display_name": game.display_name, "index_space": size,
            "encoding": f"{game.name} perfect ranking (Game.rank), no symmetry reduction",
            "storage": {"file": CODES_FILE, "codec": "zstd", "chunk": valuestore.RANDOM_ACCESS_CHUNK},
            "value_dtype": "int8", "remoteness_dtype": str(remoteness_dtype),
            "positions": size - invalid, "invalid_indices": invalid,
            "counts": {str(v): int(codes[v]) for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)},
            "max_remoteness": int(deepest),
            "start": {"index": start, "key": game.format(game.start()), "value": str(Value(start_value)),
                      "remoteness": None if start_remoteness < 0 else start_remoteness},
            **folded, **ranking_mark(game)}


def _write_meta(folder: Path, meta: dict[str, Any]) -> None:
    with private.new_private_file(folder / "meta.json") as handle:
        handle.write((json.dumps(meta, indent=2) + "\n").encode())


def _old_format(folder: Path, game: Game) -> bool:
    """Whether `folder` holds this game's value file in the format before (value.npy, remoteness.npy) only."""
    if (folder / CODES_FILE).exists() or not all((folder / name).exists() for name in OLD_FILES):
        return False
    try:
        meta = json.loads((folder / "meta.json").read_text())
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("format") == FORMAT and meta.get("game") == game.id \
        and meta.get("ranking", 0) == game.ranking_version


class _Packed:
    """An old value file's two arrays as codes, packed a slice at a time (what valuestore.write reads)."""

    def __init__(self, value, remoteness, dtype):
        self.value, self.remoteness, self.dtype, self.ndim = value, remoteness, dtype, 1

    def __len__(self) -> int:
        return len(self.value)

    def __getitem__(self, where):
        from explorer.core import valuestore

        return valuestore.pack(self.value[where], self.remoteness[where], self.dtype)


def compress(game: Game, folder: Path | None = None) -> "ValueFile":
    """Convert a value file of the format before (value.npy + remoteness.npy, 3 bytes an index) into the
    compact one (CODES_FILE), once, with a note: the new file is written whole and renamed into place
    (valuestore.write), meta.json replaced atomically, and only then the old files removed. Interrupted
    anywhere, the folder still reads: the old files until the new one is in place, the new one after.
    O(N) time, a chunk of codes at a time in memory."""
    import numpy as np

    from explorer.core import valuestore

    folder = Path(folder) if folder else folder_for(game)
    old = ValueFile(game, folder)
    meta = dict(old.meta)
    progress.notice(f"{game.display_name}: its value file in {folder} is of the format before (3 bytes a "
                    "position): compressing it once, no solve")
    t0 = time.perf_counter()
    deepest = int(meta.get("max_remoteness", 0))
    dtype = np.uint16 if deepest <= valuestore.remoteness_limit(np.uint16) else np.uint32
    valuestore.write(folder / CODES_FILE, _Packed(old.values, old.remoteness_array, dtype),
                     chunk=valuestore.RANDOM_ACCESS_CHUNK, codec="zstd")
    meta["storage"] = {"file": CODES_FILE, "codec": "zstd", "chunk": valuestore.RANDOM_ACCESS_CHUNK}
    meta.setdefault("seconds", {})["compress"] = round(time.perf_counter() - t0, 3)
    with private.atomic_private_file(folder / "meta.json") as handle:
        handle.write((json.dumps(meta, indent=2) + "\n").encode())
    del old
    for name in OLD_FILES:
        (folder / name).unlink(missing_ok=True)
    return ValueFile(game, folder)


def solve_range(game: Game, kernels, lo: int, hi: int, seeds, seed_runs, description: str | None = None,
                windows=None, report: Callable[[int], None] | None = None, step: int | None = None,
                watch: "_MemoryWatch | None" = None):
    """The cells of indices [lo, hi) of the game's ranking, solved by the one compiled loop
    (explorer.kernels.retrograde.solve_cells) with these seeds from child tiers (no_seeds() for
    none; with `windows`, a SeedWindows, its first window, the next ones asked of it as the loop
    uses them up): 2-byte cells, 4-byte ones when a counter or a remoteness needs more. The one tier
    solve of the implicit mode (lo=0, the whole ranking) and of explorer.tiered. The loop runs in
    steps of at most `step` queue entries (QUEUE_STEP, never more; less for a finer `report`); after
    each, the bar moves and `report` (if given) is called with the positions worked off the queue so
    far (`_Worked`): the tiered solver's progress events. The cells do not depend on the steps. With `watch`
    (a _MemoryWatch), the memory held is checked after each step that leaves work to do.
    Raises a GameGraphError for kernels that leave a position without a move or a remoteness too large."""
    import numpy as np

    from explorer.kernels.retrograde import OVERFLOW, STUCK, payload_limit, tier_wrapper

    size = hi - lo
    if kernels.folded and hi > kernels.size:  # a range over the whole ranking would read twins as positions
        raise GameGraphError(f"{game.display_name}: its kernels are folded (ImplicitKernels.folded) and cover the "
                             f"first {kernels.size:,} indices only; solve it with --implicit")
    if size >= MAX_INDICES:
        raise GraphTooLarge(f"{game.display_name}: a tier of {size:,} indices; one tier holds at most "
                            f"{MAX_INDICES - 1:,} (int32 queue entries)")
    kernel = tier_wrapper(kernels)
    # Solved in anonymous memory and saved at the end: a memory-mapped file updated at
    # random would be written back to disk over and over while solving.
    with _mapping(game, "queue", QUEUE_ENTRY_BYTES * max(size, 1)):
        queue = _Queue(size)
    try:
        status = OVERFLOW
        for dtype in (np.uint16, np.uint32):  # 2-byte cells unless a counter or remoteness needs more
            cells = None  # the 2-byte cells given back before the 4-byte ones are mapped (mapped_memory)
            with _mapping(game, "cells", np.dtype(dtype).itemsize * size):
                cells = np.empty(size, dtype=dtype)
            if kernels.max_moves > payload_limit(cells):
                continue
            if windows is not None:  # the seeds start again with the solve
                seeds, seed_runs = windows.first()
            status = _run(kernel, kernels, cells, queue, description or f"solving {game.display_name}",
                          lo, seeds, seed_runs, windows, report, step, watch)
            if status <= STUCK:
                stuck = game.format(game.unrank(lo + STUCK - status))
                raise GameGraphError(f"{game.display_name}: position {stuck} is not over but has no moves")
            if status != OVERFLOW:
                return cells
        raise GameGraphError(f"{game.display_name}: a remoteness or a position's number of moves "
                             f"exceeds {payload_limit(cells):,}")
    finally:
        queue.close()


QUEUE_STEP = 1 << 24  # queue entries worked per kernel call: 64 MiB of queue given back at a time


class _Queue:
    """The solve's FIFO queue: int32 entries in anonymous memory of its own, so that the pages
    behind the head, never read again, can be given back to the system as the solve goes
    (madvise DONTNEED). Only the live part of the queue then counts towards memory."""

    def __init__(self, size: int):
        import mmap

        import numpy as np

        self._map = mmap.mmap(-1, max(size, 1) * 4, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        self.array = np.frombuffer(self._map, dtype=np.int32)
        self._given_back = 0

    def give_back(self, head: int) -> None:
        """Release the whole pages before entry `head` (0 after the phase restarted the queue)."""
        import mmap

        end = head * 4 // mmap.PAGESIZE * mmap.PAGESIZE
        if end < self._given_back:  # a new phase starts the queue again from its first entry
            self._given_back = 0
        if end > self._given_back:
            self._map.madvise(mmap.MADV_DONTNEED, self._given_back, end - self._given_back)
            self._given_back = end

    def resident(self) -> int | None:
        """Bytes of the queue's pages in memory now (mincore): what it holds, entries and the level sort's scratch
        beyond its tail, less the pages given back; None where mincore is not to be had. O(pages) in the kernel."""
        import mmap

        import numpy as np

        mincore = _mincore()
        if mincore is None:
            return None
        length = len(self._map)
        pages = np.zeros((length + mmap.PAGESIZE - 1) // mmap.PAGESIZE, dtype=np.uint8)
        if mincore(self.array.ctypes.data, length, pages.ctypes.data) != 0:
            return None
        return int(np.count_nonzero(pages & 1)) * mmap.PAGESIZE

    def close(self) -> None:
        self.array = None
        try:
            self._map.close()
        except BufferError:  # an exception on its way out still holds the array in its frames: the map is
            pass             # unmapped with them, and this must not hide that exception (Ctrl-C, SIGTERM)


@functools.cache
def _mincore():
    """libc's mincore(addr, length, vec), or None (not Linux or BSD libc)."""
    import ctypes

    try:
        found = ctypes.CDLL(None, use_errno=True).mincore
    except (OSError, AttributeError):
        return None
    found.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)
    found.restype = ctypes.c_int
    return found


class _Worked:
    """The positions worked off the queue so far in one run of the loop, from its `state` between steps: each
    phase's queue head added up (the decided positions whose un-moves are done; seeds are not counted).
    Never decreases. About, not exact: the ties' queue starts again at 0 within a step, so the wins and
    losses worked in the step that moves on to the ties are not seen."""

    def __init__(self):
        from explorer.kernels.retrograde import START

        self.phase, self.head, self.done = START, 0, 0  # the last step's phase and head; earlier phases' heads

    def after(self, state) -> int:
        """The count after a step that left the loop at `state`."""
        from explorer.kernels.retrograde import DONE, SCANNED, START, TIES

        phase, head = int(state[0]), int(state[1])
        if phase != TIES and phase != DONE and len(state) > SCANNED:
            head += int(state[SCANNED])  # the first level's entries read from the cells, not queued
        if phase == DONE:  # the loop ends in its ties phase: the head is still the ties' queue's
            phase = TIES
        if phase != self.phase:
            self.done += self.head if self.phase != START else 0
            self.head = 0
        self.phase, self.head = phase, max(head, self.head)
        return self.done + self.head


def _run(kernel, kernels, cells, queue: _Queue, description: str, lo: int, seeds, seed_runs, windows=None,
         report: Callable[[int], None] | None = None, step: int | None = None,
         watch: _MemoryWatch | None = None) -> int:
    """Run the compiled solve over its queue a step at a time (at most `step` queue entries, QUEUE_STEP by
    default and at most). Between steps, in Python (nothing is added to the compiled loop): move a progress
    bar and call `report` with the positions worked so far (`_Worked`), measure the cells and queue held
    (`watch`, if given), give back the queue's used pages, and hand the loop the next window of seeds
    (`windows`) when it asks. Returns the kernel's status."""
    from explorer.kernels import probably_cached
    from explorer.kernels.retrograde import MORE, NEED_SEEDS, new_state

    step = QUEUE_STEP if step is None else max(1, min(int(step), QUEUE_STEP))
    state = new_state()
    worked, shown = _Worked(), 0
    if progress.enabled() and not probably_cached(kernel):
        progress.notice(f"compiling the solver ({description}) on first use "
                        "(stored for later runs; up to a minute)")
    with progress.bar(description) as bar:  # positions worked off the queue; the total is not known
        while True:
            status = kernel(kernels.ctx, kernels.max_unmoves, cells, queue.array, state, step, lo, seeds, seed_runs)
            now = worked.after(state)
            bar.update(now - shown)
            shown = now
            if report is not None:
                report(now)
            # After every return, not only MORE's: a loopy tier with a large child asks for its windows many
            # times within one step (Teeko's tier 7: 32 windows, 4.31 bytes a position at peak when only MORE
            # gave pages back, 3.13 since).
            if watch is not None:  # before give_back: the step's pages, all of them still held
                watch.after_step(cells, queue, status == MORE or status == NEED_SEEDS)
            queue.give_back(int(state[1]))
            if status == NEED_SEEDS:
                if windows is None:
                    raise GameGraphError(f"{description}: the solver asked for more seeds than it was given")
                seeds, seed_runs = windows.next()
                state[3] = state[4] = 0  # the seed cursor, at the new window's start
                continue
            if status == 0 and windows is not None and not windows.exhausted:
                # A loop that ignores FOLLOWS would end here with seeds never seen: wrong values, silently.
                raise GameGraphError(f"{description}: the compiled solver stopped before its last window of "
                                     "seeds (a kernel compiled against an older loop?)")
            if status != MORE:
                return status


REACH_CHUNK = 1 << 16  # frontier positions expanded by one call of the compiled walk


def reachable(game: Game, values: "ValueFile | None" = None, image: Any = None) -> dict[str, Any]:
    """The positions reachable from the game's start, walked breadth first over its compiled kernels
    with no graph: a bit per index, the current level and the next. With folded kernels
    (ImplicitKernels.folded) a position and its colour-swapped twin are one index and count once.

    Returns ``positions`` (how many are reachable, the start included) and ``depth`` (the last
    level: the longest shortest path from the start); with `values`, the game's solved value file,
    also ``counts`` (value name -> reachable positions with that value for the player to move) and
    ``finished`` (value name -> reachable positions where the game is over: remoteness 0). With
    `image`, a compiled index map ``(ctx, index) -> index`` that is a symmetry of the rules (a
    mirror), ``fixed`` holds the same figures for the reachable positions it leaves in place: the
    count up to the symmetry is then (all + fixed) / 2 (Burnside). O(reachable positions + their
    moves) time; index_space / 8 bytes, plus two levels of int64 indices and a buffer of
    max_moves * REACH_CHUNK of them."""
    import numpy as np

    from explorer.kernels.implicit import reach_wrapper

    _require(game)
    kernels = game.implicit_kernels()
    if values is not None and (values.game.id != game.id or values.values.shape[0] != kernels.size):
        raise GameGraphError(f"the value file in {values.folder} is not {game.display_name}'s")
    walk, fixed = reach_wrapper(kernels.successors, kernels.move_count, image)
    start = kernels.fold_index(game.rank(game.start()))
    seen = np.zeros((kernels.size + 7) // 8, dtype=np.uint8)
    seen[start >> 3] |= np.uint8(1 << (start & 7))
    frontier = np.array([start], dtype=np.int64)
    found = np.empty(REACH_CHUNK * kernels.max_moves, dtype=np.int64)
    names = {v: v.name.lower() for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}
    tallies = {part: {"positions": 0, "counts": dict.fromkeys(names.values(), 0),
                      "finished": dict.fromkeys(names.values(), 0)} for part in ("all", "fixed")}
    depth = -1

    def tally(part: str, level, value, remoteness) -> None:
        tallies[part]["positions"] += len(level)
        if value is not None:
            for v, name in names.items():
                tallies[part]["counts"][name] += int(np.count_nonzero(value == v))
                tallies[part]["finished"][name] += int(np.count_nonzero((value == v) & (remoteness == 0)))

    with progress.bar(f"walking {game.display_name} from its start", unit="pos") as bar:
        while len(frontier):
            depth += 1
            bar.update(len(frontier))
            level = np.sort(frontier)  # in file order: the memory-mapped reads run forwards
            value = remoteness = None
            if values is not None:
                value, remoteness = values.values[level], values.remoteness_array[level]
            tally("all", level, value, remoteness)
            if fixed is not None:
                keep = np.empty(len(level), dtype=np.bool_)
                fixed(kernels.ctx, level, keep)
                tally("fixed", level[keep], None if value is None else value[keep],
                      None if remoteness is None else remoteness[keep])
            parts = [found[:walk(kernels.ctx, kernels.max_moves, frontier[lo:lo + REACH_CHUNK], seen, found)].copy()
                     for lo in range(0, len(frontier), REACH_CHUNK)]
            frontier = np.concatenate(parts)
    result: dict[str, Any] = {"positions": tallies["all"]["positions"], "depth": depth}
    if values is not None:
        result.update(counts=tallies["all"]["counts"], finished=tallies["all"]["finished"])
    if fixed is not None:
        result["fixed"] = tallies["fixed"] if values is not None else {"positions": tallies["fixed"]["positions"]}
    return result


def open_value_file(game: Game, folder: Path | None = None) -> "ValueFile":
    """The game's value file; a GameGraphError saying how to make it when there is none."""
    _require(game)
    folder = Path(folder) if folder else folder_for(game)
    if not (folder / "meta.json").exists():
        raise GameGraphError(f"{game.display_name} has no value file yet: run gamegraph solve '{game.display_name}' --implicit")
    return ValueFile(game, folder)


def exists(game: Game) -> bool:
    return supports(game) and (folder_for(game) / "meta.json").exists()


class _Column:
    """The values (0) or the remoteness (1) of a compact value file, read like the arrays of the format before:
    `column[i]` (a numpy scalar), `column[indices]`, `column[a:b]`, `len`, `shape`, and `np.asarray(column)`
    (every index, decompressed). Each read decompresses the chunks it needs (valuestore.Store's cache keeps
    the last ones)."""

    def __init__(self, store, which: int):
        self._store, self._which = store, which
        self.shape = (len(store),)
        self.ndim = 1

    def __len__(self) -> int:
        return len(self._store)

    def __getitem__(self, key):
        import numpy as np

        from explorer.core import valuestore

        codes = np.asarray(self._store[key], dtype=self._store.dtype)
        return valuestore.unpack(codes)[self._which][()] if codes.ndim == 0 else valuestore.unpack(codes)[self._which]

    def __array__(self, dtype=None, copy=None):
        from explorer.core import valuestore

        column = valuestore.unpack(self._store.to_array())[self._which]
        return column if dtype is None else column.astype(dtype)


class ValueFile:
    """A solved game's values and remoteness by index, memory-mapped; positions in, records out."""

    def __init__(self, game: Game, folder: Path):
        import numpy as np

        self.game = game
        self.folder = Path(folder)
        from explorer.core import valuestore

        self.store = None  # the compact value file, when the folder has one (else the format before)
        try:
            self.meta = json.loads((self.folder / "meta.json").read_text())
            if self.meta.get("format") != FORMAT or self.meta.get("game") != game.id:
                raise ValueError("value file of another game or format")
            check_ranking(self.meta, game, "value file")
            if (self.folder / CODES_FILE).exists():
                self.store = valuestore.open(self.folder / CODES_FILE)
                self.values, self.remoteness_array = _Column(self.store, 0), _Column(self.store, 1)
            else:
                self.values = np.load(self.folder / OLD_FILES[0], mmap_mode="r")
                self.remoteness_array = np.load(self.folder / OLD_FILES[1], mmap_mode="r")
        except (OSError, ValueError) as error:
            raise GameGraphError(f"cannot read the value file in {self.folder}: {error}") from None
        # The colour-swap fold: the file holds the first half of the ranking, the twin of index
        # i + half being i (same value and remoteness for the player to move).
        self.half = int(self.meta["folded"]["twin_offset"]) if "folded" in self.meta else None

    def index(self, position: Any) -> int:
        """The position's index in the file: its rank, folded into the first half if the file is folded."""
        i = self.game.rank(position)
        return i - self.half if self.half is not None and i >= self.half else i

    # -- one position -----------------------------------------------------------------
    def value(self, position: Any) -> Value:
        v = int(self.values[self.index(position)])
        if v < 0:
            raise GameGraphError(f"{self.game.format(position)} is no legal position of {self.game.display_name}")
        return Value(v)

    def remoteness(self, position: Any) -> int | None:
        r = int(self.remoteness_array[self.index(position)])
        return None if r < 0 else r

    def record(self, position: Any) -> dict[str, Any]:
        """Key, player to move, value, remoteness, whether the game is over, the game's fields:
        the record of explorer.core.records without cycles or draw levels (no graph here). O(1) reads."""
        return records.position_record(self.game.format(position), self.game.to_move(position),
                                       self.value(position), self.remoteness(position),
                                       self.game.outcome(position) is not None, fields=self.game.fields(position))

    def moves(self, position: Any) -> list[dict[str, Any]]:
        """Every move with the successor's value for the mover, best first (as SolvedGraph.moves).
        Moves reaching one position are merged, keeping the first label, as in the graph."""
        return [move for move, _ in self._moves_and_successors(position)]

    def _moves_and_successors(self, position: Any) -> list[tuple[dict[str, Any], Any]]:
        """(move record, successor position) of every distinct move of a position, best first."""
        value, remoteness = self.value(position), self.remoteness(position)
        pairs, seen = [], set()
        for move in self.game.moves(position):
            if move.position in seen:
                continue
            seen.add(move.position)
            child_value, child_remoteness = self.value(move.position), self.remoteness(move.position)
            mover_value = child_value.for_previous_player()
            optimal = mover_value == value and (value == Value.DRAW or
                                                child_remoteness == (remoteness or 0) - 1)
            pairs.append((records.move_record(move.label, self.game.format(move.position), mover_value,
                                              child_remoteness, optimal), move.position))
        return records.best_first(pairs, record=lambda pair: pair[0])

    def best_line(self, position: Any, limit: int = 50) -> list[dict[str, Any]]:
        """The records of an optimal line from `position`: the first optimal move each time
        (explorer.core.records.principal_line), until the game ends, a position repeats (a draw's
        cycle) or `limit` moves. Each record but the last says its move (`move`)."""
        def best(here: Any) -> tuple[str, Any] | None:
            return next(((move["label"], there) for move, there in self._moves_and_successors(here)
                         if move["optimal"]), None)

        steps = records.principal_line(position, best, limit)
        line = [self.record(p) for p, _ in steps]
        for before, (_, label) in zip(line, steps[1:]):
            before["move"] = label
        return line
