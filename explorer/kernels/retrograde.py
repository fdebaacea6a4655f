"""The one compiled retrograde solve. Every mode runs the same loop, `solve_cells`:
the edge mode over a stored predecessor CSR (`retrograde`), the implicit mode over
a game's un-moves (`explorer.implicit`, through a wrapper each game compiles and
caches: `implicit_wrapper`), and each tier of a tiered game (`explorer.tiered`: the
implicit mode over one index range, with its child tiers' decided positions merged
into the queue as seeds). A mode is only a different `initial` and
`predecessors` function; the phases, the packed cells and the queue are shared.

Same semantics as the plain level-by-level solver (explorer.algorithms.retrograde.retrograde_levels):

1. wins and losses: a FIFO queue seeded with the terminal wins and losses keeps
   remoteness non-decreasing, so a position becomes a win at its first losing
   successor dequeued (the fastest) and a loss when the counter of its moves not
   yet known to reach a win drops to 0, i.e. at its last winning successor
   (the slowest). Each predecessor is read once.
2. ties: breadth-first from the terminal ties through still undecided positions.
3. draws: the rest, remoteness -1.

The layout is the one a plain C solver would use (bench/c/ has one):

- one cell per position, 2 bytes (uint16) or 4 (uint32), holding a 3-bit code
  (a Value, or undecided, or no position) and above it either the count of
  moves not yet refuted or, once decided, the remoteness. One random access per
  predecessor instead of three (value, counter, remoteness in separate arrays).
- a FIFO queue of int32 indices; only decided wins and losses enter it, and its
  pages are touched only as far as it fills.
- the queue is worked in batches of up to BATCH entries of one remoteness. On one thread, or for a
  small batch: the predecessors of the whole batch are computed first (`_gather`), then applied in FIFO order, CHUNK
  entries at a time, the cells of the next chunk's predecessors prefetched while one
  chunk is applied. The order of updates is
  exactly the plain queue's whatever the batch (a batch holds only entries already
  queued, and the merge with a tier's seeds keeps its rules: `_next_chunk`), so the
  result is the same; the memory latency of the random accesses overlaps instead
  of adding up.
- each level, once the one before is worked, is put in index order (`_sort_level`: a
  two-pass radix sort by the index's top 20 bits, on every core), when it is at least
  SORT_MIN entries: the order within a level never changes a cell (see below), and in
  index order consecutive entries' predecessors fall in the same few stretches of the
  cells instead of all over them, so most updates hit the cache.

Peak memory: the cells plus 4 bytes per queued win or loss that is live: the queue's pages behind its
head are given back as it goes (explorer.implicit, every QUEUE_STEP entries), and `_sort_level`'s
scratch, as many entries as the level, lies in the pages after its tail. So about the cells plus
4 bytes for each of the two largest neighbouring levels, except the first: a first level of more
than 1/FIRST_LEVEL_QUEUED of the cells is never queued but read from the cells as the loop goes
(`queue_first_level`, `_scan_chunk`). Dōbutsu shōgi: 1,567,925,964 cells (3.1 GB), a first level
of 1,325,676,065 positions (the mover takes the lion: 5.3 GB when it was queued, 8.2-8.6 GB at
peak), then levels of 44.8 and 27.6 million (2 x 0.18 GB with the sort's scratch). The finishing
pass (`finish_cells`) works in place. Plus
BATCH * max_unmoves int64 of predecessors (Dōbutsu shōgi: 20 MiB; fewer entries a batch
when that passes BATCH_ROOM, as for an edge graph with a hub of many predecessors). With two
threads or more that buffer holds only the batches under PARALLEL_MIN entries (the others go
to `_spread`), and `_spread` adds 4 bytes per predecessor's room of a batch for its lists of
decided positions (Dōbutsu shōgi: 2.5 MiB and 16 MiB) and CHUNK entries' room a thread.

What runs where. On every core (numba prange): the first pass over all positions
(the `initial` cells), the scans that start each phase's queue (`_collect`: counts
per block, a prefix sum, then each block fills its own stretch of the queue in
index order), the finishing pass with its counts (`finish_cells`) and the decoding, and, with two
threads or more (numba's own count, read when the solve starts: new_state), every batch of at
least PARALLEL_MIN entries (`_spread`): one parallel region a batch, each thread taking a stripe of
consecutive entries (read from the queue by the thread itself inside a sorted level, `_next_chunk`'s
`known`) and working it exactly as the one-thread loop works a batch (CHUNK entries'
un-moves computed with their cells prefetched, then applied), each cell update a
compare-and-swap (`_update_shared`), each thread listing what it decides; the lists
go onto the queue in thread order. Only the order of the queue within a level
depends on the threads, and it never changes a value or a remoteness (within a level
a win and a loss exclude each other, counters only count down, so a level's updates
leave the same cells in any order): the cells are bit-identical with any number of
threads (tests/algorithms/test_kernels.py). With one thread the queue is worked as
before: big batches whose un-moves are computed at once where a position may have
PARALLEL_UNMOVES un-moves or more (Dōbutsu shōgi's 310), else a CHUNK at a time,
as the C baseline does. A parallel region costs microseconds on an idle machine
(numba's OpenMP layer), up to milliseconds on an oversubscribed one, hence the
large BATCH and the serial path for small batches.

Where two threads' extra CPU came from (issue 39, session 19; Dodgem 5x5, the queue alone,
CPU seconds of the whole process, measured on the shared machine at load 6-13, so +-3 s):
one thread 32-36 s. The `_spread` before this one (32 fixed owners of the cells; per batch
each predecessor written to a buffer, counted by owner, copied into its owner's bucket,
applied there 16 updates ahead of a prefetch, the decided ones copied twice more; four
parallel regions) cost 50 s on two threads, and 50 s too when forced onto one thread
(numba at one thread, the state saying two): the overhead was the algorithm, not
threading or contention. Its apply pass is latency-bound (a random cell 16 updates
ahead, with no un-move computation to hide the wait behind, unlike the one-thread loop,
whose prefetches overlap the next entries' un-moves), and each predecessor crossed memory
five times. A first replacement (each thread applying its own cells at once and sending
the others' through an outbox, two regions) cost 60-62 s on two threads and forced onto
one: a mispredicted branch on the owner of every predecessor, and the same latency-bound
apply for the half it sent. This one has no routing at all: 34-43 s on two threads (three runs), the
remainder being, by elimination, the locked instruction per update and a region per
batch."""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np
from numba import njit, prange

from explorer.kernels.bits import compare_and_swap, prefetch  # (explorer.kernels sets the OpenMP wait policy the batches want)

# Value codes (explorer.core.values.Value); literals so the kernels need no Python enum.
LOSS, DRAW, TIE, WIN, UNSOLVED = 0, 1, 2, 3, -1
INVALID = -2  # implicit mode: an index that names no legal position
OVERFLOW = -1  # returned when a remoteness or a counter does not fit the cell's payload
STUCK = -2     # STUCK - index is returned for a position that is not over but has no move

# The cell's code, its low 3 bits. 0-3 are the decided values (WIN ... LOSS above).
CODE_BITS = 3
CODE_MASK = 7
OPEN = 4         # undecided; the payload counts the moves not yet known to reach a win
OPEN_TIE = 5     # a finished tie waiting for phase 2 (in the edge mode it may still have moves)
NO_POSITION = 6  # an index of the ranking that is no legal position
NOT_OVER = 7     # not over but without a move: the game's kernels are wrong (STUCK)
BATCH = 1 << 13  # queue entries whose predecessors are computed at once, on every core
BATCH_ROOM = 1 << 22  # at most this many predecessors' room (32 MiB): fewer entries when max_unmoves is large
PARALLEL_MIN = 1 << 10  # the smallest batch whose predecessors are computed on every core
PARALLEL_UNMOVES = 64  # from this many un-moves a position (max_unmoves) on, the queue is worked in big batches
CHUNK = 64       # queue entries applied while the next ones' predecessors' cells are prefetched
SORT_MIN = 1 << 14  # the smallest level put in index order before it is worked (_sort_level)
SORT_DIGIT = 10  # bits a pass of _sort_level's radix sort orders by (two passes: 20 bits of the index)


def payload_limit(cells: np.ndarray) -> int:
    """The largest remoteness or counter a cell array of this dtype holds."""
    return (int(np.iinfo(cells.dtype).max) >> CODE_BITS)


# The solve's progress between calls (`state`, int64[6]): the phase, the queue's head and tail, then
# the next seed and its run in the current window of seeds (tiered solves: explorer.tiered), and the threads.
START, WINS_AND_LOSSES, TIES, DONE = 0, 1, 2, 3
MORE = 1  # returned when `budget` queue entries were worked and the solve is not over
NEED_SEEDS = 2  # returned when the window of seeds is used up and another follows (SeedWindows.next)
FAR = np.int64(1) << 62  # the remoteness of an exhausted source: the other one is always taken

# A seed run's columns (`seed_runs`, int64[runs + 1, 4]). The last row only closes the last run:
# (len(seeds), 0, FOLLOWS or 0, 0), FOLLOWS when another window of seeds comes after this one.
RUN_START, RUN_REMOTENESS, RUN_CODE, RUN_OFFSET = 0, 1, 2, 3
FOLLOWS = 1


THREADS = 5  # state[THREADS]: numba's threads in the calling thread when the solve began (new_state)
SORTED = 6  # state[SORTED]: the queue before this entry is in index order level by level (_sort_level)
SCAN = 7  # state[SCAN]: the next cell the first level is read from (`_scan_chunk`), len(cells) once read or never
SCANNED = 8  # state[SCANNED]: the first level's entries worked from the cells so far (progress: explorer.implicit)
FIRST_LEVEL_QUEUED = 4  # the first level goes into the queue when it is at most 1/4 of the cells, else read from them
GAME_FIRST_PASS = 9  # state[GAME_FIRST_PASS] 1: a game's solve may run its own first pass (Dōbutsu shōgi's decides
# the first two levels: `queue_levels`); 0 makes it fill the cells with implicit_initial (the tests' oracle)


def new_state(game_first_pass: bool = True) -> np.ndarray:
    """A solve's state before its first call: START, and numba's number of threads now (set_num_threads).
    Read here, not in the loop: numba's get_num_threads in compiled code is a call through a pointer,
    which keeps numba from caching the kernel. `game_first_pass=False`: a game's own first pass is not
    used (state[GAME_FIRST_PASS]), the cells come from implicit_initial (a test's oracle)."""
    state = np.zeros(10, dtype=np.int64)
    state[THREADS] = numba.get_num_threads()
    state[GAME_FIRST_PASS] = 1 if game_first_pass else 0
    return state


def no_seeds() -> tuple[np.ndarray, np.ndarray]:
    """(seeds, seed_runs) of a solve without child tiers: the loop is the one-tier solve.
    Seeds are uint32 (an index within a child tier, below 2**31): a type of their own also
    makes numba compile the games' cached wrappers again instead of loading ones built
    against an older loop (its cache checks only the wrapper's own file)."""
    return np.empty(0, dtype=np.uint32), np.zeros((1, 4), dtype=np.int64)


@njit(inline="always")
def _gather_one(predecessors, graph, x, buffer, start, max_unmoves, lo, hi):
    """x's predecessors in [lo, hi) as local indices at buffer[start:]; returns their number.
    Predecessors outside the range belong to other tiers: dropped."""
    count = predecessors(graph, x, buffer[start:start + max_unmoves])
    kept = start
    for q in range(start, start + count):
        p = buffer[q]
        if lo <= p < hi:
            buffer[kept] = p - lo
            kept += 1
    return kept - start


@njit(inline="always")
def _gather(predecessors, graph, xs, m, max_unmoves, buffer, counts, lo, hi, cells):
    """The predecessors in [lo, hi) of xs[:m] (global indices) into `buffer`, as local indices:
    xs[i]'s at buffer[i * max_unmoves:][:counts[i]]. On every core (prange) when the batch is
    at least PARALLEL_MIN entries (a smaller one costs less than waking the other threads): an
    entry's predecessors are a pure function of its index and each entry writes its own slot,
    so the buffer is the same with any number of threads. On one core, each entry's predecessors'
    cells are prefetched as soon as they are known, so their reads are in flight while the next
    entries' un-moves are computed (the C baseline's order; prefetching them only once the whole
    chunk was gathered left the first entries' reads waiting)."""
    if m >= PARALLEL_MIN:
        for i in prange(m):
            counts[i] = _gather_one(predecessors, graph, xs[i], buffer, i * max_unmoves, max_unmoves, lo, hi)
    else:
        for i in range(m):
            counts[i] = _gather_one(predecessors, graph, xs[i], buffer, i * max_unmoves, max_unmoves, lo, hi)
            _prefetch_cells(cells, buffer, counts, max_unmoves, i, i + 1)


@njit(inline="always")
def _prefetch_cells(cells, buffer, counts, slot, begin, end):
    """Ask for the cells of the predecessors of batch entries [begin, end) (gathered by `_gather`)."""
    for i in range(begin, end):
        for q in range(i * slot, i * slot + counts[i]):
            prefetch(cells, buffer[q])


@njit(inline="always")
def _updated(other, r, tie_phase, lost):
    """The one rule of an update: the new cell of a predecessor whose cell is `other`, for a dequeued position
    of remoteness r - 1, or -1 when the cell stays. In the tie phase an open cell becomes a tie; else, when
    that position lost, an open cell (or one open to a tie) becomes a win; else an open cell's counter of moves
    not yet known to reach a win goes down, and at zero the cell becomes a loss. Each decided cell gets
    remoteness r. Used by `_update` (one thread) and `_update_shared` (`_spread`)."""
    code = other & CODE_MASK
    if tie_phase:
        return (r << CODE_BITS) | TIE if code == OPEN else -1
    if lost and (code == OPEN or code == OPEN_TIE):
        return (r << CODE_BITS) | WIN
    if code == OPEN:
        left = (other >> CODE_BITS) - 1
        return (r << CODE_BITS) | LOSS if left == 0 else (left << CODE_BITS) | OPEN
    return -1


@njit(inline="always")
def _update(cells, p, r, tie_phase, lost):
    """One predecessor p's update (`_updated`) on one thread. Returns whether it decided p (the caller
    queues it)."""
    new = _updated(cells[p], r, tie_phase, lost)
    if new < 0:
        return False
    cells[p] = new
    return (new & CODE_MASK) != OPEN


@njit(inline="always")
def _update_shared(cells, p, r, tie_phase, lost):
    """`_update` for a cell other threads may update at the same time: the same new cell (`_updated`),
    written by a compare-and-swap (`compare_and_swap`, tried again in the rare case another thread changed
    the cell in between). Returns whether this call decided p, so exactly one thread queues it."""
    other = cells[p]
    while True:
        new = _updated(other, r, tie_phase, lost)
        if new < 0:
            return False
        seen = compare_and_swap(cells, p, other, new)
        if seen == other:
            return (new & CODE_MASK) != OPEN
        other = seen


@njit(inline="always")
def _spread(predecessors, graph, xs, xcells, base, m, slot, gather, gathered, lo, hi, cells, queue, tail, tie_phase,
            r, parts, fresh, made):
    """A batch of queue entries xs[:m], all of one remoteness (r - 1), worked by `parts` threads (numba's, one
    parallel region); returns the queue's new tail. The positions it decides are the plain queue's (each gets
    r); only their order in the queue within the level differs, and that order never changes a value or a
    remoteness: within one level a win (a losing successor) and a loss (every successor winning) exclude each
    other, and a counter only counts down, so a level's updates leave the same cells in any order.

    Part s takes stripe s of the batch (consecutive entries) and works it as the one-thread loop does: CHUNK
    entries' predecessors computed into its own small buffer (`gather`, a few KiB: in L1) with their cells
    prefetched as they come, then the chunk's updates applied, each by `_update_shared` (a compare-and-swap:
    two threads may meet on a cell), the positions it decides listed in its stretch of `fresh`. Then the
    lists go onto the queue in part order (serially: a few KiB a batch). No update is copied or routed; the
    extra cost against one thread is the locked instruction per update and the parallel region per batch.

    The entries are xs[:m] with their cells xcells[:m] (filled by `_next_chunk`), or, when `base` >= 0, the
    queue's own queue[base:base + m] (local indices, a stretch of one level known to be of one remoteness:
    `_next_chunk`'s `known`): each part then reads its stripe's entries and their cells itself, the next
    CHUNK's cells prefetched while one is worked, instead of one core reading every entry of the batch
    before the region (a serial stretch of about a second on Dodgem 5x5's 154 million entries)."""
    per = (m + parts - 1) // parts
    room = per * slot  # a stripe's most predecessors, so its most decided positions
    for s in prange(parts):
        listed = s * room
        g = s * CHUNK * slot
        end = min(m, (s + 1) * per)
        if base >= 0:
            for i in range(s * per, min(end, s * per + CHUNK)):
                prefetch(cells, queue[base + i])
        for c0 in range(s * per, end, CHUNK):
            c1 = min(c0 + CHUNK, end)
            if base >= 0:  # this chunk's entries and cells from the queue; the next chunk's cells asked for
                for i in range(c1, min(c1 + CHUNK, end)):
                    prefetch(cells, queue[base + i])
                for i in range(c0, c1):
                    xs[i] = lo + queue[base + i]
                    xcells[i] = cells[queue[base + i]]
            for i in range(c0, c1):
                start = g + (i - c0) * slot
                k = _gather_one(predecessors, graph, xs[i], gather, start, slot, lo, hi)
                gathered[s * CHUNK + i - c0] = k
                for q in range(start, start + k):
                    prefetch(cells, gather[q])
            for i in range(c0, c1):
                lost = (xcells[i] & CODE_MASK) == LOSS
                start = g + (i - c0) * slot
                for q in range(start, start + gathered[s * CHUNK + i - c0]):
                    p = gather[q]
                    if _update_shared(cells, p, r, tie_phase, lost):
                        fresh[listed] = p
                        listed += 1
        made[s] = listed - s * room
    for s in range(parts):
        for q in range(s * room, s * room + made[s]):
            queue[tail] = fresh[q]
            tail += 1
    return tail


@njit(inline="always")
def _sort_level(queue, head, tail, n, parts):
    """Put queue[head:tail], entries of one remoteness not yet worked, in index order, as far as the
    index's top 2 * SORT_DIGIT bits (a group of at most 2 ** 11 neighbouring indices keeps the order it
    was queued in): a stable radix sort in two passes, each counting the digits and then moving every
    entry to its place, its scratch room queue[tail:2 * tail - head] (the queue's own pages beyond its
    end, which the next levels use anyway). The passes are split over `parts` threads, each a stretch of
    entries with its own counts (prange), so the result is the same with any number of threads.
    Returns False, sorting nothing, when the queue has no room for the scratch. O(entries + parts * 1024).

    Why: within a level the order of the updates never changes a cell (`_spread`), but it decides where
    they land. In queued order a level's predecessors are scattered over the whole cell array, a cache
    miss each; in index order, consecutive entries share their tier, mover and most cars, so their
    predecessors fall in the same few stretches of cells (Dodgem: the positions with the same blue set,
    a few KiB each), read from memory once a level instead of once an update. Measured in plain C on
    Dodgem 5x5 (bench/c/dodgem_retrograde.c's loop, same sitting, load 10): the queue 10.1 s plus 1.8 s
    of sorting (three passes then) against 15.0 s in queued order."""
    size = tail - head
    if tail + size > len(queue):
        return False
    bits = 1
    while (n - 1) >> bits:
        bits += 1
    shift = max(0, bits - 2 * SORT_DIGIT)
    radix = 1 << SORT_DIGIT
    per = (size + parts - 1) // parts
    counts = np.empty((parts, radix), dtype=np.int64)
    source, target = head, tail
    for digit in range(2):
        at = shift + digit * SORT_DIGIT
        for s in prange(parts):
            counts[s, :] = 0
            for i in range(source + s * per, min(source + size, source + (s + 1) * per)):
                counts[s, (queue[i] >> at) & (radix - 1)] += 1
        place = target
        for d in range(radix):
            for s in range(parts):
                count = counts[s, d]
                counts[s, d] = place
                place += count
        for s in prange(parts):
            for i in range(source + s * per, min(source + size, source + (s + 1) * per)):
                entry = queue[i]
                d = (entry >> at) & (radix - 1)
                queue[counts[s, d]] = entry
                counts[s, d] += 1
        source, target = target, source
    return True


SCAN_BLOCK = 1 << 16  # cells a thread takes at a time in _collect


@njit(cache=True, nogil=True, parallel=True)
def _collect(cells, queue, tie_phase, most, lowest):
    """The queue a phase starts from, in ascending index order: queue[:count] = the local indices
    whose code is WIN or LOSS of remoteness `lowest` or more (phase 1) or OPEN_TIE (phase 2, each rewritten
    as a tie of remoteness 0). Returns count, or STUCK - i for the first i that is NOT_OVER (phase 1). When count
    is more than `most` (phase 1), nothing is written: the caller reads them from the cells (`_scan_chunk`).

    On every core and the same with any threads: each block of SCAN_BLOCK cells counts its
    entries, a prefix sum over the blocks gives each block its place in the queue, then each
    block fills its place in order. Two reads of the cells instead of one, on both cores.
    Compiled once for every mode and game (it needs none of their functions)."""
    n = len(cells)
    blocks = (n + SCAN_BLOCK - 1) // SCAN_BLOCK
    offsets = np.zeros(blocks + 1, dtype=np.int64)
    first_stuck = np.full(max(blocks, 1), n, dtype=np.int64)
    for b in prange(blocks):
        found = 0
        for i in range(b * SCAN_BLOCK, min(n, (b + 1) * SCAN_BLOCK)):
            code = cells[i] & CODE_MASK
            if tie_phase:
                if code == OPEN_TIE:
                    found += 1
            elif code == WIN or code == LOSS:
                if (cells[i] >> CODE_BITS) >= lowest:
                    found += 1
            elif code == NOT_OVER and first_stuck[b] == n:
                first_stuck[b] = i
        offsets[b + 1] = found
    stuck = n
    for b in range(blocks):
        stuck = min(stuck, first_stuck[b])
        offsets[b + 1] += offsets[b]
    if stuck < n:
        return STUCK - stuck
    if offsets[blocks] > most and not tie_phase:
        return offsets[blocks]
    for b in prange(blocks):
        tail = offsets[b]
        for i in range(b * SCAN_BLOCK, min(n, (b + 1) * SCAN_BLOCK)):
            code = cells[i] & CODE_MASK
            if tie_phase:
                if code == OPEN_TIE:
                    cells[i] = TIE
                    queue[tail] = i
                    tail += 1
            elif (code == WIN or code == LOSS) and (cells[i] >> CODE_BITS) >= lowest:
                queue[tail] = i
                tail += 1
    return offsets[blocks]


@njit(inline="always")
def _next_chunk(cells, queue, head, tail, lo, seeds, seed_runs, j, k, tie_phase, xs, xcells, most, known):
    """The next chunk of the merge of two sources in non-decreasing remoteness: the queue
    (queue[head:tail], local indices) and the seeds of this phase (runs k.., entry j).
    A chunk comes from one source only: the one whose head has the smaller remoteness
    (the queue on a tie), up to `most` entries of one remoteness, that of its first entry. Writes the
    entries' global indices into xs and their cells into xcells; returns (entries, from the queue,
    seed entry, seed run), entries -1 when the window of seeds is used up and another follows.
    `known` > 0: queue[head:head + known] is known to be of one remoteness (a sorted level, `_sort_level`)
    and, when the queue is the source, the chunk is all of it, left in the queue: only xcells[0] is
    written (its remoteness), `_spread` reads the entries itself."""
    runs = len(seed_runs) - 1
    while k < runs and j >= seed_runs[k + 1, RUN_START]:
        k += 1
    if k == runs and seed_runs[runs, RUN_CODE] == FOLLOWS:
        return -1, False, j, k  # this window is used up: the caller gives the next one
    seed_r = FAR
    if k < runs and (seed_runs[k, RUN_CODE] == TIE) == tie_phase:
        seed_r = seed_runs[k, RUN_REMOTENESS]
    queue_r = FAR
    if head < tail:
        queue_r = cells[queue[head]] >> CODE_BITS
    m = 0
    if head < tail and queue_r <= seed_r:
        if known > 0:
            xcells[0] = cells[queue[head]]
            return known, True, j, k
        while head + m < tail and m < most:
            cell = cells[queue[head + m]]
            if (cell >> CODE_BITS) != queue_r:  # one remoteness a chunk, as for the seeds (_spread needs it)
                break
            xs[m] = lo + queue[head + m]
            xcells[m] = cell
            m += 1
        return m, True, j, k
    while m < most and k < runs and (seed_runs[k, RUN_CODE] == TIE) == tie_phase:
        # One remoteness per seed chunk: its entries add remoteness seed_r + 1 to the queue,
        # which come before any seed deeper than that.
        r = seed_runs[k, RUN_REMOTENESS]
        if r > seed_r:
            break
        xs[m] = seed_runs[k, RUN_OFFSET] + seeds[j]
        xcells[m] = (r << CODE_BITS) | seed_runs[k, RUN_CODE]
        m += 1
        j += 1
        while k < runs and j >= seed_runs[k + 1, RUN_START]:
            k += 1
    return m, False, j, k


@njit(inline="always")
def queue_first_level(cells, queue, state):
    """After the first pass has written every initial cell: the queue of phase 1 (its finished wins and
    losses, `_collect`) and `state` set to work it. Returns 0, or STUCK - the first local index not over
    without a move. Shared by solve_cells' own first pass and a game's wrapper that fills the cells
    its own faster way (explorer/games/dodgem/kernels.py: positions walked in rank order).

    A first level of more than 1/FIRST_LEVEL_QUEUED of the cells is not queued at all (a state of
    SCAN slots or more): the loop reads it from the cells as it goes (`_scan_chunk`), in the same index
    order, and the queue starts with the second level. Dōbutsu shōgi's first level, the positions where
    the mover takes the lion, is 85% of its indices: 5.3 GB of queue against 3.1 GB of cells."""
    return queue_levels(cells, queue, state, 0)


@njit(inline="always")
def queue_levels(cells, queue, state, lowest):
    """queue_first_level, after a first pass that has decided the levels below remoteness `lowest` and worked
    them already: the queue of phase 1 starts with the finished wins and losses of remoteness `lowest` (0:
    every finished one, queue_first_level). Dōbutsu shōgi's own first pass (explorer/games/dobutsu/kernels.py)
    gives each unfinished position its counter less its moves into a finished win, a win at remoteness 1 when
    one of its moves ends the game in its favour, a loss at remoteness 1 when every move loses at once:
    what working the first level gives, so the loop starts at `lowest` 1 and never reads the first level."""
    n = len(cells)
    scanned = len(state) > SCANNED
    tail = _collect(cells, queue, False, n // FIRST_LEVEL_QUEUED if scanned and lowest == 0 else n, lowest)
    if tail < 0:
        return tail
    scan = n
    if scanned and lowest == 0 and tail > n // FIRST_LEVEL_QUEUED:
        scan, tail = 0, 0
    state[0], state[1], state[2], state[3], state[4] = WINS_AND_LOSSES, 0, tail, 0, 0
    if len(state) > SORTED:
        state[SORTED] = tail  # _collect queues the first level in index order
    if scanned:
        state[SCAN], state[SCANNED] = scan, 0
    return 0


@njit(inline="always")
def _scan_chunk(cells, scan, lo, xs, xcells, most):
    """The next chunk of a first level read from the cells (queue_first_level): up to `most` of the finished
    wins and losses (remoteness 0: the loop decides every other one at remoteness 1 or more) of
    cells[scan:], in index order, their global indices into xs and cells into xcells. Returns (entries, the
    cell to go on from)."""
    n = len(cells)
    m = 0
    while scan < n and m < most:
        cell = cells[scan]
        code = cell & CODE_MASK
        if (code == WIN or code == LOSS) and (cell >> CODE_BITS) == 0:
            xs[m] = lo + scan
            xcells[m] = cell
            m += 1
        scan += 1
    return m, scan


@njit(inline="always")
def solve_cells(initial, predecessors, valid, move_count, terminal, graph, max_unmoves, cells, queue, state, budget,
                lo, seeds, seed_runs):
    """Fill `cells` (one per position of [lo, lo + len(cells))); return 0 when done, MORE,
    OVERFLOW, or STUCK - local index.

    `initial(valid, move_count, terminal, graph, i)` gives global index i's first cell
    (the mode's reading of its game: `valid`, `move_count` and `terminal` are
    whatever that mode needs); `predecessors(graph, x, out)` writes x's
    predecessors (global indices) into `out` and returns their number (at most
    `max_unmoves`). Inlined into each mode's compiled wrapper, so every mode is
    compiled (and cached) with its own functions called directly. O(N + E), E never stored.

    A tier of a tiered game (explorer.tiered) is the range [lo, lo + len(cells)); its
    moves to child tiers enter as *seeds*: the children's decided positions, already
    solved. seeds[s] (uint32) is a position's index within its child; `seed_runs` groups
    them in runs of one remoteness, code and child (start, remoteness, code, the
    child's first global index), the wins and losses by non-decreasing remoteness,
    then the ties likewise, and a last row whose start is len(seeds). They come a
    window at a time (SeedWindows): when a window is used up and its last row says
    another FOLLOWS, the loop returns NEED_SEEDS, and the caller calls again with the
    next window and the seed cursor (state[3], state[4]) back at 0. Phase 1 merges
    the queue with the win and loss seeds, phase 2 the tie queue with the tie seeds,
    always the smaller remoteness first: the order of the plain queue over the whole
    game. A child's draws never refute a move, so they never enter. Predecessors
    outside the tier are dropped. Without seeds and with lo = 0 (no_seeds()) this is
    the one-tier solve, update for update.

    Resumable: it returns MORE after about `budget` entries (or NEED_SEEDS), with its place in
    `state` (new_state() to begin), and goes on from there when called again, so
    the caller can show progress and give back the queue's pages behind the head
    (explorer.implicit). The result does not depend on the budget.
    """
    n = len(cells)
    hi = lo + n
    limit = (np.iinfo(cells.dtype).max >> CODE_BITS)
    phase, head, tail, j, k = state[0], state[1], state[2], state[3], state[4]
    if phase == START:
        # Initial cells, on every core: each index writes only its own cell.
        for i in prange(n):
            cells[i] = initial(valid, move_count, terminal, graph, lo + i)
        status = queue_first_level(cells, queue, state)
        if status < 0:
            return status
    phase, head, tail, j, k = state[0], state[1], state[2], state[3], state[4]
    sorted_until = state[SORTED] if len(state) > SORTED else tail  # (a state of before: nothing sorted)
    scan = state[SCAN] if len(state) > SCANNED else n  # the first level still read from the cells from here
    scanned = state[SCANNED] if len(state) > SCANNED else 0
    parts = state[THREADS] if len(state) > THREADS and state[THREADS] > 1 else 1
    slot = max(max_unmoves, 1)
    spread = len(state) > THREADS and state[THREADS] > 1  # batches of PARALLEL_MIN entries or more on every core
    if slot >= PARALLEL_UNMOVES or spread:
        # Big batches. At most BATCH_ROOM predecessors' room (an edge graph's hub may have a million
        # predecessors), and no more entries than the range has positions (a small tier's queue never
        # holds more at once).
        most = max(1, min(BATCH, BATCH_ROOM // slot, n))
    else:
        # One thread, few and cheap un-moves a position (Dodgem, Connect Four): one chunk at a time, as the C
        # baseline. Measured on Dodgem 5x5 (warm cache, load 5-6): big batches with their un-moves on every core
        # but applied on one cost 59 s of CPU on one thread, against 52 s in chunks.
        most = max(1, min(CHUNK, n))
    # With `spread` the batches of PARALLEL_MIN entries or more go to _spread, so the one-core gather's buffer
    # holds only the smaller ones.
    small = min(most, PARALLEL_MIN - 1) if spread else most
    buffer = np.empty(slot * max(small, 1), dtype=np.int64)
    counts = np.empty(max(small, 1), dtype=np.int64)
    xs = np.empty(most, dtype=np.int64)
    xcells = np.empty(most, dtype=np.int64)
    room = slot * (most + parts) if spread else 0  # every stripe's stretch, the last one's rounding included
    fresh = np.empty(room, dtype=np.int32)
    gather = np.empty(parts * CHUNK * slot if spread else 0, dtype=np.int64)
    gathered = np.empty(parts * CHUNK if spread else 0, dtype=np.int64)
    made = np.empty(parts, dtype=np.int64)
    worked = 0
    while phase == WINS_AND_LOSSES or phase == TIES:
        tie_phase = phase == TIES
        if head >= sorted_until and tail - head >= SORT_MIN and scan >= n:
            # The next level, once the one before is worked: in index order (_sort_level), when the queue from the
            # head on is of one remoteness (its first and last entry's, the queue being non-decreasing; with seeds
            # merged in, a level may start before the one before is worked, then it waits).
            if (cells[queue[head]] >> CODE_BITS) == (cells[queue[tail - 1]] >> CODE_BITS):
                _sort_level(queue, head, tail, n, parts)
                sorted_until = tail
        # Two threads or more, inside a sorted level, a whole batch left: its entries read by _spread on every
        # core, not here on one (`known`).
        known = min(most, sorted_until - head) if spread and head < sorted_until else 0
        known = known if known >= PARALLEL_MIN else 0
        next_scan = scan
        if scan < n:  # the first level, from the cells: remoteness 0, first in the merge (the queue's place)
            m, next_scan = _scan_chunk(cells, scan, lo, xs, xcells, most)
            from_queue, next_j, next_k = False, j, k
            if m == 0:
                scan = n
                continue
        else:
            m, from_queue, next_j, next_k = _next_chunk(cells, queue, head, tail, lo, seeds, seed_runs, j, k,
                                                        tie_phase, xs, xcells, most, known)
        direct = from_queue and known > 0
        if m == 0:
            if tie_phase:
                break
            # Ties, from the finished ties outward, shortest first: the queue starts again at 0.
            tail = _collect(cells, queue, True, n, 0)
            phase, head, sorted_until = TIES, 0, tail  # in index order
            continue
        if m < 0:
            state[0], state[1], state[2], state[3], state[4] = phase, head, tail, j, k
            if len(state) > SORTED:
                state[SORTED] = sorted_until
            if len(state) > SCANNED:
                state[SCAN], state[SCANNED] = scan, scanned
            return NEED_SEEDS
        if worked >= budget:
            state[0], state[1], state[2], state[3], state[4] = phase, head, tail, j, k
            if len(state) > SORTED:
                state[SORTED] = sorted_until
            if len(state) > SCANNED:
                state[SCAN], state[SCANNED] = scan, scanned
            return MORE
        if from_queue and not direct:
            # The next chunk's own cells (its entries' remoteness and value, read by _next_chunk) while this one is
            # worked: entries queued a level ago, long out of the cache. (_spread prefetches its own.)
            for q in range(head + m, min(head + 2 * m, tail)):
                prefetch(cells, queue[q])
        if spread and m >= PARALLEL_MIN:
            r = (xcells[0] >> CODE_BITS) + 1  # the chunk's one remoteness, plus one
            if r > limit:
                return OVERFLOW
            tail = _spread(predecessors, graph, xs, xcells, head if direct else -1, m, slot, gather, gathered, lo,
                           hi, cells, queue, tail, tie_phase, r, parts, fresh, made)
            if from_queue:
                head += m
            else:
                j, k = next_j, next_k
            if next_scan != scan:
                scanned += m
                scan = next_scan
            worked += m
            continue
        _gather(predecessors, graph, xs, m, slot, buffer, counts, lo, hi, cells)
        # A small batch, or one thread: the updates on one core, in FIFO order, whatever the batch. CHUNK entries
        # at a time, the cells of the next chunk's predecessors prefetched while this chunk is applied, so
        # that many random reads are in flight at once (the C baseline's chunking). The first chunk's cells only
        # after a parallel gather: the one-core gather has already prefetched each entry's as it computed them.
        if m >= PARALLEL_MIN:
            _prefetch_cells(cells, buffer, counts, slot, 0, min(CHUNK, m))
        for i in range(m):
            if i % CHUNK == 0:
                _prefetch_cells(cells, buffer, counts, slot, i + CHUNK, min(i + 2 * CHUNK, m))
            cell = xcells[i]
            r = (cell >> CODE_BITS) + 1
            if r > limit:
                return OVERFLOW
            start = i * slot
            lost = (cell & CODE_MASK) == LOSS
            for q in range(start, start + counts[i]):
                p = buffer[q]
                if _update(cells, p, r, tie_phase, lost):
                    queue[tail] = p
                    tail += 1
        if from_queue:
            head += m
        else:
            j, k = next_j, next_k
        if next_scan != scan:
            scanned += m
            scan = next_scan
        worked += m
    # Draws are the decoding: whatever is still OPEN is a draw.
    state[0], state[1], state[2], state[3], state[4] = DONE, head, tail, j, k
    if len(state) > SORTED:
        state[SORTED] = sorted_until
    if len(state) > SCANNED:
        state[SCAN], state[SCANNED] = scan, scanned
    return 0


@njit(inline="always")
def implicit_initial(valid, move_count, terminal, ctx, i):
    """The implicit mode's first cell of index i, from the game's kernels (explorer.games.base.ImplicitKernels):
    no position, a finished position's value, or undecided with its number of moves."""
    if not valid(ctx, i):
        return NO_POSITION
    moves = move_count(ctx, i)  # 0 exactly on finished positions
    if moves > 0:
        return (moves << CODE_BITS) | OPEN
    t = terminal(ctx, i)
    if t < 0:
        return NOT_OVER
    return OPEN_TIE if t == TIE else t


@njit(inline="always")
def _no_kernel(ctx, i):
    return 0


@njit(inline="always")
def _edge_initial(valid, move_count, terminal, graph, u):
    """The edge mode's first cell: a terminal win or loss is decided, a terminal tie waits for
    phase 2 (and may still become a win through a move, as in the plain solver), anything
    else is undecided with its out-degree (0 for a dead end, which ends a draw)."""
    succ_indptr, terminal_values = graph[0], graph[3]
    t = terminal_values[u]
    if t == WIN or t == LOSS:
        return t
    if t == TIE:
        return OPEN_TIE
    return ((succ_indptr[u + 1] - succ_indptr[u]) << CODE_BITS) | OPEN


@njit(inline="always")
def _edge_predecessors(graph, u, out):
    pred_indptr, pred_indices = graph[1], graph[2]
    count = 0
    for e in range(pred_indptr[u], pred_indptr[u + 1]):
        out[count] = pred_indices[e]
        count += 1
    return count


@njit(cache=True, nogil=True, parallel=True)
def decode(cells, value):
    """Phase 3 and the output: `value` (int8: the Value, -2 for no position, draws for
    what is still open) from the cells, and the cells rewritten in place as the
    remoteness (-1 for draws and no position), viewed through the signed dtype of
    the same width. Returns the largest remoteness. On every core."""
    deepest = 0
    for i in prange(len(cells)):
        cell = cells[i]
        code = cell & CODE_MASK
        if code <= WIN:
            value[i] = code
            r = cell >> CODE_BITS
            deepest = max(deepest, r)
            cells[i] = r
        else:
            value[i] = INVALID if code == NO_POSITION else DRAW
            cells[i] = np.iinfo(cells.dtype).max  # -1 once viewed as signed
    return deepest


COUNTED_LOW, COUNTED_HIGH = INVALID, WIN  # the values `count_values` counts: all that `decode` writes


@njit(cache=True, nogil=True, parallel=True)
def count_values(value):
    """counts[v - INVALID] = how many of `value` (int8) equal v, for v from INVALID to WIN; values
    outside that range are not counted. One read of the array, on every core: blocks of
    about a million entries, each counted into its own row, then the rows added. O(n).
    (A numpy comparison per value reads the array once per value and writes a bool array
    each time: 1.4 of 61 CPU s on Dodgem 5x5.)"""
    n = len(value)
    width = COUNTED_HIGH - COUNTED_LOW + 1
    blocks = min(256, n // (1 << 20) + 1)
    per = (n + blocks - 1) // blocks
    rows = np.zeros((blocks, width), dtype=np.int64)
    for b in prange(blocks):
        tally = np.zeros(width, dtype=np.int64)  # a block's own counters, kept in registers and cache
        for i in range(b * per, min(n, (b + 1) * per)):
            slot = value[i] - COUNTED_LOW
            if 0 <= slot < width:
                tally[slot] += 1
        rows[b] = tally
    return rows.sum(axis=0)


@njit(cache=True, nogil=True, parallel=True)
def _edge_cells(succ_indptr, pred_indptr, pred_indices, terminal, max_unmoves, cells, queue, state):
    graph = (succ_indptr, pred_indptr, pred_indices, terminal)
    return solve_cells(_edge_initial, _edge_predecessors, _no_kernel, _no_kernel, _no_kernel,
                       graph, max_unmoves, cells, queue, state, len(cells) + 1,
                       0, np.empty(0, dtype=np.uint32), np.zeros((1, 4), dtype=np.int64))


def retrograde(succ_indptr, pred_indptr, pred_indices, terminal):
    """(value int8[V], remoteness int32[V]) of every position. O(V + E); 2 or 4 bytes a
    position in cells, 4 a decided win or loss in the queue."""
    n = len(terminal)
    out_degree = np.diff(succ_indptr)
    in_degree = np.diff(pred_indptr)
    max_unmoves = int(in_degree.max()) if n else 0
    most_moves = int(out_degree.max()) if n else 0
    queue = np.empty(n, dtype=np.int32)
    for dtype in (np.uint16, np.uint32):
        cells = np.empty(n, dtype=dtype)
        if most_moves > payload_limit(cells):
            continue
        if _edge_cells(succ_indptr, pred_indptr, pred_indices, terminal, max_unmoves, cells, queue,
                       new_state()) != OVERFLOW:
            break
    else:
        raise OverflowError(f"a remoteness or a position's number of moves exceeds {payload_limit(cells):,}")
    del queue
    value = np.empty(n, dtype=np.int8)
    decode(cells, value)
    return value, cells.view(np.int16 if cells.dtype == np.uint16 else np.int32).astype(np.int32)


@lru_cache(maxsize=None)  # once per process and set of kernels: a tiered solve calls it per tier
def implicit_wrapper(predecessors, valid, move_count, terminal):
    """The implicit (and tier) solve compiled with one game's kernels, for games that do not ship
    their own cached wrapper (plugins): `(ctx, max_unmoves, cells, queue, state, budget, lo, seeds,
    seed_runs) -> status` (solve_cells). A game module caches its own with one line at its top level,
    `(solve,) = cached_wrappers(globals(), "solve")` (explorer.kernels.ranked)."""
    @njit(nogil=True, parallel=True)
    def solve(ctx, max_unmoves, cells, queue, state, budget, lo, seeds, seed_runs):
        return solve_cells(implicit_initial, predecessors, valid, move_count, terminal, ctx, max_unmoves, cells,
                           queue, state, budget, lo, seeds, seed_runs)

    return solve


def tier_wrapper(kernels):
    """The compiled solve of a game's ImplicitKernels: its cached `solve` when its kernels module
    has one, else one compiled now (implicit_wrapper; once per process). Same signature either way."""
    return kernels.solve or implicit_wrapper(kernels.predecessors, kernels.valid, kernels.move_count,
                                             kernels.terminal)


# -- loop-free tiers: one pass forward over the successors (explorer.tiered) ----------------------
FORWARD_BLOCK = 1 << 14  # positions a thread takes at a time in forward_cells
BAD_SUCCESSOR = -3       # forward_cells: a successor outside the one child tier (a wrong Tiers declaration)


@njit(inline="always")
def forward_cells(labelled_successors, valid, terminal, ctx, max_moves, lo, cells, child_lo, child_cells, status):
    """The cells of a loop-free tier [lo, lo + len(cells)), whose every move goes to one child tier
    [child_lo, child_lo + len(child_cells)), solved already: each position's value from its
    successors' finished cells, in one pass (no queue, no un-moves). The value rule of the
    retrograde loop on a DAG: a win 1 + the nearest losing successor, else a loss 1 + the
    farthest winning one when every successor wins, else a tie 1 + the nearest tie, else a draw.
    Same cells as solve_cells gives the tier (tests/explorer/test_tiered.py). O(positions +
    moves); the positions are split into blocks over every core (prange), each position writes its
    own cell, so the result does not depend on the threads. `status[0]` is set to OVERFLOW,
    BAD_SUCCESSOR or STUCK - local index when something is wrong (0 otherwise)."""
    n = len(cells)
    limit = (np.iinfo(cells.dtype).max >> CODE_BITS)
    m = len(child_cells)
    blocks = (n + FORWARD_BLOCK - 1) // FORWARD_BLOCK
    for b in prange(blocks):
        out = np.empty(max(max_moves, 1), dtype=np.int64)
        labels = np.empty(max(max_moves, 1), dtype=np.int64)
        for i in range(b * FORWARD_BLOCK, min(n, (b + 1) * FORWARD_BLOCK)):
            x = lo + i
            if not valid(ctx, x):
                cells[i] = NO_POSITION
                continue
            count = labelled_successors(ctx, x, out, labels)
            if count == 0:
                t = terminal(ctx, x)
                if t < 0:
                    status[0] = STUCK - i
                    cells[i] = NOT_OVER
                else:
                    cells[i] = t  # remoteness 0
                continue
            nearest_win, farthest_loss, nearest_tie, all_win = limit + 1, -1, limit + 1, True
            for k in range(count):
                c = out[k] - child_lo
                if c < 0 or c >= m:
                    status[0] = BAD_SUCCESSOR
                    break
                cell = np.int64(child_cells[c])
                code, r = cell & CODE_MASK, cell >> CODE_BITS
                if code == LOSS:
                    nearest_win = min(nearest_win, r)
                elif code == WIN:
                    farthest_loss = max(farthest_loss, r)
                else:
                    all_win = False
                    if code == TIE:
                        nearest_tie = min(nearest_tie, r)
            if nearest_win <= limit:
                code, r = WIN, nearest_win + 1
            elif all_win:
                code, r = LOSS, farthest_loss + 1
            elif nearest_tie <= limit:
                code, r = TIE, nearest_tie + 1
            else:
                code, r = DRAW, 0
            if r > limit:
                status[0] = OVERFLOW
                r = 0
            cells[i] = (r << CODE_BITS) | code
    return status[0]


@lru_cache(maxsize=None)  # once per process and set of kernels, as implicit_wrapper
def forward_wrapper(labelled_successors, valid, terminal):
    """forward_cells compiled with one game's kernels, for games without a cached `forward`:
    `(ctx, max_moves, lo, cells, child_lo, child_cells, status) -> status`."""
    @njit(nogil=True, parallel=True)
    def forward(ctx, max_moves, lo, cells, child_lo, child_cells, status):
        return forward_cells(labelled_successors, valid, terminal, ctx, max_moves, lo, cells, child_lo, child_cells,
                             status)

    return forward


# -- seeds: the decided positions of a tier's children, a window at a time (explorer.tiered) ------

@njit(cache=True, nogil=True)
def _deepest_decided(cells):
    """The largest remoteness of a decided win, loss or tie in a finished tier's cells (-1: none)."""
    deepest = -1
    for i in range(len(cells)):
        code = cells[i] & CODE_MASK
        if code == WIN or code == LOSS or code == TIE:
            deepest = max(deepest, np.int64(cells[i] >> CODE_BITS))
    return deepest


@njit(cache=True, nogil=True)
def _survey_decided(cells, counts, first, last):
    """counts[code, remoteness] += the decided positions of a finished tier's cells, and where the
    first and the last of each (code, remoteness) lie (first starts at len(cells), last at -1)."""
    for i in range(len(cells)):
        code = cells[i] & CODE_MASK
        if code == WIN or code == LOSS or code == TIE:
            key = cells[i] >> CODE_BITS
            counts[code, key] += 1
            first[code, key] = min(first[code, key], i)
            last[code, key] = i


@njit(cache=True, nogil=True)
def _place_window(cells, begin, end, start_at, cursor, stop, wanted, seeds):
    """One sequential pass over cells[begin:end] of a finished tier: seeds[cursor[code, r]++] = i
    for each decided position i at or after start_at[code, r] while cursor[code, r] < stop[code, r]
    (ascending indices within a run). Stops once `wanted` seeds are placed."""
    for i in range(begin, end):
        code = cells[i] & CODE_MASK
        if code == WIN or code == LOSS or code == TIE:
            key = cells[i] >> CODE_BITS
            if cursor[code, key] < stop[code, key] and i >= start_at[code, key]:
                seeds[cursor[code, key]] = i
                cursor[code, key] += 1
                wanted -= 1
                if wanted == 0:
                    return


class SeedWindows:
    """The seeds of a tier for solve_cells, from its solved children given as (first global index,
    finished cells) pairs (finish_cells; memory-mapped, read in order): their decided positions by
    runs of one remoteness, code and child, the wins and losses by non-decreasing remoteness, then
    the ties likewise, ascending indices within a run. Handed out a window of at most `capacity`
    seeds at a time (`first`, `next`), never as one list: a window is filled by a sequential pass
    over each child it draws from, and a run longer than the room left is split across windows.
    So the seeds cost 4 bytes a seed of one window, not of every decided child position.

    Cost: two passes over every child to count the runs and find where each lies (`first`,
    `last`: a window's pass covers only the stretch of the child between them), then one pass
    over the children per window. `most_windows` bounds those passes: the capacity grows to
    total / most_windows when the seeds are that many."""

    def __init__(self, children, capacity: int, most_windows: int = 64):
        self._children = [(int(offset), cells) for offset, cells in children]
        deepest = max([_deepest_decided(cells) for _, cells in self._children], default=-1)
        shape = (4, deepest + 1)
        self._counts, self._first, self._last = [], [], []
        for _, cells in self._children:
            counts, first, last = np.zeros(shape, np.int64), np.full(shape, len(cells), np.int64), \
                np.full(shape, -1, np.int64)
            _survey_decided(cells, counts, first, last)
            self._counts.append(counts)
            self._first.append(first)
            self._last.append(last)
        order = [(r, code) for r in range(deepest + 1) for code in (LOSS, WIN)] + \
                [(r, TIE) for r in range(deepest + 1)]
        self._runs = [(r, code, c, int(self._counts[c][code, r])) for r, code in order
                      for c in range(len(self._children)) if self._counts[c][code, r]]
        self.total = sum(size for *_, size in self._runs)
        self.capacity = max(1, capacity, -(-self.total // max(1, most_windows)))
        self._buffer = np.empty(min(self.capacity, self.total), dtype=np.uint32)
        self._shape = shape
        self.windows = 0  # handed out so far (since the last `first`)
        self.first()

    @property
    def exhausted(self) -> bool:
        """Every seed has been handed out."""
        return self._run >= len(self._runs)

    def first(self) -> tuple[np.ndarray, np.ndarray]:
        """The first window again (a solve started over with wider cells)."""
        if self.windows == 1 and self._window_first_run == 0 and self._window_first_taken == 0:
            return self._window
        self._run, self._taken, self._resume, self.windows = 0, 0, 0, 0
        return self.next()

    def next(self) -> tuple[np.ndarray, np.ndarray]:
        """(seeds, seed_runs) of the next window; its last row says whether another FOLLOWS."""
        self._window_first_run, self._window_first_taken = self._run, self._taken
        rows, pieces, filled = [], [], 0
        while filled < self.capacity and self._run < len(self._runs):
            r, code, c, size = self._runs[self._run]
            take = min(size - self._taken, self.capacity - filled)
            start_at = self._resume if self._taken else int(self._first[c][code, r])
            rows.append((filled, r, code, self._children[c][0]))
            pieces.append((c, code, r, start_at, filled, take))
            filled += take
            if self._taken + take == size:
                self._run, self._taken = self._run + 1, 0
            else:
                self._taken += take  # split: the next window goes on after this piece's last seed
        seeds = self._buffer[:filled]
        for c, (_, cells) in enumerate(self._children):
            mine = [piece for piece in pieces if piece[0] == c]
            if not mine:
                continue
            start_at = np.zeros(self._shape, np.int64)
            cursor = np.zeros(self._shape, np.int64)
            stop = np.zeros(self._shape, np.int64)
            for _, code, r, at, dest, take in mine:
                start_at[code, r], cursor[code, r], stop[code, r] = at, dest, dest + take
            begin = min(at for *_, at, _, _ in mine)
            end = max(int(self._last[c][code, r]) for _, code, r, *_ in mine) + 1
            _place_window(cells, begin, end, start_at, cursor, stop, sum(take for *_, take in mine), seeds)
        if self._taken:
            self._resume = int(seeds[filled - 1]) + 1
        rows.append((filled, 0, FOLLOWS if not self.exhausted else 0, 0))
        self.windows += 1
        self._window = seeds, np.array(rows, dtype=np.int64).reshape(-1, 4)
        return self._window


FINISH_BLOCK = 1 << 20  # cells a thread takes at a time in finish_cells


@njit(cache=True, nogil=True, parallel=True)
def finish_cells(cells):
    """A solved tier's cells as they are kept (explorer.tiered): every position still open is a
    draw (code DRAW, payload 0); decided ones keep code and remoteness, no position stays NO_POSITION.
    In place, on every core: blocks of FINISH_BLOCK cells, each with its own counters, added at the end.
    Returns (the largest remoteness of a win, loss or tie, 0 when none; counts[code] = the finished cells
    of each code 0-7): what valuestore.summarize reads from the finished cells, counted in the same pass
    instead of a second one on one core (2 s of Dodgem 5x5's, 20 s of Dōbutsu shōgi's). O(n)."""
    n = len(cells)
    blocks = (n + FINISH_BLOCK - 1) // FINISH_BLOCK
    rows = np.zeros((max(blocks, 1), CODE_MASK + 1), dtype=np.int64)
    deepest = np.zeros(max(blocks, 1), dtype=np.int64)
    for b in prange(blocks):
        tally = np.zeros(CODE_MASK + 1, dtype=np.int64)  # a block's own counters, in cache
        deep = 0
        for i in range(b * FINISH_BLOCK, min(n, (b + 1) * FINISH_BLOCK)):
            cell = cells[i]
            code = cell & CODE_MASK
            if code == OPEN or code == OPEN_TIE:
                cells[i] = DRAW
                cell = DRAW
            deep = _tallied(cell, tally, deep)
        rows[b] = tally
        deepest[b] = deep
    return deepest.max(), rows.sum(axis=0)


@njit(inline="always")
def _tallied(cell, tally, deep):
    """One finished cell counted: tally[its code] += 1; returns `deep`, or the cell's remoteness when it is a
    deeper win, loss or tie (finish_cells, count_cells)."""
    code = cell & CODE_MASK
    tally[code] += 1
    if code <= WIN and code != DRAW:
        return max(deep, np.int64(cell >> CODE_BITS))
    return deep


@njit(cache=True, nogil=True, parallel=True)
def count_cells(cells):
    """finish_cells' counts of cells finished already, read only (a tier's file memory-mapped read-only:
    explorer.tiered.files._summarize), on every core: (the deepest remoteness of a win, loss or tie, 0 when
    none; counts[code] for each code 0-7), valuestore.summarize's answer, the same with any threads. O(n)."""
    n = len(cells)
    blocks = (n + FINISH_BLOCK - 1) // FINISH_BLOCK
    rows = np.zeros((max(blocks, 1), CODE_MASK + 1), dtype=np.int64)
    deepest = np.zeros(max(blocks, 1), dtype=np.int64)
    for b in prange(blocks):
        tally = np.zeros(CODE_MASK + 1, dtype=np.int64)
        deep = 0
        for i in range(b * FINISH_BLOCK, min(n, (b + 1) * FINISH_BLOCK)):
            deep = _tallied(cells[i], tally, deep)
        rows[b] = tally
        deepest[b] = deep
    return deepest.max(), rows.sum(axis=0)


@njit(cache=True, nogil=True, parallel=True)
def optimal_moves(succ_indptr, succ_indices, value, remoteness):
    """bool[E]: the move keeps the mover's value (the successor's, flipped) and, unless a
    draw, reaches remoteness one less. O(E), on every core (each position writes its own moves)."""
    flip = np.array([WIN, DRAW, TIE, LOSS], dtype=np.int8)
    optimal = np.zeros(len(succ_indices), dtype=np.bool_)
    for u in prange(len(succ_indptr) - 1):
        mine = value[u]
        for e in range(succ_indptr[u], succ_indptr[u + 1]):
            c = succ_indices[e]
            if flip[value[c]] == mine and (mine == DRAW or remoteness[c] == remoteness[u] - 1):
                optimal[e] = True
    return optimal
