"""Mū tōrere, the Māori game on an eight-pointed star: block your opponent to win.

Board: eight outer points (kewai) in a ring, numbered 1-8 clockwise from the
top, and the centre (pūtahi, ``c``), joined to every kewai. Each player has
four pieces; Black starts on kewai 1-4, White on 5-8, the pūtahi empty, and
Black moves first. A move slides one piece to the empty point: along the ring
to a neighbouring kewai, from the pūtahi to any kewai, or from a kewai into the
pūtahi, this last only when one of the moving piece's two ring neighbours
holds an opponent's piece (the pūtahi rule; ``putahi=free`` drops it). A
player who cannot move loses. Rules as in Bell, *Board and Table Games from
Many Civilizations* vol. 2 (1969), and Ascher (below).

Notation: ``B|BBBBWWWW/.`` = the mover (B or W), then kewai 1-8, then the
pūtahi. Symmetry: the 16 rotations and reflections of the star.

Published analyses the tests check (tests/games/test_mutorere.py):

- Marcia Ascher, "Mu Torere: An Analysis of a Maori Game", Mathematics
  Magazine 60(2), 90-100 (1987): the flow of the game between the 46
  geometrically distinct boards (92 with the mover), drawn as a graph.
- George Jelliss, "Mu Torere", Games and Puzzles Journal 17
  (https://mayhematics.com/k/games6.htm): 46 boards up to rotation and
  reflection, 8 with the centre empty, 19 with a black and 19 with a white
  piece in the centre.
- Philip D. Straffin Jr., "Position Graphs for Pong Hau K'i and Mu Torere",
  Mathematics Magazine 68(5), 382-386 (1995): the game is a draw.
- GamesCrafters (UC Berkeley) analysis, as quoted by Wikipedia's "Mū tōrere":
  1180 reachable positions, 208 wins, 128 losses, 844 draws; the start is a draw.
- Tony Smith, "The Game of Mu Torere", Scientific Gems (2018,
  https://scientificgems.wordpress.com/2018/02/14/the-game-of-mu-torere/):
  86 reachable game states up to symmetry, 40 boards with either player to
  move plus 6 lost boards.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.games.base import Offers, Params, param
from explorer.games.blocking import BlockingGame, Slide, rotations_and_reflections
from explorer.games.table import register

KEWAI = tuple(range(8))
PUTAHI = 8


@dataclass(frozen=True)
class MuTorereParams(Params):
    putahi: str = param("flanked", "flanked: a piece enters the centre only next to an opponent's piece; "
                        "free: any piece next to the empty centre may enter", choices=("flanked", "free"))


@register
class MuTorere(BlockingGame):
    name = "mutorere"
    description = "Mū tōrere: eight-pointed star, four pieces each, slide to the empty point; no move loses."
    Params = MuTorereParams
    presets = {"standard": {}, "free-putahi": {"putahi": "free"}}
    notation_help = "MOVER|kewai 1-8/pūtahi, e.g. B|BBBBWWWW/. (B or W to move)"
    points = ("1", "2", "3", "4", "5", "6", "7", "8", "c")
    groups = (KEWAI, (PUTAHI,))
    letters = ("B", "W")
    offers = Offers(arrays=True, compiled_moves=False, ranking=True, unmoves=True, implicit_kernels=False,
                    symmetry=True, cgt=None, board="mutorere", player_names=("Black", "White"),
                    swap_players=True, diagram_label=True)
    symmetries = rotations_and_reflections(KEWAI, (PUTAHI,), 9)

    def start_cells(self) -> str:
        return "BBBBWWWW."

    def slides(self) -> list[Slide]:
        ring = [Slide(k, (k + step) % 8) for k in KEWAI for step in (1, -1)]
        flanked = self.params.putahi == "flanked"
        inward = [Slide(k, PUTAHI, ((k - 1) % 8, (k + 1) % 8) if flanked else ()) for k in KEWAI]
        outward = [Slide(PUTAHI, k) for k in KEWAI]
        return ring + inward + outward
