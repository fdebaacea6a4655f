"""What both backends share: the game behind a graph id, and canonical position keys.

A graph id is ``Game.id``, with ``[nosym]`` appended when the graph was built
without symmetry reduction (explorer.graph.GameGraph.graph_id).
"""

from __future__ import annotations

from explorer.games import Game, parse_spec

NOSYM = "[nosym]"


def graph_id(game: Game, symmetry: bool = True) -> str:
    """The id a game's graph is stored under: the one `load` and `mirror_for` use."""
    return game.id if symmetry and game.has_symmetry() else f"{game.id}{NOSYM}"


def game_of(graph_id_text: str) -> tuple[Game, bool]:
    """(the Game, whether its graph is symmetry-reduced) for a stored graph id."""
    symmetric = not graph_id_text.endswith(NOSYM)
    game = parse_spec(graph_id_text[:-len(NOSYM)] if not symmetric else graph_id_text)
    return game, symmetric and game.has_symmetry()


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
