"""Shared test setup: quiet progress bars, a state folder of the tests' own, the real Neo4j
server fixture, and what lets the suite run on two cores (pytest-xdist).

Without GAMEGRAPH_HOME the tests use .gamegraph-test in this checkout (as
./scripts/test does), never the user's own state folder: a running
./scripts/explore and its data are left alone.

Fixtures and markers for every test (tests/support/neo4j_fixtures.py has the Neo4j ones):
- `neo4j_server` (session): settings that reach the one Neo4j of the run; `driver` (module) and
  `ids` (unique graph ids, deleted afterwards) on it. Load under `ids(...)` names, never a fixed id:
  another worker may load the same game at the same time.
- `shared_browser` (session, tests/support/browser.py): the run's one Chromium, started on first use;
  browser modules take it as `browser` from tests/ui/test_browser.py and open a page per test.
  `shared_server` (session, the same file): the run's one explorer server, over the state folder `shared_ui_home`;
  browser modules take it as `server` from tests/ui/test_browser.py. `shared_part_home` (session): the state
  folder of `part_server` (test_canvas_view_browser.py, one per module), where dodgem:4x4 is a value file. A game
  is built once per worker, not once per module; a module that needs other settings starts its own server.
- `@pytest.mark.browser`: drives Chromium; `@pytest.mark.slow`: among the slowest tests.
  `./scripts/test --quick` leaves both out.
- `@pytest.mark.serial`: the test runs alone, no other test of the run beside it, also under
  `-n 2` (pytest-xdist). For tests that stop or restart the shared Neo4j server, compare the whole
  database or its connections before and after, or measure the machine. `SERIAL_FILES` below marks
  whole files that way without touching them. A module that only needs the server to itself takes
  `own_neo4j_server` instead (a second embedded server, its state folder and port: one per worker, which
  such modules take in turn, each finding it running and empty), so the other worker is not kept waiting.
- Files are given out longest first, by tests/durations.json (tests/support/durations.py).

Under xdist (./scripts/test without a test path runs `-n 2 --dist loadfile`) each file runs whole
on one worker, in order, as it does alone; the workers share the state folder (its caches are written
atomically) and the Neo4j server, which ./scripts/test starts before pytest (with plain
`pytest -n 2`, start it first: `gamegraph neo4j start`). A serial test takes an exclusive lock
(tests/support/serial.py) that every other test takes shared.
"""

import os
import sys
from pathlib import Path

import pytest

from tests.support import durations

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
os.environ.setdefault("GAMEGRAPH_HOME", str(Path(__file__).resolve().parents[1] / ".gamegraph-test"))


def _compiled_unless_a_test_says() -> int:
    """In the suite's own process every size runs the compiled kernels, so the in-process tests exercise
    them, unless a test sets GAMEGRAPH_KERNELS_FROM itself. This is not put in the environment: the
    processes the tests start (the CLI, UI servers) run as a user's do, small graphs on the plain path,
    and each saves about 1 s of CPU that loading numba and the cached kernels costs (1.25 s against
    0.29 s for `gamegraph show tictactoe`). tests/algorithms/test_dispatch.py checks the two paths equal;
    a test that needs the kernels in a child process sets GAMEGRAPH_KERNELS_FROM=0 in its environment."""
    from explorer.core import settings

    return settings.kernels_from() if settings.KERNELS_FROM_ENV in os.environ else 0


def _run_every_size_compiled() -> None:
    from explorer.algorithms import dispatch

    dispatch.kernels_from = _compiled_unless_a_test_says


_run_every_size_compiled()

pytest_plugins = ["tests.support.neo4j_fixtures", "tests.support.serial", "tests.support.browser"]

# Files whose every test must run alone (see the docstring), relative to the clone, and why.
SERIAL_FILES: dict[str, str] = {}  # none today: the modules that stop, restart or measure a server have one of
# their own (`own_neo4j_server` in tests/support/neo4j_fixtures.py), and the rest run beside them


def pytest_collection_modifyitems(config, items):
    root = Path(__file__).resolve().parents[1]
    where: dict[int, str] = {}
    for item in items:
        try:
            where[id(item)] = Path(str(item.path)).resolve().relative_to(root).as_posix()
        except ValueError:
            continue
        if where[id(item)] in SERIAL_FILES:
            item.add_marker(pytest.mark.serial)
    # The longest files first (tests/support/durations.py says why); a file's tests keep their order.
    seconds = durations.load()
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        first.setdefault(where.get(id(item), ""), index)
    order = {id(item): index for index, item in enumerate(items)}

    def rank(item) -> tuple[float, int, int]:
        path = where.get(id(item), "")
        return -seconds.get(path, 0.0), first[path], order[id(item)]

    items.sort(key=rank)


@pytest.fixture(autouse=True)
def _main_module_restored():
    """Streamlit runs the page as a fresh ``__main__`` module and leaves it in sys.modules after an AppTest.
    A later test in the same process that starts processes by spawn (Dask's LocalCluster) would then run
    the page again in every child, which fails ("Nanny failed to start"). On two xdist workers any file
    may follow the UI's in one process, so every test gets back the ``__main__`` it started with."""
    main = sys.modules.get("__main__")
    yield
    if main is not None and sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main
