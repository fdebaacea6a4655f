"""The layered layout's bands set in columns side by side (canvas/layout.py side_by_side; issue 35): the layout says
how many (`ggColumns`, kept by an expansion's layout), and the legend then explains the long moves between columns
(dobutsu:small at k=2 drew half its moves as long lines across the canvas, unexplained); a layout in one column
says nothing of columns."""

from __future__ import annotations

import math

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas.style import legend


def _layered(spec: str, k: int):
    solved = load_or_build(spec)
    focus = solved.graph.key(0)
    backend = Backend("arrays", "the solved arrays")
    grown = canvas.start(solved.game, solved, backend, focus, k, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for("layered", grown, focus)
    return solved, backend, focus, grown


def test_bands_in_columns_are_counted_and_explained():
    solved, backend, focus, grown = _layered("dobutsu:small", 2)
    columns = grown.layout.get("ggColumns")
    assert columns and columns > 1
    places = grown.layout["positions"]
    xs = sorted({round(p["x"]) for p in places.values()})
    assert xs[-1] - xs[0] > 1000   # the columns stand side by side
    far = [e for e in grown.edges.values() if math.dist(*((places[e["data"][end]]["x"], places[e["data"][end]]["y"])
                                                          for end in ("source", "target"))) > 600]
    assert far   # the long moves the legend explains
    said = legend("value", columns=columns)
    assert f"{columns} columns side by side" in said and "across the canvas" in said
    # an expansion's layout keeps the count
    key = next(k for k in reversed(list(grown.nodes)) if k != focus)
    canvas.grow_layout(grown, key, canvas.expand(grown, solved.game, solved, backend, key, "both", False, focus))
    assert grown.layout.get("ggColumns") == columns


def test_one_column_says_nothing_of_columns():
    _, _, _, grown = _layered("tictactoe", 2)
    assert "ggColumns" not in grown.layout
    assert "columns" not in legend("value")


def test_the_focus_column_stands_in_the_middle():
    """Dodgem 3x3 at k=2 set its bands in three columns with the focus's at the right edge: the moves from it ran across
    the whole canvas, and a view round it showed the drawing's edge. The focus's column now stands in the middle (the
    others in their order either side), so the focus is about the drawing's centre across."""
    _, _, focus, grown = _layered("dodgem(size=3)", 2)
    assert grown.layout.get("ggColumns", 1) >= 3
    places = grown.layout["positions"]
    xs = [p["x"] for p in places.values()]
    middle, half = (max(xs) + min(xs)) / 2, (max(xs) - min(xs)) / 2
    assert abs(places[focus]["x"] - middle) < half / 3, (places[focus], min(xs), max(xs))
    # each column is still whole bands, read upwards: within one x range, the higher remoteness above
    band_of = {k: grown.nodes[k]["data"].get("remoteness") for k in places}
    for a in places:
        for b in places:
            if abs(places[a]["x"] - places[b]["x"]) < 1 and band_of[a] is not None and band_of[b] is not None \
                    and band_of[a] < band_of[b]:
                assert places[a]["y"] > places[b]["y"], (a, b)
