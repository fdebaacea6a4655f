"""Which graph backend answers the page's queries: Neo4j when configured and answering, else networkx.

The probe runs in a worker thread with a deadline and its result is shared by
every session: a working driver is kept (it reconnects by itself), a failed
probe is retried after PROBE_TTL seconds, so a Neo4j that is down costs the
page a few seconds now and then, not on every click. Neo4j is only used for a game it holds
completely (a finished load); otherwise the page says so and uses the mirror.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import os
import time
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from explorer.errors import GameGraphError, Neo4jUnavailable

PROBE_TTL = 30          # seconds a probe result is trusted
PROBE_DEADLINE = 6.0    # seconds a probe may take before Neo4j counts as not answering
MIRROR_MAX_POSITIONS = 500_000


@dataclass
class Connection:
    """A reachable Neo4j (driver set) or why there is none (reason set)."""

    driver: Any = None
    database: str = "neo4j"
    uri: str = ""
    reason: str = ""
    probed: float = field(default_factory=time.monotonic)


@dataclass
class Backend:
    kind: str                 # "neo4j", "networkx", or "arrays" (a game too big for a mirror)
    description: str          # one line for the page
    driver: Any = None
    database: str = "neo4j"
    graph: Any = None         # the networkx mirror when kind == "networkx"
    neo4j_reason: str = ""    # why Neo4j is not in use (empty when it is)
    queries: Any = None       # the queries.api backend object, None without the query library


def _optional(module: str) -> Any:
    """A sibling feature module, or None when that part of gamegraph is not installed."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return None
        raise


def _open() -> Connection:
    settings_mod = _optional("loaders.settings")
    if settings_mod is None:
        return Connection(reason="the Neo4j loader (loaders.settings) is not installed")
    try:
        settings = settings_mod.Neo4jSettings.from_env()
    except GameGraphError as exc:
        return Connection(reason=f"no Neo4j configured: {exc}")
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = pool.submit(settings_mod.open_driver, settings)
    pool.shutdown(wait=False)
    try:
        driver = future.result(timeout=PROBE_DEADLINE)
    except concurrent.futures.TimeoutError:
        future.add_done_callback(lambda f: f.exception() is None and f.result().close())
        return Connection(uri=settings.uri, reason=f"Neo4j at {settings.uri} did not answer within {PROBE_DEADLINE:.0f} s")
    except GameGraphError as exc:
        return Connection(uri=settings.uri, reason=str(exc))
    except Exception as exc:  # a driver fault is an environment problem, shown as a reason, never a traceback
        return Connection(uri=settings.uri, reason=f"Neo4j at {settings.uri} failed: {exc}")
    return Connection(driver=driver, database=settings.database, uri=settings.uri)


def _still_good(conn: Connection) -> bool:
    """A driver is kept (it reconnects by itself); a failed probe is retried after PROBE_TTL seconds."""
    return conn.driver is not None or time.monotonic() - conn.probed < PROBE_TTL


def _release(conn: Connection) -> None:
    if conn.driver is not None:
        try:
            conn.driver.close()
        except Exception:  # closing a broken driver must not break the page
            pass


@st.cache_resource(show_spinner=False, validate=_still_good, on_release=_release)
def connection() -> Connection:
    return _open()


def forget() -> None:
    """Probe again on the next run (the 'check again' button); the old driver is closed."""
    connection.clear()


@st.cache_resource(show_spinner="Building the networkx mirror of this game…", max_entries=8)
def _mirror(graph_id: str) -> Any:
    """The networkx mirror and its query backend, built once per game per process."""
    mirror, api = _optional("loaders.mirror"), _optional("queries.api")
    if mirror is None:
        return None, None
    if api is None:
        from explorer.games import parse_spec  # noqa: PLC0415
        return mirror.mirror_for(parse_spec(graph_id.removesuffix("[nosym]"))), None
    from queries.common import game_of  # noqa: PLC0415 - present whenever queries.api is
    game, symmetric = game_of(graph_id)
    G = mirror.mirror_for(game, symmetry=symmetric)
    return G, api.NetworkxBackend(G)


def _neo4j_queries(conn: Connection, graph_id: str) -> tuple[Any, str]:
    """(the query backend on Neo4j, "") when Neo4j holds this game, else (None, why not)."""
    api = _optional("queries.api")
    if api is None:
        return None, "the query library (queries.api) is not installed"
    try:
        return api.Neo4jBackend(conn.driver, conn.database, graph_id), ""
    except Neo4jUnavailable as exc:
        forget()  # it stopped answering: the next run probes again, with the deadline
        return None, str(exc)
    except GameGraphError as exc:
        return None, str(exc)
    except Exception as exc:  # a driver fault: reported, the mirror takes over
        return None, f"Neo4j could not be asked about the game: {exc}"


def mirror_limit() -> int:
    try:
        return int(os.environ.get("GAMEGRAPH_UI_MIRROR_MAX_POSITIONS") or MIRROR_MAX_POSITIONS)
    except ValueError:
        return MIRROR_MAX_POSITIONS


def choose(graph_id: str, positions: int = 0) -> Backend:
    """Neo4j if it answers and holds this game, else the networkx mirror (built on first use).

    Past mirror_limit() positions the mirror (about a kilobyte of Python objects
    per position, minutes to build) is not made; the solved arrays answer instead.
    """
    conn = connection()
    reason = conn.reason
    if conn.driver is not None:
        queries, why = _neo4j_queries(conn, graph_id)
        if queries is not None:
            return Backend("neo4j", f"Neo4j ({conn.uri}, database {conn.database!r})",
                           driver=conn.driver, database=conn.database, queries=queries, neo4j_reason="")
        reason = why
    if positions > mirror_limit():
        return Backend("arrays", f"the solved arrays in memory (the networkx mirror is not built past "
                                 f"{mirror_limit():,} positions)", neo4j_reason=reason)
    graph, queries = _mirror(graph_id)
    description = "networkx mirror (in memory)" if graph is not None else "the solved arrays in memory"
    return Backend("networkx", description, graph=graph, neo4j_reason=reason, queries=queries)
