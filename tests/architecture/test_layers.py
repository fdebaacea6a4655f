"""The layers of docs/architecture.md hold: import-linter's contracts (pyproject.toml) are
kept, and no module imports itself back through others (zero import cycles)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import networkx as nx

ROOT = Path(__file__).resolve().parents[2]


def _import_graph() -> nx.DiGraph:
    graph = grimp.build_graph("explorer", "loaders", "queries", cache_dir=None)
    arrows = nx.DiGraph()
    arrows.add_nodes_from(graph.modules)
    for module in graph.modules:
        arrows.add_edges_from((module, imported) for imported in graph.find_modules_directly_imported_by(module))
    return arrows


def test_no_import_cycles_between_modules():
    cycles = [sorted(c) for c in nx.strongly_connected_components(_import_graph()) if len(c) > 1]
    assert cycles == []


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
