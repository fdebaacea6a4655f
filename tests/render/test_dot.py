"""Graphviz diagrams: colours by value, a legend, bold optimal moves, the highlighted position, files that render."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.render import dot
from explorer.certificate import certificate
from explorer.core.errors import GameGraphError, GraphTooLarge, InvalidParameter, QueryError
from explorer.games import parse_spec
from explorer.graph import graph_id
from explorer.solved import build
from loaders.mirror import to_networkx
from queries.api import NetworkxBackend, run_query

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def magic():
    solved = build("chopsticks:magic-fingers")
    return solved, NetworkxBackend(to_networkx(solved))


def node_lines(text: str, key: str) -> list[str]:
    return [line for line in text.splitlines() if f'label="{key}\\n' in line]


def test_a_winning_line_is_coloured_ranked_bold_and_highlighted(magic):
    _, backend = magic
    result = run_query(backend, "shortest-win", position="A|1-1|1-1")
    text = dot.to_dot(dot.line_diagram(result))
    for value in ("win", "loss"):
        assert f'fillcolor="{dot.COLOURS[value]}"' in text
    legend = next(line for line in text.splitlines() if line.strip().startswith("legend ["))
    for value in ("win", "loss"):  # a compact legend: the values the diagram uses, in plain words
        assert f'<TD BGCOLOR="{dot.COLOURS[value]}" BORDER="1">{value}</TD>' in legend
    assert ">draw<" not in legend and "optimal move" in legend and "left to right, row after row" in legend
    start = node_lines(text, "A|1-1|1-1")
    assert len(start) == 1 and f"color=\"{dot.HIGHLIGHT}\"" in start[0] and "peripheries=2" in start[0]
    assert "loss in 26" in start[0] and f'fillcolor="{dot.COLOURS["loss"]}"' in start[0]
    other = node_lines(text, result.boards[1])  # each position as the line plays it on one board
    assert "peripheries" not in other[0]
    assert all(len(node_lines(text, board)) == 1 for board in result.boards)
    labels = re.findall(r'-> n\d+ \[label="([^"]*)"', text)
    assert labels == result.named  # the moves as named on the boards shown
    moves = [line for line in text.splitlines() if "->" in line and "style=invis" not in line]
    assert len(moves) == 26 and all("style=bold" in line for line in moves)
    assert text.count("rank=same") == -(-27 // dot.per_row(27, False)) + 1  # the rows, and the legend's place
    assert "game over: loss" in text  # the end of the game


def test_a_neighbourhood_shows_other_moves_thin(magic):
    _, backend = magic
    result = run_query(backend, "neighbourhood", position="A|1-1|1-1", k=2, direction="out")
    text = dot.to_dot(dot.neighbourhood_diagram(result))
    moves = [line for line in text.splitlines() if "->" in line and "legend" not in line]
    assert len(moves) == len(result.tables["moves"].rows)
    bold = sum("style=bold" in line for line in moves)
    assert bold == sum(1 for row in result.tables["moves"].rows if row[3])
    assert 0 < bold < len(moves) and all("style=dashed" in line for line in moves if "style=bold" not in line)
    assert "the position asked about" in text


def test_boards_draw_each_position_of_a_line_as_its_board():
    backend = NetworkxBackend(to_networkx(build("tictactoe")))
    result = run_query(backend, "shortest-win", position="X../.O./...")
    text = dot.to_dot(dot.line_diagram(result, boards=True))
    assert result.boards[0] == "X../.O./..." and "best play from X../.O./..." in text
    tables = [line for line in text.splitlines() if re.match(r"\s*n\d+ \[label=<<TABLE", line)]
    assert len(tables) == len(result.boards)
    for line, board in zip(tables, result.boards):  # the cells of each board, X and O in place
        marks = re.findall(r"<B>([XO ])</B>", line)
        assert "".join(marks).replace(" ", ".") == board.replace("/", "")
    plain = dot.to_dot(dot.line_diagram(result))
    assert "<TABLE BORDER=\"0\" CELLBORDER" not in plain  # without --boards: the notation


def test_a_draw_cycle_is_filled_as_draws_and_closed():
    backend = NetworkxBackend(to_networkx(build("chopsticks")))
    text = dot.to_dot(dot.cycle_diagram(run_query(backend, "shortest-cycle", position="A|1-1|1-1")))
    nodes = [line for line in text.splitlines() if re.match(r"\s*n\d+ \[", line)]
    assert len(nodes) == 8 and all(f'fillcolor="{dot.COLOURS["draw"]}"' in line for line in nodes)
    assert "remoteness_" not in text  # draws have no remoteness: rows are the cycle's, read left to right
    edges = [line for line in text.splitlines() if re.match(r"\s*n\d+ -> n\d+", line) and "invis" not in line]
    assert len(edges) == 8 and any(line.strip().startswith("n7 -> n0") for line in edges)


def test_a_tie_is_amber_and_a_draw_is_not(tmp_path):
    backend = NetworkxBackend(to_networkx(build("tictactoe")))
    text = dot.to_dot(dot.line_diagram(run_query(backend, "shortest-win", position=".../.../...")))
    assert f'fillcolor="{dot.COLOURS["tie"]}"' in text and "tie in 9" in text
    # Tie and draw were two nearly identical yellows: now a tie is amber (red > green > blue, little blue)
    # and a draw is blue.
    red, green, blue = (int(dot.COLOURS["tie"][i:i + 2], 16) for i in (1, 3, 5))
    assert red > green > blue and red - blue > 100
    red, green, blue = (int(dot.COLOURS["draw"][i:i + 2], 16) for i in (1, 3, 5))
    assert blue > max(red, green)


def test_a_certificate_diagram_draws_the_strategy(magic):
    solved, _ = magic
    data = certificate(solved, "A|1-1|1-1")
    diagram = dot.certificate_diagram(data)
    strategy = data["strategies"][0]["positions"]
    assert set(diagram.nodes) == set(strategy)
    text = dot.to_dot(diagram)
    chosen = sum(1 for e in strategy.values() if "move" in e)
    assert sum("style=bold" in line for line in text.splitlines() if "->" in line and "legend" not in line) == chosen
    assert "chosen move" in text and "a reply to cover" in text


def test_the_whole_graph_is_refused_above_the_limit():
    G = to_networkx(build("tictactoe"))
    with pytest.raises(GraphTooLarge, match="765 positions; whole-graph diagrams are limited to 500"):
        dot.graph_diagram(G)
    small = to_networkx(build("nim:small"))
    diagram = dot.graph_diagram(small, highlight="A|1-2-3")
    assert len(diagram.nodes) == 23 and len(diagram.edges) == 56


def test_wrong_results_are_refused(magic):
    _, backend = magic
    stats = run_query(backend, "stats")
    for builder in (dot.line_diagram, dot.cycle_diagram, dot.neighbourhood_diagram):
        with pytest.raises(QueryError, match="needs a"):
            builder(stats)


def test_render_writes_dot_svg_and_png(tmp_path):
    diagram = dot.graph_diagram(to_networkx(build("nim:small")), highlight="A|1-2-3")
    text_path = dot.render(diagram, tmp_path / "nim.dot")
    assert text_path.read_text().startswith("digraph")
    svg = dot.render(diagram, tmp_path / "nim.svg").read_text()
    assert "<svg" in svg and "A|1&#45;2&#45;3" in svg  # dot escapes "-" in SVG text
    png = dot.render(diagram, tmp_path / "nim.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    with pytest.raises(InvalidParameter, match="must end in .dot"):
        dot.render(diagram, tmp_path / "nim.jpeg")


def test_cli_dot_writes_each_diagram(tmp_path):
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "state"), "GAMEGRAPH_PROGRESS": "0"}

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "explorer.cli", *args], capture_output=True, text=True,
                              env=env, cwd=ROOT, timeout=300)

    for query, name in (("shortest-win", "line.png"), ("certificate", "cert.svg"), ("neighbourhood", "nb.dot"),
                        ("graph", "graph.svg")):
        out = cli("dot", "nim:small", query, "-o", str(tmp_path / name))
        assert out.returncode == 0, out.stderr
        assert (tmp_path / name).stat().st_size > 0
    out = cli("dot", "chopsticks", "cycle", "--position", "A|1-1|1-1", "-o", str(tmp_path / "cycle.dot"))
    assert out.returncode == 0 and "8 positions" in out.stdout
    out = cli("dot", "tictactoe", "graph", "-o", str(tmp_path / "big.svg"))
    assert out.returncode == 2 and "limited to 500" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    out = cli("dot", "nim:small", "spiral", "-o", str(tmp_path / "x.svg"))
    assert out.returncode == 2 and "unknown diagram 'spiral'" in out.stderr


@pytest.mark.parametrize("name", ["x.dot", "x.svg", "x.png"])
def test_cli_dot_to_a_missing_folder_is_one_line_and_writes_nothing(tmp_path, name):
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "state"), "GAMEGRAPH_PROGRESS": "0"}
    target = tmp_path / "missing" / name
    out = subprocess.run([sys.executable, "-m", "explorer.cli", "dot", "nim:small", "shortest-win", "-o", str(target)],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines() == [f"gamegraph: error: cannot write {target}: No such file or directory"]
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("name", ["x.dot", "x.svg"])
def test_render_over_a_folder_fails_cleanly_and_leaves_no_partial_file(tmp_path, name):
    diagram = dot.graph_diagram(to_networkx(build("nim:small")))
    (tmp_path / name).mkdir()
    with pytest.raises(GameGraphError, match="it is a folder, not a regular file"):
        dot.render(diagram, tmp_path / name)
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_cli_dot_max_nodes_must_be_positive(tmp_path):
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "state"), "GAMEGRAPH_PROGRESS": "0"}

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "explorer.cli", "dot", "nim:small", "graph", *args],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)

    out = cli("--max-nodes", "0", "-o", str(tmp_path / "g.dot"))  # was silently the default 500
    assert out.returncode == 2 and "--max-nodes: 0 is out of range: it must be from 1" in out.stderr
    out = cli("--max-nodes", "5", "-o", str(tmp_path / "g.dot"))
    assert out.returncode == 2 and "limited to 5" in out.stderr
    out = cli("-o", str(tmp_path / "g.dot"))
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.dot", "state"]  # no temporary file left


def test_titles_name_the_game_as_people_do():
    game = parse_spec("chopsticks")
    assert dot._game_name(graph_id(game, True)) == "chopsticks:standard"
    assert dot._game_name(graph_id(game, False)) == "chopsticks:standard [nosym]"
    assert dot._game_name("not a graph id") == "not a graph id"


# -- position graphs (Straffin's drawing: boards as nodes, the players' mirror images merged) --------
def test_pong_hau_ki_position_graph():
    from explorer.render.dot import position_graph_diagram
    from explorer.solved import build

    solved = build("ponghauki")
    diagram = position_graph_diagram(solved)
    # 30 reachable classes, merged in pairs by exchanging the players: 15 boards with Red to move.
    assert len(diagram.nodes) == solved.graph.num_positions // 2 == 15
    assert all(key.startswith("R|") for key in diagram.nodes)
    assert diagram.highlight == "R|BB/./RR"
    assert [k for k, info in diagram.nodes.items() if info["terminal"]] == ["R|BR/B/.R"]  # the one lost board
    assert diagram.nodes["R|BB/./RR"]["label"] == "B B\\n.\\nR R"
    text = dot.to_dot(diagram)
    assert "Courier" in text and "R|BB/./RR" in text  # the key stays as the node's tooltip


def test_mutorere_position_graph_merges_the_players():
    from explorer.render.dot import position_graph_diagram
    from explorer.solved import build

    solved = build("mutorere")
    diagram = position_graph_diagram(solved)
    assert len(diagram.nodes) == 43  # Smith's 86 states, merged in pairs
    values = {info["value"] for info in diagram.nodes.values()}
    assert values == {"win", "loss", "draw"}


def test_position_graph_command(tmp_path, monkeypatch):
    from explorer.cli import main
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    out = tmp_path / "phk.dot"
    assert main(["dot", "ponghauki", "position-graph", "-o", str(out)]) == 0
    assert "B B" in out.read_text()


def test_the_page_and_the_files_draw_through_one_graphviz_run(tmp_path, monkeypatch):
    """`image` (the page, with a deadline) and `render` (files) run the same `dot`; each says what went wrong."""
    source = dot.to_dot(dot.graph_diagram(to_networkx(build("nim:small"))))
    assert dot.image(source, "svg") == dot.render(source, tmp_path / "nim.svg").read_bytes()
    with pytest.raises(GameGraphError, match="Graphviz failed"):
        dot.image("digraph {", "svg")
    with pytest.raises(GameGraphError, match="Graphviz could not draw bad.svg"):
        dot.render("digraph {", tmp_path / "bad.svg")
    assert not (tmp_path / "bad.svg").exists()
    monkeypatch.setattr(dot.shutil, "which", lambda name: None)
    with pytest.raises(GameGraphError, match="not installed, so diagrams cannot be drawn"):
        dot.image(source, "png")
    with pytest.raises(GameGraphError, match="not installed .*write a .dot file instead"):
        dot.render(source, tmp_path / "nim.png")


def test_a_cycle_that_comes_back_mirrored_ends_on_the_board_it_comes_back_as():
    backend = NetworkxBackend(to_networkx(build("chopsticks")))
    result = run_query(backend, "shortest-cycle", position="A|1-1|2-1")
    assert result.boards[0] == "A|1-1|2-1" and result.boards[-1] != result.boards[0]
    assert parse_spec("chopsticks").key(parse_spec("chopsticks").parse(result.boards[-1])) == result.positions[0]
    diagram = dot.cycle_diagram(result)
    end = [key for key, info in diagram.nodes.items() if info.get("shown") == result.boards[-1]]
    assert len(end) == 1 and diagram.edges[-1][1] == end[0]
    assert "turned or mirrored" in dot.to_dot(diagram)


# -- a line for a slide or a page (issue 37) ----------------------------------------------------
def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _places(source: str) -> dict[str, tuple[float, float]]:
    """Each node's centre (x, y; y grows upwards) as dot lays it out."""
    plain = subprocess.run(["dot", "-Tplain"], input=source.encode(), capture_output=True, check=True).stdout.decode()
    return {parts[1]: (float(parts[2]), float(parts[3]))
            for parts in (line.split() for line in plain.splitlines()) if parts and parts[0] == "node"}


@pytest.mark.parametrize("spec, moves", [("tictactoe", 9), ("chopsticks:magic-fingers", 26)])
def test_a_line_reads_left_to_right_in_rows_that_fit_a_slide_or_a_page(spec, moves, tmp_path):
    solved = build(spec)
    result = run_query(NetworkxBackend(to_networkx(solved)), "shortest-win")
    diagram = dot.line_diagram(result, boards=True)
    assert len(diagram.edges) == moves
    source = dot.to_dot(diagram)
    places = _places(source)
    line = [f"n{i}" for i in range(moves + 1)]
    width = dot.per_row(moves + 1, True)
    rows = [line[i:i + width] for i in range(0, len(line), width)]
    assert len(rows) > 1  # wrapped
    for row in rows:  # each row left to right on one level
        assert len({places[n][1] for n in row}) == 1
        assert [places[n][0] for n in row] == sorted(places[n][0] for n in row)
    assert [places[row[0]][1] for row in rows] == sorted((places[row[0]][1] for row in rows), reverse=True)
    assert len({round(places[row[0]][0], 1) for row in rows}) == 1  # every row starts at the left edge
    w, h = _png_size(dot.render(diagram, tmp_path / "line.png"))
    if moves <= 11:  # a slide: wider than high, at most twice as wide as 16:9, legible on a projector
        assert 16 / 9 / 2 <= w / h <= 16 / 9 * 2 and max(w, h) >= 1600, (w, h)
    else:  # a page: no long strip either way (one column was 471 x 5037 px)
        assert 0.5 <= w / h <= 1.5, (w, h)


def test_the_png_resolution_is_asked_and_checked_and_nothing_is_half_written(tmp_path):
    diagram = dot.line_diagram(run_query(NetworkxBackend(to_networkx(build("tictactoe"))), "shortest-win"),
                               boards=True)
    default = _png_size(dot.render(diagram, tmp_path / "default.png"))
    low = _png_size(dot.render(diagram, tmp_path / "low.png", dpi=75))
    assert abs(default[0] / low[0] - dot.DEFAULT_DPI / 75) < 0.05
    for bad in (10 ** 9, 0, -1, "text", "1e3", True, ""):
        with pytest.raises(InvalidParameter, match="dpi") as caught:
            dot.render(diagram, tmp_path / "bad.png", dpi=bad)
        assert "\n" not in str(caught.value)
    with pytest.raises(InvalidParameter, match="PNG"):
        dot.render(diagram, tmp_path / "line.svg", dpi=200)
    with pytest.raises(InvalidParameter, match="million pixels"):
        dot.render(diagram, tmp_path / "huge.png", dpi=dot.MAX_DPI)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["default.png", "low.png"]


def test_a_tictactoe_board_names_its_files_and_ranks_as_the_moves_do():
    from explorer.render.boards import board_label

    game = parse_spec("tictactoe")
    after = game.parse(".../.../..X")  # X c1: the bottom right cell
    label = board_label(game, after)
    texts = re.findall(r">([a-z0-9])</FONT>", label)
    assert texts == ["3", "2", "1", "a", "b", "c"]  # ranks top to bottom on the left, files under the grid
    source = dot.to_dot(dot.line_diagram(run_query(NetworkxBackend(to_networkx(build("tictactoe"))), "shortest-win",
                                                   position=".../.../..."), boards=True))
    assert ">a</FONT>" in source and ">3</FONT>" in source


def test_cli_dot_dpi_sets_the_png_resolution_and_a_bad_one_is_one_line(tmp_path):
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "state"), "GAMEGRAPH_PROGRESS": "0"}

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "explorer.cli", "dot", "tictactoe", "shortest-win", "--boards",
                               *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)

    out = cli("-o", str(tmp_path / "line.png"))
    assert out.returncode == 0, out.stderr
    width, height = _png_size(tmp_path / "line.png")
    assert width >= 1600 and width > height  # legible on a projector by default, and wider than high
    out = cli("--dpi", "75", "-o", str(tmp_path / "small.png"))
    assert out.returncode == 0, out.stderr
    assert abs(width / _png_size(tmp_path / "small.png")[0] - dot.DEFAULT_DPI / 75) < 0.05
    for bad in ("1000000000", "0", "-1", "text", "1200"):
        out = cli("--dpi", bad, "-o", str(tmp_path / "bad.png"))
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1 and "dpi" in out.stderr
    out = cli("--dpi", "100", "-o", str(tmp_path / "bad.svg"))
    assert out.returncode == 2 and "not a .png" in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["line.png", "small.png"]


def test_the_page_s_png_is_drawn_at_the_cli_s_resolution(tmp_path):
    """The page's PNG downloads (explorer.render.dot.png_image) are the picture `gamegraph dot -o x.png` writes,
    at DEFAULT_DPI: at Graphviz's own 72 dpi the page's neighbourhood PNG was 428 x 792 px against the CLI's
    2,096 x 700 (a stranger's, issue 37)."""
    import struct

    line = run_query(NetworkxBackend(to_networkx(build("tictactoe"))), "shortest-win")
    source = dot.to_dot(dot.line_diagram(line, boards=True))

    def size(data: bytes) -> tuple[int, int]:
        assert data.startswith(b"\x89PNG")
        return struct.unpack(">II", data[16:24])

    written = dot.render(source, tmp_path / "line.png")
    assert size(dot.png_image(source)) == size(written.read_bytes())
    plain = size(dot.image(source, "png"))
    assert size(dot.png_image(source))[0] > plain[0] and dot.DEFAULT_DPI == 150
