"""What both backends share: the game behind a graph id, and canonical position keys.

A graph id is ``Game.id``, with ``[nosym]`` appended when the graph was built
without symmetry reduction (explorer.graph.GameGraph.graph_id).
"""

from __future__ import annotations

import time

from explorer.core.errors import QueryTimeout
from explorer.games import Game, parse_spec
from explorer.graph import graph_id, parse_graph_id as game_of
from queries.catalog import DEFAULT_TIMEOUT_S  # seconds a named query may run, on either backend

__all__ = ["DEFAULT_TIMEOUT_S", "Deadline", "canonical_key", "game_from_properties", "game_of", "graph_id", "timeout_error"]


def timeout_error(what: str, timeout_s: float) -> QueryTimeout:
    """The one message of a query stopped by its timeout, whichever backend ran it."""
    return QueryTimeout(f"{what} took longer than the {timeout_s:g} s timeout and was stopped; "
                        "narrow it (a smaller bound or limit) or raise the timeout")


class Deadline:
    """A cooperative timeout for loops in Python: check() raises QueryTimeout once timeout_s has passed.

    The clock is read every EVERY calls, so a check costs a counter increment;
    None means no timeout.
    """

    EVERY = 256

    def __init__(self, timeout_s: float | None, what: str):
        self.timeout_s, self.what = timeout_s, what
        self.end = None if timeout_s is None else time.monotonic() + timeout_s
        self._calls = 0

    def check(self) -> None:
        self._calls += 1
        if self.end is not None and self._calls % self.EVERY == 0:
            self.now()

    def now(self) -> None:
        """Reads the clock at once (after a step that may itself have been long)."""
        if self.end is not None and time.monotonic() > self.end:
            raise timeout_error(self.what, self.timeout_s)


def game_from_properties(props: dict, graph_id_text: str) -> tuple[Game, bool]:
    """(Game, symmetry) from the Game properties of docs/model.md (`spec`, `symmetry`).

    The display spec is used rather than the id, so graphs loaded under another
    id (tests do that) still resolve; without it the id is parsed.
    """
    if props.get("spec"):
        game = parse_spec(props["spec"])
        return game, bool(props.get("symmetry", True)) and game.has_symmetry()
    return game_of(graph_id_text)


def canonical_key(game: Game, symmetry: bool, text: str) -> str:
    """The stored key of a position given in the game's notation; InvalidPosition if it does not parse."""
    return game.key(game.parse(text), symmetry)
