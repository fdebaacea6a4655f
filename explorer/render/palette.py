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

Beside the values: each value's line style on a board (DASHES, so a move's value is not told by
colour alone), the players' colours of every board (PLAYERS, told apart from every value colour and
fill by at least MIN_DISTANCE in CIEDE2000, `distance`), and WCAG's `contrast` for letters on pieces.
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
# value (above), so a piece must never look like a value: red cars beside red loss arrows read as
# losses, and a blue X beside the draw blue as a draw. So the players' hues are dark (navy, wine,
# forest) or have none (black, white), each at least MIN_DISTANCE from every value colour and
# fill (tests/render/test_palette.py), and a player keeps its name: Dodgem's Blue is navy, its
# Red wine. The tints cannot be a light blue or pink (the draw and loss fills are): they are
# near-greys with only a trace of the hue.
PLAYERS = {
    "black": PlayerColour("#262626", "#000000", "#ffffff", "#e4e4e4"),
    "white": PlayerColour("#fbfbfb", "#555555", "#222222", "#f4f4f4"),
    "blue": PlayerColour("#1b2a5e", "#0d1a40", "#ffffff", "#ece6f0"),
    "red": PlayerColour("#6b1d2a", "#45121b", "#ffffff", "#f0e4e6"),
    "purple": PlayerColour("#5e2b7e", "#3b1a50", "#ffffff", "#ece6f0"),
    "brown": PlayerColour("#7a4a22", "#4a2c14", "#ffffff", "#efe9df"),
    "green": PlayerColour("#1f4a2e", "#10301c", "#ffffff", "#ece9e2"),
}
# A move's mark before the page colours it by its value (Play with move values off, a download):
# a dark grey that no value colour is mistaken for.
NEUTRAL_MARK = "#3a3a3a"
