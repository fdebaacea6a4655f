"""The console's checks that need no server: the expression shapes Neo4j cannot interrupt,
parameters outside Cypher's integers, and the size of a row in bytes.

The plan details below are written as Neo4j 5.26 prints them (literals become
$autoint_N, strings $autostring_N); tests/queries/test_console.py sends the same
statements to the real server.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorer.core.errors import QueryError
from queries.console import (MAX_RANGE_BOUND, _literal_sum, check_expressions, check_params, row_bytes)


def refused(details: list[str], text: str, params: dict | None = None) -> str:
    with pytest.raises(QueryError) as caught:
        check_expressions(details, text, params or {})
    assert "\n" not in str(caught.value)
    return str(caught.value)


@pytest.mark.parametrize("details, text", [
    (["reduce(s = $autoint_1, x IN range($autoint_2, $autoint_3) | $autoint_0) AS s"],
     "RETURN reduce(s = 0, x IN range(1, 9000000000000000000) | 0) AS s"),
    (["reduce(s = $autoint_0, x IN range($autoint_1, $autoint_2) | s + x) AS s"],
     "RETURN reduce(s = 0, x IN range(1, 500000000) | s + x) AS s"),
    (["range($autoint_0, $autoint_1) AS big"], "RETURN range(1, 3000000) AS big"),
    (["size([x IN range($autoint_0, $autoint_1) | x]) AS n"], "RETURN size([x IN range(1, 200000000) | x]) AS n"),
    (["range($autoint_0, $autoint_1) AS big"], "RETURN range(1, 0x7FFFFFFFFFFFFFFF) AS big"),
    (["range($autoint_0, $autoint_1) AS big"], "RETURN range(1, 9_000_000_000) AS big"),
    (["range($autoint_0, $autoint_1) AS big"], "RETURN range(1, 0o777777777777) AS big"),
    (["reduce(s = $autoint_1, x IN range($autoint_2, n) | s) AS s", "$autoint_0 AS n"],
     "WITH 9 AS n RETURN reduce(s = 0, x IN range(1, n) | s) AS s"),  # a variable could hold anything
    (["range($autoint_0, toInteger($autostring_0)) AS r"], "RETURN range(1, toInteger('12')) AS r"),
    (["range($autoint_0, $autoint_1 * $autoint_1) AS r"], "RETURN range(1, 100 * 100) AS r"),
])
def test_ranges_inside_expressions_need_small_bounds(details, text):
    assert "range()" in refused(details, text)


def test_a_range_bound_by_a_parameter_is_checked_by_its_value():
    details = ["range($autoint_0, $n) AS r"]
    check_expressions(details, "RETURN range(1, $n) AS r", {"n": MAX_RANGE_BOUND})
    for too_big in (MAX_RANGE_BOUND + 1, 9_000_000_000, "12", 1.5, True, None):
        refused(details, "RETURN range(1, $n) AS r", {"n": too_big})


@pytest.mark.parametrize("details, text, params, total", [
    (["size([x IN range($autoint_0, $a + $b) | x]) AS n"], "RETURN size([x IN range(0, $a + $b) | x]) AS n",
     {"a": MAX_RANGE_BOUND, "b": MAX_RANGE_BOUND}, "20,000"),
    (["size([x IN range($autoint_0, ($a + $a) + $a) | x]) AS n"], "RETURN size([x IN range(0, $a + $a + $a) | x]) AS n",
     {"a": 9_000}, "27,000"),                                               # one parameter used three times
    (["size([x IN range($autoint_0, $a - $b) | x]) AS n"], "RETURN size([x IN range(0, $a - $b) | x]) AS n",
     {"a": MAX_RANGE_BOUND, "b": -MAX_RANGE_BOUND}, "20,000"),              # magnitudes: a minus adds too
    (["size([x IN range($autoint_0, $a + $autoint_1) | x]) AS n"], "RETURN size([x IN range(0, $a + 9999) | x]) AS n",
     {"a": MAX_RANGE_BOUND}, "19,999"),                                     # a parameter and a literal
    (["size([x IN range($autoint_0, coalesce($a, $b) + $c) | x]) AS n"],
     "RETURN size([x IN range(0, coalesce($a, $b) + $c) | x]) AS n", {"a": 6_000, "b": 1, "c": 6_000}, "12,001"),
])
def test_parameters_added_inside_a_range_bound_are_summed(details, text, params, total):
    """The last note of issue 40: each parameter was checked alone, so $a + $b (or thirty of them, up to the
    depth limit) passed the 10,000 bound; now the literals and parameters of one bound are added up."""
    message = refused(details, text, params)
    assert f"adds up to as much as {total}" in message


def test_parameters_that_add_up_to_the_bound_pass_and_each_bound_counts_alone():
    check_expressions(["size([x IN range($autoint_0, $a + $b) | x]) AS n"],
                      "RETURN size([x IN range(0, $a + $b) | x]) AS n", {"a": 5_000, "b": 5_000})
    check_expressions(["size([x IN range($a, $b) | x]) AS n"], "RETURN size([x IN range($a, $b) | x]) AS n",
                      {"a": -MAX_RANGE_BOUND, "b": MAX_RANGE_BOUND})  # two bounds, each within it
    many = " + ".join(f"$p{i}" for i in range(30))
    assert "300,000" in refused([f"size([x IN range($autoint_0, {many}) | x]) AS n"],
                                f"RETURN size([x IN range(0, {many}) | x]) AS n", {f"p{i}": MAX_RANGE_BOUND for i in range(30)})


def _library(name: str) -> str:
    return (Path(__file__).parents[2] / "queries" / f"{name}.cypher").read_text()


def test_unwind_rows_and_the_library_shapes_are_allowed():
    """UNWIND range(...) yields rows, which Neo4j's timeout stops; the query library's
    ranges are bounded by sizes of what exists (queries/*.cypher)."""
    check_expressions(["UNWIND range($autoint_0, $autoint_1) AS x"], "UNWIND range(1, 9000000000000000000) AS x "
                      "RETURN count(*) AS n")
    check_expressions(["p, reduce(line = [cache[p.key]], ply IN range($autoint_0, coalesce(cache[p.remoteness], "
                       "$autoint_1)) | "
                       "line + [head([m IN moves WHERE m.from = last(line)]).to]) AS line",
                       "UNWIND range($autoint_2, size(line) - $autoint_3) AS ply"], _library("shortest-win"))
    check_expressions(["all(i IN range($autoint_0, size(visited) - $autoint_1) WHERE NOT visited[i] IN "
                       "visited[i + $autoint_2..])"], _library("cycles"))
    check_expressions(["range($autoint_0, $autoint_1) AS r"], "RETURN range(1, 10000) AS r")


def test_more_than_two_ranges_inside_expressions_are_refused():
    nested = "[a IN range($autoint_0, $autoint_1) | [b IN range($autoint_0, $autoint_1) | " \
             "[c IN range($autoint_0, $autoint_1) | 0]]] AS cube"
    assert "3 ranges" in refused([nested], "RETURN [a IN range(1, 100) | [b IN range(1, 100) | "
                                           "[c IN range(1, 100) | 0]]] AS cube")


@pytest.mark.parametrize("detail", [
    "reduce(s = $autostring_2, j IN range($autoint_3, $autoint_4) | s + s) AS s",
    "reduce(l = [$autoint_0], j IN range($autoint_1, $autoint_2) | l + l) AS l",
    "reduce(`s` = $autostring_0, j IN range($autoint_1, $autoint_2) | `s` + coalesce(`s`, $autostring_1)) AS s",
    "reduce(s = $autostring_0, j IN xs | s + toString(s)) AS s",
])
def test_an_accumulator_that_doubles_is_refused(detail):
    assert "twice" in refused([detail], "UNWIND range(1, 1000) AS i RETURN reduce(s = 'x', j IN range(1, 18) | s + s)")


def test_strings_in_the_plan_hide_no_call_and_fake_none():
    check_expressions(["'range(1, 9000000000)' AS s"], "RETURN 'range(1, 9000000000)' AS s")  # a string, not a call
    refused(["range($autoint_0, $autoint_1) AS r"], "RETURN range(1, size('9000000000')) AS r")  # in its arguments


def test_numbers_outside_a_ranges_arguments_are_no_bound_of_it():
    """The stranger's statement: 99999 is a column, not a bound of range(1, 40) (it was refused)."""
    check_expressions(["reduce(s = $autostring_1, i IN range($autoint_2, $autoint_3) | s + $autostring_0) AS t, "
                       "$autoint_4 AS big"], 'RETURN reduce(s="", i IN range(1,40) | s + "w") AS t, 99999 AS big')
    check_expressions(["range($autoint_0, $autoint_1) AS r"], "RETURN range(1, 5) AS r, '9000000000' AS s")


@pytest.mark.parametrize("text, named", [
    ("RETURN range(1, 99999) AS r, 3 AS small", "bound 99999 is too large"),
    ("RETURN range(1, (99999)) AS r", "bound (99999) is too large"),
    ("RETURN range(1, size([range(1, 99999)])) AS r", "99999"),     # a range nested in a range's bound
    ("RETURN `range`(1, 99999) AS r", "bound 99999 is too large"),  # the function's name in backticks
    ("RETURN range(1, 9999 + 9999) AS r", "bound 9999 + 9999 is too large"),  # Neo4j folds it into one $autoint
    ("RETURN range(1, 9999 * 9999) AS r", "9999 * 9999 is a calculation"),
    ("RETURN range(1, \\u0039\\u0039\\u0039\\u0039\\u0039) AS r", "cannot tell"),  # Neo4j decodes \\u0039 to 9
    ("RETURN range(1, 5 //\u2028) AS r, 1 AS x //\n + 99999) AS r", "cannot tell"),  # a // comment Neo4j ends later
])
def test_a_large_literal_in_a_ranges_arguments_is_refused_and_named(text, named):
    details = ["range($autoint_0, $autoint_1) AS r"] if "size" not in text else \
        ["range($autoint_0, size([range($autoint_1, $autoint_2)])) AS r"]
    assert named in refused(details, text)


def test_a_parameter_bound_too_large_is_named():
    assert "bound $n is 99999" in refused(["range($autoint_0, $n) AS r"], "RETURN range(1, $n) AS r", {"n": 99999})


def test_the_literal_sum_reads_every_notation():
    assert _literal_sum("RETURN 1, 22, 'x 333' // 4444") == 4800
    assert _literal_sum("RETURN 0xFF") == 255 and _literal_sum("RETURN 0o17") == 15
    assert _literal_sum("RETURN 1_000_000") == 1_000_000
    assert _literal_sum("RETURN " + "9" * 5000) >= 10**30


def test_parameters_must_fit_cyphers_integers():
    assert check_params({"n": 2**63 - 1, "m": -2**63}) == {"n": 2**63 - 1, "m": -2**63}
    for value in (2**63, -2**63 - 1, 18446744073709551616, [1, 2**64], {"deep": 10**5000}):
        with pytest.raises(QueryError, match="outside Cypher's integers") as caught:
            check_params({"n": value})
        assert len(str(caught.value)) < 200


def test_a_rows_size_is_its_json():
    row = [{"_labels": ["Position"], "key": "A|1-1"}, [1, 2], "x" * 1000]
    assert row_bytes(row) == len(json.dumps(row))


def test_the_deadline_waits_for_a_late_answer_and_gives_up_on_a_runaway(monkeypatch):
    """A late answer Neo4j no longer lists is awaited a little longer; a statement it still runs
    past the timeout and the grace goes to the last resort, and the driver's retry of it is refused."""
    import threading
    import time

    from queries import console
    monkeypatch.setattr(console, "DEADLINE_GRACE_S", 0.2)
    monkeypatch.setattr(console, "_still_running", lambda driver, text: False)
    late = lambda: time.sleep(0.35) or "late answer"  # noqa: E731 - past timeout + grace, before the second grace
    assert console._within_deadline(None, "RETURN 1", 0.05, threading.Event(), late) == "late answer"

    monkeypatch.setattr(console, "_still_running", lambda driver, text: True)
    monkeypatch.setattr(console, "stop_runaway", lambda driver, text, timeout_s: QueryError("ran away"))
    release, abandoned = threading.Event(), threading.Event()
    began = time.monotonic()
    with pytest.raises(QueryError, match="ran away"):
        console._within_deadline(None, "RETURN 1", 0.05, abandoned, lambda: release.wait(120))
    # Gave up long before the runaway would have ended: a bound far from any machine's speed.
    assert time.monotonic() - began < 60 and abandoned.is_set()
    release.set()
    boom = ValueError("from the worker")
    with pytest.raises(ValueError, match="from the worker"):
        console._within_deadline(None, "RETURN 1", 1.0, threading.Event(), lambda: (_ for _ in ()).throw(boom))


# -- the lexical pre-check (issue 40): what never reaches Neo4j -------------------------------------
def text_refused(text: str, params: dict | None = None) -> str:
    from queries.console import check_text
    with pytest.raises(QueryError) as caught:
        check_text(text, params or {})
    assert "\n" not in str(caught.value) and "refused" in str(caught.value)
    return str(caught.value)


@pytest.mark.parametrize("text", [
    "RETURN " + "[" * 400 + "1" + "]" * 400 + " AS x",
    "RETURN " + "(" * 3000 + "1" + ")" * 3000 + " AS x",
    "RETURN " + "CASE WHEN true THEN " * 700 + "1" + " END" * 700 + " AS x",
    "RETURN " + "{a: " * 1200 + "1" + "}" * 1200 + " AS x",
    "WITH {} AS m RETURN m" + ".a" * 200 + " AS x",
    "RETURN " + "NOT " * 1000 + "true AS x",
    "RETURN 1" + " + 1" * 2000 + " AS x",
    "RETURN 1 AS x // \u2028" + "[" * 100 + "]" * 100,   # a comment ends at U+2028 here: counted either way
    "RETURN 1 AS x /* */ " + "[" * 100 + "]" * 100,
])
def test_deep_expressions_are_refused_before_neo4j_sees_them(text):
    assert "nest" in text_refused(text)


def test_brackets_in_strings_names_and_comments_are_not_code():
    from queries.console import MAX_DEPTH, check_text, expression_depth, tokens
    deep = "[" * 300
    for text in (f"RETURN '{deep}' AS s", f'RETURN "{deep}" AS s', f"RETURN 1 AS `{deep}`",
                 f"RETURN 1 AS s // {deep}", f"RETURN 1 AS s /* {deep} */", f"RETURN 'it\\'s {deep}' AS s",
                 f"RETURN \"\\\\\" + '{deep}' AS s", f"RETURN 1 AS `a``{deep}`"):
        assert expression_depth(tokens(text))[0] < MAX_DEPTH, text
        check_text(text)
    # Keywords as names do not open or close a CASE; a real CASE does.
    assert expression_depth(tokens("MATCH (n) RETURN n.case, n.end, {end: 1, case: 2}, $end"))[0] < 6
    case = expression_depth(tokens("RETURN CASE WHEN true THEN [1] END AS x"))[0]
    assert case == expression_depth(tokens("RETURN ([1]) AS x"))[0] == 3  # a level each (issue 40: not two)


@pytest.mark.parametrize("text, what", [
    ("RETURN 'abc", "string"), ('RETURN "abc\\"', "string"), ("RETURN 1 AS `abc", "name"),
    ("RETURN 1 /* never closed", "comment"),
])
def test_a_string_name_or_comment_left_open_is_one_line(text, what):
    assert what in text_refused(text)


def test_too_many_clauses_are_refused():
    from queries.console import MAX_CLAUSES, check_text
    check_text(" ".join(["WITH 1 AS x"] * (MAX_CLAUSES - 1)) + " RETURN x")
    assert "clauses" in text_refused(" ".join(["WITH 1 AS x"] * 300) + " RETURN x")


@pytest.mark.parametrize("text, params, needle", [
    ("RETURN size(reduce(s = 'x', i IN [" + ",".join(map(str, range(1, 41))) + "] | replace(s, 'x', 'xx'))) AS n",
     {}, "accumulator 's'"),
    ("RETURN size(" + "replace(" * 8 + "'x'" + ", 'x', 'xx')" * 8 + ") AS n", {}, "64 times"),
    ("RETURN replace('x', 'x', toString(1)) AS s", {}, "64 times"),
    ("RETURN replace('x', '', $by) AS s", {"by": "y" * 64}, "64 times"),
    ("WITH replace('xx', 'x', $by) AS a RETURN replace(a, 'y', $by) AS b", {"by": "y" * 10}, "64 times"),
    ("UNWIND range(1, 100) AS i RETURN reduce(s = '', j IN range(1, 8000) | s + '" + "x" * 1000 + "') AS s", {},
     "64 characters"),
    ("MATCH (a) WITH collect(a.key) AS c RETURN reduce(s = '', x IN c | s + x) AS s", {}, "cannot size"),
    ("MATCH (a) WITH collect(a.key) AS c RETURN [x IN c | [y IN c | x + y]] AS n", {}, "inside another"),
    ("MATCH (a) WITH collect(a) AS c RETURN any(x IN c WHERE any(y IN c WHERE x = y)) AS n", {}, "inside another"),
])
def test_growth_neo4j_cannot_stop_is_refused(text, params, needle):
    assert needle in text_refused(text, params)


def test_growth_that_stays_small_and_the_catalogue_pass():
    from pathlib import Path

    from queries.console import check_text
    for text, params in [
        ("RETURN replace(replace('a.b', '.', ' '), 'b', 'c') AS s", {}),
        ("RETURN replace('x', 'x', $by) AS s", {"by": "yy"}),
        ("UNWIND range(1, 1000) AS i RETURN reduce(s = '', j IN range(1, 500) | s + 'xxxxxxxxxxxxxxxxxxxx') AS s", {}),
        ("MATCH p = (a)-[*..3]->(b) RETURN reduce(s = '', n IN nodes(p) | s + n.key + ',') AS line", {}),
        ("MATCH (a) WITH collect(a.value) AS c RETURN reduce(s = 0, x IN c | s + x) AS total", {}),
        ("MATCH p = (a)-[*..3]->(b) WITH collect(p) AS ps RETURN [q IN ps | [n IN nodes(q) | n.key]] AS keys", {}),
        ("RETURN [x IN $xs | [y IN range(1, 3) | x * y]] AS t", {"xs": [1, 2]}),
    ]:
        check_text(text, params)
    for path in sorted((Path(__file__).parents[2] / "queries").glob("*.cypher")):
        check_text(path.read_text())


# -- issue 40, round two: the depth count and the parameters' size --------------------------------------
@pytest.mark.parametrize("opener, closer", [("[", "]"), ("(", ")"), ("{a: ", "}"), ("size(", ")")])
def test_nested_brackets_count_one_level_each(opener, closer):
    """32 nested brackets were reported as 65 levels (each counted twice): now one level each, plus the statement's."""
    from queries.console import MAX_DEPTH, check_text, expression_depth, tokens
    for depth in (1, 32, MAX_DEPTH - 1):
        text = "RETURN " + opener * depth + "1" + closer * depth + " AS x"
        assert expression_depth(tokens(text))[0] == depth + 1, text
    check_text("RETURN " + opener * (MAX_DEPTH - 1) + "1" + closer * (MAX_DEPTH - 1) + " AS x")
    assert f"{MAX_DEPTH + 1} levels" in text_refused("RETURN " + opener * MAX_DEPTH + "1" + closer * MAX_DEPTH + " AS x")


def test_an_index_chain_still_counts_a_step_per_index():
    from queries.console import expression_depth, tokens
    assert expression_depth(tokens("WITH [1] AS a RETURN a" + "[0]" * 30 + " AS x"))[0] == 32
    assert expression_depth(tokens("RETURN [1][0] AS x"))[0] == 3


@pytest.mark.parametrize("term", ["count(*)", "collect(1)", "all(x IN [1] WHERE true)", "exists((n))",
                                  "'a' |", "COUNT { MATCH (n) }"])
def test_a_chain_of_operators_between_any_terms_is_counted(term):
    """`count(*) + count(*) + ...` reset the chain at every count (and at all, collect, exists), and `||` at
    every bar: a chain of 200 passed as 3 levels or fewer."""
    from queries.console import MAX_DEPTH, expression_depth, tokens
    operator = "|" if term.endswith("|") else "+"
    text = "MATCH (n) RETURN " + f" {operator} ".join([term] * 200) + " AS x"
    assert expression_depth(tokens(text))[0] >= 200 > MAX_DEPTH
    assert "nest" in text_refused(text)
    # UNION ALL and RETURN DISTINCT still start a new expression: two chains of 39 operators, 40 levels.
    chain = " + ".join([term.rstrip("| ")] * 40)
    assert expression_depth(tokens(f"MATCH (n) RETURN {chain} AS x UNION ALL MATCH (n) RETURN DISTINCT {chain} AS x"))[0] \
        == expression_depth(tokens(f"MATCH (n) RETURN {chain} AS x"))[0] >= 40


def test_parameters_are_bounded_in_size():
    """A 3 MB JSON parameter was accepted and sent to Neo4j whole."""
    from queries.console import MAX_PARAM_SIZE
    check_params({"s": "x" * (MAX_PARAM_SIZE // 2)})
    for params in ({"s": "x" * 3_000_000}, {"l": ["x"] * 400_000}, {"m": {f"k{i}": i for i in range(200_000)}},
                   {"k" * 2_000_000: 1}):
        with pytest.raises(QueryError, match="the parameters are too large") as caught:
            check_params(params)
        assert len(str(caught.value)) < 300


def test_a_bound_that_may_hold_anything_is_named():
    message = refused(["reduce(s = $autoint_1, x IN range($autoint_2, n) | s) AS s", "$autoint_0 AS n"],
                      "WITH 9 AS n RETURN reduce(s = 0, x IN range(1, n) | s) AS s")
    assert "its bound n may be anything" in message and "autoint" not in message
    message = refused(["range($autoint_0, toInteger($autostring_0)) AS r"], "RETURN range(1, toInteger('12')) AS r")
    assert "its bound toInteger($autostring_0) may be anything" in message


@pytest.mark.parametrize("text", [
    "RETURN size(reduce(l = [0], i IN range(1, 40) | [x IN range(0, size(l) + size(l)) | x])) AS n",
    "RETURN size(reduce(l = [0], i IN range(1, 40) | l + [x IN range(0, size(l)) | x])) AS n",
    "RETURN size(reduce(`l` = [0], i IN range(1, 40) | [x IN `range`(0, length(`l`) + 1) | x])) AS n",
    "RETURN size(reduce(s = 'x', i IN range(1, 40) | s + toString(range(0, size(s))))) AS n",
])
def test_a_range_in_a_reduce_step_bounded_by_the_accumulator_is_refused(text):
    """Session 18's stranger: size(l) passed as the size of what exists, but inside reduce's step the accumulator
    is what grows: [x IN range(0, size(l) + size(l)) | x] doubles it at every step, and 40 steps left a Neo4j
    server with a 768 MB heap in garbage collection, answering no one, until it was stopped."""
    assert "range() bound from the accumulator" in text_refused(text)


def test_a_range_in_a_reduce_step_bounded_otherwise_still_runs():
    from queries.console import check_text
    check_text("RETURN reduce(t = 0, i IN range(1, 40) | t + size([x IN range(0, i) | x])) AS n", {})
    check_text("RETURN reduce(l = [0], i IN range(1, 40) | l + [size(l)]) AS n", {})
