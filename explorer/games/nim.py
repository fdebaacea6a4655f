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

from explorer.errors import InvalidParameter
from explorer.games.base import Game, Move, Params, param
from explorer.games.registry import register
from explorer.values import Value

PLAYER_NAMES = ("A", "B")
MAX_STATES = 10_000_000
MAX_MOVES = 50_000_000


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
    notation_help = "MOVER|h-h-..., e.g. A|1-3-5-7"

    def start(self) -> NimPosition:
        return NimPosition(0, self.params.heaps)

    def to_move(self, position: NimPosition) -> int:
        return position.to_move

    def outcome(self, position: NimPosition) -> Value | None:
        return Value.LOSS if not any(position.heaps) else None

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
        return len(self.params.heaps) > 1

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

    def fields(self, position: NimPosition) -> dict[str, object]:
        return {"heaps": list(position.heaps)}
