"""The draw map and the draw-region map are written by the one Graphviz writer (explorer/render/dot.py:
draw_map_dot, region_map_dot); the analysis panel builds no Graphviz graph of its own."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from tests.support.ui_support import isolated, markdown, page  # noqa: E402,F401 - the autouse fixture
from explorer.render import dot, palette  # noqa: E402
from explorer.render.dot import draw_map_dot, image, region_map_dot  # noqa: E402

PANEL = Path(__file__).resolve().parents[2] / "explorer" / "ui" / "analysis_panel.py"


def test_the_panel_builds_no_graphviz_graph_itself():
    tree = ast.parse(PANEL.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names} | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "graphviz" not in imported
    assert {"draw_map_dot", "region_map_dot"} <= imported


def test_the_draw_map_source():
    dots = {"0": {"fill": palette.DRAW_KIND_SAFE, "key": "A|1-1|1-1", "url": "?game=chopsticks&pos=A%7C1-1%7C1-1",
                  "closed": True},
            "1": {"fill": palette.DRAW_KIND_SHARP, "key": "B|1-2|1-1", "url": "?pos=2", "closed": False}}
    source = draw_map_dot(dots, [("0", "1"), ("1", "0")], centre="1")
    assert "layout=sfdp" in source and source.count("->") == 2
    first = next(line for line in source.splitlines() if line.strip().startswith("0 ["))
    assert palette.DRAW_KIND_SAFE in first and palette.CORE_OUTLINE in first and 'tooltip="A|1-1|1-1"' in first
    second = next(line for line in source.splitlines() if line.strip().startswith("1 ["))
    assert palette.HIGHLIGHT in second and palette.CORE_OUTLINE not in second and 'URL="?pos=2"' in second
    svg = image(source, "svg").decode()
    assert "<svg" in svg and svg.count('xlink:href="?pos=2"') + svg.count('href="?pos=2"') >= 1


def test_the_region_map_source():
    source = region_map_dot([("7", 12, True), ("3", 1, False)])
    assert re.search(r'7 \[label="12 positions" fillcolor="' + re.escape(palette.CORE_FILL), source), source
    assert re.search(r'3 \[label="1 position" fillcolor="' + re.escape(palette.NO_FACT), source), source


@pytest.mark.parametrize("colour_by", ["draw kind", "draw level"])
def test_the_page_draws_its_map_through_the_writer(colour_by, monkeypatch):
    written = []

    def recorded(dots, edges, centre=None):
        written.append((dots, edges, centre))
        return draw_map_dot(dots, edges, centre)

    monkeypatch.setattr(dot, "draw_map_dot", recorded)
    at = page(game="ponghauki", view="Draw map")
    at.radio(key="draw_map_colour").set_value(colour_by).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "draws**" in markdown(at) and written
    dots, edges, _ = written[-1]
    kinds = {facts["fill"] for facts in dots.values()}
    if colour_by == "draw kind":
        assert kinds <= {palette.DRAW_KIND_SAFE, palette.DRAW_KIND_SHARP}
    else:
        assert not kinds & {palette.DRAW_KIND_SAFE, palette.DRAW_KIND_SHARP}
    assert edges and all(a in dots and b in dots for a, b in edges)
