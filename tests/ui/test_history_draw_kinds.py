"""The value history labels a draw by its real kind (issue 37): a draw-win or draw-lose by its draw level,
any other draw as safe or sharp (every draw of Chopsticks is non-pure, which told nothing)."""

from __future__ import annotations

from explorer.analysis.draws import SHARP, analyse
from explorer.solved import build
from explorer.ui import state
from explorer.ui.history import history_points
from tests.support.ui_support import isolated, markdown, page  # noqa: F401 - the autouse fixture: a home of its own


def test_non_pure_draws_are_labelled_safe_or_sharp_and_levelled_draws_keep_their_level():
    solved = build("chopsticks")
    graph, analysis = solved.graph, analyse(solved)
    draws = [u for u in range(graph.num_positions) if solved.value(u).name.lower() == "draw"]
    assert draws
    trail = [state.Step(graph.key(u), int(graph.to_move[u]) if hasattr(graph, "to_move") else 0, "draw", None)
             for u in draws[:40]]
    kinds = [p.draw_class for p in history_points(trail, solved)]
    assert "non-pure" not in kinds
    assert kinds == [("sharp draw" if analysis.kind[u] == SHARP else "safe draw") for u in draws[:40]]
    assert len(set(kinds)) == 2  # both kinds occur among them: the label tells them apart
    levelled = build("ponghauki")
    draw = next(u for u in range(levelled.graph.num_positions) if levelled.draw_record(u)["draw_level"] is not None)
    point = history_points([state.Step(levelled.graph.key(draw), 0, "draw", None)], levelled)[0]
    assert point.draw_class in ("draw-win", "draw-lose") and point.draw_level is not None


def test_the_position_s_draw_section_names_the_kind_as_the_history_does_and_labels_the_level():
    """The panel under the position said "Draw level: non-pure draw" and "Sharp draw" side by side, and the
    value history "sharp draw": read as a contradiction. Each is labelled now, and the kind is the history's."""
    from explorer.algorithms.draw_levels import NONPURE

    solved = build("chopsticks")
    levels = solved.draw_levels
    for wanted in ("sharp draw", "safe draw"):
        node = next(u for u in range(solved.graph.num_positions) if levels.kind[u] == NONPURE
                    and history_points([state.Step(solved.graph.key(u), 0, "draw", None)], solved)[0].draw_class
                    == wanted)
        at = page(game="chopsticks", pos=solved.graph.key(node))
        assert not at.exception, [e.value for e in at.exception]
        text = markdown(at)
        assert f"Draw kind: **{wanted}**" in text, text
        assert "Draw level: **none** (non-pure draw:" in text
        assert "**non-pure" not in text  # "non-pure" only inside the level line, never as a kind
