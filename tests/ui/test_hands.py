"""The Chopsticks drawing (explorer/ui/hands.py): its marks do not cover one another.

Checked on every position of a few rule sets, with every move as a link: each tap chip keeps clear
of the hand names ("left", "right") and of the fingers, and each transfer or split chip lies inside
the mover's frame (it used to straddle the frame's edge, and the +n chips covered the names).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from explorer.solved import build
from explorer.ui.boards import board_svg

SVG = "{http://www.w3.org/2000/svg}"


def _boxes(svg: str) -> dict[str, list[tuple[float, float, float, float]]]:
    """(left, top, right, bottom) of the drawing's marks, by kind."""
    root = ET.fromstring(svg)
    found: dict[str, list] = {"tap": [], "chip": [], "name": [], "finger": [], "frame": []}
    for element in root.iter():
        tag = element.tag.removeprefix(SVG)
        a = element.attrib
        if tag == "circle" and a.get("class") == "gg-mark":
            x, y, r = float(a["cx"]), float(a["cy"]), float(a["r"])
            found["tap"].append((x - r, y - r, x + r, y + r))
        elif tag == "rect":
            x, y, w, h = (float(a[k]) for k in ("x", "y", "width", "height"))
            box = (x, y, x + w, y + h)
            if a.get("class") == "gg-mark":
                found["chip"].append(box)
            elif a.get("rx") == "7":
                found["finger"].append(box)
            elif a.get("rx") == "14":
                found["frame"].append(box)
        elif tag == "text" and element.text in ("left", "right"):
            x, y, half = float(a["x"]), float(a["y"]), len(element.text) * 3.5  # 12 px sans-serif
            found["name"].append((x - half, y - 11, x + half, y + 3))
    return found


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("spec", ["chopsticks:standard", "chopsticks:even-split",
                                  "chopsticks(fingers=5,split=transfer,swaps=true,suicide=true)"])
def test_hands_marks_do_not_overlap(spec):
    solved = build(spec)
    game = solved.game
    checked = 0
    for node in range(solved.graph.num_positions):
        if solved.graph.terminal[node] >= 0:
            continue
        position = solved.graph.position(node)
        links = {m.label: f"?pos={game.format(m.position)}" for m in game.moves(position)}
        marks = _boxes(board_svg(game, position, links))
        key = solved.graph.key(node)
        assert len(marks["tap"]) + len(marks["chip"]) == len(links), key
        for tap in marks["tap"]:
            assert not any(_overlap(tap, name) for name in marks["name"]), f"{key}: a tap chip covers a hand name"
            assert not any(_overlap(tap, finger) for finger in marks["finger"]), f"{key}: a tap chip covers a finger"
        (frame,) = marks["frame"]
        for chip in marks["chip"]:
            inside = frame[0] < chip[0] and chip[2] < frame[2] and frame[1] < chip[1] and chip[3] < frame[3]
            assert inside, f"{key}: a transfer chip {chip} is not inside the mover's frame {frame}"
        checked += 1
    assert checked > 10

