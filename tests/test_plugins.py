"""Games from outside the package: --game-module files, GAMEGRAPH_GAME_MODULES, and the
`gamegraph.games` entry point group (a temporary distribution's dist-info on sys.path)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from explorer.cli import main
from explorer.core.errors import GameGraphError
from explorer.games import games, parse_spec, plugins

GAMEGRAPH = Path(sys.executable).with_name("gamegraph")

GAME = textwrap.dedent('''
    from dataclasses import dataclass
    from explorer.games import Game, Move, Params, param
    from explorer.core.values import Value

    @dataclass(frozen=True)
    class SubtractParams(Params):
        start: int = param(7, "tokens at the start", minimum=1, maximum=50)

    class Subtract(Game):
        """Take 1 or 2 tokens; taking the last one wins."""
        name = "{name}"
        description = "take 1 or 2; the last token wins"
        Params = SubtractParams
        presets = {{"small": {{"start": 4}}}}

        def start(self): return (0, self.params.start)
        def to_move(self, p): return p[0]
        def outcome(self, p): return Value.LOSS if p[1] == 0 else None
        def moves(self, p): return [Move(f"-{{k}}", (1 - p[0], p[1] - k)) for k in (1, 2) if k <= p[1]]
        def format(self, p): return f"{{'AB'[p[0]]}}{{p[1]}}"
        def parse(self, text):
            if not text or text[0] not in "AB" or not text[1:].isdigit():
                raise self.invalid(text, "expected A or B then a number")
            return ("AB".index(text[0]), int(text[1:]))
''')


def write_game(folder: Path, name: str, file: str = "subtract.py") -> Path:
    path = folder / file
    path.write_text(GAME.format(name=name))
    return path


@pytest.fixture
def clean_env(monkeypatch):
    monkeypatch.setenv(plugins.ENV, "")
    yield
    for path in list(plugins._loaded_files):
        plugins.unload(path)


def test_game_module_option_before_or_after_the_command(tmp_path, capsys, clean_env):
    path = write_game(tmp_path, "subtract-a")
    assert main(["--game-module", str(path), "solve", "subtract-a", "--format", "json"]) == 0
    assert '"value": "win"' in capsys.readouterr().out  # 7 is no multiple of 3: the mover wins
    assert main(["solve", "subtract-a:small", f"--game-module={path}"]) == 0
    assert "win in" in capsys.readouterr().out
    assert str(path.resolve()) in os.environ[plugins.ENV]  # children (the UI) load it too


def test_environment_variable_in_a_fresh_process(tmp_path):
    path = write_game(tmp_path, "subtract-b")
    env = dict(os.environ, **{plugins.ENV: str(path)})
    done = subprocess.run([str(GAMEGRAPH), "show", "subtract-b(start=3)"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "loss in 2" in done.stdout


def test_entry_point_group(tmp_path):
    """A distribution (a dist-info folder on sys.path) declaring a game in `gamegraph.games`."""
    write_game(tmp_path, "subtract-ep", "subtract_pkg.py")
    dist = tmp_path / "subtract_pkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: subtract-pkg\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[gamegraph.games]\nsubtract = subtract_pkg:Subtract\n")
    env = {k: v for k, v in os.environ.items() if k != plugins.ENV}
    env["PYTHONPATH"] = str(tmp_path)
    done = subprocess.run([str(GAMEGRAPH), "games"], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "subtract-ep: take 1 or 2" in done.stdout and "preset subtract-ep:small" in done.stdout
    done = subprocess.run([str(GAMEGRAPH), "check-game", "subtract-ep"], env=env, capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0 and "all checks passed" in done.stdout, done.stdout + done.stderr
    # A broken entry point is one line naming it.
    (dist / "entry_points.txt").write_text("[gamegraph.games]\nsubtract = subtract_pkg:Nothing\n")
    done = subprocess.run([str(GAMEGRAPH), "games"], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and "entry point 'subtract'" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("content,message", [
    ("x = (\n", "SyntaxError"),
    ("raise RuntimeError('boom')\n", "RuntimeError: boom (line 1)"),
    ("x = 1\n", "defines no game"),
])
def test_bad_modules_are_one_line(tmp_path, capsys, clean_env, content, message):
    path = tmp_path / "bad.py"
    path.write_text(content)
    assert main(["--game-module", str(path), "games"]) == 2
    err = capsys.readouterr().err
    assert message in err and "bad.py" in err and "Traceback" not in err


def test_missing_file_and_name_clash(tmp_path, capsys, clean_env):
    assert main(["--game-module", str(tmp_path / "nope.py"), "games"]) == 2
    assert "does not exist" in capsys.readouterr().err
    path = write_game(tmp_path, "chopsticks")
    with pytest.raises(GameGraphError, match="already has that name"):
        plugins.load_file(path)
    assert games()["chopsticks"].__module__ == "explorer.games.chopsticks.rules"
    registered = tmp_path / "registered.py"
    registered.write_text("from explorer.games import register\n" + GAME.format(name="nim").replace(
        "class Subtract(Game):", "@register\nclass Subtract(Game):"))
    with pytest.raises(GameGraphError, match="already has that name"):
        plugins.load_file(registered)
    assert parse_spec("nim").__module__ == "explorer.games.nim"
