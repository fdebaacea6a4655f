"""Players' colours never look like values (issue 18): every board drawing of every game, and every
Graphviz board, keeps each colour it draws at least palette.MIN_DISTANCE (CIEDE2000) from every
value colour and fill, and every letter on a piece readable (WCAG contrast of at least 4.5:1).

The page colours each move drawn on a board by its value for the mover (explorer/ui/drawing.py),
so a red car beside a red (loss) arrow, or a blue X beside the draw blue, was read as a value.
The drawings are checked as drawn (without move values: the moves' own marks are then in their
neutral colours), walking each game's rules at random so both players' pieces and turns appear.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from explorer.games import games, parse_spec
from explorer.render import palette
from explorer.render.boards import board_label
from explorer.ui.boards import board_svg

SVG = "{http://www.w3.org/2000/svg}"
BUILTIN = sorted(name for name, cls in games().items() if cls.__module__.startswith("explorer.games."))
DRAWN = [name for name in BUILTIN if games()[name].offers.board is not None]
COLOUR = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")
INVISIBLE = 0.05  # a link's see-through click target (fill-opacity 0.01) is not seen


def walk(name: str, plies: int = 40, walks: int = 4, seed: int = 7) -> list[tuple[object, object, dict[str, str]]]:
    """(game, position, links) along a few random games of `name` (its default size), both players to move."""
    game = parse_spec(name)
    rng, seen = random.Random(seed), []
    for _ in range(walks):
        position = game.start()
        for _ in range(plies):
            moves = [] if game.outcome(position) is not None else game.moves(position)
            seen.append((game, position, {m.label: f"?pos={i}" for i, m in enumerate(moves)}))
            if not moves:
                break
            position = rng.choice(moves).position
    return seen


def blend(colour: str, opacity: float, ground: str) -> str:
    """`colour` drawn at `opacity` over `ground`."""
    top, under = palette._rgb(colour), palette._rgb(ground)
    return "#%02x%02x%02x" % tuple(round(a * opacity + b * (1 - opacity)) for a, b in zip(top, under))


def _style(element: ET.Element) -> dict[str, str]:
    return dict(part.split(":", 1) for part in (element.get("style") or "").replace(" ", "").split(";") if ":" in part)


def drawn_colours(svg: str) -> list[tuple[str, str]]:
    """(colour as seen, what it paints) of every fill and stroke in `svg`, its opacity applied over
    the drawing's background (its first rectangle, else white)."""
    root = ET.fromstring(svg)
    first = root.find(f"{SVG}rect")
    ground = first.get("fill") if first is not None and COLOUR.fullmatch(first.get("fill") or "") else "#ffffff"
    found = []

    def visit(element: ET.Element, opacity: float) -> None:
        style = _style(element)
        opacity *= float(style.get("opacity", element.get("opacity", 1)))
        for paint in ("fill", "stroke"):
            colour = style.get(paint, element.get(paint))
            if not colour or not COLOUR.fullmatch(colour):
                continue  # none, a gradient, or the default (black text)
            seen = opacity * float(style.get(f"{paint}-opacity", element.get(f"{paint}-opacity", 1)))
            if seen >= INVISIBLE:
                found.append((blend(colour, seen, ground) if seen < 1 else colour.lower(),
                              f"{paint} of <{element.tag.removeprefix(SVG)}> {colour}@{seen:.2f}"))
        for child in element:
            visit(child, opacity)

    visit(root, 1.0)
    return found


def letters_on_pieces(svg: str) -> list[tuple[str, str, str]]:
    """(letter, its colour, the piece's colour) of each bold letter drawn on the circle or square
    just before it (a piece and its letter), in the same group."""
    out = []
    for parent in ET.fromstring(svg).iter():
        children = list(parent)
        for shape, text in zip(children, children[1:]):
            if text.tag != f"{SVG}text" or text.get("font-weight") != "bold" or shape.tag not in (f"{SVG}circle",
                                                                                                f"{SVG}rect"):
                continue
            if "gg-mark" in (shape.get("class") or ""):
                continue  # a move's chip: the page repaints it by value (tests below check those separately)
            x, y = float(text.get("x")), float(text.get("y"))
            if shape.tag == f"{SVG}circle":
                cx, cy, r = (float(shape.get(k)) for k in ("cx", "cy", "r"))
                inside = abs(x - cx) <= r and abs(y - cy) <= r + 6
            else:
                sx, sy, w, h = (float(shape.get(k)) for k in ("x", "y", "width", "height"))
                inside = sx <= x <= sx + w and sy <= y <= sy + h + 6
            if inside and shape.get("fill") and text.get("fill"):
                out.append(("".join(text.itertext()), text.get("fill"), shape.get("fill")))
    return out


def test_the_checks_see_the_old_clashes():
    """The checks can fail: the colours the boards used to draw are caught."""
    old = {"Dodgem's and Teeko's red": "#c8322b", "tic-tac-toe's O": "#d62728", "tic-tac-toe's X": "#1f77b4",
           "Dōbutsu A's home rank": "#e3ecf8", "the frogs' green": "#2e8b57", "Teeko's arrows": "#2b6cb0"}
    for what, colour in old.items():
        assert palette.nearest_value(colour)[0] < palette.MIN_DISTANCE, what
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="#f4f1ea"/><g opacity="0.5"><rect fill="#1b2a5e" '
           'fill-opacity="0.7"/><circle fill="#d62728" fill-opacity="0.01"/></g><text fill="#d62728">x</text></svg>')
    assert [c for c, _ in drawn_colours(svg)] == ["#f4f1ea", blend("#1b2a5e", 0.35, "#f4f1ea"), "#d62728"]
    assert letters_on_pieces('<svg xmlns="http://www.w3.org/2000/svg"><circle cx="10" cy="10" r="8" fill="#c8322b"/>'
                             '<text x="10" y="14" font-weight="bold" fill="#ffffff">R</text></svg>') == [
        ("R", "#ffffff", "#c8322b")]


def test_every_game_with_a_drawing_is_checked():
    assert {"dodgem", "teeko", "dobutsu", "tictactoe", "connect4", "ponghauki", "mutorere", "toads-and-frogs",
            "chopsticks", "nim", "domineering"} <= set(DRAWN)


@pytest.mark.parametrize("name", DRAWN)
def test_no_colour_on_a_board_looks_like_a_value(name):
    clashes = {}
    for game, position, links in walk(name):
        svg = board_svg(game, position, links)
        for colour, what in drawn_colours(svg):
            near, value = palette.nearest_value(colour)
            if near < palette.MIN_DISTANCE:
                clashes[what] = f"ΔE00 {near:.1f} from {value} ({game.format(position)})"
        for letter, ink, piece in letters_on_pieces(svg):
            assert palette.contrast(ink, piece) >= palette.MIN_CONTRAST, (name, letter, ink, piece)
    assert clashes == {}, name


def test_letters_on_pieces_are_found_on_the_boards_that_letter_their_pieces():
    for name in ("dodgem", "teeko", "dobutsu", "ponghauki", "mutorere", "toads-and-frogs"):
        found = [piece for game, position, links in walk(name, walks=1, plies=3)
                 for piece in letters_on_pieces(board_svg(game, position, links))]
        assert found, name


@pytest.mark.parametrize("name", BUILTIN)
def test_no_colour_on_a_graphviz_board_looks_like_a_value(name):
    """The boards of `gamegraph dot --boards` (explorer/render/boards.py): each coloured letter is far
    from the values (the node around the board is filled with its value's colour) and readable on
    the board's white."""
    for game, position, _ in walk(name, walks=2, plies=25):
        label = board_label(game, position)
        if label is None:
            continue
        for colour in re.findall(r'COLOR="(#[0-9a-fA-F]{6})"', label):
            near, value = palette.nearest_value(colour)
            assert near >= palette.MIN_DISTANCE, (name, colour, value, near)
        for colour in re.findall(r'<FONT COLOR="(#[0-9a-fA-F]{6})"', label):
            assert palette.contrast(colour, "#ffffff") >= palette.MIN_CONTRAST, (name, colour)


def test_a_dobutsu_drop_letter_stays_readable_on_every_value():
    """A drop is a chip the page repaints with the value's light fill: its letter stays dark."""
    game = parse_spec("dobutsu")
    position = game.parse("A|e/g.l/.../.L./E.C/GC")
    svg = board_svg(game, position, {m.label: "?x" for m in game.moves(position)})
    drops = re.findall(r'<circle class="gg-mark"[^>]*/><text [^>]*fill="(#[0-9a-f]{6})"[^>]*>([GEC])</text>', svg)
    assert drops
    for ink, _ in drops:
        for fill in palette.FILLS.values():
            assert palette.contrast(ink, fill) >= palette.MIN_CONTRAST, (ink, fill)


def test_dodgem_keeps_its_players_names_in_their_colours():
    """Blue and Red everywhere (issue 18): the caption names the mover, in its cars' colour; the cars show the
    way they leave (Blue ▶ off the right, Red ▲ off the top), never a letter of the notation's movers, A and B
    (B| means Red to move: a Blue car marked B said the opposite, issue 37)."""
    game = parse_spec("dodgem")
    for position in (game.start(), game.moves(game.start())[0].position):
        svg = board_svg(game, position, {})
        who = ("Blue", "Red")[position.to_move]
        colour = (palette.FIRST, palette.SECOND)[position.to_move].fill  # dark and purple (issue 35)
        assert re.search(f'fill="{colour}"[^>]*><tspan[^>]*>{who} to move', svg), who
        marks = set(letter for letter, _, _ in letters_on_pieces(svg))
        assert marks == {"▶", "▲"}, marks
        sides = {game.format(p).split("|")[0] for p in (game.start(), game.moves(game.start())[0].position)}
        assert sides == {"A", "B"} and not marks & sides


STRONG_HUE = 20.0  # chroma (C*ab) from which a colour is seen as having a hue, not as a tinted grey


@pytest.mark.parametrize("name", DRAWN)
def test_no_strong_colour_on_a_board_has_a_values_hue(name):
    """Issue 35: Dodgem's and Teeko's wine pieces, tic-tac-toe's wine O and Dōbutsu's wine B were far
    enough from the loss red by ΔE00 and still read as red. Every colour a board draws with a clear hue
    (the pieces, the marks, the frame) keeps MIN_HUE_GAP degrees from every value's hue."""
    clashes = {}
    for game, position, links in walk(name, walks=2):
        for colour, what in drawn_colours(board_svg(game, position, links)):
            if palette.lch(colour)[1] >= STRONG_HUE and not palette.hue_clear(colour):
                clashes[what] = f"{palette.hue_gap(colour):.0f} degrees from a value's hue"
    assert clashes == {}, name


def test_the_hue_check_sees_the_old_pieces():
    for old in ("#6b1d2a", "#1b2a5e", "#1f4fa8", "#8c564b"):  # wine, navy, Connect Four's frame, Nim's tokens
        assert palette.lch(old)[1] >= STRONG_HUE and not palette.hue_clear(old), old
