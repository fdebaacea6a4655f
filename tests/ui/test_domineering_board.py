"""Domineering's page board names its files and ranks, as every other game's board does (issue 35): files a, b, ...
below the grid and ranks 1, 2, ... left of it, a1 the bottom-left cell, which is where the game's notation puts it
(a Vertical domino "V a1-a2" covers the two lowest cells of the first file)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from explorer.games import parse_spec
from explorer.ui.boards import board_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("spec", ["domineering", "domineering(rows=2,cols=3)", "domineering(rows=4,cols=2)"])
def test_domineering_names_its_files_and_ranks_outside_the_grid(spec):
    game = parse_spec(spec)
    position = game.start()
    links = {m.label: f"?pos={i}" for i, m in enumerate(game.moves(position))}
    root = ET.fromstring(board_svg(game, position, links))
    rows, cols = game.params.rows, game.params.cols
    names = [t for t in root.iter(f"{SVG}text") if t.get("class") == "gg-cell-name"]
    assert sorted(t.text for t in names) == sorted("abcdefgh"[:cols] + "".join(map(str, range(1, rows + 1))))
    cells = [r for r in root.iter(f"{SVG}rect") if r.get("width") == r.get("height") == "46"]
    assert len(cells) == rows * cols
    left = min(float(c.get("x")) for c in cells)
    top = min(float(c.get("y")) for c in cells)
    bottom = max(float(c.get("y")) for c in cells) + 46
    for name in names:
        x, y = float(name.get("x")), float(name.get("y"))
        if name.text.isdigit():  # a rank: left of the grid, in its row counted from the bottom
            assert x < left and top + (rows - int(name.text)) * 46 < y < top + (rows - int(name.text) + 1) * 46
        else:  # a file: below the grid, in its column from the left
            col = "abcdefgh".index(name.text)
            assert y > bottom and left + col * 46 < x < left + (col + 1) * 46
    # the dot that places "V a1-a2" (a Vertical domino on the lowest two cells of file a) sits in file a's
    # column, over rank 2's row: the names and the links agree
    dots = {a.get("data-move"): a.find(f"{SVG}circle") for a in root.iter(f"{SVG}a")}
    if rows >= 2:
        dot = dots["V a1-a2"]
        assert left < float(dot.get("cx")) < left + 46
        assert top + (rows - 2) * 46 < float(dot.get("cy")) < top + (rows - 1) * 46
    # nothing drawn past the picture's bottom: the hint line below the file letters
    height = float(root.get("height"))
    texts = [float(t.get("y")) for t in root.iter(f"{SVG}text")]
    assert max(texts) <= height
    hint = [float(t.get("y")) for t in root.iter(f"{SVG}text") if (t.text or "").startswith("click a dot")]
    assert hint and hint[0] - 11 > max(float(n.get("y")) for n in names if not n.text.isdigit())
