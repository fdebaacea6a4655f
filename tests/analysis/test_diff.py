"""Rule-set diffs (explorer/analysis/diff.py): the positions only one rule set reaches, and one position side
by side, each checked against the two solvers directly."""

from __future__ import annotations

import pytest

from explorer.analysis.diff import diff, only_in_one, side_by_side
from explorer.core.errors import GameGraphError, InvalidParameter
from explorer.solved import build


@pytest.mark.parametrize("one,other", [("chopsticks", "chopsticks(fingers=4)"), ("chopsticks(fingers=4)", "chopsticks"),
                                       ("chopsticks", "chopsticks:rollover")])
def test_diff_counts_the_positions_only_one_rule_set_reaches(one, other):
    first, second = build(one), build(other)
    keys = [{g.graph.key(n) for n in range(g.graph.num_positions)} for g in (first, second)]
    report = only_in_one(first, second)
    assert diff(first, second)["shared"] == len(keys[0] & keys[1])
    assert report["only_first"] == len(keys[0] - keys[1]) and report["only_second"] == len(keys[1] - keys[0])
    assert report["only_first"] + report["only_second"] > 0
    assert report["only_first_sample"] == sorted(keys[0] - keys[1])[:50]
    assert report["only_second_sample"] == sorted(keys[1] - keys[0])[:50]


@pytest.mark.parametrize("spec", ["chopsticks:rollover", "chopsticks:attack-only", "chopsticks(fingers=4)"])
def test_side_by_side_matches_each_solver(spec):
    first, second = build("chopsticks"), build(spec)
    report = {**diff(first, second), **only_in_one(first, second)}
    keys = [r["key"] for r in report["positions_changed"][:20]] + report["only_first_sample"][:3] + \
        report["only_second_sample"][:3]
    assert keys
    for key in keys:
        detail = side_by_side(first, second, key)
        for solved, side in ((first, detail["first"]), (second, detail["second"])):
            try:
                node = solved.graph.find(key)
            except GameGraphError:
                assert side is None
                continue
            assert side["value"] == str(solved.value(node)) and side["remoteness"] == solved.remoteness(node)
            optimal = {(solved.graph.label(e), solved.graph.key(int(solved.graph.succ_indices[e])))
                       for e in solved.graph.edge_range(node) if solved.solution.optimal[e]}
            assert {(m["label"], m["to"]) for m in side["best"]} == optimal
        if detail["first"] and detail["second"]:
            assert detail["value_differs"] == (detail["first"]["value"] != detail["second"]["value"])
            best = [{(m["label"], m["to"]) for m in detail[s]["best"]} for s in ("first", "second")]
            assert set(detail["best_only_first"]) == best[0] - best[1]
            assert set(detail["best_only_second"]) == best[1] - best[0]
        else:
            assert not detail["value_differs"]
    changed = report["positions_changed"]
    if changed:
        assert side_by_side(first, second, changed[0]["key"])["value_differs"]
    with pytest.raises(InvalidParameter, match="neither"):
        side_by_side(first, second, "A|9-9|9-9")
    with pytest.raises(InvalidParameter, match="one game"):
        side_by_side(first, build("tictactoe"), "A|1-1|1-1")
