"""The Cypher console's results at Neo4j Browser's grade (issue 37): every cell readable text (nodes,
relationships, paths, lists and maps laid out, never JSON), lines of position keys drawn (the
library's cycles example draws its cycles), and a history of the statements run since the page opened."""

from __future__ import annotations

import json
import time

import pytest

from queries.results import ConsoleResult, key_steps, readable
from tests.ui.test_browser import ARTIFACTS, browser  # noqa: F401 - the run's Chromium, for the browser test

NODE = {"_labels": ["Position"], "key": "A|1-1|1-1", "value": "loss", "remoteness": 26, "terminal": False}
MOVE = {"_type": "MOVE", "label": "L>R", "optimal": True}


def _json(text: object) -> bool:
    """Whether a cell is JSON text of a list or a map holding something (what the console showed before;
    an empty one, [] or {}, reads the same either way)."""
    try:
        value = json.loads(str(text))
        return isinstance(value, (list, dict)) and bool(value)
    except ValueError:
        return False


def test_nodes_relationships_paths_lists_and_maps_read_as_text_not_json():
    assert readable(NODE) == "(:Position {key: A|1-1|1-1, value: loss, remoteness: 26, terminal: false})"
    assert readable(MOVE) == "[:MOVE {label: L>R, optimal: true}]"
    path = {"nodes": [NODE, {**NODE, "key": "B|1-1|1-2"}], "relationships": [MOVE]}
    assert readable(path) == "A|1-1|1-1 -[L>R]-> B|1-1|1-2"
    assert readable(["A|1-1|1-1", "B|0-2|1-1"]) == "[A|1-1|1-1, B|0-2|1-1]"
    assert readable({"level": 2, "keys": ["a", "b"], "none": None}) == "{level: 2, keys: [a, b], none: null}"
    for value in (NODE, MOVE, path, [1, [2, {"a": "b"}]], {"a": {"b": [1]}}):
        assert not _json(readable(value)) and '"' not in readable(value)
    assert len(readable(list(range(10_000)))) == 2000 and readable(list(range(10_000))).endswith("…")


def test_the_lines_of_keys_of_a_cycles_result_are_its_moves_once_each():
    rows = [[4, ["a", "b", "c", "d", "a"], ["1", "2", "3", "4"]],
            [2, ["a", "b", "a"], ["1", "5"]],
            [1, ["x"], []]]  # one key: no move
    assert key_steps(["length", "keys", "labels"], rows) == [
        ["a", "b", "1"], ["b", "c", "2"], ["c", "d", "3"], ["d", "a", "4"], ["b", "a", "5"]]
    assert key_steps(["keys"], [[["a", "b", "c"]]]) == [["a", "b", None], ["b", "c", None]]  # no names
    assert key_steps(["n", "m"], [[1, "a"], [[1, 2], {"k": "v"}]]) == []
    assert len(key_steps(["keys"], [[[str(i) for i in range(50)]]], max_steps=10)) == 10


def test_the_console_table_holds_readable_text_and_numbers():
    from explorer.ui.console import _shown

    result = ConsoleResult(["p", "n", "keys", "m"], [[NODE, 3, ["a", "b"], {"x": [1, 2]}], [None, None, [], {}]],
                           False, 1000)
    shown = _shown(result)
    cells = [v for row in shown["rows"] for v in row.values()]
    assert not any(_json(v) for v in cells), cells
    assert [row["n"] for row in shown["rows"]][0] == 3  # a column of numbers stays numbers
    assert shown["rows"][0]["keys"] == "[a, b]" and shown["rows"][1]["p"] == "null"
    nested = _shown(ConsoleResult(["levels"], [[[{"level": 1, "keys": ["a"]}, {"level": 2, "keys": ["b", "c"]}]]],
                                  False, 1000))["nested"]
    assert nested == [("levels", [{"level": 1, "keys": "[a]"}, {"level": 2, "keys": "[b, c]"}])]


# -- on the page, with Neo4j ---------------------------------------------------------------------
GAME = "chopsticks:magic-fingers"


@pytest.fixture
def console_page(neo4j_server, tmp_path, monkeypatch):
    pytest.importorskip("streamlit")
    from explorer.solved import build
    from loaders.neo4j_loader import load
    from loaders.settings import open_driver
    from tests.support import ui_support

    with open_driver(neo4j_server) as driver:
        load(build(GAME), driver, neo4j_server.database)
    with ui_support.console_page(neo4j_server, tmp_path / "home", GAME, monkeypatch) as at:
        yield at


@pytest.mark.neo4j
def test_the_cycles_example_draws_its_cycles_and_the_history_reloads_a_statement(console_page):
    at = console_page
    at.selectbox(key="cypher_example").select("cycles").run()
    cycles_text = at.text_area(key="cypher_text").value
    at.button(key="cypher_run").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    shown = at.session_state["cypher_result"]
    table = shown["rows"]
    assert table and not any(_json(v) for row in table for v in row.values())
    # every move of every cycle listed is drawn, between the positions the table names
    steps = {(row["keys"][1:-1].split(", ")[i], row["keys"][1:-1].split(", ")[i + 1], label)
             for row in table for i, label in enumerate(row["labels"][1:-1].split(", "))}
    graph = shown["graph"]
    assert graph and len(graph["relationships"]) == len(steps)
    keys = {node["id"]: node["properties"]["key"] for node in graph["nodes"]}
    assert {(keys[r["start"]], keys[r["end"]], r["properties"]["label"]) for r in graph["relationships"]} == steps
    # the history: both statements, the newest first; a click puts the first back in the editor
    at.text_area(key="cypher_text").input("MATCH (p:Position {game: $game}) RETURN p.key AS key LIMIT 3")
    at.button(key="cypher_run").click().run()
    history = [b for b in at.button if b.key and b.key.startswith("cypher_history_")]
    assert [b.key for b in history] == ["cypher_history_1", "cypher_history_0"]
    at.button(key="cypher_history_0").click().run()
    assert at.text_area(key="cypher_text").value == cycles_text


@pytest.mark.neo4j
def test_a_long_cell_can_be_read_in_full_escaped(console_page):
    """The table cuts a cell at its column's width (a stranger's finding): a row holding a long one is chosen
    under the table and its cells are shown in full, wrapped, as text (markup and links escaped)."""
    from explorer.ui.console import long_rows
    from explorer.ui.widgets import as_text

    at = console_page
    tail = " **not bold** [a link](http://example.com) <b>x</b> " + "end of the cell"
    long = "a long cell " * 20 + tail
    at.text_area(key="cypher_text").input("UNWIND [$short, $long] AS s RETURN s AS text, size(s) AS n")
    at.text_input(key="cypher_params").input(json.dumps({"game": GAME, "short": "short", "long": long}))
    at.button(key="cypher_run").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    rows = at.session_state["cypher_result"]["rows"]
    assert long_rows(rows) == [1]  # only the long row is offered
    pick = next(s for s in at.selectbox if s.key and s.key.startswith("cypher_full_"))
    assert pick.options == ["row 2"]
    pick.select(1).run()
    shown = [m.value for m in at.markdown if "end of the cell" in m.value]
    assert shown == [f"**text**: {as_text(long)}"]  # the whole text, escaped: no bold, no link, no tag
    assert "[a link](http" not in shown[0] and "**not bold**" not in shown[0]


# -- in Chromium ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def chopsticks_ui(neo4j_server, tmp_path_factory):
    from tests.ui.test_canvas_browser import serving_ui_with

    with serving_ui_with(GAME, neo4j_server, tmp_path_factory.mktemp("home")) as url:
        yield url


@pytest.mark.neo4j
@pytest.mark.browser
def test_ctrl_enter_runs_and_a_list_of_positions_is_laid_out_with_no_caption_over_another(chopsticks_ui, browser):  # noqa: F811
    """Ctrl+Enter in the editor runs the statement (no click on Run), and twenty positions with no move
    between them (every draw) are drawn apart: no two nodes' boxes, captions included, overlap (they
    were tiled as a tight grid with captions running into each other)."""
    from tests.ui.test_browser import settle
    from tests.ui.test_canvas_browser import cy, open_console

    page = browser.new_page(viewport={"width": 1000, "height": 1300})
    open_console(page, chopsticks_ui, GAME, "MATCH (p:Position {game: $game}) WHERE p.value = 'draw' RETURN p LIMIT 20")
    page.get_by_label("Cypher (read-only)").press("Control+Enter")
    settle(page)
    page.get_by_text("20 rows.").wait_for(timeout=30_000)
    frame_element = page.locator('iframe[src*="streamlit_cytoscape"]').first
    frame_element.wait_for(timeout=30_000)
    frame_element.scroll_into_view_if_needed()
    frame = frame_element.element_handle().content_frame()
    frame.wait_for_function("() => document.getElementById('cy')?._cyreg?.cy?.nodes().length === 20", timeout=30_000)
    time.sleep(1.0)
    boxes = cy(frame, "cy.nodes().map(n => n.boundingBox({includeLabels: true}))")
    overlaps = [(i, j) for i, a in enumerate(boxes) for j, b in enumerate(boxes[i + 1:], i + 1)
                if a["x1"] < b["x2"] and b["x1"] < a["x2"] and a["y1"] < b["y2"] and b["y1"] < a["y2"]]
    assert not overlaps, overlaps
    assert page.get_by_text("History: 1 statement run since the page opened").count() == 1
    page.screenshot(path=str(ARTIFACTS / "console-draws.png"), full_page=True)
    page.close()


@pytest.mark.neo4j
@pytest.mark.browser
def test_a_long_cell_is_read_in_full_in_chromium_as_text(chopsticks_ui, browser):  # noqa: F811
    """In Chromium, at 1,440 and 1,000 px: the row chosen under the table shows its long cell whole, wrapped
    inside the page's width, its markup as text (no link, no bold, no tag)."""
    import re

    from tests.ui.test_browser import settle
    from tests.ui.test_canvas_browser import open_console

    tail = "**not bold** [a link](http://example.com) <b>x</b> end of the cell"
    for width in (1440, 1000):
        page = browser.new_page(viewport={"width": width, "height": 1300})
        open_console(page, chopsticks_ui, GAME, f"RETURN '{'a long cell ' * 25}{tail}' AS text, 1 AS n")
        page.get_by_role("button", name="Run", exact=True).click()
        settle(page)
        page.get_by_text("Read a row in full").wait_for(timeout=30_000)
        page.get_by_role("combobox", name=re.compile("^Read a row in full")).click()
        page.get_by_role("option", name="row 1").click()
        settle(page)
        shown = page.get_by_text("end of the cell").last
        shown.wait_for(timeout=30_000)
        assert tail in shown.inner_text().replace("\u200b", "")  # as_text breaks a bare address with a zero-width space
        box = shown.bounding_box()
        assert box["x"] + box["width"] <= width  # wrapped inside the page
        assert page.locator('a[href*="example.com"]').count() == 0
        page.screenshot(path=str(ARTIFACTS / f"console-full-text-{width}.png"), full_page=True)
        page.close()
