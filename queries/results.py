"""The plain result types every query returns, whichever backend ran it.

A QueryResult is a few named tables of JSON-ready scalars (str, int, bool, None)
or lists of them, sorted deterministically, so results from Neo4j and networkx
compare equal with ``==`` and print or serialise without special cases.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Table:
    columns: list[str]
    rows: list[list[Any]]

    def records(self) -> list[dict[str, Any]]:
        """Rows as dicts keyed by column: O(rows * columns)."""
        return [dict(zip(self.columns, row)) for row in self.rows]

    def column(self, name: str) -> list[Any]:
        at = self.columns.index(name)
        return [row[at] for row in self.rows]


@dataclass
class QueryResult:
    """One query's answer.

    query: the query name; game: the graph id; params: the validated arguments
    (position keys canonical); tables: name -> Table, in a fixed order;
    truncated: the row cap was hit; notes: plain sentences for people
    (the row cap, an empty answer's reason); positions, moves: the line of a
    shortest-win as plain lists (the same as its table's key and label columns).
    """

    query: str
    game: str
    params: dict[str, Any]
    tables: dict[str, Table]
    truncated: bool = False
    notes: list[str] = field(default_factory=list)
    # A line of play (shortest-win): its position keys from start to end, and the
    # labels of the moves between them (one fewer). None for other queries.
    positions: list[str] | None = None
    moves: list[str] | None = None

    def table(self, name: str) -> Table:
        return self.tables[name]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; `positions` and `moves` appear only for a line of play."""
        return {k: v for k, v in asdict(self).items() if k not in ("positions", "moves") or v is not None}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


@dataclass
class ConsoleResult:
    """What the read-only Cypher console returns: the columns, the rows (JSON-ready) and whether the cap cut them."""

    columns: list[str]
    rows: list[list[Any]]
    truncated: bool
    row_cap: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def format_cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " > ".join(format_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def format_table(table: Table) -> str:
    """A fixed-width text table: O(rows * columns)."""
    cells = [[format_cell(v) for v in row] for row in table.rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(table.columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(table.columns, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines)


def format_result(result: QueryResult) -> str:
    """The whole result as text: one titled table per section, then the notes."""
    parts = [f"{result.query} on {result.game}" + "".join(
        f", {k}={format_cell(v)}" for k, v in result.params.items())]
    for name, table in result.tables.items():
        parts.append(f"\n[{name}] ({len(table.rows)} row{'' if len(table.rows) == 1 else 's'})")
        parts.append(format_table(table) if table.rows else "(none)")
    parts += [f"\nnote: {note}" for note in result.notes]
    return "\n".join(parts)
