"""Downloads of what the page shows: the diagram (DOT, SVG, PNG), the position (SVG, JSON),
the whole solved game (JSON lines), the chart, and a strategy certificate.

Files come from the same objects the other panels drew, so a download never
disagrees with the screen. The costly ones are made only when asked for: the
PNG and the whole game when their button is clicked, the certificate (built
and re-checked) after its Build button. Big games offer the whole-graph
export only below EXPORT_MAX_POSITIONS (the CLI does the rest).
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import streamlit as st

from explorer import certificate, export
from explorer.core.errors import shell_hint
from explorer.games import Game
from explorer.render import dot as dots
from explorer.solved import SolvedGraph
from explorer.ui import drawing, graphs, loading, overview, position, state
from explorer.ui.widgets import guarded

EXPORT_MAX_POSITIONS = 200_000


def slug(text: str) -> str:
    """A file-name-safe form of a spec or key."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "position"


def position_json(game: Game, spec: str, solved: SolvedGraph, node: int) -> str:
    return json.dumps({"game": spec, "game_id": solved.graph.graph_id, "position": solved.record(node),
                       "moves": solved.moves(node), "link": state.link(spec, solved.graph.key(node)),
                       "history": [step.as_dict() for step in state.history()]}, indent=2)


def game_jsonl(solved: SolvedGraph) -> bytes:
    """Every position, then every move, one JSON object a line (tagged "type": "position" or "move"),
    written by `gamegraph export`'s writer."""
    out = io.StringIO()
    export.write(({"type": "position", **r} for r in export.position_records(solved)), out, "jsonl",
                 export.POSITION_COLUMNS)
    export.write(({"type": "move", **r} for r in export.move_records(solved)), out, "jsonl", export.MOVE_COLUMNS)
    return out.getvalue().encode()


@st.cache_data(show_spinner="Building and checking the certificate…", max_entries=32)
def _certificate(game_id: str, key: str) -> tuple[str, str]:
    """(certificate JSON, the checker's statement of what it proves), built from the solved graph and
    re-checked from the rules alone before it is offered."""
    solved = loading.by_id(game_id)
    data = certificate.certificate(solved, key)
    report = certificate.check_certificate(data)
    return json.dumps(data, indent=1), str(report)


def _ask_certificate(game_id: str, key: str) -> None:
    st.session_state["certificate_for"] = (game_id, key)


def _row() -> Any:
    """A row of buttons each as wide as its name (three fixed columns cut "Build a strategy certificate" and
    "Positions + moves (JSON lines)" at a 1,000 px window), wrapping when the page is narrower."""
    return st.container(horizontal=True, gap="small")


def panel(game: Game, spec: str, solved: SolvedGraph, node: int, backend: Any) -> None:
    key = solved.graph.key(node)
    here = position.shown(solved, node)  # the board as the page shows it (the stored key's mirror image, maybe)
    board = game.format(here)
    base = f"{slug(spec)}__{slug(board)}"
    st.markdown(f"**This position** (`{board}`" + (f", stored as `{key}`)" if board != key else ")"))
    row = _row()
    row.download_button("Position + moves (JSON)", position_json(game, spec, solved, node),
                            file_name=f"{base}.json", mime="application/json", key="dl_pos_json", on_click="ignore")
    picture = drawing.position_svg(game, here)
    if picture:
        row.download_button("Drawing (SVG)", picture, file_name=f"{base}.svg", mime="image/svg+xml", key="dl_pos_svg", on_click="ignore")
    with row, guarded("The certificate"):
        if st.session_state.get("certificate_for") != (game.id, key):
            st.button("Build a strategy certificate", key="cert_build", on_click=_ask_certificate, args=(game.id, key),
                      help="a proof of the value that `gamegraph check-certificate` verifies from the rules alone; "
                           "built and checked when asked for")
        else:
            text, statement = _certificate(game.id, key)
            st.download_button("Strategy certificate (JSON)", text, file_name=f"{base}.certificate.json",
                               mime="application/json", key="dl_cert", on_click="ignore",
                               help="a proof of the value that `gamegraph check-certificate` verifies from the rules alone")
            st.caption(f"Checked: {statement}.")

    with guarded("The diagram downloads"):
        shown, _ = graphs.drawn(spec, solved, key, backend)
        st.markdown(f"**The neighbourhood diagram** (k={shown.k}, as on the Neighbourhood tab)")
        dpi = graphs.png_resolution("dl_png_dpi")
        row = _row()
        row.download_button("DOT", shown.dot, file_name=f"{base}__k{shown.k}.dot", mime="text/vnd.graphviz", key="dl_dot", on_click="ignore")
        row.download_button("SVG", shown.svg, file_name=f"{base}__k{shown.k}.svg", mime="image/svg+xml", key="dl_svg", on_click="ignore")
        row.download_button("PNG", lambda: dots.png_image(shown.dot, dpi=dpi), file_name=f"{base}__k{shown.k}.png",
                                mime="image/png", key="dl_png", on_click="ignore")

    st.markdown(f"**The whole game** ({solved.graph.num_positions:,} positions)")
    row = _row()
    if solved.graph.num_positions <= EXPORT_MAX_POSITIONS:
        row.download_button("Positions + moves (JSON lines)", lambda: game_jsonl(solved),
                                file_name=f"{slug(spec)}.jsonl", mime="application/x-ndjson", key="dl_game", on_click="ignore")
    else:
        row.caption(f"Too big to download from the page: use `{shell_hint('export', spec)}`.")
    chart = None
    if overview.chart_available(game):
        with guarded("The chart downloads"):
            chart = overview.chart_of(game)
    if chart is not None:
        from explorer.render.chart import as_records, as_text
        row.download_button("Strategy chart (text)", as_text(chart), file_name=f"{slug(spec)}.chart.txt",
                                mime="text/plain", key="dl_chart_txt", on_click="ignore")
        row.download_button("Strategy chart (JSON)", json.dumps(as_records(chart), indent=1),
                                file_name=f"{slug(spec)}.chart.json", mime="application/json", key="dl_chart_json", on_click="ignore")
