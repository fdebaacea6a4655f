"""A perfect ranking of each of Dodgem's fine tiers (issue 21): a measured prototype, not used by the solver.

The fine tiers (blue cars, red cars, Blue's column sum, Red's row sum; bench/bench_dodgem_tiers.py) let two
workers solve side by side; solving them one by one needs each tier ranked on its own. `ranking.py` is
that ranking (tables of 6.4 MB on 5x5, numba rank and unrank, a plain Python `Reference`); the rest
measures it against today's ranking (explorer.games.dodgem.kernels, one index space per car count).
The project does not adopt it: on 5x5, rank costs 18.1 ns CPU against 4.5, unrank 26.6 against 7.9, a
popped position (unrank + 7.3 un-moves ranked) 270 against 116 (load 2.4-2.7), and the whole solve
through the repository's loop 40.7 / 40.9 s CPU against 26.4 / 25.9 (1.56x; load 3.7-5.2; 2026-11-27).

Designs tried and dropped: a prefix table per blue set (12.4 MB): rank 23.8, unrank 35.9, pop 367 ns, solve 44.0 / 44.8 s;
a binary search of the groups in unrank (6.0 MB): 19.1 / 56.1 / 348 ns, solve 47.8 / 50.8 s; each against the current's 25-27 s.

Each part runs from the repository's root (numba caches where the project's kernels do):

    .venv/bin/python -m bench.dodgem_fine_ranking.prove        # sizes, bijection, round trip, reference; SIZES="3 4", MUTATE=1
    .venv/bin/python -m bench.dodgem_fine_ranking.timing       # rank / unrank / popped position, ns, alternating; --full-check
    .venv/bin/python -m bench.dodgem_fine_ranking.solve        # the whole 5x5 solve both ways (about 8 min); --size 4
    .venv/bin/python -m bench.dodgem_fine_ranking.first_pass   # the solve's first pass alone, both ways

tests/project/test_dodgem_fine_ranking.py proves it on 3x3 (and that a spoiled table fails).
"""
