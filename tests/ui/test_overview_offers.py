"""The page's strategy chart and survey heatmap are offered by a game's declaration (offers.chart,
offers.survey), not by its name: a plug-in game that declares them gets them, Chopsticks keeps them."""

from __future__ import annotations

from explorer.games import parse_spec
from explorer.render.chart import strategy_chart
from explorer.ui import analysis_panel, overview
from tests.render.test_chart_offers import Duel, DuelParams


def test_the_chart_is_offered_by_the_declaration_up_to_its_page_maximum():
    assert overview.chart_available(Duel(DuelParams(size=4)))
    refusal = overview.chart_refusal(Duel(DuelParams(size=5)))
    assert refusal and "up to size=4" in refusal
    assert overview.chart_available(parse_spec("chopsticks"))
    assert "up to fingers=12" in overview.chart_refusal(parse_spec("chopsticks(fingers=13)"))
    assert "offers no strategy chart" in overview.chart_refusal(parse_spec("tictactoe"))


def test_the_chart_table_of_a_plugin_game():
    chart = strategy_chart(Duel(DuelParams(size=3)))
    html = overview.chart_table_html(chart, ((1,), (2,)), link=lambda mine, theirs: f"?to={mine[0]}-{theirs[0]}")
    assert "<th>1</th>" in html and "<th>2</th>" in html
    assert 'href="?to=1-2"' in html and html.count("outline:3px") == 1


def test_the_survey_heatmap_is_offered_by_the_declaration():
    assert analysis_panel.survey_available(Duel())
    assert analysis_panel.survey_available(parse_spec("chopsticks"))
    assert not analysis_panel.survey_available(parse_spec("nim"))
    assert "declares no survey heatmap" in analysis_panel.survey_refusal(parse_spec("nim"))
