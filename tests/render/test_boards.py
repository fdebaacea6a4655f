"""Board pictures for Graphviz nodes (explorer/render/boards.py): every game's, and the notation fallback."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess

import pytest

from explorer.games import games, parse_spec
from explorer.render.boards import board_label


@pytest.mark.parametrize("name", sorted(games()))
def test_every_built_in_game_draws_its_start_as_a_table(name):
    game = games()[name]()
    label = board_label(game, game.start())
    assert label is not None and label.startswith("<TABLE") and label.endswith("</TABLE>")
    if shutil.which("dot"):  # Graphviz accepts it as an HTML-like label
        source = f'digraph {{ n [shape=box label=<{label}>] }}'
        subprocess.run(["dot", "-Tsvg"], input=source.encode(), check=True, capture_output=True)


def test_tictactoe_cells_are_in_place():
    game = parse_spec("tictactoe")
    label = board_label(game, game.parse("X.O/.X./..O"))
    assert "".join(re.findall(r"<B>([XO ])</B>", label)).replace(" ", ".") == "X.O.X...O"


def test_chopsticks_shows_each_hand_and_the_mover():
    game = parse_spec("chopsticks")
    label = board_label(game, game.parse("B|3-0|1-4"))
    counts = re.findall(r"<B>([0-9✕]+)</B>", label)
    assert counts == ["3", "✕", "1", "4"]
    assert "▶ B" in label and "▶ A" not in label


def test_a_notation_that_is_no_grid_has_no_picture():
    game = parse_spec("nim")

    class Plain(type(game)):
        name = "plain-nim"
        offers = dataclasses.replace(type(game).offers, board=None)

    assert board_label(Plain(), Plain().start()) is None  # A|1-3-5-7: the notation is the label
