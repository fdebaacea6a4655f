"""Edge-mode solves that several tests of one process compare against, each made once per process.

The implicit mode's cross-checks (tests/explorer/test_implicit.py, tests/games/test_connect4.py) compare
the compiled solver with the edge solver over the rules' own moves (`use_arrays=False`: the graph generated
in Python, not by the kernels under test). The same games were built again by each test that needed them:
connect4:small (161,029 positions, built by the Python path in about half a minute) by both files, and
with symmetry by two tests of test_connect4; the Dōbutsu presets twice in test_implicit. Each is now
built on first use and kept for the rest of the process (an xdist worker runs many files).

The solved graphs are shared: a test only reads them (never `keep`s or changes one). Only games the tests
name by a spec are kept; hypothesis' drawn games are built per example as before.
"""

from __future__ import annotations

import functools

from explorer.games import parse_spec
from explorer.solved import SolvedGraph, build


@functools.cache
def plain(spec: str) -> SolvedGraph:
    """Every position reachable from the start, no symmetry, generated position by position by the rules."""
    return build(parse_spec(spec), symmetry=False, use_arrays=False)


@functools.cache
def reduced(spec: str) -> SolvedGraph:
    """The default build: folded by the game's symmetry when it has one (array path where the game offers it)."""
    return build(parse_spec(spec), symmetry=True)

