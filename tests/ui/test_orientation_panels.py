"""The page's best line and cycles are played on the board shown: each board is the one before it
with the move named (issue 18's tic-tac-toe line, where "X a3" led to a board with X on c1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from explorer.games import parse_spec  # noqa: E402
from tests.support.ui_support import isolated  # noqa: E402,F401 - the autouse fixture

APP = str(Path(__file__).resolve().parents[2] / "explorer" / "ui" / "app.py")


def page(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def _whole_line(at: AppTest) -> list[tuple[str | None, str]]:
    """(move label, board) of every step of the best line's "whole line" table."""
    table = next(d.value for d in at.dataframe if "stored key" in d.value.columns)
    return [(row["move"] or None, row["position"]) for row in table.to_dict("records")]


@pytest.mark.parametrize("spec,start", [("tictactoe", "X../.O./..."), ("chopsticks", "A|3-1|1-1")])
def test_the_best_line_follows_the_moves_named(spec, start):
    at = page(game=spec, pos=start, view="Best line")
    assert not at.exception, [e.value for e in at.exception]
    game = parse_spec(spec)
    steps = _whole_line(at)
    assert steps[0] == (None, start) and len(steps) > 2
    for (_, before), (label, after) in zip(steps, steps[1:]):
        played = [game.format(m.position) for m in game.moves(game.parse(before)) if m.label == label]
        assert after in played, (before, label, after)


def test_the_cycles_follow_the_moves_named():
    at = page(game="chopsticks", pos="A|1-1|2-1", view="Cycles")
    assert not at.exception, [e.value for e in at.exception]
    game = parse_spec("chopsticks")
    chains = [m.value for m in at.markdown if m.value.startswith("`A|1-1|2-1`")]
    assert chains
    for chain in chains:
        boards = re.findall(r"`([^`]+)`", chain)
        labels = [label.replace("\\", "") for label in re.findall(r" —(.+?)→ ", chain)]
        assert len(labels) == len(boards) - 1
        for before, label, after in zip(boards, labels, boards[1:]):
            played = [game.format(m.position) for m in game.moves(game.parse(before)) if m.label == label]
            assert after in played, (before, label, after)


def _path_chain(at: AppTest) -> str:
    return next(m.value for m in at.markdown if re.match(r"\*\*\d+ moves?:\*\* ", m.value))


@pytest.mark.parametrize("spec,start,to", [("tictactoe", ".../.../...", "XXX/OO./..."),
                                           ("chopsticks", "A|1-2|1-2", "A|0-4|2-3")])
def test_the_shortest_path_ends_on_the_board_typed(spec, start, to):
    """Best line's "Shortest path from here to…" ends on exactly the board typed (it ended on a mirror image of
    it: XO./XO./X.. for XXX/OO./...), each board the one before it with the move named."""
    at = page(game=spec, pos=start, view="Best line")
    at.text_input(key="path_to").input(to)
    at = at.button[[b.label for b in at.button].index("Find path")].click().run()
    assert not at.exception and not at.error, [e.value for e in (*at.exception, *at.error)]
    game = parse_spec(spec)
    chain = _path_chain(at)
    boards = re.findall(r"`([^`]+)`", chain)
    labels = [label.replace("\\", "") for label in re.findall(r" —(.+?)→ ", chain)]
    assert boards[0] == start and boards[-1] == to and len(labels) == len(boards) - 1
    for before, label, after in zip(boards, labels, boards[1:]):
        played = [game.format(m.position) for m in game.moves(game.parse(before)) if m.label == label]
        assert played == [after], (before, label, after)


def test_a_path_to_a_board_play_never_reaches_is_one_error_line():
    at = page(game="tictactoe", pos="X../.../...", view="Best line")
    at.text_input(key="path_to").input("..X/.O./X..")  # X stays on a3: X on c3 and a1 is a mirror image
    at = at.button[[b.label for b in at.button].index("Find path")].click().run()
    assert not at.exception
    errors = [e.value.replace("\\", "") for e in at.error]  # the page escapes the markdown it echoes
    assert any("..X/.O./X.." in e and "never reaches it" in e and "\n" not in e for e in errors), errors
