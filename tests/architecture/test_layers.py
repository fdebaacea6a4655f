"""The layers of docs/architecture.md hold: import-linter's contracts (pyproject.toml) are
kept, and no module imports itself back through others (zero import cycles), counting what
import-linter does not see: run-time imports, modules loaded with importlib and package facades
(scripts/import_graph.py says how each is counted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scripts.import_graph import cycles, describe, import_graph

ROOT = Path(__file__).resolve().parents[2]


def test_no_import_cycles_between_modules():
    graph = import_graph(ROOT)
    found = cycles(graph)
    assert not found, f"{len(found)} import cycles:\n" + "\n".join(describe(graph, group) for group in found)


def test_the_graph_has_the_modules_importlib_loads():
    """The run-time arrows are there: the registry loads every built-in game, the drawings' package
    every drawing, the CLI every command module; the lazy names of explorer and explorer.plugin are imports of whoever reads them."""
    from explorer.cli import COMMAND_MODULES
    from explorer.games.registry import BUILTIN_GAMES

    graph = import_graph(ROOT)
    kind = lambda a, b: graph.edges[a, b]["kind"] if graph.has_edge(a, b) else None  # noqa: E731
    assert {kind("explorer.games.registry", game) for game in BUILTIN_GAMES} == {"importlib"}
    assert {kind("explorer.cli", command) for command in COMMAND_MODULES} == {"importlib"}
    assert kind("explorer.ui.boards", "explorer.ui.boards.teeko") == "importlib"
    assert kind("explorer", "explorer.api") is None  # loaded on first use of a name of the API, not on import
    assert kind("explorer.plugin", "explorer.kernels") is None


def _copy(tmp_path: Path) -> Path:
    import shutil

    for package in ("explorer", "loaders", "queries"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.nbi", "*.nbc"))
    return tmp_path


@pytest.mark.parametrize("module, line, group", [
    # a drawing importing back the package that loads it by name (importlib)
    ("explorer/ui/boards/nim.py", "from explorer.ui.boards import board_svg", {"explorer.ui.boards", "explorer.ui.boards.nim"}),
    # a game importing back the registry that loads it (importlib over BUILTIN_GAMES)
    ("explorer/games/nim.py", "from explorer.games.registry import BUILTIN_GAMES", {"explorer.games.registry", "explorer.games.nim"}),
    # a submodule reading its package's facade, which imports it
    ("explorer/cgt/notation.py", "from explorer.cgt import forms", {"explorer.cgt", "explorer.cgt.notation"}),
    # a run-time import inside a function
    ("explorer/core/values.py", "def _late():\n    from explorer.solver import solve", {"explorer.core.values", "explorer.solver"}),
    # a name of the notebook API read from the package, which loads explorer.api on first use
    ("explorer/solved/storage.py", "from explorer import open as _open", {"explorer.api", "explorer.solved.storage"}),
])
def test_the_graph_sees_each_kind_of_cycle(tmp_path, module, line, group):
    root = _copy(tmp_path)
    (root / module).write_text((root / module).read_text() + "\n\n" + line + "  # noqa\n")
    found = cycles(import_graph(root))
    assert any(group <= set(c) for c in found), found


def test_an_import_module_it_cannot_resolve_is_refused(tmp_path):
    root = _copy(tmp_path)
    path = root / "explorer" / "core" / "values.py"
    path.write_text(path.read_text() + "\n\ndef _load(name):\n    import importlib\n    return importlib.import_module(name)\n")
    with pytest.raises(ValueError, match=r"values\.py:\d+: importlib\.import_module\(name\)"):
        import_graph(root)


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_the_contract_sees_a_back_arrow(tmp_path):
    """The layers contract can fail: a copy of the tree with one upward import breaks it."""
    import shutil

    for package in ("explorer", "loaders", "queries"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    values = tmp_path / "explorer" / "core" / "values.py"
    values.write_text(values.read_text() + "\nfrom explorer.ui import state  # noqa: E402,F401\n")
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--config", str(tmp_path / "pyproject.toml")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path)})
    assert done.returncode != 0
    assert "explorer.core is not allowed to import explorer.ui" in done.stdout.replace("\n", " ")
