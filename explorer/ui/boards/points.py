"""Boards of points joined by lines, with pieces on them (Mū tōrere, Pong Hau K'i).

A piece that can move is ringed and is a link playing its move: in these
games the empty point is the only destination, so one click names the move.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from explorer.games.blocking import BlockingGame, BoardPosition
from explorer.render.palette import BOARD_LINE, INK_FAINT, NAME_POINTS, NEUTRAL_MARK, PAPER_POINTS, PLAYERS, PlayerColour
from explorer.ui.boards.caption import turn_caption
from explorer.ui.boards.grid import CAPTION_LINE, caption, wrap

# The players' colours and the neutral mark of a movable piece come from explorer/render/palette.py:
# the rings take the value colours, so neither a piece nor an uncoloured ring may look like one.
PIECE_COLOURS = {0: PLAYERS["black"], 1: PLAYERS["white"]}
LINE, MOVABLE, TURN = BOARD_LINE, NEUTRAL_MARK, NEUTRAL_MARK


def svg(game: BlockingGame, position: BoardPosition, links: dict[str, str],
        xy: Sequence[tuple[float, float]], lines: Sequence[tuple[int, int]], size: tuple[int, int],
        colours: dict[int, PlayerColour] = PIECE_COLOURS, radius: float = 22) -> str:
    """The board: `xy` point coordinates, `lines` to draw, `size` the picture's width and height."""
    width, height = size
    mover = position.to_move
    by_source = {}
    for slide in game._templates():
        label = game.label_of(slide)
        if label in links:
            by_source[slide.source] = (label, links[label])
    names = game.offers.player_names or ("first", "second")
    said = turn_caption(game, position)  # "Black to move", or why the game is over
    said_lines = wrap(said, width - 48, 14)
    band = 40 + (len(said_lines) - 1) * CAPTION_LINE  # the caption's band below the board
    describe = f"{said}; " + ", ".join(
        f"{game.points[i]}: {names[game.letters.index(c)] if c != '.' else 'empty'}" for i, c in enumerate(position.cells))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + band}" '
           f'viewBox="0 0 {width} {height + band}" role="img" aria-label="{escape(describe)}">',
           f'<rect x="0" y="0" width="{width}" height="{height + band}" rx="12" fill="{PAPER_POINTS}"/>']
    for a, b in lines:
        (x1, y1), (x2, y2) = xy[a], xy[b]
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{LINE}" stroke-width="4" '
                   'stroke-linecap="round"/>')
    for i, (x, y) in enumerate(xy):
        out.append(f'<text x="{x + radius + 2}" y="{y - radius + 4}" font-size="11" fill="{NAME_POINTS}" '
                   f'font-family="sans-serif">{escape(game.points[i])}</text>')
        cell = position.cells[i]
        if cell == ".":
            out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{LINE}"/>')
            continue
        player = game.letters.index(cell)
        fill, rim, text, _ = colours[player]
        piece = (f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{fill}" stroke="{rim}" stroke-width="2"/>'
                 f'<text x="{x}" y="{y + 5}" text-anchor="middle" font-size="14" font-weight="bold" '
                 f'fill="{text}" font-family="sans-serif">{escape(cell)}</text>')
        if i in by_source:
            label, href = by_source[i]
            ring = (f'<circle class="gg-mark-line" cx="{x}" cy="{y}" r="{radius + 5}" fill="none" stroke="{MOVABLE}" '
                    'stroke-width="3" stroke-dasharray="5 3"/>')
            out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>play {escape(label)}</title>'
                       f'{ring}{piece}</a>')
        else:
            out.append(piece)
    fill, rim, _, _ = colours[mover]
    out.append(f'<circle cx="22" cy="{height + 20}" r="9" fill="{fill}" stroke="{rim}" stroke-width="2"/>')
    out.append(caption(said_lines, 38, height + 25, TURN, size=14))
    if by_source:
        out.append(f'<text x="{width - 10}" y="{height + 25}" text-anchor="end" font-size="11" fill="{INK_FAINT}" '
                   'font-family="sans-serif">click a ringed piece</text>')
    out.append("</svg>")
    return "\n".join(out)
