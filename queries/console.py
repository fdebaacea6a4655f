"""The UI's read-only Cypher console: a statement runs only if its plan is a plain read of the game graph.

Safety does not rest on reading the text (a keyword filter can be talked past:
a comment ended by a bare carriage return, a keyword in backticks, a procedure
that administers while "reading"). Neo4j plans the statement first, with the
same parameters (``EXPLAIN``), and it runs only when

- the plan's query type is ``r`` (read only): writes (``w``, ``rw``), schema
  changes and administration commands (``s``) are refused;
- every operator of the plan is on READ_OPERATORS: no LoadCSV, no SHOW command
  (ShowSettings, ShowTransactions, ...), no transaction or write operator;
- a ProcedureCall calls one of READ_PROCEDURES (its name read from the plan,
  where Neo4j has resolved it), so dbms.listConnections, dbms.killConnection,
  db.clearQueryCaches or dbms.listConfig never run;
- every operator runs on the configured database (Neo4j tags each with it), so
  ``USE system`` or another database is refused.

Neo4j itself parses exactly one statement per query, so several statements at
once fail to plan. The statement then runs in a READ access-mode transaction
with a server-side timeout, and at most row_cap rows are pulled. Parameters go
to the server as values, never spliced into the text. The server is hardened
as well (loaders/launcher: no file URLs or network addresses for LOAD CSV, an
empty import folder, a minimal procedure allowlist), so whatever might slip
past this check could read nothing outside the graph.
"""

from __future__ import annotations

import math
import re
from typing import Any

import neo4j
from neo4j.graph import Node, Path, Relationship

from explorer.core.errors import QueryError
from queries.neo4j_backend import read_rows
from queries.results import ConsoleResult

MAX_ROW_CAP = 100_000
MAX_TEXT = 20_000          # characters: far above any hand-written query, far below a memory problem
MAX_PARAM_DEPTH = 32

# The operators a read of the graph plans to (Neo4j 5 Cypher manual, "Operators"), by
# name without their "(All)", "(Into)", ... variant and "@database" tag. Anything else
# (LoadCSV, Create, Merge, Foreach, TransactionApply, Show*, AdministrationCommand, ...)
# is refused: a new or unknown operator is refused until someone has looked at it.
READ_OPERATORS = frozenset("""
    ProduceResults EmptyResult EmptyRow Argument ArgumentTracker
    AllNodesScan NodeByLabelScan UnionNodeByLabelsScan IntersectionNodeByLabelsScan SubtractionNodeByLabelsScan
    PartitionedAllNodesScan PartitionedNodeByLabelScan PartitionedUnionNodeByLabelsScan
    PartitionedIntersectionNodeByLabelsScan PartitionedSubtractionNodeByLabelsScan
    NodeByIdSeek NodeByElementIdSeek NodeIndexSeek NodeUniqueIndexSeek NodeIndexSeekByRange
    NodeUniqueIndexSeekByRange NodeIndexContainsScan NodeIndexEndsWithScan NodeIndexScan
    MultiNodeIndexSeek AssertingMultiNodeIndexSeek AssertingMultiRelationshipIndexSeek
    PartitionedNodeIndexSeek PartitionedNodeIndexScan PartitionedNodeIndexSeekByRange
    DirectedAllRelationshipsScan UndirectedAllRelationshipsScan
    DirectedRelationshipTypeScan UndirectedRelationshipTypeScan
    DirectedUnionRelationshipTypesScan UndirectedUnionRelationshipTypesScan
    DirectedRelationshipIdSeek UndirectedRelationshipIdSeek
    DirectedRelationshipByElementIdSeek UndirectedRelationshipByElementIdSeek
    DirectedRelationshipIndexSeek UndirectedRelationshipIndexSeek
    DirectedRelationshipUniqueIndexSeek UndirectedRelationshipUniqueIndexSeek
    DirectedRelationshipIndexSeekByRange UndirectedRelationshipIndexSeekByRange
    DirectedRelationshipUniqueIndexSeekByRange UndirectedRelationshipUniqueIndexSeekByRange
    DirectedRelationshipIndexScan UndirectedRelationshipIndexScan
    DirectedRelationshipIndexContainsScan UndirectedRelationshipIndexContainsScan
    DirectedRelationshipIndexEndsWithScan UndirectedRelationshipIndexEndsWithScan
    NodeCountFromCountStore RelationshipCountFromCountStore
    Expand OptionalExpand VarLengthExpand BFSPruningVarLengthExpand Repeat Trail NullifyMetadata
    StatefulShortestPath ShortestPath AllShortestPaths LegacyFindShortestPaths ProjectEndpoints
    Apply SemiApply AntiSemiApply LetSemiApply LetAntiSemiApply SelectOrSemiApply SelectOrAntiSemiApply
    LetSelectOrSemiApply LetSelectOrAntiSemiApply ConditionalApply AntiConditionalApply RollUpApply
    Optional Anti CartesianProduct NodeHashJoin ValueHashJoin NodeLeftOuterHashJoin NodeRightOuterHashJoin
    AssertSameNode AssertSameRelationship TriadicSelection TriadicBuild TriadicFilter
    Filter Projection CacheProperties Limit ExhaustiveLimit Skip Sort PartialSort Top PartialTop Top1WithTies
    Distinct OrderedDistinct EagerAggregation OrderedAggregation Aggregation Unwind PartitionedUnwind
    Union OrderedUnion Eager ProcedureCall
""".split())

# Procedures that only list the graph's own vocabulary. Each is also on the server's
# procedure allowlist (loaders/launcher, PROCEDURE_ALLOWLIST).
READ_PROCEDURES = frozenset({"db.labels", "db.relationshipTypes", "db.propertyKeys"})

_PROCEDURE_NAME = re.compile(r"\s*([\w.`]+)\s*\(")
_WHAT = {"LoadCSV": "LOAD CSV", "AdministrationCommand": "an administration command",
         "TransactionApply": "CALL { ... } IN TRANSACTIONS", "TransactionForeach": "CALL { ... } IN TRANSACTIONS"}


def check_read_only(text: str) -> None:
    """The checks on the text alone, before Neo4j is asked: not empty, not huge. O(len(text)).

    They give a friendlier message early; what may run is decided by the plan (check_plan).
    """
    if not isinstance(text, str) or not text.strip():
        raise QueryError("the Cypher statement is empty")
    if len(text) > MAX_TEXT:
        raise QueryError(f"the Cypher statement has {len(text):,} characters; the console takes at most {MAX_TEXT:,}")


def check_params(params: Any) -> dict[str, Any]:
    """Parameters as plain JSON values under string names (the driver sends them as values,
    never as Cypher text); QueryError otherwise. O(size of params)."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise QueryError(f"the parameters must be a JSON object of name: value, not {type(params).__name__}")

    def check(value: Any, where: str, depth: int) -> None:
        if depth > MAX_PARAM_DEPTH:
            raise QueryError(f"parameter {where} is nested more than {MAX_PARAM_DEPTH} levels deep")
        if isinstance(value, float) and not math.isfinite(value):
            raise QueryError(f"parameter {where} is {value!r}, which JSON cannot hold")
        if value is None or isinstance(value, (bool, int, float, str)):
            return
        if isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                check(item, f"{where}[{i}]", depth + 1)
            return
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise QueryError(f"parameter {where} has a key {key!r} that is not a string")
                check(item, f"{where}.{key}", depth + 1)
            return
        raise QueryError(f"parameter {where} is a {type(value).__name__}; parameters are JSON values only")

    for name, value in params.items():
        if not isinstance(name, str) or not name:
            raise QueryError(f"parameter name {name!r} is not a non-empty string")
        check(value, f"${name}", 0)
    return dict(params)


def operators(plan: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(operator, database, details) of every operator in an EXPLAIN plan tree, root first: O(plan size)."""
    found, stack = [], [plan]
    while stack:
        node = stack.pop()
        name, _, database = str(node.get("operatorType", "")).partition("@")
        found.append((name, database, str((node.get("args") or {}).get("Details") or "")))
        stack.extend(reversed(node.get("children") or []))
    return found


def procedure_name(details: str) -> str:
    """The procedure a ProcedureCall's details name ("db.labels() :: (label :: STRING)" -> "db.labels")."""
    match = _PROCEDURE_NAME.match(details)
    return match[1].replace("`", "") if match else ""


def check_plan(summary: neo4j.ResultSummary, database: str) -> None:
    """QueryError unless the EXPLAIN summary is a read-only plan, on `database`, of allowed operators only."""
    refuse = "the read-only Cypher console refused this statement"
    if summary.database and summary.database != database:
        raise QueryError(f"{refuse}: it runs on database {summary.database!r}, not {database!r}")
    if not summary.plan:
        raise QueryError(f"{refuse}: Neo4j gave no plan for it, so it cannot be checked")
    plan = operators(summary.plan)
    for name, on, details in plan:  # the procedure by name first: a clearer message than the query type
        if on and on != database:
            raise QueryError(f"{refuse}: it uses database {on!r}, not {database!r}")
        if name.split("(", 1)[0] == "ProcedureCall" and procedure_name(details) not in READ_PROCEDURES:
            raise QueryError(f"{refuse}: procedure {procedure_name(details) or details!r} is not allowed here "
                             f"(allowed: {', '.join(sorted(READ_PROCEDURES))})")
    if summary.query_type != "r":
        what = {"w": "writes", "rw": "reads and writes", "s": "changes the schema or administers the server"}
        raise QueryError(f"{refuse}: it {what.get(summary.query_type, 'is not a read')} "
                         "(the graph is changed only by `gamegraph load`)")
    for name, _, _ in plan:
        base = name.split("(", 1)[0]
        if base not in READ_OPERATORS:
            shown = _WHAT.get(base) or ("a SHOW command" if base.startswith("Show") else f"the {name} operator")
            raise QueryError(f"{refuse}: {shown} is not allowed here")


_POSITION = re.compile(r"\(line (\d+), column (\d+) \(offset: (\d+)\)\)")


def _without_explain(message: str) -> str:
    """Neo4j's error about "EXPLAIN <text>" as if about the text: positions moved back by the
    prefix, and the echo of the statement after them dropped (the page shows the text)."""
    shift = len("EXPLAIN ")
    found = _POSITION.search(message)
    if not found:
        return message.split(' "EXPLAIN ', 1)[0]
    line, column, offset = int(found[1]), int(found[2]), int(found[3])
    column = max(1, column - shift) if line == 1 else column
    return f"{message[:found.start()]}(line {line}, column {column} (offset: {max(0, offset - shift)}))"


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
    """Runs one statement if its plan is a read of the graph (check_plan), with a server-side
    timeout and at most row_cap rows.

    The plan and the run share one READ transaction, so the timeout covers both.
    A refused plan, a write, a timeout, a syntax error (several statements
    included) or a timeout_s outside (0, 600] raise QueryError with one clear
    line. Cost: planning plus the query's own, bounded by timeout_s.
    """
    if isinstance(row_cap, bool) or not isinstance(row_cap, int) or not 1 <= row_cap <= MAX_ROW_CAP:
        raise QueryError(f"row_cap={row_cap!r} is out of range: it must be a whole number from 1 to {MAX_ROW_CAP}")
    check_read_only(text)
    params = check_params(params)

    planning = []

    def vet(tx: neo4j.ManagedTransaction) -> None:
        planning.append(True)
        summary = tx.run("EXPLAIN " + text, params).consume()
        planning.clear()
        check_plan(summary, database)

    try:
        columns, rows, truncated = read_rows(driver, database, text, params, timeout_s, max_rows=row_cap,
                                             what="the Cypher statement", vet=vet)
    except QueryError as error:
        if not planning:
            raise
        if "Expected exactly one statement" in str(error):
            raise QueryError("the Cypher console runs one statement at a time: remove the `;` and what follows "
                             "it") from None
        raise QueryError(_without_explain(str(error))) from None
    return ConsoleResult(columns=columns, rows=[[plain(v) for v in row] for row in rows],
                         truncated=truncated, row_cap=row_cap)
