"""The explorer in Chromium: how fast the whole-graph overview draws, and how long each UI interaction takes.

Starts `gamegraph ui` on a free port with a scratch state folder, warms it (the
games are built and cached before any timing), then drives Chromium through
Playwright:

- the overview: `?game=chopsticks(fingers=20)&view=Whole graph` (84,288 positions) opened --runs
  times in a fresh page; "drawn" is the browser's own time from the data's arrival in the
  component to sigma's first frame (decode, graph, WebGL set-up: the component writes them on
  its element), "page" the wall time from navigation to the drawing;
- UI interactions on chopsticks:standard, a scripted session: click a position on the overview,
  switch tab (History, Statistics, Whole graph in turn), play a move on the Play board. Each is
  timed from the click to the end of the run it starts (Streamlit's running indicator gone and
  the page showing the new state): the server's work plus a local round trip and the browser's
  render, so an upper bound of the server time. Beside it, the server time itself: the server runs
  with GAMEGRAPH_UI_RUN_TIMES=1, so the page logs each script run's wall and CPU time
  (explorer/ui/app.py, `measured`), and an interaction's server time is the sum over the runs
  that ended between its click and its end (a move on the Play board is two runs: the click's,
  then the rerun that shows the move).

    python -m bench.bench_ui                 # table into bench/README.md
    python -m bench.bench_ui --no-write --runs 2

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
PATIENCE = 300_000


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


def _session(browser, url: str, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"click a node": [], "switch tab": [], "play a move": []}
    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    page.goto(f"{url}/?game={quote(SMALL)}&view={quote('Whole graph')}")
    holder = page.locator(".gg-whole[data-drawn-ms]")
    holder.wait_for(timeout=PATIENCE)
    _idle(page)
    count = int(holder.get_attribute("data-nodes"))
    for i in range(rounds):
        target = (i * 37 + 11) % count
        holder.scroll_into_view_if_needed()
        x, y = holder.evaluate("(e, id) => { const v = e.__ggView; const p = v.renderer.graphToViewport("
                               "v.graph.getNodeAttributes(id)); const r = e.querySelector('.gg-whole-canvas')"
                               ".getBoundingClientRect(); return [r.left + p.x, r.top + p.y]; }", target)
        before = holder.get_attribute("data-here")
        if before == str(target):
            continue
        times["click a node"].append(_timed(   # done when the page has opened it: the mark moved there
            page, lambda: page.mouse.click(x, y),
            lambda: page.wait_for_selector(f'.gg-whole:not([data-here="{before}"])', timeout=PATIENCE),
            "click a node"))
    for i in range(rounds):
        for tab, sign in (("History", "Back"), ("Statistics", "Positions by value"), ("Whole graph", "Moves drawn")):
            times["switch tab"].append(_timed(
                page, lambda: page.get_by_role("tab", name=tab).click(),
                lambda: page.get_by_text(sign).first.wait_for(timeout=PATIENCE), "switch tab"))
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
    load = os.getloadavg()[0]
    lines = [
        f"`python -m bench.bench_ui` on {os.cpu_count()} CPUs, Python {platform.python_version()}, Chromium "
        f"headless with software WebGL (`--disable-gpu`); load average {load:.1f} at the end (the machine was "
        "shared: figures are noisy).",
        "",
        f"The overview of {BIG} ({overview[0]['nodes']:,} positions, {overview[0]['edges']:,} moves drawn: one "
        f"best move each), {len(overview)} fresh pages; seconds (median, worst):",
        "",
        "| drawn (data in → first frame) | of which decode | graph | sigma set-up | page (navigation → drawn) |",
        "|---:|---:|---:|---:|---:|",
        "| " + " | ".join(f"{statistics.median(r[k] for r in overview):.2f} ({max(r[k] for r in overview):.2f})"
                        for k in ("drawn", "decode", "graph", "sigma", "page")) + " |",
        "",
        f"UI interactions on {SMALL}, one scripted session; seconds from the click to the end of the run it "
        "starts (server work + local round trip + render: an upper bound of the server time):",
        "",
        "| interaction | n | p50 | p95 | max |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, values in session.items():
        if values:
            lines.append(f"| {name} | {len(values)} | {_quantile(values, 0.5):.2f} | {_quantile(values, 0.95):.2f} "
                         f"| {max(values):.2f} |")
    every = [v for values in session.values() for v in values]
    lines.append(f"| all | {len(every)} | {_quantile(every, 0.5):.2f} | {_quantile(every, 0.95):.2f} | "
                 f"{max(every):.2f} |")
    lines += [
        "",
        "The same interactions, server time: the wall time of the page runs each one started (summed; "
        "runs = how many), and the CPU time of the script's thread in them; seconds. The target is "
        "p95 under 0.5 s of wall time on a quiet machine; on a loaded one the wall time is mostly "
        "waiting for a core, and the CPU time is what the page costs:",
        "",
        "| interaction | n | runs | wall p50 | wall p95 | wall max | CPU p50 | CPU p95 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, times in [*server.items(), ("all", {k: [v for t in server.values() for v in t[k]]
                                                  for k in ("wall", "cpu", "runs")})]:
        if times["wall"]:
            wall, cpu = times["wall"], times["cpu"]
            lines.append(f"| {name} | {len(wall)} | {sum(times['runs'])} | {_quantile(wall, 0.5):.2f} | "
                         f"{_quantile(wall, 0.95):.2f} | {max(wall):.2f} | {_quantile(cpu, 0.5):.3f} | "
                         f"{_quantile(cpu, 0.95):.3f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh pages of the big overview")
    parser.add_argument("--rounds", type=int, default=8, help="repetitions of each interaction")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    parser.add_argument("--game", default=SESSION_GAME, help="the game of the scripted session")
    args = parser.parse_args(argv)
    global SMALL
    SMALL = args.game
    from playwright.sync_api import sync_playwright

    home = tempfile.mkdtemp(prefix="gamegraph-bench-ui-")
    # No file watcher: an edit elsewhere in the tree must not rerun the page in the middle of a timing.
    env = {**os.environ, "GAMEGRAPH_HOME": home, "GAMEGRAPH_PROGRESS": "0", "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
           "GAMEGRAPH_UI_RUN_TIMES": "1"}  # the page logs each run's server time (explorer/ui/app.py)
    subprocess.run([sys.executable, "-c", f"from explorer.solved import load_or_build; load_or_build({BIG!r}); "
                    f"load_or_build({SMALL!r})"], cwd=ROOT, env=env, check=True)
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "explorer.cli", "ui", "--port", str(port), "--headless"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            warm = browser.new_page()
            for query in (f"game={quote(BIG)}&view={quote('Whole graph')}", f"game={quote(SMALL)}&view=Play",
                          f"game={quote(SMALL)}&view=Statistics"):  # builds mirrors and caches, untimed
                for _ in range(120):
                    try:
                        warm.goto(f"{url}/?{query}", timeout=PATIENCE)
                        break
                    except Exception:  # noqa: BLE001 - the server is still starting
                        time.sleep(1)
                warm.locator("[data-testid=stTab]").first.wait_for(timeout=PATIENCE)
                _idle(warm)
            warm.close()
            overview = _overview(browser, url, args.runs)
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
