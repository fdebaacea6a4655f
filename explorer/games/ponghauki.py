"""Pong Hau K'i (Chinese 崩口棋, Korean Umul Gonu): two pieces each on five points; block to win.

Board: the four corners of a square and its centre. The centre is joined to
every corner; three sides are lines, the bottom side (the "broken mouth")
is not. Points: ``tl tr`` (top), ``c`` (centre), ``bl br`` (bottom). Red starts
on the two bottom corners, Blue on the two top corners, the centre empty, and
Red moves first. A move slides a piece along a line to the empty point; a
player who cannot move loses.

Notation: ``R|BB/./RR`` = the mover (R or B), then the top row, the centre and
the bottom row. Symmetry: the left-right mirror.

Published analysis the tests check (tests/games/test_ponghauki.py): Philip D.
Straffin Jr., "Position Graphs for Pong Hau K'i and Mu Torere", Mathematics
Magazine 68(5), 382-386 (1995), summarised by Wikipedia's "Pong Hau K'i" and
MathWorld's "Pong Hau K'i": the first three moves are forced, only one kind of
position is lost (up to mirror and colours: ``R|BR/B/.R``, Red's pieces on the
right side, the gap in the bottom-left corner shut in by Blue on the centre
and the top-left corner), the game is a draw, and looking two moves ahead (a
move and the reply) is enough never to lose.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.games.base import Offers, Params
from explorer.games.blocking import BlockingGame, Slide
from explorer.games.table import register

TL, TR, C, BL, BR = range(5)
LINES = ((TL, TR), (TL, BL), (TR, BR), (TL, C), (TR, C), (BL, C), (BR, C))


@dataclass(frozen=True)
class PongHauKiParams(Params):
    pass


@register
class PongHauKi(BlockingGame):
    name = "ponghauki"
    description = "Pong Hau K'i: five points, two pieces each, slide to the empty point; no move loses."
    Params = PongHauKiParams
    presets = {"standard": {}}
    notation_help = "MOVER|top/centre/bottom, e.g. R|BB/./RR (R or B to move)"
    points = ("tl", "tr", "c", "bl", "br")
    groups = ((TL, TR), (C,), (BL, BR))
    letters = ("R", "B")
    offers = Offers(arrays=True, compiled_moves=False, ranking=True, unmoves=True, implicit_kernels=False,
                    symmetry=True, cgt=None, board="ponghauki", player_names=("Red", "Blue"),
                    swap_players=True, diagram_label=True)
    symmetries = ((TL, TR, C, BL, BR), (TR, TL, C, BR, BL))

    def start_cells(self) -> str:
        return "BB.RR"

    def slides(self) -> list[Slide]:
        return [Slide(a, b) for line in LINES for a, b in (line, line[::-1])]
