"""The line style of a small move mark (an arrowhead, a dot: ``gg-mark-strong``) must show at the
board's real size. Its outline lies half on the value's strong fill and half on the board around
it, so it must stand out from both (WCAG's 3:1 for graphics) and be wide enough to carry the dots:
the white 1.5 px outline it had vanished on the white and cream boards."""

from __future__ import annotations

import re

import pytest

from explorer.render import palette
from explorer.solved import build
from explorer.ui import drawing

NON_TEXT_CONTRAST = 3.0  # WCAG 2.1, 1.4.11: graphical objects


def strong_rules(svg: str) -> dict[str, dict[str, str]]:
    """{value: the declarations of `.gg-v-<value> .gg-mark-strong`} in a coloured drawing's style."""
    style = re.search(r"<style>(.*?)</style>", svg, re.S).group(1)
    out = {}
    for value, body in re.findall(r"\.gg-v-(\w+) \.gg-mark-strong\{([^}]*)\}", style):
        out[value] = dict(part.split(":", 1) for part in body.split(";") if part)
    return out


@pytest.mark.parametrize("spec", ["dodgem", "teeko:small", "dobutsu:lions", "domineering"])
def test_a_small_marks_outline_keeps_its_value_colour_and_line_style_and_shows_on_fill_and_board(spec, tmp_path,
                                                                                                   monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path))
    solved = build(spec)
    game = solved.game
    position = game.start()
    if spec.startswith("teeko"):  # the arrows come in the movement phase: drop until a step is legal
        while not any("-" in move.label for move in game.moves(position)):
            position = game.moves(position)[0].position
    links = {move.label: "?game=x&pos=y" for move in game.moves(position)}
    svg = drawing.position_svg(game, position, links, drawing.move_values(solved, position))
    assert 'class="gg-mark-strong"' in svg, f"{spec}: no small marks to check"
    board = re.search(r'<rect x="0" y="0" [^>]*fill="(#[0-9a-fA-F]{6})"', svg).group(1)  # the board's ground
    rules = strong_rules(svg)
    assert set(rules) == set(palette.VALUES)
    for value, rule in rules.items():
        assert rule["fill"] == palette.COLOURS[value]                      # the colour is kept
        assert rule["stroke-dasharray"] == palette.DASHES[value]           # and so is the line style
        assert float(rule["stroke-width"]) >= 2.5, rule
        outline = rule["stroke"]
        assert palette.contrast(outline, board) >= NON_TEXT_CONTRAST, (spec, value, outline, board)
        assert palette.contrast(outline, palette.COLOURS[value]) >= NON_TEXT_CONTRAST, (spec, value, outline)
