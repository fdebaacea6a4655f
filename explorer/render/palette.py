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
"""

from __future__ import annotations

from collections.abc import Iterable

VALUES = ("win", "loss", "tie", "draw")

# Strong colours: text, borders, lines, chart marks and bars.
COLOURS = {"win": "#2ca02c", "loss": "#d62728", "tie": "#e69f00", "draw": "#5b7fa6"}
# Light fills: table cells, badges, diagram nodes (dark text stays readable on them).
FILLS = {"win": "#b9e4b0", "loss": "#f4b4b4", "tie": "#ffd978", "draw": "#aec6e8"}


def scale(order: Iterable[str] = VALUES) -> dict[str, list[str]]:
    """A Vega/Altair colour scale for values in `order`: {"domain": values, "range": their strong
    colours}; `alt.Scale(**scale(...))`."""
    domain = list(order)
    return {"domain": domain, "range": [COLOURS[value] for value in domain]}
