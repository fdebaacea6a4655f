"""The page's limits in a real browser (issue 8, item 5): a huge game is refused at once, a build whose
tab is closed is killed, and two tabs asking for one game share one build.

`gamegraph ui` serves the page; headless Chromium (Playwright) opens it. Builds
are seen from outside, as child processes (explorer.ui.buildworker) of the server
whose environment names this test's state folder.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.ui.test_browser import CHROMIUM, browser, serving_ui  # noqa: F401 - fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"Chromium is not installed at {CHROMIUM}"),
]

# About 1.3 million positions on the plain numpy path (the served UI does not force the compiled
# kernels, which would finish it before the tab closes): a child process, several seconds of work.
SLOW = "chopsticks(fingers=40)"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0", "NEO4J_URI": "bolt://127.0.0.1:9",
           "GAMEGRAPH_KERNELS_FROM": str(10 ** 12)}
    env.pop("NEO4J_PASSWORD", None)
    with serving_ui(env) as url:
        yield url, home




def build_workers(home: Path) -> list[int]:
    """Pids of build children working for the server that uses `home`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"explorer.ui.buildworker" in command and f"GAMEGRAPH_HOME={home}".encode() in environ:
            found.append(int(entry.name))
    return found


def wait_for(condition, timeout: float, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


def test_huge_chopsticks_is_refused_at_once_with_its_estimate(served, browser):
    url, home = served
    page = browser.new_page()
    page.goto(f"{url}/?game=chopsticks:standard")
    page.get_by_text("Value for A (to move)").wait_for(timeout=60_000)   # the page is warm
    began = time.monotonic()
    page.goto(f"{url}/?game=chopsticks:standard&pos=B|1-1|1-2")
    page.get_by_text("Value for B (to move)").wait_for(timeout=60_000)
    baseline = time.monotonic() - began
    began = time.monotonic()
    page.goto(f"{url}/?game=chopsticks(fingers=99)")
    page.get_by_text("48,995,100 positions").wait_for(timeout=30_000)
    seconds = time.monotonic() - began
    text = page.locator("[data-testid=stAlert]").first.inner_text()
    assert "limit of 3,000,000 positions" in text and "GAMEGRAPH_UI_MAX_POSITIONS" in text
    assert not build_workers(home)
    print(f"\nchopsticks(fingers=99) refused in the browser {seconds:.2f} s after the request, page load included "
          f"(a cached preset's page: {baseline:.2f} s)")
    page.close()


def test_closing_the_tab_kills_its_build(served, browser):
    url, home = served
    cached = len(list(home.glob("graphs/*.npz")))
    page = browser.new_page()
    page.goto(f"{url}/?game={SLOW}")
    page.get_by_text("Generating and solving").first.wait_for(timeout=60_000)
    workers = wait_for(lambda: build_workers(home), 30)
    assert len(workers) == 1, workers
    closed = time.monotonic()
    page.close()
    assert wait_for(lambda: not build_workers(home), 15), "the build should stop once its tab is closed"
    print(f"\nbuild stopped {time.monotonic() - closed:.2f} s after the tab closed")
    assert len(list(home.glob("graphs/*.npz"))) == cached  # the killed build cached nothing, left nothing half-written
    assert not list(home.glob("graphs/*partial*"))


def test_two_tabs_share_one_build(served, browser):
    url, home = served
    spec = "chopsticks(fingers=22)"   # not cached by the other tests; built in a child process
    first, second = browser.new_page(), browser.new_page()
    first.goto(f"{url}/?game={spec}", wait_until="commit")
    seen = set(wait_for(lambda: build_workers(home), 60, step=0.02))   # the first tab's build
    assert seen
    second.goto(f"{url}/?game={spec}", wait_until="commit")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        seen.update(build_workers(home))
        if first.get_by_text("Value for A (to move)").count() and second.get_by_text("Value for A (to move)").count():
            break
        time.sleep(0.1)
    assert len(seen) == 1, seen   # the second tab joined the first tab's build (or opened its result)
    first.get_by_text("Value for A (to move)").wait_for(timeout=300_000)
    second.get_by_text("Value for A (to move)").wait_for(timeout=300_000)
    first.close()
    second.close()
