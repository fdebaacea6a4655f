"""Solving a game too large for the page from the page itself (explorer/ui/solve_jobs.py, the "Solve it here" of
explorer/ui/implicit_page.too_large): the CLI's own solve runs in the background, the page shows it running and,
when it has finished, opens the game from its value file; a refusal says why in one line. Dōbutsu shōgi's small
preset stands for the full game, with the page's graph limit lowered; the value file it leaves is checked
against the edge solver's graph of the same game (the independent oracle)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("streamlit")
from tests.support.ui_support import isolated, page  # noqa: E402,F401 - the autouse fixture
from explorer import implicit  # noqa: E402
from explorer.core.errors import GraphTooLarge  # noqa: E402
from explorer.games import parse_spec  # noqa: E402
from explorer.solved import build, stored_values  # noqa: E402
from explorer.ui import solve_jobs  # noqa: E402

SPEC = "dobutsu:small"


@pytest.fixture(autouse=True)
def fresh_registry(monkeypatch):
    """A registry of the page's builds of its own: the process's one keeps the graphs that other tests' pages
    built (dobutsu:small's among them, under the default limit), and would hand this page one of them instead
    of refusing the game over the lowered limit."""
    from explorer.ui import builds

    monkeypatch.setattr(builds, "_registry", None)


def errors(at) -> list[str]:
    """The page's error lines as read (widgets.error escapes Markdown)."""
    return [e.value.replace("\\", "") for e in at.error]


def wait_for(job: solve_jobs.Job, game, seconds: float = 240) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = job.status(game)
        if status != solve_jobs.RUNNING:
            return status
        time.sleep(0.5)
    raise AssertionError(f"the solve still runs after {seconds} s: {job.last_line()}")


def test_the_button_solves_in_the_background_and_the_page_then_opens_the_game(monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "1000")
    game = parse_spec(SPEC)
    at = page(game=SPEC)
    assert any("`gamegraph solve dobutsu:small --implicit`" in i.value for i in at.info), [i.value for i in at.info]
    buttons = [b for b in at.button if b.key == "solve_here"]
    assert len(buttons) == 1 and "in the background" in buttons[0].label
    at = buttons[0].click().run()
    job = solve_jobs.current(game)
    assert job is not None and job.command == ("gamegraph", "solve", SPEC, "--implicit")
    assert solve_jobs.start(game).pid == job.pid or job.status(game) != solve_jobs.RUNNING  # one job, not two
    assert job.log.read_text().startswith("$ gamegraph solve dobutsu:small --implicit: started ")
    assert wait_for(job, game) == solve_jobs.DONE, job.last_line()
    assert stored_values(game) == "implicit"

    values = implicit.open_value_file(game)  # what the job left, against the edge solver
    graph = build(SPEC, symmetry=False)
    nodes = range(0, graph.graph.num_positions, 97)
    assert len(nodes) > 100
    for node in nodes:
        position = graph.graph.position(node)
        assert (values.value(position), values.remoteness(position)) == (graph.value(node), graph.remoteness(node))

    at = page(game=SPEC)  # the page now opens the game from its value file
    assert not at.exception and not at.error, errors(at)
    assert not [b for b in at.button if b.key == "solve_here"]
    assert any("Neighbourhood" == t.label for t in at.tabs)


def test_a_solve_that_does_not_fit_the_memory_is_refused_in_one_line_before_it_starts(monkeypatch):
    from explorer.core import limits

    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "1000")
    monkeypatch.setattr(limits, "resident_room",  # less than its cells and buffers
                        lambda: limits.Room(100_000, limits.AVAILABLE_NOW))
    game = parse_spec(SPEC)
    refusal = (r"solving dobutsu:small takes up to .* \(29,436 indices, 3 bytes each as measured, with a margin\)"
               r".*available now")
    with pytest.raises(GraphTooLarge, match=refusal):
        solve_jobs.start(game)
    assert solve_jobs.current(game) is None  # nothing started, nothing recorded
    at = page(game=SPEC)
    at = next(b for b in at.button if b.key == "solve_here").click().run()
    said = [e for e in errors(at) if "available now" in e]
    assert len(said) == 1 and "\n" not in said[0], said
    assert solve_jobs.current(game) is None and stored_values(game) is None


def test_a_failed_solve_says_its_last_line_and_offers_the_button_again(monkeypatch, tmp_path):
    """A job whose process has ended without leaving a value file: the page gives the log's last line (the
    CLI's one-line error) and the button again. The job's record and log are written as start() writes them,
    naming a process that has ended (this test's own short child)."""
    import json
    import subprocess

    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "1000")
    game = parse_spec(SPEC)
    ended = subprocess.Popen(["true"])
    ended.wait()
    record, log = solve_jobs._paths(game)
    record.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("solving dobutsu:small: 10.0kpos [00:01]\rgamegraph: error: <b>no</b> room left on the disk\n")
    record.write_text(json.dumps({"spec": SPEC, "command": list(solve_jobs.command(game)), "pid": ended.pid,
                                  "started": time.time() - 5}))
    job = solve_jobs.current(game)
    assert job.status(game) == solve_jobs.FAILED
    assert job.last_line() == "gamegraph: error: <b>no</b> room left on the disk"
    at = page(game=SPEC)
    said = [e for e in errors(at) if "stopped" in e]
    assert len(said) == 1 and "error: <b>no</b> room left on the disk" in said[0], errors(at)
    assert [b for b in at.button if b.key == "solve_here"]


def test_a_solve_past_its_measured_time_says_why_it_has_not_ended(monkeypatch):
    """A solve still running after the slowest time measured here (the bar then stands at 99 %): the line says
    it takes longer because other work runs, with the load (a stranger's Dōbutsu solve took 10 min beside a
    test run, against the "3 min" the button gave). The job is this test's own child, alive while the page runs.
    (AppTest runs the progress fragment once, with the page.)"""
    import json
    import subprocess
    import sys

    from explorer.solved import solve_seconds, storage

    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "1000")
    monkeypatch.setitem(storage.MEASURED_SOLVES, SPEC, (600, 900))   # as if measured: 10-15 min
    game = parse_spec(SPEC)
    _, slowest, _ = solve_seconds(game)
    assert slowest == 900
    # (a live process whose command line names explorer.cli, as solve_jobs._alive asks of a solve of ours)
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", "explorer.cli"])
    try:
        record, log = solve_jobs._paths(game)
        record.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("solving dobutsu:small: 10.0kpos [00:01]\n")
        for late, said in ((False, "so far, of 10-15 min here with the machine otherwise idle (measured)."),
                           (True, "so far, longer than the 10-15 min here with the machine otherwise idle (measured): ")):
            started = time.time() - (slowest + 600 if late else 0)
            record.write_text(json.dumps({"spec": SPEC, "command": list(solve_jobs.command(game)),
                                          "pid": running.pid, "started": started}))
            at = page(game=SPEC)
            bars = [p for p in at.get("progress")]
            assert len(bars) == 1, at
            text = bars[0].proto.text
            assert said in text, text
            assert ("other work is running on this machine (load " in text) is late, text
    finally:
        running.kill()
        running.wait()
