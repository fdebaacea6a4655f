"""The exception hierarchy: every error a user can cause is a GameGraphError.

The CLI and the UI catch GameGraphError and print its message alone, so each
message names the bad value and, where it helps, lists what would be valid.
"""

import re
import sys


class GameGraphError(Exception):
    """Base class of every error caused by input or by the environment."""


class UnknownGame(GameGraphError):
    """A game, preset or parameter name that no registered game declares."""


class StateFolderReadOnly(GameGraphError):
    """The state folder exists but this process cannot write it: work that needs no cache goes on without."""


class InvalidParameter(GameGraphError):
    """A parameter value that is malformed or out of range."""


class InvalidPosition(GameGraphError):
    """A position notation that does not parse, or names an illegal position."""


class UnreachablePosition(GameGraphError):
    """A legal position that is not in the graph that was generated."""


class GraphTooLarge(GameGraphError):
    """A graph that would not fit the memory or size limit given."""


class Neo4jUnavailable(GameGraphError):
    """Neo4j is not running, refused the credentials, or lacks the database."""


class LauncherError(GameGraphError):
    """The embedded Neo4j launcher could not start, stop or find its tools."""


class QueryError(GameGraphError):
    """A named query that does not exist, bad query arguments, or a write attempt."""


class CertificateError(GameGraphError):
    """A strategy certificate that is malformed or does not prove its claim."""


class QueryTimeout(QueryError):
    """A query that ran past its timeout and was stopped (on Neo4j or on the networkx mirror)."""


class InvalidValue(GameGraphError):
    """A combinatorial game value whose notation does not parse or is out of range."""


class BadValueFile(GameGraphError):
    """A compact value file (explorer.core.valuestore) that is truncated, damaged, or not one this version reads."""


def shown(value: object, limit: int = 60) -> str:
    """A user's value quoted for a one-line message: repr, cut to `limit` characters.

    Bad input can be a 5,000-digit number or a 100,000-character string; the
    message names it without repeating all of it.
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit - 20]}...{text[-6:]} ({len(str(value)):,} characters)"


def shell_hint(*words: str) -> str:
    """A gamegraph command line that pastes into a POSIX shell as it is: each word
    quoted where needed (`gamegraph load 'chopsticks(fingers=4)'`)."""
    import shlex

    return shlex.join(["gamegraph", *words])


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and the noun in its number, for messages: '1 move', '3 moves', '0 positions'."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


MAX_PARSE_MESSAGE = 300  # characters of argparse's own message kept (it quotes the arguments, of any length)


def parse_error_line(prog: str, message: str) -> str:
    """argparse's message about a bad argument as one line (not a usage block), cut to MAX_PARSE_MESSAGE
    characters, naming the program's help: the CLI's parser and the warm-up's. Not yet escaped: the caller's
    writer escapes it."""
    if len(message) > MAX_PARSE_MESSAGE:
        message = f"{message[:MAX_PARSE_MESSAGE - 40]}... ({len(message):,} characters)"
    return f"{prog}: error: {message} (see `{prog} --help`)"


def _module_being_located() -> str | None:
    """The module `python -m MODULE` runs, while Python is still importing the packages above it (sys.argv[0]
    is "-m" until runpy has found the module, then its path); None otherwise."""
    if sys.argv[:1] != ["-m"]:
        return None
    argv = list(getattr(sys, "orig_argv", []))
    for i, item in enumerate(argv[1:], 1):
        if item == "-m":
            return argv[i + 1] if i + 1 < len(argv) else None
        if item.startswith("-m"):
            return item[2:]
    return None


def exit_if_locating_main(error: GameGraphError) -> None:
    """For an error raised while a package's own import checks the environment (explorer.kernels checks
    NUMBA_NUM_THREADS before numba reads it): when that import is the one `python -m explorer.<...>` makes
    before running its module (the warm-up, `python -m explorer.kernels.warmup`), nothing of the module runs
    yet to catch it, and Python printed a traceback ending in the line. Then the line alone goes to standard
    error (its values already quoted by `shown`) and the process exits 2. Anywhere else this returns, and the
    caller raises as usual (the CLI, the Python API, a module run by another program catch it themselves)."""
    module = _module_being_located()
    if not module or not module.startswith("explorer."):
        return
    message = escaped(f"python -m {module}: error: {error}")
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # no standard error: the exit status says it
    raise SystemExit(2)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")  # control characters, and the line and paragraph separators


def escaped(text: str, keep_lines: bool = False) -> str:
    """`text` with every control character written as an escape (ESC as \\x1b, CR as \\r, a line break as
    \\n unless keep_lines), so a message cannot clear the screen, move the cursor or fake lines. O(len)."""
    def escape(found: re.Match) -> str:
        char = found[0]
        if keep_lines and char == "\n":
            return char
        named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char)
        return named or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
    return _CONTROL.sub(escape, text)
