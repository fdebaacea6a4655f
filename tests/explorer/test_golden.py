"""Golden counts (perft style): the graphs and solutions of the shipped games do not drift.

One check among several: test_solver.py proves the values against independent
references; this file pins the numbers so any change to rules, generation or
solving shows up. Refresh deliberately with `python -m tests.support.golden.regenerate`.
"""

from __future__ import annotations

import json

import pytest

from explorer.games import parse_spec
from explorer.games.chopsticks.rules import Chopsticks
from tests.support.golden.regenerate import PATH, SPECS, record

GOLDEN = json.loads(PATH.read_text())


def test_golden_file_covers_every_game_and_preset():
    assert set(GOLDEN) == set(SPECS)
    assert {f"chopsticks:{p}" for p in Chopsticks.presets} <= set(GOLDEN)
    for spec, entry in GOLDEN.items():
        assert parse_spec(spec).id == entry["id"], f"{spec} now means another game"
        for side in ("symmetry", "no_symmetry"):
            facts = entry[side]
            assert sum(facts["values"].values()) == facts["positions"]
            assert facts["start"]["key"] == parse_spec(spec).format(parse_spec(spec).start())
        assert entry["symmetry"]["positions"] <= entry["no_symmetry"]["positions"]
        assert entry["symmetry"]["start"] == entry["no_symmetry"]["start"]


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("spec", SPECS)
def test_golden_counts(spec, symmetry):
    expected = GOLDEN[spec]["symmetry" if symmetry else "no_symmetry"]
    assert record(spec, symmetry) == expected


def test_known_facts_in_the_golden_file():
    start = {spec: entry["symmetry"]["start"] for spec, entry in GOLDEN.items()}
    assert start["chopsticks:magic-fingers"]["value"] == "loss"
    for spec in ("chopsticks:standard", "chopsticks:even-split", "chopsticks:rollover-even-split",
                 "chopsticks:tap-dead-transfer"):
        assert start[spec]["value"] == "draw"
    assert start["tictactoe"] == {"key": ".../.../...", "value": "tie", "remoteness": 9}
    assert GOLDEN["tictactoe"]["no_symmetry"]["positions"] == 5478
    assert GOLDEN["tictactoe"]["symmetry"]["positions"] == 765
    assert start["nim:small"]["value"] == "loss" and start["nim:marienbad"]["value"] == "loss"  # xor 0
