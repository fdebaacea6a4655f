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


NO_PARAMS = "from explorer.games import Game\nclass NoParams(Game):\n    name = 'noparams'\n"


@pytest.mark.parametrize("content,message", [
    ("raise BaseException('boom')\n", "BaseException: boom (line 1)"),
    ("import sys\nsys.exit(0)\n", "SystemExit: 0 (line 2)"),  # not a silent exit 0
    ("raise GeneratorExit\n", "GeneratorExit"),
    (NO_PARAMS, "game 'noparams' has no Params"),
    (GAME.format(name="nodesc").replace('    description = "take 1 or 2; the last token wins"\n', ""),
     "game 'nodesc' has no description"),
    (GAME.format(name="badpresets").replace('presets = {"small": {"start": 4}}', 'presets = [("small", {"start": 4})]'),
     "presets that are not a dict"),
])
@pytest.mark.parametrize("command", ["games", "check-game"])
def test_modules_missing_parts_or_raising_anything_are_one_line(tmp_path, capsys, clean_env, content, message,
                                                                 command):
    path = tmp_path / "bad.py"
    path.write_text(content)
    argv = ["--game-module", str(path), "games"] if command == "games" else ["check-game", str(path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    line, = err.strip().splitlines()
    assert message in line and "bad.py" in line and "internal error" not in line
    assert "noparams" not in games() and "nodesc" not in games()


def test_a_module_raising_keyboard_interrupt_stops_the_program_in_one_line(tmp_path):
    """It may be a real Ctrl-C: the program stops (exit 130) with one line, as an interrupted command does."""
    path = tmp_path / "interrupts.py"
    path.write_text("raise KeyboardInterrupt\n")
    for argv in (["--game-module", str(path), "games"], ["check-game", str(path)]):
        done = subprocess.run([str(GAMEGRAPH), *argv], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "GAMEGRAPH_PROGRESS": "0"})
        assert done.returncode == 130 and done.stderr.strip() == "gamegraph: interrupted", done.stderr


def test_a_module_path_too_long_for_the_system_is_one_line(capsys, clean_env):
    assert main(["--game-module", "x" * 300 + ".py", "games"]) == 2
    assert "File name too long" in capsys.readouterr().err


@pytest.mark.parametrize("kind, make", [("a folder", os.mkdir), ("a FIFO (named pipe)", os.mkfifo)])
def test_a_folder_or_fifo_is_named_for_what_it_is_at_once(tmp_path, kind, make):
    """A stranger's finding: both said "does not exist". One line, exit 2, and the FIFO never opened (a read would
    wait for ever: the child would meet its timeout)."""
    path = tmp_path / "somefolder"
    make(path)
    line = one_error_line(gamegraph_cli(tmp_path, "--game-module", str(path), "solve", "x"))
    assert f"is {kind}, not a Python file" in line and "does not exist" not in line and str(path) in line


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


# -- what a game offers: declared once, checked when the class is created ----------------------------
def test_every_built_in_game_declares_what_it_offers():
    import dataclasses

    from explorer.games import Offers

    for name, cls in games().items():
        if cls.__module__.startswith("explorer.games."):
            assert isinstance(cls.__dict__.get("offers"), Offers), f"{name} declares no offers of its own"
            assert {f.name for f in dataclasses.fields(cls.offers)} == {f.name for f in dataclasses.fields(Offers)}


def test_an_undeclared_game_offers_the_rules_only_and_its_own_drawing_and_names(tmp_path, clean_env):
    from explorer.games import GENERIC, OWN_DRAWING
    from explorer.games.ponghauki import PongHauKi

    (cls,) = plugins.load_file(write_game(tmp_path, "subtract-offers"))
    assert cls.offers == GENERIC
    game = parse_spec("subtract-offers")
    assert not game.has_symmetry() and game.code_space() is None and game.index_space() is None

    class Named(PongHauKi):  # inherits Pong Hau K'i's declaration, updated by what its body defines
        name = "named-ponghauki"
        player_names = ("Left", "Right")

        def board_svg(self, position, links):
            return "<svg/>"

    assert Named.offers.player_names == ("Left", "Right") and Named.offers.board == OWN_DRAWING
    assert Named.offers.arrays and Named.offers.ranking and Named.offers.symmetry
    assert PongHauKi.offers.player_names == ("Red", "Blue") and PongHauKi.offers.board == "ponghauki"


@pytest.mark.parametrize("changes,missing", [
    ({"arrays": True}, "has no method code_space()"),
    ({"unmoves": True}, "has no method unmoves()"),
    ({"symmetry": True}, "has no method canonical()"),
    ({"cgt": "cgt"}, "has no method cgt_board()"),
    ({"board": "board_svg"}, "has no method board_svg()"),
    ({"swap_players": True}, "has no method swap_players()"),
    ({"implicit_kernels": True}, "declares implicit_kernels=True without ranking=True"),
    ({"player_names": ("one",)}, "two names are needed"),
])
def test_a_declared_capability_without_its_methods_is_one_line_at_class_creation(changes, missing):
    import dataclasses

    from explorer.games import GENERIC, CgtValues, Game

    changes = {k: CgtValues(impartial=False) if v == "cgt" else v for k, v in changes.items()}
    with pytest.raises(GameGraphError) as caught:
        type("HalfDeclared", (Game,), {"name": "half-declared", "offers": dataclasses.replace(GENERIC, **changes)})
    message = str(caught.value)
    assert "'half-declared'" in message and missing in message and "\n" not in message


def test_a_game_module_declaring_what_it_lacks_is_one_line(tmp_path, capsys, clean_env):
    path = write_game(tmp_path, "subtract-declared")
    path.write_text(path.read_text().replace(
        '    presets = {"small": {"start": 4}}',
        '    presets = {"small": {"start": 4}}\n'
        '    offers = __import__("dataclasses").replace(__import__("explorer.games").games.GENERIC, unmoves=True)'))
    assert main(["--game-module", str(path), "games"]) == 2
    err = capsys.readouterr().err
    assert "game 'subtract-declared' declares unmoves in its offers but has no method unmoves()" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


# -- issue 40: faults of a plugin are the plugin's, in one line ---------------------------------------------------
def gamegraph_cli(tmp_path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_PROGRESS": "0"}
    env.pop(plugins.ENV, None)
    return subprocess.run([sys.executable, "-m", "explorer.cli", *argv], capture_output=True, text=True, env=env,
                          timeout=300, stdin=subprocess.DEVNULL)


def one_error_line(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 2, (out.returncode, out.stdout[-300:], out.stderr[-2000:])
    line, = out.stderr.strip().splitlines()
    assert line.startswith("gamegraph: error: ") and "Traceback" not in out.stderr and "internal error" not in line
    return line


@pytest.mark.parametrize("source, needle", [
    ("from explorer.games import Game\n"
     "class Meta(type(Game)):\n"
     "    @property\n"
     "    def name(cls): raise RuntimeError('no name for you')\n"
     "class Evil(Game, metaclass=Meta):\n"
     "    pass\n", "no name for you"),
    ("class Loud(Exception):\n"
     "    def __str__(self): raise ValueError('nope')\n"
     "raise Loud()\n", "its __str__ raised"),
])
def test_an_exception_while_a_plugin_loads_is_one_line(tmp_path, source, needle):
    module = tmp_path / "evil.py"
    module.write_text(source)
    line = one_error_line(gamegraph_cli(tmp_path, "--game-module", str(module), "games"))
    assert needle in line and "evil.py" in line, line


@pytest.mark.parametrize("name", ["fz:colon", "fz(evil)", "fz\nnewline", "<b>fz</b>", "fz ace", "9fz", "fé"])
def test_names_no_spec_can_name_are_refused(tmp_path, clean_env, name):
    path = tmp_path / "subtract.py"
    path.write_text(GAME.format(name=name.replace("\n", "\\n")))
    with pytest.raises(GameGraphError, match="no game spec can name it") as caught:
        plugins.load_file(path)
    assert "\n" not in str(caught.value)
    assert name not in [g for g in games()]


def test_loading_a_plugin_writes_no_pycache_beside_it(tmp_path, clean_env):
    path = write_game(tmp_path, "fz-cache")
    plugins.load_file(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["subtract.py"]


@pytest.mark.parametrize("change, call", [
    ("def start(self): return (0, self.params.start)", "def start(self): raise RuntimeError('start broke')"),
    ("def start(self): return (0, self.params.start)", "def start(self): return [0, self.params.start]"),
    ("def moves(self, p): return", "def moves(self, p): raise KeyError('x'); return"),
])
def test_a_plugins_bug_at_run_time_is_reported_as_the_plugins(tmp_path, change, call):
    path = tmp_path / "subtract.py"
    source = GAME.format(name="fz-buggy")
    assert change in source
    path.write_text(source.replace(change, call))
    line = one_error_line(gamegraph_cli(tmp_path, "--game-module", str(path), "solve", "fz-buggy"))
    assert "fz-buggy" in line and "subtract.py" in line and "fault of the game module" in line, line
    assert "please report it" not in line


def test_a_moves_generator_that_never_ends_is_cut_in_one_line(tmp_path):
    """It hung show, solve and check-game until killed."""
    import time

    path = tmp_path / "subtract.py"
    source = GAME.format(name="fz-endless")
    change = "def moves(self, p): return"
    assert change in source
    path.write_text(source.replace(change, "def moves(self, p):\n            import itertools\n"
                                           "            yield from (Move('x', p) for _ in itertools.count())\n"
                                           "            return"))
    for command in ("show", "solve"):
        began = time.monotonic()
        line = one_error_line(gamegraph_cli(tmp_path, "--game-module", str(path), command, "fz-endless"))
        assert "moves()" in line and "fz-endless" in line and "subtract.py" in line, line
        assert time.monotonic() - began < 120


@pytest.mark.parametrize("change, call, says", [
    ("def to_move(self, p): return p[0]", "def to_move(self, p): return 7", "to_move(): it gave 7"),
    ("def to_move(self, p): return p[0]", "def to_move(self, p): return None", "to_move(): it gave None"),
    ("def format(self, p): return", "def format(self, p): return 12345 or", "format(): it gave 12345"),
    ("(1 - p[0], p[1] - k))", "[1 - p[0], p[1] - k])", "moves(): it gave a position of type list, which cannot be"),
])
def test_a_result_of_the_wrong_kind_is_the_plugins_fault_in_one_line(tmp_path, change, call, says):
    """A to_move() of 7 or a format() of 12345 made `solve` answer with exit 0 ("start 12345"), values for
    no player (a stranger's, issue 40): now one line naming the file, the game and the call."""
    path = tmp_path / "subtract.py"
    source = GAME.format(name="fz-kinds")
    assert change in source
    path.write_text(source.replace(change, call))
    for command in ("solve", "show"):
        line = one_error_line(gamegraph_cli(tmp_path, "--game-module", str(path), command, "fz-kinds"))
        assert says in line and "fz-kinds" in line and "subtract.py" in line and "fault of the game module" in line


@pytest.mark.parametrize("body", [
    "x = 0\n            while True:\n                x += 1",
    # its own `except Exception` must not swallow the cut and spin on
    "while True:\n                try:\n                    sum(range(1000))\n                except Exception:\n"
    "                    pass",
])
def test_a_moves_call_that_never_returns_is_cut_in_one_line(tmp_path, clean_env, monkeypatch, body):
    """A moves() that loops without ever yielding hung `show` until killed (a stranger's, issue 40): the
    watchdog cuts it at MAX_MOVES_SECONDS (shortened here), and the timer is disarmed after every call."""
    import signal
    import time

    path = tmp_path / "subtract.py"
    source = GAME.format(name="fz-spin")
    change = "def moves(self, p): return"
    assert change in source
    path.write_text(source.replace(change, f"def moves(self, p):\n            if p[1] == 7:\n"
                                           f"                {body.replace(chr(10), chr(10) + '    ')}\n"
                                           "            return"))
    plugins.load_file(path)
    monkeypatch.setattr(plugins, "MAX_MOVES_SECONDS", 0.5)
    game = parse_spec("fz-spin")
    began = time.monotonic()
    with pytest.raises(GameGraphError, match="did not return within 0.5 s") as caught:
        game.moves(game.start())
    assert time.monotonic() - began < 10
    assert "fz-spin" in str(caught.value) and "subtract.py" in str(caught.value)
    assert "fault of the game module" in str(caught.value)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    after = game.moves(("AB".index("B"), 6))  # a call that returns is untouched, and leaves no timer behind
    assert [m.label for m in after] == ["-1", "-2"]
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.parametrize("description", ["\x1b[2Jcleared", "two\nlines", "back\rwards", "x" * 501])
def test_a_description_that_is_not_one_line_of_text_is_refused(tmp_path, clean_env, description):
    """`games` prints descriptions to the terminal: ESC[2J cleared it, a line break faked a game."""
    path = tmp_path / "subtract.py"
    source = GAME.format(name="fz-described")
    old = 'description = "take 1 or 2; the last token wins"'
    assert old in source
    path.write_text(source.replace(old, f"description = {description!r}"))
    with pytest.raises(GameGraphError, match="not one line of text") as caught:
        plugins.load_file(path)
    assert "\x1b" not in str(caught.value) and "\n" not in str(caught.value)
