"""Board drawings of Toads and Frogs, Domineering and Dodgem: every legal move is one link on the board."""

from __future__ import annotations

import re
import xml.dom.minidom

import pytest

from explorer.games import parse_spec
from explorer.graph import generate
from explorer.ui.boards import dodgem as dodgem_board
from explorer.ui.boards import domineering as domineering_board
from explorer.ui.boards import toads_and_frogs as toads_board

CASES = [("toads-and-frogs(board=TT..FF)", toads_board), ("toads-and-frogs(board=T.F.TF.T.F,first=frogs)", toads_board),
         ("domineering(rows=3,cols=3)", domineering_board), ("domineering(rows=2,cols=4,first=horizontal)",
                                                              domineering_board),
         ("dodgem:3x3", dodgem_board)]


@pytest.mark.parametrize("spec,board", CASES)
def test_every_move_is_one_link_and_the_svg_parses(spec, board):
    game = parse_spec(spec)
    graph = generate(game, symmetry=False)
    for node in range(graph.num_positions):
        position = graph.position(node)
        links = {m.label: f"?game=x&pos={i}" for i, m in enumerate(game.moves(position))} \
            if game.outcome(position) is None else {}
        svg = board.svg(game, position, links)
        xml.dom.minidom.parseString(svg)  # well-formed
        assert sorted(re.findall(r'data-move="([^"]+)"', svg)) == sorted(
            label.replace("&", "&amp;") for label in links)
