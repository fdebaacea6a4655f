"""The canvas stays readable after expansions (issue 35), without a browser: a node an expansion brings
is placed with its disc and its label clear of every other node's, so that no caption lies over another
node. (tests/ui/test_canvas_readable_browser.py measures the same on the drawn canvas.)"""

from __future__ import annotations

import itertools

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas.layout import node_box
from loaders.mirror import mirror_for
from queries.api import NetworkxBackend


def _boxes(grown, positions):
    size = canvas.BOARD_SIZE if grown.boards else canvas.NODE_SIZE
    return {k: node_box(p["x"], p["y"], str(grown.nodes[k]["data"].get("label", "")).split("\n"), size / 2)
            for k, p in positions.items() if k in grown.nodes}


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("spec, k", [("dodgem(size=3)", 1), ("tictactoe", 1), ("chopsticks:standard", 2)])
@pytest.mark.parametrize("layout", ["layered", "concentric"])
def test_what_three_expansions_bring_is_placed_clear_of_every_node_and_label(spec, k, layout):
    solved = load_or_build(spec)
    backend = Backend("networkx", "the networkx mirror", queries=NetworkxBackend(mirror_for(spec)))
    key = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, backend, key, k, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for(layout, grown, key)
    first = set(grown.nodes)
    expanded = set()
    for _ in range(3):
        centre = sorted(set(grown.nodes) - {key} - expanded)[0]
        expanded.add(centre)
        new = canvas.expand(grown, solved.game, solved, backend, centre, "both", False, key)
        canvas.grow_layout(grown, centre, new)
    boxes = _boxes(grown, grown.layout["positions"])
    assert set(boxes) == set(grown.nodes) and len(boxes) > len(first)
    brought = set(grown.nodes) - first
    crowded = [(a, b) for a, b in itertools.combinations(sorted(boxes), 2)
               if (a in brought or b in brought) and not _apart(boxes[a], boxes[b])]
    assert not crowded, crowded[:5]
