"""Prototype (issue 21), design 3 (design 2 with a guide per tier instead of the binary search): a perfect
ranking of each of Dodgem's fine tiers (b, r, cb, rr), with small tables (about 6 MB on 5x5, most of them
the red sets' list used only by unrank). Measured, not used by the solver (see this package's docstring).

b, r: blue and red cars; cb: Blue's column sum; rr: Red's row sum. Square = row * n + column.

Order inside a tier: the mover (Blue's turns first); then the blue set's *group*, (b, cb, rowvec) with
rowvec = Blue's cars per row, groups in rowvec order; then the blue set within its group (colex);
then the red set. Every blue set of a group leaves free squares in the same rows, so it has the same
number of red sets, red_count(rowvec, r, rr): inside a tier,

    index = mover * half + group_offset[group, (r, rr)] + rank_in_group * red_count[rowvec, (r, rr)] + red_rank

- rank_in_group, group, rowvec, cb: one look-up keyed by the blue set's colex rank (two look-ups).
- red_rank: the red set packed onto the free squares (pext) and ranked among the r-subsets of the
  free squares whose rows sum to rr, in colex order: sum_k N(rowvec, k, p_k, W_k), p_k the k-th
  car's free-square position, W_k the rows of the k lowest cars summed; one look-up per car.
- unrank: the tier's guide (a bucket of 2^shift indices -> the last group starting at or before it) and a
  short forward scan of its groups' offsets (at most 126 groups on 5x5), one 32-bit division, the blue
  set from the groups' member list, the red set from a list per (rowvec, r, rr) in rank order,
  spread over the free squares (pdep).

All tables live in one int32 array (`build(n)`); `rank`/`unrank` are numba, inline="always". It starts with
n and ends with the board's edge masks, as the current kernels' context does, so that their move count
(explorer.games.dodgem.kernels._count_moves) runs on it unchanged.
`Reference` is the plain Python ranking by the same definition, with no shared tables.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import combinations

import numpy as np
from numba import njit

from explorer.games.dodgem.kernels import _EDGES, _colex
from explorer.kernels.bits import deposit, extract, popcount, trailing_zeros

LOW = 13  # the blue set's colex rank in two look-ups: its squares below LOW, then the rest
REC = 6   # int32 entries per tier record: half, first group, end of groups, (r, rr) slot, guide start, guide shift
(H_N, H_CELLS, H_S, H_NSLOTS, H_HIGH, H_LOWTAB, H_HIGHTAB, H_SIZESTART, H_INFO, H_MEMBERS, H_GSTART, H_GRV,
 H_GOFF, H_REDCOUNT, H_NTAB, H_REDSTART, H_REDLIST, H_REC, H_TOFF, H_ROW, H_SLOTSTART, H_TIERS, H_TOTAL,
 H_GTID, H_GGUIDE, H_GSHIFT, H_GROUPGUIDE) = range(27)
HEADER = 32


def tier_id(n, b, r, cb, rr):
    s = (n - 1) ** 2 + 1
    return ((b * n + r) * s + cb) * s + rr


def tier_of_id(n, tid):
    s = (n - 1) ** 2 + 1
    tid, rr = divmod(tid, s)
    tid, cb = divmod(tid, s)
    b, r = divmod(tid, n)
    return b, r, cb, rr


def row_vectors(n):
    """Blue's cars per row (each <= n, at most n-1 in all) -> id, in lexicographic order."""
    out = {}

    def grow(prefix, left):
        if len(prefix) == n:
            out[tuple(prefix)] = len(out)
            return
        for k in range(min(n, left) + 1):
            grow(prefix + [k], left - k)
    grow([], n - 1)
    return out


def build(n: int) -> tuple[np.ndarray, dict]:
    """The int32 table array of the fine ranking of Dodgem n x n, and a dict: bytes per table, tier sizes
    (both movers), total."""
    cells, most = n * n, n - 1
    S = most * most + 1
    slot_start = [r + most * r * (r - 1) // 2 for r in range(most + 1)]
    nslots = slot_start[most] + most * most + 1
    rowvecs = row_vectors(n)
    nrv = len(rowvecs)
    # red: counts, per-car rank table N, and the red sets in rank order per (rowvec, slot)
    red_count = np.zeros((nrv, nslots), dtype=np.int64)
    ntab = np.zeros((nrv, most, cells, S), dtype=np.int64)
    red_start = np.zeros((nrv, nslots), dtype=np.int64)
    red_list = []
    for rv, v in rowvecs.items():
        w = [i for i in range(n) for _ in range(n - rv[i])]  # the free squares' rows, in square order
        m = len(w)
        cnt = np.zeros((m + 1, most + 1, S), dtype=np.int64)  # k-subsets of the first p with rows summing to W
        cnt[0, 0, 0] = 1
        for p in range(m):
            cnt[p + 1] = cnt[p]
            for k in range(1, most + 1):
                cnt[p + 1, k, w[p]:] += cnt[p, k - 1, :S - w[p]]
        for k in range(1, most + 1):
            ntab[v, k - 1, :m] = cnt[:m, k]
        for r in range(most + 1):
            groups = {}
            for sub in sorted(combinations(range(m), r), key=lambda t: t[::-1]):  # colex
                groups.setdefault(sum(w[p] for p in sub), []).append(sum(1 << p for p in sub))
            for rr in range(most * r + 1):
                sl = slot_start[r] + rr
                sets = groups.get(rr, [])
                assert len(sets) == cnt[m, r, rr]
                red_count[v, sl] = len(sets)
                red_start[v, sl] = len(red_list)
                red_list += sets
    # blue: groups (b, cb, rowvec), in that order; members in colex order
    members_of = {}
    for b in range(most + 1):
        for sub in sorted(combinations(range(cells), b), key=lambda t: t[::-1]):
            rv = tuple(sum(1 for s in sub if s // n == i) for i in range(n))
            members_of.setdefault((b, sum(s % n for s in sub), rowvecs[rv]), []).append(sub)
    group_keys = sorted(members_of)
    group_id = {key: g for g, key in enumerate(group_keys)}
    members, gstart, grv = [], [], []
    place = {}
    for key in group_keys:
        gstart.append(len(members))
        grv.append(key[2])
        for j, sub in enumerate(members_of[key]):
            place[sub] = j
            members.append(sum(1 << s for s in sub))
    gstart.append(len(members))
    largest = max(len(v) for v in members_of.values())
    assert largest < 1 << 10 and nrv < 1 << 7 and S <= 1 << 5 and len(group_keys) < 1 << 31
    size_start, info = [], []
    for b in range(most + 1):
        size_start.append(len(info) // 2)
        for sub in sorted(combinations(range(cells), b), key=lambda t: t[::-1]):
            cb = sum(s % n for s in sub)
            rv = rowvecs[tuple(sum(1 for s in sub if s // n == i) for i in range(n))]
            info += [place[sub] | rv << 10 | cb << 17, group_id[b, cb, rv]]
    # group offsets per (r, rr) slot, within each class (b, cb)
    goff = np.zeros((len(group_keys), nslots), dtype=np.int64)
    class_groups = {}
    for g, (b, cb, rv) in enumerate(group_keys):
        class_groups.setdefault((b, cb), []).append(g)
    for (b, cb), gs in class_groups.items():
        at = np.zeros(nslots, dtype=np.int64)
        for g in gs:
            goff[g] = at
            at = at + len(members_of[group_keys[g]]) * red_count[grv[g]]
    ntiers = n * n * S * S
    rec = np.zeros((ntiers, REC), dtype=np.int64)
    toff = np.zeros(ntiers, dtype=np.int64)
    offset, sizes, group_guide = 0, {}, []
    for tid in range(ntiers):
        b, r, cb, rr = tier_of_id(n, tid)
        if b > most or r > most or rr > most * r or (b, cb) not in class_groups:
            continue
        gs = class_groups[b, cb]
        sl = slot_start[r] + rr
        half = sum(len(members_of[group_keys[g]]) * int(red_count[grv[g], sl]) for g in gs)
        if half == 0:
            continue
        sizes[b, r, cb, rr] = 2 * half
        # the guide: a bucket of 2^shift indices -> the last group starting at or before the bucket's start
        shift = max(0, (half // len(gs)).bit_length() - 1)
        col = goff[gs[0]:gs[-1] + 1, sl]
        rec[tid] = (half, gs[0], gs[-1] + 1, sl, len(group_guide), shift)
        group_guide += (gs[0] + np.searchsorted(col, np.arange(0, half, 1 << shift), side="right") - 1).tolist()
        toff[tid] = offset
        offset += 2 * half
    low_bits = min(LOW, cells)
    high = 1 << (cells - low_bits)
    lowtab = [_colex(x, 0, 0) for x in range(1 << low_bits)]
    hightab = [_colex(x, low_bits, below) for below in range(n) for x in range(high)]
    rows = [s // n for s in range(cells)]
    # the one-tier view (a global index over all tiers, tiers in id order): for solve_fine.py only
    gtid = [tid for tid in range(ntiers) if rec[tid, 0] > 0]
    gshift = 16
    starts = np.array([toff[tid] for tid in gtid] + [offset])
    gguide = (np.searchsorted(starts, np.arange(0, offset, 1 << gshift), side="right") - 1).tolist()
    sections = [(H_LOWTAB, "colex low", lowtab), (H_HIGHTAB, "colex high", hightab),
                (H_SIZESTART, "sizes", size_start), (H_INFO, "blue info", info), (H_MEMBERS, "group members", members),
                (H_GSTART, "group starts", gstart), (H_GRV, "group rowvec", grv),
                (H_GOFF, "group offsets", goff.ravel()), (H_REDCOUNT, "red counts", red_count.ravel()),
                (H_NTAB, "red rank N", ntab.ravel()), (H_REDSTART, "red list starts", red_start.ravel()),
                (H_REDLIST, "red list (unrank)", red_list), (H_REC, "tier records", rec.ravel()),
                (H_TOFF, "tier offsets", toff), (H_ROW, "rows", rows), (H_SLOTSTART, "slots", slot_start),
                (H_GROUPGUIDE, "group guide (unrank)", group_guide), (H_GTID, "one-tier view: tiers", gtid), (H_GGUIDE, "one-tier view: guide", gguide)]
    head = np.zeros(HEADER, dtype=np.int64)
    head[H_N], head[H_CELLS], head[H_S], head[H_NSLOTS], head[H_HIGH] = n, cells, S, nslots, high
    head[H_TIERS], head[H_TOTAL], head[H_GSHIFT] = ntiers, offset, gshift
    parts, at, bytes_of = [head], HEADER, {}
    for slot, name, data in sections:
        data = np.asarray(data, dtype=np.int64)
        head[slot] = at
        parts.append(data)
        bytes_of[name] = 4 * len(data)
        at += len(data)
    first_col = sum(1 << (row * n) for row in range(n))
    edges = [(1 << n) - 1, ((1 << n) - 1) << (n * (n - 1)), first_col, first_col << (n - 1)]
    assert len(edges) == _EDGES  # the last entries: first and last row, first and last column (kernels.context)
    parts.append(np.array(edges, dtype=np.int64))
    table = np.concatenate(parts)
    assert table.max() < 2 ** 31 and table.min() >= 0
    return table.astype(np.int32), {"bytes": bytes_of, "sizes": sizes, "total": offset, "groups": len(group_keys)}


# -- compiled kernels ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def blue_part(t, blue):
    """What the rank needs of a blue set: (b, cb, rowvec, group, rank in group)."""
    b = popcount(blue)
    low = blue & ((np.int64(1) << LOW) - 1)
    crank = np.int64(t[t[H_LOWTAB] + low]) + t[t[H_HIGHTAB] + popcount(low) * np.int64(t[H_HIGH]) + (blue >> LOW)]
    at = t[H_INFO] + 2 * (t[t[H_SIZESTART] + b] + crank)
    info = np.int64(t[at])
    return b, info >> 17, (info >> 10) & 0x7F, np.int64(t[at + 1]), info & 0x3FF


@njit(cache=True, inline="always")
def rank_with(t, mover, blue, red, b, cb, rv, group, in_group):
    """rank, with the blue set's part (blue_part) known."""
    n, cells, S, nslots = np.int64(t[H_N]), np.int64(t[H_CELLS]), np.int64(t[H_S]), np.int64(t[H_NSLOTS])
    r = popcount(red)
    rel = extract(red, ((np.int64(1) << cells) - 1) & ~blue)
    base = t[H_NTAB] + rv * (n - 1) * cells * S
    row_at = t[H_ROW]
    red_rank = np.int64(0)
    W = np.int64(0)
    k = np.int64(0)
    rest = red
    while rest:
        s = trailing_zeros(rest)
        rest &= rest - 1
        p = trailing_zeros(rel)
        rel &= rel - 1
        W += t[row_at + s]
        red_rank += t[base + (k * cells + p) * S + W]
        k += 1
    tid = ((b * n + r) * S + cb) * S + W
    slot = t[t[H_SLOTSTART] + r] + W
    index = (mover * np.int64(t[t[H_REC] + tid * REC]) + t[t[H_GOFF] + group * nslots + slot]
             + in_group * np.int64(t[t[H_REDCOUNT] + rv * nslots + slot]) + red_rank)
    return tid, index


@njit(cache=True, inline="always")
def rank(t, mover, blue, red):
    """(tier id, index in the tier) of a position."""
    b, cb, rv, group, in_group = blue_part(t, blue)
    return rank_with(t, mover, blue, red, b, cb, rv, group, in_group)


@njit(cache=True, inline="always")
def unrank(t, tid, index):
    """(mover, blue mask, red mask) of index `index` of tier `tid`."""
    cells, nslots = np.int64(t[H_CELLS]), np.int64(t[H_NSLOTS])
    rec = t[H_REC] + tid * REC
    half = np.int64(t[rec])
    mover = 1 if index >= half else 0
    q = index - mover * half
    end, slot = np.int64(t[rec + 2]), np.int64(t[rec + 3])
    offsets = t[H_GOFF] + slot
    g = np.int64(t[t[H_GROUPGUIDE] + t[rec + 4] + (q >> t[rec + 5])])
    while g + 1 < end and t[offsets + (g + 1) * nslots] <= q:  # the last group whose block starts at or before q
        g += 1
    rest = q - t[offsets + g * nslots]
    rv = np.int64(t[t[H_GRV] + g])
    count = np.uint32(t[t[H_REDCOUNT] + rv * nslots + slot])
    in_group = np.int64(np.uint32(rest) // count)
    blue = np.int64(t[t[H_MEMBERS] + t[t[H_GSTART] + g] + in_group])
    rel = np.int64(t[t[H_REDLIST] + t[t[H_REDSTART] + rv * nslots + slot] + rest - in_group * np.int64(count)])
    return mover, blue, deposit(rel, ((np.int64(1) << cells) - 1) & ~blue)


@njit(cache=True, inline="always")
def global_index(t, tid, index):
    return np.int64(t[t[H_TOFF] + tid]) + index


@njit(cache=True, inline="always")
def by_tier(t, tid, index, out_tier, out_index, count):
    """predecessors' `place`: (tier id, index) into out_tier, out_index."""
    out_tier[count], out_index[count] = tid, index


@njit(cache=True, inline="always")
def as_global(t, tid, index, out_tier, out_index, count):
    """predecessors' `place`: the global index (the tiers in id order as one space) into out_index alone."""
    out_index[count] = global_index(t, tid, index)


@njit(cache=True, inline="always")
def _rank_unmove(t, previous, blue, red, new, b, cb, rv, group, in_group):
    """(tier id, index) of an un-move: `new` the previous mover's cars; Red's keep the blue set's part."""
    if previous == 0:
        return rank(t, previous, new, red)
    return rank_with(t, previous, blue, new, b, cb, rv, group, in_group)


@njit(cache=True, inline="always")
def predecessors(t, mover, blue, red, out_tier, out_index, place):
    """Un-moves of (mover, blue, red), each ranked (as explorer.games.dodgem.kernels.predecessors) and
    stored by `place` (`by_tier` or `as_global`; a compiled function, so no branch per un-move). When Red
    moved last, the blue set's part is looked up once for all of them."""
    n = np.int64(t[H_N])
    row_at = t[H_ROW]
    previous = 1 - mover
    occupied = blue | red
    mine = blue if previous == 0 else red
    b, cb, rv, group, in_group = blue_part(t, blue)  # Red's un-moves keep the blue set
    count = 0
    cars = popcount(mine)
    rest = mine
    while rest:
        s = trailing_zeros(rest)
        rest &= rest - 1
        row = np.int64(t[row_at + s])
        col = s - row * n
        for d in range(3):
            if previous == 0:
                dr, dc = (0, 1) if d == 0 else ((1, 0) if d == 1 else (-1, 0))
            else:
                dr, dc = (1, 0) if d == 0 else ((0, -1) if d == 1 else (0, 1))
            r, c = row - dr, col - dc
            if 0 <= r < n and 0 <= c < n:
                origin = r * n + c
                if (occupied >> origin) & 1:
                    continue
                new = (mine & ~(np.int64(1) << s)) | (np.int64(1) << origin)
                tid, index = _rank_unmove(t, previous, blue, red, new, b, cb, rv, group, in_group)
                place(t, tid, index, out_tier, out_index, count)
                count += 1
    if cars < n - 1:
        for k in range(n):
            edge = k * n + n - 1 if previous == 0 else (n - 1) * n + k
            if (occupied >> edge) & 1:
                continue
            new = mine | (np.int64(1) << edge)
            tid, index = _rank_unmove(t, previous, blue, red, new, b, cb, rv, group, in_group)
            place(t, tid, index, out_tier, out_index, count)
            count += 1
    return count


# -- plain Python reference ------------------------------------------------------------------
class Reference:
    """The same ranking by its definition: positions as (mover, blue squares, red squares)."""

    def __init__(self, n: int):
        self.n, self.cells, self.most = n, n * n, n - 1
        self.groups = {}  # (b, cb) -> {rows per row: [blue sets in colex order]}
        for b in range(n):
            for sub in sorted(combinations(range(self.cells), b), key=lambda t: t[::-1]):
                self.groups.setdefault((b, sum(s % n for s in sub)), {}).setdefault(self.per_row(sub), []).append(sub)
        self._starts = {}

    def per_row(self, blue):
        return tuple(sum(1 for s in blue if s // self.n == i) for i in range(self.n))

    def free_rows(self, blue) -> tuple[int, ...]:
        return tuple(s // self.n for s in range(self.cells) if s not in blue)

    @staticmethod
    @lru_cache(maxsize=None)
    def count(rows: tuple[int, ...], k: int, W: int) -> int:
        """k-subsets of `rows` (a tuple of weights) summing to W."""
        if k == 0:
            return 1 if W == 0 else 0
        if len(rows) < k or W < 0:
            return 0
        return Reference.count(rows[:-1], k, W) + Reference.count(rows[:-1], k - 1, W - rows[-1])

    def starts(self, tier):
        """[(group's start, red sets per blue set, its blue sets)] in order, and the tier's half."""
        if tier not in self._starts:
            b, r, cb, rr = tier
            out, at = [], 0
            for per_row in sorted(self.groups.get((b, cb), {})):
                members = self.groups[b, cb][per_row]
                reds = self.count(self.free_rows(members[0]), r, rr)
                out.append((at, reds, members))
                at += reds * len(members)
            self._starts[tier] = (out, at)
        return self._starts[tier]

    def rank(self, mover, blue, red):
        n = self.n
        blue, red = tuple(sorted(blue)), tuple(sorted(red))
        tier = (len(blue), len(red), sum(s % n for s in blue), sum(s // n for s in red))
        free = [s for s in range(self.cells) if s not in blue]
        rows = self.free_rows(blue)
        red_rank, W = 0, 0
        for k, p in enumerate(free.index(s) for s in red):
            W += rows[p]
            red_rank += self.count(rows[:p], k + 1, W)
        groups, half = self.starts(tier)
        for at, reds, members in groups:
            if blue in members:
                return tier, mover * half + at + members.index(blue) * reds + red_rank
        raise AssertionError("blue set in no group")

    def unrank(self, tier, index):
        b, r, cb, rr = tier
        groups, half = self.starts(tier)
        if not 0 <= index < 2 * half:
            raise ValueError(f"index {index} outside tier {tier} of {2 * half}")
        mover, q = divmod(index, half)
        g = bisect_right([at for at, reds, members in groups if reds], q) - 1
        at, reds, members = [x for x in groups if x[1]][g]
        j, q = divmod(q - at, reds)
        blue = members[j]
        rows = self.free_rows(blue)
        free = [s for s in range(self.cells) if s not in blue]
        chosen, W = [], rr
        for k in range(r, 0, -1):  # the largest p with N(p, k, W) <= q: the k-th car
            p = len(rows) - 1
            while self.count(rows[:p], k, W) > q:
                p -= 1
            q -= self.count(rows[:p], k, W)
            chosen.append(free[p])
            W -= rows[p]
        return mover, blue, tuple(sorted(chosen))
