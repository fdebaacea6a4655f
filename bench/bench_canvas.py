"""The interactive graph canvas: server time to expand a node, and time-to-interactive in Chromium.

1. **Expanding a node** (server time): `explorer.ui.canvas.expand` on a canvas started at a
   game's first position (k=2), for --expansions nodes of each game, over the networkx mirror
   (the neighbourhood query with k=1, plus the canvas's own element building). Median and max.
2. **Time-to-interactive for ~2,000 nodes** in Chromium: the page's Neighbourhood tab is served
   (`gamegraph ui`) for chopsticks(fingers=8) at k=10, which the canvas cuts to its 2,000 nearest positions.
   Measured inside the component's frame, from the moment the elements are handed to
   Cytoscape.js (`cy.json`, as the component does when the data arrive) to the first frame
   drawn after the layout (preset positions) has run; then the time of one zoom step to its
   drawn frame (is it interactive?). Median of --runs runs. The end-to-end time from opening
   the URL to the nodes being on the canvas (server, network and all) is printed beside it, and
   the CPU time of the page's main thread over the drawing and the zoom step (Chrome's ThreadTime;
   until 2026-11-26 evening its TaskDuration, the tasks' wall time) beside the wall times: on a
   loaded machine wall time is mostly waiting for a core. Server times give CPU time beside wall.

3. **Click to rendered** (`--clicks N`, issue 35): in Chromium at 1440 x 900, on the Neighbourhood tab of
   small and large canvases, the wall time from the user's action to its result drawn, N times each:
   a click on a node until the info panel shows it, a double-click until what it brought is drawn (the
   frame that adds its nodes) and until it is still (the nodes' glide out of the expanded one ends), a
   layout chosen until the first frame that moves a node and until the nodes are still in their new
   places, and a colouring chosen ("Colour by") until the first frame with the new fills; on a grouped canvas
   (tic-tac-toe at k=4, its clusters), a double-click on a cluster until its positions are drawn in its place,
   one on a position drawn as itself until what it adds is drawn, "Collapse what it expanded" on that position
   until it is taken off again, and another layout until the first frame that moves a node (each also until the
   answer settled and still). p50 and p95 (the goal: p95 <= 250 ms up to 2,000 nodes), with the load average beside them,
   and for each "drawn" or "moving" also the time in the page (from the press's own timeStamp to the frame after the
   first that shows it, `_ARM`: without Playwright's round trips, 100-190 ms of a wall time). Its own section of bench/README.md.

    python -m bench.bench_canvas            # table into bench/README.md
    python -m bench.bench_canvas --no-write
    python -m bench.bench_canvas --clicks 5 # click to rendered, its own section
    BENCH_CANVASES="tictactoe chopsticks:standard" python -m bench.bench_canvas --clicks 5  # only those canvases
    BENCH_GROUPED=0 python -m bench.bench_canvas --clicks 5  # not the grouped canvas (an A/B of the plain ones)

Not a test: timings depend on the machine's load (printed with the table).
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench.readme import publish
from tests.support.browser import open_choice  # (one home: the browser tests open their boxes with it too)

HEADING = "Interactive canvas (`bench_canvas.py`)"
ROOT = Path(__file__).resolve().parents[1]
GAMES = ("chopsticks:standard", "tictactoe", "dodgem", "toads-and-frogs")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
BIG = ("chopsticks(fingers=8)", 10)  # 2,234 positions, all within 10 moves: more than the canvas's 2,000


def _click_option(page, option) -> float:
    """Clicks an open select box's `option` with the mouse where it is drawn, as a user would, and returns the
    moment the click began (perf_counter): the option is found and still before, so the time measured from then
    is the page's alone (a locator's click first waits for the list to stop moving, 100-300 ms at load 5-9, which
    the figures before 2026-11-29 10:00 UTC counted)."""
    option.wait_for()
    time.sleep(0.3)  # the list's opening ends
    box = option.bounding_box()
    began = time.perf_counter()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return began


def expansion_times(expansions: int) -> list[tuple[str, float, float, int, float]]:
    """(game, median ms, max ms, expansions, median CPU ms) of canvas.expand over the mirror."""
    import numpy as np

    from explorer.solved import load_or_build
    from explorer.ui import canvas
    from explorer.ui.backend import Backend
    from loaders.mirror import mirror_for
    from queries.api import NetworkxBackend

    rows = []
    for spec in GAMES:
        solved = load_or_build(spec)
        game = solved.game
        backend = Backend("networkx", "networkx mirror",
                          queries=NetworkxBackend(mirror_for(spec)))
        start_key = solved.graph.key(0)
        rng = np.random.default_rng(0)
        times, cpu = [], []
        for _ in range(expansions):
            grown = canvas.start(game, solved, backend, start_key, 2, "both", False, (), 0)
            key = list(grown.nodes)[int(rng.integers(len(grown.nodes)))]
            began, began_cpu = time.perf_counter(), time.process_time()
            canvas.expand(grown, game, solved, backend, key, "both", False, start_key)
            times.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - began_cpu) * 1000)
        rows.append((spec, statistics.median(times), max(times), expansions, statistics.median(cpu)))
    return rows


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(home: str) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    # No file watcher: other work editing the tree made Streamlit show "File change. Rerun" in its status
    # widget, which the clicks' "run over" wait took for a run that never ended (five minutes, then a timeout).
    env = {**os.environ, "GAMEGRAPH_HOME": home, "GAMEGRAPH_PROGRESS": "0", "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"}
    proc = subprocess.Popen([sys.executable, "-m", "explorer.cli", "ui", "--port", str(port), "--headless"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return proc, url
        except OSError:
            time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGTERM)
    raise SystemExit(f"the explorer did not answer at {url}")


# Inside the component's frame: take the elements off the canvas (kept aside, with their places), then
# hand them to Cytoscape.js again (as the component does when the data arrive), run the layout, and wait
# for the frame drawn after it; then one zoom step. Two calls, so that the main thread's CPU time can be
# read around the second alone.
_PREPARE = """async () => {
  const cy = document.getElementById('cy')._cyreg.cy;
  const positions = {};
  cy.nodes().forEach(n => { positions[n.id()] = {...n.position()}; });
  window.__benchCanvas = {elements: cy.json().elements, positions: positions};
  cy.elements().remove();
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""
_MEASURE = """async () => {
  const cy = document.getElementById('cy')._cyreg.cy;
  const {elements, positions} = window.__benchCanvas;
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const t0 = performance.now();
  cy.json({elements: elements});
  cy.layout({name: 'preset', positions: positions, fit: true, animate: false}).run();
  await frame();
  const drawn = performance.now() - t0;
  const t1 = performance.now();
  cy.zoom({level: cy.zoom() * 1.25, renderedPosition: {x: cy.width() / 2, y: cy.height() / 2}});
  await frame();
  return [cy.nodes().length, cy.edges().length, drawn, performance.now() - t1];
}"""


def browser_times(runs: int) -> tuple[int, int, float, float, float, float]:
    """(nodes, edges, median ms to interactive, median ms of a zoom step, median s URL-to-nodes, median
    CPU ms of the page's main thread for the drawing and the zoom step: Chrome's ThreadTime)."""
    from playwright.sync_api import Error as PlaywrightError, sync_playwright

    home = tempfile.mkdtemp(prefix="bench-canvas-")
    proc, url = _serve(home)
    game, k = BIG
    page_url = f"{url}/?game={game}&view=Neighbourhood&group=off"  # (the canvas itself, not its clusters)
    drawn, zooms, end_to_end, cpu, counts = [], [], [], [], (0, 0)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1300})
            page.set_default_timeout(300_000)  # a loaded machine: the page's runs take minutes
            cdp = page.context.new_cdp_session(page)  # the component's frame runs in the page's process
            cdp.send("Performance.enable")

            def thread_seconds() -> float:  # the CPU time of the page's main thread (Chrome's ThreadTime)
                return next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]
                            if m["name"] == "ThreadTime")
            page.goto(page_url, wait_until="domcontentloaded")  # the game is solved and its mirror made once, here
            page.get_by_text("on the canvas").first.wait_for(timeout=300_000)
            box = page.locator('input[aria-label^="k ("]').first
            for _ in range(runs):
                box.fill("2")
                box.press("Enter")
                page.get_by_text("within 2 of", exact=False).first.wait_for(timeout=300_000)
                time.sleep(1.0)
                began = time.perf_counter()
                box.fill(str(k))
                box.press("Enter")
                page.get_by_text("more than 2000 positions", exact=False).first.wait_for(timeout=300_000)
                # A new k is a new canvas (a new component, so a new frame): the old frame may still be
                # there for a moment, and goes away while it is read; read the page's frame again then.
                while True:
                    frame_element = page.locator('iframe[src*="streamlit_cytoscape"]').first
                    frame_element.wait_for(timeout=300_000)
                    frame = frame_element.element_handle().content_frame()
                    try:
                        if frame is not None:
                            frame.wait_for_function("() => document.getElementById('cy')?._cyreg?.cy?.nodes().length"
                                                    " >= 2000", timeout=300_000, polling=50)
                            break
                    except PlaywrightError as error:
                        if "detached" not in str(error):
                            raise
                    time.sleep(0.05)
                end_to_end.append(time.perf_counter() - began)
                time.sleep(2.0)  # the first layout's animation ends
                frame.evaluate(_PREPARE)
                before_cpu = thread_seconds()
                nodes, edges, ms, zoom_ms = frame.evaluate(_MEASURE)
                cpu.append((thread_seconds() - before_cpu) * 1000)
                counts = (nodes, edges)
                drawn.append(ms)
                zooms.append(zoom_ms)
            browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    return (counts[0], counts[1], statistics.median(drawn), statistics.median(zooms), statistics.median(end_to_end),
            statistics.median(cpu))


CLICK_HEADING = "Canvas: click to rendered (`bench_canvas.py --clicks`)"
CLICK_CANVASES = tuple(c for c in (("tictactoe", 2), ("chopsticks:standard", 3), BIG) if c[0] in os.environ.get("BENCH_CANVASES", c[0]))
_STILL = """() => new Promise(done => {  // resolves when nothing moves for 3 frames in a row (layouts, animations)
    const cy = document.getElementById('cy')._cyreg.cy; let last = '', same = 0;
    const look = () => { const p = cy.pan(); const sig = [p.x, p.y, cy.zoom(), cy.animated(),
        ...cy.nodes().slice(0, 300).map(n => n.position('x') + ',' + n.position('y'))].join(';');
        same = sig === last && !cy.animated() ? same + 1 : 0; last = sig;
        if (same >= 3) done(performance.now()); else requestAnimationFrame(look); };
    requestAnimationFrame(look); })"""

# The result on screen: an expansion's new nodes added (checked at each animation frame, so at the frame
# that draws them); a layout's first frame that has moved a node from where it was (`_MARK` keeps them).
_DRAWN = "() => document.getElementById('cy')._cyreg.cy.nodes().length > COUNT"
_SELECTED = """(key) => { const cy = document.getElementById('cy')._cyreg.cy; const s = cy.$('node:selected');
    const p = document.getElementById('infopanelLabel'); return s.length === 1 && s[0].id() === key && !!p
    && p.textContent.trim().length > 0; }"""
_MARK = """() => { const cy = document.getElementById('cy')._cyreg.cy;
    window.__benchPlaces = cy.nodes().map(n => [n.id(), n.position('x'), n.position('y')]); }"""
_MOVED = """() => { const cy = document.getElementById('cy')._cyreg.cy;
    return window.__benchPlaces.some(([id, x, y]) => { const n = cy.getElementById(id);
        return n.length && (Math.abs(n.position('x') - x) > 1 || Math.abs(n.position('y') - y) > 1); }); }"""
_FILLS = "() => document.getElementById('cy')._cyreg.cy.nodes().map(n => n.style('background-color')).join(';')"

# In the page (issue 35, 2026-11-29 23:00): the wall times above run from the Python side's first mouse event to
# Playwright's answer that the result is there, and so count Playwright's round trips (the pointer's move, press and
# release each wait for the page's answer; the check's result comes back the same way): 100-190 ms of a layout switch
# whose page work took 50-70 ms. Measured in the page as well: from the press's own time (the pointerdown event's
# timeStamp, as the browser stamped it, in the page's document or the canvas's frame) to the start of the frame after
# the first one that shows the result (that frame drawn, a frame's work later than the check that saw it). `check`
# is the same test as the wall time's, run at every frame; it gives up after a minute.
_ARM = """([check, arg]) => {
    const test = new Function('return (' + check + ')')(), clock = {down: null, drawn: null};
    window.__benchClock = clock;
    const down = e => { if (clock.down === null) clock.down = e.view.performance.timeOrigin + e.timeStamp; };
    [document, window.parent.document].forEach(d => d.addEventListener('pointerdown', down, {capture: true, once: true}));
    const until = performance.now() + 60000;
    const look = () => {
        if (clock.down !== null && test(arg)) {
            requestAnimationFrame(() => { clock.drawn = performance.timeOrigin + performance.now(); });
            return;
        }
        if (performance.now() < until) requestAnimationFrame(look);
    };
    requestAnimationFrame(look); }"""


def _arm(frame, check: str, arg=None) -> None:
    """Starts the in-page clock (`_ARM`) in the canvas's frame before an action whose result `check` tests."""
    frame.evaluate(_ARM, [check, arg])


def _in_page(frame) -> float | None:
    """ms from the press to the frame after the first that showed the result (`_ARM`), or None if it was not seen."""
    try:
        frame.wait_for_function("() => window.__benchClock && window.__benchClock.drawn !== null", timeout=10_000)
        return frame.evaluate("() => window.__benchClock.drawn - window.__benchClock.down")
    except Exception:  # the frame was mounted anew before its clock was read: not counted
        return None


def _percentiles(values: list[float]) -> tuple[float, float]:
    """(p50, p95) of `values` (the p95 the nearest rank's)."""
    values = sorted(values)
    return statistics.median(values), values[min(len(values) - 1, math.ceil(0.95 * len(values)) - 1)]


def _rows(canvas: str, nodes: int, times: dict, inside: dict, names: dict | None = None) -> list[tuple]:
    """The table's rows: (canvas, nodes, interaction, p50, p95, runs, in-page p50 or None, in-page p95 or None)."""
    rows = []
    for name, values in times.items():
        if values:
            p50, p95 = _percentiles(values)
            in_page = _percentiles(inside[name]) if inside.get(name) else (None, None)
            rows.append((canvas, nodes, (names or {}).get(name, name), p50, p95, len(values), *in_page))
    return rows


def _note(inside: dict, name: str, frame) -> None:
    """The in-page time of the action just measured (`_in_page`), kept under `name` when it was seen."""
    ms = _in_page(frame)
    if ms is not None:
        inside.setdefault(name, []).append(ms)


def click_times(runs: int) -> list[tuple[str, int, str, float, float, int]]:
    """(canvas, nodes, interaction, p50 ms, p95 ms, runs) of click to rendered, in Chromium."""
    from playwright.sync_api import sync_playwright

    proc, url = _serve(os.environ["GAMEGRAPH_HOME"])  # main's: a home given in the environment keeps its games
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for spec, k in CLICK_CANVASES:
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                page.set_default_timeout(300_000)
                page.goto(f"{url}/?game={spec}&view=Neighbourhood&k={k}&group=off", wait_until="domcontentloaded")
                page.get_by_text("on the canvas").first.wait_for()
                page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
                times: dict[str, list[float]] = {"select (panel shown)": [], "expand (drawn)": [],
                                                 "expand (drawn, still)": [], "layout changed (moving)": [],
                                                 "layout changed (still)": [], "colour by changed (drawn)": []}
                nodes = 0
                inside: dict[str, list[float]] = {}
                for run in range(runs):
                    frame_element = page.locator('iframe[src*="streamlit_cytoscape"]').first
                    frame = frame_element.element_handle().content_frame()
                    frame.wait_for_function("() => document.getElementById('cy')?._cyreg?.cy?.nodes().length > 0")
                    # the whole canvas in the window, once it is drawn (a node below the window's edge took no click)
                    frame_element.evaluate("e => e.scrollIntoView({block: 'center'})")
                    frame.evaluate(_STILL)
                    nodes = frame.evaluate("() => document.getElementById('cy')._cyreg.cy.nodes().length")
                    key, x, y = frame.evaluate(
                        "() => { const cy = document.getElementById('cy')._cyreg.cy; const w = cy.width(), h = cy.height();"
                        # a node whose expansion adds something, where the page has the next ring (canvas/ahead.py)
                        " const el = window.parent.document.getElementById('gg-ahead');"
                        " const ring = el && el.textContent.length > 2 ? JSON.parse(el.textContent).ring : null;"
                        " const ok = cy.nodes().filter(n => !n.data('_focus') && n.renderedPosition().x > 120 && "
                        "n.renderedPosition().x < w - 80 && n.renderedPosition().y > 60 && n.renderedPosition().y < h - 60"
                        " && n.degree() < 6); const adds = n => !ring || (ring[n.id()] || {n: []}).n.length > 0;"
                        " const all = ok.filter(adds).toArray().concat(ok.filter(n => !adds(n)).toArray());"
                        " const n = all.length ? all[" + str(run) + " % all.length] : cy.nodes()[0];"
                        " const p = n.renderedPosition(); "
                        "return [n.id(), p.x, p.y]; }")
                    box = frame_element.bounding_box()
                    _arm(frame, _SELECTED, key)
                    began = time.perf_counter()
                    page.mouse.click(box["x"] + x, box["y"] + y)
                    try:
                        frame.wait_for_function(_SELECTED, arg=key, timeout=30_000)
                    except Exception:  # the click found no node (the view moved under it): this run is left out
                        print(f"{spec}: run {run + 1}: the click at {x:.0f}, {y:.0f} selected no node {key!r}; left out",
                              file=sys.stderr)
                        continue
                    times["select (panel shown)"].append((time.perf_counter() - began) * 1000)
                    _note(inside, "select (panel shown)", frame)
                    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
                    frame.evaluate(_STILL)
                    before = frame.evaluate("() => document.getElementById('cy')._cyreg.cy.nodes().length")
                    x, y = frame.evaluate("(key) => { const p = document.getElementById('cy')._cyreg.cy"
                                          ".getElementById(key).renderedPosition(); return [p.x, p.y]; }", key)
                    _arm(frame, _DRAWN.replace("COUNT", str(before)))
                    began = time.perf_counter()
                    page.mouse.dblclick(box["x"] + x, box["y"] + y)
                    try:
                        frame.wait_for_function(_DRAWN.replace("COUNT", str(before)), timeout=60_000, polling="raf")
                        times["expand (drawn)"].append((time.perf_counter() - began) * 1000)
                        _note(inside, "expand (drawn)", frame)
                        # still: the server's answer has come (an expansion drawn ahead is settled by it) and
                        # nothing moves
                        frame.wait_for_function("() => !document.getElementById('cy')._cyreg.cy.__ggAhead",
                                                timeout=60_000, polling="raf")
                        frame.evaluate(_STILL)
                        times["expand (drawn, still)"].append((time.perf_counter() - began) * 1000)
                    except Exception:  # a node with nothing new to bring (or a full canvas): not counted
                        pass
                    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
                    # the other layout than the box shows (not by the run's parity: a run left out above kept the
                    # last one, and choosing the layout already drawn moves nothing, which waited out the timeout)
                    shown = page.get_by_label("Layout", exact=False).first.input_value()
                    layout = ("layered by remoteness" if shown == "concentric around the focus"
                              else "concentric around the focus")
                    option = open_choice(page, "Layout", page.get_by_role("option", name=layout))
                    frame.evaluate(_MARK)
                    _arm(frame, _MOVED)
                    began = _click_option(page, option)
                    frame.wait_for_function(_MOVED, timeout=60_000, polling="raf")
                    times["layout changed (moving)"].append((time.perf_counter() - began) * 1000)
                    _note(inside, "layout changed (moving)", frame)
                    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
                    frame_element = page.locator('iframe[src*="streamlit_cytoscape"]').first
                    frame = frame_element.element_handle().content_frame()
                    time.sleep(0.05)
                    frame.evaluate(_STILL)
                    times["layout changed (still)"].append((time.perf_counter() - began) * 1000)
                    # Colour by: from the option's click to the first frame whose nodes have the new fills
                    shown = page.get_by_label("Colour by", exact=False).first.input_value()
                    colouring = "value" if shown == "remoteness" else "remoteness"
                    option = open_choice(page, "Colour by", page.get_by_role("option", name=colouring, exact=True))
                    frame_element = page.locator('iframe[src*="streamlit_cytoscape"]').first
                    frame = frame_element.element_handle().content_frame()  # (read before the click: not timed)
                    fills = frame.evaluate(_FILLS)
                    _arm(frame, f"(fills) => ({_FILLS})() !== fills", fills)
                    began = _click_option(page, option)
                    frame.wait_for_function(f"(fills) => ({_FILLS})() !== fills", arg=fills, timeout=60_000, polling="raf")
                    times["colour by changed (drawn)"].append((time.perf_counter() - began) * 1000)
                    _note(inside, "colour by changed (drawn)", frame)
                    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
                rows += _rows(f"{spec} k={k}", nodes, times, inside)
                page.close()
            for spec, k, opened in GROUPED_CANVASES:
                rows += _grouped_clicks(browser, url, spec, k, opened, runs)
            browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    return rows


# A grouped canvas (canvas/clusters.py, opened by default past 150 positions, or from k=3 past 60): a double-click
# on a cluster opens it, one on a position drawn as itself expands it; both from the rings sent ahead
# (canvas/ahead.py grouped_ahead) when the server made them within its time limit, else by the round trip.
GROUPED_CANVASES = tuple(c for c in (("tictactoe", 4, '["v win 5 X"]'),)
                         if c[0] in os.environ.get("BENCH_CANVASES", c[0]) and os.environ.get("BENCH_GROUPED") != "0")
_AHEAD = "JSON.parse(window.parent.document.getElementById('gg-ahead').textContent)"
_PICK = """([clusters, run]) => { const cy = document.getElementById('cy')._cyreg.cy; const w = cy.width(), h = cy.height();
    let d = null; try { d = AHEAD; } catch (e) { d = null; }
    const ok = cy.nodes().filter(n => !n.data('_focus') && !!n.data('_cluster') === clusters && n.renderedPosition().x > 120
        && n.renderedPosition().x < w - 80 && n.renderedPosition().y > 60 && n.renderedPosition().y < h - 60);
    const adds = n => d && d.ring && (d.ring[n.id()] || {n: []}).n.length > 0;
    const all = ok.filter(adds).length ? ok.filter(adds).toArray() : ok.toArray();
    if (!all.length) return null; const n = all[run % all.length]; const p = n.renderedPosition();
    return [n.id(), p.x, p.y, adds(n)]; }""".replace("AHEAD", _AHEAD)
# what is drawn: the nodes not hidden by an opening shown ahead (class gg-gone)
_SHOWN = "() => document.getElementById('cy')._cyreg.cy.nodes().not('.gg-gone').map(n => n.id()).join('\\n')"
_ANSWERED = """() => { const cy = document.getElementById('cy')._cyreg.cy;
    return !cy.__ggAhead && cy.elements('.gg-ahead, .gg-gone').length === 0; }"""


def _drawn_canvas(page, patience: float = 300.0):
    """The canvas's iframe and frame once its graph is drawn. Streamlit may mount the component's iframe again
    while a run ends (a rerun that redraws the fragment), and a wait on the first iframe's frame then waits on a
    detached frame for good (it did, at 19:33 on 2026-11-29, for 300 s): so the iframe is looked up afresh until
    one holds a drawn canvas."""
    deadline = time.monotonic() + patience
    while True:
        frame_element = page.locator('iframe[src*="streamlit_cytoscape"]').first
        try:
            frame = frame_element.element_handle(timeout=10_000).content_frame()
            frame.wait_for_function("() => document.getElementById('cy')?._cyreg?.cy?.scratch('_gg') === true",
                                    timeout=10_000)
            return frame_element, frame
        except Exception:  # a detached frame or a slow draw: look again, until the patience runs out
            if time.monotonic() > deadline:
                raise


def _grouped_clicks(browser, url: str, spec: str, k: int, opened: str, runs: int) -> list[tuple]:
    """Click to rendered on a grouped canvas, `runs` times from a fresh page each: a double-click on a cluster until
    its positions are drawn in its place (and until the server's answer has settled them and nothing moves), then one
    on a position drawn as itself (of the clusters the link opens) until what it adds is drawn (and still)."""
    from urllib.parse import quote

    times: dict[str, list[float]] = {"open a cluster (drawn)": [], "open a cluster (drawn, still)": [],
                                     "expand, grouped (drawn)": [], "expand, grouped (drawn, still)": [],
                                     "collapse, grouped (drawn)": [], "collapse, grouped (drawn, still)": [],
                                     "layout changed, grouped (moving)": [], "layout changed, grouped (still)": []}
    ahead = {"open a cluster (drawn)": 0, "expand, grouped (drawn)": 0, "collapse, grouped (drawn)": 0,
             "layout changed, grouped (moving)": 0}
    nodes = 0
    inside: dict[str, list[float]] = {}
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.set_default_timeout(300_000)
    for run in range(runs):
        page.goto(f"{url}/?game={spec}&view=Neighbourhood&k={k}&open={quote(opened)}", wait_until="domcontentloaded")
        page.get_by_text("on the canvas").first.wait_for()
        page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
        frame_element, frame = _drawn_canvas(page)
        frame_element.evaluate("e => e.scrollIntoView({block: 'center'})")
        for what, clusters in (("open a cluster", True), ("expand, grouped", False)):
            try:  # (the ring of the canvas as drawn: after an opening, the answer's)
                frame.wait_for_function(f"() => {{ const cy = document.getElementById('cy')._cyreg.cy; try {{ const d = {_AHEAD};"
                                        " return d.grouped && d.count[0] === cy.nodes().length; } catch (e) { return false; } }",
                                        timeout=60_000)
            except Exception:
                print(f"{spec}: run {run + 1}: no ring came for the canvas drawn", file=sys.stderr)
            frame.evaluate(_STILL)
            nodes = max(nodes, frame.evaluate("() => document.getElementById('cy')._cyreg.cy.nodes().length"))
            picked = frame.evaluate(_PICK, [clusters, run])
            if picked is None:
                print(f"{spec}: run {run + 1}: no {'cluster' if clusters else 'position'} in sight; left out",
                      file=sys.stderr)
                continue
            key, x, y, was_ahead = picked
            shown = frame.evaluate(_SHOWN)
            box = frame_element.bounding_box()
            _arm(frame, f"(shown) => ({_SHOWN})() !== shown", shown)
            began = time.perf_counter()
            page.mouse.dblclick(box["x"] + x, box["y"] + y)
            try:
                frame.wait_for_function(f"(shown) => ({_SHOWN})() !== shown", arg=shown, timeout=60_000, polling="raf")
            except Exception:
                print(f"{spec}: run {run + 1}: the double-click on {key!r} changed nothing; left out", file=sys.stderr)
                continue
            times[f"{what} (drawn)"].append((time.perf_counter() - began) * 1000)
            _note(inside, f"{what} (drawn)", frame)
            ahead[f"{what} (drawn)"] += bool(was_ahead)
            frame.wait_for_function(_ANSWERED, timeout=60_000, polling="raf")
            page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
            frame.evaluate(_STILL)
            times[f"{what} (drawn, still)"].append((time.perf_counter() - began) * 1000)
            if not clusters:  # the position just expanded, collapsed again ("Collapse what it expanded")
                _grouped_collapse(page, frame_element, frame, key, run, times, ahead, inside)
        _grouped_layout(page, frame, times, ahead, inside)
    page.close()
    names = {name: f"{name} ({ahead[name]} of {len(values)} from a ring)" for name, values in times.items() if name in ahead}
    return _rows(f"{spec} k={k} grouped", nodes, times, inside, names)


def _grouped_collapse(page, frame_element, frame, key: str, run: int, times: dict, ahead: dict, inside: dict) -> None:
    """A click on `key` until the info panel shows it, then on its "Collapse what it expanded" until the canvas drawn
    changes (from the ring sent ahead, canvas/ahead.py grouped_ahead `shut`, or by the round trip), and until the
    server's answer has settled and nothing moves."""
    try:
        frame.wait_for_function(f"() => {{ const cy = document.getElementById('cy')._cyreg.cy; try {{ const d = {_AHEAD};"
                                " return d.grouped && d.count[0] === cy.nodes().length; } catch (e) { return false; } }",
                                timeout=60_000)
    except Exception:
        print(f"run {run + 1}: no ring came for the canvas expanded", file=sys.stderr)
    frame.evaluate(_STILL)
    x, y = frame.evaluate("(key) => { const p = document.getElementById('cy')._cyreg.cy.getElementById(key)"
                          ".renderedPosition(); return [p.x, p.y]; }", key)
    box = frame_element.bounding_box()
    page.mouse.click(box["x"] + x, box["y"] + y)
    button = frame.locator('[data-action-name="collapse"]')
    try:
        button.wait_for(state="visible", timeout=30_000)
        frame.wait_for_function("(key) => { const s = document.getElementById('cy')._cyreg.cy.$('node:selected'); "
                                "return s.length === 1 && s[0].id() === key; }", arg=key, timeout=30_000)
    except Exception:
        print(f"run {run + 1}: the click on {key!r} opened no panel; its collapse left out", file=sys.stderr)
        return
    time.sleep(0.5)  # the panel's opening ends
    was_ahead = frame.evaluate(f"(key) => {{ try {{ return !!{_AHEAD}.shut[key]; }} catch (e) {{ return false; }} }}", key)
    shown = frame.evaluate(_SHOWN)
    target = button.bounding_box()
    _arm(frame, f"(shown) => ({_SHOWN})() !== shown", shown)
    began = time.perf_counter()
    page.mouse.click(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
    try:
        frame.wait_for_function(f"(shown) => ({_SHOWN})() !== shown", arg=shown, timeout=60_000, polling="raf")
    except Exception:
        print(f"run {run + 1}: the collapse of {key!r} changed nothing; left out", file=sys.stderr)
        return
    times["collapse, grouped (drawn)"].append((time.perf_counter() - began) * 1000)
    _note(inside, "collapse, grouped (drawn)", frame)
    ahead["collapse, grouped (drawn)"] += bool(was_ahead)
    frame.wait_for_function(_ANSWERED, timeout=60_000, polling="raf")
    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
    frame.evaluate(_STILL)
    times["collapse, grouped (drawn, still)"].append((time.perf_counter() - began) * 1000)


def _grouped_layout(page, frame, times: dict, ahead: dict, inside: dict) -> None:
    """Another layout chosen in the Layout box of the grouped canvas, until the first frame that moves a node (from
    the layout sent ahead, grouped_ahead `layouts`, or by the round trip) and until the nodes are still."""
    frame.evaluate(_STILL)
    shown = page.get_by_label("Layout", exact=False).first.input_value()
    layout, name = (("layered by remoteness", "layered") if shown == "concentric around the focus"
                    else ("concentric around the focus", "concentric"))
    was_ahead = frame.evaluate(f"(name) => {{ try {{ return !!{_AHEAD}.layouts.shapes[name]; }} catch (e) {{ return false; }} }}",
                               name)
    option = open_choice(page, "Layout", page.get_by_role("option", name=layout))
    frame.evaluate(_MARK)
    _arm(frame, _MOVED)
    began = _click_option(page, option)
    frame.wait_for_function(_MOVED, timeout=60_000, polling="raf")
    times["layout changed, grouped (moving)"].append((time.perf_counter() - began) * 1000)
    _note(inside, "layout changed, grouped (moving)", frame)
    ahead["layout changed, grouped (moving)"] += bool(was_ahead)
    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached")
    time.sleep(0.05)
    frame.evaluate(_STILL)
    times["layout changed, grouped (still)"].append((time.perf_counter() - began) * 1000)


def _ms(ms: float | None) -> str:
    return "-" if ms is None else f"{ms:.0f}"


def click_table(rows: list, runs: int, load_before: str) -> str:
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [f"Machine: {os.cpu_count()} cores, load average {load_before} before and {load} after (1 / 5 / 15 min; "
             "other sessions were running: treat the figures as upper bounds). Chromium 1440 x 900, "
             f"{runs} runs of each interaction per canvas, from the mouse event to the result drawn "
             "(wall time; `--clicks`). In page: from the press as the browser stamped it to the frame after the first "
             "that shows the result, measured in the page (without Playwright's round trips; `_ARM`).", "",
             "| canvas | nodes | interaction | p50 ms | p95 ms | in page p50 ms | in page p95 ms | runs | goal |",
             "|---|---:|---|---:|---:|---:|---:|---:|---|"]
    for canvas_name, nodes, name, p50, p95, n, in_p50, in_p95 in rows:
        lines.append(f"| {canvas_name} | {nodes} | {name} | {p50:.0f} | {p95:.0f} | {_ms(in_p50)} | {_ms(in_p95)} "
                     f"| {n} | p95 <= 250 ms |")
    return "\n".join(lines)


def table(expanded: list, big: tuple, runs: int) -> str:
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [f"Machine: {os.cpu_count()} cores, load average {load} when measured (other work was running: "
             "treat the figures as upper bounds).", "",
             "Server time to expand a node (`canvas.expand`: the neighbourhood query with k=1 over the "
             "networkx mirror, plus the canvas elements), random nodes of a k=2 canvas from the start:", "",
             "| game | expansions | median ms | median CPU ms | max ms | target |", "|---|---:|---:|---:|---:|---|"]
    for spec, median, worst, n, cpu in expanded:
        lines.append(f"| {spec} | {n} | {median:.1f} | {cpu:.1f} | {worst:.1f} | < 300 ms |")
    nodes, edges, ms, zoom_ms, seconds, cpu_ms = big
    lines += ["", f"Canvas in Chromium ({BIG[0]}, k={BIG[1]}, cut to the nearest 2,000 positions), median of {runs} runs:",
              "", "| nodes | edges | data to interactive (ms) | one zoom step (ms) | main-thread CPU of the measured steps (ms) "
              "| k entered to nodes on canvas (s) | target |",
              "|---:|---:|---:|---:|---:|---:|---|",
              f"| {nodes} | {edges} | {ms:.0f} | {zoom_ms:.0f} | {cpu_ms:.0f} | {seconds:.1f} "
              "| interactive < 1 s after the data arrive |", "",
              "Main-thread CPU: Chrome's ThreadTime over the drawing and the zoom step, the share of the wall times "
              "that is the page's own work (before 2026-11-26 evening this column gave TaskDuration, the tasks' "
              "wall time, and counted the elements being taken off the canvas too)."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--expansions", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/README.md alone")
    parser.add_argument("--clicks", type=int, default=0, metavar="N",
                        help="measure click to rendered instead, N runs of each interaction (its own section)")
    args = parser.parse_args()
    os.environ.setdefault("GAMEGRAPH_HOME", tempfile.mkdtemp(prefix="bench-canvas-home-"))
    os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
    if args.clicks < 0:
        raise SystemExit("--clicks takes a number of runs, 1 or more")
    if args.clicks:
        load_before = " / ".join(f"{x:.2f}" for x in os.getloadavg())
        rows = click_times(args.clicks)
        publish("bench_canvas_clicks", CLICK_HEADING, click_table(rows, args.clicks, load_before),
                write=not args.no_write)
        return
    expanded = expansion_times(args.expansions)
    big = browser_times(args.runs)
    publish("bench_canvas", HEADING, table(expanded, big, args.runs), write=not args.no_write)


if __name__ == "__main__":
    main()
