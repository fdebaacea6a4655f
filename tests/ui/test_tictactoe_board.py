"""The tic-tac-toe drawing (explorer/ui/boards/tictactoe.py): no mark covers a cell's name.

The names (files a-c, ranks 1-3) used to sit in the cells' corners, where an X's arms reached
them; checked here on every position, with its moves as links.
"""

from __future__ import annotations

import re

from explorer.solved import build
from explorer.ui.boards.tictactoe import X_COLOUR, board_svg


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _marks(svg: str) -> list[tuple[float, float, float, float]]:
    """The box of every X (its path with the round caps and the stroke) and O (circle and stroke)."""
    boxes = []
    for d in re.findall(f'<path d="([^"]+)" stroke="{X_COLOUR}"', svg):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
        xs, ys = numbers[0::2], numbers[1::2]
        boxes.append((min(xs) - 3.5, min(ys) - 3.5, max(xs) + 3.5, max(ys) + 3.5))
    for cx, cy, r in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg):
        reach = float(r) + 3.5
        boxes.append((float(cx) - reach, float(cy) - reach, float(cx) + reach, float(cy) + reach))
    return boxes


def _names(svg: str) -> list[tuple[float, float, float, float]]:
    """The box of each cell name (13 px sans-serif, one character, centred on x)."""
    return [(float(x) - 5, float(y) - 11, float(x) + 5, float(y) + 3)
            for x, y in re.findall(r'<text class="gg-cell-name" x="([\d.]+)" y="([\d.]+)"', svg)]


def test_no_mark_covers_a_cell_name():
    solved = build("tictactoe")
    game = solved.game
    for node in range(solved.graph.num_positions):
        position = solved.graph.position(node)
        links = {m.label: "?pos=x" for m in game.moves(position)} if solved.graph.terminal[node] < 0 else {}
        svg = board_svg(position, links)
        names, marks = _names(svg), _marks(svg)
        assert len(names) == 6
        assert len(marks) == sum(1 for c in position if c != ".")
        for mark in marks:
            assert not any(_overlap(mark, name) for name in names), solved.graph.key(node)
