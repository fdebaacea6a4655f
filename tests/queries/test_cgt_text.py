"""A query's combinatorial values in text are written as `gamegraph cgt` and the UI write them (±1, ↑), through
the notation's one spelling for display; JSON keeps the stored ASCII ('+-1'), the text --value and Neo4j match on."""

from __future__ import annotations

import json

import pytest

from explorer.cgt.notation import format_value, parse_value, shown_stored
from explorer.solved import build
from loaders.mirror import to_networkx
from queries.api import NetworkxBackend, run_query
from queries.results import format_result

SPEC = "toads-and-frogs:winning-ways"


@pytest.fixture(scope="module")
def backend():
    return NetworkxBackend(to_networkx(build(SPEC)))


def _text_rows(text: str) -> list[list[str]]:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("key "))
    return [line.split() for line in lines[at + 2:] if line.strip() and not line.startswith("note:")]


def test_cgt_hot_prints_values_as_the_notation_writes_them(backend):
    result = run_query(backend, "cgt-hot", limit=20)
    stored = result.table("positions").column("cgt")
    assert any("+-" in value for value in stored)  # the stranger's +-1/8 and {5/16+-3/16|0} are among them
    text = format_result(result)
    assert "+-" not in text and "±" in text and str(result) == text
    printed = {row[0]: row[1] for row in _text_rows(text)}
    keys = result.table("positions").column("key")
    assert [printed[key] for key in keys] == [format_value(parse_value(value)) for value in stored]


def test_json_keeps_the_stored_ascii(backend):
    result = run_query(backend, "cgt-hot", limit=20)
    table = json.loads(result.to_json())["tables"]["positions"]
    assert [row[table["columns"].index("cgt")] for row in table["rows"]] == result.table("positions").column("cgt")
    assert "±" not in result.to_json()


def test_cgt_equal_heads_its_value_in_the_same_spelling(backend):
    result = run_query(backend, "cgt-equal", value="{0|-1/4}")  # any spelling: the canonical -1/8+-1/8
    heading = format_result(result).splitlines()[0]
    assert "value=-1/8±1/8" in heading and "+-" not in format_result(result)


def test_shown_stored_is_format_value_and_leaves_other_text():
    assert shown_stored("+-1") == "±1" and shown_stored("{5/16+-3/16|0}") == "{5/16±3/16|0}"
    assert shown_stored("^*") == "↑*" and shown_stored("not a value") == "not a value"
