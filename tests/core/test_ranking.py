"""explorer/core/ranking.py: the colex rank numbers the k-subsets 0 .. C(n, k) - 1 and unrank inverts it."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest

from explorer.core.ranking import subset_rank, subset_unrank


@pytest.mark.parametrize("n", range(0, 9))
def test_every_subset_gets_its_own_rank_in_colex_order(n):
    for k in range(n + 1):
        subsets = sorted(combinations(range(n), k), key=lambda s: tuple(reversed(s)))  # colex order
        assert [subset_rank(s) for s in subsets] == list(range(comb(n, k)))
        assert [subset_unrank(r, k) for r in range(comb(n, k))] == subsets


def test_the_rank_does_not_depend_on_the_order_given():
    assert subset_rank((7, 2, 4)) == subset_rank((2, 4, 7)) == comb(2, 1) + comb(4, 2) + comb(7, 3)
