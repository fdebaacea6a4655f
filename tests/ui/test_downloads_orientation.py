"""One move, one name, in the page's neighbourhood downloads (issue 37): the diagram the Downloads tab offers
(explorer.ui.graphs, DOT/SVG/PNG) draws each position as the canvas does, in the orientation that follows the
moves from the board the page shows (Game.orient), names each move as played on the board drawn at its start
and marks ⇄ the moves that leave the mirror image of the board drawn at their end; the canvas, the download
and `gamegraph query`'s tables agree move for move.

Each expectation is checked by playing the move with the game's own rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from explorer.games.base import MIRRORED_MARK  # noqa: E402
from explorer.render import dot as dots  # noqa: E402
from explorer.solved import load_or_build  # noqa: E402
from explorer.ui import canvas, data, graphs  # noqa: E402
from explorer.ui.backend import Backend  # noqa: E402
from loaders.mirror import mirror_for  # noqa: E402
from queries.api import NetworkxBackend, run_query  # noqa: E402
from tests.queries.test_neighbourhood_as_played import check_move, mirrored_board  # noqa: E402
from tests.support.ui_support import isolated  # noqa: E402,F401 - the autouse fixture: a state folder of each test's own

APP = str(Path(__file__).resolve().parents[2] / "explorer" / "ui" / "app.py")
ID = r'("(?:[^"\\]|\\.)*"|[^\s\[\]"]+)'


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"') if text.startswith('"') else text


def parse_linked(source: str) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """The DOT the page downloads, read back: (node id -> the board its label shows, [(from id, to id, the
    move's label)])."""
    nodes, edges = {}, []
    for line in source.splitlines():
        edge = re.match(rf"\s*{ID} -> {ID} \[(.*)\]$", line)
        if edge:
            label = re.search(rf"\blabel={ID}", edge[3])
            edges.append((_unquote(edge[1]), _unquote(edge[2]), _unquote(label[1]) if label else ""))
            continue
        node = re.match(rf"\s*{ID} \[label=\"(.*?)\\n", line)
        if node:
            nodes[_unquote(node[1])] = node[2]
    return nodes, edges


@pytest.mark.parametrize("spec", ["tictactoe", "chopsticks:standard"])
def test_the_downloaded_neighbourhood_is_played_as_drawn_and_agrees_with_the_canvas_and_the_cli(spec):
    solved = load_or_build(spec)
    game = solved.game
    mirror = NetworkxBackend(mirror_for(spec))
    backend = Backend("networkx", "the networkx mirror", queries=mirror)
    shown = mirrored_board(game)          # the page shows a board whose stored key is another orientation
    board, key = game.format(shown), game.key(shown)
    assert board != key
    hood = data.neighbourhood(backend, solved, key, 2, "both")
    drawn, edges = graphs.oriented(solved, hood, board)
    source = dots.linked_dot(hood.centre, hood.positions, edges, lambda there: f"?pos={there}", drawn=drawn)
    labels, moves = parse_linked(source)
    assert labels[key] == board and f'URL="?pos={board}"' in source  # the centre as the page shows it, linked so
    assert set(labels) == set(hood.positions) and len(moves) == len(hood.edges) > 0
    for node, text in labels.items():
        assert game.key(game.parse(text)) == node  # each label is a board of the position stored there
    marked = 0
    for source_key, target_key, label in moves:
        mirrored = label.endswith(MIRRORED_MARK)
        marked += mirrored
        check_move(game, labels[source_key], label.removesuffix(MIRRORED_MARK), labels[target_key], mirrored)
    assert any(label != stored for (_, _, label), (_, _, stored, _) in zip(moves, hood.edges)), \
        "no move is named differently on the stored key: the test could not fail"
    # The canvas (from the same board) and `gamegraph query` (typed as that board) draw the same.
    grown = canvas.start(game, solved, backend, key, 2, "both", False, ("s",), 0, shown)
    assert {k: game.format(grown.shown[k]) for k in grown.nodes if k in grown.shown} == \
        {k: labels[k] for k in grown.nodes if k in grown.shown}
    assert {(e["data"]["source"], e["data"]["target"]): e["data"]["move"] for e in grown.edges.values()} == \
        {(a, b): label for a, b, label in moves}
    result = run_query(mirror, "neighbourhood", position=board, k=2)
    table = result.shown("moves").records()
    assert {(labels_key(labels, row["from"]), labels_key(labels, row["to"])): row["label"] +
            (MIRRORED_MARK if row["mirrored"] else "") for row in table} == {(a, b): label for a, b, label in moves}
    assert marked == sum(row["mirrored"] for row in table)


def labels_key(labels: dict[str, str], board: str) -> str:
    return next(key for key, text in labels.items() if text == board)


def test_the_downloads_tab_names_the_position_as_the_page_shows_it(isolated):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"], at.query_params["pos"], at.query_params["view"] = "tictactoe", "X../.../...", "Downloads"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    heading = next(m.value for m in at.markdown if m.value.startswith("**This position**"))
    assert heading == "**This position** (`X../.../...`, stored as `.../.../..X`)"


@pytest.mark.parametrize("view, key", [("Downloads", "dl_png_dpi"), ("Best line", "dl_line_png_dpi")])
def test_the_png_downloads_offer_a_resolution_from_the_clis_default(isolated, view, key):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"], at.query_params["pos"], at.query_params["view"] = "tictactoe", "X../.../...", view
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    choice = at.selectbox(key=key)
    assert choice.label == "PNG resolution" and choice.options == [f"{d} dpi" + {96: " (screen)", 150: " (slides)",
                                                                                  300: " (print)"}[d]
                                                                   for d in dots.PNG_RESOLUTIONS]
    assert choice.value == dots.DEFAULT_DPI
    choice.select(300).run()
    assert not at.exception and at.selectbox(key=key).value == 300
