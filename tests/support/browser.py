"""One Chromium, one explorer state folder and one explorer server for the whole test run (each xdist worker has
its own).

The browser test modules take it through their module fixture `browser` (tests/ui/test_browser.py); each
test opens its own page (a tab, and a Streamlit session, of its own), in one browser context kept for the run
(`_share_context`: the pages share the HTTP cache, so Streamlit's bundle is fetched once, not once a test).
Launching Playwright and Chromium costs seconds, once per run instead of once per module.
The explorer (`gamegraph ui`, `shared_server`, which the modules take as `server`) is one per run too, over one
state folder: a game is built and its networkx mirror made once per worker, not once per module (dodgem:4x4's
mirror alone is about 40 s of CPU), and a server's start (3 s), its first page's imports and its stop (3 s)
are paid once instead of in each of 15 modules. A module whose tests need other settings or a state folder
of their own starts a server with `serving_ui`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.neo4j_fixtures import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 60.0, log=None) -> None:
    """Until the explorer at `url` answers its health check; `log`: the file its output goes to (else its pipe),
    shown when it exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            if log is not None:
                log.seek(0)
            raise AssertionError(f"gamegraph ui exited with {proc.returncode}: {(log or proc.stdout).read()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the explorer did not answer at {url} within {timeout:.0f} s")


@contextmanager
def serving_ui(env: dict[str, str]):
    """`gamegraph ui` on a free port with this environment, healthy; its URL. Killed afterwards: the command,
    the Streamlit server it started and a build child share the session made here, so one SIGKILL to the group
    ends them all at once. Nothing of a test server is kept, and a graceful stop cost 2.5-3 s of waiting for each
    (Streamlit took 13-17 s to shut down after browser pages had used it; the stop of `gamegraph ui` itself is
    tested in tests/commands/test_ui.py and tests/project/test_readme.py). Its output goes to a temporary file,
    not a pipe: a server that lives for the run would stop once it had written a pipe's 64 KiB unread."""
    port = free_port()
    # No file watcher: an edit anywhere in the tree while a test runs put up Streamlit's "File change" notice,
    # and the page's waits for a settled page ran out.
    env = {"STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none", **env}
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen([sys.executable, "-m", "explorer.cli", "ui", "--port", str(port), "--headless"],
                                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, proc, log=log)
            yield url
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()


def finished_status(payload) -> int | None:
    """The status of the run whose end a websocket frame from Streamlit tells (ForwardMsg `script_finished`), None
    for any other frame."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if not isinstance(payload, (bytes, bytearray)):
        return None
    message = ForwardMsg()
    try:
        message.ParseFromString(bytes(payload))
    except Exception:  # noqa: BLE001 - not a ForwardMsg: not a run's end
        return None
    return message.script_finished if message.WhichOneof("type") == "script_finished" else None


class RunWatch:
    """The Streamlit runs of one page, read from its websocket: the page's requests for a run (BackMsg
    `rerun_script`, sent when a widget or a component's value changes, and on connecting) and the ends of the
    runs (ForwardMsg `script_finished`). `settle` waits on them instead of a fixed pause: Streamlit's own signs
    of a run come too late to be waited for (its running indicator shows 0.5 s after a run starts, and on a busy
    machine a run started 0.4-0.6 s after the click that asked for it, so a fixed 0.5 s pause could see neither).

    Playwright's sync API hands the page's events over only while one of its calls runs: wait with
    page.wait_for_timeout, never time.sleep."""

    def __init__(self, page):
        self.count = 0       # events seen (requests and ends), in order
        self.asked = 0       # the number of the last request for a run
        self.ended = 0       # the number of the last run's end (not one cut short for another run)
        self.settled = 0     # the count when the last `settle` had seen every request answered
        self.sockets = 0
        page.on("websocket", self._socket)

    def _socket(self, socket) -> None:
        self.sockets += 1
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        message = BackMsg()
        try:
            message.ParseFromString(bytes(payload))
        except Exception:  # noqa: BLE001 - not a BackMsg: not a request for a run
            return
        if message.WhichOneof("type") == "rerun_script":
            self.count += 1
            self.asked = self.count

    def _received(self, payload) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        status = finished_status(payload)
        if status is not None and status != ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN:
            self.count += 1
            self.ended = self.count

    @property
    def answered(self) -> bool:
        """Every request for a run sent so far has had a run end after it."""
        return self.ended > self.asked

    @property
    def asked_since_settled(self) -> bool:
        """The page has asked for a run since the last `settle` saw every request answered."""
        return self.asked > self.settled


def watched(page):
    """`page` with a RunWatch (`page.gg_runs`), attached before it opens anything."""
    page.gg_runs = RunWatch(page)
    return page


def settle(page, timeout_ms: int = 120_000) -> None:
    """Wait until Streamlit has finished the runs the page asked for so far (no running indicator, no placeholders).

    On a page from the run's Chromium (`shared_browser` watches each page's runs, RunWatch): if the page has asked
    for a run since the last settle, until every request has had a run end after it. If it has not, first up to
    0.5 s for a request the last action sends late (a component's new value reaches the page by a message from its
    frame; a click's request reached the websocket later than 150 ms on a busy machine, and ci16's thermograph test
    then sampled the page's next run, its expander drawn open), the wait ending as soon as one comes; an action
    that asks for no run (a download, a hover) waits the whole 0.5 s. (In a run of every browser module, 302 of 328
    settles had seen a request since the last one, and in none of them did another come in the next 0.5 s: the
    fixed pause they all waited was lost; 12 saw the request come during it.) On any other page: a fixed 0.5 s
    pause (what every settle was)."""
    runs = getattr(page, "gg_runs", None)
    if runs is None or not runs.sockets:
        page.wait_for_timeout(500)
    else:
        late = time.monotonic() + 0.5
        while not runs.asked_since_settled and time.monotonic() < late:
            page.wait_for_timeout(50)
        deadline = time.monotonic() + timeout_ms / 1000
        while not runs.answered:
            if time.monotonic() > deadline:
                raise AssertionError(f"a run the page asked for did not end within {timeout_ms / 1000:.0f} s")
            page.wait_for_timeout(50)
        runs.settled = runs.count
    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached", timeout=timeout_ms)
    page.wait_for_selector("[data-testid=stSkeleton]", state="detached", timeout=timeout_ms)


def open_choice(page, label: str, option):
    """Opens the select box `label` until `option` shows and returns the option, to be clicked by the caller. A
    click that lands while Streamlit redraws the box opens nothing: up to five tries, each closing what it opened
    (the browser tests and bench/bench_canvas.py, which times the click on the option, both open boxes with it).

    A box under Streamlit's header (the window's top 60 px, where a page scrolled to its canvas leaves the canvas's
    controls) is first scrolled to the middle of the window: there Streamlit 1.67's select box scrolls the page on the
    click and its list closes again at once, so a first click opens nothing (seen in a plain Streamlit page too)."""
    page.get_by_label(label, exact=False).first.evaluate(
        "e => { if (e.getBoundingClientRect().top < 80) e.scrollIntoView({block: 'center'}); }")
    for _ in range(5):
        page.get_by_label(label, exact=False).first.click()
        try:
            option.wait_for(timeout=5_000)
            break
        except Exception:  # noqa: BLE001 - Playwright's timeout: the box did not open, try again
            page.keyboard.press("Escape")
    return option



def switch_on(page, key: str, label: str, timeout_ms: int = 120_000) -> None:
    """Turns the toggle `label` (widget key `key`) on and waits for the run it asks: up to three clicks, until its
    switch shows checked. A click that lands while Streamlit redraws the toggle changes nothing (the CI of
    2026-11-30 waited 60 s for the Play board's move values after a click on "Show move values" that had not
    taken)."""
    switch = page.locator(f".st-key-{key} input[type=checkbox]")
    for _ in range(3):
        if switch.is_checked():
            break
        page.get_by_text(label, exact=True).first.click()
        try:
            page.wait_for_function("s => document.querySelector(s)?.checked === true",
                                   arg=f".st-key-{key} input[type=checkbox]", timeout=10_000)
        except Exception:  # noqa: BLE001 - Playwright's timeout: the click did not take, try again
            continue
    settle(page, timeout_ms)

DEFAULT_VIEWPORT = {"width": 1280, "height": 720}  # Playwright's own for a page of a new context


def _share_context(chromium) -> None:
    """`chromium.new_page` opens its pages in one browser context kept for the run, each at the viewport asked
    (Playwright's 1280 x 720 if none) and with its RunWatch attached before it opens anything (for `settle`).

    A new context, which Playwright's own new_page makes for every page, starts with an empty HTTP cache: each
    test's page fetched and compiled Streamlit's bundle and the canvas component's again. The pages of one context
    share that cache (and cookies, of which Streamlit sets none a test reads); each page is still a tab, and a
    Streamlit session, of its own. A page asked with other options gets a context of its own, as before."""
    new_page = chromium.new_page
    context = chromium.new_context(viewport=DEFAULT_VIEWPORT)
    chromium.gg_context = context

    def page_watched(viewport=None, accept_downloads=True, **options):
        if options or not accept_downloads:
            return watched(new_page(viewport=viewport, accept_downloads=accept_downloads, **options))
        page = context.new_page()
        if viewport and viewport != DEFAULT_VIEWPORT:
            page.set_viewport_size(viewport)
        return watched(page)

    chromium.new_page = page_watched


def close_pages(chromium) -> None:
    """Closes the pages a test left open (a failed one) and the contexts of their own: each page's Streamlit
    session and canvas would live on, and keep the next modules' Chromium busy."""
    for context in chromium.contexts:
        if context is getattr(chromium, "gg_context", None):
            for page in context.pages:
                page.close()
        else:
            context.close()


@pytest.fixture(scope="session")
def shared_browser():
    """The run's Chromium (Playwright's sync API); skipped where Chromium or Playwright is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _share_context(chromium)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def shared_ui_home(tmp_path_factory) -> dict[str, str]:
    """The environment of the run's explorer server (`shared_server`): one state folder for the run (each worker
    has its own), so a game a module built (its solved graph, its networkx mirror) is read by the next module
    instead of built again."""
    return {**os.environ, "GAMEGRAPH_HOME": str(tmp_path_factory.mktemp("ui-home")), "GAMEGRAPH_PROGRESS": "0"}


@pytest.fixture(scope="session")
def shared_server(shared_ui_home):
    """The run's explorer (`gamegraph ui` over `shared_ui_home`), started on first use; its URL. The browser modules
    take it as `server` (tests/ui/test_browser.py). What a test leaves is in its own page's Streamlit session, which
    ends with the page (the module fixture `browser` closes what a failed test left open); what the server keeps
    across sessions is the games it built and their mirrors, as the state folder does."""
    with serving_ui(shared_ui_home) as url:
        yield url


@pytest.fixture(scope="session")
def shared_part_home(tmp_path_factory) -> dict[str, str]:
    """The environment of the explorer servers over a state folder where dodgem:4x4 is solved into a value file
    only, with the page's graph limit lowered to 10,000 positions (as in test_implicit_browser), so the page shows
    a part (test_canvas_view_browser's `part_server`, one per module): solved once per run and worker."""
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path_factory.mktemp("part-home")), "GAMEGRAPH_PROGRESS": "0",
           "GAMEGRAPH_UI_MAX_POSITIONS": "10000"}
    subprocess.run([sys.executable, "-m", "explorer.cli", "solve", "dodgem:4x4", "--implicit"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=900)
    return env
