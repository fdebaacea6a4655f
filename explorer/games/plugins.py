"""Games from outside the package: a file given by path, or an installed package's entry point.

Two ways in, both ending in the one registry (explorer.games.registry):

- ``--game-module path/to/game.py`` (a global option of every command) or the
  environment variable ``GAMEGRAPH_GAME_MODULES`` (paths separated by ``:``,
  read by every command and by the UI). The CLI option sets the variable, so
  a UI started by ``gamegraph ui`` sees the same games.
- An entry point in the group ``gamegraph.games`` of an installed distribution,
  naming a Game subclass (``mygame = "mypackage.game:MyGame"``) or a module.

A loaded module's games are every Game subclass it defines with a ``name``
(``@register`` is optional there). Every failure is one GameGraphError line
naming the file or entry point: a file that cannot be named (too long), an
exception of any kind raised while the module runs (SystemExit and other
BaseExceptions included), a game that lacks part of its declaration (Params,
description, presets), a name no spec can name (`fz:colon`, `fz(evil)`, a line
break, HTML: SPEC_NAME), and an exception raised by the class itself while it is
read (a metaclass whose `name` raises, an exception whose `__str__` raises). A
KeyboardInterrupt is let through: it may be a real Ctrl-C, and the CLI reports it
in one line ("interrupted", exit 130).

A plugin's bug at run time (its start() raising, unhashable positions, presets or
an estimate of the wrong type) is the plugin's, not gamegraph's: `blame` turns
such an exception into one line naming the file, the game and the call, which
the CLI prints instead of its "internal error ... please report it".
A plugin's moves() is bounded (`_bound_moves`): a generator that never ends is
cut with one line. Loading a file writes no ``__pycache__`` beside it (sys.dont_write_bytecode
while it runs): the user's folder is theirs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import inspect
import numbers
import re
import signal
import stat
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Iterator

from explorer.core import settings
from explorer.core.errors import GameGraphError, escaped, shown
from explorer.core.files import _kind as file_kind
import explorer.games.registry as registry

ENV = settings.GAME_MODULES_ENV
GROUP = "gamegraph.games"

_loaded_files: dict[Path, list[type]] = {}
# What explorer.games.spec.parse_spec can name: NAME[:PRESET][(...)], ASCII, at most MAX_NAME characters.
SPEC_NAME = re.compile(r"[A-Za-z][\w-]*", re.ASCII)
PRESET_NAME = re.compile(r"[\w-]+", re.ASCII)
MAX_NAME = 64
MAX_DESCRIPTION = 500
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_entry_points_loaded = False


def module_paths() -> list[str]:
    return settings.game_modules()


def add_module_path(path: str) -> None:
    """Make `path` part of GAMEGRAPH_GAME_MODULES for this process and its children (the UI)."""
    resolved = str(Path(path).expanduser().resolve())
    paths = module_paths()
    if resolved not in paths:
        settings.set_game_modules([*paths, resolved])


def games_in(module: ModuleType) -> list[type]:
    """The Game subclasses a module defines (not those it imports), in definition order."""
    from explorer.games.base import Game

    def named_game(obj: object) -> bool:
        return (inspect.isclass(obj) and issubclass(obj, Game) and obj.__module__ == module.__name__
                and isinstance(getattr(obj, "name", None), str))

    return [obj for obj in vars(module).values() if named_game(obj)]


def load_file(path: str | Path) -> list[type]:
    """Import a game module from a file and register its games (once per file); returns them."""
    try:
        file = Path(path).expanduser().resolve()
        if file in _loaded_files:
            return _loaded_files[file]
        mode = file.stat().st_mode if file.exists() else None  # stat only: a FIFO is never opened
    except (OSError, ValueError, RuntimeError) as error:  # a name over 255 bytes, a NUL, a symlink loop
        reason = getattr(error, "strerror", None) or error
        raise GameGraphError(f"game module {_shown(path)} cannot be opened: {reason}") from None
    if mode is None:
        raise GameGraphError(f"game module {str(path)!r} does not exist (--game-module / {ENV} name a .py file)")
    if not stat.S_ISREG(mode):  # a folder, a FIFO (reading it would wait for ever), a device, a socket
        raise GameGraphError(f"game module {str(path)!r} is {file_kind(mode)}, not a Python file "
                             f"(--game-module / {ENV} name a .py file)")
    name = f"gamegraph_plugin_{file.stem}_{hashlib.sha1(str(file).encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise GameGraphError(f"game module {str(path)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    before = registry.snapshot()
    writes_bytecode = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # no __pycache__ beside the user's file
    try:
        spec.loader.exec_module(module)
        return _register(module, file, path, before)
    except BaseException as exc:  # an author's bug (any exception, even SystemExit): the file and the line
        sys.modules.pop(name, None)
        registry.restore(before)
        if isinstance(exc, KeyboardInterrupt):  # a Ctrl-C still stops the program
            raise
        if isinstance(exc, GameGraphError):  # ours, or the module's own: its text read safely either way
            raise GameGraphError(_text_of(exc, 1000)) from None
        raise GameGraphError(f"could not load game module {str(path)!r}: {_describe(exc, file)}") from None
    finally:
        sys.dont_write_bytecode = writes_bytecode


def _register(module: ModuleType, file: Path, path: str | Path, before: dict[str, type]) -> list[type]:
    """The loaded module's games checked and registered (load_file's second half)."""
    clashes = [n for n, cls in before.items() if registry.snapshot().get(n) is not cls]
    if clashes:  # an @register that replaced a game already known
        registry.restore(before)
        raise GameGraphError(f"game module {str(path)!r} defines a game named {clashes[0]!r}, "
                             f"but {before[clashes[0]].__module__} already has that name")
    found = games_in(module)
    if not found:
        raise GameGraphError(f"game module {str(path)!r} defines no game: a Game subclass with a name is needed")
    for cls in found:
        check_declaration(cls, f"game module {str(path)!r}")
    for cls in found:
        _bound_moves(cls, file)
        _checked_results(cls, file)
        registry.register_plugin(cls, f"game module {str(path)!r}")
    _loaded_files[file] = found
    return found


MAX_PLUGIN_MOVES = 100_000   # one position's moves from a plugin: far above any game's, far below a hang
MAX_MOVES_SECONDS = 30.0     # the time one call of a plugin's moves() may take to give them


class _MovesOvertime(BaseException):
    """Raised into a plugin's moves() by the watchdog's alarm: a BaseException, so that the plugin's own
    `except Exception` cannot swallow it and loop on."""


@contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    """Raises _MovesOvertime inside whatever Python code runs after `seconds` (SIGALRM, a one-shot timer):
    it cuts a loop that never yields, which counting yielded moves cannot. Only in the main thread and
    when no other timer is armed (signals go to the main thread; the UI's script threads keep the count
    of moves and the yield-time check alone). Two system calls to arm and two to disarm. O(1)."""
    if (not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0):
        yield
        return

    def overtime(signum, frame):
        raise _MovesOvertime

    previous = signal.signal(signal.SIGALRM, overtime)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _bound_moves(cls: type, file: Path) -> None:
    """Wraps the moves() a plugin class defines so that one position's moves are a finite list: a
    generator that never ends (it hung show, solve and check-game) is cut at MAX_PLUGIN_MOVES moves or
    MAX_MOVES_SECONDS, and a loop that never yields at MAX_MOVES_SECONDS by a watchdog (_watchdog, main
    thread only), with one line naming the file and the game. A list is passed on as it is. O(moves)
    per call."""
    import functools
    import time

    original = vars(cls).get("moves")
    if original is None or getattr(original, "_gamegraph_bounded", False) or not callable(original):
        return

    def refuse(what: str, rule: str = "a position's moves must be a finite list") -> GameGraphError:
        return GameGraphError(f"game {shown(getattr(cls, 'name', '?'))} of game module {shown(str(file), 120)} failed "
                              f"in its moves(): {what}; {rule} (a fault of the game module, not of gamegraph)")

    def bounded(self, position):
        found = original(self, position)
        if isinstance(found, (list, tuple)):
            return found
        began, kept = time.monotonic(), []
        for move in found:
            kept.append(move)
            if len(kept) > MAX_PLUGIN_MOVES:
                raise refuse(f"it gave more than {MAX_PLUGIN_MOVES:,} moves for one position")
            if len(kept) % 1024 == 0 and time.monotonic() - began > MAX_MOVES_SECONDS:
                raise refuse(f"it was still giving moves for one position after {MAX_MOVES_SECONDS:g} s")
        return kept

    @functools.wraps(original)
    def moves(self, position):
        try:
            with _watchdog(MAX_MOVES_SECONDS):
                found = bounded(self, position)
        except _MovesOvertime:
            raise refuse(f"one call did not return within {MAX_MOVES_SECONDS:g} s") from None
        for move in found:  # the graph keys positions by them: a list was a TypeError deep in generation
            try:
                hash(getattr(move, "position", move))
            except TypeError:
                kind = type(getattr(move, "position", move)).__name__
                raise refuse(f"it gave a position of type {kind}, which cannot be hashed",
                             "positions must be immutable (tuples, not lists)") from None
        return found

    moves._gamegraph_bounded = True
    cls.moves = moves


def _is_player(result: object) -> bool:
    return isinstance(result, numbers.Integral) and result in (0, 1)


# The results every generator and solver reads as given: a mover that is no player (7) or a notation that is no
# text (12345) made `solve` answer with values of no one and print "start 12345", exit 0 (a stranger's).
_RESULT_CHECKS = {"to_move": (_is_player, "0 or 1, the player to move"),
                  "format": (lambda result: isinstance(result, str), "a str, the position's notation")}


def _checked_results(cls: type, file: Path) -> None:
    """Wraps the to_move() and format() a plugin class defines so that a result of the wrong kind is the
    plugin's fault in one line, naming the file, the game, the call and the value it gave, before anything
    reads it. O(1) per call."""
    import functools

    for method, (check, wanted) in _RESULT_CHECKS.items():
        original = vars(cls).get(method)
        if original is None or not callable(original) or getattr(original, "_gamegraph_checked", False):
            continue

        def checked(self, position, _original=original, _method=method, _check=check, _wanted=wanted):
            result = _original(self, position)
            if not _check(result):
                raise GameGraphError(
                    f"game {shown(getattr(cls, 'name', '?'))} of game module {shown(str(file), 120)} failed in its "
                    f"{_method}(): it gave {escaped(repr(result)[:60])} for a position and must give {_wanted} "
                    "(a fault of the game module, not of gamegraph)")
            return result

        checked = functools.wraps(original)(checked)
        checked._gamegraph_checked = True
        setattr(cls, method, checked)


def check_declaration(cls: type, where: str) -> None:
    """GameGraphError naming `where` unless `cls` declares what every command reads of a game: a name,
    a description, a Params dataclass and a presets table (Game's docstring lists them)."""
    from explorer.games.base import Params

    name = getattr(cls, "name", None)
    label = f"{where}: game {shown(name)}" if isinstance(name, str) else f"{where}: class {shown(cls.__name__)}"
    if not isinstance(name, str) or not name.strip():
        raise GameGraphError(f"{label} needs a name (a non-empty string)")
    if len(name) > MAX_NAME or not SPEC_NAME.fullmatch(name):
        raise GameGraphError(f"{label}: no game spec can name it; a name is a letter then letters, digits, _ or - "
                             f"(ASCII, at most {MAX_NAME}), e.g. my-game")
    params = getattr(cls, "Params", None)
    if not (inspect.isclass(params) and issubclass(params, Params) and dataclasses.is_dataclass(params)):
        raise GameGraphError(f"{label} has no Params: declare a frozen dataclass subclassing "
                             f"explorer.games.Params (empty if the game has no parameters)")
    if not isinstance(getattr(cls, "description", None), str):
        raise GameGraphError(f"{label} has no description: give it a one-line description string")
    if _CONTROL.search(cls.description) or len(cls.description) > MAX_DESCRIPTION:
        raise GameGraphError(f"{label} has a description {shown(cls.description)} that is not one line of text: no "
                             f"control characters (line breaks, ESC, ...), at most {MAX_DESCRIPTION} characters "
                             "(`games` prints it to the terminal)")
    if not isinstance(getattr(cls, "presets", None), dict):
        raise GameGraphError(f"{label} has presets that are not a dict of name -> parameters")
    for preset in cls.presets:
        if not isinstance(preset, str) or len(preset) > MAX_NAME or not PRESET_NAME.fullmatch(preset):
            raise GameGraphError(f"{label} has a preset named {shown(preset)}, which no game spec can name: letters, "
                                 f"digits, _ or - (ASCII, at most {MAX_NAME})")


def _shown(path: str | Path) -> str:
    text = str(path)
    return repr(text if len(text) <= 200 else f"{text[:160]}...{text[-20:]} ({len(text):,} characters)")


def _describe(exc: BaseException, file: Path) -> str:
    line = None
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} (line {exc.lineno})"
    else:
        tb = exc.__traceback__
        while tb is not None:
            if Path(tb.tb_frame.f_code.co_filename).resolve() == file:
                line = tb.tb_lineno
            tb = tb.tb_next
    where = f" (line {line})" if line else ""
    return f"{_name_of(exc)}: {_text_of(exc)}{where}"


def _name_of(exc: BaseException) -> str:
    try:
        return str(type(exc).__name__)
    except Exception:  # noqa: BLE001 - a metaclass of the plugin's own
        return "an exception"


def _text_of(exc: BaseException, limit: int = 300) -> str:
    """str(exc) cut to `limit`, or a note when the exception's own __str__ raises (a plugin's)."""
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - its __str__ is the plugin's code too
        return "(its message could not be read: its __str__ raised)"
    return text if len(text) <= limit else f"{text[:limit - 20]}... ({len(text):,} characters)"


def plugin_classes() -> dict[type, Path]:
    """Every game class loaded from a file, with its file."""
    return {cls: file for file, classes in _loaded_files.items() for cls in classes}


def blame(exc: BaseException) -> str | None:
    """One line that reports `exc` as a loaded plugin's fault, or None when no plugin is involved.

    A plugin is involved when the traceback runs through its file (the call is the outermost
    function of it there: start, moves, ...), or when a frame of gamegraph's holds one of its games
    (an unhashable position or a preset of the wrong type fails in gamegraph's code, called with the
    plugin's values; the call is then gamegraph's function that met it). O(traceback depth x locals)."""
    from explorer.games.base import Game

    classes = plugin_classes()
    if not classes:
        return None
    files = {file: cls for cls, file in classes.items()}
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    game, file, call, line = None, None, None, None
    for frame, lineno in frames:  # the outermost frame in a plugin file
        try:
            here = Path(frame.f_code.co_filename).resolve()
        except (OSError, ValueError, RuntimeError):
            continue
        if here in files:
            file, call, line = here, frame.f_code.co_name, lineno
            own = frame.f_locals.get("self")
            game = type(own) if isinstance(own, Game) and type(own) in classes else files[here]
            break
    if file is None:
        for frame, _ in reversed(frames):  # the innermost frame of gamegraph's that holds a plugin game
            for value in list(frame.f_locals.values()):
                kind = value if inspect.isclass(value) else type(value)
                if kind in classes:
                    game, file, call = kind, classes[kind], f"gamegraph's {frame.f_code.co_name}()"
                    break
            if file is not None:
                break
    if file is None:
        return None
    name = getattr(game, "name", "?")
    what = f"its {call}()" if not call.startswith("gamegraph's") else call
    at = f", line {line}" if line else ""
    return (f"game {shown(name)} of game module {shown(str(file), 120)} failed in {what}{at}: "
            f"{_name_of(exc)}: {_text_of(exc, 200)} (a fault of the game module, not of gamegraph)")


def load_entry_points() -> None:
    """Register every game of the `gamegraph.games` entry point group (once per process)."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points

    from explorer.games.base import Game

    for ep in entry_points(group=GROUP):
        where = f"entry point {ep.name!r} ({ep.value}) of group {GROUP}"
        try:
            target = ep.load()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - any exception of the package's code, SystemExit included
            raise GameGraphError(f"could not load {where}: {_name_of(exc)}: {_text_of(exc)}") from None
        classes = games_in(target) if isinstance(target, ModuleType) else [target]
        for cls in classes:
            if not (inspect.isclass(cls) and issubclass(cls, Game)):
                raise GameGraphError(f"{where} names {cls!r}, not a Game subclass or a module of games")
            check_declaration(cls, where)
            registry.register_plugin(cls, where)


def load_all() -> None:
    """Entry points, then the files named by GAMEGRAPH_GAME_MODULES."""
    load_entry_points()
    for path in module_paths():
        load_file(path)


def unload(path: str | Path) -> None:
    """Remove a loaded file's games from the registry (tests)."""
    for cls in _loaded_files.pop(Path(path).expanduser().resolve(), []):
        registry.unregister(cls)


def forget() -> None:
    """Forget what was loaded (tests)."""
    global _entry_points_loaded
    _loaded_files.clear()
    _entry_points_loaded = False
