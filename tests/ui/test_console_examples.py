"""Loading an example into the Cypher console: the statement shows, its own parameters replace the last ones.

The panel runs headless (Streamlit's AppTest) with a stand-in backend that says it is Neo4j;
nothing is run against a server, only examples are loaded.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from explorer.ui import console  # noqa: E402


def _panel():
    from types import SimpleNamespace

    from explorer.ui import console as panel_module

    backend = SimpleNamespace(kind="neo4j", description="Neo4j (stand-in)", neo4j_reason=None)
    panel_module.panel(backend, "tictactoe", ".../.../...", ".../.../...")


def test_split_header_keeps_the_statement_apart_from_its_comments():
    about, statement = console.split_header("// what it does\n//\n//   $game  the id\n\nMATCH (n)\nRETURN n\n")
    assert about == "what it does\n\n  $game  the id"
    assert statement == "MATCH (n)\nRETURN n\n"
    for name, text in console.examples().items():
        about, statement = console.split_header(text)
        assert not statement.lstrip().startswith("//"), name
        assert statement.strip() in text


def test_a_loaded_example_shows_its_statement_and_only_its_own_parameters():
    at = AppTest.from_function(_panel, default_timeout=60).run()
    assert not at.exception
    at.selectbox(key="cypher_example").select("neighbourhood").run()
    assert not at.exception
    first = json.loads(at.text_input(key="cypher_params").value)
    assert "direction" in first
    assert at.text_area(key="cypher_text").value.lstrip().startswith("MATCH")  # not the comment header
    at.selectbox(key="cypher_example").select("stats").run()
    second = json.loads(at.text_input(key="cypher_params").value)
    assert "direction" not in second and second == console.example_params("stats", "tictactoe", ".../.../...",
                                                                        ".../.../...")
    assert at.text_area(key="cypher_text").value.lstrip().startswith("MATCH")
