"""The import structure of a checkout in figures: modules, import arrows, cycles, dependency levels.

    .venv/bin/python scripts/structure.py [CHECKOUT]     # default: this clone

Counted on the project's own import graph (scripts/import_graph.py, which the cycle test
tests/architecture/test_layers.py reads too): every import as Python runs it, static or inside a
function, the modules importlib loads, package facades and lazy names. The figures of
docs/architecture.md and the notes of the layering work come from here; `lint-imports`
(./scripts/test) is what enforces the layers. Exit status 1 when there is a cycle.
"""

from __future__ import annotations

import sys
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from import_graph import cycles, describe, import_graph  # noqa: E402  (scripts/import_graph.py, beside this file)


def main(argv: list[str]) -> int:
    checkout = Path(argv[0] if argv else Path(__file__).resolve().parents[1]).resolve()
    if not (checkout / "explorer").is_dir():
        print(f"structure.py: {checkout} is not a gamegraph checkout (it has no explorer/ folder)", file=sys.stderr)
        return 2
    arrows = import_graph(checkout)
    found = cycles(arrows)
    levels = nx.dag_longest_path_length(nx.condensation(arrows)) + 1
    kinds: dict[str, int] = {}
    for _, _, kind in arrows.edges(data="kind"):
        kinds[kind.split(" of ")[0]] = kinds.get(kind.split(" of ")[0], 0) + 1
    how = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    print(f"{checkout}: {arrows.number_of_nodes()} modules, {arrows.number_of_edges()} import arrows ({how}), "
          f"{len(found)} import cycles ({sum(map(len, found))} modules in them), {levels} dependency levels")
    for group in found:
        print("  cycle:", describe(arrows, group))
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
