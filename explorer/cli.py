"""The `gamegraph` command line. Each feature area registers its own subcommands.

Every user mistake or environment fault is a GameGraphError: one line on
stderr, exit status 2, no traceback. Inputs are checked where they enter
(argument types, game specs, positions, files, environment settings); this
module is the one place that turns the errors into messages and exit codes.
A failed memory allocation is reported as a game too large for the memory
(exit 2). Anything else is a bug: one "internal error" line, exit 70, and the
traceback only when GAMEGRAPH_DEBUG=1 (tests/support/fuzz_cli.py counts these lines
as failures, so the fuzz never relies on this net).

Exit statuses: 0 done; 1 a check found a difference or a failure (verify, check-game) or
a bulk load was not confirmed; 2 a refused input or an environment fault (one line);
3 `neo4j status`: no server of this state folder runs; 4 `play`: standard input ended
before the game did (explorer.commands.play.EXIT_UNFINISHED); 70 an internal error;
130 interrupted (Ctrl-C); 143 terminated (SIGTERM); `neo4j-admin` exits as Neo4j's tool does.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from typing import NoReturn

from explorer.commands import OPTIONS_GIVEN, StoreOnce
from explorer.core import settings
from explorer.core.errors import GameGraphError, shown

EXIT_ERROR = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE

# Modules with a `register(subparsers)` function; each adds its subcommands.
COMMAND_MODULES = (
    "explorer.commands.core",
    "explorer.commands.neo4j",
    "explorer.commands.query",
    "explorer.commands.ui",
    "explorer.commands.up",
    "explorer.commands.checkgame",
    "explorer.commands.cgt",
    "explorer.commands.analysis",
    "explorer.commands.survey",
    "explorer.commands.play",
)


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a bad argument reported in one line (not a usage block), like every other error,
    and an option given twice refused (StoreOnce). Subcommand parsers are of the same class (argparse's
    add_subparsers default)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")

    def parse_args(self, args=None, namespace=None):
        parsed = super().parse_args(args, namespace)
        if hasattr(parsed, OPTIONS_GIVEN):
            delattr(parsed, OPTIONS_GIVEN)  # bookkeeping of the parse, not an option of the command
        return parsed


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="gamegraph",
        description="Generate, solve exactly, load into Neo4j and explore the state graphs of small games.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def _game_modules(argv: list[str]) -> tuple[list[str], list[str]]:
    """(the rest of argv, the paths of every --game-module PATH / --game-module=PATH), wherever they stand."""
    rest, paths = [], []
    items = iter(argv)
    for item in items:
        if item == "--game-module":
            path = next(items, None)
            if path is None:
                raise GameGraphError("--game-module needs a path to a .py file")
            paths.append(path)
        elif item.startswith("--game-module="):
            paths.append(item.partition("=")[2])
        else:
            rest.append(item)
    return rest, paths


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like a Ctrl-C, so that every half-written file or folder is
    removed on the way out (explorer.core.files) instead of left behind by a hard exit."""


def _terminate(signum, frame) -> None:
    raise Terminated()


def _terminate_cleanly() -> None:
    """SIGTERM unwinds like Ctrl-C (only where the default action would kill: not when ignored, and
    only in the main thread, where Python allows handlers)."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminate)


def main(argv: list[str] | None = None) -> int:
    # A file name that is not UTF-8 (kept by Python as surrogate escapes) must not crash a print.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        # The libraries' variables before any of them is imported (numba reads NUMBA_NUM_THREADS on import).
        settings.check_library_environment()
        # A global option honoured by every command: load the file's games before anything parses a spec.
        argv, paths = _game_modules(argv)
        from explorer.games import plugins
        for path in paths:
            plugins.load_file(path)
            plugins.add_module_path(path)  # children (the UI) load it too
    except GameGraphError as exc:
        print(f"gamegraph: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a Ctrl-C, or a game module that raises it while loading
        print("gamegraph: interrupted", file=sys.stderr)
        return 130
    if argv and argv[0].startswith("--") and argv[0].split("=")[0] not in ("--help", "--version"):
        # argparse would read the option's value as the command (`--backend neo4j games` runs `neo4j`)
        from explorer.core.errors import shell_hint

        option = argv[0].split("=")[0][:40]
        print(f"gamegraph: error: {option} comes before the command; options go after it, "
              f"e.g. `{shell_hint('COMMAND', option, '...')}` (see `gamegraph --help`)", file=sys.stderr)
        return 2
    _terminate_cleanly()
    parser = build_parser()
    parser.add_argument("--game-module", metavar="PATH", action="append",
                        help="load games from a Python file (any command; repeatable; "
                             "also GAMEGRAPH_GAME_MODULES=path1:path2)")
    try:
        args = parser.parse_args(argv)  # argparse's own refusals exit 2 here (SystemExit passes through)
    except Exception as exc:  # noqa: BLE001 - a bug in an argument type: one line, as below
        return _internal_error(exc)
    try:
        return int(args.func(args) or 0)
    except GameGraphError as exc:
        print(f"gamegraph: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt as stop:
        print("gamegraph: interrupted", file=sys.stderr)
        return 143 if isinstance(stop, Terminated) else 130
    except BrokenPipeError:
        return 0
    except MemoryError:
        spec = getattr(args, "spec", None)
        what = f"{shown(spec)} is" if spec else "the work asked for is"
        print(f"gamegraph: error: out of memory: {what} too large for the memory available to this process; "
              "try a smaller game or lower --max-positions", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # noqa: BLE001 - the last resort: a bug, reported in one line
        return _internal_error(exc)


def _internal_error(exc: Exception) -> int:
    """A bug, in one line (the traceback only with GAMEGRAPH_DEBUG=1); EXIT_INTERNAL."""
    if settings.debug():
        traceback.print_exc()
    print(f"gamegraph: internal error: {type(exc).__name__}: {shown(str(exc), 200)} (please report it; "
          "GAMEGRAPH_DEBUG=1 shows the traceback)", file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
