"""The analysis views on the page (AppTest): draw kinds, the draw map, the survey and the diff."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from tests.support.ui_support import isolated, markdown, page, text_of  # noqa: E402,F401 - the autouse fixture
from explorer.analysis.diff import diff, only_in_one  # noqa: E402
from explorer.analysis.draws import analyse, position_report  # noqa: E402
from explorer.solved import build  # noqa: E402



def test_a_sharp_draw_lists_its_dangerous_moves():
    solved = build("chopsticks")
    analysis = analyse(solved)
    node = next(n for n in range(solved.graph.num_positions) if analysis.losing_moves[n] > 0)
    report = position_report(solved, analysis, node)
    at = page(game="chopsticks", pos=report["key"])
    assert not at.exception, [e.value for e in at.exception]
    assert "Draw kind: **sharp draw**" in markdown(at) and f"{report['losing_moves']} move(s) lose" in markdown(at)


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
    assert any("one game" in text_of(e.value) for e in at.error)


def test_draw_levels_on_the_position_page_and_the_map():
    from explorer.algorithms.draw_levels import draw_levels
    from explorer.games.base import player_name

    solved = build("ponghauki")
    levels = draw_levels(solved.graph, solved.solution.value)
    node = next(n for n in range(solved.graph.num_positions) if levels.level[n] >= 0 and levels.remoteness[n] > 0)
    mover = int(solved.graph.to_move[node])
    expected = levels.describe(node, player_name(solved.game, mover), player_name(solved.game, 1 - mover))
    at = page(game="ponghauki", pos=solved.graph.key(node))
    assert not at.exception, [e.value for e in at.exception]
    code, sentence = expected.split(":", 1)
    assert f"**{code}**:{sentence}" in markdown(at)
    at = page(game="ponghauki", view="Draw map")
    at.radio(key="draw_map_colour").set_value("draw level").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("12 draw-win at level 0" in c.value for c in at.caption)


@pytest.mark.parametrize("bad,says", [("tictactoe", "not of chopsticks"), ("chopsticks:nope", "unknown preset 'nope'"),
                                      ("chop((", "malformed game spec"),
                                      ("chopsticks(fingers=9)", "more than the limit of 2,000 positions")])
def test_a_bad_rule_set_to_compare_with_is_one_error_line_and_the_page_keeps_working(bad, says, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "2000")   # chopsticks has 342 positions, fingers=9 ~4,000
    at = page(game="chopsticks", view="Compare rules")
    at.text_input(key="diff_other").set_value(bad).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.error) == 1 and says in text_of(at.error[0].value) and repr(bad) in text_of(at.error[0].value), \
        [e.value for e in at.error]
    at.text_input(key="diff_other").set_value("").run()
    at.selectbox(key="diff_preset").set_value("chopsticks:rollover").run()
    assert not at.exception and not at.error
    assert "**56** change value" in markdown(at)


@pytest.mark.parametrize("bad", ["chopsticks(fingers=" + "9" * 4_500 + ")", "tictactoe(" + " " * 900 + ")"])
def test_a_long_rule_set_to_compare_with_is_cut_in_its_error_line(bad):
    """The box echoed a 4,500-character spec in full (4,644 characters); every other box cuts it (errors.shown)."""
    from explorer.core.errors import shown

    at = page(game="chopsticks", view="Compare rules")
    at.text_input(key="diff_other").set_value(bad).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.error) == 1, [e.value for e in at.error]
    said = text_of(at.error[0].value)
    assert shown(bad) in said and len(said) < 300, said


def test_side_by_side_shows_the_chosen_position_under_each_rule_set():
    first, second = build("chopsticks"), build("chopsticks:rollover")
    report = {**diff(first, second), **only_in_one(first, second)}
    at = page(game="chopsticks", view="Compare rules")
    at.selectbox(key="diff_preset").set_value("chopsticks:rollover").run()
    assert not at.exception, [e.value for e in at.exception]
    pick = at.selectbox(key="diff_pick")
    assert pick.value == report["positions_changed"][0]["key"]     # the first changed position by default
    key = report["positions_changed"][7]["key"]
    pick.set_value(key).run()
    values = [m.value for m in at.markdown if 'class="gg-diff-value"' in m.value]
    assert len(values) == 2
    for text, solved in zip(values, (first, second)):
        node = solved.graph.find(key)
        assert f"<code>{key.replace('&', '&amp;')}</code>" in text
        r = solved.remoteness(node)
        assert f">{solved.value(node)}{'' if r is None else f' in {r}'}</span>" in text
        assert "differs" in text
    headings = [m.value for m in at.markdown if m.value.startswith("#### ")]
    sides = ["#### This rule set: chopsticks:standard", "#### The other: chopsticks:rollover"]
    assert [h for h in headings if h.startswith(("#### This rule set", "#### The other"))] == sides, headings
    at_first = headings.index(sides[0])  # the two columns side by side (the page's own panels may follow them)
    assert headings[at_first:at_first + 2] == sides, headings
    tables = [t.value for t in at.dataframe if "best move" in t.value.columns]
    for table, solved in zip(tables, (first, second)):
        node = solved.graph.find(key)
        best = sorted(m["to"] for m in solved.moves(node) if m["optimal"])
        assert sorted(table["to"]) == best
    only_there = report["only_second_sample"][0]
    at.selectbox(key="diff_pick").set_value(only_there).run()
    assert not at.exception
    assert len(at.warning) == 1 and "not a position of chopsticks:standard" in at.warning[0].value


def test_the_survey_legend_colours_values_as_the_badges_and_diagrams():
    """A tie was purple in the survey legend but yellow in the badges and diagrams."""
    from explorer.render import palette
    from explorer.ui.drawing import value_badge
    from tests.render.test_palette import colour_scales, page_charts

    at = page(game="chopsticks", view="Survey")
    at.slider(key="survey_fingers").set_value((2, 2)).run()
    assert not at.exception, [e.value for e in at.exception]
    scales = [scale for chart in page_charts(at) for scale in colour_scales(chart)]
    assert len(scales) == 1 and list(scales[0]) == ["win", "loss", "draw", "tie"]  # the legend's order
    assert scales[0] == palette.COLOURS
    for value, colour in scales[0].items():
        assert f"border:1px solid {colour};" in value_badge(value)
