"""Shared AppTest set-up for the page tests: a fresh state folder, Neo4j pointed at a closed port."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from explorer.ui import backend as ui_backend

APP = str(Path(__file__).resolve().parents[2] / "explorer" / "ui" / "app.py")


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")   # nothing listens there: the mirror answers
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    ui_backend.connection.clear()
    yield
    ui_backend.connection.clear()


def text_of(line: str) -> str:
    """An error or note line as the reader sees it: explorer.ui.widgets escapes Markdown in them
    and puts zero-width spaces inside bare addresses."""
    return re.sub(r"\\(.)", r"\1", line).replace("\u200b", "")


def page(timeout: int = 180, **params: str) -> AppTest:
    """The page run once with these URL parameters."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)
