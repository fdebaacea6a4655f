"""The page's builds of solved graphs: shared, cancellable, and inside a memory budget.

One `Registry` per server process (`registry()`) keeps, per graph id, the
build in flight or its finished result, so:

- two visitors who ask for the same game share one build (the second joins it);
- a request whose size estimate (explorer.core.limits) exceeds the page's position
  limit or memory budget is refused at once, with the estimate, before any
  work starts; the budget also counts the builds in flight and the graphs held;
- a build nobody waits for any more (the browser tab was closed, the visitor
  chose another game) is cancelled after a short grace period. Big builds run
  in a child process (`python -m explorer.ui.buildworker`) that is killed, so
  their memory returns to the machine at once; the child writes the solved
  graph to the state folder's cache and the server reopens it from there.
  Small ones (under IN_PROCESS_POSITIONS by estimate: well under a second)
  run in a thread: starting a child would cost more than the build.

Nothing here imports Streamlit: tests drive the registry directly.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from explorer.core import limits, settings
from explorer.core.errors import GameGraphError, GraphTooLarge
from explorer.core.settings import UI_MAX_POSITIONS_ENV, UI_MEMORY_ENV
from explorer.games import Game

DEFAULT_UI_MEMORY = 4 * 2 ** 30     # a sixth of a 24 GB machine that Neo4j and other visitors share
IN_PROCESS_POSITIONS = 50_000       # estimated positions below which a build runs in a thread
GRACE_SECONDS = 1.0                 # a rerun of the same page re-joins its build within this
KEEP_FINISHED = 16                  # finished graphs kept for the next visitor (least recently used go first)
CHILD_ADDRESS_SPACE_SLACK = 2 * 2 ** 30  # interpreter, libraries and thread stacks on top of the budget
_ROOT = str(Path(__file__).resolve().parents[2])


def ui_budget() -> int:
    """The page's memory budget in bytes: GAMEGRAPH_UI_MEMORY (4G, 512M, …), else 4 GiB or a quarter of the RAM if less."""
    configured = settings.ui_memory()
    if configured is not None:
        return configured
    total = limits.total_memory()
    return min(DEFAULT_UI_MEMORY, total // 4) if total else DEFAULT_UI_MEMORY


def held_bytes(solved) -> int:
    """Memory a finished SolvedGraph holds: its arrays, and about 200 bytes per Python position object."""
    g, s = solved.graph, solved.solution
    arrays = (g.succ_indptr, g.succ_indices, g.edge_label, g.terminal, g.to_move, g.codes,
              s.value, s.remoteness, s.optimal, solved.scc, solved.on_cycle)
    return sum(a.nbytes for a in arrays if a is not None) + (200 * len(g.positions) if g.positions else 0)


@dataclass(eq=False)
class Build:
    """One graph being built (or built): who waits for it, and how it ended."""

    graph_id: str
    game: Game
    symmetry: bool
    estimate: limits.Estimate | None
    waiters: int = 0
    result: object = None                       # the SolvedGraph once done
    error: BaseException | None = None          # a GameGraphError (refused, failed) or BuildCancelled
    cancelled: bool = False
    process: subprocess.Popen | None = None     # the child, for builds run in one
    done: threading.Event = field(default_factory=threading.Event)
    started: float = field(default_factory=time.monotonic)

    @property
    def reserved(self) -> int:
        """Bytes counted against the budget: the estimate while building, then what the result holds."""
        if self.result is not None:
            return held_bytes(self.result)
        return self.estimate.bytes if self.estimate else 0

    def wait(self, timeout: float | None = None) -> bool:
        """True once the build has ended (result or error)."""
        return self.done.wait(timeout)

    def outcome(self):
        """The SolvedGraph, or the error the build ended with."""
        if self.error is not None:
            raise self.error
        return self.result


class BuildCancelled(GameGraphError):
    """The build was stopped because nobody waited for it any more."""


class Registry:
    """Builds keyed by graph id, shared by every session of the process. Thread-safe."""

    def __init__(self, budget: int | None = None, max_positions: int | None = None,
                 grace: float = GRACE_SECONDS, keep: int = KEEP_FINISHED,
                 in_process_positions: int = IN_PROCESS_POSITIONS,
                 load: Callable | None = None):
        self._budget = budget
        self._max_positions = max_positions
        self.grace = grace
        self.keep = keep
        self.in_process_positions = in_process_positions
        self._load = load            # (game, symmetry, max_positions) -> SolvedGraph; default load_or_build
        self._lock = threading.Lock()
        self._builds: OrderedDict[str, Build] = OrderedDict()
        self.started_builds = 0      # how many builds this registry started (tests count sharing with it)

    @property
    def budget(self) -> int:
        return self._budget if self._budget is not None else ui_budget()

    @property
    def max_positions(self) -> int:
        return self._max_positions if self._max_positions is not None else settings.ui_max_positions()

    # -- requests ------------------------------------------------------------------
    def request(self, game: Game, symmetry: bool = True) -> Build:
        """The build of `game`: the finished or running one when there is one, else a new one.

        The caller waits on it and must `release` it when it stops waiting.
        GraphTooLarge at once when the estimate exceeds the position limit or
        what the memory budget has left.
        """
        from explorer.graph import graph_id
        from explorer.solved import cache_path

        symmetry = symmetry and game.has_symmetry()
        key = graph_id(game, symmetry)
        with self._lock:
            existing = self._builds.get(key)
            if existing is not None and not (existing.done.is_set() and existing.error is not None):
                existing.waiters += 1
                self._builds.move_to_end(key)
                return existing
            cached = cache_path(game, symmetry).exists()
            estimate = None if cached else self._check(game, symmetry)
            build = Build(key, game, symmetry, estimate, waiters=1)
            self._builds[key] = build
            self.started_builds += 1
        in_child = not cached and (estimate is None or estimate.positions > self.in_process_positions)
        threading.Thread(target=self._run, args=(build, in_child), name=f"build {key}", daemon=True).start()
        return build

    def _check(self, game: Game, symmetry: bool) -> limits.Estimate | None:
        """Refuse from the estimate (under the lock): over the limit, the budget, or what others leave of it."""
        from explorer.solved import advice

        remedy = advice(game, command="ui")  # the solve that makes a value file and how long it takes here
        hint = f"the most this page builds ({UI_MAX_POSITIONS_ENV} sets it); {remedy}"
        estimate = limits.check(game, symmetry, self.max_positions, budget=self.budget, hint=hint,
                                budget_name=UI_MEMORY_ENV)
        if estimate is None:
            return None
        self._evict(self.budget - estimate.bytes)
        in_use = sum(b.reserved for b in self._builds.values())
        if in_use + estimate.bytes > self.budget:
            raise GraphTooLarge(
                f"{game.display_name} would have {estimate.describe()}, and the page's other games use "
                f"{limits.human_bytes(in_use)} of its {limits.human_bytes(self.budget)} memory budget "
                f"({UI_MEMORY_ENV}); try again when their builds end, or {remedy}")
        return estimate

    def _evict(self, room: int) -> None:
        """Forget finished graphs nobody waits for, oldest first, until at most `room` bytes are reserved
        (and at most `keep` are kept). A session still showing one keeps its own reference."""
        for key in list(self._builds):
            build = self._builds[key]
            finished = [b for b in self._builds.values() if b.done.is_set()]
            over = sum(b.reserved for b in self._builds.values()) > room or len(finished) > self.keep
            if not over:
                break
            if build.done.is_set() and build.waiters == 0:
                del self._builds[key]

    def release(self, build: Build) -> None:
        """The caller stopped waiting. A running build nobody waits for is cancelled after the grace period."""
        with self._lock:
            build.waiters = max(0, build.waiters - 1)
            idle = build.waiters == 0 and not build.done.is_set()
        if idle:
            timer = threading.Timer(self.grace, self._cancel_if_idle, args=(build,))
            timer.daemon = True
            timer.start()

    def _cancel_if_idle(self, build: Build) -> None:
        with self._lock:
            if build.waiters or build.done.is_set():
                return
            build.cancelled = True
            if self._builds.get(build.graph_id) is build:
                del self._builds[build.graph_id]
        self._stop(build)

    def cancel(self, build: Build) -> None:
        """Stop a build now, whoever waits (they get BuildCancelled)."""
        with self._lock:
            build.cancelled = True
            if self._builds.get(build.graph_id) is build:
                del self._builds[build.graph_id]
        self._stop(build)

    def _stop(self, build: Build) -> None:
        process = build.process
        if process is not None and process.poll() is None:
            process.kill()   # our own child, by its handle
        # A build in a thread is small (IN_PROCESS_POSITIONS) and ends by itself; its result is dropped.

    def running(self) -> list[Build]:
        with self._lock:
            return [b for b in self._builds.values() if not b.done.is_set()]

    # -- the work --------------------------------------------------------------------
    def _run(self, build: Build, in_child: bool) -> None:
        try:
            if in_child:
                self._run_child(build)
            if build.cancelled:
                raise BuildCancelled(f"the build of {build.game.display_name} was cancelled: nobody waits for it")
            build.result = self._open(build)
        except BaseException as exc:  # every failure reaches the waiters as the build's error
            build.error = exc if isinstance(exc, GameGraphError) else GameGraphError(
                f"building {build.game.display_name} failed: {type(exc).__name__}: {exc}")
            with self._lock:
                if self._builds.get(build.graph_id) is build:
                    del self._builds[build.graph_id]   # a failed build is not kept: the next request retries
        finally:
            build.done.set()

    def _open(self, build: Build):
        if self._load is not None:
            return self._load(build.game, build.symmetry, self.max_positions)
        from explorer.solved import load_or_build
        return load_or_build(build.game, symmetry=build.symmetry, max_positions=self.max_positions)

    def _run_child(self, build: Build) -> None:
        """Build in a child process that writes the cache; killed by `_stop` when cancelled."""
        env = dict(os.environ, **{settings.PROGRESS_ENV: "0", settings.MEMORY_ENV: str(self.budget)})
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_ROOT, env.get("PYTHONPATH")]))
        command = [sys.executable, "-m", "explorer.ui.buildworker", build.graph_id, str(self.max_positions),
                   str(self.budget + CHILD_ADDRESS_SPACE_SLACK)]
        with self._lock:
            if build.cancelled:
                return
            build.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                             stderr=subprocess.PIPE, text=True, errors="replace")
        _, errors = build.process.communicate()
        if build.cancelled:
            _remove_partial_files(build.process.pid)
            return
        if build.process.returncode != 0:
            lines = [line for line in errors.strip().splitlines() if line.strip()]
            why = lines[-1] if lines else f"the build process ended with status {build.process.returncode}"
            if build.process.returncode < 0:
                why = (f"the build process was killed (signal {-build.process.returncode}), "
                       "most likely for lack of memory")
            raise GameGraphError(why.removeprefix("gamegraph: error: "))


def _remove_partial_files(pid: int) -> None:
    """A killed child may leave its temporary cache file (named after its pid)."""
    from explorer.core import files, private
    from explorer.solved import CACHE_KIND
    for partial in files.partial_paths(private.state_path(CACHE_KIND), pid):
        partial.unlink(missing_ok=True)


_registry: Registry | None = None
_registry_lock = threading.Lock()


def registry() -> Registry:
    """The process-wide registry (created on first use)."""
    global _registry
    with _registry_lock:
        if _registry is None:
            _registry = Registry()
        return _registry
