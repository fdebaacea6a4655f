"""Draw kinds, the drawing core and rule-set diffs, each checked against an independent computation."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from explorer.analysis.diff import diff
from explorer.analysis.draws import NOT_A_DRAW, SAFE, SHARP, analyse, position_report
from explorer.cli import main
from explorer.core.errors import InvalidParameter
from explorer.games import parse_spec
from explorer.games.chopsticks.rules import Chopsticks
from explorer.solved import build
from explorer.core.values import Value

LOOPY = [f"chopsticks:{p}" for p in sorted(Chopsticks.presets)] + ["chopsticks(fingers=4,overflow=rollover)"]


@pytest.mark.parametrize("spec", LOOPY)
def test_draw_kinds_and_dangerous_moves_follow_the_definition(spec):
    solved = build(spec)
    analysis = analyse(solved)
    graph, value = solved.graph, solved.solution.value
    for node in range(graph.num_positions):
        if value[node] != Value.DRAW:
            assert analysis.kind[node] == NOT_A_DRAW
            continue
        children = [int(c) for c in graph.successors(node)]
        results = [Value(int(value[c])).for_previous_player() for c in children]
        assert Value.DRAW in results and not {Value.WIN, Value.TIE} & set(results)  # draws keep, never improve
        losses = [c for c, r in zip(children, results) if r == Value.LOSS]
        assert analysis.kind[node] == (SHARP if losses else SAFE)
        assert analysis.losing_moves[node] == len(losses)
        if losses:
            assert analysis.fastest_loss[node] == min(solved.solution.remoteness[c] for c in losses) + 1
        report = position_report(solved, analysis, node)
        assert len(report["dangerous_moves"]) == len(losses)


@pytest.mark.parametrize("spec", LOOPY)
def test_drawing_core_is_the_attracting_components_of_the_draw_subgraph(spec):
    """networkx's attracting components (SCCs no edge leaves) of the draw-only graph, computed apart."""
    solved = build(spec)
    analysis = analyse(solved)
    graph, value = solved.graph, solved.solution.value
    draws = [n for n in range(graph.num_positions) if value[n] == Value.DRAW]
    G = nx.DiGraph()
    G.add_nodes_from(draws)
    G.add_edges_from((u, int(v)) for u in draws for v in graph.successors(u) if value[v] == Value.DRAW)
    expected = set().union(*nx.attracting_components(G)) if draws else set()
    assert {int(n) for n in analysis.closed.nonzero()[0]} == expected
    for component in nx.attracting_components(G):  # each closed region is one region id
        assert len({int(analysis.region[n]) for n in component}) == 1


def test_diff_against_independent_lookup():
    first, second = build("chopsticks"), build("chopsticks:rollover")
    report = diff(first, second)
    values = {second.graph.key(n): str(second.value(n)) for n in range(second.graph.num_positions)}
    expected = {first.graph.key(n) for n in range(first.graph.num_positions)
                if first.graph.key(n) in values and values[first.graph.key(n)] != str(first.value(n))}
    assert {row["key"] for row in report["positions_changed"]} == expected
    assert sum(report["by_change"].values()) == report["changed"] == len(expected) > 0
    back = diff(second, first)
    assert {r["key"] for r in back["positions_changed"]} == expected and back["shared"] == report["shared"]
    assert diff(first, first)["changed"] == 0


def test_diff_refuses_different_games():
    with pytest.raises(InvalidParameter, match="one game"):
        diff(build("chopsticks"), build("tictactoe"))


def test_cli(capsys):
    assert main(["draws", "chopsticks", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["draws"] == report["safe"] + report["sharp"] > 0
    assert main(["diff", "chopsticks", "chopsticks:rollover", "--limit", "2"]) == 0
    assert "value changed at" in capsys.readouterr().out
    assert main(["diff", "chopsticks", "tictactoe"]) == 2
    assert main(["draws", "chopsticks", "A|9-9|9-9"]) == 2
