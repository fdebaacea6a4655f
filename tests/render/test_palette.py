"""One palette of values (explorer/render/palette.py), used everywhere: Graphviz diagrams (files and
the page), value badges, the strategy chart table, the Play value history and the survey legend."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest

from explorer.games import parse_spec
from explorer.render import dot, palette
from explorer.solved import build
from loaders.mirror import to_networkx
from queries.api import NetworkxBackend, run_query

ROOT = Path(__file__).resolve().parents[2]
VALUES = {"win", "loss", "tie", "draw"}


def rgb(colour: str) -> tuple[int, int, int]:
    assert re.fullmatch(r"#[0-9a-f]{6}", colour), colour
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def test_four_values_with_pairwise_clearly_different_fills_and_colours():
    """Tie and draw were two nearly identical yellows (fills 41 apart in RGB): every pair of fills is
    now at least 60 apart, every pair of strong colours at least 100."""
    assert set(palette.VALUES) == set(palette.FILLS) == set(palette.COLOURS) == VALUES
    for colours, minimum in ((palette.FILLS, 60), (palette.COLOURS, 100)):
        for a, b in itertools.combinations(sorted(VALUES), 2):
            assert math.dist(rgb(colours[a]), rgb(colours[b])) >= minimum, (a, b, colours[a], colours[b])
    for colours in (palette.FILLS, palette.COLOURS):
        r, g, b = rgb(colours["win"])
        assert g > max(r, b)                      # win green
        r, g, b = rgb(colours["loss"])
        assert r > max(g, b)                      # loss red
        r, g, b = rgb(colours["tie"])
        assert r > g > b and r - b > 100          # tie amber
        r, g, b = rgb(colours["draw"])
        assert b > max(r, g)                      # draw blue
    for value in VALUES:  # a fill is the light version: dark text stays readable on it
        assert sum(rgb(palette.FILLS[value])) > sum(rgb(palette.COLOURS[value]))
    assert palette.scale(["tie", "win"]) == {"domain": ["tie", "win"],
                                              "range": [palette.COLOURS["tie"], palette.COLOURS["win"]]}


VALUE_MAP = re.compile(r"""["'](win|loss|tie|draw)["']\s*:\s*["']#[0-9a-fA-F]{3,8}["']""")


def test_no_value_colours_outside_the_palette():
    """The four palettes there were (badges, diagrams, Play history, survey) are gone: a value's colour
    is written in one place."""
    home = ROOT / "explorer" / "render" / "palette.py"
    found = [f"{path.relative_to(ROOT)}: {match.group(0)}" for path in sorted((ROOT / "explorer").rglob("*.py"))
             if path != home for match in VALUE_MAP.finditer(path.read_text())]
    assert found == []


LABEL = re.compile(r'label="[^"]*?\\n(?:game over: )?(win|loss|tie|draw)\b')


def node_colours(text: str) -> list[tuple[str, str, str | None]]:
    """(value, fill, border) of every position node of DOT text (legend nodes left out)."""
    out = []
    for line in text.splitlines():
        label = LABEL.search(line)
        if label and "->" not in line and "legend" not in line:
            fill = re.search(r'fillcolor="([^"]+)"', line).group(1)
            border = re.search(r'\bcolor="([^"]+)"', line)
            out.append((label.group(1), fill, border.group(1) if border else None))
    return out


def test_gamegraph_dot_diagrams_fill_from_the_palette():
    texts = []
    backend = NetworkxBackend(to_networkx(build("chopsticks:magic-fingers")))
    texts.append(dot.to_dot(dot.line_diagram(run_query(backend, "shortest-win", position="A|1-1|1-1"))))
    backend = NetworkxBackend(to_networkx(build("tictactoe")))
    texts.append(dot.to_dot(dot.neighbourhood_diagram(run_query(backend, "neighbourhood", position=".../.../...",
                                                                 k=3, direction="out"))))
    backend = NetworkxBackend(to_networkx(build("chopsticks")))
    texts.append(dot.to_dot(dot.cycle_diagram(run_query(backend, "shortest-cycle", position="A|1-1|1-1"))))
    seen = set()
    for text in texts:
        used = set()
        for value, fill, _ in node_colours(text):
            assert fill == palette.FILLS[value], (value, fill)
            used.add(value)
        legend = next(line for line in text.splitlines() if line.strip().startswith("legend ["))
        for value in VALUES:  # the legend: a swatch of each value the diagram uses, and no other
            swatch = f'<TD BGCOLOR="{palette.FILLS[value]}" BORDER="1">{value}</TD>'
            assert (swatch in legend) == (value in used), value
        seen |= used
    assert seen == VALUES


def hood(spec: str, k: int) -> tuple[str, dict, list]:
    """Positions within k moves forward of the start (key -> value, remoteness, distance) and their moves."""
    solved = build(spec)
    graph = solved.graph
    positions = {graph.key(0): {"value": str(solved.value(0)), "remoteness": solved.remoteness(0), "distance": 0}}
    edges, frontier = [], [0]
    for distance in range(1, k + 1):
        later = []
        for u in frontier:
            for e in graph.edge_range(u):
                v = int(graph.succ_indices[e])
                if graph.key(v) not in positions:
                    positions[graph.key(v)] = {"value": str(solved.value(v)), "remoteness": solved.remoteness(v),
                                               "distance": distance}
                    later.append(v)
                edges.append((graph.key(u), graph.key(v), graph.label(e), bool(solved.solution.optimal[e])))
        frontier = later
    return graph.key(0), positions, edges


def test_the_pages_neighbourhood_diagram_fills_and_borders_from_the_palette():
    seen = set()
    for spec, k in (("tictactoe", 3), ("chopsticks", 2)):
        centre, positions, edges = hood(spec, k)
        text = dot.linked_dot(centre, positions, edges, lambda key: f"?pos={key}")
        colours = node_colours(text)
        assert len(colours) == len(positions)
        for value, fill, border in colours:
            assert fill == palette.FILLS[value]
            assert border in (palette.COLOURS[value], dot.LINKED_CENTRE)
            seen.add(value)
    assert seen == VALUES


def test_badges_and_the_strategy_chart_table_use_the_diagram_colours():
    pytest.importorskip("streamlit")
    from explorer.render.chart import strategy_chart
    from explorer.ui import drawing, overview

    for value in VALUES:  # a badge: the same fill as the value's diagram nodes, its strong colour as border
        badge = drawing.value_badge(value, 3)
        assert f"background:{dot.COLOURS[value]};" in badge and f"border:1px solid {palette.COLOURS[value]};" in badge
    html = overview.chart_table_html(strategy_chart(parse_spec("chopsticks")), None)
    cells = re.findall(r'<td style="background:(#[0-9a-f]{6});" title="(\w+)', html)
    assert cells and all(fill == palette.FILLS[value] for fill, value in cells)
    assert {value for _, value in cells} >= {"win", "loss", "draw"}


# -- the charts on the page (AppTest) ---------------------------------------------------------------
def colour_scales(spec) -> list[dict[str, str]]:
    """value -> colour of every colour scale with a domain in a Vega-Lite spec."""
    found = []
    if isinstance(spec, dict):
        scale = (spec.get("color") or {}).get("scale") if isinstance(spec.get("color"), dict) else None
        if scale and "domain" in scale:
            found.append(dict(zip(scale["domain"], scale["range"])))
        for child in spec.values():
            found += colour_scales(child)
    elif isinstance(spec, list):
        for child in spec:
            found += colour_scales(child)
    return found


def page_charts(at) -> list[dict]:
    """The Vega-Lite specs of the charts on an AppTest page."""
    return [json.loads(element.proto.spec) for element in at.get("vega_lite_chart")]


# -- colour difference and the players' colours (issue 18) ------------------------------------------
# Pairs from Sharma, Wu & Dalal's CIEDE2000 test data (L*a*b* in, ΔE00 out), chosen to exercise the
# hue-angle wrap, the blue-region rotation term and a neutral colour.
SHARMA = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
          ((50.0, -1.0, 2.0), (50.0, 0.0, 0.0), 2.3669),
          ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
          ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
          ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
          ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
          ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082)]


@pytest.mark.parametrize("first, second, expected", SHARMA)
def test_ciede2000_matches_the_published_test_data(first, second, expected):
    assert palette.ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert palette.ciede2000(second, first) == pytest.approx(expected, abs=1e-4)


def test_lab_and_contrast_of_known_colours():
    assert palette.lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert palette.lab("#000000") == pytest.approx((0.0, 0.0, 0.0), abs=0.01)
    assert palette.lab("#ff0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert palette.contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert palette.contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # WCAG's own example
    assert palette.distance("#d62728", "#d62728") == 0
    assert palette.nearest_value("#d62728") == (0.0, "loss")
    assert palette.nearest_value(palette.FILLS["draw"]) == (0.0, "draw fill")


def test_no_player_colour_looks_like_a_value():
    """Every player's piece, outline, letter and tint is at least MIN_DISTANCE (ΔE00) from every value
    colour and fill; a piece with a hue at least 20 (a hue of its own, not a shade of a value);
    a letter on a piece is readable (WCAG 4.5:1); and the old piece colours would fail."""
    for name, player in palette.PLAYERS.items():
        for part, colour in player._asdict().items():
            near, value = palette.nearest_value(colour)
            assert near >= palette.MIN_DISTANCE, (name, part, colour, value, near)
        _, a, b = palette.lab(player.fill)
        if math.hypot(a, b) > 10:  # a piece with a hue: far from the values, not a shade of one
            assert palette.nearest_value(player.fill)[0] >= 20, name
        assert palette.contrast(player.ink, player.fill) >= palette.MIN_CONTRAST, name
    assert palette.nearest_value(palette.NEUTRAL_MARK)[0] >= 20
    for old in ("#c8322b", "#1f5fbf", "#1f77b4", "#2e8b57"):  # Dodgem's red and blue, tic-tac-toe's X, the frogs
        assert palette.nearest_value(old)[0] < palette.MIN_DISTANCE, old


def test_players_that_meet_on_a_board_are_told_apart():
    """The pairs that share a board differ clearly from each other too."""
    pairs = [(palette.FIRST, palette.SECOND), (palette.PLAYERS["black"], palette.PLAYERS["white"])]
    for first, second in pairs:
        assert palette.distance(first.fill, second.fill) >= 20, (first, second)


# -- issue 35: one colour language ------------------------------------------------------------------
def test_no_player_colour_has_a_values_hue():
    """A piece never uses a value's hue (issue 35): the wine cars and pieces and the navy X of before
    were MIN_DISTANCE from every value colour and still read as a loss or a draw; each player colour
    is now a grey or MIN_HUE_GAP degrees of hue from every value colour and fill."""
    for name, player in palette.PLAYERS.items():
        for part, colour in player._asdict().items():
            assert palette.hue_clear(colour), (name, part, colour, palette.hue_gap(colour))
    for old in ("#6b1d2a", "#1b2a5e", "#7a4a22", "#1f4a2e"):  # wine, navy, brown, dark green (issue 18's)
        assert not palette.hue_clear(old), old
    assert palette.hue_clear("#808080") and not palette.hue_clear(palette.COLOURS["loss"])


def test_every_piece_stands_out_on_every_ground():
    """WCAG 2.1's non-text contrast (3:1) between each player's piece (its fill or its rim) and each
    ground a piece stands on; a white piece with a pale rim on a white board would fail."""
    for name, player in palette.PLAYERS.items():
        for ground_name, ground in palette.GROUNDS.items():
            assert palette.piece_contrast(player, ground) >= palette.MIN_PIECE_CONTRAST, (name, ground_name)
    pale = palette.PlayerColour("#fbfbfb", "#dddddd", "#222222", "#f4f4f4")
    assert palette.piece_contrast(pale, palette.WHITE) < palette.MIN_PIECE_CONTRAST


def test_a_move_takes_its_value_for_the_player_who_makes_it():
    assert [palette.move_value(v) for v in ("win", "loss", "tie", "draw")] == ["loss", "win", "tie", "draw"]
    assert palette.move_value("unknown") is None
    assert palette.move_colour("loss", "#000000") == palette.COLOURS["win"]
    assert palette.move_colour("?", "#000000") == "#000000"


def test_diagram_moves_are_coloured_by_their_value_for_the_mover():
    """Graphviz (gamegraph dot and the page's diagram): a move into a lost position is a winning move,
    green; every move's colour is its target's value turned round; the legend says whose value."""
    backend = NetworkxBackend(to_networkx(build("tictactoe")))
    diagram = dot.neighbourhood_diagram(run_query(backend, "neighbourhood", position=".../.../...", k=2,
                                                  direction="out"))
    text = dot.to_dot(diagram)
    ids = {key: f"n{i}" for i, key in enumerate(diagram.nodes)}
    seen = set()
    for source, target, _, _ in diagram.edges:
        line = next(line for line in text.splitlines() if f"{ids[source]} -> {ids[target]} " in line)
        mover = palette.move_value(diagram.nodes[target]["value"])
        assert f'color="{palette.COLOURS[mover]}"' in line, line
        seen.add(mover)
    assert {"tie", "loss"} <= seen
    assert "its value for the player who makes it" in text and "value for the player to move there" in text
    centre, positions, edges = hood("chopsticks", 2)
    linked = dot.linked_dot(centre, positions, edges, lambda key: f"?pos={key}")
    for source, target, _, _ in edges:
        assert f'color="{palette.COLOURS[palette.move_value(positions[target]["value"])]}"' in next(
            line for line in linked.splitlines() if f'"{source}" -> "{target}"' in line or
            f"{source} -> {target}" in line)


def test_one_highlight_colour():
    """What is asked about or selected has one colour on every diagram and table (there were three)."""
    assert dot.HIGHLIGHT == dot.LINKED_CENTRE == palette.HIGHLIGHT
    assert palette.nearest_value(palette.HIGHLIGHT)[0] >= palette.MIN_DISTANCE
    assert all(palette.distance(palette.HIGHLIGHT, player.fill) >= palette.MIN_DISTANCE
               for player in palette.PLAYERS.values())


# Colour literals: '#rgb', '#rrggbb', '#rrggbbaa', rgb(...) and rgba(...), in code or in CSS/JS kept in
# strings. Files left out: the palette itself; vendored libraries; and the graph canvas
# (explorer/ui/canvas*, its static script), which its own developer is moving to the palette (issue 35).
LITERAL = re.compile(r"(?<![&\w])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b|\brgba?\(")
NOT_CHECKED = ("explorer/render/palette.py", "explorer/ui/canvas", "explorer/ui/static/canvas")


def colour_literals(text: str) -> list[str]:
    """The colour literals in `text` (a source file)."""
    return [match.group(0) for match in LITERAL.finditer(text)]


def test_colour_literals_are_found():
    assert colour_literals('fill="#8c564b" x = "#ccc"; rgba(60,60,60,0.5) "#1f4fd166"') == [
        "#8c564b", "#ccc", "rgba(", "#1f4fd166"]
    assert colour_literals("issue #35, &#123; a2 #define x") == []


def test_no_colour_literal_outside_the_palette():
    """explorer/render/palette.py is the only home of colours (issue 35): every other module names them."""
    found = []
    for folder in ("explorer", "queries"):
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if (path.suffix not in (".py", ".js", ".css", ".html") or relative.endswith(".min.js")
                    or relative.startswith(NOT_CHECKED)):
                continue
            found += [f"{relative}: {literal}" for literal in colour_literals(path.read_text())]
    assert found == []
