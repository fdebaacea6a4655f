"""The canvas's shared measures and marks: its limits and sizes (px in the model, before the zoom), the
label metrics that layout and caption placement both measure with, and the colours of the canvas that
are not values (the value colours are explorer.render.palette's)."""

from __future__ import annotations

MAX_NODES = 2000          # the most positions the canvas holds (bench/bench_canvas.py: about 3 s to draw that many)
EXPAND_LIMIT = 200        # the most positions one expansion adds (a node with more neighbours shows the nearest)
HEIGHT = 640
# The least zoom of the canvas's default view (static/canvas_view.js): a label's 12 px are 7.2 px on screen,
# still read (0.7 cut a 30-node part that fitted at 0.64 down to 19 nodes in sight). A drawing too large to
# fit at it is shown at it around the focus, filling the free area; Fit shows all of it.
READABLE_ZOOM = 0.6
LARGE = 400  # from this many positions, moves are drawn the cheap way (plain lines, unlabelled) and no boards

# Colours that are not values: the marks of the canvas (greys and one accent), and the CGT kinds
# (the Okabe-Ito qualitative set, safe for the common colour blindnesses).
# A move of no known value (a console result's): a best one dark, another light. The rest are coloured by
# their value for their mover (elements.move_colour), in palette.COLOURS.
OPTIMAL_EDGE, OTHER_EDGE, FOCUS_RING = "#333333", "#b0b0b0", "#000000"
# What is selected, and what an expansion brought: dark cyan, which no value is (palette.nearest_value
# puts it more than palette.MIN_DISTANCE from every value colour); the component's own is red, a loss.
HIGHLIGHT = "#008b8b"
NO_FACT = "#eeeeee"
CGT_KIND_COLOURS = {"number": "#0072b2", "nimber": "#e69f00", "infinitesimal": "#009e73", "switch": "#cc79a7",
                    "other": "#999999"}
DRAW_LEVEL_DEAD = "#ffffff"

SPACING = 90
LABEL_FONT = 12           # px: the nodes' labels
LABEL_LINE = 1.2          # their line height, in fonts
LABEL_CHAR = 7.3          # px per character of a LABEL_FONT label in the style sheet's monospace font


def label_height(lines: int) -> float:
    """The height of a node's label of `lines` lines, below the node, in model px."""
    return 3 + lines * LABEL_FONT * LABEL_LINE


NODE_SIZE = 34            # px: a node's width and height (the focus is 1.25 times that); BOARD_SIZE with boards
BOARD_SIZE = 64
# px: the moves' names. 12, as the nodes' labels: at 10 they were 6 px on screen at READABLE_ZOOM, under
# MIN_LABEL_PX, so a default view (a value-file part of Dodgem 4x4 opens at zoom 0.63) drew them as specks.
MOVE_FONT = 12
MOVE_CHAR = 0.62 * MOVE_FONT  # px per character of a move's name
# The least size, on screen, at which a label or a move's name is drawn (static/canvas_view.js, 11): below it
# it is hidden, not drawn as an unreadable speck. Every label is at least this at READABLE_ZOOM, so the default
# view shows them all. (Cytoscape's min-zoomed-font-size cannot do it: it rounds the zoom up to a power of
# two, so a 10 px name stayed drawn down to zoom 0.5, 5 px high.)
MIN_LABEL_PX = 7
# The size, on screen, at which the labels are read with ease: an expansion and the info panel's opening keep the view's
# zoom where the labels are at least this (static/canvas_view.js, comfortFirst; or at the zoom of before, if lower),
# showing what was added in part rather than zooming out to READABLE_ZOOM, where a stranger found the captions 5 to 6 px
# tall after three expansions at 1000 px (issue 35).
COMFORT_LABEL_PX = 10
# The least width, on screen, of a node with its board drawn (static/canvas_view.js, 18): below it the board (88% of
# the node) is not drawn and the node shows as a glyph, its shape in the value colour. 18 px: a 3x4 board's cells are
# still 4 px, at the half of READABLE_ZOOM that a node clicked beside the opened info panel may be shown at. The default:
# a game whose board needs more declares its own (Offers.board_px: Dōbutsu shōgi's lettered pieces, 214 px).
MIN_BOARD_PX = 18
TEXT_MARGIN = 3           # px between a node and its label
# The most of the canvas's width the opened info panel takes (static/canvas_view.js tidyPanel): the component's 17.5 rem
# took 160 of a 534 px canvas at 1000 px (issue 35), leaving the drawing 360 px beside it; at 1440 px it is under this.
INFO_PANEL_SHARE = 0.25


MOVE_HALF_HEIGHT = MOVE_FONT / 2 + 3  # half the height a move's name takes, with its card and a margin
