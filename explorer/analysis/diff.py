"""Two rule sets side by side: the positions they share whose value differs.

Positions are matched by key (their notation after symmetry reduction), so the
two games must write positions the same way: Chopsticks variants with the same
number of fingers, say. O(V1 + V2) with one dictionary. queries/rule_diff.py
asks Neo4j the same question of two loaded games; `report` shapes both answers.
`only_in_one` counts the positions one rule set alone reaches (O(V1 + V2)), and
`side_by_side` looks one position up in both games (O(moves) after the key lookup),
for the UI's Compare rules tab.
"""

from __future__ import annotations

import heapq
from collections import Counter

from explorer.core.errors import GameGraphError, InvalidParameter
from explorer.solved import SolvedGraph

SAMPLE = 50


def same_game(first_name: str, second_name: str) -> None:
    """InvalidParameter unless both rule sets belong to one game."""
    if first_name != second_name:
        raise InvalidParameter(f"diff compares two rule sets of one game, not {first_name} with {second_name}")


def diff(first: SolvedGraph, second: SolvedGraph) -> dict:
    """Shared positions, the ones whose value changed, and a summary by (before, after)."""
    same_game(first.game.name, second.game.name)
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
    return report(first.game.id, second.game.id, [first.graph.num_positions, second.graph.num_positions], shared,
                  changed, str(first.value(0)), str(second.value(0)))


def report(first: str, second: str, positions: list[int], shared: int, changed: list[dict],
           first_start: str, second_start: str) -> dict:
    """The diff as `gamegraph diff --format json` prints it, whichever backend found `changed`."""
    summary = Counter(f"{row['before']} -> {row['after']}" for row in changed)
    return {"first": first, "second": second, "positions": positions,
            "shared": shared, "changed": len(changed), "by_change": dict(sorted(summary.items())),
            "start": {"first": first_start, "second": second_start},
            "positions_changed": sorted(changed, key=lambda row: row["key"])}


def only_in_one(first: SolvedGraph, second: SolvedGraph) -> dict:
    """How many positions each rule set alone reaches, and the first SAMPLE of each by key."""
    same_game(first.game.name, second.game.name)
    keys = [set(first.graph.keys()), set(second.graph.keys())]
    alone = [keys[0] - keys[1], keys[1] - keys[0]]
    return {"only_first": len(alone[0]), "only_second": len(alone[1]),
            "only_first_sample": heapq.nsmallest(SAMPLE, alone[0]),
            "only_second_sample": heapq.nsmallest(SAMPLE, alone[1])}


def position_detail(solved: SolvedGraph, key: str) -> dict | None:
    """One position of one rule set: its value, remoteness and best moves; None when the game never
    reaches it. O(moves) after the key lookup."""
    try:
        node = solved.graph.find(key)
    except GameGraphError:
        return None
    moves = solved.moves(node)
    return {"key": solved.graph.key(node), "node": node, "to_move": int(solved.graph.to_move[node]),
            "value": str(solved.value(node)), "remoteness": solved.remoteness(node),
            "best": [m for m in moves if m["optimal"]], "moves": moves}


def side_by_side(first: SolvedGraph, second: SolvedGraph, key: str) -> dict:
    """`key` under both rule sets, with what differs: the value, the remoteness and the best moves
    (a best move of one set that is not best in the other, by label and position reached)."""
    same_game(first.game.name, second.game.name)
    here, there = position_detail(first, key), position_detail(second, key)
    if here is None and there is None:
        raise InvalidParameter(f"position {key!r} is in neither {first.game.display_name} nor "
                               f"{second.game.display_name}")
    best = [{(m["label"], m["to"]) for m in side["best"]} if side else set() for side in (here, there)]
    return {"key": key, "first": here, "second": there,
            "value_differs": bool(here and there and here["value"] != there["value"]),
            "remoteness_differs": bool(here and there and here["remoteness"] != there["remoteness"]),
            "best_only_first": sorted(best[0] - best[1]), "best_only_second": sorted(best[1] - best[0])}
