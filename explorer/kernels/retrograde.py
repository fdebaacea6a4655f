"""The one compiled retrograde solve. Every mode runs the same loop, `solve_cells`:
the edge mode over a stored predecessor CSR (`retrograde`), the implicit mode over
a game's un-moves (`explorer.implicit`, through a wrapper each game compiles and
caches: `implicit_wrapper`). A mode is only a different `initial` and
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
- the queue is worked in chunks of up to CHUNK positions: every predecessor of
  the chunk is computed first and its cell prefetched, then they are applied in
  FIFO order. The order of updates is exactly the plain queue's, so the result
  is the same; the memory latency of the random accesses overlaps instead of
  adding up.

Peak memory: the cells plus 4 bytes per decided win or loss (Dodgem 5x5: 4.6
bytes per index), then the cells plus one byte per position while decoding.
The first pass over all positions (the `initial` cells) and the decoding run on
every core (numba prange); they write each position's own cell only, so the
result is bit-identical with any number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from explorer.kernels.bits import prefetch

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
CHUNK = 64       # queue entries whose predecessors are computed (and prefetched) at once


def payload_limit(cells: np.ndarray) -> int:
    """The largest remoteness or counter a cell array of this dtype holds."""
    return (int(np.iinfo(cells.dtype).max) >> CODE_BITS)


# The solve's progress between calls (`state`, int64[3]): the phase, then the queue's head and tail.
START, WINS_AND_LOSSES, TIES, DONE = 0, 1, 2, 3
MORE = 1  # returned when `budget` queue entries were worked and the solve is not over


def new_state() -> np.ndarray:
    return np.zeros(3, dtype=np.int64)


@njit(inline="always")
def _gather(predecessors, graph, queue, head, end, max_unmoves, buffer, starts, cells):
    """The predecessors of queue[head:end] into `buffer` (those of queue[j] at
    starts[j - head]:starts[j - head + 1]), each one's cell prefetched: the first half of a chunk."""
    filled = 0
    for j in range(head, end):
        starts[j - head] = filled
        count = predecessors(graph, queue[j], buffer[filled:filled + max_unmoves])
        for k in range(filled, filled + count):
            prefetch(cells, buffer[k])
        filled += count
    starts[end - head] = filled


@njit(inline="always")
def solve_cells(initial, predecessors, valid, move_count, terminal, graph, max_unmoves, cells, queue, state, budget):
    """Fill `cells` (one per position); return 0 when done, MORE, OVERFLOW, or STUCK - index.

    `initial(valid, move_count, terminal, graph, i)` gives position i's first cell
    (the mode's reading of its game: `valid`, `move_count` and `terminal` are
    whatever that mode needs); `predecessors(graph, x, out)` writes x's
    predecessors into `out` and returns their number (at most `max_unmoves`).
    Inlined into each mode's compiled wrapper, so every mode is compiled (and
    cached) with its own functions called directly. O(N + E), E never stored.

    Resumable: it returns MORE after about `budget` queue entries, with its place in
    `state` (new_state() to begin), and goes on from there when called again, so
    the caller can show progress and give back the queue's pages behind the head
    (explorer.implicit). The result does not depend on the budget.
    """
    n = len(cells)
    limit = (np.iinfo(cells.dtype).max >> CODE_BITS)
    phase, head, tail = state[0], state[1], state[2]
    if phase == START:
        # Initial cells, on every core: each index writes only its own cell.
        for i in prange(n):
            cells[i] = initial(valid, move_count, terminal, graph, i)
        tail = 0
        for i in range(n):
            code = cells[i] & CODE_MASK
            if code == NOT_OVER:
                return STUCK - i
            if code == WIN or code == LOSS:
                queue[tail] = i
                tail += 1
        phase, head = WINS_AND_LOSSES, 0
    room = max(max_unmoves, 1) * CHUNK
    buffer = np.empty(room, dtype=np.int64)
    starts = np.empty(CHUNK + 1, dtype=np.int64)
    stop = head + budget
    if phase == WINS_AND_LOSSES:
        while head < tail:
            if head >= stop:
                state[0], state[1], state[2] = phase, head, tail
                return MORE
            end = min(head + CHUNK, tail)
            _gather(predecessors, graph, queue, head, end, max_unmoves, buffer, starts, cells)
            for j in range(head, end):
                cell = cells[queue[j]]
                lost = (cell & CODE_MASK) == LOSS
                r = (cell >> CODE_BITS) + 1
                if r > limit:
                    return OVERFLOW
                for k in range(starts[j - head], starts[j - head + 1]):
                    p = buffer[k]
                    other = cells[p]
                    code = other & CODE_MASK
                    if lost and (code == OPEN or code == OPEN_TIE):
                        cells[p] = (r << CODE_BITS) | WIN
                        queue[tail] = p
                        tail += 1
                    elif code == OPEN:
                        left = (other >> CODE_BITS) - 1
                        if left == 0:
                            cells[p] = (r << CODE_BITS) | LOSS
                            queue[tail] = p
                            tail += 1
                        else:
                            cells[p] = (left << CODE_BITS) | OPEN
            head = end
        # Ties, from the finished ties outward, shortest first: the queue starts again at 0.
        tail = 0
        for i in range(n):
            if (cells[i] & CODE_MASK) == OPEN_TIE:
                cells[i] = TIE
                queue[tail] = i
                tail += 1
        phase, head = TIES, 0
        stop = budget
    if phase == TIES:
        while head < tail:
            if head >= stop:
                state[0], state[1], state[2] = phase, head, tail
                return MORE
            end = min(head + CHUNK, tail)
            _gather(predecessors, graph, queue, head, end, max_unmoves, buffer, starts, cells)
            for j in range(head, end):
                r = (cells[queue[j]] >> CODE_BITS) + 1
                if r > limit:
                    return OVERFLOW
                for k in range(starts[j - head], starts[j - head + 1]):
                    p = buffer[k]
                    if (cells[p] & CODE_MASK) == OPEN:
                        cells[p] = (r << CODE_BITS) | TIE
                        queue[tail] = p
                        tail += 1
            head = end
    # Draws are the decoding: whatever is still OPEN is a draw.
    state[0], state[1], state[2] = DONE, head, tail
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


@njit(cache=True, nogil=True, parallel=True)
def _edge_cells(succ_indptr, pred_indptr, pred_indices, terminal, max_unmoves, cells, queue):
    graph = (succ_indptr, pred_indptr, pred_indices, terminal)
    return solve_cells(_edge_initial, _edge_predecessors, _no_kernel, _no_kernel, _no_kernel,
                       graph, max_unmoves, cells, queue, np.zeros(3, dtype=np.int64), len(cells) + 1)


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
        if _edge_cells(succ_indptr, pred_indptr, pred_indices, terminal, max_unmoves, cells, queue) != OVERFLOW:
            break
    else:
        raise OverflowError(f"a remoteness or a position's number of moves exceeds {payload_limit(cells):,}")
    del queue
    value = np.empty(n, dtype=np.int8)
    decode(cells, value)
    return value, cells.view(np.int16 if cells.dtype == np.uint16 else np.int32).astype(np.int32)


def implicit_wrapper(predecessors, valid, move_count, terminal):
    """The implicit solve compiled with one game's kernels, for games that do not ship their own
    cached wrapper (plugins): `(ctx, max_unmoves, cells, queue, state, budget) -> status`. A game
    module caches its own by writing the same two lines at its top level (explorer/games/dodgem/kernels.py)."""
    @njit(nogil=True, parallel=True)
    def solve(ctx, max_unmoves, cells, queue, state, budget):
        return solve_cells(implicit_initial, predecessors, valid, move_count, terminal, ctx, max_unmoves, cells,
                           queue, state, budget)

    return solve


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
