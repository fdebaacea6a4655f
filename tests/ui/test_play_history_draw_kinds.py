"""The Play tab's value history labels a draw by its real kind, as the explorer's does (issue 37): a draw
without a draw level (every draw of Chopsticks is non-pure) is a "safe draw" or a "sharp draw", never
"non-pure", which told nothing; a draw with a level keeps its class and level."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("streamlit")
from explorer.analysis.draws import SHARP, analyse  # noqa: E402
from explorer.core.values import Value  # noqa: E402
from explorer.play import Match, Played, start_position  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui.play_panel import history_points  # noqa: E402


def drawn_game(solved, plies: int, seed: int) -> Played:
    """A game that keeps to draws for `plies` plies (random draw-keeping moves), from the start."""
    played = Played(Match(solved), start_position(solved))
    rng = random.Random(seed)
    for _ in range(plies):
        keeping = [n for n, _, _, node in played.moves() if solved.value(node) == Value.DRAW]
        if not keeping:
            break
        played.play(rng.choice(keeping))
    return played


def test_the_play_tabs_draws_are_safe_or_sharp_not_non_pure():
    solved = build("chopsticks")
    analysis = analyse(solved)
    kinds, expected = [], []
    for seed in range(4):
        played = drawn_game(solved, 12, seed)
        nodes = [played.match.start, *(played.match.find(p.after) for p in played.match.plies)]
        for point, node in zip(history_points(played), nodes):
            assert point.value == "draw"
            kinds.append(point.draw_class)
            expected.append("sharp draw" if analysis.kind[node] == SHARP else "safe draw")
    assert len(kinds) > 12 and "non-pure" not in kinds
    assert kinds == expected


def test_a_levelled_draw_keeps_its_class_and_level():
    solved = build("ponghauki")
    played = drawn_game(solved, 6, 1)
    points = history_points(played)
    assert points and all(p.draw_class in ("draw-win", "draw-lose") and p.draw_level is not None
                          for p in points if p.value == "draw")
