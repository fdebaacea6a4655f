"""The canvas's style rules beyond the value colours (issues 35 and 38): "Size by" (remoteness, degree, temperature),
colouring by cycle membership and by temperature, and G written on the nodes of games with combinatorial values.
Expectations are read off the solved graph (its arrays, its records), not off the canvas's own data."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.cgt.notation import parse_value
from explorer.render import palette
from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.canvas import elements
from explorer.ui.canvas.style import SMALLEST


@pytest.fixture(scope="module")
def domineering():
    return load_or_build("domineering(rows=2,cols=3)")


def _nodes(solved, count=40):
    g = solved.graph
    keys = [g.key(i) for i in range(min(count, g.num_positions))]
    return {k: canvas.position_node(solved.game, solved, k, False, keys[0], None)["data"] for k in keys}


def test_a_cgt_node_shows_g_and_is_coloured_and_sized_by_its_temperature(domineering):
    """Each node of a CGT game carries G under its key, written as the page writes it (±, not +-), and its
    temperature; hotter positions are filled deeper and drawn larger; a cold one (t <= 0) takes the cold end."""
    seen = []
    for key, data in _nodes(domineering).items():
        record = domineering.record(domineering.graph.find(key))
        assert data["label"].endswith("\nG = " + str(parse_value(record["cgt"])))
        assert "+-" not in data["label"]
        t = record["temperature"]
        if t <= 0:
            assert data["_fill_temperature"] == palette.TEMPERATURE_COLD and data["_size_temperature"] == 0
        seen.append((t, data["_size_temperature"], palette.lab(data["_fill_temperature"])[0]))
    seen.sort()
    assert len({t for t, _, _ in seen}) >= 3, seen  # cold and hot positions both looked at
    for (t1, s1, l1), (t2, s2, l2) in zip(seen, seen[1:]):
        if t2 > t1:
            assert s2 > s1 or (t1 <= 0 and t2 <= 0)
            assert l2 < l1 or (t1 <= 0 and t2 <= 0)  # deeper: darker
    start = _nodes(domineering, 1)[domineering.graph.key(0)]
    assert start["temperature"] == "5/4"  # Winning Ways: the 2x3 rectangle {2 | -1/2}, temperature 5/4


def test_size_by_degree_and_remoteness_and_the_cycle_fill():
    """Degree is the moves out of and into the position in the whole game, against the largest; remoteness against
    the game's longest; on a cycle the one cycle colour."""
    solved = load_or_build("chopsticks:standard")
    g = solved.graph
    into = [0] * g.num_positions
    for node in range(g.num_positions):
        for t in g.successors(node):
            into[int(t)] += 1
    degree = [len(g.successors(n)) + into[n] for n in range(g.num_positions)]
    most = max(degree)
    longest = max(solved.record(n)["remoteness"] or 0 for n in range(g.num_positions))
    for key, data in _nodes(solved, 60).items():
        node = g.find(key)
        record = solved.record(node)
        assert data["_size_degree"] == pytest.approx(degree[node] / most)
        assert data["_size_remoteness"] == pytest.approx((record["remoteness"] or 0) / longest)
        assert data["_fill_cycle"] == (palette.ON_CYCLE if record["on_cycle"] else canvas.marks.NO_FACT)
        assert "G = " not in data["label"] and "temperature" not in data  # no CGT values in Chopsticks


def test_the_size_rule_shrinks_never_grows_and_leaves_the_focus_and_boards_alone():
    rules = {r.selector: r.style for r in canvas.style_rules("value", True, False, sizing="degree")}
    low, high = SMALLEST * canvas.NODE_SIZE, canvas.NODE_SIZE
    assert rules["node"]["width"] == rules["node"]["height"] == f"mapData(_size_degree, 0, 1, {low:g}, {high:g})"
    assert rules["node[_focus]"]["width"] == canvas.NODE_SIZE * 1.25  # after it: the focus keeps its size
    order = [r.selector for r in canvas.style_rules("value", True, False, sizing="degree")]
    assert order.index("node") < order.index("node[_focus]")
    boards = {r.selector: r.style for r in canvas.style_rules("value", True, True, sizing="degree")}
    assert boards["node"]["width"] == canvas.BOARD_SIZE
    assert {r.selector: r.style for r in canvas.style_rules("value", True, False)}["node"]["width"] == canvas.NODE_SIZE
    assert "Size: how many moves" in canvas.legend("value", sizing="degree")
    assert "Size:" not in canvas.legend("value")
    for colouring in ("temperature", "cycle"):
        assert f"_fill_{colouring}" in str(canvas.style_rules(colouring, True, False)[0].style)
        assert canvas.legend(colouring).startswith("Fill:")


def test_no_new_canvas_colour_is_taken_for_a_value():
    for colour in (palette.TEMPERATURE_HOT, palette.TEMPERATURE_COLD):
        assert palette.nearest_value(colour)[0] >= palette.MIN_DISTANCE, colour
    assert palette.ON_CYCLE[1:3] == palette.ON_CYCLE[3:5] == palette.ON_CYCLE[5:7]  # a grey: no hue


def _page(monkeypatch, tmp_path, **params):
    from streamlit.testing.v1 import AppTest

    from explorer.ui import backend as ui_backend

    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")  # nothing listens there: the mirror answers
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    ui_backend.connection.clear()
    at = AppTest.from_file(str(Path(canvas.__file__).parent.parent / "app.py"), default_timeout=300)
    at.query_params.update(**params)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_size_is_kept_in_the_scene_url_and_a_bad_one_is_one_escaped_line(monkeypatch, tmp_path):
    from explorer.ui.widgets import echo
    from tests.support.ui_support import text_of

    at = _page(monkeypatch, tmp_path, game="chopsticks:standard", size="degree")
    assert at.selectbox(key="canvas_size").value == "degree" and at.query_params["size"] == "degree"
    assert not at.warning
    assert "temperature" not in at.selectbox(key="canvas_size").options  # no CGT values in Chopsticks
    at.selectbox(key="canvas_size").set_value("none").run()
    assert "size" not in at.query_params
    at = _page(monkeypatch, tmp_path, game="chopsticks:standard", size="<b>huge</b>")
    said = [text_of(w.value) for w in at.warning]
    assert len(said) == 1 and echo("<b>huge</b>") in said[0] and "size=" in said[0], said  # quoted, shown literally
    assert at.selectbox(key="canvas_size").value == "none"


def test_a_bad_scene_names_only_the_choices_the_game_offers(monkeypatch, tmp_path):
    """A bad size= or colour= listed every choice, "temperature" too, for a game without CGT values (issue 38);
    now the line names the game's own choices, and a CGT-only choice asked of such a game is refused the same way
    (it was taken silently and dropped)."""
    from tests.support.ui_support import text_of

    for scene in ({"size": "huge"}, {"size": "temperature"}, {"colour": "cgt_kind"}):
        at = _page(monkeypatch, tmp_path, game="chopsticks:standard", **scene)
        said = [text_of(w.value) for w in at.warning]
        (param, value), = scene.items()
        assert len(said) == 1 and f"{param}='{value}'" in said[0], (scene, said)
        offered = at.selectbox(key="canvas_size" if param == "size" else "canvas_colour").options
        listed = said[0].split("is not one of ", 1)[1].split(":", 1)[0]
        assert "temperature" not in listed and "cgt_kind" not in listed, said
        assert len(listed.split(", ")) == len(offered), (listed, offered)  # every choice it offers, named
    at = _page(monkeypatch, tmp_path, game="domineering(rows=2,cols=3)", size="huge")
    said = [text_of(w.value) for w in at.warning]
    assert len(said) == 1 and "temperature" in said[0], said  # a CGT game offers it


@pytest.mark.parametrize("colouring", ["value", "remoteness", "draw_level", "cgt_kind", "temperature", "cycle"])
def test_the_key_strip_shows_each_fill_and_whose_values(colouring):
    """The key above the canvas (style.legend_strip, issue 35): one swatch per fill the colouring uses, in the
    palette's colours, whose side a value colouring is seen from, the player's name escaped."""
    import re

    from explorer.render import palette
    from explorer.ui.canvas.marks import CGT_KIND_COLOURS
    from explorer.ui.canvas.style import legend_strip

    strip = legend_strip(colouring, "<b>X</b>")
    fills = re.findall(r"background:(#[0-9a-f]{6})", strip)
    from explorer.ui.canvas.marks import DRAW_LEVEL_DEAD, NO_FACT

    expected = {"value": list(palette.FILLS.values()),
                "draw_level": [*palette.LEVEL_COLOURS, DRAW_LEVEL_DEAD, NO_FACT],  # (elements._fills's)
                "cgt_kind": list(CGT_KIND_COLOURS.values()),
                "temperature": [palette.TEMPERATURE_COLD, palette.TEMPERATURE_HOT]}.get(colouring)
    if expected is not None:
        assert [f for f in fills if f != "#ffffff"] == [c for c in expected if c != "#ffffff"], fills
    assert "<b>X</b>" not in strip
    if colouring in ("value", "remoteness"):
        assert "&lt;b&gt;X&lt;/b&gt;" in strip and "to move here" in strip
        assert "for the player to move at each node" in legend_strip(colouring, None)
    assert "thick ring: here" in strip and "cluster" not in strip and "cluster" in legend_strip(colouring, None, True)
