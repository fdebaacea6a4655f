"""The whole graph at once: every position of a game drawn in the browser with WebGL, coloured by value.

Drawing. sigma.js 3 (WebGL) over a graphology graph, both vendored as their own
minified builds in explorer/ui/static/ and inlined into a Streamlit
`components.v2` component (no network, no build step). WebGL draws 100,000
points and as many lines in well under a second where SVG or a canvas of DOM
nodes would not; the component keeps the drawing between reruns and only moves
the "you are here" mark, so clicking around costs no redraw.

Layout, on the server, O(V + E) and deterministic: layered by value and
remoteness, like the value history. Each (value, remoteness) class is one column
of dots, its height the number of positions in it (a histogram of the game you
can click): wins on the left, remoteness 0 (the game is over) at the left edge
and longer wins further in; ties and draws in the middle; losses on the right,
mirrored. Within a column positions run in breadth-first order from the bottom,
so those nearest the start come first. A force-directed layout of 84,288
positions would cost seconds in the browser and give a hairball; this one costs
a few numpy passes and says something at every zoom.

Moves. All 697,164 moves of chopsticks(fingers=20) would be a grey fog and more
memory than a software-rendered WebGL context likes, so by default each position
shows one best move (the first optimal move: the strategy as a forest); "all
moves" draws up to EDGE_CAP of them. A graph with more than NODE_CAP positions is
drawn in part: the NODE_CAP positions nearest the start (breadth-first ids are
exactly that) and the moves among them, and the page says so.

A click on a position reports its node id; the page opens that position
(`?game=…&pos=…`, explorer/ui/state.py).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st

from explorer.core.values import Value
from explorer.render import palette
from explorer.solved import SolvedGraph
from explorer.ui import state

NODE_CAP = 150_000   # positions drawn at most (the issue asks for at least 100,000)
EDGE_CAP = 200_000   # moves drawn at most
MOVES = {"best": "one best move per position", "all": "all moves", "none": "no moves"}
VENDORED = ("graphology-0.26.0.umd.min.js", "sigma-3.0.3.min.js")
STATIC = Path(__file__).resolve().parent / "static"
# Value codes sent to the browser (0..3), in palette order.
CODES = {int(Value.WIN): 0, int(Value.LOSS): 1, int(Value.TIE): 2, int(Value.DRAW): 3}


@dataclass
class Overview:
    """What the browser draws: per position its place, value code and remoteness; the moves as pairs."""

    x: np.ndarray            # float32[n]
    y: np.ndarray            # float32[n]
    value: np.ndarray        # uint8[n]: 0 win, 1 loss, 2 tie, 3 draw (palette.VALUES order)
    remoteness: np.ndarray   # int32[n], -1 for a draw
    sources: np.ndarray      # int32[m]
    targets: np.ndarray      # int32[m]
    total_nodes: int
    total_edges: int
    moves: str

    @property
    def nodes(self) -> int:
        return len(self.x)

    @property
    def edges(self) -> int:
        return len(self.sources)


def _stable_order(codes: np.ndarray, classes: int) -> np.ndarray:
    """The stable argsort of `codes`, all in range(classes). numpy's stable sort is a radix sort, O(n),
    only for types of 16 bits or less (int64 codes took its O(n log n) merge sort), so codes of at most
    65,536 classes are sorted as uint16 (the overview's: any remoteness under 21,845)."""
    small = np.uint16 if classes <= np.iinfo(np.uint16).max + 1 else np.int64
    return np.argsort(codes.astype(small), kind="stable")


def layered_layout(value: np.ndarray, remoteness: np.ndarray, gap: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of each position: one column of dots per (value, remoteness) class, as the module says.

    `value` holds Value codes, `remoteness` -1 for draws. Columns are ceil(n / H) dots wide for a common
    height H = ceil(sqrt(V)), so the picture is about square. O(V) (numpy's stable sort of small ints
    is a radix sort)."""
    n = len(value)
    if n == 0:
        return np.zeros(0, np.float32), np.zeros(0, np.float32)
    top = int(remoteness.max(initial=0)) + 1
    r = np.where(remoteness < 0, 0, remoteness).astype(np.int64)
    # Class order left to right: win 0..top-1, tie 0..top-1, draw, loss top-1..0.
    klass = np.select([value == int(Value.WIN), value == int(Value.TIE), value == int(Value.DRAW)],
                      [r, top + r, np.full(n, 2 * top)], default=2 * top + 1 + (top - 1 - r))
    height = max(1, int(np.ceil(np.sqrt(n))))
    order = _stable_order(klass, 3 * top + 1)  # breadth-first order inside each class
    counts = np.bincount(klass, minlength=3 * top + 1)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n) - starts[klass[order]]
    widths = -(-counts // height)                      # columns per class (0 for an empty class)
    left = np.concatenate([[0], np.cumsum(widths + np.where(counts > 0, gap, 0))[:-1]])
    x = left[klass] + rank // height
    y = rank % height
    return x.astype(np.float32), y.astype(np.float32)


def column_labels(value: np.ndarray, remoteness: np.ndarray, x: np.ndarray) -> list[tuple[float, float, str]]:
    """(x, y, text) of a label under each column: "win 3", "tie 0", "draw", sorted by x; `value` holds the
    overview's codes (palette.VALUES order). O(V): the positions are grouped by class with a radix sort
    (np.unique's sort was O(V log V), and ufunc.at took most of the time)."""
    n = len(value)
    if n == 0:
        return []
    levels = int(remoteness.max(initial=0)) + 1
    code = value.astype(np.int64) * levels + np.where(remoteness < 0, 0, remoteness)
    order = _stable_order(code, len(palette.VALUES) * levels)
    grouped = code[order]
    starts = np.flatnonzero(np.concatenate(([True], grouped[1:] != grouped[:-1])))
    placed = x[order]
    left, right = np.minimum.reduceat(placed, starts), np.maximum.reduceat(placed, starts)
    labels = []
    for at, lo, hi in zip(order[starts].tolist(), left.tolist(), right.tolist()):
        name = palette.VALUES[int(value[at])]
        text = name if remoteness[at] < 0 else f"{name} {int(remoteness[at])}"
        labels.append((float((lo + hi) / 2), -3.0, text))
    return sorted(labels)


def overview(solved: SolvedGraph, moves: str = "best", node_cap: int = NODE_CAP,
             edge_cap: int = EDGE_CAP) -> Overview:
    """The overview of `solved`: at most `node_cap` positions (the first in breadth-first order, which
    is the ball around the start), with one best move each, all moves among them, or none, at most
    `edge_cap`. O(V + E)."""
    from explorer.algorithms.reverse import edge_sources

    graph = solved.graph
    total = graph.num_positions
    n = min(total, node_cap)
    value = solved.solution.value[:n]
    remoteness = solved.solution.remoteness[:n]
    x, y = layered_layout(value, remoteness)
    sources = edge_sources(graph.succ_indptr[:n + 1])
    targets = graph.succ_indices[:len(sources)]
    keep = targets < n
    if moves == "best":
        keep &= solved.solution.optimal[:len(sources)]
        first = np.zeros(len(sources), bool)
        picked = np.flatnonzero(keep)
        # The first optimal move of each source: sources run in CSR order, so it starts each run of equal
        # sources (O(E); np.unique sorted them again).
        mover = sources[picked]
        first[picked[np.concatenate(([True], mover[1:] != mover[:-1]))] if len(picked) else picked] = True
        keep = first
    elif moves == "none":
        keep[:] = False
    chosen = np.flatnonzero(keep)[:edge_cap]
    codes = np.zeros(256, np.uint8)
    for code, index in CODES.items():
        codes[code] = index
    return Overview(x, y, codes[value.astype(np.int64) & 255], remoteness.astype(np.int32),
                    sources[chosen].astype(np.int32), targets[chosen].astype(np.int32), total,
                    int(graph.num_moves), moves)


BACKGROUND = palette.OVERVIEW_GROUND   # the drawing's background (_CSS)


def edge_look(edges: int) -> tuple[str, float]:
    """(CSS colour, width in pixels) of the moves drawn: dark enough to read against BACKGROUND as
    lines (they were 12% and 35% grey, too faint to see), lighter and thinner as they get denser, so
    that 200,000 of them shade the picture rather than cover it (edge_contrast says how much)."""
    dense, denser, densest = palette.OVERVIEW_MOVES
    if edges <= 2_000:
        return dense, 1.0
    if edges <= 20_000:
        return denser, 0.8
    return densest, 0.6


def edge_contrast(edges: int) -> float:
    """The WCAG contrast ratio of a drawn move (its colour blended over BACKGROUND) with BACKGROUND."""
    colour, _ = edge_look(edges)
    r, g, b, alpha = (float(v) for v in colour[colour.index("(") + 1:-1].split(","))
    back = [int(BACKGROUND[i:i + 2], 16) for i in (1, 3, 5)]
    line = [c * alpha + k * (1 - alpha) for c, k in zip((r, g, b), back)]

    def luminance(rgb: list[float]) -> float:
        linear = [(v / 255 / 12.92) if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(back), luminance(line)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _b64(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()).decode()


def payload(view: Overview, signature: str) -> dict[str, Any]:
    """The component's data: typed arrays as base64 (parsed in the browser without JSON's cost)."""
    return {"signature": signature, "n": view.nodes, "m": view.edges,
            "x": _b64(view.x), "y": _b64(view.y), "value": _b64(view.value), "remoteness": _b64(view.remoteness),
            "sources": _b64(view.sources), "targets": _b64(view.targets),
            "colours": [palette.COLOURS[v] for v in palette.VALUES], "names": list(palette.VALUES),
            "edge": dict(zip(("color", "size"), edge_look(view.edges))),
            "labels": column_labels(view.value, view.remoteness, view.x)}


@st.cache_data(show_spinner="Laying out the whole graph…", max_entries=6)
def _payload(graph_id: str, moves: str, _solved: SolvedGraph) -> tuple[dict[str, Any], dict[str, int]]:
    view = overview(_solved, moves)
    facts = {"nodes": view.nodes, "total_nodes": view.total_nodes, "edges": view.edges,
             "total_edges": view.total_edges}
    return payload(view, f"{graph_id}/{moves}"), facts


_JS = """
async function typed(text, Kind) {
    // The browser's own base64 decoder (a data: URL), much faster than atob and a loop.
    const buffer = await (await fetch('data:application/octet-stream;base64,' + text)).arrayBuffer();
    return new Kind(buffer);
}

async function draw(holder, data, setTriggerValue) {
    const began = performance.now(), tip = holder.querySelector('.gg-whole-tip');
    const [x, y, value, remote, src, dst] = await Promise.all([
        typed(data.x, Float32Array), typed(data.y, Float32Array), typed(data.value, Uint8Array),
        typed(data.remoteness, Int32Array), typed(data.sources, Int32Array), typed(data.targets, Int32Array)]);
    const decoded = performance.now();
    const graph = new graphology.Graph({ type: 'directed', multi: true, allowSelfLoops: false });
    const size = data.n > 20000 ? 1.2 : data.n > 2000 ? 2 : 4;
    for (let i = 0; i < data.n; i++) {
        graph.addNode(i, { x: x[i], y: y[i], size: size, color: data.colours[value[i]] });
    }
    const edge = { size: data.edge.size, color: data.edge.color };  // whole_graph.edge_look
    for (let j = 0; j < data.m; j++) {
        if (src[j] !== dst[j]) graph.addEdge(src[j], dst[j], edge);
    }
    const built = performance.now();
    const renderer = new Sigma(graph, holder.querySelector('.gg-whole-canvas'), {
        renderEdgeLabels: false, hideEdgesOnMove: data.m > 50000, enableEdgeEvents: false,
        defaultEdgeType: 'line', renderLabels: false,  // no dot has a label: the column labels are axis()'s
        minCameraRatio: 0.002, maxCameraRatio: 4,
    });
    // Hover and click find a dot in sigma's picking image, drawn at half resolution by default: a dot of
    // 2 px radius then fell between its pixels and could not be hovered or clicked. Full resolution (read
    // at each render, as the picking textures are sized there) costs one canvas-sized texture.
    renderer.pickingDownSizingRatio = renderer.pixelRatio;
    const view = { signature: data.signature, renderer, graph, here: null };
    const widths = measured(data.labels);
    renderer.on('afterRender', () => axis(holder, renderer, data.labels, widths));
    renderer.on('enterNode', ({ node }) => {
        const i = Number(node), r = remote[i];
        tip.textContent = 'position #' + i + ': ' + data.names[value[i]] + (r >= 0 ? ' in ' + r : '') +
            ' (click to open it)';
        tip.style.display = 'block';
        holder.style.cursor = 'pointer';
    });
    renderer.on('leaveNode', () => { tip.style.display = 'none'; holder.style.cursor = 'default'; });
    renderer.on('clickNode', ({ node }) => {
        const i = Number(node);
        if (Number.isInteger(i) && i < data.n) setTriggerValue('clicked', i);
    });
    holder.querySelectorAll('.gg-whole-tools button').forEach((button) => {
        button.onclick = () => {
            const camera = holder.__ggView.renderer.getCamera(), what = button.dataset.do;
            if (what === 'in') camera.animatedZoom({ duration: 200 });
            else if (what === 'out') camera.animatedUnzoom({ duration: 200 });
            else camera.animatedReset({ duration: 200 });
        };
    });
    renderer.refresh();
    const done = performance.now();
    holder.dataset.nodes = String(data.n);
    holder.dataset.edges = String(graph.size);
    holder.dataset.decodeMs = String(Math.round(decoded - began));
    holder.dataset.graphMs = String(Math.round(built - decoded));
    holder.dataset.sigmaMs = String(Math.round(done - built));
    holder.dataset.drawnMs = String(Math.round(done - began));
    return view;
}

const AXIS_FONT = '11px sans-serif', AXIS_GAP = 8;  // px between two labels shown side by side

function measured(labels) {
    // Each column label's width in pixels, measured once (a render only moves them).
    const context = document.createElement('canvas').getContext('2d');
    context.font = AXIS_FONT;
    return labels.map(([, , text]) => context.measureText(text).width);
}

function axis(holder, renderer, labels, widths) {
    // The column labels ("win 1", "win 3", "draw"), drawn over the canvas under their columns, after each
    // render. Left to right (the server sorts them by x), a label is shown only where it clears the last
    // one shown by AXIS_GAP, so neighbouring columns never run their labels together ("win 1win 3") at any
    // zoom or count; zooming in shows the ones left out, and every dot says its column on hover. When
    // the columns' foot is out of view the labels stay at the canvas's bottom edge.
    const strip = holder.querySelector('.gg-whole-axis'), canvas = holder.querySelector('.gg-whole-canvas');
    const width = canvas.clientWidth, height = canvas.clientHeight;
    const shown = [];
    let right = -Infinity;
    labels.forEach(([lx, ly, text], k) => {
        const at = renderer.graphToViewport({ x: lx, y: ly }), left = at.x - widths[k] / 2;
        if (left < 2 || left + widths[k] > width - 2 || left < right + AXIS_GAP) return;
        const label = document.createElement('span');
        label.textContent = text;
        label.style.left = left.toFixed(1) + 'px';
        label.style.top = Math.min(height - 18, Math.max(2, at.y)).toFixed(1) + 'px';
        shown.push(label);
        right = left + widths[k];
    });
    strip.replaceChildren(...shown);
    holder.dataset.labelsShown = String(shown.length);
}

function mark(view, here, holder) {
    // The position the page shows: a big dot of its colour.
    if (view.here === here) return;
    const graph = view.graph;
    if (view.here !== null && graph.hasNode(view.here)) {
        graph.setNodeAttribute(view.here, 'size', graph.getNodeAttribute(view.here, 'baseSize'));
    }
    if (here !== null && here !== undefined && graph.hasNode(here)) {
        const base = graph.getNodeAttribute(here, 'size');
        graph.mergeNodeAttributes(here, { baseSize: base, size: Math.max(8, base * 5) });
    }
    view.here = here === undefined ? null : here;
    holder.dataset.here = String(view.here);
}

export default function(component) {
    const { data, setTriggerValue, parentElement } = component;
    if (!data) return;
    let holder = parentElement.querySelector('.gg-whole');
    if (!holder) {
        holder = document.createElement('div');
        holder.className = 'gg-whole';
        holder.innerHTML = '<div class="gg-whole-canvas"></div><div class="gg-whole-axis"></div>' +
            '<div class="gg-whole-tip"></div>' +
            '<div class="gg-whole-tools"><button data-do="in">+</button><button data-do="out">−</button>' +
            '<button data-do="fit">fit</button></div>';
        parentElement.appendChild(holder);
    }
    // Drawn once per graph and choice of moves; a rerun (a click elsewhere) only moves the mark.
    if (!holder.__ggPending || holder.__ggPending.signature !== data.signature) {
        if (holder.__ggView) { holder.__ggView.renderer.kill(); holder.__ggView = null; }
        delete holder.dataset.drawnMs;
        const pending = draw(holder, data, setTriggerValue).then((view) => {
            if (holder.__ggPending !== pending) { view.renderer.kill(); return; }
            holder.__ggView = view;
            mark(view, holder.__ggHere, holder);
        });
        pending.signature = data.signature;
        holder.__ggPending = pending;
    }
    holder.__ggHere = data.here;
    if (holder.__ggView) mark(holder.__ggView, data.here, holder);
}
"""

_CSS = f"""
.gg-whole {{ position: relative; }}
.gg-whole-canvas {{ width: 100%; height: 640px; border: 1px solid {palette.RULE_FAINT}; border-radius: 6px;
                   background: {BACKGROUND}; }}
.gg-whole-axis {{ position: absolute; left: 0; top: 0; width: 100%; height: 640px; overflow: hidden;
                 pointer-events: none; }}  /* the canvas's box: labels over it, clicks through to it */
.gg-whole-axis span {{ position: absolute; font: 11px sans-serif; color: {palette.INK_SOFT}; white-space: nowrap;
                      background: {palette.OVERVIEW_LABEL_GROUND}; padding: 0 1px; }}  /* AXIS_FONT */
.gg-whole-tip {{ display: none; position: absolute; left: 8px; top: 8px; background: {palette.WHITE};
                border: 1px solid {palette.RULE_LIGHT}; border-radius: 4px; padding: 2px 8px; font: 13px sans-serif;
                pointer-events: none; }}
.gg-whole-tools {{ position: absolute; right: 8px; top: 8px; display: flex; gap: 4px; }}
.gg-whole-tools button {{ font: 13px sans-serif; padding: 1px 8px; border: 1px solid {palette.RULE_LIGHT};
                         border-radius: 4px; background: {palette.WHITE}; cursor: pointer; }}
"""


@lru_cache(maxsize=1)
def _component() -> Any:
    """The component, its script the two vendored libraries followed by the drawing code (read once)."""
    libraries = "\n;\n".join((STATIC / name).read_text(encoding="utf-8") for name in VENDORED)
    return st.components.v2.component("gamegraph_whole_graph", js=libraries + "\n;\n" + _JS, css=_CSS)


def panel(game: Any, spec: str, solved: SolvedGraph, node: int) -> dict[str, int]:
    """The overview tab: the drawing, what it shows, and a click that opens a position."""
    moves = st.radio("Moves drawn", list(MOVES), format_func=MOVES.get, horizontal=True, key="whole_moves",
                     help="each position's first optimal move (the strategy), every move (up to "
                          f"{EDGE_CAP:,}), or the positions alone")
    data, facts = _payload(solved.graph.graph_id, moves, solved)
    if facts["total_nodes"] > facts["nodes"]:
        st.warning(f"{game.display_name} has {facts['total_nodes']:,} positions; the overview draws at most "
                   f"{NODE_CAP:,}. Shown: the largest part that fits, the {facts['nodes']:,} positions nearest "
                   "the start (breadth-first) and the moves among them.")
    drawn_moves = {"best": "one best move of each", "all": "its moves", "none": "no moves"}[moves]
    if moves == "all" and facts["edges"] == EDGE_CAP:
        st.info(f"Drawing the first {EDGE_CAP:,} of its moves: more would be a grey fog and strain WebGL. "
                "Choose one best move per position for the strategy.")
    st.caption(f"{facts['nodes']:,} positions with {drawn_moves} ({facts['edges']:,} of {facts['total_edges']:,} "
               "moves). Each column of dots is one value and remoteness: wins on the left (the left edge is the "
               "end of the game, longer wins further in), ties and draws in the middle, losses on the right; "
               "a column's height is how many positions it holds, those nearest the start at the bottom. "
               "Scroll to zoom, drag to pan; hover a dot for its value, click it to open it. The position "
               "shown above is the large dot.")
    legend = "Each dot's value for the player to move there: " + " ".join(
        f'<span style="color:{palette.COLOURS[v]};font-weight:600">● {v}</span>' for v in palette.VALUES)
    st.markdown(legend, unsafe_allow_html=True)
    here = int(node) if node < facts["nodes"] else None

    def open_clicked() -> None:
        """Open the clicked position before the run starts (a callback runs first), so the click costs
        one run that draws the new position, not a run of the old one and then a rerun."""
        try:
            chosen = int(getattr(st.session_state.get("whole_graph"), "clicked", None))
        except (TypeError, ValueError):
            return  # no click, or not a node number: the run's own check below reports it
        if 0 <= chosen < facts["nodes"] and chosen != node:
            state.go(spec, solved.graph.key(chosen))

    result: Any = _component()(data={**data, "here": here}, key="whole_graph", on_clicked_change=open_clicked)
    clicked = getattr(result, "clicked", None)  # without the callback (a test's run): open it now
    if clicked is not None and 0 <= int(clicked) < facts["nodes"] and int(clicked) != node:
        state.go(spec, solved.graph.key(int(clicked)))
        st.rerun()
    return facts
