"""The Cypher console's canvas: a result's nodes, relationships and paths drawn force-directed on the
same component and view keeper as the Neighbourhood tab (explorer.ui.canvas); 'Open this position'
opens a position of the page's game."""

from __future__ import annotations

from typing import Any

import streamlit as st

from explorer.ui import state
from explorer.ui.canvas import LARGE, console_elements, draw, keep_view, style_rules


def console_canvas(graph: dict[str, list[dict[str, Any]]], spec: str, graph_id: str, widget: str) -> None:
    """A console result's graph on the canvas (force-directed); 'Open this position' opens a Position."""
    elements = console_elements(graph, graph_id)
    # Force-directed, with each node's caption counted in its size (nodeDimensionsIncludeLabels), so that
    # captions never overlap: both the forces and the tiling of nodes without relationships (a list of
    # positions, e.g. every draw) keep whole captions apart, with room between the tiles.
    layout = {"name": "fcose", "fit": True, "padding": 30, "animate": False, "randomize": True, "quality": "proof",
              "nodeRepulsion": 9000, "idealEdgeLength": 110, "nodeSeparation": 90,
              "nodeDimensionsIncludeLabels": True, "tile": True,
              "tilingPaddingVertical": 24, "tilingPaddingHorizontal": 24}
    draw(elements, layout, style_rules("value", True, False, len(elements["nodes"]) >= LARGE), key=widget,
         on_change=_on_console_event,
         args=(spec, widget), actions=(("open", "Open this position"),))
    # the same view keeper as the neighbourhood's: its fit keeps clear of the folded info panel's strip (4 nodes
    # of a path result were half under it at 1,300 px) and of the bars, readably; a tap reveals the node clicked
    keep_view()


def _on_console_event(spec: str, widget: str) -> None:
    event = st.session_state.get(widget) or {}
    payload = event.get("data") or {}
    stamp = int(event.get("timestamp") or 0)
    if event.get("action") != "open" or stamp <= st.session_state.get("console_canvas_handled", 0):
        return
    st.session_state["console_canvas_handled"] = stamp
    key = (payload.get("element_data") or {}).get("_key")
    if key:
        state.go(spec, key)
