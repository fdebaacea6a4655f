"""The explorer page's logic, run headless by Streamlit's AppTest (no browser, no server).

Each test drives the real page script (explorer/ui/app.py) through its URL
parameters and widgets and checks what a user would read: values, errors, the
URL. Neo4j is pointed at a closed port so the page uses the networkx mirror
whatever the machine runs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from explorer.solved import build  # noqa: E402
from explorer.ui import backend as ui_backend  # noqa: E402
from explorer.ui import history, state  # noqa: E402
from tests.support.ui_support import isolated, text_of  # noqa: E402,F401 - the autouse fixture

APP = str(Path(__file__).resolve().parents[2] / "explorer" / "ui" / "app.py")


def page(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def errors(at: AppTest) -> list[str]:
    return [text_of(e.value) for e in at.error]


def notes(at: AppTest) -> list[str]:
    """The note lines (st.info): a big game the page can solve is refused in one (implicit_page.too_large)."""
    return [text_of(i.value) for i in at.info]


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def test_default_load_shows_the_start_value():
    at = page()
    assert_clean(at)
    assert not errors(at)
    solved = build("chopsticks:standard")
    assert metric(at, "Value") == str(solved.value(0)) == "draw"
    assert metric(at, "To move") == "A"
    assert at.query_params["game"] == "chopsticks:standard"
    assert any("A|1-1|1-1" in m.value for m in at.markdown)
    # every Chopsticks preset is offered
    assert set(at.selectbox(key="pick_preset").options) >= {
        "standard", "magic-fingers", "even-split", "rollover-even-split", "tap-dead-transfer", "attack-only", "rollover"}


def test_url_names_game_and_position():
    at = page(game="tictactoe", pos="X../.O./...")
    assert_clean(at)
    assert not errors(at)
    solved = build("tictactoe")
    node = solved.graph.find("X../.O./...")
    assert metric(at, "Value") == str(solved.value(node))
    assert metric(at, "To move") == "X"
    key = solved.graph.key(node)  # the board's canonical rotation, named as the key asked of
    assert key != "X../.O./..." and any(key in c.value for c in at.caption)
    assert any("X../.O./..." in m.value for m in at.markdown)  # the board keeps the URL's orientation
    assert at.query_params["pos"] == "X../.O./..."


def test_symmetric_twin_keeps_its_orientation_and_names_its_canonical_key():
    at = page(game="chopsticks:standard", pos="A|3-1|1-1")
    assert_clean(at)
    assert at.query_params["pos"] == "A|3-1|1-1"  # the board as the moves left it
    assert any("A|3-1|1-1" in m.value for m in at.markdown)
    assert any("A|1-3|1-1" in c.value for c in at.caption)  # the key every question is asked of


def test_tictactoe_moves_table_label_and_click_agree():
    """★ X a3 must put X on a3: the moves table names each move from the board shown, and its
    click opens the board that move makes (issue 18)."""
    game = build("tictactoe").game
    at = page(game="tictactoe")
    assert_clean(at)
    buttons = [b for b in at.button if str(b.key).startswith("move_")]
    # Every one of the empty board's 9 moves, though the graph stores 3 up to symmetry (a corner, an edge, the centre)
    assert len(buttons) == 9 and len({b.label for b in buttons}) == 9
    for button in buttons:
        label, after = button.label.lstrip("★ ").split("  →  ")
        played = next(m for m in game.moves(game.start()) if m.label == label)
        assert game.format(played.position) == after.replace("\\", "")
    button = at.button(key="move_0")
    label, after = button.label.lstrip("★ ").split("  →  ")
    button.click().run()
    assert_clean(at)
    assert at.query_params["pos"] == after.replace("\\", "")
    assert at.session_state["history"][-1].move == label


def test_malformed_position_shows_an_error_not_a_traceback():
    at = page(game="chopsticks:standard", pos="A|1-1|1")
    assert_clean(at)
    assert any("invalid chopsticks position" in e and "malformed" in e for e in errors(at))
    assert metric(at, "Value") == "draw"  # the start is shown instead, and the page works on
    at.button(key="move_0").click().run()
    assert_clean(at)
    assert at.query_params["pos"] == "B|1-1|2-1"  # L>L as played: B's left hand now holds 2


def test_unreachable_position_is_reported():
    solved = build("nim:small")
    at = page(game="nim:small", pos="B|1-2-3")  # legal notation, but B to move before anyone took anything
    assert_clean(at)
    assert solved.graph.node_of(solved.game.parse("B|1-2-3")) is None
    assert any("not reachable" in e for e in errors(at))
    assert metric(at, "To move") == "A"  # the start instead


def test_a_bad_game_spec_is_one_line_and_the_picker_not_another_game():
    """A bad spec is said in one line and the picker offers the game it names; no other game is shown
    as if it were the one asked (nim with a bad heap list once showed Chopsticks)."""
    at = page(game="chopsticks:nonsense")
    assert_clean(at)
    assert len(errors(at)) == 1 and "unknown preset 'nonsense'" in errors(at)[0], errors(at)
    assert not at.metric and not at.title  # no game page under the error
    at = page(game="nim(heaps=1-x)")
    assert_clean(at)
    assert len(errors(at)) == 1, errors(at)
    assert errors(at)[0].startswith("The game in the link is not valid: heaps='1-x'"), errors(at)
    assert not at.metric and not at.title and "Chopsticks" not in markdown_text(at)
    assert at.query_params["game"] == "nim(heaps=1-x)"  # the link is not silently rewritten to another game
    assert at.sidebar.selectbox(key="pick_game").value == "nim"
    at.sidebar.selectbox(key="pick_preset").set_value("small").run()  # the picker leads to a game
    assert_clean(at)
    assert at.query_params["game"] == "nim:small" and not errors(at)
    assert metric(at, "Value")


def test_a_bad_game_spec_is_shown_as_text():
    at = page(game="nim(heaps=![i](http://x/t.png))")
    assert_clean(at)
    assert len(at.error) == 1
    assert "](http" not in at.error[0].value and "![i]" in text_of(at.error[0].value)


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_clicking_a_move_goes_there_and_records_history():
    at = page(game="chopsticks:standard", pos="A|1-2|1-3", view="History")
    solved = build("chopsticks:standard")
    moves = solved.moves(solved.graph.find("A|1-2|1-3"))
    losing = next(i for i, m in enumerate(moves) if m["value"] == "loss")
    at.button(key=f"move_{losing}").click().run()
    assert_clean(at)
    assert at.query_params["pos"] == moves[losing]["to"]
    assert any(moves[losing]["to"] in m.value for m in at.markdown)
    trail = at.session_state["history"]
    assert [step.key for step in trail] == ["A|1-2|1-3", moves[losing]["to"]]
    # the draw thrown away is flagged as a slip on the History tab
    notes = at.dataframe[0].value["note"].tolist()
    assert notes[1].startswith("⚠ A's draw slipped to a loss")


def test_the_k_box_states_its_bounds_and_the_canvas_holds_a_whole_small_game():
    from explorer.ui import data

    at = page(game="chopsticks:standard", view="Neighbourhood")
    assert_clean(at)
    assert not errors(at)
    box = at.number_input(key="hood_k")
    assert box.max == data.MAX_K and box.min == 1
    assert f"1 to {data.MAX_K}" in box.label
    # k=9 reaches every position of standard Chopsticks: more than the old 300-position refusal,
    # and the canvas shows them all
    at.number_input(key="hood_k").set_value(9).run()
    assert_clean(at)
    assert not errors(at)
    shown = [c.value for c in at.caption if "positions and" in c.value and "on the canvas" in c.value]
    assert shown and int(shown[0].split()[0]) > 300
    grown = at.session_state["canvas_grown"]
    assert len(grown.nodes) == int(shown[0].split()[0])
    assert metric(at, "Value") == "draw"  # the rest of the page is intact


def test_typed_position_goes_there_or_explains():
    at = page(game="chopsticks:standard")
    at.text_input(key="goto_text").set_value("B|1-1|1-2")
    at.button(key="FormSubmitter:goto-Go to position").click().run()
    assert_clean(at)
    assert at.query_params["pos"] == "B|1-1|1-2"
    at.text_input(key="goto_text").set_value("hello")
    at.button(key="FormSubmitter:goto-Go to position").click().run()
    assert_clean(at)
    assert any("invalid chopsticks position 'hello'" in e for e in errors(at))
    assert at.query_params["pos"] == "B|1-1|1-2"


def test_preset_and_parameters_change_the_game():
    at = page()
    at.selectbox(key="pick_preset").select("magic-fingers").run()
    assert_clean(at)
    assert at.query_params["game"] == "chopsticks:magic-fingers"
    assert metric(at, "Value") == str(build("chopsticks:magic-fingers").value(0)) == "loss"
    at.number_input(key="param_chopsticks_fingers").set_value(4).run()
    assert_clean(at)
    assert at.query_params["game"].startswith("chopsticks(")
    assert "fingers=4" in at.query_params["game"]
    assert at.selectbox(key="pick_preset").value == "custom"


def test_bad_parameter_is_reported_and_the_game_kept():
    at = page(game="nim:small")
    at.text_input(key="param_nim_heaps").set_value("1-x").run()
    assert_clean(at)
    assert any("heaps" in e and "not a valid" in e for e in errors(at))
    assert at.query_params["game"] == "nim:small"


def test_cypher_console_says_why_it_is_unavailable():
    at = page(view="Cypher console")
    assert_clean(at)
    info = " ".join(text_of(i.value) for i in at.info)
    assert "needs Neo4j" in info and "networkx" in info


@pytest.mark.parametrize("view", ["History", "Neighbourhood", "Cycles", "Best line", "Strategy chart",
                                  "Statistics", "Cypher console", "Downloads"])
@pytest.mark.parametrize("game, pos", [("chopsticks:standard", "A|1-2|1-3"), ("chopsticks:attack-only", None),
                                       ("tictactoe", "X../.O./..."), ("nim:small", None)])
def test_every_panel_draws_without_errors(view, game, pos):
    params = {"game": game, "view": view}
    if pos:
        params["pos"] = pos
    at = page(**params)
    assert_clean(at)
    assert not errors(at), errors(at)


def test_slip_is_a_worse_value_for_the_mover():
    before = state.Step("A|1-2|1-3", 0, "draw", None)
    assert history.slip(before, state.Step("B|1-2|3-3", 1, "win", 3, move="R>L")) == ("draw", "loss")
    assert history.slip(before, state.Step("B|1-2|1-4", 1, "draw", None, move="L>R")) is None
    assert history.slip(before, state.Step("B|1-2|3-3", 1, "win", 3, move=None)) is None  # a jump, not a move
    won = state.Step("A|1-1|1-1", 0, "win", 5)
    assert history.slip(won, state.Step("x", 1, "loss", 8, move="m")) is None  # a slower win is still a win


@pytest.mark.parametrize("view", ["Neighbourhood", "Cycles", "Best line", "Statistics"])
def test_big_games_are_answered_from_the_solved_arrays(view, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_UI_MIRROR_MAX_POSITIONS", "10")  # pretend the preset is too big for a mirror
    at = page(game="chopsticks:standard", pos="A|1-2|1-3", view=view)
    assert_clean(at)
    assert not errors(at), errors(at)
    assert any("solved arrays" in c.value for c in at.caption)


def _backends():
    from explorer.ui.backend import Backend
    from queries import api
    from loaders.mirror import mirror_for
    G = mirror_for("chopsticks:standard")
    return Backend("arrays", "arrays"), Backend("networkx", "mirror", queries=api.NetworkxBackend(G))


def test_the_arrays_answer_like_the_query_library():
    """The fallback used for big games must agree with queries.api on the same graph."""
    pytest.importorskip("queries.api")
    from explorer.ui import data
    arrays, mirror = _backends()
    solved = build("chopsticks:standard")
    for key in ("A|1-2|1-3", "A|1-1|1-1", "B|2-3|3-3"):
        for direction in ("out", "in", "both"):
            a = data.neighbourhood(arrays, solved, key, 2, direction)
            m = data.neighbourhood(mirror, solved, key, 2, direction)
            assert a.positions == m.positions
            assert sorted(a.edges) == sorted(m.edges)
        a, m = data.cycles(arrays, solved, key), data.cycles(mirror, solved, key)
        assert (a.shortest and a.shortest.length) == (m.shortest and m.shortest.length)
        assert [c.length for c in a.cycles] == [c.length for c in m.cycles]
        assert [c.length for c in a.draw_cycles] == [c.length for c in m.draw_cycles]
        assert len(data.best_line(arrays, solved, key).steps) == len(data.best_line(mirror, solved, key).steps)
    assert data.value_counts(arrays, solved) == data.value_counts(mirror, solved)


def test_the_certificate_is_built_only_when_asked_for():
    at = page(game="nim:small", view="Downloads")
    assert_clean(at)
    assert not errors(at), errors(at)
    assert not any(c.value.startswith("Checked:") for c in at.caption)  # not built on every run
    at.button(key="cert_build").click().run()
    assert_clean(at)
    assert not errors(at), errors(at)
    assert any(c.value.startswith("Checked:") for c in at.caption)


def test_the_best_line_is_asked_for_once_per_run(monkeypatch):
    from queries import api
    asked = []
    run_query = api.run_query

    def counting(backend, name, **params):
        asked.append(name)
        return run_query(backend, name, **params)

    monkeypatch.setattr(api, "run_query", counting)
    at = page(game="nim:small", view="Best line")  # a won start: the line comes from shortest-win
    assert_clean(at)
    assert not errors(at), errors(at)
    assert asked.count("shortest-win") == 1  # shown and offered as a diagram from the same answer
    at.run()
    assert asked.count("shortest-win") == 2


def test_console_rows_show_nested_values_as_readable_text_not_json():
    """Issue 37: a node as Cypher writes it, lists and maps laid out, never raw JSON (no quoted keys)."""
    from explorer.ui import console
    from queries.results import ConsoleResult
    shown = console._shown(ConsoleResult(["n", "k"], [[{"_labels": ["Position"], "key": "A|1"}, 3], [[1, 2], None]],
                                         truncated=True, row_cap=2))
    assert shown["rows"] == [{"n": "(:Position {key: A|1})", "k": 3}, {"n": "[1, 2]", "k": None}]
    assert not any('"' in str(cell) for row in shown["rows"] for cell in row.values())
    assert shown["caption"] == "2 rows; cut at the row cap (2)."


def test_a_game_too_big_for_the_page_is_refused_politely(monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "10")
    at = page(game="nim(heaps=2-2-2-3)")
    assert_clean(at)
    assert any("limit of 10 positions" in e and "GAMEGRAPH_UI_MAX_POSITIONS" in e for e in errors(at))


def test_huge_chopsticks_is_refused_at_once_with_its_estimate():
    """The URL that once took 14 GB: refused from the estimate, before any build (issue 8, item 5)."""
    from explorer.games import parse_spec
    from explorer.ui import builds

    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"] = "chopsticks(fingers=99)"
    started = builds.registry().started_builds  # the process's one registry: other tests' builds are counted
    at.run()
    assert_clean(at)
    estimate = parse_spec("chopsticks(fingers=99)").estimate_positions()
    assert any(f"{estimate:,} positions" in e and "limit of 3,000,000 positions" in e
               and "`gamegraph solve 'chopsticks(fingers=99)'" in e and "solves it in" in e for e in notes(at)), notes(at)
    assert not builds.registry().running()
    assert builds.registry().started_builds == started  # no build was started, not even one cancelled at once


def test_a_game_over_the_memory_budget_is_refused_with_the_estimate(monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_UI_MEMORY", "1M")
    at = page(game="chopsticks(fingers=20)")
    assert_clean(at)
    assert any("memory budget of 1.0 MB" in e and "GAMEGRAPH_UI_MEMORY" in e and "positions" in e
               for e in notes(at)), notes(at)


# -- with the real Neo4j (started by the session fixture in tests/support/neo4j_fixtures.py) ----------
@pytest.fixture
def with_neo4j(neo4j_server, monkeypatch):
    """The page pointed at the test Neo4j, which holds nim:small (loaded here: same data every time)."""
    from loaders.neo4j_loader import load
    from loaders.settings import open_driver
    with open_driver(neo4j_server) as driver:
        load(build("nim:small"), driver, neo4j_server.database)
    monkeypatch.setenv("NEO4J_URI", neo4j_server.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_server.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_server.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_server.database)
    ui_backend.connection.clear()
    return neo4j_server


@pytest.mark.neo4j
def test_play_on_neo4j_uses_the_loaded_game(with_neo4j):
    """With the page on Neo4j, the Play tab's opponent and values are the loaded game's, and the
    game played is the one the solved graph gives (the two hold the same facts)."""
    at = page(game="nim:small", view="Play", side="B", opp="perfect", play="")
    assert_clean(at)
    assert not errors(at), errors(at)
    assert any("come from the game as loaded into Neo4j" in c.value for c in at.caption)
    import random

    from explorer.play import Match, Opponent, Played, start_position
    solved = build("nim:small")
    played = Played(Match(solved), start_position(solved))
    _, target = played.match.choose(Opponent("perfect"), random.Random(0))  # the page seeds ply 0 with 0
    assert at.query_params["play"] == str(played.number_reaching(target))
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in {"game": "nim(heaps=2-2-3)", "view": "Play"}.items():  # not in Neo4j: the solved graph
        at.query_params[name] = value
    at.run()
    assert any("come from the solved graph" in c.value for c in at.caption)


def run_cypher(at: AppTest, text: str) -> AppTest:
    at.text_area(key="cypher_text").input(text)
    return at.button(key="cypher_run").click().run()


@pytest.mark.neo4j
def test_neo4j_is_used_when_it_answers_and_holds_the_game(with_neo4j):
    at = page(game="nim:small", view="Neighbourhood")
    assert_clean(at)
    assert not errors(at), errors(at)
    assert any("Backend: **Neo4j" in c.value for c in at.caption)
    assert any("answered by Neo4j" in c.value for c in at.caption)
    at = page(game="nim(heaps=2-2-3)")  # a game Neo4j does not hold: the mirror, and the page says why
    assert any("networkx mirror" in c.value and "not loaded" in c.value for c in at.caption)


@pytest.mark.neo4j
def test_neo4j_is_asked_about_the_game_once_not_on_every_click(with_neo4j, monkeypatch):
    from queries import api
    made = []

    class Counting(api.Neo4jBackend):
        def __init__(self, *args, **kwargs):
            made.append(args[2])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(api, "Neo4jBackend", Counting)
    at = page(game="nim:small")
    assert any("Backend: **Neo4j" in c.value for c in at.caption)
    at.button(key="move_0").click().run()
    assert_clean(at)
    assert any("Backend: **Neo4j" in c.value for c in at.caption)
    assert made == [build("nim:small").graph.graph_id]


@pytest.mark.neo4j
def test_cypher_console_reads_and_refuses_writes_and_slow_queries(with_neo4j, monkeypatch):
    at = page(game="nim:small", pos="A|1-2-3", view="Cypher console")
    assert_clean(at)
    run_cypher(at, "MATCH (p:Position {game: $game, key: $key})-[m:MOVE]->(q) RETURN m.label AS move")
    assert_clean(at)
    assert not errors(at), errors(at)
    assert len(at.dataframe[0].value) == 6  # A|1-2-3 has six moves
    run_cypher(at, "CREATE (n:Intruder) RETURN n")
    assert_clean(at)
    assert any("read-only" in e for e in errors(at))
    from explorer.ui import console
    monkeypatch.setattr(console, "TIMEOUT_S", 0.5)
    run_cypher(at, "UNWIND range(1, 200000000) AS x WITH x WHERE x % 7 = 99 RETURN count(x)")
    assert_clean(at)
    # the console's limit is fixed: the message says so and how to narrow the query, not "raise the timeout"
    assert any("console's 0.5 s" in e and "limit is fixed" in e and "raise the timeout" not in e
               for e in errors(at)), errors(at)
    run_cypher(at, "MATCH (n) RETURN n LIMIT 1")  # and the console still works
    assert not errors(at)


def test_changing_game_keeps_the_open_tab_and_starts_at_the_start():
    at = page(game="chopsticks:standard", pos="A|1-2|1-3", view="Statistics")
    at.selectbox(key="pick_game").select("nim").run()
    assert_clean(at)
    assert at.query_params["game"] == "nim:marienbad"
    assert "pos" not in at.query_params
    assert at.query_params.get("view") == "Statistics"
    assert metric(at, "Positions") == f"{build('nim:marienbad').graph.num_positions:,}"


@pytest.mark.parametrize("game, left_out", [
    ("tictactoe", {"Cycles", "Strategy chart", "Sum of games", "Draw map", "Survey", "Compare rules"}),
    ("nim:small", {"Cycles", "Strategy chart", "Draw map", "Survey"}),
    ("toads-and-frogs", {"Cycles", "Strategy chart", "Draw map", "Survey"}),
    ("ponghauki", {"Strategy chart", "Sum of games", "Survey", "Compare rules"}),
    ("chopsticks:standard", {"Sum of games"}),
    ("chopsticks:attack-only", {"Cycles", "Sum of games", "Draw map"}),
])
def test_a_game_shows_only_the_tabs_that_apply(game, left_out):
    # explorer/ui/app.py runs its page on import, so its PANELS are not imported here. Issue 35: six
    # tabs, the graph's views first, the analyses' in one tab; a view is still the URL's view=.
    groups = {"Graph": ["Neighbourhood", "Best line", "Cycles", "Whole graph"], "Play": ["Play"],
              "History": ["History"],
              "Analysis": ["Statistics", "Strategy chart", "Draw map", "Compare rules", "Sum of games", "Survey"],
              "Cypher console": ["Cypher console"], "Downloads": ["Downloads"]}
    at = page(game=game)
    assert_clean(at)
    assert [tab.label for tab in at.tabs] == list(groups)  # Graph and Analysis always keep a view
    assert at.button_group(key="view_Graph").options == [v for v in groups["Graph"] if v not in left_out]
    assert "view" not in at.query_params  # the default view, the canvas
    at = page(game=game, view="Statistics")
    analyses = [v for v in groups["Analysis"] if v not in left_out]
    if len(analyses) > 1:  # one view is shown without buttons (tic-tac-toe has only Statistics)
        assert at.button_group(key="view_Analysis").options == analyses
        assert at.button_group(key="view_Analysis").value == "Statistics"
    else:
        assert [g.key for g in at.button_group] == [] and at.query_params["view"] == "Statistics"
    asked = sorted(left_out)[0]
    at = page(game=game, view=asked)  # an old link to a tab this game does not have says why, then shows the rest
    assert_clean(at)
    assert any(text_of(i.value).startswith(f"No {asked} tab here: ") for i in at.info), [i.value for i in at.info]
    assert len(at.tabs) == len(groups)


def test_a_games_canvas_settings_do_not_carry_over_to_another_game():
    """Issue 35: k=4 chosen on one game was kept for the next (dobutsu:small at k=4 failed on Neo4j)."""
    at = page(game="nim:small", view="Neighbourhood", k="3")
    assert_clean(at)
    assert at.number_input(key="hood_k").value == 3
    at.sidebar.selectbox(key="pick_game").set_value("tictactoe").run()
    assert_clean(at)
    assert at.query_params["game"] == "tictactoe" and "k" not in at.query_params
    assert at.number_input(key="hood_k").value == 2  # the canvas's default k, not nim's 3


def test_an_unknown_tab_or_position_in_the_url_is_named_and_replaced():
    at = page(game="chopsticks", view="Nope", pos="garbage")
    assert_clean(at)
    assert any("no tab called 'Nope'" in text_of(i.value) for i in at.info), [i.value for i in at.info]
    assert any("Showing the start position instead" in e for e in errors(at))
    assert at.query_params["pos"] == build("chopsticks").graph.key(0) and "view" not in at.query_params


def test_a_parameter_the_page_does_not_read_is_named_with_the_one_likely_meant_and_dropped():
    """`?position=` (for pos=) showed the start without a word: the parameter is named, with a likely meant
    one, escaped, once; and every parameter the page does read is in state.URL_PARAMS."""
    key = build("chopsticks").graph.key(1)
    at = page(game="chopsticks", position=key, color="remoteness", **{"<b>x</b>": "1"})
    assert_clean(at)
    said = [text_of(i.value) for i in at.info if "not parameters this page reads" in text_of(i.value)]
    assert len(said) == 1, [i.value for i in at.info]
    assert "position= (did you mean pos=?)" in said[0] and "color= (did you mean colour=?)" in said[0]
    assert "<b>x</b>=," in said[0] or "<b>x</b>= " in said[0]  # echoed as text, not markup
    assert not {"position", "color", "<b>x</b>"} & set(at.query_params) and at.query_params["game"] == "chopsticks:standard"
    at.run()  # said once: the address no longer holds them
    assert not any("this page reads" in text_of(i.value) for i in at.info)
    written = set(at.query_params)
    assert written <= set(state.URL_PARAMS), written - set(state.URL_PARAMS)
    from urllib.parse import parse_qsl

    from explorer.ui.play_panel import _link
    board_link = dict(parse_qsl(_link("chopsticks", [1], "A", "perfect", key)[1:]))  # a Ctrl-clicked Play board move
    assert "pick" in board_link
    at = page(**board_link)
    assert_clean(at)
    assert not any("this page reads" in text_of(i.value) for i in at.info), [i.value for i in at.info]


@pytest.mark.parametrize("spec, left_out", [("ponghauki", {"cgt-equal", "cgt-kinds", "cgt-hot", "rule-diff"}),
                                            ("chopsticks", {"cgt-equal", "cgt-kinds", "cgt-hot"}),
                                            ("toads-and-frogs", set())])
def test_the_console_offers_the_examples_that_apply(spec, left_out):
    from explorer.ui import console
    graph_id = build(spec).graph.graph_id
    assert {name for name in console.examples() if not console.applies(name, graph_id)} == left_out
    assert console.applies("rule-diff", "tests-own-id:nim")  # an id that names no game: everything is offered


def test_the_statistics_charts_colour_values_from_the_palette():
    from explorer.render import palette
    from tests.render.test_palette import colour_scales, page_charts

    at = page(game="tictactoe", view="Statistics")
    assert_clean(at)
    scales = [scale for chart in page_charts(at) for scale in colour_scales(chart)]
    assert scales == [{v: palette.COLOURS[v] for v in ("win", "loss", "tie")}] * 2  # by value, by remoteness
    # A game with draws: each value keeps its own colour (a colour column matched by sorting gave draw the loss red).
    at = page(game="chopsticks", view="Statistics")
    assert_clean(at)
    scales = [scale for chart in page_charts(at) for scale in colour_scales(chart)]
    assert scales[0] == {v: palette.COLOURS[v] for v in ("win", "loss", "draw")}
    assert all(scale[v] == palette.COLOURS[v] for scale in scales for v in scale)


# -- what the URL says is shown as text, never as Markdown (issue 19) -----------------------------------
_UNESCAPED_LINK = re.compile(r"(?<!\\)\]\(")  # "](" not preceded by a backslash: Markdown would make a link


@pytest.mark.parametrize("params", [
    {"game": "chopsticks:standard", "pos": "![i](http://127.0.0.1:9/t.png)"},
    {"game": "chopsticks:standard", "pos": "[Session expired](http://127.0.0.1:9/login)"},
    {"game": "[Session expired](http://127.0.0.1:9/login)"},
    {"game": "![i](http://127.0.0.1:9/t.png)"},
    {"game": "chopsticks:standard", "view": "[Session expired](http://127.0.0.1:9/login)"},
    {"game": "chopsticks:standard", "view": "<img src=http://127.0.0.1:9/t.png>"},
])
def test_markdown_from_the_url_is_shown_as_text(params):
    at = page(**params)
    assert_clean(at)
    shown = [*(e.value for e in at.error), *(i.value for i in at.info), *(w.value for w in at.warning)]  # as sent
    assert shown, "the page says nothing about the bad value"
    for line in shown:
        assert not _UNESCAPED_LINK.search(line), line
        assert not re.search(r"(?<!\\)<", line), line  # no tag: "<" comes escaped
    assert any("127\\.0\\.0\\.1" in line for line in shown), shown  # quoted, and escaped where quoted


def test_the_error_helper_escapes_once_for_every_caller(monkeypatch):
    from explorer.ui import widgets
    shown = []
    monkeypatch.setattr(widgets.st, "error", shown.append)
    widgets.error("bad pos ![i](http://x/t.png) and [a](http://x)")
    with widgets.guarded("The panel"):
        raise ValueError("[click](http://x)")
    assert len(shown) == 2 and not any(_UNESCAPED_LINK.search(line) for line in shown), shown
    assert "\\!\\[i\\]" in shown[0] and "ValueError" in shown[1]


@pytest.mark.parametrize("play", ["9" * 5000, "1." + "9" * 5000, "\u00b2", "\uff13", "1" * 10])
def test_a_play_link_with_an_absurd_move_number_is_one_line(play):
    at = page(game="nim:small", view="Play", play=play)
    assert_clean(at)
    assert len(errors(at)) == 1 and "stops making sense" in errors(at)[0], errors(at)
    assert "is not available" not in errors(at)[0]


def test_with_neo4j_switched_off_the_page_never_asks_for_its_password(monkeypatch):
    """`gamegraph up --no-neo4j` gives the page GAMEGRAPH_NO_NEO4J=1: nothing about Neo4j is probed or
    asked for (the page once said "no Neo4j password: set NEO4J_PASSWORD")."""
    from loaders import settings as neo4j_settings

    def asked(*args, **kwargs):
        raise AssertionError("the Neo4j settings were read")

    monkeypatch.setenv(neo4j_settings.NO_NEO4J_ENV, "1")
    monkeypatch.setattr(neo4j_settings.Neo4jSettings, "from_env", classmethod(asked))
    at = page(game="nim:small", view="Cypher console")
    assert_clean(at)
    shown = "\n".join([c.value for c in at.caption] + [m.value for m in at.markdown] + errors(at)
                      + [w.value for w in at.warning] + [i.value for i in at.info])
    assert "NEO4J_PASSWORD" not in shown and "password" not in shown.lower(), shown
    line = next(c.value for c in at.caption if c.value.startswith("Backend:"))
    assert "switched off" in line and "--no-neo4j" in line, line


# -- server time per run (issue 18, "Speed") -------------------------------------------------------------
def _runs_logged(tmp_path) -> list[dict]:
    import json

    log = tmp_path / "home" / "ui-runs.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_the_page_logs_each_runs_server_time_only_when_asked(tmp_path, monkeypatch):
    page(game="nim:small", view="Statistics")
    assert _runs_logged(tmp_path) == []  # off by default: a user's page writes nothing
    monkeypatch.setenv("GAMEGRAPH_UI_RUN_TIMES", "1")
    at = page(game="nim:small", view="Statistics")
    at.run()
    assert_clean(at)
    runs = _runs_logged(tmp_path)
    assert len(runs) == 2, runs
    assert all(r["what"] == "page" and r["ended_by"] == "end" and r["view"] == "Statistics" for r in runs), runs
    assert all(0 < r["cpu"] and 0 < r["seconds"] < 120 for r in runs), runs


def test_the_profile_of_each_run_is_kept_when_asked(tmp_path, monkeypatch):
    import pstats

    monkeypatch.setenv("GAMEGRAPH_UI_PROFILE", "1")
    assert_clean(page(game="nim:small"))
    (run,) = _runs_logged(tmp_path)
    stats = pstats.Stats(str(tmp_path / "home" / run["profile"]))
    assert any(name == "main" and path.endswith("app.py") for path, _, name in stats.stats), "main not profiled"


def test_a_rerun_of_the_statistics_tab_builds_no_chart_again(monkeypatch):
    """Building the two Altair charts (their schema validation) was most of this tab's rerun: the specs
    are cached on the counts, so a rerun sends the same charts without building them."""
    import altair as alt

    from explorer.ui import overview

    built = []
    to_dict = alt.Chart.to_dict
    monkeypatch.setattr(alt.Chart, "to_dict", lambda self, *a, **k: built.append(1) or to_dict(self, *a, **k))
    overview._stats_specs.clear()
    at = page(game="tictactoe", view="Statistics")
    first = len(built)
    charts = [element.proto.spec for element in at.get("vega_lite_chart")]
    at.run()
    assert_clean(at)
    assert first == 2 and len(built) == first, built  # by value and by remoteness, once
    assert [element.proto.spec for element in at.get("vega_lite_chart")] == charts


def test_a_big_unsolved_game_says_how_to_solve_it_and_links_the_presets_that_open():
    """Issue 35: choosing "dobutsu" opened the standard preset and refused it with its 19.1 TB estimate and a
    link to chopsticks. Now one line says which command solves it and how long that takes here, and the
    game's presets that open now are linked."""
    at = page(game="dobutsu")
    assert_clean(at)
    # an expected state, which the page can act on: a note, not an error box (H5, session 21), its command as code
    assert not errors(at) and len(at.info) == 1, (errors(at), [i.value for i in at.info])
    assert "`gamegraph solve dobutsu:standard --implicit`" in at.info[0].value, at.info[0].value
    line = text_of(at.info[0].value)
    assert "gamegraph solve dobutsu:standard --implicit" in line and " min here" in line, line
    # the refusal's reason stays in front (a877ff4: the estimate and the limit it is over), then the command
    assert "positions" in line and line.index("positions") < line.index("gamegraph solve") and not at.title
    links = " ".join(m.value for m in at.markdown)
    assert "?game=dobutsu%3Asmall" in links and "?game=dobutsu%3Alions" in links and "chopsticks" not in links


@pytest.mark.parametrize("spec, limit", [("chopsticks(fingers=99)", None), ("dodgem:5x5", "1000")])
def test_a_refused_games_line_names_its_solve_once_as_explorer_solved_gives_it(spec, limit, monkeypatch):
    """The page worked out its own solve advice in two places (explorer/ui/builds.py and implicit_page.py), and
    a game over the position limit named its solve twice in its one line. The remedy now comes from
    explorer.solved (advice for the page), once: the command, how long it takes here, that the page opens it."""
    from explorer.games import parse_spec
    from explorer.solved import advice

    if limit:
        monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", limit)
    at = page(game=spec)
    assert_clean(at)
    # both can be solved into a value file here: a note, not an error line
    lines = [text_of(i.value) for i in at.info]
    assert len(lines) == 1 and not errors(at), (lines, errors(at))
    line = lines[0]
    remedy = text_of(advice(parse_spec(spec), command="ui"))
    assert text_of(line).count("gamegraph solve") == 1 and remedy in text_of(line), line
    assert "solves it in" in remedy and " here" in remedy and "the page then opens it" in remedy


@pytest.mark.parametrize("asked, opened", [("Analysis", "Statistics"), ("Graph", "Neighbourhood")])
def test_a_tabs_name_in_the_url_opens_its_first_view(asked, opened):
    at = page(game="chopsticks:standard", view=asked)
    assert_clean(at)
    assert not at.info and not errors(at)
    assert at.query_params.get("view", "Neighbourhood") == opened


def test_a_hostile_view_in_the_url_is_one_escaped_line():
    at = page(game="nim:small", view="<img src=x onerror=alert(1)>**bold**" + "x" * 500)
    assert_clean(at)
    lines = [i.value for i in at.info]
    assert len(lines) == 1 and "<img" not in lines[0].replace("\\<", "") and len(lines[0]) < 200, lines
    assert "view" not in at.query_params and [t.label for t in at.tabs][0] == "Graph"


def test_a_games_first_build_leaves_no_box_above_the_canvas(monkeypatch):
    """The status box of a game's first build stayed above the title once the game was ready, and pushed the
    canvas 54 px down on every game's first visit: its last line is a toast now, and the placeholder is empty."""
    import time

    from explorer.solved import load_or_build
    from explorer.ui import builds

    def slow(game, symmetry, max_positions):  # a build long enough for the page to show its status box
        time.sleep(0.5)
        return load_or_build(game, symmetry=symmetry, max_positions=max_positions)

    monkeypatch.setattr(builds, "_registry", builds.Registry(load=slow))
    at = page(game="tictactoe")
    assert not at.exception
    assert not [box.label for box in at.expander if "ready in" in box.label]
    assert [toast.value for toast in at.toast if "tictactoe: 765 positions" in toast.value]
    assert at.title[0].value == "tictactoe"
