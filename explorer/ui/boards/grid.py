"""What the drawings of square boards share (Teeko, Dodgem, Dōbutsu shōgi): the frame, a cell's
place, the rank and file names outside the grid, a move's arrow and link, and a caption that
wraps to the drawing's width.

Cells are named as in the games' notation (explorer/games/square_board.py): files a, b, ... from
the left, ranks 1, 2, ... from the bottom. The names stand outside the grid (files below it,
ranks left of it), as on tic-tac-toe's board, so no piece ever covers one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from html import escape

from explorer.games.square_board import FILES
from explorer.render.palette import NAME, PAPER

FONT = 'font-family="sans-serif"'
BACKGROUND = PAPER
NAME_COLOUR = NAME  # the rank and file names: quiet, but readable on the background
CAPTION_LINE = 17  # px between the lines of a wrapped caption (13 px text)


def open_svg(width: float, height: float, label: str, background: str = BACKGROUND) -> list[str]:
    """The opening of a drawing: the <svg> element (its accessible name `label`) and its background."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">',
            f'<rect x="0" y="0" width="{width}" height="{height}" rx="10" fill="{background}"/>']


class Grid:
    """`rows` x `columns` cells of `cell` px whose top-left corner is at (`left`, `top`); row 0 is
    the bottom rank."""

    def __init__(self, rows: int, columns: int, cell: float, left: float, top: float):
        self.rows, self.columns, self.cell, self.left, self.top = rows, columns, cell, left, top

    def corner(self, row: int, col: int) -> tuple[float, float]:
        """The top-left corner of a cell."""
        return self.left + col * self.cell, self.top + (self.rows - 1 - row) * self.cell

    def centre(self, row: int, col: int) -> tuple[float, float]:
        x, y = self.corner(row, col)
        return x + self.cell / 2, y + self.cell / 2

    def pieces(self, kinds: dict[str, Iterable[int]]) -> Iterator[tuple[str, float, float]]:
        """(letter, x, y) of each piece to draw: `kinds` maps a letter to its cells (row * columns + column)."""
        for letter, cells in kinds.items():
            for cell in cells:
                yield (letter, *self.centre(*divmod(cell, self.columns)))

    def names(self, gap: float = 14, size: int = 12) -> list[str]:
        """The file letters below the grid and the rank numbers left of it, `gap` px from its edge."""
        bottom = self.top + self.rows * self.cell
        out = []
        for col in range(self.columns):
            x = self.left + col * self.cell + self.cell / 2
            out.append(f'<text class="gg-cell-name" x="{x}" y="{bottom + gap + size * 0.35}" text-anchor="middle" '
                       f'font-size="{size}" fill="{NAME_COLOUR}" {FONT}>{FILES[col]}</text>')
        for row in range(self.rows):
            _, y = self.centre(row, 0)
            out.append(f'<text class="gg-cell-name" x="{self.left - gap}" y="{y + size * 0.35}" text-anchor="middle" '
                       f'font-size="{size}" fill="{NAME_COLOUR}" {FONT}>{row + 1}</text>')
        return out


def arrow_points(x0: float, y0: float, dx: float, dy: float, cell: float, base: float, tip: float,
                 half_width: float) -> str:
    """The triangle of an arrowhead on a step of (`dx`, `dy`) cells from (`x0`, `y0`): its base and
    its tip at the fractions `base` and `tip` of the step, `half_width` px each side per cell of
    the step (a diagonal's head is wider, as it is longer)."""
    tip_x, tip_y = x0 + dx * cell * tip, y0 + dy * cell * tip
    base_x, base_y = x0 + dx * cell * base, y0 + dy * cell * base
    side_x, side_y = -dy * half_width, dx * half_width
    return f"{tip_x},{tip_y} {base_x + side_x},{base_y + side_y} {base_x - side_x},{base_y - side_y}"


def move_link(href: str, label: str, title: str, body: str) -> str:
    """The link that plays move `label` (explorer/ui/boards/__init__.py): `body` is what to click."""
    return f'<a href="{escape(href)}" data-move="{escape(label)}"><title>{escape(title)}</title>{body}</a>'


# Widths of bold sans-serif glyphs in em (Helvetica's and DejaVu Sans's are close): enough to
# know where a caption must wrap, with a margin for the wider fonts.
_NARROW, _WIDE = set("fijlrtI.,:;!|' -"), set("mwMW—")


def text_width(text: str, size: float) -> float:
    """About how many px `text` takes in bold sans-serif of `size` px (a little more, not less)."""
    ems = sum(0.36 if c in _NARROW else 0.95 if c in _WIDE else 0.74 if c.isupper() else 0.64 for c in text)
    return ems * size


def wrap(text: str, width: float, size: float) -> list[str]:
    """`text` cut at spaces into lines of at most `width` px (a longer word keeps a line of its own)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def caption_below(svg: str, text: str, colour: str, x: float = 14, size: int = 13) -> str:
    """`svg` (a drawing whose <svg> has width, height and a viewBox "0 0 width height") made taller by a
    band holding `text` wrapped to its width: for a drawing made elsewhere (the Chopsticks hands) that
    must say why the game ended. O(len(svg))."""
    import re

    head = re.match(r'<svg [^>]*?width="([\d.]+)" height="([\d.]+)" viewBox="0 0 [\d.]+ [\d.]+"', svg)
    if head is None:
        return svg
    width, height = float(head[1]), float(head[2])
    lines = wrap(text, width - 2 * x, size)
    taller = height + 8 + len(lines) * CAPTION_LINE
    opening = head[0].replace(f'height="{head[2]}"', f'height="{taller:g}"').replace(
        f'viewBox="0 0 {head[1]} {head[2]}"', f'viewBox="0 0 {head[1]} {taller:g}"')
    body = svg[len(head[0]):]
    end = body.rfind("</svg>")
    return opening + body[:end] + caption(lines, x, height + 12, colour, size) + body[end:]


def caption(lines: list[str], x: float, y: float, colour: str, size: int = 13) -> str:
    """A bold caption, one <text> of <tspan> lines (from `wrap`), its first baseline at `y`."""
    spans = "".join(f'<tspan x="{x}" dy="{0 if i == 0 else CAPTION_LINE}">{escape(line)}</tspan>'
                    for i, line in enumerate(lines))
    return f'<text x="{x}" y="{y}" font-size="{size}" font-weight="bold" fill="{colour}" {FONT}>{spans}</text>'
