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


def _images(board: str) -> set[str]:
    """The eight turns and mirror images of a tic-tac-toe board written in rows ("X../.../...")."""
    grid = [list(row) for row in board.split("/")]
    seen = set()
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1])]  # a quarter turn
        for image in (grid, [row[::-1] for row in grid]):
            seen.add("/".join("".join(row) for row in image))
    return seen


@pytest.mark.parametrize("k", [1, 3])
def test_a_position_typed_in_any_orientation_is_named_as_drawn(tictactoe, k):
    """One spelling per position (issue 35): the line a search answers names the position as the canvas draws it
    (its label and its info panel's `position`), never the stored key when that is a third orientation; typed as
    another turn or mirror image, it says so once. The stranger saw "X../.../..." typed, "X.." drawn and
    ".../.../..X is on the canvas" said."""
    solved, backend = tictactoe
    grown, start = _canvas(solved, backend, k=k)
    checked = mirrored = third = 0
    for key, node in list(grown.nodes.items())[:12]:
        drawn = node["data"].get("position", key)
        assert node["data"]["label"].replace("\n", "/") == drawn  # the label is the board drawn
        for typed in sorted(_images(drawn)):
            found, note, added = search.find(grown, solved.game, solved, backend, typed, start)
            assert found == [key] and not added
            if typed == drawn:
                assert note == f"{drawn} is on the canvas", note
            else:
                assert note == f"{typed} is on the canvas, drawn as its mirror image (or turn) {drawn}", note
                mirrored += 1
            if key not in (typed, drawn):
                assert key not in note, note  # the stored key is no third spelling
                third += 1
            checked += 1
    assert checked > min(len(grown.nodes), 12) and mirrored and third  # (the stranger's case among them)


def test_a_position_added_in_another_orientation_is_named_as_drawn(tictactoe):
    """A position not drawn yet, typed as an orientation its path does not reach: added, named as drawn, the
    typed text named once beside it."""
    solved, backend = tictactoe
    for typed in sorted(_images("XO./.X./..O")):
        grown, start = _canvas(solved, backend)
        found, note, added = search.find(grown, solved.game, solved, backend, typed, start)
        drawn = grown.nodes[found[0]]["data"].get("position", found[0])
        assert added and drawn in _images(typed)
        says = "added with its path from here (4 moves)"
        assert note == (f"{drawn} {says}" if typed == drawn else
                        f"{typed} {says}, drawn as its mirror image (or turn) {drawn}"), note
