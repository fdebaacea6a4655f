"""The analysis views on the page (AppTest): draw kinds, the draw map, the survey and the diff."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from tests.ui_support import isolated, markdown, page  # noqa: E402,F401 - the autouse fixture
from explorer.analysis.draws import analyse, position_report  # noqa: E402
from explorer.solved import build  # noqa: E402



def test_a_sharp_draw_lists_its_dangerous_moves():
    solved = build("chopsticks")
    analysis = analyse(solved)
    node = next(n for n in range(solved.graph.num_positions) if analysis.losing_moves[n] > 0)
    report = position_report(solved, analysis, node)
    at = page(game="chopsticks", pos=report["key"])
    assert not at.exception, [e.value for e in at.exception]
    assert "**Sharp draw**" in markdown(at) and f"{report['losing_moves']} move(s) lose" in markdown(at)


def test_draw_map_survey_and_diff_render():
    at = page(game="chopsticks", view="Draw map")
    assert not at.exception, [e.value for e in at.exception]
    assert "draws**" in markdown(at) and "Drawing core" in markdown(at)
    at = page(game="chopsticks", view="Survey")
    at.slider(key="survey_fingers").set_value((3, 4)).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("48 rule sets" in c.value for c in at.caption)
    at = page(game="chopsticks", view="Compare rules")
    at.text_input(key="diff_other").set_value("chopsticks:rollover").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "**56** change value" in markdown(at)
    at.text_input(key="diff_other").set_value("tictactoe").run()
    assert any("one game" in e.value for e in at.error)
