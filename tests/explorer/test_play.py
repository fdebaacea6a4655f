"""Playing against the solver: the perfect player never slips, slips are judged by values, scripts drive it."""

from __future__ import annotations

import json
import shlex
import random
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.core.errors import InvalidParameter
from explorer.play import Match, Opponent, result_for
from explorer.solved import build
from explorer.core.values import Value

SPECS = ["chopsticks:magic-fingers", "chopsticks:attack-only", "chopsticks", "tictactoe", "toads-and-frogs:winning-ways",
         "ponghauki"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", range(5))
def test_perfect_player_never_slips_and_keeps_its_value(spec, seed):
    """The other side plays at random; the perfect side's value never drops, and a decided start ends as valued."""
    solved = build(spec)
    rng, match = random.Random(seed), Match(solved)
    perfect_side = seed % 2
    start_value = solved.value(0) if perfect_side == 0 else None
    while not match.over and len(match.plies) < 300:
        if match.to_move() == perfect_side:
            ply = match.play(*match.choose(Opponent("perfect"), rng))
            assert not ply.slip and ply.value_after == ply.value_before
        else:
            match.play(*match.choose(Opponent("random"), rng))
    if start_value == Value.WIN and match.over:  # a forced win is won against anything
        assert result_for(match, perfect_side) == "win"


def test_slips_are_moves_that_lower_the_movers_value():
    solved = build("chopsticks:attack-only")
    match = Match(solved)
    for label, target, optimal in match.moves():
        trial = Match(solved)
        ply = trial.play(label, target)
        worse = solved.value(target).for_previous_player() < solved.value(0)
        assert ply.slip == worse


def test_opponents_parse():
    assert Opponent.parse("slip=0.25") == Opponent("slip", 0.25)
    for bad in ("slip=2", "slip=x", "clever", ""):
        with pytest.raises(InvalidParameter):
            Opponent.parse(bad)


def test_scripted_game_without_a_terminal(tmp_path):
    """Moves read from a pipe (no terminal): the perfect player wins magic fingers as B against any script."""
    env_home = {"GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_PROGRESS": "0", "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-m", "explorer.cli", "play", "chopsticks:magic-fingers",
                             "--side", "A", "--format", "json"], input="1\n" * 200, capture_output=True,
                            text=True, timeout=300, env=env_home)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["over"] and report["result"] == "loss"
    assert not any(p["slip"] for p in report["plies"] if p["player"] == 1)
    assert [row["ply"] for row in report["history"]] == list(range(len(report["plies"]) + 1))
    bad = subprocess.run([sys.executable, "-m", "explorer.cli", "play", "chopsticks"], input="no such move\n",
                         capture_output=True, text=True, timeout=300, env=env_home)
    assert bad.returncode == 2 and "not a legal move" in bad.stderr and "Traceback" not in bad.stderr


def test_in_a_pure_draw_the_perfect_player_presses():
    """Pong Hau K'i is a pure level-0 draw: from a draw-win the perfect player moves to a draw-lose one step
    nearer the fringe; from a draw-lose it moves to the draw-win farthest from it (GamesmanUni's rule)."""
    from explorer.algorithms.draw_levels import DRAW_LOSE, DRAW_WIN

    solved = build("ponghauki")
    levels = solved.draw_levels
    checked = {DRAW_WIN: 0, DRAW_LOSE: 0}
    for node in range(solved.graph.num_positions):
        kind = int(levels.kind[node])
        if kind not in checked:
            continue
        match = Match(solved, node)
        _, target = match.choose(Opponent("perfect"), random.Random(0))
        children = [int(c) for c in solved.graph.successors(node)]
        if kind == DRAW_WIN:
            assert levels.kind[target] == DRAW_LOSE and levels.remoteness[target] == levels.remoteness[node] - 1
        else:
            keeping = [c for c in children if levels.kind[c] == DRAW_WIN]
            if keeping:
                assert levels.kind[target] == DRAW_WIN
                assert levels.remoteness[target] == max(levels.remoteness[c] for c in keeping)
        assert solved.value(target).for_previous_player() == Value.DRAW  # pressing never costs the draw
        checked[kind] += 1
    assert checked[DRAW_WIN] and checked[DRAW_LOSE]


def play_cli(tmp_path, *args: str, stdin=None, input: str | None = None) -> subprocess.CompletedProcess:
    env = {"GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_PROGRESS": "0", "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "explorer.cli", "play", *args], input=input, stdin=stdin,
                          capture_output=True, text=True, timeout=300, env=env, cwd=Path(__file__).parents[2])


def test_the_terminal_offers_every_legal_move_on_the_board_as_played(tmp_path):
    """Symmetry merges twins in the solved graph, but the player sees and may play every legal move,
    and the board keeps the frame it was played in: X c1 stays at c1."""
    from explorer.games import parse_spec

    game = parse_spec("tictactoe")
    labels = [move.label for move in game.moves(game.start())]
    assert len(labels) == 9
    first = play_cli(tmp_path, "tictactoe", "--side", "A", input="X c1\n")
    assert first.returncode == 4, first.stderr  # the input ends before the game (explorer.commands.play)
    assert "your moves: " + ", ".join(f"{i}) {label}" for i, label in enumerate(labels, 1)) in first.stdout
    after = next(m.position for m in game.moves(game.start()) if m.label == "X c1")
    assert f"you: X c1 -> {game.format(after)}" in first.stdout
    chopsticks = play_cli(tmp_path, "chopsticks", "--side", "A", input="R>R\n")
    assert chopsticks.returncode == 4 and "you: R>R ->" in chopsticks.stdout, chopsticks.stderr


def test_the_terminal_game_with_standard_input_closed(tmp_path):
    """`0<&-`: no standard input at all is the end of the moves, not an internal error: the game is left
    unfinished, said in one line, exit status 4 (tests/commands/test_play_input.py)."""
    closed = subprocess.run(f"{shlex.quote(sys.executable)} -m explorer.cli play chopsticks:magic-fingers "
                            "--side A 0<&-", shell=True, capture_output=True, text=True, timeout=300,
                            cwd=Path(__file__).parents[2],
                            env={"GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_PROGRESS": "0",
                                 "PATH": "/usr/bin:/bin"})
    assert closed.returncode == 4, closed.stderr
    assert "left unfinished after 0 plies" in closed.stderr and "Traceback" not in closed.stderr


# -- play over a value file (a game too large for a graph: explorer.implicit / explorer.tiered) -----------------
def _played_game(solved, seed: int, perfect_side: int):
    """A whole game: the perfect player on one side, moves drawn from the rules' list by `seed` on the other."""
    from explorer.play import Played, start_position

    rng = random.Random(seed)
    played = Played(Match(solved), start_position(solved))
    while not played.match.over and len(played.match.plies) < 200:
        if played.match.to_move() == perfect_side:
            _, target = played.match.choose(Opponent("perfect"), rng)
            played.play(played.number_reaching(target))
        else:
            played.play(rng.choice(played.moves())[0])
    return played


def _value_reader(spec: str, tmp_path, tiered_solve: bool):
    from explorer import implicit, tiered
    from explorer.games import parse_spec

    game = parse_spec(spec)
    if tiered_solve:
        return tiered.solve(game, tmp_path / "tiers", workers=1, processes=False)
    implicit.solve(game, tmp_path / "implicit")
    return implicit.open_value_file(game, tmp_path / "implicit")


@pytest.mark.parametrize("spec,tiered_solve", [("dodgem:3x3", False), ("teeko:small", False),
                                               ("dodgem:3x3", True)])
def test_a_match_over_the_value_file_plays_the_same_moves_as_over_the_graph(tmp_path, spec, tiered_solve):
    """The same Match over both stores (explorer.play.Solved): every ply, value and remoteness agree, and
    the perfect side never slips (a graph without symmetry reduction names positions as the file does)."""
    values = _value_reader(spec, tmp_path, tiered_solve)
    graph = build(spec, symmetry=False)
    for seed in range(4):
        by_graph, by_file = (_played_game(solved, seed, seed % 2) for solved in (graph, values))
        assert by_file.numbers == by_graph.numbers and len(by_file.numbers) > 1
        assert [vars(p) for p in by_file.match.plies] == [vars(p) for p in by_graph.match.plies]
        assert by_file.match.history() == by_graph.match.history()
        assert not any(p.slip for p in by_file.match.plies if p.player == seed % 2)
        if by_file.match.over:
            assert result_for(by_file.match, 0) == result_for(by_graph.match, 0)


def test_the_perfect_player_on_a_value_file_takes_the_fastest_win(tmp_path):
    """From every position of a few games, the move chosen keeps the value with the best remoteness:
    checked against the edge solver's values, not the file's own flags."""
    values = _value_reader("dodgem:3x3", tmp_path, False)
    graph = build("dodgem:3x3", symmetry=False)
    checked = 0
    for node in range(0, graph.graph.num_positions, 7):
        if graph.graph.terminal[node] >= 0:
            continue
        position = graph.graph.position(node)
        _, target = Match(values, position).choose(Opponent("perfect"), random.Random(0))
        child = graph.graph.node_of(target)
        value, remoteness = graph.value(node), graph.remoteness(node)
        assert graph.value(child).for_previous_player() == value
        assert graph.remoteness(child) == remoteness - 1
        checked += 1
    assert checked > 100


def test_value_file_for_a_game_too_large_for_a_graph(tmp_path, monkeypatch):
    from explorer import implicit
    from explorer.games import parse_spec
    from explorer.play import value_file_for

    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    game = parse_spec("dodgem:3x3")
    assert value_file_for(game, 1000) is None          # not solved into a value file yet
    implicit.solve(game)
    assert value_file_for(game, 1000) is not None      # 2,846 positions: over a limit of 1,000
    assert value_file_for(game, 10_000) is None        # a graph of it fits: play uses the graph


def test_the_terminal_plays_from_the_value_file_and_bad_input_is_one_line(tmp_path):
    """`--backend values` plays the same game as the solved graph; a bad move, a bad start or a missing
    value file is one line and exit status 2."""
    moves = "1\n" * 40
    missing = play_cli(tmp_path, "dodgem:3x3", "--backend", "values", input=moves)
    assert missing.returncode == 2 and "no value file yet" in missing.stderr and "--implicit" in missing.stderr
    assert "Traceback" not in missing.stderr and len(missing.stderr.strip().splitlines()) == 1
    env_home = {"GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_PROGRESS": "0", "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-m", "explorer.cli", "solve", "dodgem:3x3", "--implicit"], check=True,
                   capture_output=True, timeout=300, env=env_home, cwd=Path(__file__).parents[2])
    for side in ("A", "B"):
        reports = [json.loads(play_cli(tmp_path, "dodgem:3x3", "--side", side, "--backend", backend,
                                       "--format", "json", input=moves).stdout) for backend in ("values", "solver")]
        assert reports[0] == reports[1] and reports[0]["over"]
    text = play_cli(tmp_path, "dodgem:3x3", "--backend", "values", input=moves)
    assert text.returncode == 0 and "game over after" in text.stdout, text.stderr
    for args, said in ((("--backend", "values"), "not a legal move"),
                       (("--backend", "values", "--start", "garbage"), "invalid dodgem position"),
                       (("--backend", "values", "--start", "A|bbb/bbb/bbb"), "9 blue cars")):
        bad = play_cli(tmp_path, "dodgem:3x3", *args, input="no such move\n")
        assert bad.returncode == 2 and said in bad.stderr, (args, bad.stdout, bad.stderr)
        assert "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("spec, key, ends", [
    ("tictactoe", "XXX/OO./...", "Game over: X has three in a row. X wins."),
    ("tictactoe", "XOX/XOO/OXX", "Game over: the board is full with no three in a row: a tie."),
    ("dodgem:3x3", "A|.../.../...", None),
])
def test_game_over_says_the_result_once(spec, key, ends):
    """The reason is followed by who won only when it does not already say so ("... so Blue has no move and
    wins. Blue wins." was said twice)."""
    from explorer.games import parse_spec
    from explorer.play import game_over

    game = parse_spec(spec)
    said = game_over(game, game.parse(key))
    if ends is not None:
        assert said == ends
    else:
        assert said.endswith("has no move and wins.") and said.count("wins") == 1, said
