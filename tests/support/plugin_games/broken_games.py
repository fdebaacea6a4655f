"""Deliberately broken game modules for tests/explorer/test_checkgame.py: each breaks one promise.

Each is Pong Hau K'i (a sound, small, loopy game with symmetry, an encoding,
a ranking and un-moves) with one method spoiled, under its own name.
"""

from __future__ import annotations

import random

import numpy as np

from explorer.games.base import MoveBatch
from explorer.games.blocking import BoardPosition
from explorer.games.ponghauki import PongHauKi
from explorer.core.values import Value


class SoundCopy(PongHauKi):
    name = "sound-copy"


class BadNotation(PongHauKi):
    name = "broken-notation"

    def format(self, position):  # forgets who moves
        return super().format(BoardPosition(0, position.cells))


class BadCanonicalIdempotent(PongHauKi):
    name = "broken-canonical-idempotent"

    def canonical(self, position):  # the mirror image, always: applying it twice undoes it
        return BoardPosition(position.to_move, "".join(position.cells[p] for p in self.symmetries[1]))


class BadCanonicalCommutes(PongHauKi):
    name = "broken-canonical-commutes"

    def canonical(self, position):  # idempotent, but swapping the top corners alone is no symmetry
        c = position.cells
        return BoardPosition(position.to_move, min(c, c[1] + c[0] + c[2:]))


class BadOutcomeNeverOver(PongHauKi):
    name = "broken-outcome-never-over"

    def outcome(self, position):
        return None


class BadOutcomeOverTooSoon(PongHauKi):
    name = "broken-outcome-over-too-soon"

    def outcome(self, position):
        return Value.LOSS if position.cells[2] == "." and position != self.start() else super().outcome(position)


class BadNoAlternation(PongHauKi):
    name = "broken-alternation"

    def moves(self, position):
        return [type(m)(m.label, BoardPosition(position.to_move, m.position.cells)) for m in super().moves(position)]


class BadNondeterministic(PongHauKi):
    name = "broken-nondeterministic"

    def moves(self, position):
        found = super().moves(position)
        random.shuffle(found)
        return found


class BadEncoding(PongHauKi):
    name = "broken-encoding"

    def decode(self, code):  # loses the mover
        return BoardPosition(0, super().decode(code).cells)


class BadRanking(PongHauKi):
    name = "broken-ranking"

    def unrank(self, index):
        return super().unrank(index + 1)


class BadUnmoves(PongHauKi):
    name = "broken-unmoves"

    def unmoves(self, position):
        return super().unmoves(position)[1:]  # forgets one


class BadUnmovesExtra(PongHauKi):
    name = "broken-unmoves-extra"

    def unmoves(self, position):
        return [*super().unmoves(position), BoardPosition(1 - position.to_move, "BB.RR")]


class BadArrays(PongHauKi):
    name = "broken-arrays"

    def batch_moves(self, codes, symmetry):  # drops every move into the centre
        batch = super().batch_moves(codes, symmetry)
        keep = np.array([not self.batch_label(int(x)).endswith(">c") for x in batch.label], dtype=bool)
        return MoveBatch(batch.source[keep], batch.target[keep], batch.label[keep])


class BadRaises(PongHauKi):
    name = "broken-raises"

    def moves(self, position):
        if position.cells[2] == "R":
            raise KeyError("centre")
        return super().moves(position)
