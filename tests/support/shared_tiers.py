"""A tiered solve made once per test run in the tests' state folder, for every test that needs it.

connect4:6x4's tiered solve (95.7 million positions, about a minute of CPU) was made twice a run:
by tests/games/test_connect4.py into its own temporary folder, and by the README's example
`gamegraph solve connect4:6x4 --tiered` into the state folder (tests/project/test_readme.py). Both
now call `solved_this_run`: the first caller in a run (either xdist worker, under a file lock) solves
it with explorer.tiered into the state folder's tier folder, the later ones read those files.

Tier files kept from an earlier run are never trusted (the state folder outlives runs, and its tier
folder is named by the game, not by the solver's sources): a marker beside the lock names the run
that wrote them, and a folder from another run is deleted and solved again.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
import uuid
from pathlib import Path

_THIS_PROCESS = uuid.uuid4().hex  # without xdist: one run is one process


def run_id() -> str:
    """The same in every xdist worker of one run (xdist sets it), new in the next run."""
    return os.environ.get("PYTEST_XDIST_TESTRUNUID") or _THIS_PROCESS


def _lock_dir() -> Path:
    """Outside the state folder (nothing of the tests' in it): one folder per state folder."""
    from explorer.core.settings import state_dir

    key = hashlib.sha256(str(Path(state_dir()).resolve()).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"gamegraph-test-tiers-{os.getuid()}-{key}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def solved_this_run(game):
    """explorer.tiered's reader of `game`'s tier files in the state folder, solved in this run."""
    from explorer import tiered
    from explorer.tiered.files import folder_for

    folder = folder_for(game)
    base = _lock_dir() / folder.name
    with open(base.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker waits for the solve, then reads it
        marker = base.with_suffix(".run")
        if not (marker.exists() and marker.read_text() == run_id()):
            marker.unlink(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)  # an earlier run's files: solved again, never trusted
            values = tiered.solve(game, workers=1, processes=False)
            marker.write_text(run_id())
            return values
        return tiered.solve(game, workers=1, processes=False)  # every tier written: reads, solves nothing
