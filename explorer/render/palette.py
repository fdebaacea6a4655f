"""The one palette of game values: a strong colour and a light fill for each of win, loss, tie and draw.

Every place that colours a value takes it from here: the value badges and the
table cells on the page (fills, with the strong colour as the border), the
Graphviz diagrams of `gamegraph dot` and of the page (node fills, and on the
page the node borders), the charts (Altair/Vega colour scales and bar charts:
the strong colours) — the Play value history, the survey heatmap, the
statistics histograms.

The choice:

- win is green and loss is red (#2ca02c / #d62728, the usual matplotlib pair);
- tie is amber (#e69f00, the Okabe-Ito orange): a shared result, warm like a
  win but clearly not one, and far from the loss red;
- draw is slate blue (#5b7fa6): play goes round forever, so a cool, quiet
  colour; it is also the family of the draw-level map (shades of blue).

Tie and draw used to be two nearly identical yellows (and tie was purple in
some charts); now the four light fills are pairwise at least 60 apart in RGB
and the strong colours at least 100 apart (tests/render/test_palette.py checks both).
Amber and blue also stay apart for the common red-green colour blindnesses.

Beside the values: GamesmanUni's rule for a move (`move_value`, `move_colour`: a move is coloured by
its value for the player who makes it); each value's line style on a board (DASHES, so a move's value
is not told by colour alone); the players' colours of every board (PLAYERS, FIRST and SECOND: told
apart from every value colour and fill by at least MIN_DISTANCE in CIEDE2000, `distance`, and free of
every value's hue, `hue_clear`); WCAG's `contrast` for letters on pieces and `piece_contrast` for a
piece on its ground; the one highlight (HIGHLIGHT); the draw levels' and draw kinds' colours; and the
neutral greys and grounds of the boards and the page. This module is the only home of colour
literals: tests/render/test_palette.py greps the rest of the code for them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

VALUES = ("win", "loss", "tie", "draw")

# Strong colours: text, borders, lines, chart marks and bars.
COLOURS = {"win": "#2ca02c", "loss": "#d62728", "tie": "#e69f00", "draw": "#5b7fa6"}
# Light fills: table cells, badges, diagram nodes (dark text stays readable on them).
FILLS = {"win": "#b9e4b0", "loss": "#f4b4b4", "tie": "#ffd978", "draw": "#aec6e8"}
# Each value's line style (an SVG stroke-dasharray) for the outline of a move drawn on a board
# (explorer/ui/drawing.py), so that a move's value is not told by its colour alone (a red-green
# colour-blind reader, a grey printout): a win solid, a loss dotted, a tie dashed, a draw dash-dot.
DASHES = {"win": "none", "loss": "2 3", "tie": "7 3", "draw": "7 3 2 3"}
# The outline of a small mark filled with its value's strong colour (an arrowhead, a dot): a near-black,
# so that the line style shows on the light boards around it as well as on the fill. A white outline
# (until Nov 2026) lay half on a white or cream board, where its dots vanished on a 16 px arrow.
MARK_OUTLINE = "#1a1a1a"
MARK_OUTLINE_WIDTH = 2.5


def scale(order: Iterable[str] = VALUES) -> dict[str, list[str]]:
    """A Vega/Altair colour scale for values in `order`: {"domain": values, "range": their strong
    colours}; `alt.Scale(**scale(...))`."""
    domain = list(order)
    return {"domain": domain, "range": [COLOURS[value] for value in domain]}



# GamesmanUni's rule: a move is coloured by its value for the player who makes it, so a winning move is
# green though it leads to a position lost for the player to move there. Everything that colours a
# move (the boards, the move tables, Graphviz diagrams, the canvas's moves) takes it from here.
_FOR_MOVER = {"win": "loss", "loss": "win", "tie": "tie", "draw": "draw"}


def move_value(value_after: str) -> str | None:
    """A move's value for the player who makes it, from the value of the position it leads to (for
    the player to move there, the other player): win and loss swap, tie and draw stay. None for a
    value that is not one of VALUES (an unknown one)."""
    return _FOR_MOVER.get(value_after)


def move_colour(value_after: str, otherwise: str) -> str:
    """The strong colour of a move into a position of `value_after` (move_value), else `otherwise`."""
    value = move_value(value_after)
    return COLOURS[value] if value else otherwise

# -- How far apart two colours look ------------------------------------------------------------------
# CIEDE2000 (Sharma, Wu & Dalal 2005), the CIE's colour difference that follows what people see
# better than a distance in RGB or Lab; about 2 is the smallest difference most people notice,
# and two colours MIN_DISTANCE apart are never taken for each other at a glance. Written out here
# (30 lines) because no colour library is a dependency of the project.
MIN_DISTANCE = 15.0
MIN_CONTRAST = 4.5  # WCAG 2's ratio for normal text: a letter on a piece


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _rgb(colour: str) -> tuple[int, int, int]:
    """'#rrggbb' (or '#rgb') as three 0-255 channels."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65 white) of an sRGB colour '#rrggbb'."""
    r, g, b = (_linear(c) for c in _rgb(colour))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(first: str, second: str) -> float:
    """The CIEDE2000 colour difference ΔE00 between two sRGB colours '#rrggbb'."""
    return ciede2000(lab(first), lab(second))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """ΔE00 between two L*a*b* colours (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    def luminance(colour: str) -> float:
        r, g, b = (_linear(c) for c in _rgb(colour))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def nearest_value(colour: str) -> tuple[float, str]:
    """(ΔE00, which) of the value colour or fill nearest `colour`: 'loss' or 'loss fill'."""
    marks = {**COLOURS, **{f"{value} fill": fill for value, fill in FILLS.items()}}
    return min((distance(colour, mark), name) for name, mark in marks.items())


# -- The players' colours ----------------------------------------------------------------------------
class PlayerColour(NamedTuple):
    """How a player's pieces are drawn: `fill` the piece (or a mark's stroke, tic-tac-toe's X and O),
    `rim` its outline, `ink` a letter on the piece, `tint` a quiet ground for the player's squares
    (a home rank, an exit)."""

    fill: str
    rim: str
    ink: str
    tint: str


# Every board colours its players from here. The page colours each move drawn on a board by its
# value (above), so a piece must never look like a value: the wine cars and pieces there were
# until issue 35 still read as "red, a loss" beside the loss arrows, and the navy X beside the draw
# blue as a draw, though each was MIN_DISTANCE from every value colour. So a player's colour now
# also keeps clear of every value's hue (`hue_clear`: no hue at all, or at least MIN_HUE_GAP
# degrees of LCh hue from each value colour and fill): the players are black and white where a
# game's pieces are black and white (Connect Four, Mū tōrere), and otherwise dark and purple, the one
# hue the values leave free (green 138, red 22-34, amber 78-88, blue 266: purple is 316). A
# player keeps its name in the rules and on the caption (Dodgem's Blue, Teeko's Red), drawn in its
# colour. The tints are near-greys (a home rank, an exit). Every piece and player mark keeps 3:1
# (WCAG's non-text contrast) against the ground it stands on (`piece_contrast`, GROUNDS).
PLAYERS = {
    "black": PlayerColour("#262626", "#000000", "#ffffff", "#e4e4e4"),
    "white": PlayerColour("#fbfbfb", "#555555", "#222222", "#f4f4f4"),
    "purple": PlayerColour("#5e2b7e", "#3b1a50", "#ffffff", "#ece6f0"),
}
# The two players of a board that is not black and white: the first dark, the second purple.
FIRST, SECOND = PLAYERS["black"], PLAYERS["purple"]
# A move's mark before the page colours it by its value (Play with move values off, a download):
# a dark grey that no value colour is mistaken for.
NEUTRAL_MARK = "#3a3a3a"
MIN_HUE_GAP = 40.0  # degrees of LCh hue between a player's colour and every value's
GREY_CHROMA = 10.0  # below this chroma (C*ab) a colour has no hue to confuse


def lch(colour: str) -> tuple[float, float, float]:
    """CIE LCh(ab) of an sRGB colour: lightness, chroma, hue in degrees."""
    l_, a, b = lab(colour)
    return l_, math.hypot(a, b), math.degrees(math.atan2(b, a)) % 360


def hue_gap(colour: str) -> float:
    """Degrees of hue between `colour` and the nearest value colour or fill (360 for a grey)."""
    _, chroma, hue = lch(colour)
    if chroma < GREY_CHROMA:
        return 360.0
    gaps = (abs((hue - lch(mark)[2] + 180) % 360 - 180) for mark in (*COLOURS.values(), *FILLS.values()))
    return min(gaps)


def hue_clear(colour: str) -> bool:
    """True when `colour` has no hue a value has: a grey, or MIN_HUE_GAP degrees from them all."""
    return hue_gap(colour) >= MIN_HUE_GAP


# -- One highlight ------------------------------------------------------------------------------------
# What is selected or asked about: the page's position in a diagram, the overview and the draw map,
# the selected node and an expansion's news on the canvas. Dark cyan, which no value is (more than
# MIN_DISTANCE from every value colour and fill) and no player either. There were three (a royal
# blue, a mid blue and this) until issue 35.
HIGHLIGHT = "#008b8b"
# A warning mark in a table or beside a value that differs (History's ⚠, the rule diff's ≠): not
# the loss red, which would say "a loss".
WARNING = "#222222"  # bold ink: the sign (⚠, ≠) carries the meaning

# -- Draw levels and draw kinds (explorer/algorithms/draw_levels.py, explorer/analysis/draws.py) -------
# Shades of the draw family's blue: level 0, 1, 2, 3+; deeper is nearer a blunder. A draw-lose
# position takes its level's colour translucent (DRAW_LOSE_ALPHA appended).
LEVEL_COLOURS = ("#1f4fd1", "#5b8def", "#94b6f5", "#c6d8fa")
DRAW_LOSE_ALPHA = "66"
LEVEL_NONPURE, LEVEL_DEAD = "#d0d0d0", "#ffffff"
LEVEL_LEGEND = (("draw-win, level 0", LEVEL_COLOURS[0]), ("draw-lose, level 0", LEVEL_COLOURS[0] + DRAW_LOSE_ALPHA),
                ("level 1", LEVEL_COLOURS[1]), ("level 2", LEVEL_COLOURS[2]), ("level 3+", LEVEL_COLOURS[3]),
                ("non-pure", LEVEL_NONPURE), ("dead", LEVEL_DEAD))
# A draw is safe (no move loses: light green) or sharp (some move loses: light orange); a closed
# region (the drawing core) is outlined in the level-0 blue and filled light blue on the region map.
DRAW_KIND_SAFE, DRAW_KIND_SHARP = "#9fd89f", "#f2b36b"
CORE_OUTLINE, CORE_FILL = LEVEL_COLOURS[0], "#9fc5f8"

# -- The Neighbourhood canvas's other colourings (explorer/ui/canvas) ---------------------------------
# A combinatorial value's temperature (issue 38): cold (a number or an infinitesimal, t <= 0) pale, hotter
# deeper purple, a hue no value has (more than MIN_DISTANCE from each); a position on a cycle dark grey.
TEMPERATURE_COLD, TEMPERATURE_HOT = "#efedf5", "#54278f"
ON_CYCLE = "#666666"

# -- Neutral colours: text, lines, grounds (no hue a value has) ---------------------------------------
INK = "#222222"         # text, a ring around a mark
INK_SOFT = "#555555"    # quieter text, a board's cell borders
INK_FAINT = "#777777"   # captions and rank/file names on a light ground
RULE = "#999999"        # thin lines, a dead hand's outline
RULE_LIGHT = "#bbbbbb"  # guide lines, a map's moves, a button's border
RULE_FAINT = "#dddddd"  # a frame around a drawing
NO_FACT = "#eeeeee"     # a value not known, a region outside the core
WHITE, BLACK = "#ffffff", "#000000"
PANEL = "#f4f4f4"       # a table's head
OVERVIEW_GROUND = "#fcfcfc"
# Dots and moves of the whole-graph overview (sigma.js): a move's grey by how many are drawn.
OVERVIEW_MOVES = ("rgba(60,60,60,0.75)", "rgba(60,60,60,0.55)", "rgba(70,70,70,0.3)")
OVERVIEW_LABEL_GROUND = "rgba(252, 252, 252, 0.85)"

# The boards' own grounds and lines (explorer/ui/boards, explorer/ui/hands.py): warm near-greys.
PAPER = "#f4f1ea"       # a square board's, Connect Four's ground
PAPER_POINTS = "#f6efe2"  # Pong hau k'i's and Mū tōrere's
PAPER_CELL = "#fdfcf7"  # a Toads-and-Frogs square
PAPER_TILE = "#fffaf0"  # a Dōbutsu shōgi piece
PAPER_GREEN = "#eef6ea"  # the Toads-and-Frogs strip
CELL_LINE = "#b9b1a0"   # a square board's cell lines
CELL_LINE_GREEN = "#9aa88f"
NAME_SOFT = "#a39a86"   # a cell's name inside it
NAME = "#8a816e"        # rank and file names beside a grid
NAME_POINTS = "#8f887a"
BOARD_LINE = "#6f6a60"  # the lines of a points board (a warm grey: the brown of before had the tie's hue)
CONNECT4_FRAME, CONNECT4_HOLE = "#4a4d55", "#7a7a7a"
CONNECT4_NAME = "#6b6455"
TTT_GROUND, TTT_LINE = "#fafafa", "#333333"
DOMINEERING_GROUND, DOMINEERING_COVERED = "#f3f3f3", "#4b4b5a"
NIM_TOKEN, NIM_TOKEN_RIM = "#6e6e6e", "#3a3a3a"  # grey: a brown token stood at the loss red's hue
# Chopsticks' hands: skin (a hue near amber's but too pale to read as one: chroma under 20), a folded
# finger, a dead hand; the outline and the counts warm greys (the browns of before had the tie's hue).
SKIN, SKIN_EDGE, FOLDED, DEAD = "#e9cdb4", "#9a8470", "#e7d3bf", "#e4e4e4"
HAND_INK = "#4a3f36"    # the finger counts on the palm (4.5:1 at least; a brown was the tie's hue)
TURN_GROUND = "#efece6"
HAND_NAME, IDLE_NAME = "#666666", "#444444"
DEAD_EDGE = "#888888"
# The grounds a piece or a player's mark stands on: each player keeps 3:1 against each of them
# (piece_contrast; tests/render/test_palette.py).
GROUNDS = {"white": WHITE, "paper": PAPER, "points": PAPER_POINTS, "cell": PAPER_CELL, "tile": PAPER_TILE,
           "tic-tac-toe": TTT_GROUND, "hole": CONNECT4_HOLE}
MIN_PIECE_CONTRAST = 3.0  # WCAG 2.1's non-text contrast (1.4.11)


def piece_contrast(player: PlayerColour, ground: str) -> float:
    """How well a piece of `player` stands out on `ground`: the better of its fill's and its rim's
    WCAG contrast (a white piece is seen by its dark rim)."""
    return max(contrast(player.fill, ground), contrast(player.rim, ground))
