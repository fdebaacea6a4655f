"""The explorer in Chromium: click to rendered for a game switch, a tab, a view and a move; the overview's drawing.

Starts `gamegraph ui` on a free port with a scratch state folder (the games are solved into its cache
before any timing, as `gamegraph solve` leaves them), then drives Chromium through Playwright at
1,440 x 900:

- a scripted session from chopsticks:standard: choose a game in the sidebar (tictactoe, dodgem:3x3,
  chopsticks:standard in turn; the first visit of each in the server counted apart), click each tab
  (Play, History, Analysis, Cypher console, Downloads, Graph), choose each view of the Graph and
  Analysis tabs with their buttons (explorer/ui/app.py, GROUPS), play a move on the Play board. Each is
  timed from the click to the page drawn (the game's title and its canvas drawn around its start, the
  tab's or view's own content) and the run it starts ended (Streamlit's running indicator gone): the
  server's work plus a local round trip and the browser's render. Beside it, the server time itself:
  the server runs with GAMEGRAPH_UI_RUN_TIMES=1, so the page logs each script run's wall and CPU time
  (explorer/ui/app.py, `measured`), and an interaction's server time is the sum over the runs that
  ended between its click and its end;
- with --overview RUNS, the overview: `?game=chopsticks(fingers=20)&view=Whole graph` (84,288 positions)
  opened RUNS times in a fresh page; "drawn" is the browser's own time from the data's arrival in the
  component to sigma's first frame, "page" the wall time from navigation to the drawing.

    python -m bench.bench_ui                 # table into bench/README.md
    python -m bench.bench_ui --no-write --rounds 1

Not a test: timings depend on the machine's load (printed with the table).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from bench.readme import publish

HEADING = "The explorer in Chromium (`bench_ui.py`)"
ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
BIG = "chopsticks(fingers=20)"
SESSION_GAME = "chopsticks:standard"
SMALL = SESSION_GAME  # the game of the scripted session (--game)
PATIENCE = 120_000


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _idle(page) -> None:
    """Until the run in progress (if any) has ended: no running indicator (its Stop button), no placeholder."""
    page.wait_for_function("() => { const w = document.querySelector('[data-testid=stStatusWidget]');"
                           " return !w || !/Stop|Running/.test(w.innerText); }", timeout=PATIENCE)
    page.wait_for_selector("[data-testid=stSkeleton]", state="detached", timeout=PATIENCE)


WINDOWS: list[tuple[str, float, float]] = []  # (interaction, epoch at the click, epoch at its end)


def _timed(page, action, done, what: str = "") -> float:
    began, epoch = time.perf_counter(), time.time()
    action()
    done()
    page.wait_for_timeout(150)  # a rerun starts within a few ms of the event; let it show its indicator
    _idle(page)
    WINDOWS.append((what, epoch, time.time()))
    return time.perf_counter() - began - 0.15


def server_times(runs_file: Path, windows: list[tuple[str, float, float]]) -> dict[str, dict[str, list[float]]]:
    """{interaction: {"wall": [...], "cpu": [...]}}: per timed interaction, the summed wall time and
    CPU time (the script's thread) of the page runs that ended inside its window."""
    runs = [json.loads(line) for line in runs_file.read_text().splitlines() if line.strip()] \
        if runs_file.exists() else []
    out: dict[str, dict[str, list[float]]] = {}
    for what, began, ended in windows:
        inside = [r for r in runs if began <= r["ended"] <= ended]
        if not inside:
            continue  # the click started no run (the browser alone answered it)
        times = out.setdefault(what, {"wall": [], "cpu": [], "runs": []})
        times["wall"].append(sum(r["seconds"] for r in inside))
        times["cpu"].append(sum(r["cpu"] for r in inside))
        times["runs"].append(len(inside))
    return out


def _overview(browser, url: str, runs: int) -> list[dict[str, float]]:
    out = []
    for _ in range(runs):
        page = browser.new_page(viewport={"width": 1400, "height": 1200})
        began = time.perf_counter()
        page.goto(f"{url}/?game={quote(BIG)}&view={quote('Whole graph')}")
        holder = page.locator(".gg-whole[data-drawn-ms]")
        holder.wait_for(timeout=PATIENCE)
        wall = time.perf_counter() - began
        out.append({"page": wall, **{name: int(holder.get_attribute(f"data-{name}-ms")) / 1000
                                     for name in ("drawn", "decode", "graph", "sigma")},
                    "nodes": int(holder.get_attribute("data-nodes")), "edges": int(holder.get_attribute("data-edges"))})
        page.close()
    return out


CANVAS = 'iframe[src*="streamlit_cytoscape"]'
# The page's tabs and the views a tab of several views chooses with its buttons (explorer/ui/app.py, GROUPS),
# each with what shows that it is drawn: a CSS selector, or a text.
TABS = (("Play", "css=.st-key-play_board svg"), ("History", "Clear history"), ("Analysis", "Positions by value"),
        ("Cypher console", "Cypher console"), ("Downloads", "The whole game"), ("Graph", "canvas"))
VIEWS = (("Graph", (("Best line", "Move 0 of"), ("Cycles", "Answered by"), ("Whole graph", "css=.gg-whole[data-drawn-ms]"),
                    ("Neighbourhood", "canvas"))),
         ("Analysis", (("Strategy chart", "Rows: the mover"), ("Draw map", "Drawing core"),
                       ("Compare rules", "Compare with"), ("Statistics", "Positions by value"))))
SWITCHES = (("tictactoe", "tictactoe"), ("dodgem", "dodgem:3x3"), ("chopsticks", "chopsticks:standard"))

_FOCUS = "() => { const cy = document.getElementById('cy')?._cyreg?.cy; if (!cy || !cy.nodes().length) return null;" \
         " const f = cy.nodes().filter(n => n.data('_focus')); return f.length ? f[0].id() : cy.nodes()[0].id(); }"


def _canvas_focus(page) -> str | None:
    """The id of the focus node on the page's canvas, None while there is no drawn canvas."""
    try:
        handle = page.locator(CANVAS).first.element_handle(timeout=500)
        frame = handle.content_frame() if handle else None
        return frame.evaluate(_FOCUS) if frame else None
    except Exception:  # noqa: BLE001 - the frame went away while read (a new canvas replaces it)
        return None


def _canvas_drawn(page, other_than: str | None = None) -> None:
    """Until a canvas is drawn whose focus is not `other_than` (the canvas before the click)."""
    deadline = time.monotonic() + PATIENCE / 1000
    while time.monotonic() < deadline:
        focus = _canvas_focus(page)
        if focus is not None and focus != other_than:
            return
        time.sleep(0.03)
    raise TimeoutError("no canvas was drawn")


def _shown(page, sign: str) -> None:
    """Until the open tab shows `sign`: "canvas" (a drawn canvas), css=SELECTOR, or a text."""
    if sign == "canvas":
        _canvas_drawn(page)
    elif sign.startswith("css="):
        page.locator(f"[role=tabpanel] {sign[4:]}").first.wait_for(timeout=PATIENCE)
    else:
        page.get_by_text(sign).first.wait_for(timeout=PATIENCE)


def _view_button(page, name: str):
    return page.get_by_role("radio", name=name).or_(
        page.locator("[data-testid=stButtonGroup] button").filter(has_text=name)).first


def _session(browser, url: str, rounds: int) -> dict[str, list[float]]:
    """Click to rendered, in a 1,440 x 900 window: a game chosen in the sidebar (rendered: its title and its
    canvas drawn around its start), each tab, each view of the Graph and Analysis tabs, a move played."""
    times: dict[str, list[float]] = {"switch game (first in the server)": [], "switch game": [],
                                     "switch tab": [], "choose a view": [], "play a move": []}
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(f"{url}/?game={quote(SMALL)}")
    _canvas_drawn(page)
    _idle(page)
    seen = {SMALL}
    for _ in range(rounds):
        for name, title in SWITCHES:
            before = _canvas_focus(page)
            picker = page.locator("[data-testid=stSidebar] [data-testid=stSelectbox]").first
            picker.click()
            option = page.get_by_role("option", name=name, exact=True)
            option.wait_for(timeout=PATIENCE)
            kind = "switch game" if title in seen else "switch game (first in the server)"
            seen.add(title)
            times[kind].append(_timed(
                page, option.click,
                lambda: (page.locator("h1").filter(has_text=title).first.wait_for(timeout=PATIENCE),
                         _canvas_drawn(page, before)), kind))
    for _ in range(rounds):
        for tab, sign in TABS:
            times["switch tab"].append(_timed(page, lambda: page.get_by_role("tab", name=tab).click(),
                                              lambda: _shown(page, sign), "switch tab"))
        for tab, views in VIEWS:
            page.get_by_role("tab", name=tab).click()
            page.wait_for_timeout(150)
            _idle(page)
            for view, sign in views:
                times["choose a view"].append(_timed(page, lambda: _view_button(page, view).click(),
                                                     lambda: _shown(page, sign), "choose a view"))
    page.goto(f"{url}/?game={quote(SMALL)}&view=Play&side=A&opp=perfect")
    links = page.locator(".st-key-play_board .gg-diagram a[data-move]")
    links.first.wait_for(timeout=PATIENCE)
    _idle(page)
    for _ in range(rounds):
        if page.get_by_text("Game over").count():
            break
        before = page.url
        links.first.wait_for(timeout=PATIENCE)
        times["play a move"].append(_timed(
            page, lambda: links.first.click(),
            lambda: page.wait_for_function(f"() => location.href !== {before!r}", timeout=PATIENCE),
            "play a move"))
    page.close()
    return times


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def table(overview: list[dict[str, float]], session: dict[str, list[float]],
          server: dict[str, dict[str, list[float]]]) -> str:
    one, five, fifteen = os.getloadavg()
    lines = [
        f"`python -m bench.bench_ui` on {os.cpu_count()} CPUs, Python {platform.python_version()}, Chromium "
        f"headless with software WebGL (`--disable-gpu`), 1,440 x 900; load average {one:.2f} / {five:.2f} / "
        f"{fifteen:.2f} at the end (1 / 5 / 15 min; the machine was shared: figures are noisy).",
        "",
    ]
    if overview:
        lines += [
            f"The overview of {BIG} ({overview[0]['nodes']:,} positions, {overview[0]['edges']:,} moves drawn: one "
            f"best move each), {len(overview)} fresh pages; seconds (median, worst):",
            "",
            "| drawn (data in → first frame) | of which decode | graph | sigma set-up | page (navigation → drawn) |",
            "|---:|---:|---:|---:|---:|",
            "| " + " | ".join(f"{statistics.median(r[k] for r in overview):.2f} ({max(r[k] for r in overview):.2f})"
                            for k in ("drawn", "decode", "graph", "sigma", "page")) + " |",
            "",
        ]
    lines += [
        f"Click to rendered, one scripted session from {SMALL}; seconds from the click to the page drawn and "
        "its run ended: a game chosen in the sidebar (its title and its canvas drawn around its start; "
        f"{', '.join(title for _, title in SWITCHES)} in turn, the first visit of each in the server apart), "
        "each tab, each view of the Graph and Analysis tabs, a move on the Play board:",
        "",
        "| interaction | n | p50 | p95 | max |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, values in session.items():
        if values:
            lines.append(f"| {name} | {len(values)} | {_quantile(values, 0.5):.2f} | {_quantile(values, 0.95):.2f} "
                         f"| {max(values):.2f} |")
    lines += [
        "",
        "The same interactions, server time: the wall time of the page runs each one started (summed; "
        "runs = how many), and the CPU time of the script's thread in them; seconds:",
        "",
        "| interaction | n | runs | wall p50 | wall p95 | wall max | CPU p50 | CPU p95 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, times in server.items():
        if times["wall"]:
            wall, cpu = times["wall"], times["cpu"]
            lines.append(f"| {name} | {len(wall)} | {sum(times['runs'])} | {_quantile(wall, 0.5):.2f} | "
                         f"{_quantile(wall, 0.95):.2f} | {max(wall):.2f} | {_quantile(cpu, 0.5):.3f} | "
                         f"{_quantile(cpu, 0.95):.3f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--overview", type=int, default=0, metavar="RUNS",
                        help=f"fresh pages of the overview of {BIG} (0, the default: not measured; its game "
                             "takes minutes to build)")
    parser.add_argument("--rounds", type=int, default=3, help="repetitions of each interaction")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    parser.add_argument("--game", default=SESSION_GAME, help="the game the session starts on")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.overview < 0:
        parser.error("--rounds must be at least 1 and --overview at least 0")
    global SMALL
    SMALL = args.game
    from playwright.sync_api import sync_playwright

    home = tempfile.mkdtemp(prefix="gamegraph-bench-ui-")
    # No file watcher: an edit elsewhere in the tree must not rerun the page in the middle of a timing.
    env = {**os.environ, "GAMEGRAPH_HOME": home, "GAMEGRAPH_PROGRESS": "0", "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
           "GAMEGRAPH_UI_RUN_TIMES": "1"}  # the page logs each run's server time (explorer/ui/app.py)
    built = [SMALL, *(title for _, title in SWITCHES), *([BIG] if args.overview else [])]
    subprocess.run([sys.executable, "-c", "import sys; from explorer.solved import load_or_build; "
                    "[load_or_build(spec) for spec in sys.argv[1:]]", *built], cwd=ROOT, env=env, check=True)
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "explorer.cli", "ui", "--port", str(port), "--headless"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    overview: list[dict[str, float]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            warm = browser.new_page()
            for _ in range(120):  # the server is still starting
                try:
                    warm.goto(f"{url}/?game={quote(SMALL)}", timeout=PATIENCE)
                    break
                except Exception:  # noqa: BLE001
                    time.sleep(1)
            warm.locator("[data-testid=stTab]").first.wait_for(timeout=PATIENCE)
            _idle(warm)
            warm.close()
            if args.overview:
                overview = _overview(browser, url, args.overview)
            session = _session(browser, url, args.rounds)
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        server_side = server_times(Path(home) / "ui-runs.jsonl", WINDOWS)
        shutil.rmtree(home, ignore_errors=True)  # the scratch state folder: its graphs, mirrors and runs' log
    publish("bench_ui", HEADING, table(overview, session, server_side), write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
