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
    assert first.returncode == 0, first.stderr
    assert "your moves: " + ", ".join(f"{i}) {label}" for i, label in enumerate(labels, 1)) in first.stdout
    after = next(m.position for m in game.moves(game.start()) if m.label == "X c1")
    assert f"you: X c1 -> {game.format(after)}" in first.stdout
    chopsticks = play_cli(tmp_path, "chopsticks", "--side", "A", input="R>R\n")
    assert chopsticks.returncode == 0 and "you: R>R ->" in chopsticks.stdout, chopsticks.stderr


def test_the_terminal_game_with_standard_input_closed(tmp_path):
    """`0<&-`: no standard input at all is the end of the moves, not an internal error."""
    closed = subprocess.run(f"{shlex.quote(sys.executable)} -m explorer.cli play chopsticks:magic-fingers "
                            "--side A 0<&-", shell=True, capture_output=True, text=True, timeout=300,
                            cwd=Path(__file__).parents[2],
                            env={"GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_PROGRESS": "0",
                                 "PATH": "/usr/bin:/bin"})
    assert closed.returncode == 0, closed.stderr
    assert "no more moves on standard input" in closed.stdout and "Traceback" not in closed.stderr
