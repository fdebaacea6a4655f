"""tests/support/serial.py: under pytest-xdist a serial test runs with no other test beside it.

Two worker processes are played by this one and a child, each with its own RunLock of the same run.
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

from tests.support.serial import RunLock

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import sys, time
from tests.support.serial import RunLock
lock = RunLock(sys.argv[1])
print("waiting", flush=True)
with lock.hold(alone=sys.argv[2] == "alone"):
    print("in", time.monotonic(), flush=True)
    time.sleep(float(sys.argv[3]))
print("out", flush=True)
lock.close()
"""


def child(run: str, how: str, seconds: float = 0.0) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", CHILD, run, how, str(seconds)], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "waiting\n"
    return process


def entered(process: subprocess.Popen) -> float:
    word, at = process.stdout.readline().split()
    assert word == "in", word
    return float(at)


def test_a_serial_test_waits_for_the_running_test_and_the_next_test_waits_for_it():
    run = uuid.uuid4().hex
    mine = RunLock(run)
    with mine.hold(alone=False):
        serial = child(run, "alone", seconds=1.0)
        time.sleep(1.0)  # the serial one is waiting for this test to end
        released = time.monotonic()
    began = entered(serial)
    assert began >= released
    with mine.hold(alone=False):  # the next test of this worker starts only when the serial one ended
        after = time.monotonic()
    assert after >= began + 1.0  # the serial one held its lock for its whole second
    assert serial.stdout.readline().startswith("out") and serial.wait(timeout=30) == 0
    mine.close()
    assert not any(path.exists() for path in mine.paths)


def test_tests_that_are_not_serial_run_side_by_side():
    run = uuid.uuid4().hex
    mine = RunLock(run)
    with mine.hold(alone=False):
        other = child(run, "shared", seconds=0.0)
        began = entered(other)  # while this one still holds its shared lock
        still_mine = time.monotonic()
    assert began <= still_mine and other.wait(timeout=30) == 0
    mine.close()
