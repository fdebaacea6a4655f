"""The page's answers straight from the SolvedGraph arrays, and the shapes of its graph answers.

The quick lists (longest wins and losses, positions on cycles, a random
position) and the value counts of a game with no mirror are numpy over the
solved arrays. Neighbourhoods, lines and cycles are not answered here: they
are the query library's (explorer.ui.data asks it, over the solved arrays for a
game with no mirror); `Neighbourhood` and `Cycle` are the shapes the page draws
them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from explorer.solved import SolvedGraph
from explorer.core.values import Value


@dataclass
class Neighbourhood:
    """Positions near a centre (key -> facts: distance, value, remoteness, to_move, terminal, on_cycle)
    and the moves among them as (from key, to key, label, optimal)."""

    centre: str
    positions: dict[str, dict[str, Any]]
    edges: list[tuple[str, str, str, bool]] = field(default_factory=list)


@dataclass
class Cycle:
    """A closed walk: keys[0] == keys[-1], labels[i] is the move from keys[i] to keys[i + 1]."""

    keys: list[str]
    labels: list[str]

    @property
    def length(self) -> int:
        return len(self.labels)


def longest(solved: SolvedGraph, value: Value, count: int = 25) -> list[int]:
    """Positions of a value with the greatest remoteness (longest forced wins or losses)."""
    nodes = np.flatnonzero(solved.solution.value == int(value))
    order = np.argsort(-solved.solution.remoteness[nodes], kind="stable")
    return nodes[order][:count].tolist()


def max_remoteness(solved: SolvedGraph, value: Value) -> int | None:
    """The greatest remoteness among positions of a value (the longest forced win, say), None when there are none: O(V)."""
    remoteness = solved.solution.remoteness[solved.solution.value == int(value)]
    return int(remoteness.max()) if len(remoteness) else None


def on_cycles(solved: SolvedGraph, count: int = 50) -> list[int]:
    return np.flatnonzero(solved.on_cycle)[:count].tolist()


def random_node(solved: SolvedGraph, rng: np.random.Generator | None = None) -> int:
    rng = rng or np.random.default_rng()
    return int(rng.integers(solved.graph.num_positions))


def remoteness_table(solved: SolvedGraph) -> dict[str, dict[int, int]]:
    """remoteness -> count, per value (draws have none): the histogram's data."""
    table: dict[str, dict[int, int]] = {}
    values, remoteness = solved.solution.value, solved.solution.remoteness
    for v in (Value.WIN, Value.LOSS, Value.TIE):
        r = remoteness[(values == int(v)) & (remoteness >= 0)]
        counts = np.bincount(r) if len(r) else np.array([], dtype=int)
        table[str(v)] = {int(i): int(c) for i, c in enumerate(counts) if c}
    return table
