"""One home for a solved game (explorer/solved/storage.py): which storage answers, a solve that is kept,
and one reader whatever the storage."""

from __future__ import annotations

import pytest

from explorer.cli import main
from explorer.core.errors import GameGraphError
from explorer.games import parse_spec
from explorer.solved import (GRAPH, GRAPH_FIRST, GRAPH_ONLY, IMPLICIT, VALUES, VALUES_ONLY, choose, open_solved,
                             solve)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GAMEGRAPH_PROGRESS", "0")
    return tmp_path / "home"


def _no_solving(monkeypatch):
    """Generation and the solver fail from here on: whatever answers reads what is kept."""
    import explorer.solved.graph as solved_graph

    def refused(*args, **kwargs):
        raise AssertionError("solved again")

    monkeypatch.setattr(solved_graph, "generate", refused)
    monkeypatch.setattr(solved_graph, "solve", refused)


def test_solve_is_kept_and_show_reads_it_without_solving_again(home, monkeypatch, capsys):
    assert main(["solve", "tictactoe"]) == 0
    solved_out = capsys.readouterr().out
    assert "tie" in solved_out
    _no_solving(monkeypatch)
    assert main(["show", "tictactoe"]) == 0
    shown = capsys.readouterr().out
    assert "tie in 9" in shown and "X a3" in shown
    assert main(["show", "tictactoe", "--no-symmetry"]) == 0  # solve kept the full graph too
    assert main(["export", "tictactoe", "-o", str(home.parent / "t.jsonl")]) == 0
    assert sum(1 for _ in open(home.parent / "t.jsonl")) == 765
    # and the Python API and the page's loader (explorer.ui.builds: load_or_build under the page's limit) too
    assert str(open_solved("tictactoe").value()) == "tie"
    from explorer.solved import load_or_build
    from explorer.core.settings import DEFAULT_UI_MAX_POSITIONS

    assert load_or_build(parse_spec("tictactoe"), max_positions=DEFAULT_UI_MAX_POSITIONS).graph.num_positions == 765


def test_solve_from_another_start_is_not_kept(home, monkeypatch, capsys):
    assert main(["solve", "tictactoe", "--start", "X../.../...", "--no-symmetry"]) == 0
    capsys.readouterr()
    _no_solving(monkeypatch)
    with pytest.raises(AssertionError, match="solved again"):
        open_solved("tictactoe", symmetry=False)


def test_choose_follows_the_preference(home):
    game = parse_spec("dodgem:3x3")  # 2,846 positions, offers a value file
    assert [choose(game, p, 1000) for p in (VALUES, GRAPH_FIRST, GRAPH_ONLY)] == [GRAPH] * 3  # nothing stored
    assert choose(game, VALUES_ONLY, 1000) == IMPLICIT                          # opening it names the solve
    with pytest.raises(GameGraphError, match="--implicit"):
        open_solved(game, VALUES_ONLY)
    solve(game, IMPLICIT)
    assert choose(game, VALUES, 10_000) == IMPLICIT      # show: the value file whenever stored
    assert choose(game, GRAPH_FIRST, 10_000) == GRAPH    # play, the page: the graph while it fits
    assert choose(game, GRAPH_FIRST, 1000) == IMPLICIT   # ... and the value file when it does not
    assert choose(game, GRAPH_ONLY, 1000) == GRAPH       # query, dot, certificate: always the graph
    assert choose(parse_spec("tictactoe"), VALUES, 10) == GRAPH  # no value file possible


def test_one_reader_whatever_the_storage(home):
    game = parse_spec("dodgem:3x3")
    solve(game, IMPLICIT)
    values = open_solved(game, VALUES_ONLY)
    graph = open_solved(game, GRAPH_ONLY, symmetry=False)
    assert (values.kind, graph.kind) == (IMPLICIT, GRAPH)
    assert values.key() == graph.key()
    for step in graph.line(limit=12):
        key = step["key"]
        assert (values.value(key), values.remoteness(key)) == (graph.value(key), graph.remoteness(key))
        assert [(m["label"], m["value"], m["optimal"]) for m in values.moves(key)] == \
            [(m["label"], m["value"], m["optimal"]) for m in graph.moves(key)]
        assert values.record(key)["on_cycle"] is None and graph.record(key)["on_cycle"] in (True, False)
    assert [r["key"] for r in values.line(limit=12)] == [r["key"] for r in graph.line(limit=12)]


@pytest.mark.parametrize("spec", ["dobutsu:standard", "connect4:6x4", "dodgem:5x5"])
def test_the_pages_solve_advice_names_the_memory_the_solves_check_asks_for(spec, monkeypatch):
    """The page's line for a game solved into a value file names how much memory the solve holds (a stranger saw the
    time and the command, no memory figure: issue 35), and that figure is the one the solve's own check refuses one
    byte short of (implicit.check_memory; a tiered solve's tiers.check_size, its largest tier), so the two cannot
    drift apart."""
    from explorer import implicit, tiered
    from explorer.core import limits
    from explorer.core.errors import GraphTooLarge
    from explorer.solved import advice
    from explorer.solved.storage import solve_memory

    game = parse_spec(spec)
    need = solve_memory(game)
    assert need and f"asking up to {limits.human_bytes(need)} of memory free" in advice(game, command="ui")
    if tiered.edgeless_flag(game) == "--tiered":
        tiers = game.tiers()
        check = lambda: tiered.check_size(game, tiers)  # noqa: E731
        room = lambda n: monkeypatch.setattr(limits, "meminfo_available", lambda: n)  # noqa: E731
    else:
        check = lambda: implicit.check_memory(game)  # noqa: E731
        room = lambda n: (monkeypatch.setattr(limits, "resident_room", lambda: limits.Room(n, limits.AVAILABLE_NOW)),  # noqa: E731
                          monkeypatch.setattr(limits, "address_space_room", lambda: None))
    room(need)
    check()
    room(need - 1)
    with pytest.raises(GraphTooLarge):
        check()
    assert solve_memory(parse_spec("tictactoe")) is None  # no value-file solve: no figure
