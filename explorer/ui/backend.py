"""Which graph backend answers the page's queries: Neo4j when configured and answering, else networkx.

The probe runs in a worker thread with a deadline and its result is shared by
every session: a working driver is kept (it reconnects by itself), a failed
probe is retried after PROBE_TTL seconds, so a Neo4j that is down costs the
page a few seconds now and then, not on every click. When Neo4j stops answering
in the middle of a page (the driver fails fast: short connection timeouts, no
long retries), the queries hand over to the networkx mirror with one warning
line, and the next run probes again, so the page is back on Neo4j by itself
once the server is. Neo4j is only used for a game it holds
completely (a finished load); otherwise the page says so and uses the mirror. Whether Neo4j holds
a game is asked once per graph id and connection, then trusted for NEO4J_GAME_TTL seconds.
"""

from __future__ import annotations

import concurrent.futures
import time
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from explorer.core.errors import GameGraphError, Neo4jUnavailable
from explorer.graph import parse_graph_id, parse_part_id
from explorer.core.limits import human_bytes
from explorer.core.settings import ui_mirror_max_positions
from explorer.solved import SolvedGraph
from explorer.ui import builds
from explorer.ui.widgets import WARNING_ICON
from loaders import settings as neo4j_settings
from loaders.mirror import mirror_for, to_networkx
from queries import api
from queries.arrays_backend import POSITION_QUERIES

PROBE_TTL = 30          # seconds a probe result is trusted
NEO4J_GAME_TTL = 30     # seconds the answer to "does Neo4j hold this game?" is trusted
PROBE_DEADLINE = 3.0    # seconds a probe may take before Neo4j counts as not answering
MIRROR_BYTES_PER_ITEM = 400  # networkx: measured about 300 bytes held, 400 at peak, per position and per move


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
    neo4j_reason: str = ""    # why Neo4j is not in use (empty when it is)
    queries: Any = None       # the queries.api backend object; None when the solved arrays answer


def _open() -> Connection:
    if neo4j_settings.neo4j_switched_off():  # `gamegraph up --no-neo4j`: no probe, no password asked
        return Connection(reason=f"switched off (gamegraph up --no-neo4j; {neo4j_settings.NO_NEO4J_ENV}=1)")
    try:
        settings = neo4j_settings.Neo4jSettings.from_env()
    except GameGraphError as exc:
        return Connection(reason=f"no Neo4j configured: {exc}")
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = pool.submit(neo4j_settings.open_driver, settings)
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
    """Probe again on the next run (the 'check again' button); the old driver is closed and
    what Neo4j was found to hold is asked again."""
    connection.clear()
    _neo4j_queries.clear()


@st.cache_resource(show_spinner="Building the networkx mirror of this game…", max_entries=8)
def _mirror(graph_id: str, _solved: SolvedGraph | None = None) -> tuple[Any, Any]:
    """The networkx mirror and its query backend, built once per game per process
    (from `_solved` when the caller holds the solved graph, so the cache is not read again).

    A part's id (explorer.graph.part_graph_id: a Neo4j-loaded part handing over to the mirror) gives the
    mirror of that part, made from `_solved` when it is that part; it is never made through the whole
    game's mirror cache (mirror_for), which would solve the whole game (too big: that is why it has a
    value file) or file the part under the whole game's name. Without the part: one GameGraphError line.
    A `_solved` of another graph than `graph_id`: one line too, rather than a mirror filed under the wrong id."""
    part = parse_part_id(graph_id)  # a malformed part id: its own one line
    if _solved is not None and _solved.graph.graph_id != graph_id:
        raise GameGraphError(f"the networkx mirror of {graph_id[:200]!r} was asked for with the solved graph of "
                             f"{_solved.graph.graph_id[:200]!r}: a page run mixed two games; reload the page")
    if part is not None:
        if _solved is None:
            raise GameGraphError(f"{graph_id[:200]!r} is a part of {part.game.display_name}, and its networkx mirror "
                                 "is made from the part, which this page does not hold: open the position "
                                 f"{part.centre} of {part.game.display_name} to draw the part around it")
        G = to_networkx(_solved)
        return G, api.NetworkxBackend(G)
    game, symmetric = parse_graph_id(graph_id)
    G = mirror_for(game, symmetry=symmetric, solved=_solved)
    return G, api.NetworkxBackend(G)


@st.cache_resource(show_spinner=False, ttl=NEO4J_GAME_TTL, max_entries=32)
def _neo4j_queries(graph_id: str, probed: float, _conn: Connection) -> tuple[Any, str]:
    """(the query backend on Neo4j, "") when Neo4j holds this game, else (None, why not).

    Kept per graph id and connection (`probed` tells connections apart) for
    NEO4J_GAME_TTL seconds, so a click does not cost a Bolt round trip.
    """
    try:
        return api.Neo4jBackend(_conn.driver, _conn.database, graph_id), ""
    except Neo4jUnavailable as exc:
        connection.clear()  # it stopped answering: the next run probes again (a new `probed`), with the deadline
        return None, str(exc)
    except GameGraphError as exc:
        return None, str(exc)
    except Exception as exc:  # a driver fault: reported, the mirror takes over
        return None, f"Neo4j could not be asked about the game: {exc}"


class FallbackQueries:
    """Neo4j's query backend that hands over to the networkx mirror the moment Neo4j stops answering.

    The hand-over shows one warning line, forgets the connection (the next run
    probes again) and answers the same question from the mirror, so a server
    that went away costs one failed connection attempt, not the page.
    """

    def __init__(self, neo4j_queries: Any, graph_id: str, uri: str, solved: SolvedGraph | None):
        self._neo4j, self._graph_id, self._uri, self._solved = neo4j_queries, graph_id, uri, solved
        self._active = neo4j_queries
        self.reason = ""

    def __getattr__(self, name: str) -> Any:  # kind, game, symmetry, game_id, start_key, ...
        return getattr(self._active, name)

    def position(self, key: str) -> dict[str, Any] | None:
        return self._call("position", key)

    def run(self, name: str, args: dict[str, Any]) -> dict[str, list[list[Any]]]:
        return self._call("run", name, args)

    def _call(self, method: str, *args: Any) -> Any:
        if self._active is self._neo4j:
            try:
                return getattr(self._neo4j, method)(*args)
            except Neo4jUnavailable as exc:
                self._hand_over(exc)
        return getattr(self._active, method)(*args)

    def _hand_over(self, exc: Neo4jUnavailable) -> None:
        forget()
        self.reason = f"{exc}"
        st.warning(f"Neo4j at {self._uri} stopped answering, so the networkx mirror answers instead; "
                   f"the page tries Neo4j again within {PROBE_TTL} s.", icon=WARNING_ICON)
        # Lazily, as choose() hands out the mirror: one that cannot be made is said in one line and the solved
        # arrays answer, rather than a second failure ending the page.
        self._active = LazyMirror(self._graph_id, self._solved)


def choose(graph_id: str, positions: int = 0, solved: SolvedGraph | None = None) -> Backend:
    """Neo4j if it answers and holds this game, else the networkx mirror (built on first use,
    from `solved` when given).

    Past ui_mirror_max_positions() positions the mirror (about a kilobyte of Python objects
    per position, minutes to build) is not made; the solved arrays answer instead.
    """
    conn = connection()
    reason = conn.reason
    if conn.driver is not None:
        queries, why = _neo4j_queries(graph_id, conn.probed, conn)
        if queries is not None:
            if positions <= ui_mirror_max_positions():  # a game with no mirror has nothing to hand over to
                queries = FallbackQueries(queries, graph_id, conn.uri, solved)
            return Backend("neo4j", f"Neo4j ({conn.uri}, database {conn.database!r})",
                           driver=conn.driver, database=conn.database, queries=queries, neo4j_reason="")
        reason = why
    if positions > ui_mirror_max_positions():
        return Backend("arrays", f"the solved arrays in memory (the networkx mirror is not built past "
                                 f"{ui_mirror_max_positions():,} positions)", neo4j_reason=reason)
    mirror_bytes = MIRROR_BYTES_PER_ITEM * (positions + (solved.graph.num_moves if solved is not None else 0))
    if mirror_bytes > builds.ui_budget():
        return Backend("arrays", f"the solved arrays in memory (the networkx mirror would take about "
                                 f"{human_bytes(mirror_bytes)}, over the page's memory budget)", neo4j_reason=reason)
    return Backend("networkx", "networkx mirror (in memory, built on the first question)", neo4j_reason=reason,
                   queries=LazyMirror(graph_id, solved))


class LazyMirror:
    """The networkx mirror's query backend, built on the first question over every position asked of it,
    not when the page chooses it. The questions about one position (queries.arrays_backend.POSITION_QUERIES:
    a neighbourhood, a line, the cycles through it, a path) and `position()` are answered from the solved
    arrays while the mirror is not built (`ArraysBackend`: the same rows in the same order,
    tests/core/test_records.py holds them equal), so a page that only looks at positions never pays for the
    mirror (Dodgem 4x4's cost 26 s of CPU, chopsticks(fingers=20)'s about 20 s); a question over every
    position (stats, components, ...) builds it, and once built it answers everything. Without the solved
    graph every question goes to the mirror. A mirror that cannot be made is said in one warning line, and
    the solved arrays answer instead, as when choose() refuses one (a question over every position is then
    refused in one line).

    `position()` from the arrays gives the fields the queries read (explorer.solved.SolvedGraph.record with
    full=False); the mirror's record adds the draw levels and the game's own fields."""

    IDENTITY = ("game", "symmetry", "game_id", "start_key")  # what the arrays' backend knows as the mirror's does

    def __init__(self, graph_id: str, solved: SolvedGraph | None):
        self._graph_id, self._solved, self._queries = graph_id, solved, None
        self._arrays: Any = None

    def __getattr__(self, name: str) -> Any:  # kind, game, symmetry, game_id, ...
        if name.startswith("__") or name.startswith("_"):  # copy/pickle probes, unset slots: not questions
            raise AttributeError(name)
        if name in self.IDENTITY and self._queries is None and self._solved is not None:
            return getattr(self.arrays(), name)
        return getattr(self.built(), name)

    def position(self, key: str) -> dict[str, Any] | None:
        return self._answering("position").position(key)

    def run(self, name: str, args: dict[str, Any]) -> Any:
        return self._answering(name).run(name, args)

    def _answering(self, name: str) -> Any:
        """The backend for question `name`: the mirror once built, else the solved arrays for a question
        about one position (or position()), else the mirror, made now."""
        if self._queries is None and self._solved is not None and (name == "position" or name in POSITION_QUERIES):
            return self.arrays()
        return self.built()

    def arrays(self) -> Any:
        """The solved arrays' query backend (made once per LazyMirror; O(1) until a question reads them)."""
        if self._arrays is None:
            if self._solved is None:
                raise GameGraphError("the solved arrays are not held here; ask the networkx mirror")
            if self._solved.graph.graph_id != self._graph_id:
                raise GameGraphError(f"the queries of {self._graph_id[:200]!r} were asked of the solved graph of "
                                     f"{self._solved.graph.graph_id[:200]!r}: a page run mixed two games; "
                                     "reload the page")
            self._arrays = api.ArraysBackend(self._solved)
        return self._arrays

    def built(self) -> Any:
        """The query backend: the mirror's (made now if not yet), or the solved arrays' if it fails."""
        if self._queries is None:
            try:
                self._queries = _mirror(self._graph_id, self._solved)[1]
            except GameGraphError as exc:
                if self._solved is None:
                    raise
                st.warning(f"The networkx mirror could not be made ({exc}); the solved arrays answer instead.",
                           icon=WARNING_ICON)
                self._queries = self.arrays()
        return self._queries
