"""The page's combinatorial-value section and sum builder, driven headless by AppTest."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from tests.support.ui_support import isolated, markdown, page, text_of  # noqa: E402,F401 - the autouse fixture
from explorer.cgt.evaluate import value_of  # noqa: E402
from explorer.games import parse_spec  # noqa: E402



def test_position_shows_its_value_and_moves():
    at = page(game="toads-and-frogs(board=T.TFF)", pos="T|T.TFF")
    assert not at.exception, [e.value for e in at.exception]
    assert "G = `↑`" in markdown(at) and "Left wins, whoever starts" in markdown(at)


def test_sum_builder_adds_positions_across_games():
    game = parse_spec("toads-and-frogs")
    at = page(game="toads-and-frogs", view="Sum of games")
    at.multiselect(key="cgt_sum_boards").set_value(["TT..FF"]).run()
    at.text_input(key="cgt_sum_extra").set_value("T.TFF, nim::1-2").run()
    assert not at.exception, [e.value for e in at.exception]
    total = value_of(game, "TT..FF") + value_of(game, "T.TFF") + value_of(parse_spec("nim"), (1, 2))
    assert f"G = `{total}`" in markdown(at)


def test_sum_builder_takes_the_example_its_label_gives():
    """A spec with several parameters has commas of its own: only the commas between positions split."""
    game = parse_spec("toads-and-frogs")
    at = page(game="toads-and-frogs", view="Sum of games")
    at.multiselect(key="cgt_sum_boards").set_value(["TT..FF"]).run()
    at.text_input(key="cgt_sum_extra").set_value("domineering(rows=2,cols=2)::../.., nim::1-2").run()
    assert not at.exception and not at.error, [text_of(e.value) for e in at.error]
    domineering = parse_spec("domineering(rows=2,cols=2)")
    total = (value_of(game, "TT..FF") + value_of(domineering, domineering.parse_board("../.."))
             + value_of(parse_spec("nim"), (1, 2)))
    assert f"G = `{total}`" in markdown(at)


@pytest.mark.parametrize("text, parts", [
    ("", []), (" , ,", []), ("T.TFF", ["T.TFF"]), ("T.TFF, nim::1-2", ["T.TFF", "nim::1-2"]),
    ("domineering(rows=2,cols=2)::../..,T.TFF", ["domineering(rows=2,cols=2)::../..", "T.TFF"]),
    ("a),b", ["a)", "b"]), ("x(,y", ["x(,y"]),
])
def test_positions_split_only_outside_parentheses(text, parts):
    from explorer.ui.cgt_panel import split_positions

    assert split_positions(text) == parts


def test_sum_builder_reports_bad_positions_in_one_line():
    at = page(game="toads-and-frogs", view="Sum of games")
    at.text_input(key="cgt_sum_extra").set_value("TX").run()
    assert not at.exception
    assert any("T, F and . only" in text_of(e.value) for e in at.error)


def test_loopy_games_explain_that_sums_need_values():
    at = page(game="chopsticks", view="Sum of games")
    assert not at.exception
    assert any("no combinatorial values" in i.value for i in at.info)


def test_an_impartial_game_shows_one_move_table():
    """Nim: both sides have the same options, so one table, not two identical ones; Toads and Frogs keeps two."""
    at = page(game="nim", pos="1-2")
    assert not at.exception, [e.value for e in at.exception]
    captions = [c.value for c in at.caption]
    assert any("the game is impartial" in c for c in captions) and not any(c.startswith("Left (") for c in captions)
    at = page(game="toads-and-frogs(board=T.TFF)", pos="T|T.TFF")
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Left (") for c in captions) and not any("the game is impartial" in c for c in captions)


def test_position_shows_mean_temperature_and_its_thermograph():
    """Winning Ways' 2×3 Domineering rectangle {2 | −1/2}: mean 3/4, temperature 5/4, and its thermograph."""
    at = page(game="domineering(rows=2,cols=3)", pos="V|.../...")
    assert not at.exception, [e.value for e in at.exception]
    assert "mean **3/4** · temperature **5/4**" in markdown(at)
    (drawing,) = [e for e in at.expander if e.label == "Thermograph"]
    assert [c.type for c in drawing.children.values()] == ["image", "caption"], "the thermograph is drawn"
    at = page(game="toads-and-frogs(board=T.TFF)", pos="T|T.TFF")
    assert "mean **0** · temperature **0**" in markdown(at)  # ↑ is infinitesimal


def test_sum_builder_shows_the_sums_mean_and_temperature():
    at = page(game="domineering(rows=2,cols=3)", view="Sum of games")
    at.multiselect(key="cgt_sum_boards").set_value([]).run()
    at.text_input(key="cgt_sum_extra").set_value(".../..., #../#.., nim::1-2").run()
    assert not at.exception, [e.value for e in at.exception]
    from fractions import Fraction

    from explorer.analysis.cgt_report import describe, parse_component

    game = parse_spec("domineering(rows=2,cols=3)")
    means = [Fraction(describe(parse_component(game, t))["mean"]) for t in (".../...", "#../#..", "nim::1-2")]
    assert means == [Fraction(3, 4), 0, 0] and f"mean **3/4** · temperature **5/4**" in markdown(at)
    assert len([e for e in at.expander if e.label == "Thermograph"]) == 2  # the position's and the sum's
