"""Move values on the board (issue 18, item 7): every move drawn on every game's board is coloured by
its value for the mover, with its value and remoteness in its tooltip, checked against the solver."""

from __future__ import annotations

import re
from html import unescape

import pytest

pytest.importorskip("streamlit")
from explorer.games import games  # noqa: E402
from explorer.render import palette  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui import drawing  # noqa: E402
from explorer.ui import position as ui_position  # noqa: E402
from tests.ui.test_boards import small_spec  # noqa: E402

DRAWN = sorted(name for name, cls in games().items()
               if cls.__module__.startswith("explorer.games.") and cls.offers.board is not None)
LINK = re.compile(r'<a [^>]*data-move="([^"]*)" data-value="([^"]*)" data-remoteness="([^"]*)" '
                  r'class="gg-move gg-v-(\w+)"[^>]*><title>([^<]*)</title>')


def positions_with_moves(solved, count: int = 6) -> list[int]:
    """The start and a few positions spread over the graph that still have moves."""
    graph = solved.graph
    step = max(1, graph.num_positions // count)
    return [n for n in range(0, graph.num_positions, step) if graph.terminal[n] < 0][:count]


def test_every_builtin_game_with_a_drawing_is_covered():
    assert {"chopsticks", "tictactoe", "nim", "dodgem", "domineering", "toads-and-frogs"} <= set(DRAWN)


@pytest.mark.parametrize("name", DRAWN)
def test_every_move_on_the_board_carries_its_value_and_remoteness(name):
    spec = small_spec(name)
    solved = build(spec)
    for node in positions_with_moves(solved):
        position = solved.graph.position(node)
        links = ui_position.board_links(spec, solved, node)
        values = drawing.move_values(solved, position)
        svg = drawing.position_svg(solved.game, position, links, values)
        found = {unescape(label): (value, remoteness, css, title) for label, value, remoteness, css, title
                 in LINK.findall(svg)}
        assert set(found) == set(links), (spec, solved.graph.key(node))
        for label, (value, remoteness, css, title) in found.items():
            child = solved.graph.node_of(next(m.position for m in solved.game.moves(position) if m.label == label))
            expected = solved.value(child).for_previous_player()
            assert value == css == str(expected), (spec, label)
            r = solved.remoteness(child)
            assert remoteness == ("" if r is None else str(r))
            assert drawing.value_words(value, r) in unescape(title)
        assert svg.count("<style>") == 1
        for value in {v for v, *_ in found.values()}:
            assert f".gg-v-{value} .gg-mark{{fill:{palette.FILLS[value]}" in svg


def test_without_values_the_board_is_drawn_as_before():
    solved = build("tictactoe")
    position = solved.graph.position(0)
    links = ui_position.board_links("tictactoe", solved, 0)
    plain = drawing.position_svg(solved.game, position, links)
    assert "gg-v-" not in plain and "<style>" not in plain
    assert drawing.position_svg(solved.game, position, links, {}) == plain


def test_a_plugin_drawing_without_marks_is_outlined_and_titled():
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><a href="?pos=x" data-move="a&gt;b"><rect/></a></svg>'
    out = drawing.colour_moves(svg, {"a>b": ("loss", 4)})
    assert 'class="gg-move gg-v-loss"' in out and "<title>loss in 4 for the mover</title>" in out
    assert f"a.gg-v-loss:not(:has(.gg-mark,.gg-mark-strong,.gg-mark-line)) > *{{stroke:{palette.COLOURS['loss']}" in out
    assert "class=" not in drawing.colour_moves(svg, {"other": ("win", 1)})  # a move not named stays as drawn


def test_a_chopsticks_tap_line_takes_its_move_colour_but_only_the_chip_is_the_link():
    solved = build("chopsticks")
    node = solved.graph.find("A|1-2|1-3")
    position = solved.graph.position(node)
    values = drawing.move_values(solved, position)
    svg = drawing.position_svg(solved.game, position, ui_position.board_links("chopsticks", solved, node), values)
    lines = re.findall(r'<line style="stroke:(#\w+);stroke-opacity:1" data-for-move="([^"]*)"', svg)
    taps = {label: value for label, (value, _) in values.items() if ">" in label and " " not in label}
    assert taps and {unescape(label): colour for colour, label in lines} == {
        label: palette.COLOURS[value] for label, value in taps.items()}
    assert not re.search(r"<a [^>]*>(?:(?!</a>).)*<line", svg, re.S)  # no line inside a link: the chip is the target


def test_a_moves_value_is_told_by_its_line_style_too():
    """Not by colour alone: each value's outline has its own line style, on the board and in the legend."""
    assert len(set(palette.DASHES.values())) == len(palette.VALUES)
    out = drawing.colour_moves('<svg xmlns="http://www.w3.org/2000/svg"><a href="?x" data-move="m"><rect class="gg-mark"/>'
                               '</a></svg>', {"m": ("loss", 2)})
    for value in palette.VALUES:
        dash = palette.DASHES[value]
        for mark in ("gg-mark", "gg-mark-strong", "gg-mark-line"):
            rule = re.search(rf"\.gg-v-{value} \.{mark}\{{([^}}]*)\}}", out)[1]
            assert f"stroke-dasharray:{dash}" in rule, (value, mark)
        assert f'stroke-dasharray="{dash}"' in drawing.move_legend()
    assert "loss dotted" in drawing.move_legend()
    assert "value for the player who makes them" in drawing.move_legend()  # whose value (issue 35)
