"""The page's build registry (explorer/ui/builds.py): shared builds, cancellation, the memory budget.

Driven directly, without Streamlit: real builds (in a thread and in a child
process), real cancellation (the child is killed), real refusals.
"""

from __future__ import annotations

import threading
import time

import pytest

from explorer.core import limits, settings
from explorer.core.errors import GameGraphError, GraphTooLarge
from explorer.games import parse_spec
from explorer.solved import build as build_solved
from explorer.solved import cache_path
from explorer.ui import builds

# Estimated at about 430,000 positions: built in a child process, and slow enough (several seconds) to cancel.
SLOW = "chopsticks(fingers=30)"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    for name in ("GAMEGRAPH_UI_MEMORY", "GAMEGRAPH_UI_MAX_POSITIONS", "GAMEGRAPH_MEMORY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "home"


def test_two_concurrent_requests_share_one_build():
    calls = []
    gate = threading.Event()

    def load(game, symmetry, max_positions):
        calls.append(game.id)
        gate.wait(10)
        return build_solved(game, symmetry=symmetry)

    registry = builds.Registry(budget=2 ** 30, load=load)
    game = parse_spec("chopsticks:standard")
    results = []

    def visitor():
        ticket = registry.request(game)
        try:
            results.append(ticket.wait(30) and ticket.outcome())
        finally:
            registry.release(ticket)

    visitors = [threading.Thread(target=visitor) for _ in range(2)]
    for v in visitors:
        v.start()
    time.sleep(0.3)
    gate.set()
    for v in visitors:
        v.join(30)
    assert calls == [game.id] and registry.started_builds == 1
    assert len(results) == 2 and results[0] is results[1]
    assert results[0].graph.num_positions == 342
    # a later visitor gets the finished graph, with no new build
    ticket = registry.request(game)
    assert ticket.wait(0) and ticket.outcome() is results[0] and registry.started_builds == 1
    registry.release(ticket)


def test_two_concurrent_requests_share_one_child_process(home):
    registry = builds.Registry(budget=4 * 2 ** 30, in_process_positions=0)
    game = parse_spec("chopsticks(fingers=12)")
    first, second = registry.request(game), registry.request(game)
    assert first is second and first.waiters == 2
    assert first.wait(120)
    solved = first.outcome()
    registry.release(first)
    registry.release(second)
    assert registry.started_builds == 1
    assert solved.graph.num_positions == build_solved(game).graph.num_positions
    assert cache_path(game, True).exists()   # the child wrote the cache, the server opened it


def test_a_build_nobody_waits_for_is_cancelled_promptly(home):
    registry = builds.Registry(budget=8 * 2 ** 30, grace=0.2)
    game = parse_spec(SLOW)
    ticket = registry.request(game)
    deadline = time.monotonic() + 30
    while ticket.process is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process = ticket.process
    assert process is not None and process.poll() is None, "the build should run in a child process"
    time.sleep(0.5)  # let it start working
    released = time.monotonic()
    registry.release(ticket)   # the session ended
    assert ticket.wait(10)
    stopped = time.monotonic() - released
    assert process.poll() is not None and process.returncode < 0  # killed, not finished
    assert stopped < 2.0, stopped
    assert ticket.cancelled and not registry.running()
    with pytest.raises(builds.BuildCancelled):
        ticket.outcome()
    assert not cache_path(game, True).exists()
    assert not list((home / "graphs").glob("*.partial*")) if (home / "graphs").exists() else True
    # a new request starts afresh
    again = registry.request(parse_spec("chopsticks:standard"))
    assert again.wait(60) and again.outcome().graph.num_positions == 342
    registry.release(again)


def test_a_rerun_within_the_grace_period_keeps_the_build(home):
    registry = builds.Registry(budget=8 * 2 ** 30, grace=1.0, in_process_positions=0)
    game = parse_spec("chopsticks(fingers=16)")
    ticket = registry.request(game)
    registry.release(ticket)            # the run stopped (a rerun) ...
    again = registry.request(game)      # ... and the rerun asks again at once
    assert again is ticket
    time.sleep(1.5)
    assert not ticket.cancelled
    assert again.wait(120) and again.outcome().graph.num_positions > 0
    registry.release(again)


def test_a_too_large_request_is_refused_at_once_with_the_estimate():
    def built(*args, **kwargs):
        raise AssertionError("a build was run: the refusal must come from the estimate first")

    registry = builds.Registry(budget=4 * 2 ** 30, max_positions=3_000_000, load=built)
    game = parse_spec("chopsticks(fingers=99)")
    with pytest.raises(GraphTooLarge) as refused:
        registry.request(game)
    assert f"{game.estimate_positions():,} positions" in str(refused.value)
    assert "limit of 3,000,000 positions" in str(refused.value) and "GAMEGRAPH_UI_MAX_POSITIONS" in str(refused.value)
    assert registry.started_builds == 0 and not registry.running()


def test_a_request_over_the_memory_budget_is_refused_with_the_estimate():
    game = parse_spec("chopsticks(fingers=20)")
    needed = limits.estimate(game).bytes
    registry = builds.Registry(budget=needed - 1)
    with pytest.raises(GraphTooLarge, match="GAMEGRAPH_UI_MEMORY") as refused:
        registry.request(game)
    assert limits.human_bytes(needed) in str(refused.value)
    assert registry.started_builds == 0


def test_builds_in_flight_count_against_the_budget(home):
    slow = parse_spec(SLOW)
    registry = builds.Registry(budget=limits.estimate(slow).bytes + 1000, grace=0.1)
    ticket = registry.request(slow)
    try:
        with pytest.raises(GraphTooLarge, match="other games use"):
            registry.request(parse_spec("chopsticks(fingers=20)"))
    finally:
        registry.cancel(ticket)
    assert ticket.wait(10) and ticket.cancelled


def test_finished_graphs_are_evicted_for_room_oldest_first():
    registry = builds.Registry(budget=2 ** 30, keep=2)
    games = [parse_spec(s) for s in ("nim:small", "nim:marienbad", "tictactoe")]
    for game in games:
        ticket = registry.request(game)
        assert ticket.wait(60)
        registry.release(ticket)
    registry.request(parse_spec("chopsticks:standard")).wait(60)
    kept = [b.graph_id for b in registry._builds.values()]
    assert games[0].id not in kept and len([b for b in registry._builds.values() if b.done.is_set()]) <= 3


def test_a_failed_build_reports_one_line_and_is_retried(monkeypatch):
    def load(game, symmetry, max_positions):
        raise GameGraphError("disk full")

    registry = builds.Registry(budget=2 ** 30, load=load)
    ticket = registry.request(parse_spec("nim:small"))
    assert ticket.wait(10)
    with pytest.raises(GameGraphError, match="disk full"):
        ticket.outcome()
    registry.release(ticket)
    assert registry.request(parse_spec("nim:small")) is not ticket


def test_the_ui_budget_is_configurable(monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_UI_MEMORY", "6G")
    assert builds.ui_budget() == 6 * 2 ** 30
    monkeypatch.delenv("GAMEGRAPH_UI_MEMORY")
    assert 0 < builds.ui_budget() <= builds.DEFAULT_UI_MEMORY
    monkeypatch.setenv("GAMEGRAPH_UI_MEMORY", "lots")
    with pytest.raises(GameGraphError, match="GAMEGRAPH_UI_MEMORY='lots'"):
        builds.ui_budget()
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "-3")
    with pytest.raises(GameGraphError, match="GAMEGRAPH_UI_MAX_POSITIONS='-3'"):
        settings.ui_max_positions()


def test_the_child_reports_a_refusal_in_one_line(home):
    registry = builds.Registry(budget=4 * 2 ** 30, max_positions=10, in_process_positions=0)
    # the registry's own check would refuse first; the child's check is the same one, so ask the child directly
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "explorer.ui.buildworker", "chopsticks(fingers=20)", "10",
                          str(8 * 2 ** 30)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    line, = out.stderr.strip().splitlines()
    assert "limit of 10 positions" in line
    assert registry.started_builds == 0


def test_the_page_stops_waiting_when_its_session_ends_and_the_build_is_killed(home, monkeypatch):
    """explorer/ui/loading.py: once the browser session is gone the page releases the build; nobody else
    waits, so the registry kills the child within the grace period."""
    from explorer.ui import loading

    registry = builds.Registry(budget=8 * 2 ** 30, grace=0.2)
    monkeypatch.setattr(builds, "_registry", registry)
    checks = []

    def alive():  # the tab closes after about a second
        checks.append(time.monotonic())
        return len(checks) < 4

    monkeypatch.setattr(loading, "session_alive", alive)
    # A build that surely outlasts the session's second, on any machine: a bigger game, on the
    # plain numpy path (the compiled kernels, which the tests otherwise force, finish SLOW in under a second).
    monkeypatch.setenv("GAMEGRAPH_KERNELS_FROM", str(10 ** 12))
    game = parse_spec("chopsticks(fingers=40)")
    with pytest.raises(builds.BuildCancelled, match="session ended"):
        loading.solved(game)
    ended = time.monotonic()
    ticket, = registry._builds.values()
    assert ticket.waiters == 0 and ticket.process is not None
    assert ticket.wait(3), "the build should stop within the grace period"
    assert ticket.cancelled and ticket.process.returncode < 0 and time.monotonic() - ended < 3
    assert not registry.running() and registry.started_builds == 1


def test_the_mirror_is_not_built_over_the_page_budget(monkeypatch):
    from explorer.ui import backend as ui_backend

    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    ui_backend.connection.clear()
    solved = build_solved("chopsticks:standard")
    monkeypatch.setenv("GAMEGRAPH_UI_MEMORY", "100K")
    chosen = ui_backend.choose(solved.graph.graph_id, solved.graph.num_positions, solved=solved)
    assert chosen.kind == "arrays" and "over the page's memory budget" in chosen.description
    monkeypatch.setenv("GAMEGRAPH_UI_MEMORY", "1G")
    assert ui_backend.choose(solved.graph.graph_id, solved.graph.num_positions, solved=solved).kind == "networkx"
    ui_backend.connection.clear()


def test_the_size_refusal_advises_what_works_for_the_game():
    """Over the page's limit, a game with tiers is pointed at `solve --tiered`, one with a ranking only at
    `solve --implicit` (the page reads both), one without at `gamegraph solve`: never at a command that
    refuses it too."""
    registry = builds.Registry(budget=10**9, max_positions=100)
    with pytest.raises(GraphTooLarge, match=r"`gamegraph solve dodgem:3x3 --tiered`"):
        registry._check(parse_spec("dodgem:3x3"), True)
    with pytest.raises(GraphTooLarge, match=r"`gamegraph solve 'chopsticks\(fingers=20\)' --implicit`"):
        registry._check(parse_spec("chopsticks(fingers=20)"), True)
    with pytest.raises(GraphTooLarge) as refused:
        registry._check(parse_spec("tictactoe"), True)
    assert "--implicit" not in str(refused.value) and "`gamegraph solve tictactoe`" in str(refused.value)
