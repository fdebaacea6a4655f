"""The combinatorial number system: the colex rank of a k-subset among all k-subsets, and back.

The one home of subset ranking for the games' perfect rankings in Python (Dodgem's cars,
Teeko's pieces): rank = sum of C(s_i, i + 1) over the sorted elements s_0 < s_1 < ...
(Knuth, TAOCP 7.2.1.3). The compiled kernels keep their own table-driven copies in numba.
"""

from __future__ import annotations

from math import comb


def subset_rank(elements) -> int:
    """Colex rank of a set of distinct non-negative integers among the sets of its size. O(k)."""
    return sum(comb(s, i + 1) for i, s in enumerate(sorted(elements)))


def subset_unrank(rank: int, size: int) -> tuple[int, ...]:
    """The sorted `size`-subset of colex rank `rank`; inverse of subset_rank. O(k * largest element)."""
    result = []
    for i in range(size, 0, -1):
        s = i - 1
        while comb(s + 1, i) <= rank:
            s += 1
        rank -= comb(s, i)
        result.append(s)
    return tuple(reversed(result))
