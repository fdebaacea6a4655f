"""The UI's read-only Cypher console.

Read-only is enforced by Neo4j: the statement runs in a READ access-mode
transaction, where the server refuses any write (a procedure that writes
included). A light keyword check in front rejects the obvious writes and
admin commands with a friendlier message before they reach the server; it is
a convenience, not the guarantee. Results are capped and converted to
JSON-ready values.
"""

from __future__ import annotations

import re
from typing import Any

import neo4j
from neo4j.graph import Node, Path, Relationship

from explorer.errors import QueryError
from queries.neo4j_backend import read_rows
from queries.results import ConsoleResult

MAX_ROW_CAP = 100_000

# Clauses that write or administer; `.set`, `:Create` or `$merge` are names, not clauses.
_WRITE = re.compile(
    r"(?<![\w.:$`])(CREATE|MERGE|DELETE|DETACH|SET|REMOVE|DROP|FOREACH|LOAD\s+CSV|ALTER|GRANT|REVOKE|DENY|RENAME|"
    r"START\s+DATABASE|STOP\s+DATABASE|TERMINATE|IN\s+TRANSACTIONS|USE)(?![\w`])", re.IGNORECASE)
_STRINGS_AND_COMMENTS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.DOTALL)


def check_read_only(text: str) -> None:
    """QueryError when the statement visibly writes or administers (strings and comments ignored): O(len(text))."""
    if not text or not text.strip():
        raise QueryError("the Cypher statement is empty")
    match = _WRITE.search(_STRINGS_AND_COMMENTS.sub(" ", text))
    if match:
        word = " ".join(match[1].upper().split())
        raise QueryError(f"the Cypher console is read-only: {word} is not allowed here "
                         "(the graph is changed only by `gamegraph load`)")


def plain(value: Any) -> Any:
    """A driver value as JSON-ready data: nodes and relationships become dicts of their properties."""
    if isinstance(value, Node):
        return {"_labels": sorted(value.labels), **{k: plain(v) for k, v in value.items()}}
    if isinstance(value, Relationship):
        return {"_type": value.type, **{k: plain(v) for k, v in value.items()}}
    if isinstance(value, Path):
        return {"nodes": [plain(n) for n in value.nodes], "relationships": [plain(r) for r in value.relationships]}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)  # temporal and spatial values


def run_readonly_cypher(driver: neo4j.Driver, database: str, text: str, params: dict[str, Any] | None = None,
                        timeout_s: float = 10.0, row_cap: int = 1000) -> ConsoleResult:
    """Runs one statement read-only, with a server-side timeout and at most row_cap rows.

    A write (caught by the check or refused by Neo4j) or a timeout raises
    QueryError with a clear message; so do a syntax error and a timeout_s
    outside (0, 600] (checked by read_rows). Cost: the query's own, bounded by timeout_s.
    """
    if isinstance(row_cap, bool) or not isinstance(row_cap, int) or not 1 <= row_cap <= MAX_ROW_CAP:
        raise QueryError(f"row_cap={row_cap!r} is out of range: it must be a whole number from 1 to {MAX_ROW_CAP}")
    check_read_only(text)
    columns, rows, truncated = read_rows(driver, database, text, params, timeout_s, max_rows=row_cap,
                                         what="the Cypher statement")
    return ConsoleResult(columns=columns, rows=[[plain(v) for v in row] for row in rows],
                         truncated=truncated, row_cap=row_cap)
