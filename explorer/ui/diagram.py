"""Graphviz diagrams of a neighbourhood: DOT text, and SVG/PNG rendered by `dot`.

Nodes are filled by value (win green, loss red, tie/draw yellow) for the
player to move there, the centre is drawn bold, optimal moves are solid and the
others dashed. Every node links to `?game=...&pos=...`, which is what makes the
SVG clickable on the page (see clickable.py) and in a downloaded file.
"""

from __future__ import annotations

import shutil
import subprocess

import graphviz

from explorer.core.errors import GameGraphError
from explorer.ui import state
from explorer.ui.drawing import VALUE_COLOURS, VALUE_FILLS
from explorer.ui.local import Neighbourhood

RENDER_TIMEOUT = 20


def neighbourhood_dot(hood: Neighbourhood, spec: str, labels: bool = True) -> str:
    """DOT source of a neighbourhood, ranked left to right by moves from the centre."""
    g = graphviz.Digraph("neighbourhood", graph_attr={"rankdir": "LR", "bgcolor": "transparent", "fontname": "Helvetica",
                                                       "nodesep": "0.2", "ranksep": "0.5"},
                         node_attr={"shape": "box", "style": "rounded,filled", "fontname": "Helvetica", "fontsize": "12"},
                         edge_attr={"fontname": "Helvetica", "fontsize": "10", "color": "#666666"})
    for key, facts in sorted(hood.positions.items(), key=lambda item: (item[1]["distance"], item[0])):
        value, r = facts["value"], facts["remoteness"]
        outcome = value if r is None else f"{value} in {r}"
        attrs = {"label": f"{key}\\n{outcome}", "fillcolor": VALUE_FILLS[value], "color": VALUE_COLOURS[value],
                 "URL": state.link(spec, key), "target": "_top",
                 "tooltip": f"{key}: {outcome} for the player to move ({facts['distance']} moves away)"}
        if key == hood.centre:
            attrs.update(penwidth="3", color="#1f77b4", fontsize="14", id="ggcentre")
        g.node(key, **attrs)
    for source, target, label, optimal in hood.edges:
        attrs = {"style": "solid" if optimal else "dashed", "penwidth": "1.6" if optimal else "1"}
        if labels:
            attrs["label"] = label
        g.edge(source, target, **attrs)
    return g.source


def render(dot_source: str, fmt: str) -> bytes:
    """Run Graphviz `dot` on the source, with a deadline; a missing or failing `dot` is a GameGraphError."""
    exe = shutil.which("dot")
    if exe is None:
        raise GameGraphError("Graphviz `dot` is not installed, so diagrams cannot be drawn (install the graphviz package)")
    try:
        done = subprocess.run([exe, f"-T{fmt}"], input=dot_source.encode(), capture_output=True, timeout=RENDER_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise GameGraphError(f"Graphviz took more than {RENDER_TIMEOUT} s; choose a smaller k") from None
    if done.returncode != 0:
        raise GameGraphError(f"Graphviz failed: {done.stderr.decode(errors='replace')[:300]}")
    return done.stdout
