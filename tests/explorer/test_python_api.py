"""The Python API for notebooks (explorer/api.py): docs/python.md's examples and docs/notebook.ipynb's code
cells run as written, and the API answers as the CLI does."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GAMEGRAPH_PROGRESS", "0")
    return tmp_path / "home"


def _blocks() -> list[str]:
    return BLOCK.findall((ROOT / "docs" / "python.md").read_text(encoding="utf-8"))


def test_the_page_has_examples():
    assert len(_blocks()) >= 5


@pytest.mark.parametrize("index", range(len(_blocks())))
def test_each_example_of_the_page_runs(index, home):
    exec(compile(_blocks()[index], f"docs/python.md block {index + 1}", "exec"), {"__name__": "__docs__"})


def test_the_notebook_runs_cell_by_cell(home):
    notebook = json.loads((ROOT / "docs" / "notebook.ipynb").read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4
    namespace: dict = {"__name__": "__notebook__"}
    shown = []
    for i, cell in enumerate(c for c in notebook["cells"] if c["cell_type"] == "code"):
        source = "".join(cell["source"])
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, f"notebook cell {i + 1}", "exec"), namespace)
        if last is not None:  # the cell's value, as Jupyter displays it
            shown.append(eval(compile(ast.Expression(last.value), f"notebook cell {i + 1}", "eval"), namespace))
    board = next(s for s in shown if hasattr(s, "_repr_svg_"))
    assert board._repr_svg_().startswith("<svg")
    line = next(s for s in shown if hasattr(s, "moves") and isinstance(s, list))
    assert "<table>" in line._repr_html_()


def test_the_api_answers_as_the_cli(home, capsys):
    import explorer as gg
    from explorer.cli import main

    assert main(["show", "nim(heaps=1-3-5)", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    nim = gg.open("nim(heaps=1-3-5)")
    assert (str(nim.value()), nim.remoteness()) == (shown["value"], shown["remoteness"])
    assert nim.moves() == shown["moves"]
    assert nim.line().moves[0] == nim.best_move()


def test_bad_input_is_one_clear_error(home):
    import explorer as gg
    from explorer.core.errors import GameGraphError

    ttt = gg.open("tictactoe")
    with pytest.raises(GameGraphError):
        gg.open("no-such-game")
    with pytest.raises(GameGraphError):
        ttt.value("not a board")
    with pytest.raises(GameGraphError, match="not a move"):
        ttt.play("X z9")
    with pytest.raises(GameGraphError, match="direction"):
        ttt.neighbourhood(k=1, direction="sideways")
    with pytest.raises(GameGraphError, match="suffix|format|end it"):
        ttt.export(home / "x.txt")


def test_a_value_file_game_reads_the_same_as_its_graph(home):
    import explorer as gg

    graph = gg.open("dodgem:3x3", symmetry=False)
    assert graph.kind == "graph"
    values = gg.solve("dodgem:3x3", "implicit")
    assert gg.open("dodgem:3x3").kind == "implicit"  # stored: read from it from now on
    for step in graph.line(limit=8):
        assert values.describe(step["key"]) == graph.describe(step["key"])
    part = values.neighbourhood(k=2, direction="out")  # un-moves reach positions the start never reaches
    whole = graph.neighbourhood(k=2, direction="out")
    assert part.number_of_nodes() > 5
    assert set(part.nodes) == set(whole.nodes)
    assert {n: d["value"] for n, d in part.nodes(data=True)} == {n: d["value"] for n, d in whole.nodes(data=True)}
    assert set(part.edges) == set(whole.edges)
