"""Two rule sets side by side: the positions they share whose value differs.

Positions are matched by key (their notation after symmetry reduction), so the
two games must write positions the same way: Chopsticks variants with the same
number of fingers, say. O(V1 + V2) with one dictionary.
"""

from __future__ import annotations

from collections import Counter

from explorer.errors import InvalidParameter
from explorer.solved import SolvedGraph


def diff(first: SolvedGraph, second: SolvedGraph) -> dict:
    """Shared positions, the ones whose value changed, and a summary by (before, after)."""
    if first.game.name != second.game.name:
        raise InvalidParameter(f"diff compares two rule sets of one game, not {first.game.name} with "
                               f"{second.game.name}")
    index = {key: node for node, key in enumerate(second.graph.keys())}
    shared, changed = 0, []
    for node, key in enumerate(first.graph.keys()):
        other = index.get(key)
        if other is None:
            continue
        shared += 1
        before, after = first.value(node), second.value(other)
        if before != after:
            changed.append({"key": key, "before": str(before), "before_remoteness": first.remoteness(node),
                            "after": str(after), "after_remoteness": second.remoteness(other)})
    summary = Counter(f"{row['before']} -> {row['after']}" for row in changed)
    return {"first": first.game.id, "second": second.game.id,
            "positions": [first.graph.num_positions, second.graph.num_positions],
            "shared": shared, "changed": len(changed), "by_change": dict(sorted(summary.items())),
            "start": {"first": str(first.value(0)), "second": str(second.value(0))},
            "positions_changed": sorted(changed, key=lambda row: row["key"])}
