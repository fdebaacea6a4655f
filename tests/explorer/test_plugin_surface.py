"""The plugin surface (explorer/plugin.py): everything a game module needs from one import, as
docs/your-own-game.md says; the earlier tutorial's `from explorer.values import Value` still works."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "your-own-game.md"


def _example() -> str:
    found = re.search(r"<!-- tutorial-example: (\S+) -->\n```python\n(.*?)```", DOC.read_text(), re.S)
    assert found
    return found[2]


def test_the_tutorial_imports_only_the_plugin_surface():
    imports = [line for line in _example().splitlines() if re.match(r"\s*(from|import) explorer", line)]
    assert imports and all(line.startswith("from explorer.plugin import ") for line in imports), imports


def test_every_name_of_the_surface_is_there_and_documented():
    import explorer.plugin as plugin

    page = DOC.read_text()
    for name in plugin.__all__:
        assert getattr(plugin, name) is not None, name
        assert f"`{name}`" in page, f"{name} is not in docs/your-own-game.md"
    with pytest.raises(AttributeError):
        plugin.no_such_name  # noqa: B018


def test_the_surface_leaves_numba_alone_until_a_kernel_is_asked_for():
    code = ("import sys, explorer.plugin as p; assert 'numba' not in sys.modules, 'numba at import'; "
            "p.njit; assert 'numba' in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("imports", [
    "from explorer.plugin import Game, Move, Offers, Params, Value\n",
    # the earlier tutorial's imports
    "from explorer.games import Game, Move, Offers, Params\nfrom explorer.values import Value\n",
])
def test_a_plugin_with_either_import_solves(imports, tmp_path):
    code = _example()
    code = re.sub(r"from explorer\.plugin import [^\n]*\n", imports, code)
    assert imports in code
    (tmp_path / "plugin.py").write_text(code)
    done = subprocess.run([str(Path(sys.executable).with_name("gamegraph")), "--game-module", "plugin.py", "show",
                           "my-ponghauki", "--format", "json"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={"GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_PROGRESS": "0",
                                            "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert '"value": "draw"' in done.stdout
