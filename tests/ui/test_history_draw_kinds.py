"""The value history labels a draw by its real kind (issue 37): a draw-win or draw-lose by its draw level,
any other draw as safe or sharp (every draw of Chopsticks is non-pure, which told nothing)."""

from __future__ import annotations

from explorer.analysis.draws import SHARP, analyse
from explorer.solved import build
from explorer.ui import state
from explorer.ui.history import history_points


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
