"""Where gamegraph keeps its state, and how it reaches Neo4j.

Every Neo4j setting comes from the same environment variables (NEO4J_URI,
NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE) whether the server is the embedded
one (`gamegraph neo4j start`), docker-compose's, or one run elsewhere, so a
deployment changes variables, never code. Without NEO4J_PASSWORD the password
is a random one kept in an owner-only file next to the embedded server's data.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

import neo4j
from neo4j.exceptions import AuthError, ConfigurationError, Neo4jError, ServiceUnavailable

from explorer.errors import Neo4jUnavailable
from explorer.private import ensure_private_dir
from explorer.settings import state_dir

DEFAULT_URI = "bolt://127.0.0.1:7687"
MIN_PASSWORD_LENGTH = 8  # Neo4j's own default minimum (dbms.security.auth_minimum_password_length)


def neo4j_dir() -> Path:
    """The embedded server's folder: its data, logs, jars list and generated password."""
    return state_dir() / "neo4j"


def password_file() -> Path:
    return neo4j_dir() / "password"


def neo4j_uri() -> str:
    return os.environ.get("NEO4J_URI") or DEFAULT_URI


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
        try:
            password = path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            raise Neo4jUnavailable(
                f"no Neo4j password: set NEO4J_PASSWORD, or run `gamegraph neo4j start` "
                f"once to generate one in {path}"
            ) from None
        source = str(path)
    if len(password) < MIN_PASSWORD_LENGTH:
        raise Neo4jUnavailable(
            f"the Neo4j password from {source} has {len(password)} characters; "
            f"Neo4j needs at least {MIN_PASSWORD_LENGTH}"
        )
    return password


def _create_password_file(path: Path) -> None:
    """Writes a random password readable by the owner alone (folder 0700, file 0600).

    O_EXCL makes concurrent first starts agree on one password instead of each
    writing its own."""
    ensure_private_dir(state_dir())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.parent.chmod(0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(secrets.token_urlsafe(24) + "\n")


def open_driver(settings: Neo4jSettings) -> neo4j.Driver:
    """A driver already proven to reach settings.database with settings' credentials.

    Connecting eagerly turns the three usual set-up mistakes (server down, wrong
    password, wrong database) into one Neo4jUnavailable that names what was tried,
    instead of a driver error deep inside the first query."""
    where = f"(URI {settings.uri}, user {settings.user!r}, database {settings.database!r})"
    try:
        driver = neo4j.GraphDatabase.driver(settings.uri, auth=(settings.user, settings.password))
    except (ConfigurationError, ValueError) as error:
        raise Neo4jUnavailable(f"NEO4J_URI {settings.uri!r} is not a Neo4j URI: {error}") from error
    try:
        driver.verify_connectivity()
        driver.execute_query("RETURN 1", database_=settings.database)
    except (ServiceUnavailable, ValueError) as error:  # ValueError: a host that does not resolve
        driver.close()
        raise Neo4jUnavailable(
            f"Neo4j is not reachable {where}: {_one_line(error)}. Start it with `gamegraph neo4j start`, "
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


def _one_line(error: object) -> str:
    """The driver's messages can span lines; the CLI promises one."""
    return " ".join(str(error).split())
