"""Play against the game as loaded into Neo4j: `gamegraph play SPEC --backend neo4j`.

The legal moves are still the rules' own (the board as played never turns), but
every value, remoteness, optimal flag and draw grade the opponent and the slip
marks use is read from the Position and MOVE records of the loaded game, one
position's row and its moves at a time, as a database-backed game server
(GamesmanUni's) serves them. Each position is asked for once, at O(its moves).
"""

from __future__ import annotations

from typing import Any

import neo4j

from explorer.algorithms.draw_levels import CLASS_NAMES
from explorer.core.errors import QueryError
from explorer.play import Match
from explorer.core.values import Value
from queries.neo4j_backend import Neo4jBackend, read_rows

_POSITION = ("MATCH (p:Position {game: $game, key: $key}) "
             "OPTIONAL MATCH (p)-[m:MOVE]->(q) "
             "RETURN p.value, p.remoteness, p.draw_class, p.draw_level, p.draw_remoteness, "
             "collect([m.label, q.key, m.optimal]) AS moves")
_CLASS_CODES = {name: code for code, name in CLASS_NAMES.items()}


class Neo4jMatch(Match):
    """A Match whose facts come from Neo4j; the graph of the rules only names nodes and moves."""

    def __init__(self, solved: Any, driver: neo4j.Driver, database: str, timeout_s: float = 30.0,
                 game_id: str | None = None) -> None:
        """game_id: the Game it was loaded as (default: the game's own id, as `gamegraph load` names it)."""
        super().__init__(solved)
        game_id = game_id or solved.graph.graph_id
        loaded = Neo4jBackend(driver, database, game_id, timeout_s)  # QueryError naming `gamegraph load` if absent
        stored = (loaded.properties.get("positions"), loaded.properties.get("moves"))
        if stored != (solved.graph.num_positions, solved.graph.num_moves):
            raise QueryError(f"{game_id} in Neo4j has {stored[0]} positions and {stored[1]} moves, but its rules "
                             f"give {solved.graph.num_positions} and {solved.graph.num_moves}: load it again "
                             "(`gamegraph load ... --replace`)")
        self._driver, self._database, self._game_id, self._timeout_s = driver, database, game_id, timeout_s
        self._rows: dict[int, dict[str, Any]] = {}

    def _row(self, node: int) -> dict[str, Any]:
        row = self._rows.get(node)
        if row is None:
            key = self.solved.graph.key(node)
            _, rows, _ = read_rows(self._driver, self._database, _POSITION, {"game": self._game_id, "key": key},
                                   self._timeout_s, what=f"the position {key}")
            if not rows:
                raise QueryError(f"position {key!r} of {self._game_id} is not in Neo4j: load the game again")
            value, remoteness, draw_class, draw_level, draw_remoteness, moves = rows[0]
            row = self._rows[node] = {
                "value": Value.parse(value), "remoteness": remoteness,
                "draw": (_CLASS_CODES.get(draw_class, -1), -1 if draw_level is None else int(draw_level),
                         -1 if draw_remoteness is None else int(draw_remoteness)),
                "optimal": {(label, target): bool(optimal) for label, target, optimal in moves if label is not None}}
        return row

    def moves(self) -> list[tuple[str, int, bool]]:
        stored, graph = self._row(self.node)["optimal"], self.solved.graph
        moves = []
        for label, target, _ in super().moves():
            flag = stored.get((label, graph.key(target)))
            if flag is None:
                raise QueryError(f"the move {label} from {graph.key(self.node)!r} is not in Neo4j: load the game again")
            moves.append((label, target, flag))
        return moves

    def value(self, node: int) -> Value:
        return self._row(node)["value"]

    def remoteness(self, node: int) -> int | None:
        return self._row(node)["remoteness"]

    def draw_grade(self, node: int) -> tuple[int, int, int]:
        return self._row(node)["draw"]
