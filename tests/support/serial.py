"""`@pytest.mark.serial` under pytest-xdist: such a test runs with no other test of the run beside it.

Every test of a worker holds a lock file shared while it runs (its setup, call and teardown); a
serial test holds it exclusively. A second file, the turnstile, is taken exclusively for a moment
before either, and held by a serial test while it waits: so a waiting serial test is not starved
by the other worker taking the shared lock test after test. Without xdist (one process) nothing is
locked: the tests run one at a time anyway.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest


class RunLock:
    """The two lock files of one test run (one xdist `testrunuid`), in the temporary folder."""

    def __init__(self, run: str):
        base = Path(tempfile.gettempdir()) / f"gamegraph-tests-{run}"
        self.paths = (Path(f"{base}.turnstile"), Path(f"{base}.lock"))
        self._turnstile, self._tests = (os.open(path, os.O_RDWR | os.O_CREAT, 0o600) for path in self.paths)

    def close(self) -> None:
        """Closed and removed: every worker opened them at its start, so the first to end removes them."""
        for fd in (self._turnstile, self._tests):
            os.close(fd)
        for path in self.paths:
            path.unlink(missing_ok=True)

    @contextmanager
    def hold(self, alone: bool):
        fcntl.flock(self._turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(self._tests, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            if not alone:
                fcntl.flock(self._turnstile, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(self._tests, fcntl.LOCK_UN)
            if alone:
                fcntl.flock(self._turnstile, fcntl.LOCK_UN)


_lock: RunLock | None = None


def pytest_configure(config):
    global _lock
    worker_input = getattr(config, "workerinput", None)  # set in an xdist worker only
    if worker_input is not None:
        _lock = RunLock(worker_input["testrunuid"])


def pytest_unconfigure(config):
    global _lock
    if _lock is not None:
        _lock.close()
        _lock = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _lock is None:
        yield
        return
    with _lock.hold(alone=item.get_closest_marker("serial") is not None):
        yield
