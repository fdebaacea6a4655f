"""Board drawings in the explorer: every game's page renders; a click on a board plays the move.

The page runs headless under AppTest. AppTest cannot click inside the custom
component that shows a clickable board (tests/ui/test_browser.py does that in
Chromium), so here the component is replaced by a stand-in that answers the
way the component does after a click: with the `pos` of the link clicked.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs

import pytest

pytest.importorskip("streamlit")
from explorer.games import games, parse_spec  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui import position as ui_position  # noqa: E402
from explorer.ui.boards import board_svg  # noqa: E402
from tests.support.ui_support import isolated, page  # noqa: E402,F401 - the autouse fixture


def small_spec(name: str) -> str:
    """A small size of every registered game (so games added later are covered): a preset named
    small/standard when there is one, else the defaults."""
    cls = games()[name]
    for preset in ("small", "standard"):
        if preset in cls.presets:
            return f"{name}:{preset}"
    return name


@pytest.mark.parametrize("name", sorted(n for n, c in games().items() if c.__module__.startswith("explorer.games.")))
def test_every_game_page_renders(name):
    at = page(game=small_spec(name))
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    # the title as typed, every markdown character escaped: Streamlit would otherwise read "teeko:small"
    # as its :small[] directive and show "teeko"
    shown = re.sub(r"\\(.)", r"\1", at.title[0].value)
    assert shown == parse_spec(small_spec(name)).display_name
    assert ":" not in re.sub(r"\\.", "", at.title[0].value)


def linked_positions(svg: str) -> dict[str, str]:
    """data-move label -> pos of every link in a drawing."""
    found = {}
    for href, label in re.findall(r'<a href="([^"]+)" data-move="([^"]+)"', svg):
        found[label.replace("&gt;", ">")] = parse_qs(href.replace("&amp;", "&").lstrip("?"))["pos"][0]
    return found


@pytest.mark.parametrize("spec,key", [("ponghauki", None), ("mutorere", None), ("mutorere", "W|BBB.WWWW/B"),
                                      ("tictactoe", "X../.O./..."), ("ponghauki", "R|BR/B/.R"),
                                      ("chopsticks", None), ("chopsticks", "B|2-3|1-1"), ("chopsticks", "A|0-4|1-1"),
                                      ("chopsticks:even-split", "A|0-2|1-4"),
                                      ("chopsticks(fingers=5,split=transfer,swaps=true,suicide=true)", "A|2-3|1-4"),
                                      ("nim:small", None), ("nim", None), ("nim:marienbad", "B|1-0-5-2")])
def test_board_links_are_exactly_the_moves(spec, key):
    solved = build(spec)
    node = solved.graph.find(key) if key else 0
    links = ui_position.board_links(spec, solved, node)
    svg = board_svg(solved.game, solved.graph.position(node), links)
    # Each link opens the board the move makes, in the orientation it has on this board.
    expected = {m.label: solved.game.format(m.position)
                for m in (solved.game.moves(solved.graph.position(node))
                          if solved.graph.terminal[node] < 0 else [])}
    assert linked_positions(svg) == expected
    assert all(solved.graph.node_of(solved.game.parse(pos)) is not None for pos in expected.values())


def test_a_game_without_a_drawing_shows_its_notation(tmp_path, monkeypatch):
    from explorer.games import plugins
    plugin = Path(__file__).resolve().parents[2] / "docs" / "your-own-game.md"
    code = re.search(r"<!-- tutorial-example: \S+ -->\n```python\n(.*?)```", plugin.read_text(), re.S)[1]
    (tmp_path / "tutorial_game.py").write_text(code)
    monkeypatch.setenv(plugins.ENV, str(tmp_path / "tutorial_game.py"))
    try:
        at = page(game="my-ponghauki")
        assert not at.exception and not at.error
        assert at.code[0].value == "X:OO.XX"
        assert any("no board drawing" in c.value for c in at.caption)
        assert at.button(key="move_0")  # its moves are buttons
    finally:
        plugins.unload(tmp_path / "tutorial_game.py")


@pytest.mark.parametrize("spec,start", [("ponghauki", "B|.B/R/RB"), ("mutorere", "B|BBB.WWWW/B"),
                                        ("tictactoe", "X../.O./..."), ("chopsticks", "A|2-3|1-4")])
def test_a_board_click_plays_the_move(monkeypatch, spec, start):
    solved = build(spec)
    node = solved.graph.find(start)
    # A move whose result no other move reaches (symmetric twins share a link target, and the
    # history then names the first of them).
    here = solved.game.parse(start)  # the page keeps the orientation the URL gives
    moves = solved.game.moves(here)
    targets = [solved.graph.node_of(m.position) for m in moves]
    label = next(m.label for m, t in zip(reversed(moves), reversed(targets)) if targets.count(t) == 1)
    shown = {}

    def clicked_board(markup: str, key: str):
        """Stands in for the component: the user clicked the piece (or cell) of `label`."""
        if key != "board_svg":
            return None
        if "clicked" in shown:
            return None  # the click is reported once, as the component does
        shown["clicked"] = linked_positions(markup)[label]
        return shown["clicked"]

    monkeypatch.setattr(ui_position, "clickable_html", clicked_board)
    at = page(game=spec, pos=start)
    assert not at.exception, [e.value for e in at.exception]
    move = next(m for m in moves if m.label == label)
    target = solved.game.format(move.position)  # the board the click made, as drawn
    assert at.query_params["pos"] == target == shown["clicked"]
    assert solved.graph.node_of(move.position) is not None
    trail = at.session_state["history"]
    assert [step.key for step in trail] == [solved.game.format(here), target]
    assert trail[-1].move == label


def test_a_game_can_draw_its_own_board():
    """A plugin game's own board_svg method is used, and gets the moves' links."""
    from explorer.games.ponghauki import PongHauKi

    class Drawn(PongHauKi):
        name = "drawn-ponghauki"

        def board_svg(self, position, links):
            return f"<svg>{position.cells} {sorted(links)}</svg>"

    game = Drawn()
    assert board_svg(game, game.start(), {"bl>c": "?pos=x"}) == "<svg>BB.RR ['bl>c']</svg>"
    assert board_svg(parse_spec("nim:small"), parse_spec("nim:small").start()).startswith("<svg")


# -- the square boards' drawings (explorer/ui/boards/grid.py) ------------------------------------------
SVG = "{http://www.w3.org/2000/svg}"


def _elements(svg: str, tag: str):
    import xml.etree.ElementTree as ET

    return list(ET.fromstring(svg).iter(SVG + tag))


def _moves(spec: str, text: str):
    game = parse_spec(spec)
    position = game.parse(text)
    return game, position, {m.label: f"?pos={i}" for i, m in enumerate(game.moves(position))}


@pytest.mark.parametrize("text", ["B|bbr.r/rb.r./....b/...../.....", "R|b..../.b.../..r../...br/rb...",
                                  "B|r...b/...../..r../...../b...."])
def test_teeko_names_its_points_where_no_piece_covers_them(text):
    """The point names (files a-e, ranks 1-5) stand outside the board, as tic-tac-toe's do; they
    used to sit beside each point, under the disc of a piece standing there."""
    game, position, links = _moves("teeko", text)
    svg = board_svg(game, position, links)
    discs = [(float(c.get("cx")), float(c.get("cy"))) for c in _elements(svg, "circle") if c.get("r") == "20"]
    names = [t for t in _elements(svg, "text") if t.get("class") == "gg-cell-name"]
    assert sorted(t.text for t in names) == sorted("abcde12345")
    points = [(float(c.get("cx")), float(c.get("cy"))) for c in _elements(svg, "circle") if c.get("r") == "6"]
    left, right = min(x for x, _ in points) - 20, max(x for x, _ in points) + 20
    top, bottom = min(y for _, y in points) - 20, max(y for _, y in points) + 20
    for text_element in _elements(svg, "text"):
        x, y = float(text_element.get("x")), float(text_element.get("y"))
        if text_element.get("class") == "gg-cell-name":
            assert not (left < x < right and top < y < bottom), text_element.text  # outside every disc's reach
        for cx, cy in discs:  # and no text but a piece's own letter lies on a disc
            if (x - cx) ** 2 + (y - 5 - cy) ** 2 < 20 ** 2:
                assert text_element.text in "BR" and abs(x - cx) < 1, text_element.text


@pytest.mark.parametrize("spec, text", [("dodgem", "A|b../b../.rr"), ("dodgem:4x4", None)])
def test_dodgem_names_its_cells_outside_the_board(spec, text):
    """Dodgem's files and ranks stand outside the grid, below and left of it, as Teeko's and tic-tac-toe's
    do (issue 37); they used to be small names in each cell's corner ("a1"), which read as cell labels."""
    game = parse_spec(spec)
    text = text or game.format(game.start())
    game, position, links = _moves(spec, text)
    svg = board_svg(game, position, links)
    names = [t for t in _elements(svg, "text") if t.get("class") == "gg-cell-name"]
    assert sorted(t.text for t in names) == sorted("abcdefgh"[:game.n] + "".join(map(str, range(1, game.n + 1))))
    cells = [c for c in _elements(svg, "rect") if c.get("width") == c.get("height") == "62"]
    left = min(float(c.get("x")) for c in cells)
    bottom = max(float(c.get("y")) for c in cells) + 62
    for name in names:
        x, y = float(name.get("x")), float(name.get("y"))
        assert (x < left) if name.text.isdigit() else (y > bottom), name.text  # outside the grid
    assert not any(re.fullmatch(r"[a-h][1-8]", t.text or "") for t in _elements(svg, "text"))  # no "a1" left


def test_connect_four_pieces_share_no_hue_with_the_values():
    """A red disc read as "loss" and a yellow one as "tie": the pieces now carry no hue of the value
    palette (explorer/render/palette.py), and differ in lightness for colour-blind readers (a
    contrast of at least 4.5:1, WCAG's for text)."""
    import colorsys

    from explorer.render import palette
    from explorer.ui.boards import connect4

    def rgb(colour: str) -> tuple[float, float, float]:
        return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))

    def luminance(colour: str) -> float:
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(colour)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    value_hues = [colorsys.rgb_to_hls(*rgb(c))[0] * 360 for c in [*palette.COLOURS.values(), *palette.FILLS.values()]]
    fills = [player.fill for player in connect4.COLOURS.values()]
    for fill in fills:
        hue, _, saturation = colorsys.rgb_to_hls(*rgb(fill))
        if saturation > 0.15:  # a colour with a hue: far from every value's
            assert all(min(abs(hue * 360 - v), 360 - abs(hue * 360 - v)) >= 30 for v in value_hues), fill
        assert fill.lower() not in {c.lower() for c in [*palette.COLOURS.values(), *palette.FILLS.values()]}
    light, dark = sorted(map(luminance, fills), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5


def _overlap(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """Whether two convex polygons overlap (by more than touching): no separating axis among their edges' normals."""
    for polygon in (a, b):
        for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
            nx, ny = y0 - y1, x1 - x0
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) + 1e-6 or max(pb) <= min(pa) + 1e-6:
                return False
    return True


def _marks(svg: str) -> dict[str, list[tuple[float, float]]]:
    """Each move's clickable mark as a convex polygon: an arrowhead's triangle, a button's bounding square."""
    import xml.etree.ElementTree as ET

    marks = {}
    for link in ET.fromstring(svg).iter(SVG + "a"):
        for shape in link:
            if shape.tag == SVG + "polygon":
                marks[link.get("data-move")] = [tuple(map(float, p.split(","))) for p in shape.get("points").split()]
            elif shape.tag == SVG + "circle":
                x, y, r = (float(shape.get(k)) for k in ("cx", "cy", "r"))
                marks[link.get("data-move")] = [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    return marks


@pytest.mark.parametrize("text", ["A|-/gle/.c./.LE/..G/C",  # b2-c3 crosses c2xb3 at the corner between them
                                  "A|e/g.l/.../.L./E.C/GC",  # the lion's eight steps beside drops
                                  "B|ec/gl./.../.C./LEG/-", "A|-/gle/.c./.C./ELG/-"])
def test_dobutsu_move_marks_never_overlap(text):
    """No two moves' arrows or drop buttons lie on each other: each arrow stays in its piece's
    square; they once crossed the border, so that crossing diagonals met at a corner and a
    diagonal's head lay on the drop button in the corner of the square it entered."""
    game, position, links = _moves("dobutsu", text)
    marks = _marks(board_svg(game, position, links))
    assert set(marks) == set(links)
    labels = sorted(marks)
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not _overlap(marks[a], marks[b]), (a, b)


def test_dobutsu_move_marks_never_overlap_along_random_games():
    import random

    game = parse_spec("dobutsu")
    rng = random.Random(11)
    for _ in range(6):
        position = game.start()
        for _ in range(30):
            moves = game.moves(position)
            if not moves or game.outcome(position) is not None:
                break
            marks = _marks(board_svg(game, position, {m.label: "?x" for m in moves}))
            shapes = list(marks.values())
            assert not any(_overlap(a, b) for i, a in enumerate(shapes) for b in shapes[i + 1:]), game.format(position)
            position = rng.choice(moves).position


@pytest.mark.parametrize("spec, text", [("dobutsu", "B|ec/gl./.../.C./LEG/-"), ("dobutsu:small", None),
                                        ("teeko", "R|b..../.b.../..r../...br/rb..."), ("teeko:small", None),
                                        ("dodgem:3x3", None), ("connect4:small", None)])
def test_every_caption_fits_its_drawing(spec, text):
    """Each line of a board's caption ends inside the picture (Dōbutsu shōgi's "B to move — click
    an arrow or a drop" ran past its right edge), by a width measured generously."""
    import xml.etree.ElementTree as ET

    from explorer.ui.boards.grid import text_width

    game = parse_spec(spec)
    _, position, links = _moves(spec, text or game.format(game.start()))
    root = ET.fromstring(board_svg(game, position, links))
    width = float(root.get("width"))
    for element in root.iter(SVG + "text"):
        if element.get("font-weight") != "bold" or element.get("text-anchor"):
            continue  # a caption: bold, from its left end
        size = float(element.get("font-size"))
        lines = [span.text for span in element.iter(SVG + "tspan")] or [element.text]
        for line in lines:
            assert float(element.get("x")) + text_width(line, size) <= width, line


def test_a_long_caption_wraps_into_lines_that_fit():
    from explorer.ui.boards.grid import caption, text_width, wrap

    text = "Somebody with a long name to move — click an arrow or a drop"
    lines = wrap(text, 150, 13)
    assert len(lines) > 1 and " ".join(lines) == text
    assert all(text_width(line, 13) <= 150 for line in lines)
    assert caption(lines, 10, 20, "#000").count("<tspan") == len(lines)


def test_a_caption_too_long_for_one_line_wraps_inside_the_drawing():
    import dataclasses
    import xml.etree.ElementTree as ET

    from explorer.games.dodgem.rules import Dodgem
    from explorer.ui.boards.grid import CAPTION_LINE, text_width

    game = Dodgem()
    game.offers = dataclasses.replace(game.offers, player_names=("The blue player, with a long name", "Red"))
    position = game.start()
    root = ET.fromstring(board_svg(game, position, {m.label: "?x" for m in game.moves(position)}))
    width, height = float(root.get("width")), float(root.get("height"))
    caption = next(t for t in root.iter(SVG + "text") if len(list(t.iter(SVG + "tspan"))) > 1)
    lines = [span.text for span in caption.iter(SVG + "tspan")]
    assert " ".join(lines) == "The blue player, with a long name to move — click an arrow"
    assert all(float(caption.get("x")) + text_width(line, 13) <= width for line in lines)
    assert float(caption.get("y")) + (len(lines) - 1) * CAPTION_LINE < height - 4  # the last line inside too


@pytest.mark.parametrize("name", sorted(name for name, cls in games().items()
                                        if cls.__module__.startswith("explorer.games.")
                                        and cls.offers.board not in (None, "board_svg")))
def test_every_drawing_takes_its_caption_from_turn_caption(name, monkeypatch):
    """One home for a board's caption (explorer/ui/boards/caption.py, issue 36): every built-in drawing says
    what turn_caption says, at the start and at a finished position. Tic-tac-toe's and Chopsticks' drawings
    built their own from explorer.play.game_over (tic-tac-toe's unfinished board said nothing at all)."""
    import importlib
    import random
    import sys

    from explorer.ui.boards import caption

    game = parse_spec(name)
    importlib.import_module(f"explorer.ui.boards.{game.offers.board}")
    said = []

    def marked(game, position):
        said.append(f"CAPTION-{len(said)}")
        return said[-1]

    original = caption.turn_caption
    for module in [m for n, m in list(sys.modules.items()) if n.startswith("explorer.ui.boards")]:
        if getattr(module, "turn_caption", None) is original:
            monkeypatch.setattr(module, "turn_caption", marked)
    rng, position = random.Random(3), game.start()
    finished = None
    for _ in range(300):
        if game.outcome(position) is not None:
            finished = position
            break
        position = rng.choice(game.moves(position)).position
    for position in (game.start(), finished):
        if position is None:
            continue
        links = {m.label: "?x" for m in game.moves(position)} if game.outcome(position) is None else {}
        svg = board_svg(game, position, links)
        assert said and said[-1] in svg, (name, game.format(position))


def test_dobutsu_arrows_grow_out_of_their_piece_and_say_whose_piece_moves():
    """Issue 37: Dōbutsu's arrows crowded so that it was unclear which piece each belongs to. Each arrow's
    base now lies on its own piece's tile (it stood off the tile, a head alone by the square's edge), and
    its tooltip names the piece, its owner, the squares and what it takes ("A's lion b1 → a2")."""
    import random
    import xml.etree.ElementTree as ET

    from explorer.games.dobutsu.pieces import COLUMNS, LETTERS, kind_of, owner_of
    from explorer.games.square_board import row_col
    from explorer.ui.boards.dobutsu import NAMES, TILE

    game = parse_spec("dobutsu")
    rng, checked = random.Random(5), 0
    for ply in range(120):
        position = game.start() if ply % 20 == 0 else position  # several short games
        moves = game.moves(position)
        if not moves or game.outcome(position) is not None:
            position = game.start()
            moves = game.moves(position)
        svg = board_svg(game, position, {m.label: "?x" for m in moves})
        tiles = {}  # square name -> the centre of the tile drawn there
        for g in ET.fromstring(svg).iter(SVG + "g"):
            rect = g.find(SVG + "rect")
            if rect is not None and float(rect.get("width")) == TILE:
                tiles[(float(rect.get("x")) + TILE / 2, float(rect.get("y")) + TILE / 2)] = g.find(SVG + "title").text
        for link in ET.fromstring(svg).iter(SVG + "a"):
            label, polygon = link.get("data-move"), link.find(SVG + "polygon")
            if polygon is None:
                continue  # a drop
            points = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
            bx, by = (points[1][0] + points[2][0]) / 2, (points[1][1] + points[2][1]) / 2
            base_width = ((points[1][0] - points[2][0]) ** 2 + (points[1][1] - points[2][1]) ** 2) ** 0.5
            assert base_width <= 16.5, label  # a diagonal's head no wider than the others (it was 22.6 px)
            (cx, cy), whose = min(tiles.items(), key=lambda t: (t[0][0] - bx) ** 2 + (t[0][1] - by) ** 2)
            assert abs(bx - cx) <= TILE / 2 and abs(by - cy) <= TILE / 2, label  # on the tile it leaves
            source = label.split(" ", 1)[1].replace("x", "-").split("-")[0]
            row, col = row_col(source)
            piece = position.board[row * COLUMNS + col]
            mover = "AB"[owner_of(piece)]
            assert whose == f"{mover} {NAMES[LETTERS[kind_of(piece)]]}"  # the tile under the base is the mover's
            title = link.find(SVG + "title").text
            assert title.startswith(f"{mover}'s {NAMES[LETTERS[kind_of(piece)]]} {source} → "), (label, title)
            assert ("takes" in title) == ("x" in label) and ("promotes" in title) == label.endswith("+")
            checked += 1
        position = rng.choice(moves).position
    assert checked > 200
