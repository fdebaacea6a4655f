"""The canvas's one colour language (issue 35), without a browser: a move is coloured by its value for
the player who makes it, as on the board (a winning move green); a node shows its value from one stated
side, by default the player to move at the page's position, so that a best line reads in the winner's
colour from end to end; the legend says whose side.

Every expectation is read off the solved graph (values, who moves, the solver's best moves), not
written here."""

from __future__ import annotations

import pytest

from explorer.core.values import Value
from explorer.games.base import player_name
from explorer.render import palette
from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend

SPEC = "dodgem(size=3)"  # its start is a win for the player to move (a best line of 20 moves)


@pytest.fixture(scope="module")
def dodgem():
    solved = load_or_build(SPEC)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(SPEC)))
    return solved, backend


def _mover_value(solved, target: str) -> str:
    return str(solved.value(solved.graph.find(target)).for_previous_player())


def _best_line(grown, focus: str) -> list[dict]:
    """The moves of a best line from `focus` on the canvas: each position's first best move, in key order."""
    line, here, seen = [], focus, {focus}
    while True:
        best = sorted((e["data"] for e in grown.edges.values() if e["data"]["source"] == here and e["data"]["optimal"]),
                      key=lambda d: d["id"])
        if not best or best[0]["target"] in seen:
            return line
        line.append(best[0])
        here = best[0]["target"]
        seen.add(here)


def test_every_move_is_coloured_by_its_value_for_its_mover(dodgem):
    solved, backend = dodgem
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, 3, "both", False, ("s",), 0)
    expanded = sorted(set(grown.nodes) - {key})[0]
    canvas.expand(grown, solved.game, solved, backend, expanded, "both", False, key)
    assert grown.edges
    values = set()
    for edge in grown.edges.values():
        data = edge["data"]
        mover = _mover_value(solved, data["target"])
        assert data["_value"] == mover and data["_line"] == palette.COLOURS[mover], data
        values.add(mover)
    assert {"win", "loss"} <= values  # both kinds were met
    optimal = [e["data"] for e in grown.edges.values() if e["data"]["optimal"]]
    # a best move is never worse for its mover than another move from the same position
    for data in optimal:
        others = [e["data"]["_value"] for e in grown.edges.values() if e["data"]["source"] == data["source"]]
        assert Value.parse(data["_value"]) == max(Value.parse(v) for v in others)


def test_a_best_line_reads_in_the_winners_colour_from_end_to_end(dodgem):
    solved, backend = dodgem
    key = solved.graph.key(0)
    focus = solved.graph.find(key)
    winner = int(solved.graph.to_move[focus])
    assert str(solved.value(focus)) == "win"
    grown = canvas.start(solved.game, solved, backend, key, 4, "out", False, ("s",), 0)
    assert grown.player == winner
    line = _best_line(grown, key)
    assert len(line) >= 4
    nodes = [key] + [d["target"] for d in line]
    for node in nodes:  # seen from the winner's side every position on the line is a win
        data = grown.nodes[node]["data"]
        assert data["_pfill_value"] == palette.FILLS["win"] and data["_pborder"] == palette.COLOURS["win"], node
    own = {grown.nodes[n]["data"]["_fill_value"] for n in nodes}
    assert own == {palette.FILLS["win"], palette.FILLS["loss"]}  # each mover's own side alternates
    for data in line:  # the winner's moves win, the loser's moves lose: each in its mover's value
        mover = int(solved.graph.to_move[solved.graph.find(data["source"])])
        assert data["_line"] == palette.COLOURS["win" if mover == winner else "loss"], data


def test_the_style_sheet_and_the_legend_say_whose_side(dodgem):
    solved, _ = dodgem
    by_focus = {r.selector: r.style for r in canvas.style_rules("value", True, False, perspective="focus")}
    by_each = {r.selector: r.style for r in canvas.style_rules("value", True, False, perspective="each")}
    assert by_focus["node"]["background-color"] == "data(_pfill_value)"
    assert by_focus["node"]["border-color"] == "data(_pborder)"
    assert by_each["node"]["background-color"] == "data(_fill_value)"
    assert by_focus["edge[_line]"]["line-color"] == "data(_line)"
    large = {r.selector: r.style for r in canvas.style_rules("remoteness", True, False, True, "focus")}
    assert large["node"]["background-color"] == "data(_pfill_remoteness)" and "edge[_line]" in large
    # colourings that are not values do not depend on the side
    assert {r.selector: r.style for r in canvas.style_rules("draw_level", True, False, perspective="focus")
            }["node"]["background-color"] == "data(_fill_draw_level)"
    name = player_name(solved.game, int(solved.graph.to_move[0]))
    assert f"for **{name}**" in canvas.legend("value", 0, name)
    assert "for the player to move at that node" in canvas.legend("value", 0, None)
    assert "value for the player who makes them" in canvas.legend("value")


def test_no_mark_of_the_canvas_is_taken_for_a_value():
    """The canvas's own marks (what is selected, a move of no known value, the cycle dot) are greys or
    the highlight, far from every value colour: colour on the canvas means a value and nothing else."""
    assert palette.nearest_value(canvas.HIGHLIGHT)[0] >= palette.MIN_DISTANCE
    for mark in (canvas.OPTIMAL_EDGE, canvas.OTHER_EDGE, canvas.FOCUS_RING):  # greys: no hue at all
        assert mark[1:3] == mark[3:5] == mark[5:7], mark
    sheet = [r.style for r in canvas.style_rules("value", True, False, perspective="focus")]
    fixed = {v for style in sheet for k, v in style.items() if "color" in k and not str(v).startswith("data(")}
    assert fixed <= {canvas.OPTIMAL_EDGE, canvas.OTHER_EDGE, canvas.FOCUS_RING, canvas.HIGHLIGHT,  # the search halo
                     "#222222", "#444444", "#ffffff"}, fixed


def test_a_console_move_takes_its_colour_from_the_position_it_reaches():
    graph = {"nodes": [{"id": "n:1", "labels": ["Position"], "properties": {"key": "A", "value": "win"}},
                       {"id": "n:2", "labels": ["Position"], "properties": {"key": "B", "value": "loss"}},
                       {"id": "n:3", "labels": ["Other"], "properties": {}}],
             "relationships": [{"id": "r:1", "type": "MOVE", "start": "n:1", "end": "n:2", "properties": {}},
                               {"id": "r:2", "type": "LINK", "start": "n:2", "end": "n:3", "properties": {}}]}
    edges = {e["data"]["id"]: e["data"] for e in canvas.console_elements(graph, "g")["edges"]}
    assert edges["r:1"]["_line"] == palette.COLOURS[str(Value.parse("loss").for_previous_player())]
    assert "_line" not in edges["r:2"]  # no value known: the neutral grey of the sheet
