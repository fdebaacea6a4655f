"""Breadth-first generation over integer codes: one kernel call per level, O(level + its moves).

Two ways to turn a level's moves into graph edges, written straight into the graph's arrays: dense
ids for codes met for the first time, one edge per distinct (source, target) keeping the first move
in the game's order, and the CSR row pointer. Nothing here scans the code space.

- `absorb_moves`, for moves the game hands over in batches (its compiled kernel, or numpy
  `batch_moves`), on one core. Its per-code table is int32[code space, 2]: the dense id (-1 =
  unseen) and the last source that reached the code, in one 8-byte row, so the lookup of a move's
  target is one cache miss, not two (generation is bound by these random reads; sources in code
  order make neighbouring sources' targets share cache lines). `renumber` then orders each new
  level by code, as the old numpy generator did.
- `expand_positions`, a game's moves fused with that bookkeeping (Game.compiled_generator), on
  every core: slots of consecutive positions side by side, each finding its positions' repeated
  targets on its own, so the table is int32[code space], ids only. A target of the level in
  progress is written as -1 - code, and `settle_level` numbers the level in code order once it is
  whole: the arrays are the same with any number of threads, and the same as absorb_moves's.
"""

from __future__ import annotations

import numpy as np

from numba import njit, prange

from explorer.kernels import jit

jit_parallel = njit(cache=True, nogil=True, parallel=True)  # a cached kernel with prange loops: on every core


@jit
def group_by_source(source, rows):
    """(starts int64[rows+1], order int64[moves]): a stable counting sort of moves by source row."""
    starts = np.zeros(rows + 1, dtype=np.int64)
    for i in range(len(source)):
        starts[source[i] + 1] += 1
    for r in range(rows):
        starts[r + 1] += starts[r]
    fill = starts[:-1].copy()
    order = np.empty(len(source), dtype=np.int64)
    for i in range(len(source)):
        s = source[i]
        order[fill[s]] = i
        fill[s] += 1
    return starts, order


@jit
def absorb_moves(first, live, starts, order, target, label, table, codes, indptr, targets, labels, found, edges, limit):
    """Add the edges of positions codes[first:first+len(live)] (one is expanded where `live`).

    The moves of the r-th live row are target[starts[r]:starts[r+1]] in the
    game's order, or, when `order` is not empty, target[order[starts[r]:starts[r+1]]].
    Fresh codes go to codes[found:] with provisional ids found, found+1, ... in
    discovery order; edges to targets/labels[edges:] (room for len(target)
    more is the caller's job); indptr[u+1] for each row u. Returns (found,
    edges, ok); ok is False as soon as the graph would exceed `limit` positions.
    """
    indirect = len(order) > 0
    row = 0
    for u in range(first, first + len(live)):
        if live[u - first]:
            for k in range(starts[row], starts[row + 1]):
                i = order[k] if indirect else k
                # One move of u to `code`, written out here and in expand_positions (see there why no helper).
                code = target[i]
                v = table[code, 0]
                if v < 0:  # a fresh code: the next id
                    if found >= limit:
                        return limit + 1, edges, False
                    v = found
                    table[code, 0] = v
                    codes[v] = code
                    found += 1
                if table[code, 1] != u:  # the first move from u to this code: an edge
                    table[code, 1] = u
                    targets[edges] = v
                    labels[edges] = label[i]
                    edges += 1
            row += 1
        indptr[u + 1] = edges
    return found, edges, True


@jit
def set_ids(table, codes, first):
    """table[codes[i], 0] = first + i (the start positions)."""
    for i in range(len(codes)):
        table[codes[i], 0] = first + i


@jit
def renumber(table, codes, found, level, targets, edge_start, edges):
    """Give the level codes[found:found+new] their final ids in code order.

    absorb_moves numbered them in discovery order (the ids table[code, 0] holds);
    `level` is the same codes sorted (np.sort: numpy's sort is faster than numba's,
    and than np.argsort, whose permutation this reads back from the table instead);
    only this level's edges (targets[edge_start:edges]) can point at them yet.
    O(level + level edges).
    """
    new = len(level)
    final_id = np.empty(new, dtype=np.int32)  # by discovery order
    for r in range(new):
        code = level[r]
        final_id[table[code, 0] - found] = found + r
        table[code, 0] = found + r
        codes[found + r] = code
    for e in range(edge_start, edges):
        t = targets[e] - found
        if t >= 0:
            targets[e] = final_id[t]


NEED_ROOM = 1  # expand_positions stopped: the edge arrays need room for one more round of positions' moves
TOO_MANY = 2   # expand_positions stopped: the graph would exceed its position limit
UNSEEN = -1    # a code of the fused pass's table (int32[code space]) that no move has reached
MET = -2       # a code reached in this round, listed by the slot that saw it first (maybe by two)
LISTED = -3    # a code of the level in progress, already appended to `codes`: its id comes with settle_level


@njit(inline="always")
def _expand_slot(moves_of, outcome_of, ctx, symmetry, lo, hi, table, codes, indptr, terminal, out_targets,
                 out_labels, base, fresh, keys, stamps, buffer, names, scratch):
    """The moves of codes[lo:hi], each position's outcome into `terminal`, its distinct targets (the
    first move to each, in the game's order) to out_targets/out_labels[0:] and the running count plus
    `base` to indptr[u+1]. A target already numbered is written as its id; one of the level in
    progress as -1 - code (settle_level numbers it), and, if no move reached it before, marked MET in
    `table` and listed in `fresh`. Repeats are found in a small hash of this position's targets
    (keys/stamps, stamp u + 1), never in shared memory, so two slots run side by side without
    touching each other's state except the MET marks, which every writer writes alike.
    Returns (moves written, codes listed). O(positions + moves)."""
    mask = len(keys) - 1
    at = 0
    listed = 0
    for u in range(lo, hi):
        code = codes[u]
        outcome = outcome_of(ctx, code)
        terminal[u] = outcome
        if outcome < 0:
            count = moves_of(ctx, code, symmetry, buffer, names, scratch, u + 1)
            stamp = u + 1
            for i in range(count):
                target = buffer[i]
                h = ((target * 2654435761) >> 16) & mask  # code < 2**31: no overflow
                repeat = False
                while stamps[h] == stamp:
                    if keys[h] == target:
                        repeat = True
                        break
                    h = (h + 1) & mask
                if repeat:
                    continue
                stamps[h] = stamp
                keys[h] = target
                v = table[target]
                if v < 0:
                    if v == UNSEEN:
                        table[target] = MET
                        fresh[listed] = target
                        listed += 1
                    v = -1 - target
                out_targets[at] = v
                out_labels[at] = names[i]
                at += 1
        indptr[u + 1] = base + at
    return at, listed


@njit(inline="always")
def _place_slot(lo, hi, indptr, targets, labels, side_targets, side_labels, moves, base):
    """Move a slot's moves from its side buffers to targets/labels[base:], and its rows' ends up by `base`."""
    for k in range(moves):
        targets[base + k] = side_targets[k]
        labels[base + k] = side_labels[k]
    for u in range(lo, hi):
        indptr[u + 1] += base


@njit(inline="always")
def expand_positions(moves_of, outcome_of, ctx, symmetry, first, stop, max_moves, table, codes, indptr,
                     terminal, targets, labels, found, edges, limit, block, side_targets, side_labels, fresh,
                     keys, stamps, buffer, names, scratch, tally):
    """Expand codes[first:stop] (part of one breadth-first level) in compiled rounds on every core: each
    position's outcome into `terminal`, and the moves of every unfinished one straight into the graph's
    arrays, the first move per target kept, indptr[u+1] set.

    `outcome_of(ctx, code)` is the Value for the player to move where the game is over, else -1;
    `moves_of(ctx, code, symmetry, buffer, names, scratch, stamp)` writes one position's moves (at
    most `max_moves`) in the game's order and returns their number. Inlined into the game's cached
    wrapper (Game.compiled_generator), which numba compiles with parallel=True.

    A round gives each of the S slots (the rows of the work arrays, one per thread) up to `block`
    consecutive positions (prange). Slot 0 writes at `edges`; slot s > 0 into its side buffers, which
    it copies into place at the start of the next round (its place is known once the round's counts
    are), so copying overlaps the next expansion. Between rounds, on one core, the codes the slots
    met for the first time are appended to `codes` (LISTED). Targets of the level in progress stay
    -1 - code until `settle_level` numbers the level in code order. The arrays do not depend on S or
    on which thread ran what: ids come from codes, never from discovery order. `table` is
    int32[code space]: an id, UNSEEN, MET or LISTED. tally[s] = (the slot's moves in the last round,
    where they go, its rows lo, hi, the codes it listed).

    Returns (next position, found, edges, status): status 0 when all are done, NEED_ROOM when the
    edge arrays have no room for one position's moves (the caller grows them and calls again from
    the next position), TOO_MANY past `limit` positions. O(positions + moves).
    """
    slots = side_targets.shape[0]
    room = len(targets)
    u = first
    status = 0
    for s in range(slots):
        tally[s, 2], tally[s, 3] = 0, 0  # rows waiting in the slot's side buffers: none
    while u < stop:
        # Positions this round: all slots' blocks, fewer when the edge arrays cannot hold their moves.
        n = min(stop - u, slots * block, (room - edges) // max_moves)
        if n <= 0:
            status = NEED_ROOM
            break
        each = (n + slots - 1) // slots
        for s in prange(slots):
            if s > 0 and tally[s, 3] > tally[s, 2]:  # the last round's rows, now that their place is known
                _place_slot(tally[s, 2], tally[s, 3], indptr, targets, labels, side_targets[s], side_labels[s],
                            tally[s, 0], tally[s, 1])
            lo = min(u + s * each, u + n)
            hi = min(lo + each, u + n)
            if s == 0:
                moves, listed = _expand_slot(moves_of, outcome_of, ctx, symmetry, lo, hi, table, codes, indptr,
                                             terminal, targets[edges:], labels[edges:], edges, fresh[s], keys[s],
                                             stamps[s], buffer[s], names[s], scratch[s])
            else:
                moves, listed = _expand_slot(moves_of, outcome_of, ctx, symmetry, lo, hi, table, codes, indptr,
                                             terminal, side_targets[s], side_labels[s], 0, fresh[s], keys[s],
                                             stamps[s], buffer[s], names[s], scratch[s])
            tally[s, 0], tally[s, 2], tally[s, 3], tally[s, 4] = moves, lo, hi, listed
        edges += tally[0, 0]
        for s in range(1, slots):
            tally[s, 1] = edges
            edges += tally[s, 0]
        for s in range(slots):  # fresh codes, once each, in slot order (settle_level sorts them)
            for k in range(tally[s, 4]):
                code = fresh[s, k]
                if table[code] == MET:
                    if found >= limit:
                        found, status = limit + 1, TOO_MANY
                        break
                    table[code] = LISTED
                    codes[found] = code
                    found += 1
            if status == TOO_MANY:
                break
        if status == TOO_MANY:
            break
        u += n
    for s in range(1, slots):
        if tally[s, 3] > tally[s, 2]:
            _place_slot(tally[s, 2], tally[s, 3], indptr, targets, labels, side_targets[s], side_labels[s],
                        tally[s, 0], tally[s, 1])
    return u, found, edges, status


@jit_parallel
def settle_level(table, codes, found, level, targets, edge_start, edges):
    """Number the level codes[found:found+len(level)] in code order (`level` is the same codes sorted)
    and write those ids over the -1 - code that expand_positions left in targets[edge_start:edges]
    (only this level's edges can point at them). On every core; each edge is its own. O(level + edges)."""
    for r in range(len(level)):
        code = level[r]
        table[code] = found + r
        codes[found + r] = code
    blocks = (edges - edge_start + SETTLE_BLOCK - 1) // SETTLE_BLOCK
    for b in prange(blocks):
        for e in range(edge_start + b * SETTLE_BLOCK, min(edge_start + (b + 1) * SETTLE_BLOCK, edges)):
            t = targets[e]
            if t < 0:
                targets[e] = table[-1 - t]


SETTLE_BLOCK = 1 << 16  # edges a thread takes at a time in settle_level


# Moves one slot's side buffers hold. A round (one parallel region: microseconds on an idle machine, up to
# milliseconds on a busy one, waiting for the other thread to be scheduled) gives each slot as many positions
# as surely fit. At 1 << 19, chopsticks(fingers=60) took about 800 rounds, and twice the wall time of one
# thread at load 5-6; at 1 << 21, about 200.
SLOT_MOVES = 1 << 21


def fused_work(slots: int, max_moves: int, scratch: int, block: int | None = None) -> tuple:
    """The work arrays of expand_positions for `slots` slots (one per thread), from `block` on:
    (block, side_targets, side_labels, fresh, keys, stamps, buffer, names, scratch, tally).
    `block`: positions per slot and round, by default as many as SLOT_MOVES moves surely hold (the
    tests take a few, for many rounds). About 20 bytes per SLOT_MOVES entry and slot (40 MiB, touched only
    as far as used), whatever the graph's size."""
    block = block or max(1, SLOT_MOVES // max_moves)
    room = block * max_moves
    hashed = 1 << max(4, (2 * max_moves - 1).bit_length())  # at least twice one position's moves: probes stay short
    return (block, np.empty((slots, room), dtype=np.int32), np.empty((slots, room), dtype=np.int64),
            np.empty((slots, room), dtype=np.int64), np.empty((slots, hashed), dtype=np.int64),
            np.zeros((slots, hashed), dtype=np.int64), np.empty((slots, max_moves), dtype=np.int64),
            np.empty((slots, max_moves), dtype=np.int64), np.zeros((slots, max(scratch, 1)), dtype=np.int64),
            np.zeros((slots, 5), dtype=np.int64))
