"""Board drawings in the explorer: every game's page renders; a click on a board plays the move.

The page runs headless under AppTest. AppTest cannot click inside the custom
component that shows a clickable board (tests/ui/test_browser.py does that in
Chromium), so here the component is replaced by a stand-in that answers the
way the component does after a click: with the `pos` of the link clicked.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs

import pytest

pytest.importorskip("streamlit")
from explorer.games import games, parse_spec  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui import position as ui_position  # noqa: E402
from explorer.ui.boards import board_svg  # noqa: E402
from tests.support.ui_support import isolated, page  # noqa: E402,F401 - the autouse fixture


def small_spec(name: str) -> str:
    """A small size of every registered game (so games added later are covered): a preset named
    small/standard when there is one, else the defaults."""
    cls = games()[name]
    for preset in ("small", "standard"):
        if preset in cls.presets:
            return f"{name}:{preset}"
    return name


@pytest.mark.parametrize("name", sorted(n for n, c in games().items() if c.__module__.startswith("explorer.games.")))
def test_every_game_page_renders(name):
    at = page(game=small_spec(name))
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.title[0].value == parse_spec(small_spec(name)).display_name


def linked_positions(svg: str) -> dict[str, str]:
    """data-move label -> pos of every link in a drawing."""
    found = {}
    for href, label in re.findall(r'<a href="([^"]+)" data-move="([^"]+)"', svg):
        found[label.replace("&gt;", ">")] = parse_qs(href.replace("&amp;", "&").lstrip("?"))["pos"][0]
    return found


@pytest.mark.parametrize("spec,key", [("ponghauki", None), ("mutorere", None), ("mutorere", "W|BBB.WWWW/B"),
                                      ("tictactoe", "X../.O./..."), ("ponghauki", "R|BR/B/.R"),
                                      ("chopsticks", None), ("chopsticks", "B|2-3|1-1"), ("chopsticks", "A|0-4|1-1"),
                                      ("chopsticks:even-split", "A|0-2|1-4"),
                                      ("chopsticks(fingers=5,split=transfer,swaps=true,suicide=true)", "A|2-3|1-4"),
                                      ("nim:small", None), ("nim", None), ("nim:marienbad", "B|1-0-5-2")])
def test_board_links_are_exactly_the_moves(spec, key):
    solved = build(spec)
    node = solved.graph.find(key) if key else 0
    links = ui_position.board_links(spec, solved, node)
    svg = board_svg(solved.game, solved.graph.position(node), links)
    # Each link opens the board the move makes, in the orientation it has on this board.
    expected = {m.label: solved.game.format(m.position)
                for m in (solved.game.moves(solved.graph.position(node))
                          if solved.graph.terminal[node] < 0 else [])}
    assert linked_positions(svg) == expected
    assert all(solved.graph.node_of(solved.game.parse(pos)) is not None for pos in expected.values())


def test_a_game_without_a_drawing_shows_its_notation(tmp_path, monkeypatch):
    from explorer.games import plugins
    plugin = Path(__file__).resolve().parents[2] / "docs" / "your-own-game.md"
    code = re.search(r"<!-- tutorial-example: \S+ -->\n```python\n(.*?)```", plugin.read_text(), re.S)[1]
    (tmp_path / "tutorial_game.py").write_text(code)
    monkeypatch.setenv(plugins.ENV, str(tmp_path / "tutorial_game.py"))
    try:
        at = page(game="my-ponghauki")
        assert not at.exception and not at.error
        assert at.code[0].value == "X:OO.XX"
        assert any("no board drawing" in c.value for c in at.caption)
        assert at.button(key="move_0")  # its moves are buttons
    finally:
        plugins.unload(tmp_path / "tutorial_game.py")


@pytest.mark.parametrize("spec,start", [("ponghauki", "B|.B/R/RB"), ("mutorere", "B|BBB.WWWW/B"),
                                        ("tictactoe", "X../.O./..."), ("chopsticks", "A|2-3|1-4")])
def test_a_board_click_plays_the_move(monkeypatch, spec, start):
    solved = build(spec)
    node = solved.graph.find(start)
    # A move whose result no other move reaches (symmetric twins share a link target, and the
    # history then names the first of them).
    here = solved.game.parse(start)  # the page keeps the orientation the URL gives
    moves = solved.game.moves(here)
    targets = [solved.graph.node_of(m.position) for m in moves]
    label = next(m.label for m, t in zip(reversed(moves), reversed(targets)) if targets.count(t) == 1)
    shown = {}

    def clicked_board(markup: str, key: str):
        """Stands in for the component: the user clicked the piece (or cell) of `label`."""
        if key != "board_svg":
            return None
        if "clicked" in shown:
            return None  # the click is reported once, as the component does
        shown["clicked"] = linked_positions(markup)[label]
        return shown["clicked"]

    monkeypatch.setattr(ui_position, "clickable_html", clicked_board)
    at = page(game=spec, pos=start)
    assert not at.exception, [e.value for e in at.exception]
    move = next(m for m in moves if m.label == label)
    target = solved.game.format(move.position)  # the board the click made, as drawn
    assert at.query_params["pos"] == target == shown["clicked"]
    assert solved.graph.node_of(move.position) is not None
    trail = at.session_state["history"]
    assert [step.key for step in trail] == [solved.game.format(here), target]
    assert trail[-1].move == label


def test_a_game_can_draw_its_own_board():
    """A plugin game's own board_svg method is used, and gets the moves' links."""
    from explorer.games.ponghauki import PongHauKi

    class Drawn(PongHauKi):
        name = "drawn-ponghauki"

        def board_svg(self, position, links):
            return f"<svg>{position.cells} {sorted(links)}</svg>"

    game = Drawn()
    assert board_svg(game, game.start(), {"bl>c": "?pos=x"}) == "<svg>BB.RR ['bl>c']</svg>"
    assert board_svg(parse_spec("nim:small"), parse_spec("nim:small").start()).startswith("<svg")
