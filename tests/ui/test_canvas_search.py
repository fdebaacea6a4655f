"""The canvas's search (issue 35, explorer/ui/canvas/search.py): a position typed in the game's notation is
marked, and added with its path from the page's position when it is not drawn; a filter marks the drawn
positions it matches, checked against each one's own record; bad text is one line, refused from its size."""

from __future__ import annotations

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas import search
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend


@pytest.fixture(scope="module")
def tictactoe():
    solved = load_or_build("tictactoe")
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for("tictactoe")))
    return solved, backend


def _canvas(solved, backend, k=1):
    start = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, start, k, "both", False, (), 0)
    grown.layout = canvas.layout_for("layered", grown, start, animate=False)
    return grown, start


def test_a_position_not_drawn_is_added_with_its_path_from_here(tictactoe):
    solved, backend = tictactoe
    grown, start = _canvas(solved, backend)
    target = "XO./.X./..O"  # four moves from the start: not on a k=1 canvas
    key = solved.graph.key(solved.graph.find(target))
    assert key not in grown.nodes
    found, note, added = search.find(grown, solved.game, solved, backend, target, start)
    assert found == [key] and added and target in note  # named as drawn, as typed
    # the path is drawn: every step's position and the move between consecutive ones, from the start
    steps = [k for k, _ in canvas.elements.data.path(backend, solved, start, key)]
    assert steps[0] == start and steps[-1] == key
    sources = {(e["data"]["source"], e["data"]["target"]) for e in grown.edges.values()}
    for a, b in zip(steps, steps[1:]):
        assert a in grown.nodes and b in grown.nodes and (a, b) in sources
    assert all(k in grown.layout["positions"] for k in steps)  # placed, as an expansion's are
    search.mark(grown, found, added)
    assert [k for k, n in grown.nodes.items() if n["data"].get("_found") == 1] == [key]
    assert grown.layout["ggFind"] == [key]
    # found again: already drawn, nothing added, and the old mark is cleared by a new search
    again, _, added_again = search.find(grown, solved.game, solved, backend, target, start)
    assert again == [key] and not added_again


def test_a_filter_marks_the_drawn_positions_that_match(tictactoe):
    solved, backend = tictactoe
    grown, start = _canvas(solved, backend, k=2)
    found, note, added = search.find(grown, solved.game, solved, backend, "value=win remoteness<=7", start)
    assert not added and found
    expected = [k for k in grown.nodes
                if (r := solved.record(solved.graph.find(k)))["value"] == "win" and r["remoteness"] <= 7]
    assert sorted(found) == sorted(expected)
    assert set(found) < set(grown.nodes)  # a filter that chose, not everything
    search.mark(grown, found, added)
    search.mark(grown, [start], False)   # a later search: only its own marks stay
    assert [k for k, n in grown.nodes.items() if n["data"].get("_found") == 1] == [start]
    assert "ggExpand" not in grown.layout  # nothing to place: the browser moves only the view


@pytest.mark.parametrize("text, says", [
    ("value=winning", "value is one of"),
    ("remoteness=abc", "whole number"),
    ("remoteness<99999999999999999999", "remoteness 99999999999999999999 is too large: at most 999,999"),
    ("colour=red", "is not a filter term"),
    ("<script>", "is not a position of"),
    ("X" * 100_000, "is refused"),
])
def test_bad_text_is_one_line(tictactoe, text, says):
    solved, backend = tictactoe
    grown, start = _canvas(solved, backend)
    before = (dict(grown.nodes), dict(grown.edges))
    with pytest.raises(search.SearchError) as error:
        search.find(grown, solved.game, solved, backend, text, start)
    assert says in str(error.value) and "\n" not in str(error.value) and len(str(error.value)) < 600
    assert (grown.nodes, grown.edges) == before
