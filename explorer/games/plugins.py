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
description, presets). A KeyboardInterrupt is let through: it may be a real
Ctrl-C, and the CLI reports it in one line ("interrupted", exit 130).
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType

from explorer.core import settings
from explorer.core.errors import GameGraphError
from explorer.games import registry

ENV = settings.GAME_MODULES_ENV
GROUP = "gamegraph.games"

_loaded_files: dict[Path, list[type]] = {}
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

    found = [obj for obj in vars(module).values()
             if inspect.isclass(obj) and issubclass(obj, Game) and obj.__module__ == module.__name__
             and isinstance(getattr(obj, "name", None), str)]
    return found


def load_file(path: str | Path) -> list[type]:
    """Import a game module from a file and register its games (once per file); returns them."""
    try:
        file = Path(path).expanduser().resolve()
        if file in _loaded_files:
            return _loaded_files[file]
        exists = file.is_file()
    except (OSError, ValueError, RuntimeError) as error:  # a name over 255 bytes, a NUL, a symlink loop
        reason = getattr(error, "strerror", None) or error
        raise GameGraphError(f"game module {_shown(path)} cannot be opened: {reason}") from None
    if not exists:
        raise GameGraphError(f"game module {str(path)!r} does not exist (--game-module / {ENV} name a .py file)")
    name = f"gamegraph_plugin_{file.stem}_{hashlib.sha1(str(file).encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise GameGraphError(f"game module {str(path)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    before = registry.snapshot()
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # an author's bug (any exception, even SystemExit): the file and the line
        del sys.modules[name]
        registry.restore(before)
        if isinstance(exc, (GameGraphError, KeyboardInterrupt)):  # a Ctrl-C still stops the program
            raise
        raise GameGraphError(f"could not load game module {str(path)!r}: {_describe(exc, file)}") from None
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
        registry.register_plugin(cls, f"game module {str(path)!r}")
    _loaded_files[file] = found
    return found


def check_declaration(cls: type, where: str) -> None:
    """GameGraphError naming `where` unless `cls` declares what every command reads of a game: a name,
    a description, a Params dataclass and a presets table (Game's docstring lists them)."""
    from explorer.games.base import Params

    name = getattr(cls, "name", None)
    label = f"{where}: game {name!r}" if isinstance(name, str) else f"{where}: class {cls.__name__}"
    if not isinstance(name, str) or not name.strip():
        raise GameGraphError(f"{label} needs a name (a non-empty string)")
    params = getattr(cls, "Params", None)
    if not (inspect.isclass(params) and issubclass(params, Params) and dataclasses.is_dataclass(params)):
        raise GameGraphError(f"{label} has no Params: declare a frozen dataclass subclassing "
                             f"explorer.games.Params (empty if the game has no parameters)")
    if not isinstance(getattr(cls, "description", None), str):
        raise GameGraphError(f"{label} has no description: give it a one-line description string")
    if not isinstance(getattr(cls, "presets", None), dict):
        raise GameGraphError(f"{label} has presets that are not a dict of name -> parameters")


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
    return f"{type(exc).__name__}: {exc}{where}"


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
            raise GameGraphError(f"could not load {where}: {type(exc).__name__}: {exc}") from None
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
