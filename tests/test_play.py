"""Playing against the solver: the perfect player never slips, slips are judged by values, scripts drive it."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from explorer.errors import InvalidParameter
from explorer.play import Match, Opponent, result_for
from explorer.solved import build
from explorer.values import Value

SPECS = ["chopsticks:magic-fingers", "chopsticks:attack-only", "chopsticks", "tictactoe", "toads-and-frogs:winning-ways"]


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
