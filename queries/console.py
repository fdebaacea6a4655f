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

Neo4j's timeout stops a statement only between rows: a single expression that
iterates (``reduce``, a list comprehension, ``any``/``all``) over a huge list runs
on, holding a core, after Neo4j has marked it "Terminated" (measured on 5.26:
neither ``db.transaction.timeout``, ``TERMINATE TRANSACTION`` from another
connection nor the transaction memory limits stop it; docs/reliability.md has the
figures). So, further:

- the plan check refuses the shapes that cannot be interrupted and grow without
  bound (check_expressions): ``range()`` inside an expression whose bounds are not
  small literals, parameters or sizes of what is already there, and an
  accumulator that doubles itself (``reduce(s = 'x', i IN ... | s + s)``);
- the caller waits for the answer at most timeout_s + DEADLINE_GRACE_S; a
  statement Neo4j still runs after that is the last resort's: gamegraph's own
  server is restarted (stopped at once, started again in the background), any
  other is named with the advice to restart it;
- the rows are bounded in bytes (MAX_RESULT_BYTES of JSON) as well as in number.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from typing import Any

import neo4j
from neo4j.graph import Node, Path, Relationship

from explorer.core.errors import GameGraphError, Neo4jUnavailable, QueryError
from queries.neo4j_backend import read_rows
from queries.results import ConsoleResult, result_graph

MAX_ROW_CAP = 100_000
MAX_TEXT = 20_000          # characters: far above any hand-written query, far below a memory problem
MAX_PARAM_DEPTH = 32
MAX_RESULT_BYTES = 2_000_000   # of the rows as JSON: a page's table stays far below Streamlit's message limit
FETCH_SIZE = 100               # records the driver holds at a time, so the byte cap is checked often
MAX_RANGE_BOUND = 10_000       # largest literal or parameter in a statement that iterates a range() in an expression
MAX_EXPRESSION_RANGES = 2      # nested, two such ranges are 10^8 evaluations: seconds, not hours
DEADLINE_GRACE_S = 1.0         # past its timeout a statement's answer is awaited this long, then it is a runaway
INT64 = (-2**63, 2**63 - 1)    # Cypher's INTEGER
log = logging.getLogger("gamegraph.console")

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
        if isinstance(value, int) and not isinstance(value, bool) and not INT64[0] <= value <= INT64[1]:
            raise QueryError(f"parameter {where} is {_short(value)}, outside Cypher's integers "
                             f"({INT64[0]} to {INT64[1]})")
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


def _short(value: int) -> str:
    """An integer as text, a huge one by its size (str() refuses past 4,300 digits)."""
    return str(value) if abs(value) < 10**30 else f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"


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


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", re.S)
_RANGE_CALL = re.compile(r"(?<![\w.`$])range\s*\(", re.I)
_REDUCE_CALL = re.compile(r"(?<![\w.`$])reduce\s*\(\s*`?(\w+)`?\s*=", re.I)
# What a small range bound is made of: literals and parameters (their values checked), sizes and
# lengths of what already exists, stored properties, coalesce, + and -. A bare variable or any
# other function could hold anything (WITH 9000000000000 AS n), so it is not on the list.
_BOUND_TOKEN = re.compile(r"\s+|\$`?\w+`?|\d+|(?:size|length|coalesce)\s*\(|`?\w+`?(?:\.`?\w+`?)+"
                          r"|cache\w*\[\s*`?\w+`?(?:\.`?\w+`?)+\s*\]|[-+(),]", re.I)  # cache[p.x]: a property read
# An accumulator read through one of these (last(line)) gives an element or a number, not a copy.
_ELEMENT_OF = re.compile(r"(?<![\w.`$])(?:last|head|size|length)\s*\(\s*`?$", re.I)
_INTEGER_LITERAL = re.compile(r"0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|[0-9][0-9_]*")


def _call_arguments(text: str, open_at: int) -> str | None:
    """The text between the parenthesis at open_at and its match; None when unbalanced."""
    depth = 0
    for i in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[open_at + 1:i]
    return None


def _largest_literal(text: str) -> int:
    """The largest integer written anywhere in the statement (strings and comments included, so
    nothing hides a number): an upper bound of every literal Neo4j turned into $autoint_N."""
    largest = 0
    for found in _INTEGER_LITERAL.finditer(text):
        digits = found[0].replace("_", "")
        if len(digits) > 30:
            return 10**30
        largest = max(largest, int(digits, 0) if digits[:2].lower() in ("0x", "0o") else int(digits))
    return largest


def _small_bound(bound: str, params: dict[str, Any], literals_small: bool) -> bool:
    """Whether a range() bound (plan text) is built only of small values (see _BOUND_TOKEN)."""
    at, calls = 0, []
    while at < len(bound):
        token = _BOUND_TOKEN.match(bound, at)
        if not token:
            if "size" in calls and (name := re.compile(r"`?\w+`?").match(bound, at)):
                at = name.end()  # size(visited): a list that already exists, whatever holds it
                continue
            return False
        at = token.end()
        word = token[0].strip()
        if word.endswith("("):
            calls.append(word[:-1].strip().lower().replace("length", "size"))
        elif word == ")" and calls:
            calls.pop()
        if word.startswith("$"):
            name = word[1:].strip("`")
            value = params.get(name)
            if name.startswith("autoint_") and name not in params:
                if not literals_small:
                    return False
            elif isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_RANGE_BOUND:
                return False
        elif word.isdigit() and int(word) > MAX_RANGE_BOUND:
            return False
    return True


def check_expressions(details: list[str], text: str, params: dict[str, Any] | None = None) -> None:
    """QueryError for the expressions Neo4j cannot interrupt once they run and that grow without
    bound: a range() iterated inside an expression (not as UNWIND's rows, which Neo4j does stop)
    with a bound that is not small, more than MAX_EXPRESSION_RANGES of them, and an accumulator
    that doubles (reduce(s = 'x', i IN ... | s + s): 2^n). `details` are the plan operators'
    Details ("Unwind" ones marked by a leading "UNWIND "). O(size of the plan and the text).

    A refusal is a shape, not a proof: anything else that runs away is the deadline's
    (run_readonly_cypher), and this check keeps the usual cases from reaching it."""
    refuse = "the read-only Cypher console refused this statement"
    params = params or {}
    literals_small = _largest_literal(text) <= MAX_RANGE_BOUND
    in_expressions = 0
    for detail in details:
        unwind = detail.startswith("UNWIND ")
        plain_text = _QUOTED.sub("''", detail.removeprefix("UNWIND "))
        for found in _RANGE_CALL.finditer(plain_text):
            if unwind and found.start() == 0:
                continue  # UNWIND range(...) AS x: one row at a time, and the timeout stops it
            in_expressions += 1
            arguments = _call_arguments(plain_text, found.end() - 1)
            if arguments is None or not _small_bound(arguments, params, literals_small):
                raise QueryError(
                    f"{refuse}: it iterates over a range() inside an expression, which "
                    f"Neo4j cannot stop once it runs; its bounds must be numbers up to {MAX_RANGE_BOUND:,}, "
                    "parameters up to that, or sizes of lists and paths (UNWIND range(...) is not limited)")
        for found in _REDUCE_CALL.finditer(plain_text):
            body = _call_arguments(plain_text, plain_text.index("(", found.start()))
            step = (body or "").partition("|")[2]
            uses = [use for use in re.finditer(rf"(?<![\w.$])`?{re.escape(found[1])}`?(?!\w)", step)
                    if not _ELEMENT_OF.search(step, 0, use.start())]
            if body is None or len(uses) > 1:
                raise QueryError(f"{refuse}: its reduce(...) uses the accumulator {found[1]!r} twice in one step, "
                                 "so the value can double at every step, which Neo4j cannot stop once it runs")
    if in_expressions > MAX_EXPRESSION_RANGES:
        raise QueryError(f"{refuse}: it iterates over {in_expressions} ranges inside expressions; nested, they "
                         f"multiply and Neo4j cannot stop them once they run (at most {MAX_EXPRESSION_RANGES})")


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

    planning, abandoned = [], threading.Event()

    def vet(tx: neo4j.ManagedTransaction) -> None:
        if abandoned.is_set():  # the driver's retry of a statement the deadline gave up: never again
            raise QueryError("the Cypher statement was abandoned at its deadline")
        planning.append(True)
        summary = tx.run("EXPLAIN " + text, params).consume()
        planning.clear()
        check_plan(summary, database)
        check_expressions([("UNWIND " if name.startswith(("Unwind", "PartitionedUnwind")) else "") + details
                           for name, _, details in operators(summary.plan)], text, params)

    try:
        columns, rows, truncated = _within_deadline(
            driver, text, timeout_s, abandoned,
            lambda: read_rows(driver, database, text, params, timeout_s, max_rows=row_cap,
                              what="the Cypher statement", vet=vet, row_bytes=row_bytes,
                              max_bytes=MAX_RESULT_BYTES, fetch_size=FETCH_SIZE))
    except QueryError as error:
        if not planning:
            raise
        if "Expected exactly one statement" in str(error):
            raise QueryError("the Cypher console runs one statement at a time: remove the `;` and what follows "
                             "it") from None
        raise QueryError(_without_explain(str(error))) from None
    by_bytes = truncated and len(rows) < row_cap
    return ConsoleResult(columns=columns, rows=[[plain(v) for v in row] for row in rows],
                         truncated=truncated, row_cap=row_cap, byte_cap=MAX_RESULT_BYTES if by_bytes else None,
                         graph=result_graph(rows))


def row_bytes(row: list[Any]) -> int:
    """The size of a row as the page receives it: its JSON. O(size of the row)."""
    return len(json.dumps(plain(row), default=str))


def _within_deadline(driver: neo4j.Driver, text: str, timeout_s: float, abandoned: threading.Event,
                     work: Any) -> Any:
    """work()'s answer, awaited at most timeout_s + DEADLINE_GRACE_S.

    Neo4j answers a timed-out statement at its next row; one still running after the
    grace is evaluating an expression it cannot interrupt, and only ending the
    server frees that core (stop_runaway). The worker thread ends when the server
    answers or goes away."""
    answer: dict[str, Any] = {}

    def run() -> None:
        try:
            answer["value"] = work()
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread as is
            answer["error"] = error

    worker = threading.Thread(target=run, name="cypher-console", daemon=True)
    worker.start()
    worker.join(timeout_s + DEADLINE_GRACE_S)
    if worker.is_alive() and not _still_running(driver, text):
        worker.join(DEADLINE_GRACE_S)  # a busy machine's late answer, not a runaway: Neo4j no longer runs it
    if worker.is_alive():
        abandoned.set()
        raise stop_runaway(driver, text, timeout_s)
    if "error" in answer:
        raise answer["error"]
    return answer["value"]


def _within(seconds: float, ask: Any, otherwise: Any) -> Any:
    """ask()'s answer if it comes within `seconds` without an error, else `otherwise`: a server
    whose heap is full may take the driver's whole connection timeout to say nothing."""
    answer: list[Any] = []

    def run() -> None:
        try:
            answer.append(ask())
        except Exception:  # noqa: BLE001 - no answer is the answer
            pass

    worker = threading.Thread(target=run, name="cypher-console-check", daemon=True)
    worker.start()
    worker.join(seconds)
    return answer[0] if answer else otherwise


def _still_running(driver: neo4j.Driver, text: str) -> bool:
    """Whether Neo4j still lists a transaction running `text` (SHOW TRANSACTIONS, the app's own
    connection, never the console's); True when it cannot say within a second, since then it is
    not answering."""
    def ask() -> bool:
        with driver.session(database="system") as session:
            found = session.run("SHOW TRANSACTIONS YIELD currentQuery WHERE currentQuery = $text RETURN count(*)",
                                text=text).single()
        return bool(found and found[0])

    return _within(1.0, ask, True)


def stop_runaway(driver: neo4j.Driver, text: str, timeout_s: float) -> GameGraphError:
    """The last resort for a statement that outlived its timeout, and the error to raise: a
    QueryError, or Neo4jUnavailable once the server is being restarted (the page then forgets
    its Neo4j backend and answers from the mirror until the server is back).

    Neo4j 5.26 lists it as terminated yet keeps evaluating it; TERMINATE TRANSACTION
    does not stop it either (docs/reliability.md). gamegraph's own server is stopped
    at once (SIGKILL after 0.2 s) and started again in the background; a server it
    did not start is only named."""
    from loaders import neo4j_server  # the launcher is needed only here
    from loaders.settings import check_uri, neo4j_uri

    said = (f"the statement ran past its {timeout_s:g} s timeout and Neo4j cannot interrupt what it is evaluating "
            "(a long iteration inside one expression)")
    ours = neo4j_server.status()
    # The server the driver reached, else (it does not answer) the one the settings name.
    address = _within(1.0, lambda: driver.get_server_info().address, None)
    port = address[1] if address else _within(1.0, lambda: check_uri(neo4j_uri())[1], None)
    if not ours.running or port is None or not ours.uri.rstrip("/").endswith(f":{port}"):
        return QueryError(f"{said}; it still holds a core of the Neo4j server, so restart that server to free it")
    log.warning("console statement outlived its %s s timeout: restarting Neo4j (pid %s): %.200s",
                timeout_s, ours.pid, text)
    began = time.monotonic()
    neo4j_server.stop(timeout=0.2)  # SIGTERM waits for the transaction that will not end: SIGKILL
    threading.Thread(target=_start_again, name="neo4j-restart", daemon=True).start()
    return Neo4jUnavailable(f"{said}, so gamegraph stopped its Neo4j server after {time.monotonic() - began:.1f} s "
                            "and is starting it again (about a minute)")


def _start_again() -> None:
    from loaders import neo4j_server

    try:
        neo4j_server.start()
    except Exception:  # noqa: BLE001 - the page's next probe reports why Neo4j is not there
        log.exception("restarting Neo4j after a runaway console statement failed")
