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


@pytest.mark.parametrize("spec, text", [("dodgem", "A|b../b../.rr"), ("teeko", "B|b..../..r../...../...../r...b"),
                                        ("dodgem:4x4", None)])
def test_dodgem_and_teeko_boards_carry_the_files_and_ranks_the_moves_name(spec, text):
    """Dodgem's and Teeko's moves name cells ("a2-b2"), as tic-tac-toe's do ("X c1"): their Graphviz
    boards carry the files below the grid and the ranks on its left (issue 37), not the bare grid."""
    game = parse_spec(spec)
    position = game.parse(text) if text else game.start()
    size = game.n
    label = board_label(game, position)
    small = re.findall(r'<FONT COLOR="[^"]+" POINT-SIZE="8">([^<]+)</FONT>', label)
    files, ranks = "abcdefgh"[:size], [str(r) for r in range(size, 0, -1)]
    assert small == ranks + list(files)
    rows = (game.format(position).split("|", 1)[1]).split("/")
    assert "".join(re.findall(r"<B>([^<]*)</B>", label)).replace(" ", "") == "".join(rows).replace(".", "")


def test_a_grid_whose_moves_do_not_name_cells_by_file_and_rank_has_no_names():
    """Toads and Frogs' moves number the strip's cells: chessboard names would mislabel it."""
    game = parse_spec("toads-and-frogs")
    assert "POINT-SIZE=\"8\"" not in board_label(game, game.start())


@pytest.mark.parametrize("spec", ["connect4:small", "connect4"])
def test_connect_four_s_diagram_boards_carry_the_files_its_moves_name(spec):
    """Connect Four's moves name a column ("a"): its Graphviz boards carry the files under the grid and no
    ranks (offers.named_files; issue 37: boards labelled as the moves name them)."""
    game = parse_spec(spec)
    position = game.moves(game.start())[0].position
    label = board_label(game, position)
    assert re.findall(r'<FONT COLOR="[^"]+" POINT-SIZE="8">([^<]+)</FONT>', label) == list("abcdefg"[:game.width])
    assert [m.label for m in game.moves(game.start())] == list("abcdefg"[:game.width])


def test_domineering_boards_carry_the_names_its_moves_use():
    """Domineering names cells as a chessboard does (a1 bottom-left; its a1 was the top-left cell, and its
    boards carried no names): the diagram's and the terminal's boards show the ranks and files."""
    from explorer.render.boards import labelled_text

    game = parse_spec("domineering(rows=2,cols=3)")
    label = board_label(game, game.start())
    assert re.findall(r'<FONT COLOR="[^"]+" POINT-SIZE="8">([^<]+)</FONT>', label) == ["2", "1", "a", "b", "c"]
    after = next(m.position for m in game.moves(game.start()) if m.label == "V a1-a2")
    assert labelled_text(game, after) == "2 # . .\n1 # . .\n  a b c"


def test_the_terminal_board_carries_files_and_ranks():
    from explorer.render.boards import labelled_text

    game = parse_spec("dodgem")
    assert labelled_text(game, game.parse("A|b../b../.rr")) == "3 b . .\n2 b . .\n1 . r r\n  a b c"
    dobutsu = parse_spec("dobutsu")
    assert labelled_text(dobutsu, dobutsu.start()).splitlines() == [
        "  -", "4 g l e", "3 . c .", "2 . C .", "1 E L G", "  a b c", "  -"]
    assert labelled_text(parse_spec("toads-and-frogs"), parse_spec("toads-and-frogs").start()) is None


@pytest.mark.parametrize("spec", ["dobutsu", "dobutsu:small"])
def test_dobutsu_boards_carry_the_files_and_ranks_the_moves_name(spec):
    """Dōbutsu shōgi's moves name squares ("L b1-a2", "C*b3") as every game that names cells does: its
    Graphviz board carries ranks 4 to 1 on its left and files a to c below (it had none, issue 37); each
    hand's cells keep to the board's columns (a spacer under the rank names)."""
    game = parse_spec(spec)
    position = next(m.position for m in game.moves(game.start()))
    label = board_label(game, position)
    small = re.findall(r'<FONT COLOR="[^"]+" POINT-SIZE="8">([^<]+)</FONT>', label)
    assert small == ["4", "3", "2", "1", "a", "b", "c"]
    held = "A|-/.l./.E./.L./.../E"  # a hand holding a piece: its cell sits after the rank names' spacer
    hand = board_label(parse_spec("dobutsu:small"), parse_spec("dobutsu:small").parse(held))
    assert re.search(r'<TR><TD WIDTH="10" FIXEDSIZE="TRUE"></TD><TD WIDTH="18"[^>]*><FONT[^>]*><B>E</B>', hand)
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg"], input=f'digraph {{ n [shape=box label=<{label}>] }}'.encode(), check=True,
                       capture_output=True)


def test_teeko_s_terminal_board_keeps_its_header_over_the_files_and_ranks():
    """Teeko's own drawing heads its board with the mover ("Black to move"); the terminal board lost that line
    when it gained ranks and files (issue 37). Both are there now, the board as other games' are drawn."""
    from explorer.commands.play import board_text

    game = parse_spec("teeko:small")
    after = next(m.position for m in game.moves(game.start()) if m.label == "b2")
    assert board_text(game, after).splitlines() == ["Red to move", "3 . . .", "2 . b .", "1 . . .", "  a b c"]
    dodgem = parse_spec("dodgem")  # no header in a drawing without one
    assert board_text(dodgem, dodgem.start()).splitlines()[0] == "3 b . ."


@pytest.mark.parametrize("spec", ["connect4", "connect4:standard"])
def test_connect_four_s_terminal_rows_are_spaced_over_the_files_its_moves_name(spec):
    """Connect Four's terminal rows were its notation's ("..X."); now a space between cells, as other games'
    boards, and the files below, the names of its moves (a column: "d")."""
    from explorer.commands.play import board_text

    game = parse_spec(spec)
    position = game.start()
    for label in "dcd":
        position = next(m.position for m in game.moves(position) if m.label == label)
    lines = board_text(game, position).splitlines()
    rows = game.format(position).split("/")
    assert lines[:-1] == [" ".join(row) for row in rows]
    assert lines[-1].split() == [m.label for m in game.moves(game.start())]  # every column open at the start
    column = lines[-1].index("d")
    assert [line[column] for line in lines[-3:-1]] == ["X", "X"]  # d's pieces stand over its letter
