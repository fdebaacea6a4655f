"""Game-theoretic values, always relative to the player to move."""

from __future__ import annotations

from enum import IntEnum


class Value(IntEnum):
    """The value of a position for the player to move.

    The integer order is the players' preference order: loss < draw < tie < win.
    A *tie* ends level; a *draw* never ends under optimal play.
    """

    LOSS = 0
    DRAW = 1
    TIE = 2
    WIN = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Value":
        return cls[text.strip().upper()]

    def for_previous_player(self) -> "Value":
        """The same outcome seen by the player who moved into the position."""
        return _FLIP[self]

    @property
    def symbol(self) -> str:
        """The chart symbol: + forced win, - forced loss, = tie, blank draw."""
        return _SYMBOLS[self]

    @classmethod
    def from_symbol(cls, symbol: str) -> "Value":
        """Inverse of `symbol` (surrounding blanks ignored, so "" is a draw)."""
        return {s.strip(): v for v, s in _SYMBOLS.items()}[symbol.strip()]


_SYMBOLS = {Value.WIN: "+", Value.LOSS: "-", Value.TIE: "=", Value.DRAW: " "}
_FLIP = {Value.LOSS: Value.WIN, Value.WIN: Value.LOSS, Value.TIE: Value.TIE, Value.DRAW: Value.DRAW}

# Encoded in the solver's int8 arrays; UNSOLVED never survives a finished solve.
UNSOLVED = -1
