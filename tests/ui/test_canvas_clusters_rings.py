"""The grouped canvas's concentric layout (canvas/clusters.py, _rings; issue 35) is as tight as its boxes allow: on
tic-tac-toe at k=4, Chopsticks at k=4 and dobutsu:small at k=3 it spans no more than 1.2 times what the grouped
layered layout spans (it spread tic-tac-toe's 11 clusters over 2,408 px against 545, and the view zoomed out past
reading), its rings still go out by distance from the focus, and no node's box meets another's."""

from __future__ import annotations

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas import clusters
from explorer.ui.canvas.layout import _hops
from tests.ui.test_canvas_clusters import _no_box_overlaps


def _span(positions) -> float:
    xs, ys = [p["x"] for p in positions.values()], [p["y"] for p in positions.values()]
    return max(max(xs) - min(xs), max(ys) - min(ys))


@pytest.mark.parametrize("spec, k", [("tictactoe", 4), ("chopsticks:standard", 4), ("dobutsu:small", 3)])
def test_the_grouped_concentric_layout_is_as_tight_as_the_layered_one(spec, k):
    solved = load_or_build(spec)
    focus = solved.graph.key(0)
    grown = canvas.start(solved.game, solved, Backend("arrays", "the solved arrays"), focus, k, "both", False,
                         ("s",), 0)
    view, rings = clusters.view_layout(grown, "value", [], focus, "concentric")
    _, layered = clusters.view_layout(grown, "value", [], focus, "layered")
    assert _span(rings["positions"]) <= 1.2 * _span(layered["positions"]), (_span(rings["positions"]),
                                                                            _span(layered["positions"]))
    _no_box_overlaps(view, rings["positions"])
    hops = _hops(view.nodes, view.edges, focus)
    radius = {i: (p["x"] ** 2 + p["y"] ** 2) ** 0.5 for i, p in rings["positions"].items()}
    assert radius[focus] == 0
    for a in view.nodes:   # a ring farther out in moves is farther out on the canvas
        for b in view.nodes:
            if hops.get(a, 99) < hops.get(b, 99):
                assert radius[a] < radius[b], (a, b)
