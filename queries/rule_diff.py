"""`gamegraph diff --backend neo4j`: the rule-set diff asked of two games loaded in Neo4j.

Same report as explorer.analysis.diff (which the tests compare it with), from
one read-only statement, queries/rule-diff.cypher: O(V1 + V2) index seeks.
"""

from __future__ import annotations

from pathlib import Path

import neo4j

from explorer.analysis.diff import report, same_game
from queries.neo4j_backend import DEFAULT_TIMEOUT_S, Neo4jBackend, read_rows

CYPHER = Path(__file__).with_name("rule-diff.cypher")
FIELDS = ("key", "before", "before_remoteness", "after", "after_remoteness")  # explorer.analysis.diff's order


def neo4j_diff(driver: neo4j.Driver, database: str, first_id: str, second_id: str,
               timeout_s: float = DEFAULT_TIMEOUT_S) -> dict:
    """The diff of two loaded games (Game ids); QueryError naming the command to run when either is not loaded."""
    games = [Neo4jBackend(driver, database, game_id, timeout_s) for game_id in (first_id, second_id)]
    same_game(games[0].game.name, games[1].game.name)
    ids = [first_id, second_id]
    _, rows, _ = read_rows(driver, database, CYPHER.read_text(), {"first": ids[0], "second": ids[1]}, timeout_s,
                           what="the rule-set diff")
    first_positions, second_positions, first_start, second_start, shared, changed = rows[0]
    return report(games[0].game.id, games[1].game.id, [first_positions, second_positions], shared,
                  [{name: row[name] for name in FIELDS} for row in changed], first_start, second_start)
