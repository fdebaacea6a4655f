"""Positions drawn as players see them (each game's drawing is in explorer/ui/boards/),
the moves on them coloured by value, and the value badge.

Each drawing is an SVG string built from the game's own position object, so
a game without a drawing still shows its notation (never an error).

Move values on the board (GamesmanUni's "show move values"): every drawing wraps a
move in ``<a data-move="label">``, so one pass here colours every game's moves the
same way, whoever drew them: each move's link gets the class ``gg-v-<value>`` (its
value for the mover) and its tooltip the value and remoteness, and a ``<style>``
in the SVG paints the parts a drawing marked ``gg-mark`` (a chip: light fill,
strong border), ``gg-mark-strong`` (an arrow: strong fill, a near-black outline), ``gg-mark-line`` (a ring
or a line: strong stroke) or ``gg-mark-text`` in the palette's colours, each outline in
its value's line style too (palette.DASHES, so that a value is not told by colour alone; an
arrow gets a near-black outline in that style, palette.MARK_OUTLINE, which shows on the light boards); a part of a move drawn outside its link (a
Chopsticks tap's line: only the chip is the target) names it in ``data-for-move`` and gets
its colour inline (explorer/render/palette.py). A plugin's drawing that marks nothing gets its
move's shapes outlined in the value's colour.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from explorer.games import Game
from explorer.render import palette


def position_svg(game: Game, position: Any, links: dict[str, str] | None = None,
                 values: dict[str, tuple[str, int | None]] | None = None) -> str | None:
    """The SVG of `position` (moves as links where the drawing offers them), or None when the
    game has no drawing (explorer/ui/boards finds it). With `values` (move_values), each move
    drawn is coloured by its value for the mover, its remoteness in its tooltip."""
    from explorer.ui.boards import board_svg as find_drawing

    picture = find_drawing(game, position, links)
    return colour_moves(picture, values) if picture and values else picture


def move_values(solved: Any, position: Any) -> dict[str, tuple[str, int | None]]:
    """{move label: (its value for the mover, its remoteness)} for every legal move of `position`,
    from the rules (symmetric twins, one edge in the solved graph, are each a move on the board).
    O(moves)."""
    graph, out = solved.graph, {}
    for move in solved.game.moves(position):
        child = graph.node_of(move.position)
        if child is not None:
            out[move.label] = (str(solved.value(child).for_previous_player()), solved.remoteness(child))
    return out


def value_words(value: str, remoteness: int | None) -> str:
    """'win in 3', 'draw' (a draw has no remoteness)."""
    return value if remoteness is None else f"{value} in {remoteness}"


_MOVE_PART = re.compile(r'(<\w+)( [^>]*?data-for-move="([^"]*)")')
_MOVE_LINK = re.compile(r'<a ([^>]*?)data-move="([^"]*)"([^>]*)>(\s*<title>(.*?)</title>)?', re.S)


def _move_style() -> str:
    rules = []
    for value in palette.VALUES:
        fill, strong = palette.FILLS[value], palette.COLOURS[value]
        v = f".gg-v-{value}"
        dash = palette.DASHES[value]
        rules.append(f"{v} .gg-mark{{fill:{fill};fill-opacity:1;stroke:{strong};stroke-width:2.5;"
                     f"stroke-dasharray:{dash}}}"
                     f"{v} .gg-mark-strong{{fill:{strong};stroke:{palette.MARK_OUTLINE};"
                     f"stroke-width:{palette.MARK_OUTLINE_WIDTH};stroke-dasharray:{dash};stroke-linejoin:round;"
                     f"opacity:1}}"
                     f"{v} .gg-mark-line{{stroke:{strong};stroke-opacity:1;stroke-dasharray:{dash}}}"
                     f"{v} .gg-mark-text{{fill:{strong}}}"
                     f"a{v}:not(:has(.gg-mark,.gg-mark-strong,.gg-mark-line)) > *{{stroke:{strong};stroke-width:3}}")
    return "<style>" + "".join(rules) + "</style>"


def colour_moves(svg: str, values: dict[str, tuple[str, int | None]]) -> str:
    """`svg` with each move link whose label is in `values` classed by its value (gg-v-win ...)
    and titled with its value and remoteness; a style that paints them goes in first. O(len(svg))."""
    by_label = {escape(label): pair for label, pair in values.items()}

    def one(match: re.Match) -> str:
        before, label, after, _, title = match.groups()
        if label not in by_label:
            return match.group(0)
        value, remoteness = by_label[label]
        said = f"{title} — " if title else ""
        tip = f"{said}{value_words(value, remoteness)} for the mover"
        return (f'<a {before}data-move="{label}" data-value="{value}" '
                f'data-remoteness="{"" if remoteness is None else remoteness}" class="gg-move gg-v-{value}"'
                f'{after}><title>{tip}</title>')

    def part(match: re.Match) -> str:  # a piece of a move drawn outside its link (a tap's line)
        pair = by_label.get(match.group(3))
        if pair is None:
            return match.group(0)
        return f'{match.group(1)} style="stroke:{palette.COLOURS[pair[0]]};stroke-opacity:1"{match.group(2)}'

    coloured = _MOVE_PART.sub(part, _MOVE_LINK.sub(one, svg))
    head = coloured.find(">", coloured.find("<svg")) + 1
    return coloured[:head] + _move_style() + coloured[head:]


def move_legend() -> str:
    """One line of HTML saying what the colours and line styles on the board mean."""
    chips = " ".join(f'<span style="color:{palette.COLOURS[v]};font-weight:600">{_swatch(v)} {v}</span>'
                     for v in palette.VALUES)
    return (f'<span style="font-size:0.85rem;color:{palette.INK_SOFT}">Moves coloured by their value for the player who makes them: '
            f'{chips}, and outlined by it too (win solid, loss dotted, tie dashed, draw dash-dot). Hover a move for '
            f'its remoteness (moves left with best play).</span>')


def _swatch(value: str) -> str:
    """A small chip in `value`'s fill, outlined in its colour and line style, as on the board."""
    return (f'<svg width="22" height="12" viewBox="0 0 22 12" style="vertical-align:-1px" aria-hidden="true">'
            f'<rect x="1.25" y="1.25" width="19.5" height="9.5" rx="3" fill="{palette.FILLS[value]}" '
            f'stroke="{palette.COLOURS[value]}" stroke-width="2.5" stroke-dasharray="{palette.DASHES[value]}"/></svg>')


def value_badge(value: str, remoteness: int | None = None) -> str:
    """HTML chip for a value: its palette fill, its strong colour as the border; never broken across
    lines ("loss in" above "77" in a narrow column)."""
    text = value if remoteness is None else f"{value} in {remoteness}"
    return (f'<span style="background:{palette.FILLS.get(value, palette.NO_FACT)};border:1px solid {palette.COLOURS.get(value, palette.RULE)};'
            f'border-radius:0.5rem;padding:0.1rem 0.5rem;font-weight:600;white-space:nowrap">{escape(text)}</span>')
