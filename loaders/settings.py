"""How gamegraph reaches Neo4j: the Neo4j half of the settings read from the environment.

Every other GAMEGRAPH_* setting (the state folder, memory budgets, the page's
limits, ...) is read in explorer/core/settings.py; this module reads the Neo4j
ones, one function each: NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE
(`Neo4jSettings.from_env`) and the embedded server's memory,
GAMEGRAPH_NEO4J_HEAP, GAMEGRAPH_NEO4J_PAGECACHE, GAMEGRAPH_NEO4J_ADMIN_HEAP,
GAMEGRAPH_NEO4J_IMPORT_MEMORY and GAMEGRAPH_NEO4J_IMPORT_THREADS (`server_heap`,
`server_pagecache`, `admin_heap`, `import_memory`, `import_threads`), and
GAMEGRAPH_NEO4J_JVM_OPTIONS, options added to both JVMs' own (`extra_jvm_options`). The
importer's two are chosen from the machine when unset (`import_threads`, `import_memory`).

Every Neo4j setting comes from the same environment variables whether the
server is the embedded one (`gamegraph neo4j start`), docker-compose's, or one
run elsewhere, so a deployment changes variables, never code. Without
NEO4J_PASSWORD the password is a random one kept in an owner-only file next to
the embedded server's data.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from explorer.core.errors import GameGraphError, LauncherError, Neo4jUnavailable, shown
from explorer.core.private import ensure_private_dir, existing_state_path, new_private_file, state_path
from explorer.core.settings import state_dir, state_dir_location

if TYPE_CHECKING:  # the driver (which pulls in pandas) loads only when a command connects
    import neo4j

DEFAULT_URI = "bolt://127.0.0.1:7687"
MIN_PASSWORD_LENGTH = 8  # Neo4j's own default minimum (dbms.security.auth_minimum_password_length)
# A server that is down must cost a caller seconds, not the driver's defaults (30 s to
# connect, 60 s to get a connection, 30 s of retries): seconds are plenty on a LAN.
CONNECT_TIMEOUT_S = 3.0       # TCP connect and Bolt handshake
ACQUIRE_TIMEOUT_S = 5.0       # waiting for a pooled connection, connecting included
MAX_PASSWORD_BYTES = 4096
MAX_URI_LENGTH = 2048
URI_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
NEO4J_KIND = "neo4j"  # the state folder's subfolder of the embedded server

HEAP_ENV = "GAMEGRAPH_NEO4J_HEAP"
PAGECACHE_ENV = "GAMEGRAPH_NEO4J_PAGECACHE"
ADMIN_HEAP_ENV = "GAMEGRAPH_NEO4J_ADMIN_HEAP"
IMPORT_MEMORY_ENV = "GAMEGRAPH_NEO4J_IMPORT_MEMORY"
IMPORT_THREADS_ENV = "GAMEGRAPH_NEO4J_IMPORT_THREADS"
JVM_OPTIONS_ENV = "GAMEGRAPH_NEO4J_JVM_OPTIONS"
NEO4J_ADMIN_HEAP_ENV = "HEAP_SIZE"  # what Neo4j's own bin/neo4j-admin script reads; honoured after ours
DEFAULT_HEAP = "2g"
DEFAULT_PAGECACHE = "256m"
DEFAULT_ADMIN_HEAP = "1g"
MIN_IMPORT_MEMORY_MIB = 512      # the importer's off-heap floor, however little memory is free
MAX_IMPORT_THREADS = 16          # beyond this, more threads only contend (and Neo4j's own default is the cores)
_MEMORY_SIZE = re.compile(r"[1-9][0-9]{0,6}[kKmMgG]?")


def neo4j_dir() -> Path:
    """The embedded server's folder: its data, logs, jars list and generated password."""
    return state_path(NEO4J_KIND)


def server_heap() -> str:
    """GAMEGRAPH_NEO4J_HEAP, the embedded server's heap (default 2g); LauncherError unless a memory size."""
    return _memory_setting(HEAP_ENV, DEFAULT_HEAP)


def server_pagecache() -> str:
    """GAMEGRAPH_NEO4J_PAGECACHE, the embedded server's page cache (default 256m); LauncherError unless a memory size."""
    return _memory_setting(PAGECACHE_ENV, DEFAULT_PAGECACHE)


def admin_heap() -> str:
    """neo4j-admin's heap, passed to the JVM as given: GAMEGRAPH_NEO4J_ADMIN_HEAP, else HEAP_SIZE (the variable
    Neo4j's own neo4j-admin script reads, so its documentation applies here too), else 1g. The importer keeps
    its bulk data off-heap (`import_memory`): a bigger heap made no difference in issue 23's measurements."""
    for name in (ADMIN_HEAP_ENV, NEO4J_ADMIN_HEAP_ENV):
        if os.environ.get(name):
            return _memory_setting(name, DEFAULT_ADMIN_HEAP)  # checked: "abc" reached Java as -Xmxabc
    return DEFAULT_ADMIN_HEAP


def import_memory() -> str:
    """The bulk importer's off-heap cap (--max-off-heap-memory): GAMEGRAPH_NEO4J_IMPORT_MEMORY as given, else
    half of the memory available now (MemAvailable), at least 512m.

    Half, not Neo4j's default 90%: the machine is shared (servers, other jobs), and
    the importer's id map and caches of the games gamegraph imports fit well within it.
    """
    if os.environ.get(IMPORT_MEMORY_ENV):
        return _memory_setting(IMPORT_MEMORY_ENV, "4g")
    return f"{max(MIN_IMPORT_MEMORY_MIB, available_memory() // 2 // 2 ** 20)}m"


def import_threads() -> int:
    """The bulk importer's --threads: GAMEGRAPH_NEO4J_IMPORT_THREADS, else twice the usable cores (at most 16).

    Twice: the importer's stages block on each other and on I/O, so two threads per
    core kept both cores of a 2-core machine busier than one per core (issue 23:
    --threads=4 was 25-30% faster than the default 2; more than 4 was slower).
    LauncherError unless a whole number from 1.
    """
    text = os.environ.get(IMPORT_THREADS_ENV)
    if not text:
        return min(MAX_IMPORT_THREADS, 2 * usable_cores())
    if not text.strip().isdigit() or int(text) < 1:
        raise LauncherError(f"{IMPORT_THREADS_ENV} must be a whole number of threads from 1, not {text!r}")
    return int(text)


def extra_jvm_options() -> list[str]:
    """GAMEGRAPH_NEO4J_JVM_OPTIONS: JVM options (words, as a shell splits them) that the embedded server's JVM and
    neo4j-admin's take after their own, so that one given here wins. ./scripts/test sets -XX:TieredStopAtLevel=1:
    the suite starts a dozen short-lived servers and importers, and a JVM that compiles with C1 only starts on less
    CPU (bench/README.md, Test suite). LauncherError for a word that is not an option (a class name or a stray
    argument there would change what runs)."""
    import shlex

    text = os.environ.get(JVM_OPTIONS_ENV, "")
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise LauncherError(f"{JVM_OPTIONS_ENV}={shown(text)} cannot be split into options: {error}") from None
    for word in words:
        if not word.startswith("-"):
            raise LauncherError(f"{JVM_OPTIONS_ENV}={shown(text)} holds {shown(word)}, which is not a JVM option "
                                "(options start with -, e.g. -XX:TieredStopAtLevel=1)")
    return words


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def available_memory() -> int:
    """Bytes of memory available without swapping (explorer.core.limits.meminfo_available), 0 if unknown."""
    from explorer.core.limits import meminfo_available

    return meminfo_available() or 0


def _memory_setting(name: str, default: str) -> str:
    """A JVM memory size from the environment (512m, 2g, ...); LauncherError for anything else."""
    value = os.environ.get(name) or default
    if not _MEMORY_SIZE.fullmatch(value):
        raise LauncherError(f"{name}={shown(value)} is not a memory size: write a whole number with an optional "
                            f"unit k, m or g, e.g. {default}")
    return value


NO_NEO4J_ENV = "GAMEGRAPH_NO_NEO4J"  # set (to 1) by `gamegraph up --no-neo4j` for the UI it starts


def neo4j_switched_off() -> bool:
    """Whether Neo4j is switched off for this process (GAMEGRAPH_NO_NEO4J=1, which `gamegraph up
    --no-neo4j` gives the UI it starts): nothing about Neo4j is then probed, read or asked for,
    not even its password."""
    return os.environ.get(NO_NEO4J_ENV, "").strip() not in ("", "0")


def password_file() -> Path:
    """The embedded server's password file. Only looked up, never created, here: where there is no state
    folder yet, the path it will have (its folder is made by `_create_password_file`, on `neo4j start`)."""
    folder = existing_state_path(NEO4J_KIND)
    return (folder if folder is not None else state_dir_location() / NEO4J_KIND) / "password"


def neo4j_uri() -> str:
    """NEO4J_URI, else the address of the embedded server running from this state
    folder (it may have been started on another port), else the default; checked:
    Neo4jUnavailable names what is wrong with it."""
    uri = os.environ.get("NEO4J_URI") or _running_embedded_uri() or DEFAULT_URI
    check_uri(uri)
    return uri


def _running_embedded_uri() -> str | None:
    """The URI in the embedded server's ready marker while its launcher process lives.

    A cheap check (the pid exists); neo4j_server does the thorough one before it
    signals anything."""
    folder = existing_state_path(NEO4J_KIND)  # no state folder: no server of it, and nothing is created
    if folder is None:
        return None
    try:
        pid = (folder / "neo4j.pid").read_text().strip()
        uri = (folder / "ready").read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not (pid.isdigit() and len(pid) < 10 and Path(f"/proc/{pid}").exists()):
        return None
    return uri or None


def check_uri(uri: str) -> tuple[str, int | None]:
    """(host, port or None) of a Neo4j URI; Neo4jUnavailable (one line) unless it is scheme://host[:port]
    with a known scheme and a port in 1..65535. O(len(uri))."""
    def bad(why: str) -> Neo4jUnavailable:
        return Neo4jUnavailable(f"NEO4J_URI {shown(uri)} is not a Neo4j URI: {why} "
                                f"(expected e.g. {DEFAULT_URI}; schemes: {', '.join(URI_SCHEMES)})")

    if len(uri) > MAX_URI_LENGTH or any(c.isspace() or ord(c) < 32 for c in uri):
        raise bad("too long or has spaces")
    try:
        parts = urlsplit(uri)
        port = parts.port
    except ValueError as error:  # "Port out of range 0-65535", "Invalid IPv6 URL", a port that is no number
        raise bad(str(error)) from None
    if parts.scheme not in URI_SCHEMES:
        raise bad(f"the scheme {parts.scheme!r} is not one Neo4j speaks")
    if not parts.hostname:
        raise bad("no host")
    try:
        if len(parts.hostname.encode("idna")) > 253:  # encode: what the driver's resolver does (a 64-letter
            raise UnicodeError  # label failed there)
    except UnicodeError:
        raise bad("the host is not a valid name (dot-separated labels of 1 to 63 letters, digits or "
                  "hyphens, at most 253 in all)") from None
    if port == 0:
        raise bad("port 0")
    return parts.hostname, port


@dataclass(frozen=True)
class Neo4jSettings:
    """How to reach Neo4j; the password stays out of repr so it never lands in logs."""

    uri: str
    user: str
    password: str = field(repr=False)
    database: str

    @classmethod
    def from_env(cls, *, create_password: bool = False) -> Neo4jSettings:
        """Reads the environment; create_password (used by the launcher's start) makes
        the password file when neither NEO4J_PASSWORD nor the file exists yet."""
        return cls(
            uri=neo4j_uri(),
            user=os.environ.get("NEO4J_USER") or "neo4j",
            password=_password(create_password),
            database=os.environ.get("NEO4J_DATABASE") or "neo4j",
        )


def _password(create: bool) -> str:
    password = os.environ.get("NEO4J_PASSWORD")
    source = "NEO4J_PASSWORD"
    if not password:
        path = password_file()
        if create:
            _create_password_file(path)
        password = _read_password_file(path)
        source = str(path)
    if len(password) < MIN_PASSWORD_LENGTH:
        raise Neo4jUnavailable(
            f"the Neo4j password from {source} has {len(password)} characters; "
            f"Neo4j needs at least {MIN_PASSWORD_LENGTH}"
        )
    return password


def _read_password_file(path: Path) -> str:
    """The password kept in `path`: a regular UTF-8 file; Neo4jUnavailable (one line) otherwise."""
    from explorer.core.files import read_regular_file

    if not os.path.lexists(path):
        raise Neo4jUnavailable(
            f"no Neo4j password: set NEO4J_PASSWORD, or run `gamegraph neo4j start` "
            f"once to generate one in {path}"
        )
    try:
        raw = read_regular_file(path, MAX_PASSWORD_BYTES, "Neo4j password file")
    except GameGraphError as error:
        raise Neo4jUnavailable(f"{error}; remove it (a new one is made by `gamegraph neo4j start`) "
                               "or set NEO4J_PASSWORD") from None
    try:
        return raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise Neo4jUnavailable(f"the Neo4j password file {path} is not UTF-8 text; remove it (a new one is made "
                               "by `gamegraph neo4j start`) or set NEO4J_PASSWORD") from None


def _create_password_file(path: Path) -> None:
    """Writes a random password readable by the owner alone (folder 0700, file 0600).

    O_EXCL makes concurrent first starts agree on one password instead of each
    writing its own."""
    ensure_private_dir(state_dir())
    try:
        ensure_private_dir(path.parent)
    except OSError as error:
        reason = "a file of that name exists" if isinstance(error, FileExistsError) else error.strerror or error
        raise Neo4jUnavailable(f"cannot create the folder {path.parent}: {reason}") from None
    try:
        out = new_private_file(path)
    except FileExistsError:
        return  # made by a concurrent start, or something else is there: reading it will say
    except OSError as error:
        raise Neo4jUnavailable(f"cannot create the Neo4j password file {path}: {error.strerror or error}") from None
    with out:
        out.write((secrets.token_urlsafe(24) + "\n").encode())


def open_driver(settings: Neo4jSettings) -> neo4j.Driver:
    """A driver already proven to reach settings.database with settings' credentials.

    Connecting eagerly turns the three usual set-up mistakes (server down, wrong
    password, wrong database) into one Neo4jUnavailable that names what was tried,
    instead of a driver error deep inside the first query.

    The server sends no notifications to this driver (notifications_min_severity
    OFF), so the driver logs none: gamegraph's own queries are fixed, and hints
    such as "property key not in the database yet" (any first load) are noise
    to a user. A session that wants them, say a console,
    asks with session(notifications_min_severity=...)."""
    import logging

    import neo4j
    from neo4j.exceptions import AuthError, ConfigurationError, Neo4jError, ServiceUnavailable

    # The driver's own retry warnings ("Transaction failed and will be retried in 0.95 s (Couldn't connect
    # ...)") reach the terminal raw, two lines each; what fails is said by gamegraph in one line of its own.
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    where = f"(URI {settings.uri}, user {settings.user!r}, database {settings.database!r})"
    try:
        driver = neo4j.GraphDatabase.driver(
            settings.uri, auth=(settings.user, settings.password),
            notifications_min_severity=neo4j.NotificationMinimumSeverity.OFF,
            connection_timeout=CONNECT_TIMEOUT_S, connection_acquisition_timeout=ACQUIRE_TIMEOUT_S)
    except (ConfigurationError, ValueError) as error:
        raise Neo4jUnavailable(f"NEO4J_URI {settings.uri!r} is not a Neo4j URI: {error}") from error
    try:
        driver.verify_connectivity()
        driver.execute_query("RETURN 1", database_=settings.database)
    except (ServiceUnavailable, ValueError) as error:  # ValueError: a host that does not resolve
        driver.close()
        raise Neo4jUnavailable(
            f"Neo4j is not reachable {where}: {driver_reason(error)}. Start it with `gamegraph neo4j start`, "
            f"or point NEO4J_URI at a running server."
        ) from error
    except AuthError as error:
        driver.close()
        raise Neo4jUnavailable(
            f"Neo4j refused the credentials {where}: {error.message.rstrip('.')}. The password comes from "
            f"NEO4J_PASSWORD, else {password_file()}, and must be the server's."
        ) from error
    except Neo4jError as error:
        driver.close()
        if error.code == "Neo.ClientError.Database.DatabaseNotFound":
            raise Neo4jUnavailable(
                f"Neo4j has no database {settings.database!r} {where}: set NEO4J_DATABASE to an "
                f"existing one (Community Edition has only 'neo4j')."
            ) from error
        raise Neo4jUnavailable(f"Neo4j cannot serve queries {where}: {_one_line(error.message)}") from error
    return driver


def driver_reason(error: object) -> str:
    """A driver error as a short phrase: the OS's reason when there is one ("Connection refused"),
    else the message on one line, cut at 160 characters."""
    text = _one_line(error)
    found = re.search(r"\[Errno -?\d+\] ([^)\]]+)", text)
    if found:
        return found[1].strip()
    return text if len(text) <= 160 else text[:157] + "..."


def _one_line(error: object) -> str:
    """The driver's messages can span lines; the CLI promises one."""
    return " ".join(str(error).split())
