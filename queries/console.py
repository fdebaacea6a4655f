"""The UI's read-only Cypher console: a statement runs only if its plan is a plain read of the game graph.

Before anything is sent to Neo4j, the text alone is checked (check_text, a small
tokenizer that knows quotes, backticks, escapes and comments): at most MAX_TEXT
characters, expressions at most MAX_DEPTH deep (brackets, CASE and chained
operators, counted outside strings and comments: Neo4j's planner overflowed its
stack on 400 nested lists and took the server down), at most MAX_CLAUSES
clauses, and no string or list growth it cannot stop (check_growth: replace()
beyond MAX_REPLACE_GROWTH, replace() lengthening a reduce's accumulator,
string-building reduce steps over lists it cannot size, iterations nested over
two such lists). That check only keeps what Neo4j cannot survive away.

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
  literals and parameters adding up to at most MAX_RANGE_BOUND, or sizes of what is already there, and an
  accumulator that doubles itself (``reduce(s = 'x', i IN ... | s + s)``);
- the caller waits for the answer at most timeout_s + DEADLINE_GRACE_S; a
  statement Neo4j still runs after that is terminated again and named in one
  line; the server is never restarted for one statement, since others may share
  it (issue 40);
- the rows are bounded in bytes (MAX_RESULT_BYTES of JSON) as well as in number.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
from typing import Any, NamedTuple

import neo4j
from neo4j.graph import Node, Path, Relationship

from explorer.core.errors import GameGraphError, QueryError, shown
from queries.neo4j_backend import read_rows
from queries.results import ConsoleResult, result_graph

MAX_ROW_CAP = 100_000
MAX_TEXT = 20_000          # characters: far above any hand-written query, far below a memory problem
MAX_PARAM_DEPTH = 32
MAX_PARAM_SIZE = 1_000_000   # characters of strings and names, and values (8 each), in all the parameters
MAX_RESULT_BYTES = 2_000_000   # of the rows as JSON: a page's table stays far below Streamlit's message limit
FETCH_SIZE = 100               # records the driver holds at a time, so the byte cap is checked often
MAX_RANGE_BOUND = 10_000       # largest sum of the literals and parameters of a bound of a range() in an expression
MAX_EXPRESSION_RANGES = 2      # nested, two such ranges are 10^8 evaluations: seconds, not hours
DEADLINE_GRACE_S = 1.0         # past its timeout a statement's answer is awaited this long, then it is a runaway
INT64 = (-2**63, 2**63 - 1)    # Cypher's INTEGER
# The lexical pre-check (check_text), before anything reaches Neo4j. Measured on 5.26 (docs/reliability.md):
# the planner's stack overflowed at 200 nested maps, 200 chained property reads, 1,000 NOTs and 400 nested
# lists, and the connection then hung; at these bounds the deepest shapes plan in well under a second.
MAX_DEPTH = 64                 # check_text's bound on the depth of an expression's tree (expression_depth)
MAX_CLAUSES = 64               # 200 WITH clauses took 6 s to plan
MAX_REPLACE_GROWTH = 64        # how many times longer all of a statement's replace() calls may make a string
MAX_STEP_LITERAL = 64          # characters of literals a string- or list-building reduce step may add
MAX_CARTESIAN_ROWS = 10**7     # rows Neo4j's plan estimates for a cartesian product of matches (343^3 = 4e7 filled 370 MB)
REFUSE_TEXT = "the read-only Cypher console refused this statement"
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

    size = 0  # what the parameters weigh, counted as they are walked: refused as soon as it passes the bound

    def weigh(amount: int, where: str) -> None:
        nonlocal size
        size += amount
        if size > MAX_PARAM_SIZE:
            raise QueryError(f"the parameters are too large (past {where}): the console takes at most "
                             f"{MAX_PARAM_SIZE:,} characters of strings and names, each value counting 8")

    def check(value: Any, where: str, depth: int) -> None:
        if depth > MAX_PARAM_DEPTH:
            raise QueryError(f"parameter {where} is nested more than {MAX_PARAM_DEPTH} levels deep")
        weigh(len(value) + 8 if isinstance(value, str) else 8, where)
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
                weigh(len(key), where)
                check(item, f"{where}.{_shown_key(key)}", depth + 1)
            return
        raise QueryError(f"parameter {where} is a {type(value).__name__}; parameters are JSON values only")

    for name, value in params.items():
        if not isinstance(name, str) or not name:
            raise QueryError(f"parameter name {shown(name)} is not a non-empty string")
        weigh(len(name), f"${_shown_key(name)}")
        check(value, f"${_shown_key(name)}", 0)
    return dict(params)


def _shown_key(key: str) -> str:
    """A parameter's name or key as an error names it: a huge one cut."""
    return key if len(key) <= 40 else f"{key[:30]}... ({len(key):,} characters)"


def _short(value: int) -> str:
    """An integer as text, a huge one by its size (str() refuses past 4,300 digits)."""
    return str(value) if abs(value) < 10**30 else f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"


# -- the lexical pre-check: what is never sent to Neo4j ------------------------------------------------
# Line breaks that end a // comment. Neo4j ends one at fewer of them; ending it early here only
# counts more brackets, never fewer, so a bracket hidden after a U+2028 is still counted.
_LINE_ENDS = "\n\r\u2028\u2029\u0085\v\f"
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}
_WORD = re.compile(r"[^\W\d]\w*")
_NUMBER = re.compile(r"\d[\w.]*")
_SPACE = re.compile(r"\s+")


class Token(NamedTuple):
    kind: str     # "string", "name" (a backticked name), "word", "number", "param", "symbol"
    value: str    # a string's or a backticked name's content, unescaped loosely; the text of the others
    at: int       # its offset in the statement


def tokens(text: str) -> list[Token]:
    """The statement as tokens, comments dropped: quotes, backticks and escapes handled, so a
    bracket inside a string, a backticked name or a comment is not code. QueryError for a
    string, name or comment left open. O(len(text))."""
    found: list[Token] = []
    at, end = 0, len(text)
    while at < end:
        char = text[at]
        if char.isspace():
            at = _SPACE.match(text, at).end()
        elif text.startswith("//", at):
            while at < end and text[at] not in _LINE_ENDS:
                at += 1
        elif text.startswith("/*", at):
            close = text.find("*/", at + 2)
            if close < 0:
                raise QueryError(f"{REFUSE_TEXT}: a /* comment at offset {at} is never closed")
            at = close + 2
        elif char in "'\"":
            start, at, value = at, at + 1, []
            while at < end and text[at] != char:
                if text[at] == "\\":
                    at += 1  # the escaped character, whatever it is, is part of the string
                if at < end:
                    value.append(text[at])
                at += 1
            if at >= end:
                raise QueryError(f"{REFUSE_TEXT}: the string opened at offset {start} is never closed")
            found.append(Token("string", "".join(value), start))
            at += 1
        elif char == "`":
            start, at, value = at, at + 1, []
            while True:
                close = text.find("`", at)
                if close < 0:
                    raise QueryError(f"{REFUSE_TEXT}: the `name` opened at offset {start} is never closed")
                value.append(text[at:close])
                if text.startswith("``", close):  # a doubled backtick is one backtick of the name
                    value.append("`")
                    at = close + 2
                    continue
                at = close + 1
                break
            found.append(Token("name", "".join(value), start))
        elif char == "$":
            name = _WORD.match(text, at + 1) or re.compile(r"\d+").match(text, at + 1)
            if name:
                found.append(Token("param", name[0], at))
                at = name.end()
            elif text.startswith("`", at + 1):
                found.append(Token("symbol", "$", at))  # $`name`: the name follows as its own token
                at += 1
            else:
                found.append(Token("symbol", "$", at))
                at += 1
        elif (word := _WORD.match(text, at)):
            found.append(Token("word", word[0], at))
            at = word.end()
        elif (number := _NUMBER.match(text, at)):
            found.append(Token("number", number[0], at))
            at = number.end()
        else:
            found.append(Token("symbol", char, at))
            at += 1
    return found


# Words that join or modify the terms of one expression: each deepens the tree Neo4j builds for it.
_OPERATOR_WORDS = frozenset({"AND", "OR", "XOR", "NOT", "IN", "IS", "STARTS", "ENDS", "CONTAINS"})
_OPERATOR_SYMBOLS = frozenset("+-*/%^=<>.!")
# Words that begin a new expression (a clause, a CASE branch, an alias): the chain starts again.
# ALL and DISTINCT only where no bracket follows (UNION ALL, RETURN DISTINCT): all(...) is a term of its
# expression, as count(...), collect(...) and exists(...) are, and COUNT { }, COLLECT { }, EXISTS { } open a
# level of their own; none of them starts the chain again (`count(*) + count(*) + ...` is one chain).
_EXPRESSION_STARTS = frozenset({"MATCH", "OPTIONAL", "WHERE", "WITH", "RETURN", "UNWIND", "ORDER", "BY", "SKIP",
                                "LIMIT", "AS", "WHEN", "THEN", "ELSE", "CALL", "YIELD", "UNION", "ALL", "DISTINCT",
                                "USE", "ASC", "DESC", "ASCENDING", "DESCENDING"})
_TERM_WORDS = frozenset({"ALL", "DISTINCT"})  # an expression start, unless a bracket follows (then a term)
_TERM_KINDS = frozenset({"string", "name", "number", "param"})
_CLAUSES = frozenset({"MATCH", "WITH", "RETURN", "UNWIND", "CALL", "UNION", "LOAD", "FOREACH", "CREATE", "MERGE",
                      "SET", "DELETE", "REMOVE", "FINISH", "FILTER", "LET"})


def _is_keyword(toks: list[Token], i: int) -> bool:
    """Whether the word at i is used as a keyword: not a property key (n.end), label (:End),
    map key ({end: 1}) or parameter."""
    before = toks[i - 1] if i else None
    after = toks[i + 1] if i + 1 < len(toks) else None
    if before is not None and before.kind == "symbol" and before.value in ".:$":
        return False
    return not (after is not None and after.kind == "symbol" and after.value == ":")


def _after_term(toks: list[Token], i: int) -> bool:
    """Whether the token before i ends a term (a value, a name, a closing bracket, END): a `[` there indexes it."""
    if not i:
        return False
    before = toks[i - 1]
    if before.kind in _TERM_KINDS or (before.kind == "symbol" and before.value in _CLOSERS):
        return True
    return before.kind == "word" and (not _is_keyword(toks, i - 1) or before.value.upper() == "END"
                                      or before.value.upper() not in _KEYWORDS_BEFORE_TERMS)


# Keywords after which a `[` is a list literal, not an index (RETURN [1], WHERE [..], IN [..], ...).
_KEYWORDS_BEFORE_TERMS = _EXPRESSION_STARTS | _OPERATOR_WORDS | _CLAUSES | {"CASE"}


def expression_depth(toks: list[Token]) -> tuple[int, int]:
    """(a bound on how deep Neo4j's expression tree is, the number of clauses). Each bracket and
    CASE opens one level (32 nested brackets are 33 levels with the statement's own); within a
    level every operator (+, ||, ., an index [, NOT, AND, ...) since the last comma or clause can
    deepen the tree by one (a left-deep chain), so the bound is the sum over the open levels of one
    plus their chains. A call, a list, a map or a CASE is one term of its level's chain, not a step
    of it. O(number of tokens)."""
    stack: list[list] = [["", 0]]   # [opener, operators in the current chain of this level]
    deepest = total = 1             # total: the sum over the stack of one plus its chain
    clauses = 0
    for i, tok in enumerate(toks):
        word = tok.value.upper() if tok.kind == "word" and _is_keyword(toks, i) else ""
        value = tok.value if tok.kind == "symbol" else ""
        after = toks[i + 1] if i + 1 < len(toks) else None
        if word in _TERM_WORDS and after is not None and after.kind == "symbol" and after.value in "({":
            word = ""                  # all(...): a term of the chain, not the start of a new expression
        if word in _CLAUSES:
            clauses += 1
        if value in _OPENERS or word == "CASE":
            if value == "[" and _after_term(toks, i):
                stack[-1][1] += 1      # an index, x[0][1]...: a left-deep chain like the operators
                total += 1
            stack.append([value or "CASE", 0])
            total += 1
        elif value in _CLOSERS or word == "END":
            if len(stack) > 1 and stack[-1][0] == (_CLOSERS.get(value) or "CASE"):
                total -= 1 + stack.pop()[1]
        elif value == "|" and ((after is not None and after.kind == "symbol" and after.value == "|")
                               or (i and toks[i - 1].kind == "symbol" and toks[i - 1].value == "|")):
            if toks[i - 1].value != "|" or not i:  # `||` (concatenation) is one operator: counted at its first bar
                stack[-1][1] += 1
                total += 1
        elif value in (",", "|", ":", ";") or word in _EXPRESSION_STARTS:
            total -= stack[-1][1]
            stack[-1][1] = 0
        elif value in _OPERATOR_SYMBOLS or word in _OPERATOR_WORDS:
            stack[-1][1] += 1
            total += 1
        deepest = max(deepest, total)
    return deepest, clauses


def check_text(text: str, params: dict[str, Any] | None = None) -> list[Token]:
    """The statement's tokens, if its text alone is safe to send to Neo4j; QueryError (one line,
    naming the limit) otherwise. Nothing here decides what may run (check_plan does); it keeps
    Neo4j from being handed text its parser and planner cannot survive: a statement over
    MAX_TEXT characters, an expression nested deeper than MAX_DEPTH (the planner recurses per
    level: 400 nested lists or 200 nested maps overflowed its stack and took the server down),
    more than MAX_CLAUSES clauses (planning time grows with them), and string or list growth
    Neo4j cannot stop once it runs (check_growth). O(len(text))."""
    check_read_only(text)
    toks = tokens(text)
    depth, clauses = expression_depth(toks)
    if depth > MAX_DEPTH:
        raise QueryError(f"{REFUSE_TEXT}: its expressions nest {depth} levels deep (brackets, CASE and chained "
                         f"operators); the console takes at most {MAX_DEPTH}")
    if clauses > MAX_CLAUSES:
        raise QueryError(f"{REFUSE_TEXT}: it has {clauses} clauses; the console takes at most {MAX_CLAUSES}")
    check_growth(toks, params or {})
    return toks


def _pairs(toks: list[Token]) -> list[int]:
    """For each opening bracket, the index of the one that closes it (len(toks) when none does); O(n)."""
    closing, open_at = [len(toks)] * len(toks), []
    for i, tok in enumerate(toks):
        if tok.kind == "symbol" and tok.value in _OPENERS:
            open_at.append(i)
        elif tok.kind == "symbol" and tok.value in _CLOSERS and open_at:
            closing[open_at.pop()] = i
    return closing


def _split(toks: list[Token], start: int, stop: int, separators: tuple[str, ...]) -> list[tuple[int, int]]:
    """toks[start:stop] cut at the top-level symbols or keywords in `separators`: [(from, to), ...]."""
    parts, depth, begin = [], 0, start
    for i in range(start, stop):
        tok = toks[i]
        value = tok.value.upper() if tok.kind == "word" else tok.value if tok.kind == "symbol" else None
        if tok.kind == "symbol" and value in _OPENERS:
            depth += 1
        elif tok.kind == "symbol" and value in _CLOSERS:
            depth -= 1
        elif depth == 0 and value in separators and (tok.kind == "symbol" or _is_keyword(toks, i)):
            parts.append((begin, i))
            begin = i + 1
    parts.append((begin, stop))
    return parts


def _call(toks: list[Token], i: int, *names: str) -> bool:
    """Whether toks[i] is a call of one of `names` (a word followed by "(", not a property)."""
    return (toks[i].kind == "word" and toks[i].value.lower() in names and i + 1 < len(toks)
            and toks[i + 1].value == "(" and toks[i + 1].kind == "symbol" and _is_keyword(toks, i))


class _Iteration(NamedTuple):
    what: str            # "reduce", "[x IN ...]", "any", ...
    variable: str
    accumulator: str     # reduce's; "" for the others
    initial: list[Token]
    source: tuple[int, int]   # the list iterated over
    body: tuple[int, int]     # what runs for every element
    span: tuple[int, int]


def _iterations(toks: list[Token], closing: list[int]) -> list[_Iteration]:
    """Every expression that iterates inside one row: reduce(a = i, x IN l | ...), [x IN l ...],
    any/all/none/single(x IN l WHERE ...)."""
    found = []
    for i, tok in enumerate(toks):
        if _call(toks, i, "reduce"):
            close = closing[i + 1]
            parts = _split(toks, i + 2, close, (",",))
            if len(parts) < 2 or parts[0][1] - parts[0][0] < 3:
                continue
            first, second = parts[0], parts[1]
            accumulator = toks[first[0]].value
            rest = _split(toks, second[0], close, ("|",))
            head = _split(toks, rest[0][0], rest[0][1], ("IN",))
            if len(head) < 2:
                continue
            found.append(_Iteration("reduce", toks[head[0][0]].value, accumulator, toks[first[0] + 2:first[1]],
                                    head[1], rest[1] if len(rest) > 1 else (close, close), (i, close)))
        elif (_call(toks, i, "any", "all", "none", "single")
              or (tok.kind == "symbol" and tok.value == "[" and i + 2 < len(toks) and toks[i + 1].kind in ("word", "name")
                  and toks[i + 2].kind == "word" and toks[i + 2].value.upper() == "IN")):
            bracket = i + 1 if tok.kind == "word" else i
            close = closing[bracket]
            head = _split(toks, bracket + 1, close, ("IN",))
            if len(head) < 2 or head[0][1] - head[0][0] != 1:
                continue
            tail = _split(toks, head[1][0], close, ("|", "WHERE"))
            body = (tail[1][0], close) if len(tail) > 1 else (close, close)
            found.append(_Iteration(tok.value.lower() if tok.kind == "word" else "[x IN ...]", toks[head[0][0]].value,
                                    "", [], tail[0], body, (bracket, close)))
    return found


def _sized(toks: list[Token], closing: list[int], where: tuple[int, int], params: dict[str, Any]) -> bool:
    """Whether a list expression is one the console can size: range() (whose bounds the plan check
    limits), nodes()/relationships()/keys()/labels() of one path or entity, a literal list that is
    not itself a comprehension, or a parameter of at most MAX_RANGE_BOUND items."""
    start, stop = where
    if start >= stop:
        return False
    tok = toks[start]
    if _call(toks, start, "range", "nodes", "relationships", "keys", "labels"):
        return closing[start + 1] == stop - 1
    if tok.kind == "symbol" and tok.value == "[" and closing[start] == stop - 1:
        return not (stop - start > 3 and toks[start + 2].kind == "word" and toks[start + 2].value.upper() == "IN")
    if tok.kind == "param" and stop - start == 1:
        value = params.get(tok.value)
        return isinstance(value, list) and len(value) <= MAX_RANGE_BOUND
    return False


def _literal_size(toks: list[Token], start: int, stop: int, params: dict[str, Any]) -> int:
    """Characters of the string literals (and string or list parameters) in toks[start:stop]."""
    size = 0
    for tok in toks[start:stop]:
        if tok.kind == "string":
            size += len(tok.value)
        elif tok.kind == "param" and isinstance(params.get(tok.value), (str, list, dict)):
            size += len(json.dumps(params[tok.value]))
    return size


def _growth(toks: list[Token], closing: list[int], i: int, params: dict[str, Any]) -> float:
    """How many times longer replace(s, search, by) at toks[i] can make s: len(by) / len(search),
    len(by) + 1 for an empty search (inserted between every character), and without bound when
    `by` is neither a string literal nor a string parameter."""
    close = closing[i + 1]
    parts = _split(toks, i + 2, close, (",",))
    if len(parts) != 3:
        return 1.0  # not Neo4j's replace: it will not plan

    def string(part: tuple[int, int]) -> str | None:
        if part[1] - part[0] != 1:
            return None
        tok = toks[part[0]]
        if tok.kind == "string":
            return tok.value
        value = params.get(tok.value) if tok.kind == "param" else None
        return value if isinstance(value, str) else None

    search, by = string(parts[1]), string(parts[2])
    if by is None:
        return math.inf
    if not search:
        return len(by) + 1.0
    return max(1.0, len(by) / len(search))


def check_growth(toks: list[Token], params: dict[str, Any]) -> None:
    """QueryError for string and list growth Neo4j cannot stop once it runs (a single expression
    is not interrupted by the timeout, and its values are not counted by the transaction memory
    limit): replace() calls that together could lengthen a string more than MAX_REPLACE_GROWTH
    times, a replace() of a reduce's accumulator that lengthens it (it doubles at every step:
    reduce(s = 'x', i IN ... | replace(s, 'x', 'xx'))), a range() in a reduce's step bounded by the
    accumulator (reduce(l = [0], i IN ... | [x IN range(0, size(l) + size(l)) | x]) doubles it at every
    step: the plan check takes size() for the size of what exists), a reduce that builds a string or list over
    a list the console cannot size or with more than MAX_STEP_LITERAL characters of literals a
    step, and an iteration inside another over a list the console cannot size (two collected
    lists multiplied; one of the two sized is allowed: range(1, p.remoteness) over collected
    moves is how the catalogue walks a line). O(number of tokens x nesting)."""
    growth = 1.0
    closing = _pairs(toks)
    iterations = _iterations(toks, closing)
    for i in range(len(toks)):
        if _call(toks, i, "replace"):
            factor = _growth(toks, closing, i, params)
            growth *= factor
            if factor > 1:
                close = closing[i + 1]
                for it in iterations:
                    if it.accumulator and it.body[0] <= i < it.body[1] and any(
                            t.kind in ("word", "name") and t.value == it.accumulator for t in toks[i:close]):
                        raise QueryError(f"{REFUSE_TEXT}: its reduce(...) replaces text in the accumulator "
                                         f"{it.accumulator!r} with longer text, so the value can grow at every "
                                         "step, which Neo4j cannot stop once it runs")
            if growth > MAX_REPLACE_GROWTH:
                raise QueryError(f"{REFUSE_TEXT}: its replace() calls could make a string more than "
                                 f"{MAX_REPLACE_GROWTH} times longer (the replacement must be a string literal or "
                                 f"parameter; the console allows at most {MAX_REPLACE_GROWTH}-fold growth)")
    for it in iterations:
        if it.accumulator:
            for j in range(it.body[0], it.body[1]):  # range(0, size(l) + size(l)): a size of the accumulator
                if (_call(toks, j, "range") or (toks[j].kind == "name" and toks[j].value.lower() == "range"
                                                 and toks[j + 1].kind == "symbol" and toks[j + 1].value == "(")) and any(t.kind in ("word", "name") and t.value == it.accumulator
                                                   for t in toks[j + 2:closing[j + 1]]):
                    raise QueryError(f"{REFUSE_TEXT}: its reduce(...) takes a range() bound from the accumulator "
                                     f"{it.accumulator!r}, so the value can double at every step, which Neo4j "
                                     "cannot stop once it runs")
            uses = any(t.kind in ("word", "name") and t.value == it.accumulator for t in toks[it.body[0]:it.body[1]])
            builds = (it.initial and (it.initial[0].kind == "string" or it.initial[0].value == "[")) or any(
                t.kind == "string" or t.value == "[" for t in toks[it.body[0]:it.body[1]])
            if uses and builds:
                if not _sized(toks, closing, it.source, params):
                    raise QueryError(f"{REFUSE_TEXT}: its reduce(...) builds a string or list in {it.accumulator!r} "
                                     "over a list the console cannot size; iterate over range(), a literal list, "
                                     "nodes() or relationships() of a path, or a parameter")
                if _literal_size(toks, it.body[0], it.body[1], params) > MAX_STEP_LITERAL:
                    raise QueryError(f"{REFUSE_TEXT}: its reduce(...) adds more than {MAX_STEP_LITERAL} characters "
                                     "of literals at every step; the console allows at most that")
    open_ones: list[_Iteration] = []   # the iterations whose span holds the current one: at most the nesting
    for it in sorted(iterations, key=lambda found: found.span[0]):
        open_ones = [outer for outer in open_ones if outer.span[1] > it.span[0]]
        for outer in open_ones:
            if (outer.body[0] <= it.span[0] < outer.body[1] and not _sized(toks, closing, it.source, params)
                    and not _sized(toks, closing, outer.source, params)):
                raise QueryError(f"{REFUSE_TEXT}: it iterates ({it.what}) inside another iteration ({outer.what}), "
                                 "both over lists the console cannot size, which can multiply two large lists in "
                                 "one expression; one of them must be range(), a literal list, nodes() or "
                                 "relationships() of a path, or a parameter")
        open_ones.append(it)


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
# lengths of what already exists, stored properties as the planner reads them (cache[p.x]), coalesce,
# + and -. A bare variable or any other function could hold anything (WITH 9000000000000 AS n), and
# so could a key of a map (WITH {r: toInteger('9' + ...)} AS p ... range(1, p.r), issue 19's runaway
# that passed), so neither is on the list.
_BOUND_TOKEN = re.compile(r"\s+|\$`?\w+`?|\d+|(?:size|length|coalesce)\s*\("
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


def _literal_sum(text: str) -> int:
    """The sum of the integers written in the text (strings and comments included, so nothing hides a
    number; hex, octal and 1_000 forms too): a bound on what Neo4j folds them into. O(len(text))."""
    total = 0
    for found in _INTEGER_LITERAL.finditer(text):
        digits = found[0].replace("_", "")
        if len(digits) > 30:
            return 10**30
        total += int(digits, 0) if digits[:2].lower() in ("0x", "0o") else int(digits)
    return total


# Where the console's tokenizer and Neo4j's parser may read a statement differently, so its range()
# arguments are not known from the text: a \\uXXXX escape (Neo4j decodes it anywhere in the text before
# parsing: range\\u0028 1, 3 \\u0029 runs, and \\u0039 writes a 9 no number search sees) and the line ends
# that end a // comment here but not in Neo4j.
_UNREADABLE = re.compile(r"\\u|[\u2028\u2029\u0085\v\f]", re.I)
_FOLDED = frozenset("*/%^")   # operators Neo4j folds over literals into one $autoint (9999 * 9999)


class _LiteralBound(NamedTuple):
    value: float     # at most this large, in absolute value, is any $autoint in a range() argument
    argument: str    # the argument (as written) that reaches it, for the message; "" when none


def _range_literal_bound(text: str, plan_ranges: int) -> _LiteralBound:
    """How large a literal Neo4j may have turned into an $autoint_N inside a range()'s arguments:
    over every range(...) (or `range`(...)) call of the text and each of its arguments, the sum of
    the integers written in it (strings and comments inside it included; Neo4j folds 9999 + 9999
    into one $autoint), without bound when a * / % ^ may have folded them. Numbers elsewhere in
    the statement (99999 AS big) are no range bound (a WITH 99999 AS n stays n in the plan).
    Without bound, too, when the text cannot be read as Neo4j reads it (_UNREADABLE) or holds
    fewer range() calls than the plan. O(len(text))."""
    unknown = _LiteralBound(math.inf, "")
    if _UNREADABLE.search(text):
        return unknown
    try:
        toks = tokens(text)
    except QueryError:
        return unknown
    closing, calls, largest = _pairs(toks), 0, _LiteralBound(0, "")
    for i, tok in enumerate(toks):
        if not (tok.value.lower() == "range" and (tok.kind == "name" or _call(toks, i, "range"))
                and i + 1 < len(toks) and toks[i + 1].kind == "symbol" and toks[i + 1].value == "("):
            continue
        calls += 1
        close = closing[i + 1]
        if close >= len(toks):
            return unknown
        for start, stop in _split(toks, i + 2, close, (",",)):
            if start >= stop:
                continue
            written = text[toks[start].at:toks[stop].at].strip()
            folded = any(t.kind == "symbol" and t.value in _FOLDED for t in toks[start:stop])
            value = math.inf if folded else _literal_sum(written)
            if value > largest.value:
                largest = _LiteralBound(value, written)
    return largest if calls >= plan_ranges else unknown


def _bound_size(bound: str, params: dict[str, Any], literal_bound: float) -> float | None:
    """How large a range()'s bound (plan text, one or more of its arguments) may be: over its top-level
    arguments, the largest sum of the magnitudes of the parameters, numbers and folded literals each one
    adds up ($a + $b with both at 10,000 is 20,000; $a + $a counts $a twice); every $autoint of one
    argument is at most literal_bound together (_range_literal_bound). None when the bound holds anything
    but small values (see _BOUND_TOKEN), or a parameter that is not a whole number. Sizes, lengths and
    stored properties add nothing: they measure what exists."""
    at, calls, largest, total, literal_counted = 0, [], 0.0, 0.0, False
    while at < len(bound):
        token = _BOUND_TOKEN.match(bound, at)
        if not token:
            if "size" in calls and (name := re.compile(r"`?\w+`?").match(bound, at)):
                at = name.end()  # size(visited): a list that already exists, whatever holds it
                continue
            return None
        at = token.end()
        word = token[0].strip()
        if word.endswith("("):
            calls.append(word[:-1].strip().lower().replace("length", "size"))
        elif word == ")" and calls:
            calls.pop()
        elif word == "," and not calls:  # the next argument of range() itself
            largest, total, literal_counted = max(largest, total), 0.0, False
        if word.startswith("$"):
            name = word[1:].strip("`")
            value = params.get(name)
            if name.startswith("autoint_") and name not in params:
                total += 0 if literal_counted else literal_bound
                literal_counted = True
            elif isinstance(value, bool) or not isinstance(value, int):
                return None
            else:
                total += abs(value)
        elif word.isdigit():
            total += int(word) if len(word) <= 30 else math.inf
    return max(largest, total)


def _small_bound(bound: str, params: dict[str, Any], literal_bound: float) -> bool:
    """Whether a range() bound (plan text) is built only of small values that add up to at most
    MAX_RANGE_BOUND in each argument (_bound_size)."""
    size = _bound_size(bound, params, literal_bound)
    return size is not None and size <= MAX_RANGE_BOUND


def _too_large(arguments: str | None, params: dict[str, Any], literals: _LiteralBound) -> str:
    """Which bound of a refused range() is the trouble, in a few words, for check_expressions's message."""
    if arguments is None:
        return "its arguments cannot be read"
    for found in re.finditer(r"\$`?(\w+)`?", arguments):
        name = found[1]
        if not name.startswith("auto") or name in params:  # $autoint_0, $autostring_1: literals, not parameters
            value = params.get(name)
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_RANGE_BOUND:
                return f"its bound ${_shown_key(name)} is {_shown_value(value)}"
    if "$autoint_" in arguments and literals.value > MAX_RANGE_BOUND:
        if not literals.argument:
            return "the console cannot tell which numbers its bounds are"
        shown = literals.argument if len(literals.argument) <= 40 else literals.argument[:37] + "..."
        return (f"its bound {shown} is a calculation the console cannot size" if math.isinf(literals.value)
                else f"its bound {shown} is too large")
    depth, start, parts = 0, 0, []
    for at, char in enumerate(arguments + ","):  # the plan's arguments cut at their top-level commas
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(arguments[start:at].strip())
            start = at + 1
    bound = next((part for part in parts if not _small_bound(part, params, literals.value)), arguments)
    size = _bound_size(bound, params, literals.value)
    shown = bound if len(bound) <= 60 else bound[:57] + "..."
    if size is not None:  # small values, too many of them: $a + $b
        return (f"its bound {shown} adds up to as much as {int(size):,}" if size < 10**30
                else f"its bound {shown} is too large")
    return f"its bound {shown} may be anything"


def _shown_value(value: Any) -> str:
    """A parameter's value as a refusal names it: short."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _short(value)
    text = json.dumps(value)
    return text if len(text) <= 30 else text[:27] + "..."


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
    plain_details = [_QUOTED.sub("''", detail.removeprefix("UNWIND ")) for detail in details]
    literals = _range_literal_bound(text, sum(len(_RANGE_CALL.findall(plain)) for plain in plain_details))
    in_expressions = 0
    for detail in details:
        unwind = detail.startswith("UNWIND ")
        plain_text = _QUOTED.sub("''", detail.removeprefix("UNWIND "))  # as in plain_details
        for found in _RANGE_CALL.finditer(plain_text):
            if unwind and found.start() == 0:
                continue  # UNWIND range(...) AS x: one row at a time, and the timeout stops it
            in_expressions += 1
            arguments = _call_arguments(plain_text, found.end() - 1)
            if arguments is None or not _small_bound(arguments, params, literals.value):
                raise QueryError(
                    f"{refuse}: it iterates over a range() inside an expression, which "
                    f"Neo4j cannot stop once it runs, and {_too_large(arguments, params, literals)}; its bounds "
                    f"must be numbers and parameters adding up to at most {MAX_RANGE_BOUND:,} each, or sizes of lists and "
                    "paths (UNWIND range(...) is not limited)")
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


def check_estimates(plan: dict[str, Any]) -> None:
    """QueryError when the plan multiplies matches into more than MAX_CARTESIAN_ROWS rows (Neo4j's own
    estimate of a CartesianProduct): MATCH (a), (b), (c) over a whole graph. Rows are interrupted by
    the timeout, but what they pile into (collect, sort, distinct) filled the heap faster than the
    transaction memory limit counted it (issue 40). O(plan size)."""
    stack = [plan]
    while stack:
        node = stack.pop()
        stack.extend(node.get("children") or [])
        if str(node.get("operatorType", "")).startswith("CartesianProduct"):
            rows = (node.get("args") or {}).get("EstimatedRows")
            if isinstance(rows, (int, float)) and rows > MAX_CARTESIAN_ROWS:
                raise QueryError(f"{REFUSE_TEXT}: its plan multiplies matches into about {rows:.1e} rows (a "
                                 f"cartesian product; the console allows {MAX_CARTESIAN_ROWS:.0e}); connect the "
                                 "patterns or narrow them by label and property")


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
    """Runs one statement if its text passes check_text and its plan is a read of the graph
    (check_plan, check_estimates, check_expressions), with a server-side timeout and at most
    row_cap rows.

    The plan and the run share one READ transaction, so the timeout covers both.
    A refused plan, a write, a timeout, a syntax error (several statements
    included) or a timeout_s outside (0, 600] raise QueryError with one clear
    line. Cost: planning plus the query's own, bounded by timeout_s.
    """
    if isinstance(row_cap, bool) or not isinstance(row_cap, int) or not 1 <= row_cap <= MAX_ROW_CAP:
        raise QueryError(f"row_cap={row_cap!r} is out of range: it must be a whole number from 1 to {MAX_ROW_CAP}")
    params = check_params(params)
    check_text(text, params)

    planning, abandoned = [], threading.Event()

    def vet(tx: neo4j.ManagedTransaction) -> None:
        if abandoned.is_set():  # the driver's retry of a statement the deadline gave up: never again
            raise QueryError("the Cypher statement was abandoned at its deadline")
        planning.append(True)
        summary = tx.run("EXPLAIN " + text, params).consume()
        planning.clear()
        check_plan(summary, database)
        check_estimates(summary.plan)
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
    grace is evaluating an expression it cannot interrupt: it is terminated again and
    named (stop_runaway), never by restarting a server others may share. The worker
    thread ends when the server answers."""
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
    """The last resort for a statement that outlived its timeout, and the error to raise (one line).

    Neo4j 5.26 lists such a statement as terminated yet keeps evaluating the expression it is
    in (docs/reliability.md). It is terminated once more (TERMINATE TRANSACTIONS, from the app's
    own connection, bounded to a second), so it ends at its next row; the server is never
    stopped or restarted for it, since others may share that server (issue 40): the checks
    before it ran (check_text, check_plan, check_expressions) are what keep such statements out."""
    def terminate() -> int:
        with driver.session(database="system") as session:
            ids = [row[0] for row in session.run(
                "SHOW TRANSACTIONS YIELD transactionId, currentQuery WHERE currentQuery = $text "
                "RETURN transactionId", text=text)]
            if ids:
                session.run("TERMINATE TRANSACTIONS $ids", ids=ids).consume()
        return len(ids)

    ended = _within(1.0, terminate, None)
    log.info("console statement outlived its %s s timeout (%s transaction(s) terminated): %.200s",
                timeout_s, ended, text)
    return QueryError(f"the statement ran past its {timeout_s:g} s timeout and Neo4j cannot interrupt what it is "
                      "evaluating (a long iteration inside one expression); it was terminated and ends when that "
                      "expression does (the server is not restarted: others may be using it); narrow the statement")
