"""An example's first run in the Cypher console (issue 37): choosing an example runs it once in the background,
through the console's own checks and look-up, while its explanation is read, so that Neo4j has planned it (a
statement it has not met took 2.2 s to EXPLAIN, 1.2 s to run and 1.1 s to look its moves up at load 7; its first
run on the page 9.5 s against 3.4 s for the second); a Run of the same statement waits for that run and then
finds the plans made. The first look at the console warms the look-up of lines of keys. Without Neo4j: the
console's calls to it are recorded here."""

from __future__ import annotations

import json
import threading
import time
from types import SimpleNamespace

import pytest

from explorer.ui import console
from queries.results import ConsoleResult

WARM = "cypher-console-warm-up"


@pytest.fixture
def neo4j(monkeypatch):
    """The console over a plain session state, its statements to Neo4j recorded as (thread, text, params); a
    warm-up's statement is held until `release` is set. Every answer is one line of keys, as the cycles
    example's."""
    seen = SimpleNamespace(calls=[], release=threading.Event(), errors=[])
    monkeypatch.setattr(console, "st", SimpleNamespace(session_state={"cypher_example": "cycles"}))
    monkeypatch.setattr(console, "error", seen.errors.append)
    monkeypatch.setattr(console, "_OPENED", set())

    def answer(driver, database, text, params, timeout_s, row_cap):
        name = threading.current_thread().name
        seen.calls.append((name, text, params))
        if name == WARM:
            assert seen.release.wait(10)
        if text == console.STEPS_QUERY:
            return ConsoleResult(["a"], [], False, row_cap)
        return ConsoleResult(["keys", "labels"], [[["A|1", "B|2", "A|1"], ["L>L", "R>R"]]], False, row_cap)

    monkeypatch.setattr(console.api, "run_readonly_cypher", answer)
    yield seen
    seen.release.set()


def _wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_choosing_an_example_runs_it_in_the_background_and_run_waits_for_it(neo4j):
    backend = SimpleNamespace(kind="neo4j", driver=object(), database="neo4j")
    console._load_example("g", "A|1", "A|1", backend)
    statement, params = console.st.session_state["cypher_text"], console.st.session_state["cypher_params"]
    _wait_for(lambda: neo4j.calls)
    assert neo4j.calls == [(WARM, statement, json.loads(params))]  # the example itself, as the Run button sends it
    runner = threading.Thread(target=console._run, args=(backend, "g"), name="page")
    runner.start()
    time.sleep(0.3)
    assert [call[0] for call in neo4j.calls] == [WARM]  # the Run waits for the warm-up: no second planning beside it
    neo4j.release.set()
    runner.join(10)
    assert not runner.is_alive() and neo4j.errors == []
    assert neo4j.calls == [(WARM, statement, json.loads(params)),
                           (WARM, console.STEPS_QUERY, {"game": "g", "steps": [["A|1", "B|2", "L>L"], ["B|2", "A|1", "R>R"]]}),
                           ("page", statement, json.loads(params)),
                           ("page", console.STEPS_QUERY, {"game": "g", "steps": [["A|1", "B|2", "L>L"], ["B|2", "A|1", "R>R"]]})]
    assert console.st.session_state["cypher_result"]["rows"]  # the Run's own answer is shown


def test_the_first_look_at_the_console_warms_the_look_up_once(neo4j):
    backend = SimpleNamespace(kind="neo4j", driver=object(), database="neo4j")
    neo4j.release.set()
    console._warm_on_open(backend, "g")
    console._warm_on_open(backend, "g")
    _wait_for(lambda: not console._WARMING)
    assert neo4j.calls == [(WARM, console.STEPS_QUERY, {"game": "g", "steps": []})]


def test_a_warm_up_needs_a_driver_and_parameters_it_can_read(neo4j):
    assert console.warm_up(SimpleNamespace(driver=None, database="neo4j"), "g", "RETURN 1", "{}") is None
    assert console.warm_up(SimpleNamespace(driver=object(), database="neo4j"), "g", "RETURN 1", "{nope") is None
    assert neo4j.calls == []
