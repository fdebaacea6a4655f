"""scripts/structure.py counts on the project's own import graph (scripts/import_graph.py), the one the
cycle test reads: a cycle closed only through importlib, which a static count (grimp) cannot see, is counted."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "structure.py"


def _run(checkout: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(checkout)], capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin"})


def test_the_figures_of_this_clone_have_no_cycle():
    done = _run(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 import cycles" in done.stdout and "importlib" in done.stdout


def test_a_cycle_through_importlib_is_counted(tmp_path):
    for package in ("explorer", "loaders", "queries"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    nim = tmp_path / "explorer" / "games" / "nim.py"
    # the registry loads nim by its path in BUILTIN_GAMES: nim importing the registry back closes a loop
    nim.write_text(nim.read_text() + "\n\nfrom explorer.games.registry import BUILTIN_GAMES  # noqa\n")
    done = _run(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert " 1 import cycles (2 modules in them)" in done.stdout
    assert "explorer.games.nim explorer.games.registry" in done.stdout and "-[importlib]->" in done.stdout


def test_a_folder_that_is_no_checkout_is_one_line(tmp_path):
    done = _run(tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not a gamegraph checkout" in done.stderr
