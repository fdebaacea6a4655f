"""The page of a game too large for a graph (explorer/ui/implicit_page.py), answered from its value file:
the board with every move's value on it, the moves with links, the best line board by board, and play
against the perfect player. Dodgem 3x3 is solved with the implicit mode and the page's graph limit is
lowered (GAMEGRAPH_UI_MAX_POSITIONS) so that it gets this page; an edge solve without symmetry
reduction is the independent oracle."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

pytest.importorskip("streamlit")
from tests.support.ui_support import isolated, markdown, page  # noqa: E402,F401 - the autouse fixture
from explorer import implicit, tiered  # noqa: E402
from explorer.games import parse_spec  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui import implicit_page  # noqa: E402
from explorer.ui.play_panel import replay  # noqa: E402

SPEC = "dodgem:3x3"


@pytest.fixture
def solved_into_a_file(monkeypatch):
    """Dodgem 3x3 solved into a value file, over the page's graph limit; the edge solve beside it."""
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "1000")
    game = parse_spec(SPEC)
    implicit.solve(game)
    return game, build(SPEC, symmetry=False)


def board_moves(at, key: str = "board_svg") -> dict[str, dict[str, str]]:
    """data-move label -> the attributes of its link on the board handed to the clickable component."""
    element = next(e for e in at.get("bidi_component") if e.proto.id.endswith(key))
    svg = json.loads(element.proto.json)
    return {m.group(2): dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(0)))
            for m in re.finditer(r'<a href="([^"]+)" data-move="([^"]+)"[^>]*>', svg)}


def test_the_page_is_chosen_by_the_value_file_and_the_pages_limit(monkeypatch):
    game = parse_spec(SPEC)
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "1000")
    assert not implicit_page.wanted(game)         # no value file: the graph page refuses, naming --implicit
    implicit.solve(game)
    assert implicit_page.wanted(game)
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "10000")
    assert not implicit_page.wanted(game)         # a graph of it fits the page: the graph page
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "many")
    assert not implicit_page.wanted(game)         # a bad setting: the graph page says so in one line


@pytest.mark.parametrize("key", [None, "B|b../.b./.rr", "A|.b./br./..r"])
def test_every_move_is_on_the_board_with_its_value_and_remoteness(solved_into_a_file, key):
    game, graph = solved_into_a_file
    at = page(game=SPEC, **({"pos": key} if key else {}))
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    position = game.start() if key is None else game.parse(key)
    node = graph.graph.node_of(position)
    value = f"{graph.value(node)} in {graph.remoteness(node)}"
    said = [m.value for m in at.markdown if "to move" in m.value and value in m.value]
    assert len(said) == 1 and "Value for" in said[0], said  # the position's value once, as a badge
    on_board = board_moves(at)
    legal = game.moves(position)
    assert sorted(on_board) == sorted(m.label for m in legal) and legal
    for move in legal:
        child = graph.graph.node_of(move.position)
        link = on_board[move.label]
        assert link["data-value"] == str(graph.value(child).for_previous_player())
        assert link["data-remoteness"] == str(graph.remoteness(child))
        assert f"pos={game.format(move.position)}".replace("|", "%7C").replace("/", "%2F") in link["href"]
        assert f"[`{game.format(move.position).replace('|', chr(92) + '|')}`]" in markdown(at)  # the table


def test_a_finished_position_says_why_the_game_ended_not_who_is_to_move(solved_into_a_file):
    """The value-file page says the same sentence as the graph page (explorer.ui.position.value_sentence):
    at a finished position, Game.ending and the winner, and no "to move" line."""
    from explorer.play import game_over

    game, graph = solved_into_a_file
    rng = random.Random(3)
    position = game.start()
    while game.outcome(position) is None:
        position = rng.choice(game.moves(position)).position
    at = page(game=SPEC, pos=game.format(position))
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    said = game_over(game, position)
    assert said and game.ending(position).rstrip(".") in said
    text = markdown(at)
    from explorer.ui.widgets import md_escape

    assert md_escape(said) in text, (said, text[:2000])
    assert "whose turn it would be" in text and " to move wins" not in text and " to move loses" not in text


def test_the_best_line_is_drawn_board_by_board(solved_into_a_file):
    game, graph = solved_into_a_file
    at = page(game=SPEC, view="Best line")
    assert not at.exception and not at.error
    expected = graph.principal_line(0, limit=implicit_page.LINE_BOARDS)
    assert len(expected) == min(implicit_page.LINE_BOARDS, graph.remoteness(0)) + 1 > 1
    text = markdown(at)
    keys = [html.unescape(k.replace("<wbr>", "")) for k in re.findall(r'^<span [^>]*><a href="\?game=[^"]*"[^>]*><code [^>]*>(.*?)</code></a></span>',
                                                  text, re.M)]
    assert keys == [graph.graph.key(node) for node, _ in expected]
    for i, (node, label) in enumerate(expected):
        assert implicit_page.unbroken(f"**{i}.** " + ("here" if label is None else label.replace("-", "\\-"))) in text
    images = sum(1 for _ in _elements(at, "Image"))
    assert images == len(expected)
    at.number_input(key="implicit_line_length").set_value(5).run()
    keys = [html.unescape(k.replace("<wbr>", "")) for k in re.findall(r'^<span [^>]*><a href="\?game=[^"]*"[^>]*><code [^>]*>(.*?)</code>',
                                                  markdown(at), re.M)]
    assert keys == [graph.graph.key(node) for node, _ in expected[:6]]


def test_the_best_lines_captions_wrap_between_words_only(solved_into_a_file):
    """Every move in the captions under the boards sits in one no-wrap span, and every key breaks only
    between the board's rows (a stranger saw a caption break inside a position's notation, then, with the
    keys unbroken, a key clipped by the next column); the plain words around them still wrap."""
    game, graph = solved_into_a_file
    at = page(game=SPEC, view="Best line")
    shown = "\n".join(m.value for m in at.markdown if m.value.startswith(("**", "<span")))
    spans = re.findall(r'<span class="gg-notation" style="white-space: nowrap">(.*?)</span>', shown)
    keys = re.findall(r'<span class="gg-key">(.*?)</span>', shown)
    outside = re.sub(r"<span[^>]*>.*?</span>", "", shown)
    line = graph.principal_line(0, limit=implicit_page.LINE_BOARDS)
    assert len(line) > 2
    for node, label in line:
        key = graph.graph.key(node)
        rows = html.escape(key).replace("/", "/<wbr>")
        assert any(f'white-space: normal; word-break: keep-all; overflow-wrap: normal; font-size: 0.72rem">'
                   f"{rows}</code>" in span for span in keys), key
        assert key not in outside and rows not in outside
        if label:
            assert any(span.endswith(" " + label.replace("-", "\\-")) for span in spans), label
            assert label.replace("-", "\\-") not in outside


def _elements(at, kind: str):
    def walk(node):
        if type(node).__name__ == kind:
            yield node
        for child in getattr(node, "children", {}).values():
            yield from walk(child)
    return walk(at._tree)


def test_a_whole_game_against_the_perfect_player_from_the_value_file(solved_into_a_file):
    """Blue wins Dodgem 3x3: playing Red at random, the perfect Blue never slips and wins; the board of
    the Play tab carries the moves' values when asked, and the game replays the same over the graph."""
    game, graph = solved_into_a_file
    at = page(game=SPEC, view="Play", side="B")
    rng = random.Random(3)
    for _ in range(60):
        assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
        buttons = [b for b in at.button if b.key and b.key.startswith("play_move_")]
        if not buttons:
            break
        rng.choice(buttons).click().run()
    assert any("you **lost**" in s.value for s in at.warning), [s.value for s in at.warning]
    play = at.query_params["play"]
    values = tiered.open_solved(game)
    by_file, by_graph = replay(values, play), replay(graph, play)
    assert [vars(p) for p in by_file.match.plies] == [vars(p) for p in by_graph.match.plies]
    assert not any(p.slip for p in by_file.match.plies if p.player == 0)
    assert "the value file" in "\n".join(c.value for c in at.caption)


def test_the_play_board_shows_the_values_when_asked(solved_into_a_file):
    game, graph = solved_into_a_file
    at = page(game=SPEC, view="Play", side="A")
    assert "data-value" not in json.dumps(board_moves(at, "play_board_svg"))   # a game, not a hint, by default
    at.toggle(key="play_move_values").set_value(True).run()
    for label, link in board_moves(at, "play_board_svg").items():
        child = graph.graph.node_of(next(m.position for m in game.moves(game.start()) if m.label == label))
        assert link["data-value"] == str(graph.value(child).for_previous_player())


@pytest.mark.parametrize("params,said", [({"pos": "garbage"}, "invalid dodgem position"),
                                         ({"pos": "A|bbb/bbb/bbb"}, "9 blue cars"),
                                         ({"view": "Play", "play": "1.99"}, "stops making sense"),
                                         ({"view": "Cycles"}, "No 'Cycles' tab")])
def test_bad_input_is_one_line(solved_into_a_file, params, said):
    at = page(game=SPEC, **params)
    assert not at.exception, [e.value for e in at.exception]
    lines = [e.value for e in at.error] + [i.value for i in at.info]
    assert sum(said in line for line in lines) == 1, lines
    shown = markdown(at)  # the start instead: its value, once, as the header's badge
    assert ("Value for Blue (to move)" in shown and ">win in 20</span>" in shown) or "play" in params


# -- the Neighbourhood tab: a part materialised from the value file on the canvas ----------------------

def test_the_neighbourhood_tab_draws_a_part_with_the_whole_games_values(solved_into_a_file):
    game, _ = solved_into_a_file
    key = "B|b../.b./.rr"
    at = page(game=SPEC, view="Neighbourhood", pos=key)
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    grown = at.session_state["canvas_grown"]
    assert key in grown.nodes and len(grown.nodes) > 5 and grown.edges
    # The oracle: the edge solver's graph from the start and from every position drawn (un-moves can
    # lead to positions the start never reaches).
    oracle = build(SPEC, symmetry=False, use_arrays=False, extra_starts=[game.parse(k) for k in grown.nodes])
    for k, element in grown.nodes.items():
        node = oracle.graph.node_of(game.parse(k))
        assert element["data"]["value"] == str(oracle.value(node)), k
        assert element["data"].get("remoteness") == oracle.remoteness(node), k
    for edge in grown.edges.values():
        data = edge["data"]
        source = oracle.graph.node_of(game.parse(data["source"]))
        target = oracle.graph.node_of(game.parse(data["target"]))
        flags = [bool(oracle.solution.optimal[e]) for e in oracle.graph.edge_range(source)
                 if int(oracle.graph.succ_indices[e]) == target]
        assert flags == [data["optimal"]], data["id"]
    captions = "\n".join(c.value for c in at.caption)
    assert f"gamegraph load {SPEC} --around '{key}' --radius 2" in captions


def test_a_links_k_is_the_parts_radius(solved_into_a_file):
    """k= in the address reaches the part on the first run (the canvas's controls apply it after the part
    is made): the part is materialised to that radius, not to the box's default."""
    key = "B|b../.b./.rr"
    for k in (1, 3):
        at = page(game=SPEC, view="Neighbourhood", pos=key, k=str(k))
        assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
        captions = "\n".join(c.value for c in at.caption)
        assert f"--radius {k}" in captions, captions
        assert f"within {k} of" in captions, captions


def test_expanding_past_the_part_materialises_more_then_says_where_it_ends(solved_into_a_file):
    from explorer.core.errors import GameGraphError
    from explorer.solved import materialise
    from explorer.ui import canvas
    from explorer.ui.backend import Backend

    game, graph = solved_into_a_file
    values = tiered.open_solved(game)
    part = materialise(values, game.start(), 1, "out", limit=40)
    backend = Backend("arrays", "a part", queries=implicit_page.PartQueries(part))
    focus = game.format(game.start())
    grown = canvas.start(game, part, backend, focus, 1, "out", False, ("part",), 0)
    edge = next(k for k in grown.nodes if not part.complete(k, "out"))
    added = canvas.expand(grown, game, part, backend, edge, "out", False, focus)
    successors = {game.format(m.position) for m in game.moves(game.parse(edge))}
    assert added and successors <= set(grown.nodes)
    refused = ""
    for _ in range(40):  # expand every node until the part's limit says where it ends (the canvas's
        for k in list(grown.nodes):  # event handler shows that line under the canvas)
            try:
                canvas.expand(grown, game, part, backend, k, "out", False, focus)
            except GameGraphError as exc:
                refused = str(exc)
                break
        if refused:
            break
    assert "holds at most 40 positions, so it ends at" in refused and "\n" not in refused
    assert len(grown.nodes) <= part.graph.num_positions <= 40
    for k, element in grown.nodes.items():  # every position drawn still has the whole game's value
        node = graph.graph.node_of(game.parse(k))
        assert (element["data"]["value"], element["data"].get("remoteness")) == \
            (str(graph.value(node)), graph.remoteness(node)), k


# -- how many positions: the reachable ones, not every index the value file ranks ----------------------------
def _caption(at) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Answered from"))


@pytest.mark.parametrize("solve", ["implicit", "tiered"])
def test_the_page_counts_the_reachable_positions_not_the_ranked_indices(monkeypatch, solve):
    """A value file ranks every index, reachable or not, and a tiered solve ranks whole tiers: the page said
    "2,846 positions solved" for Dodgem 3x3, of which 2,055 are reachable from the start (the edge solve
    without symmetry reduction, the oracle). It now says the reachable count and labels the other honestly."""
    monkeypatch.setenv("GAMEGRAPH_UI_MAX_POSITIONS", "1000")
    monkeypatch.setattr(implicit_page, "_REACHABLE", {})
    game = parse_spec(SPEC)
    values = implicit.solve(game) if solve == "implicit" else tiered.solve(game, workers=1, processes=False)
    reachable = build(SPEC, symmetry=False).graph.num_positions
    ranked = values.meta["positions"]
    assert reachable < ranked  # the two numbers differ, so the test can tell them apart
    at = page(game=SPEC)
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    said = _caption(at)
    assert ("the tiered solve" in said) == (solve == "tiered")
    assert f"{reachable:,} positions reachable from the start" in said, said
    assert f"{ranked:,} legal positions solved" in said and "reachable from the start or not" in said, said
    assert f"{ranked:,} positions solved" not in said
    assert not [b for b in at.button if b.key == "implicit_reach"]  # counted at once: no button


def test_a_large_rankings_reachable_count_is_made_when_asked(solved_into_a_file, monkeypatch):
    """Past REACH_AT_ONCE indices the walk (30-100 s on the largest games) runs when the button asks for it,
    and the page says meanwhile that the number shown is of ranked positions, reachable or not."""
    game, graph = solved_into_a_file
    monkeypatch.setattr(implicit_page, "REACH_AT_ONCE", 0)
    monkeypatch.setattr(implicit_page, "_REACHABLE", {})
    at = page(game=SPEC)
    said = _caption(at)
    assert "reachable from the start or not" in said and f"{graph.graph.num_positions:,}" not in said, said
    at.button(key="implicit_reach").click().run()
    assert not at.exception and not at.error, ([e.value for e in at.exception], [e.value for e in at.error])
    assert f"{graph.graph.num_positions:,} positions reachable from the start" in _caption(at)
    assert not [b for b in at.button if b.key == "implicit_reach"]


def test_a_failed_count_is_one_line(solved_into_a_file, monkeypatch):
    from explorer.core.errors import GameGraphError

    def refuse(game, *args, **kwargs):
        raise GameGraphError("no walk today")

    monkeypatch.setattr(implicit_page, "REACH_AT_ONCE", 0)
    monkeypatch.setattr(implicit_page, "_REACHABLE", {})
    monkeypatch.setattr(implicit, "reachable", refuse)
    at = page(game=SPEC)
    at.button(key="implicit_reach").click().run()
    assert not at.exception
    errors = [e.value for e in at.error]  # shown as literal text (widgets.error escapes Markdown)
    assert len(errors) == 1 and "could not be counted" in errors[0] and "no walk today" in errors[0], errors
