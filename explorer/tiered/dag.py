"""The tier DAG on Dask.distributed: the cluster (an existing scheduler or a local one), one task per tier
or per chunk submitted children first, and the client's progress bars (docs/distributed.md)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from explorer.core import private, progress
from explorer.core.errors import GameGraphError
from explorer.games.base import Game, Tiers
from explorer.tiered.tiers import _is_loop_free
from explorer.tiered.worker import (_quiet_task, _solve_tier_task, _warm_up, forward_ranges, merge_forward_chunks,
                                    solve_forward_chunk)

SCHEDULER_VARIABLE = "DASK_SCHEDULER_ADDRESS"
PROGRESS_TOPIC = "gamegraph-tier-progress"


def scheduler_address(scheduler: str | None) -> str | None:
    """The cluster to use: the given address, else DASK_SCHEDULER_ADDRESS, else None (a local cluster).
    An address Dask cannot parse (an unknown scheme, no port, a port out of range) is an InvalidParameter
    naming it and where it came from, checked by `solve` before anything else, also when every tier is
    written already and no scheduler would be asked."""
    address = scheduler or os.environ.get(SCHEDULER_VARIABLE) or None
    if address is None:
        return None
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    from explorer.core.errors import InvalidParameter, shown

    source = "--scheduler" if scheduler else SCHEDULER_VARIABLE
    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme != "inproc" and not 0 < parse_host_port(location)[1] < 65536:
            raise ValueError("its port is not one of 1-65535")
    except (ValueError, TypeError) as error:
        raise InvalidParameter(f"{source} {shown(address)} is not a Dask scheduler address ({error}); "
                               "give one like tcp://10.0.0.5:8786") from None
    return address


CONNECT_SECONDS = 20  # the longest wait for an existing scheduler to answer


def _connect(address: str):
    """A Client on the scheduler at `address`, or a GameGraphError in one line within CONNECT_SECONDS:
    also when something else listens there (a web server that never answers Dask's handshake, which
    Client's own timeout does not cover, or one whose bytes Dask reads as a huge message length)."""
    import threading

    from distributed import Client

    outcome: dict[str, Any] = {}

    def attempt() -> None:
        try:
            # Half the deadline (10 s): a refused connection is retried until then and reported as such.
            outcome["client"] = Client(address, timeout=f"{CONNECT_SECONDS / 2:g}s")
        except BaseException as error:  # noqa: BLE001 - reported below, in one line
            outcome["error"] = error

    thread = threading.Thread(target=attempt, name="dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS)
    if "client" in outcome:
        return outcome["client"]
    error = outcome.get("error")
    if error is None:
        why = f"no answer within {CONNECT_SECONDS} s"
    elif isinstance(error, MemoryError):
        why = "its answer is not Dask's"
    else:
        why = f"{type(error).__name__}: {error}"
    raise GameGraphError(f"cannot reach the Dask scheduler at {address} ({why}); is a Dask scheduler "
                         "listening there? (docs/distributed.md)")


WORKERS_PER_CORE = 4  # a local cluster beyond this many processes a core only takes turns (and memory)


def max_local_workers() -> int:
    """The most worker processes a local cluster may start here: WORKERS_PER_CORE per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_local_workers(workers: int | None) -> None:
    """Refuse, before any work, a local cluster of more processes than `max_local_workers` (InvalidParameter)."""
    from explorer.core.errors import InvalidParameter

    if workers is not None and workers > max_local_workers():
        raise InvalidParameter(
            f"--workers {workers:,}: a local cluster of more than {max_local_workers()} worker processes "
            f"({WORKERS_PER_CORE} per core of this machine's {os.cpu_count() or 1}) only takes turns on its cores; "
            "for more, start workers on other machines and pass --scheduler (docs/distributed.md)")


def _client(scheduler: str | None, workers: int | None, processes: bool = True):
    """A distributed.Client: on the scheduler at `scheduler`, or on a new LocalCluster of `workers`
    processes (default: this machine's cores), one thread each, since the kernel uses its cores
    through numba only in its short parallel passes. A GameGraphError when the address answers not."""
    import dask
    from distributed import Client, LocalCluster

    address = scheduler_address(scheduler)
    if address:
        return _connect(address)
    count = workers or os.cpu_count() or 1
    try:
        # Loopback only, the dashboard too (on a free port): nothing listens beyond this machine.
        where = {"host": "127.0.0.1", "worker_dashboard_address": "127.0.0.1:0"} if processes else {}  # else in-process
        # The scratch space in the state folder, not Dask's default /tmp/dask-scratch-space: the workers' (local_directory)
        # and the scheduler's and nanny's lock files (temporary-directory, which they read as they start).
        scratch = private.ensure_private_dir(private.private_state_dir() / "dask")
        with dask.config.set({"temporary-directory": str(scratch)}):
            cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=processes,
                                   dashboard_address="127.0.0.1:0", silence_logs=50, local_directory=str(scratch),
                                   **where)
        return Client(cluster)
    except (OSError, TimeoutError, RuntimeError) as error:
        raise GameGraphError(f"cannot start a local Dask cluster of {count} worker(s): {error}") from None



def _run_dag(game: Game, tiers: Tiers, todo: list[int], folder: Path, scheduler, workers, processes, client,
             forward_chunk: int | None = None) -> None:
    """Submit the tasks of every tier to solve, each depending on its children's, and wait for all: one
    task per tier, or for a loop-free tier one per chunk (forward_ranges; `forward_chunk` forces the
    chunk size) and a merge. Shows a bar over the positions of the finished tiers and a bar per tier
    that runs (`_DagProgress`)."""
    own = client is None
    if own:
        client = _client(scheduler, workers, processes)
    shown = None
    try:
        from importlib.util import find_spec

        addresses = sorted(client.scheduler_info().get("workers", {}))
        workers_now = len(addresses)
        stamp = f"{game.name}-{os.getpid()}-{time.time_ns()}"
        # Bars on or off asked before a task can run (in-process); the run's own topic for its loopy tiers' progress.
        shown = _DagProgress(game, tiers, todo, client, progress.enabled(), f"{PROGRESS_TOPIC}-{stamp}")
        if shown.enabled:
            # Dask serves its dashboard only with bokeh (installed with gamegraph: dask[diagnostics]).
            dashboard = f"dashboard {client.dashboard_link}" if find_spec("bokeh") else "no dashboard (bokeh is missing)"
            progress.notice(f"solving {len(todo)} tier(s) of {game.display_name} on Dask: {workers_now} worker(s)"
                            f" at {client.scheduler.address}, {dashboard}")
        # Every worker loads the game's compiled kernels at once, beside the first tier (seconds each, more
        # on a loaded machine), rather than at its first chunk while the others wait for it to finish.
        warm = [client.submit(_quiet_task, _warm_up, game.id, workers=[w], allow_other_workers=True, pure=False,
                              key=f"warm-up-{w}-{stamp}") for w in addresses]
        done_of: dict[int, Any] = {}  # the future whose end means the tier's file is written
        tier_of_key: dict[str, int] = {}
        submitted: list[Any] = []
        for t in todo:  # children first: their futures exist when a parent is submitted
            needs = [done_of[c] for c in tiers.children[t] if c in done_of]
            size = tiers.offsets[t + 1] - tiers.offsets[t]
            ranges = forward_ranges(size, workers_now, forward_chunk) if _is_loop_free(tiers, t) else [(0, size)]
            if len(ranges) > 1:
                # Chunk k goes to worker k mod W (a loose restriction: another one if that one is gone): else
                # Dask puts every chunk where the child's (tiny) result is, and only work stealing spreads them.
                parts = [client.submit(_quiet_task, solve_forward_chunk, game.id, t, a, b, str(folder), *needs,
                                       pure=False, key=f"tier-{t}-chunk-{a}-{stamp}",
                                       workers=[addresses[k % workers_now]] if addresses else None,
                                       allow_other_workers=True)
                         for k, (a, b) in enumerate(ranges)]
                done_of[t] = client.submit(_quiet_task, merge_forward_chunks, game.id, t, str(folder), ranges, *parts,
                                           pure=False, key=f"tier-{t}-merge-{stamp}")
                tier_of_key.update((part.key, t) for part in parts)
                submitted += parts
            else:
                done_of[t] = client.submit(_quiet_task, _solve_tier_task, game.id, t, str(folder), shown.topic,
                                           *needs, pure=False, key=f"tier-{t}-{stamp}")
            tier_of_key[done_of[t].key] = t
            submitted.append(done_of[t])
        shown.tier_of_key = tier_of_key
        with shown:
            for future in _as_finished(submitted, shown):
                try:
                    done = future.result()
                except GameGraphError:
                    raise
                except Exception as error:  # a worker died or a task failed: say which, never a traceback
                    raise GameGraphError(f"a tier of {game.display_name} failed on Dask: "
                                         f"{type(error).__name__}: {error}") from None
                shown.finished(done)
        del warm  # done by now, or not needed any more
    finally:
        if shown is not None:
            shown.unsubscribe()
        if own:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()



POLL_SECONDS = 0.25  # how often the client asks the scheduler which tasks run, while bars are shown


def _as_finished(futures: list[Any], shown: "_DagProgress"):
    """The futures as they finish (distributed.as_completed); while bars are shown, the scheduler is asked
    every POLL_SECONDS which tiers run in between, so that a tier's bar appears when it starts."""
    from distributed import as_completed

    finished = as_completed(futures)
    if not shown.enabled:
        yield from finished
        return
    while not finished.is_empty():
        batch = finished.next_batch(block=False)
        if batch:
            yield from batch
        else:
            shown.poll()
            time.sleep(POLL_SECONDS)


class _DagProgress:
    """The client's bars (explorer.core.progress): one over the positions of the finished tiers, and one
    per running tier (its name, its positions done as its chunks finish, or as a loopy tier's queue is
    worked: the events its worker logs on `topic`, `_worker_report`), gone when the tier is written.
    A tier runs when the scheduler says one of its tasks is processing (Client.processing), or when one
    of its chunks has finished. Nothing is shown, the scheduler not asked and no topic followed, when
    bars are off. Events reach the client from workers anywhere (a cluster elsewhere too)."""

    def __init__(self, game: Game, tiers: Tiers, todo: list[int], client, enabled: bool, topic: str | None = None):
        self.game, self.tiers, self.client, self.enabled = game, tiers, client, enabled
        self.tier_of_key: dict[str, int] = {}  # a task's key -> its tier, filled as tasks are submitted
        self.worked: dict[int, int] = {}  # a loopy tier -> its positions worked, as its worker last said
        self.written_tiers: set[int] = set()  # a late event must not open their bars again
        self.topic = topic if enabled else None
        if self.topic:  # before any task is submitted: an event logged before the subscription is lost
            client.subscribe_topic(self.topic, self._progressed)
        self.total = sum(tiers.offsets[t + 1] - tiers.offsets[t] for t in todo)
        self.count = len(todo)
        self.written = 0
        self.bars: dict[int, tuple[Any, Any]] = {}  # tier -> (context manager, bar)
        self.chunk_seconds: dict[int, float] = {}  # tier -> seconds its finished chunks took

    def __enter__(self) -> "_DagProgress":
        self.overall_context = progress.bar(f"{self.game.display_name}: 0 of {self.count} tier(s)", total=self.total)
        self.overall = self.overall_context.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        for tier in list(self.bars):
            self._close(tier)
        self.overall_context.__exit__(*exc)

    def _bar(self, tier: int):
        if tier not in self.bars:
            lo, hi = self.tiers.offsets[tier], self.tiers.offsets[tier + 1]
            context = progress.bar(f"tier {tier} ({self.tiers.names[tier]})", total=hi - lo)
            self.bars[tier] = (context, context.__enter__())
        return self.bars[tier][1]

    def _close(self, tier: int) -> None:
        context, _ = self.bars.pop(tier)
        context.__exit__(None, None, None)

    def _progressed(self, event) -> None:
        """A worker's event (timestamp, {"tier", "worked"}), in the client's event loop thread: only kept
        here (one dict item set), shown by the next `poll` in the thread that owns the bars."""
        _, message = event
        tier, worked = int(message["tier"]), int(message["worked"])
        self.worked[tier] = max(worked, self.worked.get(tier, 0))

    def unsubscribe(self) -> None:
        """Stop following the run's topic (the client may live on: one given to `solve`)."""
        if self.topic:
            topic, self.topic = self.topic, None
            try:
                self.client.unsubscribe_topic(topic)
            except Exception:  # noqa: BLE001 - a closed client has no subscription left anyway
                pass

    def poll(self) -> None:
        """Open a bar for each tier the scheduler runs now, move a loopy tier's bar to its positions worked;
        let every bar show the time gone by."""
        try:
            running = {self.tier_of_key[key] for keys in self.client.processing().values() for key in keys
                       if key in self.tier_of_key}
        except Exception:  # noqa: BLE001 - only the bars depend on it; a failed task is reported by its future
            running = set()
        for tier in sorted(running):
            self._bar(tier)
        for tier, worked in list(self.worked.items()):
            if tier not in self.written_tiers:
                bar = self._bar(tier)
                if worked > bar.n:
                    bar.update(worked - bar.n)
        for _, bar in self.bars.values():
            bar.update(0)
        self.overall.update(0)

    def finished(self, done: dict[str, Any]) -> None:
        """A chunk advances its tier's bar; a written tier closes its bar and advances the overall one."""
        tier = done["tier"]
        if "chunk" in done:
            self.chunk_seconds[tier] = self.chunk_seconds.get(tier, 0.0) + done["seconds"]
            if self.enabled:
                self._bar(tier).update(done["positions"])
            return
        self.written_tiers.add(tier)
        if tier in self.bars:
            self._close(tier)
        self.written += 1
        self.overall.update(done["positions"])
        self.overall.set_description_str(f"{self.game.display_name}: {self.written} of {self.count} tier(s)")
        seconds = done["seconds"] + self.chunk_seconds.pop(tier, 0.0)  # a chunked tier: its chunks' and merge's
        self.overall.set_postfix_str(f"tier {tier} ({done['name']}) in {seconds:.3g} s")
