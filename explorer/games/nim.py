"""Nim, normal play: take any number of objects from one heap; who cannot move loses.

Notation: ``A|1-3-5-7`` = player to move (A or B), then the heap sizes.
Symmetry reduction sorts the heaps. Known theory (Bouton): the mover loses
exactly when the xor of the heap sizes is 0 — tests check the solver against it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import NamedTuple

from explorer.core.errors import InvalidParameter
from explorer.games.base import CgtValues, Game, Move, Offers, Params, param
from explorer.games.table import register
from explorer.core.values import Value

PLAYER_NAMES = ("A", "B")
MAX_STATES = 10_000_000
MAX_MOVES = 50_000_000
MAX_CGT_OBJECTS = 40


@dataclass(frozen=True)
class NimParams(Params):
    heaps: tuple[int, ...] = param((1, 3, 5, 7), "starting heap sizes, dash-separated", minimum=0, maximum=1000)

    def validate(self) -> None:
        if not 1 <= len(self.heaps) <= 12:
            raise InvalidParameter(f"heaps={'-'.join(map(str, self.heaps))} must list 1 to 12 heaps")
        states = 2 * math.prod(h + 1 for h in self.heaps)
        if states > MAX_STATES:
            raise InvalidParameter(f"heaps={'-'.join(map(str, self.heaps))} has {states:,} positions; the limit is {MAX_STATES:,}")
        moves = states * sum(self.heaps) // 2  # on average a heap holds half its size
        if moves > MAX_MOVES:
            raise InvalidParameter(f"heaps={'-'.join(map(str, self.heaps))} has about {moves:,} moves; the limit is {MAX_MOVES:,}")


class NimPosition(NamedTuple):
    to_move: int
    heaps: tuple[int, ...]


@register
class Nim(Game[NimPosition]):
    name = "nim"
    description = "Take objects from one heap; whoever cannot move loses."
    Params = NimParams
    presets = {"marienbad": dict(heaps=(1, 3, 5, 7)), "small": dict(heaps=(1, 2, 3))}
    NOTATION_HELP = "MOVER|h-h-..., e.g. {example}"
    notation_help = NOTATION_HELP.format(example="A|1-3-5-7")  # Marienbad's start

    def __init__(self, params: NimParams | None = None, preset: str | None = None):
        super().__init__(params, preset)
        self.notation_help = self.NOTATION_HELP.format(example=self.format(self.start()))  # an example of these heaps
    offers = Offers(arrays=False, compiled_moves=False, ranking=False, unmoves=False, implicit_kernels=False,
                    symmetry=True, cgt=CgtValues(impartial=True), board="nim", player_names=None,
                    swap_players=False, diagram_label=False)

    def start(self) -> NimPosition:
        return NimPosition(0, self.params.heaps)

    def to_move(self, position: NimPosition) -> int:
        return position.to_move

    def outcome(self, position: NimPosition) -> Value | None:
        return Value.LOSS if not any(position.heaps) else None

    def ending(self, position: NimPosition) -> str | None:
        if any(position.heaps):
            return None
        return (f"no object is left, so {PLAYER_NAMES[position.to_move]} cannot move: whoever takes the last "
                f"object wins")

    def moves(self, position: NimPosition) -> list[Move[NimPosition]]:
        result = []
        for i, size in enumerate(position.heaps):
            for take in range(1, size + 1):
                heaps = position.heaps[:i] + (size - take,) + position.heaps[i + 1:]
                result.append(Move(f"take {take} from heap {i + 1}", NimPosition(1 - position.to_move, heaps)))
        return result

    def canonical(self, position: NimPosition) -> NimPosition:
        return NimPosition(position.to_move, tuple(sorted(position.heaps)))

    def has_symmetry(self) -> bool:
        """Heaps in any order are one position, so a single heap has no symmetry to reduce by."""
        return len(self.params.heaps) > 1

    # -- size estimate ------------------------------------------------------------
    def estimate_positions(self, symmetry: bool = True) -> int:
        """Reachable positions: exact without symmetry, an upper bound with it. O(heaps x largest heap).

        Without symmetry every heap vector x <= heaps is reached with both movers,
        except those one unit below the start in each changed heap, which only one
        parity of play reaches: 2 * prod(h + 1) - 2**(non-empty heaps). With
        symmetry, two movers times the sorted vectors under the sorted heaps.
        """
        heaps = self.params.heaps
        if not (symmetry and self.has_symmetry()):
            return 2 * math.prod(h + 1 for h in heaps) - 2 ** sum(1 for h in heaps if h)
        count, _ = self._sorted_vectors()
        return 2 * count

    def estimate_moves(self, symmetry: bool = True) -> int:
        """Objects on the board summed over the positions above (one move per object taken): an upper bound."""
        heaps = self.params.heaps
        if not (symmetry and self.has_symmetry()):
            total = math.prod(h + 1 for h in heaps)
            return 2 * sum(total // (h + 1) * (h * (h + 1) // 2) for h in heaps)
        _, objects = self._sorted_vectors()
        return 2 * objects

    def _sorted_vectors(self) -> tuple[int, int]:
        """(how many non-decreasing vectors lie under the sorted heaps, their summed sizes): dynamic programming.

        A heap vector is dominated by the start's heaps after some matching exactly
        when its sorted form lies under the sorted start, entry by entry.
        """
        limits = sorted(self.params.heaps)
        count = [1] + [0] * limits[-1]       # vectors so far ending in value v
        objects = [0] * (limits[-1] + 1)     # their summed sizes
        for i, limit in enumerate(limits):
            new_count, new_objects = [0] * len(count), [0] * len(count)
            running_count = running_objects = 0
            for v in range(limit + 1):       # previous last value <= v
                running_count += count[v]
                running_objects += objects[v]
                new_count[v] = running_count
                new_objects[v] = running_objects + v * running_count
            count, objects = new_count, new_objects
        return sum(count), sum(objects)

    def format(self, position: NimPosition) -> str:
        return f"{PLAYER_NAMES[position.to_move]}|{'-'.join(map(str, position.heaps))}"

    _NOTATION = re.compile(r"^\s*([AaBb])\s*\|\s*([0-9]+(?:\s*-\s*[0-9]+)*)\s*$")

    def parse(self, text: str) -> NimPosition:
        match = self._NOTATION.match(text)
        if not match:
            raise self.invalid(text, "malformed")
        heaps = tuple(self.count(h, text, "a heap") for h in match[2].split("-"))
        if len(heaps) != len(self.params.heaps):
            raise self.invalid(text, f"this game has {len(self.params.heaps)} heaps, not {len(heaps)}")
        largest = max(self.params.heaps)
        if max(heaps) > largest:
            raise self.invalid(text, f"no heap can exceed {largest}")
        return NimPosition(PLAYER_NAMES.index(match[1].upper()), heaps)

    # -- combinatorial game theory: Nim is impartial, both sides have the same options --
    def cgt_board(self, position: NimPosition) -> tuple[int, ...]:
        return tuple(sorted(position.heaps))

    def cgt_position(self, board: tuple[int, ...], side: int) -> NimPosition:
        return NimPosition(side, board)

    def format_board(self, board: tuple[int, ...]) -> str:
        return "-".join(map(str, board))

    _BOARD = re.compile(r"^\s*(\d{1,4}(?:\s*-\s*\d{1,4}){0,11})\s*$")

    def parse_board(self, text: str) -> tuple[int, ...]:
        """Any heaps, not only this game's: a board can join a sum with other games."""
        match = self._BOARD.match(text[:100] if isinstance(text, str) else "")
        if not match:
            raise self.invalid(text, "a board is 1 to 12 heap sizes of at most 4 digits, e.g. 1-3-5")
        heaps = tuple(sorted(int(h) for h in match[1].split("-")))
        if sum(heaps) > MAX_CGT_OBJECTS:
            raise self.invalid(text, f"combinatorial values are for small heaps: at most {MAX_CGT_OBJECTS} objects in all")
        return heaps

    def fields(self, position: NimPosition) -> dict[str, object]:
        from explorer.cgt.evaluate import cgt_fields

        small = sum(self.params.heaps) <= MAX_CGT_OBJECTS  # values of big games would cost more than the graph
        return {"heaps": list(position.heaps), **(cgt_fields(self, position) if small else {})}
