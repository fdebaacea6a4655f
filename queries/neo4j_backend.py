"""The named queries run on Neo4j, from the .cypher files, in read transactions with a timeout.

Every statement goes through `read_rows`: a READ access-mode session and
``session.execute_read`` (Neo4j itself refuses writes there), a server-side
transaction timeout (``neo4j.unit_of_work(timeout=...)``, the managed-transaction
form of ``neo4j.Query(text, timeout=...)``, checked by `check_timeout`), and a
cap on the rows pulled.
Driver errors become the project's errors, folded to one clear line.
"""

from __future__ import annotations

from typing import Any, Callable

import neo4j
from neo4j.exceptions import ClientError, DriverError, Neo4jError, ServiceUnavailable, SessionExpired

from explorer.core.errors import shell_hint
from explorer.core.errors import GameGraphError, Neo4jUnavailable, QueryError
from explorer.games import parse_spec
from loaders.settings import driver_reason
from queries import catalog
from queries.catalog import DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S, check_timeout  # noqa: F401  (the CLI reads them without the driver)
from queries.common import game_from_properties, game_of, graph_id, timeout_error

# Reads are retried once, about a second later (a pooled connection the server dropped
# is replaced), not for the driver's default 30 s: a server that refused a connection
# will not be back in a second, and the UI and the CLI should say so at once.
READ_RETRY_S = 0.5

Rows = list[list[Any]]


def read_rows(driver: neo4j.Driver, database: str, text: str, params: dict[str, Any] | None,
              timeout_s: float, max_rows: int | None = None, what: str = "the query",
              vet: Callable[[neo4j.ManagedTransaction], None] | None = None,
              row_bytes: Callable[[list[Any]], int] | None = None, max_bytes: int | None = None,
              fetch_size: int = 1000) -> tuple[list[str], Rows, bool]:
    """(columns, rows, truncated) of one read-only statement. Pulls at most max_rows rows (+1 to detect the cap).

    vet, when given, runs first in the same transaction (the console plans the
    statement there) and raises to stop it. With row_bytes and max_bytes, the
    rows also stop (truncated) before their measured size passes max_bytes; the
    driver holds at most fetch_size records at a time. QueryError for a timeout
    outside (0, MAX_TIMEOUT_S], before anything is sent.
    """
    check_timeout(timeout_s)

    @neo4j.unit_of_work(timeout=timeout_s)
    def work(tx: neo4j.ManagedTransaction) -> tuple[list[str], Rows, bool]:
        if vet is not None:
            vet(tx)
        result = tx.run(text, params or {})
        columns, rows, size = list(result.keys()), [], 0
        for record in result:
            if max_rows is not None and len(rows) >= max_rows:
                return columns, rows, True
            row = list(record.values())
            if row_bytes is not None and max_bytes is not None:
                size += row_bytes(row)
                if size > max_bytes:
                    return columns, rows, True
            rows.append(row)
        return columns, rows, False

    try:
        with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS,
                            max_transaction_retry_time=READ_RETRY_S, fetch_size=fetch_size) as session:
            return session.execute_read(work)
    except (ServiceUnavailable, SessionExpired) as error:
        raise Neo4jUnavailable(f"Neo4j stopped answering while running {what}: {driver_reason(error)}") from None
    except ClientError as error:
        raise _client_error(error, what, timeout_s) from None
    except Neo4jError as error:
        if "Terminated" in (error.code or "") or "TimedOut" in (error.code or ""):
            raise _timeout(what, timeout_s) from None
        raise QueryError(f"Neo4j could not run {what}: {_one_line(error.message or error.code)}") from None
    except DriverError as error:
        raise QueryError(f"Neo4j could not run {what}: {_one_line(error)}") from None


def _one_line(text: object) -> str:
    """Neo4j's messages span lines (a syntax error draws a caret); the CLI prints one."""
    return " ".join(str(text).split())


def _timeout(what: str, timeout_s: float) -> QueryError:
    return timeout_error(what, timeout_s)


def _client_error(error: ClientError, what: str, timeout_s: float) -> QueryError:
    code = error.code or ""
    if "TransactionTimedOut" in code or code.endswith("Transaction.Terminated"):
        return _timeout(what, timeout_s)
    if code == "Neo.ClientError.Statement.AccessMode" or "read access mode" in (error.message or "").lower():
        return QueryError(f"{what} tries to write, and this is read-only: Neo4j refused it "
                          f"({_one_line(error.message)})")
    return QueryError(f"Neo4j rejected {what}: {_one_line(error.message or code)}")


class Neo4jBackend:
    """Queries over a game already loaded into Neo4j (docs/model.md); checks that it is there."""

    kind = "neo4j"

    def __init__(self, driver: neo4j.Driver, database: str, game_id: str, timeout_s: float = DEFAULT_TIMEOUT_S):
        self.driver, self.database, self.game_id, self.timeout_s = driver, database, game_id, timeout_s
        _, rows, _ = read_rows(driver, database, "MATCH (g:Game {id: $game}) WHERE g.complete RETURN properties(g)",
                               {"game": game_id}, timeout_s, what="the game lookup")
        if not rows:
            raise QueryError(f"{' '.join(_spec_of(game_id))} is not loaded into Neo4j (database {database!r}): "
                             f"run `{shell_hint('load', *_spec_of(game_id))}` first")
        self.properties: dict[str, Any] = rows[0][0]
        self.game, self.symmetry = game_from_properties(self.properties, game_id)
        self.start_key: str = self.properties["start_key"]

    @classmethod
    def for_spec(cls, driver: neo4j.Driver, database: str, spec: str, symmetry: bool = True,
                 timeout_s: float = DEFAULT_TIMEOUT_S) -> "Neo4jBackend":
        """The backend of a game spec as `gamegraph load SPEC` stored it."""
        return cls(driver, database, graph_id(parse_spec(spec), symmetry), timeout_s)

    def position(self, key: str) -> dict[str, Any] | None:
        """The Position's properties, or None when it is not stored: one index seek."""
        _, rows, _ = read_rows(self.driver, self.database,
                               "MATCH (p:Position {game: $game, key: $key}) RETURN properties(p) LIMIT 1",
                               {"game": self.game_id, "key": key}, self.timeout_s, what="the position lookup")
        return rows[0][0] if rows else None

    def run(self, name: str, args: dict[str, Any]) -> dict[str, Rows]:
        """Runs ``queries/<name>.cypher`` and reshapes its rows into the tables networkx returns."""
        text = catalog.render(name, {k: v for k, v in args.items() if k in ("k", "max_length")})
        params: dict[str, Any] = {"game": self.game_id}
        if "position" in args:
            params["key"] = args["position"]
        for name_in, name_out in (("to", "to"), ("direction", "direction"), ("fetch", "limit"), ("value", "cgt")):
            if name_in in args:
                params[name_out] = args[name_in]
        _, rows, _ = read_rows(self.driver, self.database, text, params, self.timeout_s, what=f"query {name!r}")
        if name in _SHAPES:
            return _SHAPES[name](rows)
        (table,) = catalog.spec(name).tables  # every other query returns its one table as rows
        return {table: rows}


def _spec_of(game_id: str) -> list[str]:
    """How a user names the game of a graph id on the command line, as words."""
    try:
        game, symmetry = game_of(game_id)
    except GameGraphError:
        return [game_id]
    return [game.display_name, *([] if symmetry or not game.has_symmetry() else ["--no-symmetry"])]


def _stats(rows: Rows) -> dict[str, Rows]:
    by_value, by_remoteness, longest, busiest = rows[0] if rows else ([], [], [], [])
    return {"by_value": [[m["value"], m["positions"]] for m in by_value],
            "by_remoteness": [[m["value"], m["remoteness"], m["positions"]] for m in by_remoteness],
            "longest_win": [[m["key"], m["remoteness"]] for m in longest],
            "most_moves": [[m["key"], m["moves"], m["value"]] for m in busiest]}


def _neighbourhood(rows: Rows) -> dict[str, Rows]:
    return {"positions": [row[:-1] + [[dict(m) for m in row[-1]]] for row in rows]}


def _draw_kinds(rows: Rows) -> dict[str, Rows]:
    summary, sharpest = rows[0] if rows else ([], [])
    return {"summary": [[m["kind"], m["positions"]] for m in summary],
            "sharpest": [[m["key"], m["losing_moves"], m["fastest_loss"]] for m in sharpest]}


def _draw_levels(rows: Rows) -> dict[str, Rows]:
    levels, deepest = rows[0] if rows else ([], [])
    return {"levels": [[m["level"], m["class"], m["positions"]] for m in levels],
            "deepest": [[m["key"], m["class"], m["level"], m["draw_remoteness"]] for m in deepest]}


_SHAPES = {"stats": _stats, "neighbourhood": _neighbourhood, "draw-kinds": _draw_kinds, "draw-levels": _draw_levels}
