"""Generation and solving throughput on Chopsticks (standard rules), next to plain networkx.

    cd /work/main && python -m bench.bench_solve            # fingers 5 10 20 40 60
    python -m bench.bench_solve --fingers 5 10 20 --no-write

For each finger count: generate the symmetry-reduced graph (array generator),
solve it (explorer.solver), and — where it is predicted to finish in about a
minute — run the same backward induction written plainly over a networkx
DiGraph (a FIFO queue over `G.predecessors`). Both must agree on every value
and remoteness. Writes a markdown table into bench/README.md between the
`bench_solve` markers; other sections of that file are left untouched.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
from collections import deque
from pathlib import Path

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # noqa: E402
import numpy as np  # noqa: E402

from bench.readme import publish  # noqa: E402
from explorer.games import parse_spec  # noqa: E402
from explorer.graph import generate  # noqa: E402
from explorer.solver import solve  # noqa: E402
from explorer.core.values import Value  # noqa: E402

NETWORKX_BUDGET = 60.0  # seconds: networkx runs only where predicted to finish within this
HEADING = "Generation and solving (`bench_solve.py`)"  # written by write_section, outside the markers


# -- the baseline: plain backward induction over networkx ----------------------------
def networkx_graph(graph) -> nx.DiGraph:
    """The same graph as an nx.DiGraph with the terminal outcome as a node attribute."""
    g = nx.DiGraph()
    g.add_nodes_from((u, {"terminal": int(t)}) for u, t in enumerate(graph.terminal.tolist()))
    g.add_edges_from(zip(graph.edge_sources().tolist(), graph.succ_indices.tolist()))
    return g


def networkx_solve(g: nx.DiGraph) -> tuple[dict, dict]:
    """(value, remoteness) per node by queue-based retrograde analysis, one node at a time.

    Wins and losses first (a FIFO queue keeps remoteness non-decreasing: a
    position becomes a win at its first losing successor, a loss at its last
    winning one), then ties by breadth-first search from terminal ties through
    undecided positions; everything left is a draw.
    """
    value: dict[int, int] = {}
    remoteness: dict[int, int] = {}
    pending = dict(g.out_degree())
    queue: deque[int] = deque()
    for node, terminal in g.nodes(data="terminal"):
        if terminal in (Value.WIN, Value.LOSS):
            value[node], remoteness[node] = terminal, 0
            queue.append(node)
    while queue:
        node = queue.popleft()
        lost = value[node] == Value.LOSS
        for parent in g.predecessors(node):
            if parent in value:
                continue
            if lost:
                value[parent], remoteness[parent] = Value.WIN, remoteness[node] + 1
                queue.append(parent)
            else:
                pending[parent] -= 1
                if pending[parent] == 0:
                    value[parent], remoteness[parent] = Value.LOSS, remoteness[node] + 1
                    queue.append(parent)
    for node, terminal in g.nodes(data="terminal"):
        if terminal == Value.TIE:
            value[node], remoteness[node] = Value.TIE, 0
            queue.append(node)
    while queue:
        node = queue.popleft()
        for parent in g.predecessors(node):
            if parent not in value:
                value[parent], remoteness[parent] = Value.TIE, remoteness[node] + 1
                queue.append(parent)
    for node in g:
        if node not in value:
            value[node], remoteness[node] = Value.DRAW, -1
    return value, remoteness


# -- measuring ----------------------------------------------------------------------
def timed(fn, *args, repeat: int = 1):
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best, result


def solve_afresh(graph):
    """solve() including the predecessor CSR it builds (cached on the graph after the first call)."""
    graph.__dict__.pop("predecessors_csr", None)
    return solve(graph)


def bench(fingers: int, networkx_seconds_per_edge: float | None, budget: float = NETWORKX_BUDGET) -> dict:
    game = parse_spec(f"chopsticks:standard(fingers={fingers})")
    repeat = 3 if fingers <= 20 else 1
    gen_s, graph = timed(generate, game, repeat=repeat)
    solve_s, solution = timed(solve_afresh, graph, repeat=repeat)
    v, e = graph.num_positions, graph.num_moves
    row = {"fingers": fingers, "positions": v, "moves": e, "gen_s": gen_s, "solve_s": solve_s,
           "start": str(Value(int(solution.value[0]))), "counts": solution.counts()}
    predicted = None if networkx_seconds_per_edge is None else networkx_seconds_per_edge * (v + e)
    if predicted is not None and predicted > budget:
        row["nx"] = f"skipped (≈{predicted:.0f} s predicted)"
        return row
    build_s, g = timed(networkx_graph, graph)
    nx_s, (nx_value, nx_rem) = timed(networkx_solve, g)
    ours_value, ours_rem = solution.value.tolist(), solution.remoteness.tolist()
    mismatches = [u for u in range(v) if (int(nx_value[u]), nx_rem[u]) != (ours_value[u], ours_rem[u])]
    if mismatches:
        u = mismatches[0]
        raise SystemExit(f"fingers={fingers}: solvers disagree on {len(mismatches)} positions, e.g. "
                         f"{graph.key(u)}: explorer {Value(ours_value[u])}/{ours_rem[u]}, "
                         f"networkx {Value(int(nx_value[u]))}/{nx_rem[u]}")
    row.update(nx_build_s=build_s, nx_solve_s=nx_s, nx="ok")
    del g
    return row


def per_second(count: int, seconds: float) -> str:
    rate = count / seconds if seconds > 0 else float("inf")
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if rate >= scale:
            return f"{rate / scale:.2f}{unit}"
    return f"{rate:.0f}"


def table(rows: list[dict], skipped: list[int], budget: float = NETWORKX_BUDGET) -> str:
    load = os.getloadavg()[0]
    busy = ": other work shared the CPUs, so times are pessimistic" if load > (os.cpu_count() or 1) else ""
    lines = [
        f"Chopsticks, standard rules, symmetry-reduced; `python -m bench.bench_solve` on "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, numpy {np.__version__}, "
        f"networkx {nx.__version__} ({time.strftime('%Y-%m-%d')}; load average {load:.1f} at the end{busy}).",
        "",
        "| fingers | positions | moves | generate s | gen pos/s | gen moves/s | solve s | solve pos/s "
        "| solve moves/s | networkx build s | networkx solve s | networkx moves/s | speed-up | values |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if r["nx"] == "ok":
            nx_cols = (f"{r['nx_build_s']:.3f} | {r['nx_solve_s']:.3f} | {per_second(r['moves'], r['nx_solve_s'])} "
                       f"| {r['nx_solve_s'] / r['solve_s']:.1f}× | agree")
        else:
            nx_cols = f"– | {r['nx']} | – | – | not compared"
        lines.append(
            f"| {r['fingers']} | {r['positions']:,} | {r['moves']:,} | {r['gen_s']:.3f} "
            f"| {per_second(r['positions'], r['gen_s'])} | {per_second(r['moves'], r['gen_s'])} "
            f"| {r['solve_s']:.3f} | {per_second(r['positions'], r['solve_s'])} "
            f"| {per_second(r['moves'], r['solve_s'])} | {nx_cols} |")
    for fingers in skipped:
        lines.append(f"| {fingers} | – | – | skipped (memory) | – | – | – | – | – | – | – | – | – | – |")
    lines += [
        "",
        "solve = `explorer.solver.solve`: predecessor arrays, values, remoteness and the optimal flag of "
        "every move. networkx = the same retrograde analysis written plainly (a FIFO queue over "
        "`G.predecessors`, one node at a time, values and remoteness only); its solve time excludes "
        "building the DiGraph. It runs only where it is predicted to take "
        f"under {budget:.0f} s (build + solve, extrapolated per position and move from the "
        "previous size), and there both solvers agree on every value and remoteness. "
        "Start value: " + ", ".join(f"{r['fingers']} fingers {r['start']}" for r in rows) + ".",
    ]
    return "\n".join(lines)




def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fingers", type=int, nargs="+", default=[5, 10, 20, 40, 60])
    parser.add_argument("--max-moves", type=float, default=2.5e8,
                        help="skip sizes whose predicted number of moves exceeds this (memory)")
    parser.add_argument("--networkx-budget", type=float, default=NETWORKX_BUDGET,
                        help="run networkx only where build + solve is predicted to take less (seconds)")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    rows, skipped = [], []
    per_edge = None
    for fingers in sorted(args.fingers):
        # Moves grow about like fingers**5 (positions ~ fingers**4 / 2, ~2 * fingers moves each).
        if rows and rows[-1]["moves"] * (fingers / rows[-1]["fingers"]) ** 5 > args.max_moves:
            skipped.append(fingers)
            print(f"fingers={fingers}: skipped (predicted over {args.max_moves:.0e} moves)", flush=True)
            continue
        row = bench(fingers, per_edge, args.networkx_budget)
        if row["nx"] == "ok":
            per_edge = (row["nx_build_s"] + row["nx_solve_s"]) / (row["positions"] + row["moves"])
        rows.append(row)
        baseline = f"{row['nx_solve_s']:.2f} s" if row["nx"] == "ok" else row["nx"]
        print(f"fingers={fingers}: {row['positions']:,} positions, {row['moves']:,} moves, generate "
              f"{row['gen_s']:.2f} s, solve {row['solve_s']:.2f} s ({per_second(row['moves'], row['solve_s'])} moves/s), "
              f"networkx {baseline}", flush=True)
    text = table(rows, skipped, args.networkx_budget)
    publish("bench_solve", HEADING, text, write=not args.no_write)


if __name__ == "__main__":
    main()
