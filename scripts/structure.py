"""The import structure of a checkout in figures: modules, import arrows, cycles, dependency levels.

    .venv/bin/python scripts/structure.py [CHECKOUT]     # default: this clone

The figures of docs/architecture.md and the notes of the layering work come from
here; `lint-imports` (./scripts/test) is what enforces the layers.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp
import networkx as nx


def main(argv: list[str]) -> int:
    checkout = Path(argv[0] if argv else Path(__file__).resolve().parents[1]).resolve()
    sys.path.insert(0, str(checkout))
    graph = grimp.build_graph("explorer", "loaders", "queries", cache_dir=None)
    arrows = nx.DiGraph()
    arrows.add_nodes_from(graph.modules)
    for module in graph.modules:
        arrows.add_edges_from((module, imported) for imported in graph.find_modules_directly_imported_by(module))
    cycles = [sorted(c) for c in nx.strongly_connected_components(arrows) if len(c) > 1]
    levels = nx.dag_longest_path_length(nx.condensation(arrows)) + 1
    print(f"{checkout}: {arrows.number_of_nodes()} modules, {arrows.number_of_edges()} import arrows, "
          f"{len(cycles)} import cycles ({sum(map(len, cycles))} modules in them), {levels} dependency levels")
    for cycle in cycles:
        print("  cycle:", " ".join(cycle))
    return 1 if cycles else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
