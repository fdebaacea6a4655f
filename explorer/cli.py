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
3 `neo4j status`: no server of this state folder runs; 4 `play`: standard input ended, or the player quit (q),
before the game did (explorer.commands.play.EXIT_UNFINISHED); 70 an internal error;
74 standard output could not be written (closed, or its disk full: EX_IOERR; the line goes to standard
error, or to standard output when standard error is the one that failed);
130 interrupted (Ctrl-C); 143 terminated (SIGTERM); `neo4j-admin` exits as Neo4j's tool does.

Every line this module prints goes through `say`, which escapes control characters (a plugin's
message holding ESC[2J or a carriage return, Maven's colour codes) so the terminal shows them as
text; only a launcher error keeps its line breaks (the tail of a log it quotes).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
import traceback
from typing import NoReturn

from explorer.commands import OPTIONS_GIVEN, StoreOnce
from explorer.core import settings
from explorer.core.errors import GameGraphError, escaped, parse_error_line, shown

EXIT_ERROR = 2
EXIT_OUTPUT = 74    # EX_IOERR: standard output closed or full
EXIT_INTERNAL = 70  # EX_SOFTWARE
class OutputFailed(Exception):
    """Standard output could not be written (closed, or its disk full)."""


class _Guarded:
    """sys.stdout, with a failed write turned into OutputFailed once; later writes are dropped and the
    descriptor is pointed at /dev/null, so Python's own flush at exit has nothing to complain about."""

    def __init__(self, stream):
        self._stream = stream
        self.failed: OSError | None = None

    def _fail(self, error: OSError):
        if isinstance(error, BrokenPipeError):
            _to_devnull(1)
            raise error  # a reader that went away (| head): main's BrokenPipeError branch
        self.failed = error
        _to_devnull(1)
        return OutputFailed(error)

    def write(self, text: str) -> int:
        if self.failed:
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as error:
            raise self._fail(error) from None

    def flush(self) -> None:
        if self.failed:
            return
        try:
            self._stream.flush()
        except OSError as error:
            raise self._fail(error) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _to_devnull(fd: int) -> None:
    """Points descriptor fd at /dev/null (what a closed or failed standard stream becomes)."""
    try:
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    except OSError:
        pass


def _closed(fd: int) -> bool:
    try:
        os.fstat(fd)
        return False
    except OSError:
        return True


_STDERR_WORKS = True


def say(line: str, keep_lines: bool = False) -> None:
    """One message line, escaped, on standard error, else (closed or full) on standard output."""
    global _STDERR_WORKS
    text = escaped(line, keep_lines) + "\n"
    for stream in ((sys.stderr, sys.stdout) if _STDERR_WORKS else (sys.stdout,)):
        if stream is None or getattr(stream, "failed", None):
            continue
        try:
            stream.write(text)
            stream.flush()
            return
        except (OSError, OutputFailed):
            if stream is sys.stderr:
                _STDERR_WORKS = False
                _to_devnull(2)

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
    escaped and cut (explorer.core.errors.parse_error_line), and an option given twice refused (StoreOnce).
    Subcommand parsers are of the same class (argparse's add_subparsers default); an argument a subcommand
    does not know is its own error, naming its own help (`gamegraph query --help`): argparse hands those up
    to the top parser, which named `gamegraph --help`."""

    top_level = False  # build_parser's parser; every other one is a subcommand's

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)

    def error(self, message: str) -> NoReturn:
        say(parse_error_line(self.prog, message))
        raise SystemExit(EXIT_ERROR)

    def parse_known_args(self, args=None, namespace=None):
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and not self.top_level:  # a subcommand's parser keeps nothing for its parent
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def parse_args(self, args=None, namespace=None):
        parsed = super().parse_args(args, namespace)
        if hasattr(parsed, OPTIONS_GIVEN):
            delattr(parsed, OPTIONS_GIVEN)  # bookkeeping of the parse, not an option of the command
        return parsed


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="gamegraph",
        description="Generate, solve exactly, load into Neo4j and explore the state graphs of small games.")
    parser.top_level = True
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


def _standard_streams() -> bool:
    """Makes closed standard descriptors /dev/null (so no file the command opens takes number 1 or 2)
    and guards standard output (_Guarded); False when standard output is closed."""
    global _STDERR_WORKS
    stdout_open = not _closed(1) and sys.stdout is not None
    if _closed(2) or sys.stderr is None:
        _STDERR_WORKS = False
    for fd in (0, 1, 2):
        if _closed(fd):
            _to_devnull(fd)
    # A file name that is not UTF-8 (kept by Python as surrogate escapes) must not crash a print.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if sys.stdout is not None and not isinstance(sys.stdout, _Guarded):
        sys.stdout = _Guarded(sys.stdout)
    return stdout_open


def main(argv: list[str] | None = None) -> int:
    original = sys.stdout
    if not _standard_streams():
        say("gamegraph: error: standard output is closed, so the answer would be lost: run it with its output "
            "going somewhere (> FILE, or > /dev/null to drop it)")
        return EXIT_OUTPUT
    try:
        return _main(argv)
    except KeyboardInterrupt as stop:  # a Ctrl-C or SIGTERM outside a command's own run (parsing the arguments)
        say("gamegraph: interrupted")
        return 143 if isinstance(stop, Terminated) else 130
    except OutputFailed as failed:
        error = failed.args[0] if failed.args else None
        why = "its disk is full" if getattr(error, "errno", None) in (errno.ENOSPC, errno.EDQUOT) else \
            f"{getattr(error, 'strerror', None) or error}"
        say(f"gamegraph: error: standard output could not be written ({why}); the answer is incomplete")
        return EXIT_OUTPUT
    finally:
        if isinstance(sys.stdout, _Guarded) and not sys.stdout.failed:
            sys.stdout = original  # main() called in-process (the tests) leaves the stream as it found it
        _default_termination()


def _default_termination() -> None:
    """SIGTERM back to its default action once the command is done (the state _terminate_cleanly found): one that
    came after main() had returned, while the interpreter shut down (joining threads, atexit), raised Terminated
    there, and Python printed a traceback under an exit status of 0 (the CLI fuzz, seed 11: an export's SIGTERM
    0.91 s in, as it ended). Now it ends the process as SIGTERM does, with nothing left to unwind."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is _terminate:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        # The libraries' variables before any of them is imported (numba reads NUMBA_NUM_THREADS on import).
        settings.check_library_environment()
        # A global option honoured by every command: load the file's games before anything parses a spec.
        argv, paths = _game_modules(argv)
        if paths:  # only then: explorer.games imports numpy, a quarter of a second `--help` need not pay
            from explorer.games import plugins
            for path in paths:
                plugins.load_file(path)
                plugins.add_module_path(path)  # children (the UI) load it too
    except GameGraphError as exc:
        say(f"gamegraph: error: {exc}")
        return 2
    except KeyboardInterrupt:  # a Ctrl-C, or a game module that raises it while loading
        say("gamegraph: interrupted")
        return 130
    if argv and argv[0].startswith("--") and argv[0].split("=")[0] not in ("--help", "--version"):
        # argparse would read the option's value as the command (`--backend neo4j games` runs `neo4j`)
        from explorer.core.errors import shell_hint

        option = argv[0].split("=")[0][:40]
        say(f"gamegraph: error: {option} comes before the command; options go after it, "
            f"e.g. `{shell_hint('COMMAND', option, '...')}` (see `gamegraph --help`)")
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
        code = int(args.func(args) or 0)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk shows here at the latest, not in Python's flush at exit
        return code
    except OutputFailed:
        raise
    except GameGraphError as exc:
        from explorer.core.errors import LauncherError
        say(f"gamegraph: error: {exc}", keep_lines=isinstance(exc, LauncherError))
        return EXIT_ERROR
    except KeyboardInterrupt as stop:
        say("gamegraph: interrupted")
        return 143 if isinstance(stop, Terminated) else 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            return _internal_error(exc)
        # A full disk wherever it meets a write no caller turned into a GameGraphError (numba saving its cache).
        name = exc.filename
        where = f" writing {shown(os.fsdecode(name) if isinstance(name, (str, bytes)) else str(name), 200)}" \
            if name else ""
        say(f"gamegraph: error: the disk is full{where} ({exc.strerror or exc}); free some space and run it again")
        return EXIT_ERROR
    except MemoryError:
        spec = getattr(args, "spec", None)
        what = f"{shown(spec)} is" if spec else "the work asked for is"
        say(f"gamegraph: error: out of memory: {what} too large for the memory available to this process; "
            "try a smaller game or lower --max-positions")
        return EXIT_ERROR
    except Exception as exc:  # noqa: BLE001 - the last resort: a bug, reported in one line
        return _internal_error(exc)


def _internal_error(exc: Exception) -> int:
    """A bug, in one line (the traceback only with GAMEGRAPH_DEBUG=1): a loaded game module's (plugins.blame:
    the file, the game and the call; EXIT_ERROR), else gamegraph's own (EXIT_INTERNAL)."""
    from explorer.games import plugins

    if settings.debug():
        traceback.print_exc()
    try:
        blamed = plugins.blame(exc)
    except Exception:  # noqa: BLE001 - the report of a bug must not fail in turn
        blamed = None
    if blamed:
        say(f"gamegraph: error: {blamed}")
        return EXIT_ERROR
    say(f"gamegraph: internal error: {type(exc).__name__}: {shown(plugins._text_of(exc, 1000), 200)} (please report "
        "it; GAMEGRAPH_DEBUG=1 shows the traceback)")
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
