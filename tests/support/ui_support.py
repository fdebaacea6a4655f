"""Shared AppTest set-up for the page tests: a fresh state folder, Neo4j pointed at a closed port."""

from __future__ import annotations

import re
from contextlib import contextmanager
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


@contextmanager
def console_page(settings, home: Path, game: str, monkeypatch, timeout: int = 180):
    """The page on `game`'s Cypher console, run once, reaching the Neo4j of `settings` (loaders.settings.Neo4jSettings)
    with the state folder `home`; the page's cached connection is dropped before and after."""
    monkeypatch.setenv("GAMEGRAPH_HOME", str(home))
    for name, value in (("NEO4J_URI", settings.uri), ("NEO4J_USER", settings.user),
                        ("NEO4J_PASSWORD", settings.password), ("NEO4J_DATABASE", settings.database)):
        monkeypatch.setenv(name, value)
    ui_backend.connection.clear()
    try:
        at = AppTest.from_file(APP, default_timeout=timeout)
        at.query_params.update(game=game, view="Cypher console")
        yield at.run()
    finally:
        ui_backend.connection.clear()
