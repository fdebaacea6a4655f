"""Figures for docs/limits.md: refusal times, estimates against real counts, mirror reopen times.

Run: python -m bench.bench_limits   (prints Markdown; writes nothing)

- how long `chopsticks(fingers=99)` takes to be refused: in-process (parse, estimate,
  refuse) and as a whole `gamegraph solve` command (start-up included);
- every preset's estimate next to its real size;
- reopening every preset's networkx mirror from the data-only cache, next to
  unpickling the same graph (the format used until issue 8), best of 30.
"""

from __future__ import annotations

import os
import pickle  # only to time the old format against the new one, on a graph this script just built
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def best(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        function()
        times.append(time.perf_counter() - began)
    return min(times)


def refusal() -> list[str]:
    from explorer.core.errors import GraphTooLarge
    from explorer.games import parse_spec
    from explorer.solved import build

    def refuse():
        try:
            build(parse_spec("chopsticks(fingers=99)"), max_positions=3_000_000)
        except GraphTooLarge:
            return
        raise AssertionError("not refused")

    inside = best(refuse, 20)
    env = {**os.environ, "GAMEGRAPH_PROGRESS": "0"}
    whole = best(lambda: subprocess.run([sys.executable, "-m", "explorer.cli", "solve", "chopsticks(fingers=99)"],
                                        capture_output=True, env=env, cwd=ROOT), 3)
    bare = best(lambda: subprocess.run([sys.executable, "-c", "pass"], capture_output=True), 3)
    return ["| refusing chopsticks(fingers=99) | seconds |", "|---|---:|",
            f"| in-process: parse, estimate, refuse (best of 20) | {inside:.4f} |",
            f"| whole `gamegraph solve` command (best of 3) | {whole:.2f} |",
            f"| of which a bare `python -c pass` | {bare:.2f} |"]


def estimates() -> list[str]:
    from explorer.games import games, parse_spec
    from explorer.graph import generate

    rows = ["| preset | symmetry | positions (est.) | ratio | moves (est.) | ratio |", "|---|---|---:|---:|---:|---:|"]
    for name, cls in games().items():
        for preset in cls.presets:
            game = parse_spec(f"{name}:{preset}")
            for symmetry in ([True, False] if game.has_symmetry() else [False]):
                graph = generate(game, symmetry=symmetry)
                p, m = game.estimate_positions(symmetry), game.estimate_moves(symmetry)
                rows.append(f"| {name}:{preset} | {'yes' if symmetry else 'no'} | {graph.num_positions:,} ({p:,}) | "
                            f"{p / graph.num_positions:.2f} | {graph.num_moves:,} ({m:,}) | {m / graph.num_moves:.2f} |")
    return rows


def mirrors() -> list[str]:
    os.environ["GAMEGRAPH_HOME"] = tempfile.mkdtemp(prefix="bench-limits-")
    from explorer.games import games, parse_spec
    from loaders import mirror

    rows = ["| mirror | positions | moves | pickle ms (before) | npz + JSON ms (now) |", "|---|---:|---:|---:|---:|"]
    for name, cls in games().items():
        for preset in cls.presets:
            game = parse_spec(f"{name}:{preset}")
            G = mirror.mirror_for(game)
            path = mirror.mirror_path(game)
            old = path.with_suffix(".bench.pickle")
            old.write_bytes(pickle.dumps(G, protocol=5))
            unpickle = best(lambda: pickle.loads(old.read_bytes()), 30)
            reopen = best(lambda: mirror.mirror_for(game), 30)
            old.unlink()
            rows.append(f"| {name}:{preset} | {G.number_of_nodes():,} | {G.number_of_edges():,} | "
                        f"{unpickle * 1000:.2f} | {reopen * 1000:.2f} |")
    return rows


def main() -> None:
    os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
    for section in (refusal(), estimates(), mirrors()):
        print("\n".join(section), end="\n\n")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 CPUs shared with other work: timings are noisy)")


if __name__ == "__main__":
    main()
