"""The layered layout's bands set in columns side by side (canvas/layout.py side_by_side; issue 35): the layout says
how many (`ggColumns`, kept by an expansion's layout), and the legend then explains the long moves between columns
(dobutsu:small at k=2 drew half its moves as long lines across the canvas, unexplained); a layout in one column
says nothing of columns."""

from __future__ import annotations

import math

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas.layout import CANVAS_WIDTH, side_by_side
from explorer.ui.canvas.marks import HEIGHT, READABLE_ZOOM
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
    _, _, focus, grown = _layered("dodgem(size=3)", 3)   # (at k=2 it is now set in two: the next test)
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


def _bands(count: int, pitch: float = 130.0, line: float = 76.5):
    """`count` bands of one node each, one above the other `pitch` apart (a line `line` high), as layered_positions
    hands them to side_by_side: the keys' places (y upwards) and each band's keys and extent (y downwards)."""
    positions = {f"n{i}": {"x": 0.0, "y": -i * pitch} for i in range(count)}
    spans = [([f"n{i}"], i * pitch, i * pitch + line) for i in range(count)]
    return positions, spans


def _fit_zoom(placed, step_x: float, spacing: float) -> float:
    """The zoom the canvas fits `placed` at (as side_by_side measures a drawing)."""
    xs, ys = [p["x"] for p in placed.values()], [p["y"] for p in placed.values()]
    return min(CANVAS_WIDTH / (max(xs) - min(xs) + step_x), HEIGHT / (max(ys) - min(ys) + 76.5 + spacing))


def test_a_drawing_that_reads_in_one_column_stays_one():
    """Issue 35: a stranger found the bands side by side hard to read (which band is which remoteness, the moves
    crossing between columns). A drawing the canvas fits at READABLE_ZOOM in one column stays one column, though two
    would fit it larger (they did: seven bands were set in two columns to be fitted at full size)."""
    positions, spans = _bands(7)
    assert READABLE_ZOOM <= _fit_zoom(positions, 90, 90) < 1   # (one column: read at the readable zoom, not at 1)
    columns: list[int] = []
    placed = side_by_side(positions, spans, 90, 90, columns)
    assert columns == [1] and placed == positions


def test_a_drawing_too_tall_to_read_takes_the_fewest_columns_that_read():
    """Beyond READABLE_ZOOM in one column, the bands go in columns, the fewest that the canvas fits at READABLE_ZOOM
    (not more, for a larger drawing): each column is still whole bands, and every band still has its own line."""
    positions, spans = _bands(20)
    assert _fit_zoom(positions, 90, 90) < READABLE_ZOOM
    columns: list[int] = []
    placed = side_by_side(positions, spans, 90, 90, columns)
    count = columns[0]
    assert count == len({p["x"] for p in placed.values()}) > 1
    assert _fit_zoom(placed, 90, 90) >= READABLE_ZOOM
    fewer = _bands(-(-20 // (count - 1)))[0]   # the tallest column of one column fewer
    assert _fit_zoom(fewer, 90, 90) < READABLE_ZOOM
    assert len({p["y"] for p in placed.values()}) == max(-(-20 // count), 20 // count)


def test_dodgem_at_k2_takes_fewer_columns():
    """Dodgem 3x3 at k=2 (13 positions) was set in three columns; two read at READABLE_ZOOM, and every band's name
    still stands beside its own nodes."""
    import json

    _, _, focus, grown = _layered("dodgem(size=3)", 2)
    assert grown.layout.get("ggColumns", 1) == 2
    places = grown.layout["positions"]
    rows = json.loads(grown.nodes[focus]["data"]["_rows"])
    for row in rows:
        nodes = [k for k in places if abs(places[k]["y"] - row["y"]) < 60 and places[k]["x"] > row["x"]]
        assert nodes, row
