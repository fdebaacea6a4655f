"""The exception hierarchy: every error a user can cause is a GameGraphError.

The CLI and the UI catch GameGraphError and print its message alone, so each
message names the bad value and, where it helps, lists what would be valid.
"""


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
