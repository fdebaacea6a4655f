"""`gamegraph solve` refusing a graph too large to build (explorer/commands/core.py): one line, exit 2, naming
what the command offers: --max-positions, smaller parameters, and its value-file solve (--implicit or --tiered)
where the game has one, as a command to copy."""

from __future__ import annotations

import pytest

from explorer.core import limits


def refusal(argv, capsys) -> str:
    from explorer.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err.strip()


@pytest.mark.parametrize("spec, command", [
    ("dodgem:4x4", "gamegraph solve dodgem:4x4 --tiered"),        # tiers (by cars left)
    ("teeko", "gamegraph solve teeko --tiered"),                   # tiers, the ranking over one tier's limit
    ("chopsticks(fingers=20)", "gamegraph solve 'chopsticks(fingers=20)' --implicit"),  # one tier: the implicit mode
])
def test_over_the_limit_names_max_positions_and_the_value_file_solve(spec, command, capsys):
    err = refusal(["solve", spec, "--max-positions", "100"], capsys)
    assert "the limit of 100 positions" in err
    assert "raise --max-positions" in err
    assert err.endswith(f"or solve it into a value file without storing moves: {command}"), err
    assert err.count(";") == 1  # one remedy list, not two glued together


def test_a_game_without_a_value_file_solve_names_the_limit_only(capsys):
    err = refusal(["solve", "nim(heaps=1-3-5)", "--max-positions", "2"], capsys)
    assert err.endswith(f"; {limits.RAISE_THE_LIMIT}"), err
    assert "--implicit" not in err and "--tiered" not in err


def test_over_the_memory_names_the_value_file_solve_too(capsys, monkeypatch):
    """Over the memory budget check names smaller parameters only; solve adds its own value-file solve."""
    monkeypatch.setenv("GAMEGRAPH_MEMORY", "1MB")
    err = refusal(["solve", "dodgem:4x4"], capsys)
    assert "over the memory budget" in err and "--max-positions" not in err
    assert err.endswith("choose smaller parameters, or solve it into a value file without storing moves: "
                        "gamegraph solve dodgem:4x4 --tiered"), err


def test_a_graph_past_the_limit_while_generated_names_the_same_remedy(capsys, monkeypatch):
    """A game whose size is not estimated is refused while its graph is generated (explorer.graph), with the
    same remedy as the refusal from its parameters: the one check, given the command's hint."""
    monkeypatch.setattr(limits, "estimate", lambda game, symmetry=True: None)
    err = refusal(["solve", "dodgem:3x3", "--max-positions", "50"], capsys)
    assert "more than 50 positions" in err
    assert err.endswith("or solve it into a value file without storing moves: gamegraph solve dodgem:3x3 --tiered")
