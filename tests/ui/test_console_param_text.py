"""The console's parameter text is bounded before it is read (explorer.ui.console.MAX_PARAM_TEXT).

check_params bounds what the parameters hold only after json.loads has read the whole text, which Streamlit
passes up to 200 MB: the page read (and kept in its history) all of it first. Now a text over the bound is one
escaped line and is never parsed, remembered or sent; a text within it goes on as before."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from explorer.ui import console


@pytest.fixture
def page(monkeypatch):
    """The console module over a plain session state: the errors shown, the texts parsed, the statements sent."""
    seen = SimpleNamespace(errors=[], parsed=[], sent=[])
    monkeypatch.setattr(console, "st", SimpleNamespace(session_state={"cypher_text": "RETURN $s AS s"}))
    monkeypatch.setattr(console, "error", seen.errors.append)
    monkeypatch.setattr(console, "json", SimpleNamespace(
        loads=lambda text: (seen.parsed.append(len(text)), json.loads(text))[1], dumps=json.dumps,
        JSONDecodeError=json.JSONDecodeError))

    def refuse(*args, **kwargs):
        seen.sent.append(args)
        raise console.GameGraphError("stopped here")

    monkeypatch.setattr(console.api, "run_readonly_cypher", refuse)
    return seen


def test_a_parameter_text_over_the_bound_is_one_line_and_never_read(page):
    text = json.dumps({"s": "é" * (console.MAX_PARAM_TEXT + 1)})
    console.st.session_state["cypher_params"] = text
    console._run(SimpleNamespace(driver=None, database="neo4j"), "nim")
    assert page.parsed == [] and page.sent == [] and not console.st.session_state.get("cypher_history")
    assert len(page.errors) == 1 and "\n" not in page.errors[0]
    assert f"{len(text):,} characters" in page.errors[0] and f"{console.MAX_PARAM_TEXT:,}" in page.errors[0]
    console._use_position("nim", "1-2")  # the button starts again from the position, without reading the text
    assert page.parsed == [] and json.loads(console.st.session_state["cypher_params"]) == {"game": "nim", "key": "1-2"}


def test_a_parameter_text_within_the_bound_is_read_as_before(page):
    console.st.session_state["cypher_params"] = json.dumps({"s": "x" * 1000})
    console._run(SimpleNamespace(driver=None, database="neo4j"), "nim")
    assert len(page.parsed) == 1 and len(page.sent) == 1 and page.sent[0][3] == {"s": "x" * 1000}
    assert page.errors == ["stopped here"]
