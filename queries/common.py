"""What both backends share: the game behind a graph id, and canonical position keys.

A graph id is ``Game.id``, with ``[nosym]`` appended when the graph was built
without symmetry reduction (explorer.graph.GameGraph.graph_id).
"""

from __future__ import annotations

from explorer.games import Game, parse_spec
from explorer.graph import graph_id, parse_graph_id as game_of

__all__ = ["canonical_key", "game_from_properties", "game_of", "graph_id"]


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
