"""The analysis views on the page (AppTest): draw kinds, the draw map, the survey and the diff."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from explorer.analysis.draws import analyse, position_report  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui import backend as ui_backend  # noqa: E402

APP = str(Path(__file__).resolve().parents[1] / "explorer" / "ui" / "app.py")


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    ui_backend.connection.clear()
    yield
    ui_backend.connection.clear()


def page(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_a_sharp_draw_lists_its_dangerous_moves():
    solved = build("chopsticks")
    analysis = analyse(solved)
    node = next(n for n in range(solved.graph.num_positions) if analysis.losing_moves[n] > 0)
    report = position_report(solved, analysis, node)
    at = page(game="chopsticks", pos=report["key"])
    assert not at.exception, [e.value for e in at.exception]
    assert f"**Sharp draw**" in text(at) and f"{report['losing_moves']} move(s) lose" in text(at)


def test_draw_map_survey_and_diff_render():
    at = page(game="chopsticks", view="Draw map")
    assert not at.exception, [e.value for e in at.exception]
    assert "draws**" in text(at) and "Drawing core" in text(at)
    at = page(game="chopsticks", view="Survey")
    at.slider(key="survey_fingers").set_value((3, 4)).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("48 rule sets" in c.value for c in at.caption)
    at = page(game="chopsticks", view="Compare rules")
    at.text_input(key="diff_other").set_value("chopsticks:rollover").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "**56** change value" in text(at)
    at.text_input(key="diff_other").set_value("tictactoe").run()
    assert any("one game" in e.value for e in at.error)
