"""Every shipped game at its smallest legal parameters: solve, show and export answer (no internal error).

A degenerate board (domineering(rows=1,cols=1), where nobody can ever move) once
failed in the move generator with "need at least one array to concatenate".
The specs are derived from each game's own parameter table (every integer at its
minimum, each choice in turn), so a new game or parameter is covered without
editing this file; a free-text parameter needs an entry in SMALLEST_TEXT.
"""

from __future__ import annotations

import json

import pytest

from explorer.cli import main
from explorer.games import parse_spec
from explorer.games.registry import load_builtin_games, registered

# Free-text parameters have no minimum in their table: their smallest legal values, by game and name.
SMALLEST_TEXT = {("toads-and-frogs", "board"): [".", "T", "TF"]}


def builtin_games() -> dict[str, type]:
    load_builtin_games()
    return {name: cls for name, cls in registered().items() if cls.__module__.startswith("explorer.games.")}


def smallest_specs() -> list[str]:
    specs = []
    for name, cls in builtin_games().items():
        smallest, variants = {}, []
        for row in cls.Params.describe():
            if row.get("minimum") is not None:  # an int, or a list of ints: its smallest legal value
                smallest[row["name"]] = str(row["minimum"])
            elif row.get("choices"):
                variants += [(row["name"], str(choice)) for choice in row["choices"]]
            elif row["type"] == "str":
                texts = SMALLEST_TEXT[(name, row["name"])]  # KeyError: a new free-text parameter needs its entry
                variants += [(row["name"], text) for text in texts[1:]]
                smallest[row["name"]] = texts[0]
        base = ",".join(f"{k}={v}" for k, v in smallest.items())
        specs.append(f"{name}({base})" if base else name)
        for key, value in variants:
            extra = dict(smallest, **{key: value})
            specs.append(f"{name}({','.join(f'{k}={v}' for k, v in extra.items())})")
    return list(dict.fromkeys(specs))


SPECS = smallest_specs()


def test_the_smallest_specs_cover_every_shipped_game_and_parse():
    assert {spec.split("(")[0] for spec in SPECS} == set(builtin_games())
    assert "domineering(rows=1,cols=1)" in SPECS and "nim(heaps=0)" in SPECS
    for spec in SPECS:
        parse_spec(spec)  # legal, or the table above is wrong


@pytest.mark.parametrize("spec", SPECS)
def test_solve_show_and_export_answer_at_the_smallest_parameters(spec, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    assert main(["solve", spec, "--format", "json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    start = solved["start"]
    assert main(["show", spec, "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["key"] == start and shown["value"] == solved["value"]
    assert main(["export", spec, "-o", str(tmp_path / "out.jsonl")]) == 0
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    positions = next(iter(solved["graphs"].values()))["positions"]
    assert rows[0]["key"] == start and len(rows) == positions
    assert "internal error" not in capsys.readouterr().err


def test_a_board_without_room_for_a_domino_is_lost_at_once_by_the_player_to_move(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    for spec in ("domineering(rows=1,cols=1)", "domineering(rows=1,cols=1,first=horizontal)"):
        assert main(["show", spec, "--format", "json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["value"] == "loss" and record["remoteness"] == 0 and record["terminal"] and not record["moves"]
