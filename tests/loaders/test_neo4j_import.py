"""The neo4j-admin CSV writer: positions.csv written column-wise in numpy is byte for byte the file the
row-by-row writer (csv.writer over `mirror.position_columns_per_position`, kept as the reference) writes."""

from __future__ import annotations

import csv
import dataclasses
import re

import numpy as np
import pytest

from explorer.games import games, parse_spec
from explorer.solved import build
from loaders import mirror
from loaders.neo4j_import import FILES, _columns_json, _write_positions, _write_positions_per_row, write_game_files
from loaders.neo4j_loader import CONTENT, STRUCTURE, _json, fingerprints, move_labels


def small_spec(name: str) -> str:
    """A small size of every shipped game (games added later are covered): its preset named small or
    standard when it has one, else its defaults."""
    cls = games()[name]
    for preset in ("small", "standard"):
        if preset in cls.presets:
            return f"{name}:{preset}"
    return name


SHIPPED = sorted(small_spec(name) for name, cls in games().items() if cls.__module__.startswith("explorer.games."))
# Degenerate graphs: one position and no move, empty heaps, a board no one can move on.
DEGENERATE = ["nim(heaps=0)", "domineering(rows=1,cols=1)", "toads-and-frogs(board=.)"]


@pytest.mark.parametrize("spec", SHIPPED + DEGENERATE)
def test_positions_file_is_the_per_row_writers_byte_for_byte(spec, tmp_path):
    solved = build(spec)
    graph_id = 'a "quoted", id'  # a game column that CSV must quote
    _write_positions(tmp_path / "fast.csv", mirror.position_arrays(solved), graph_id, id_offset=7, block=97)
    _write_positions_per_row(tmp_path / "rows.csv", mirror.position_columns_per_position(solved), graph_id, 7)
    fast, rows = (tmp_path / "fast.csv").read_bytes(), (tmp_path / "rows.csv").read_bytes()
    assert fast.count(b"\n") == solved.graph.num_positions + 1
    assert fast == rows


@pytest.mark.parametrize("spec", ["chopsticks:standard", "tictactoe:standard"])
def test_write_game_files_writes_the_per_row_positions_file(spec, tmp_path):
    solved = build(spec)
    files = write_game_files(solved, tmp_path, graph_id="g", id_offset=3)
    _write_positions_per_row(tmp_path / "rows.csv", mirror.position_columns_per_position(solved), "g", 3)
    assert files["positions"].read_bytes() == (tmp_path / "rows.csv").read_bytes()


def columns_of(**fields) -> dict[str, mirror.Column]:
    rows = len(next(iter(fields.values())))
    return {"key": mirror.Column([f"k{i}" for i in range(rows)]),
            **{name: mirror._field_column(values) for name, values in fields.items()}}


# Cells each kind of column must write as csv.writer does: signs, 64-bit numbers, quoting, UTF-8, absent
# values, floats, booleans, lists of every shape a game field may take.
ODD_COLUMNS = {
    "negative and long ints": [-5, 0, 2 ** 40, -(2 ** 35), 7],
    "texts needing quotes": ['a,b', 'say "hi"', "two\nlines", "", "ünïcode, too"],
    "bools": [True, False, False, True, True],
    "ints and bools": [1, True, 0, False, 2],
    "absent values": [None, 3, None, None, -1],
    "floats": [0.5, 1.0, -2.25, 1e20, 3.0],
    "int lists": [[[1, -2], [3, 40]], [[0, 0], [0, 0]], [[5, 6], [7, 8]], [[9, 9], [9, 9]], [[-1, 2], [3, 4]]],
    "tuples": [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)],
    "bool lists": [[True, False], [False, False], [True, True], [False, True], [True, False]],
    "mixed lists": [[1, True], [0, 2], [3, 4], [5, 6], [7, 8]],
    "ragged lists": [[1], [2, 3], [], [4, 5, 6], [7]],
    "lists of texts": [["a", "b"], ["c,d", "e"], ["f", "g"], ["h", "i"], ["j", "k"]],
    "lists with absent items": [[1, None], [2, 3], [4, 5], [6, 7], [8, 9]],
    "huge ints": [2 ** 70, 1, 2, 3, 4],
}


@pytest.mark.parametrize("name", list(ODD_COLUMNS))
def test_every_kind_of_column_is_written_as_csv_writer_writes_it(name, tmp_path):
    columns = columns_of(field=ODD_COLUMNS[name])
    _write_positions(tmp_path / "fast.csv", columns, "g", 0, block=2)
    _write_positions_per_row(tmp_path / "rows.csv", {n: c.tolist() for n, c in columns.items()}, "g", 0)
    assert (tmp_path / "fast.csv").read_bytes() == (tmp_path / "rows.csv").read_bytes()


@pytest.mark.parametrize("name", list(ODD_COLUMNS))
def test_a_game_field_column_holds_the_flattened_values_with_their_types(name):
    values = ODD_COLUMNS[name]
    column = mirror._field_column(values).tolist()
    expected = [mirror.flatten(value) for value in values]
    assert column == expected
    assert [repr(v) for v in column] == [repr(v) for v in expected]  # True stays True, 1 stays 1


def test_numbers_and_fixed_lists_become_arrays_and_the_rest_stays_python():
    assert mirror._field_column([1, 2, 3]).values.dtype.kind == "i"
    assert mirror._field_column([[[1, 2], [3, 4]]] * 3).values.shape == (3, 4)
    for name in ("ints and bools", "mixed lists", "ragged lists", "huge ints", "lists with absent items"):
        assert isinstance(mirror._field_column(ODD_COLUMNS[name]).values, list), name


@pytest.mark.parametrize("spec", ["chopsticks:standard", "nim:small", "domineering(rows=1,cols=1)"])
def test_moves_file_is_what_csv_writer_writes_row_by_row(spec, tmp_path):
    import csv

    solved = build(spec)
    graph, moves = solved.graph, mirror.move_columns(solved)
    files = write_game_files(solved, tmp_path, id_offset=11)
    with (tmp_path / "rows.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([":START_ID(Position)", ":END_ID(Position)", "label", "optimal:boolean"])
        writer.writerows([s + 11, t + 11, label, "true" if optimal else "false"] for s, t, label, optimal in
                         zip(moves["source"].tolist(), moves["target"].tolist(), moves["label"], moves["optimal"]))
    assert files["moves"].read_bytes() == (tmp_path / "rows.csv").read_bytes()
    assert files["moves"].read_bytes().count(b"\n") == graph.num_moves + 1


def _small_presets(limit: int = 3_000):
    """Every shipped game's presets (and defaults) whose estimate is at most `limit` positions."""
    for name, cls in sorted(games().items()):
        if not cls.__module__.startswith("explorer.games."):
            continue
        for preset in [None, *cls.presets]:
            game = parse_spec(f"{name}:{preset}" if preset else name)
            estimate = game.estimate_positions()
            if estimate is not None and estimate <= limit:
                yield f"{name}:{preset}" if preset else name


CHOPSTICKS_FINGERS = [f"chopsticks:{preset}(fingers={fingers})" for fingers in (2, 5, 12, 17)
                      for preset in ("standard", "rollover", "attack-only")]
# Connect Four's presets are all past _small_presets' limit; these boards reach its batch_columns too.
CONNECT4_BOARDS = ["connect4(width=3,height=3)", "connect4(width=4,height=3)", "connect4(width=3,height=4,connect=3)"]


def _files_without_batch_columns(solved, directory, monkeypatch):
    """write_game_files with the game's batch_columns hidden (the per-position path of every game)."""
    cls = type(solved.game)
    with monkeypatch.context() as patch:
        patch.setattr(cls, "offers", dataclasses.replace(cls.offers, batch_columns=False))
        return write_game_files(solved, directory, graph_id="g", id_offset=5, game_number=2)


@pytest.mark.parametrize("spec", sorted(set(_small_presets())) + CHOPSTICKS_FINGERS + CONNECT4_BOARDS)
def test_the_batch_path_writes_the_per_position_paths_files_byte_for_byte(spec, tmp_path, monkeypatch):
    solved = build(spec)
    (tmp_path / "batch").mkdir(), (tmp_path / "plain").mkdir()
    batch = write_game_files(solved, tmp_path / "batch", graph_id="g", id_offset=5, game_number=2)
    plain = _files_without_batch_columns(solved, tmp_path / "plain", monkeypatch)
    for name in FILES:
        written, reference = batch[name].read_bytes(), plain[name].read_bytes()
        if name == "game":  # when each was written differs; the fingerprints must not
            written, reference = (re.sub(rb"\d{4}-\d\d-\d\dT[0-9:]+\+00:00", b"T", text) for text in (written, reference))
        assert written == reference, name
    assert batch["positions"].read_bytes().count(b"\n") == solved.graph.num_positions + 1


@pytest.mark.parametrize("name", list(ODD_COLUMNS))
def test_every_kind_of_column_gives_the_fingerprints_json_bytes(name):
    columns = {"field": columns_of(field=ODD_COLUMNS[name])["field"], "absent": mirror.Column(
        np.arange(5), present=np.array([True, False, True, False, False])), "named": mirror.Column(
        np.array([0, 1, 1, 0, 2]), names=(None, "win", 'a "quoted" näme'))}
    expected = _json({name: column.tolist() for name, column in columns.items()})
    assert b"".join(_columns_json(columns, block=2)) == expected
    assert b"".join(_columns_json({})) == _json({})


@pytest.mark.parametrize("spec", sorted(set(_small_presets())) + CHOPSTICKS_FINGERS + DEGENERATE)
def test_the_files_carry_the_fingerprints_of_the_per_position_columns(spec, tmp_path):
    """The content fingerprint is hashed from JSON written from arrays: it must be the Bolt loader's,
    computed here from the per-position reference columns."""
    solved = build(spec)
    files = write_game_files(solved, tmp_path, graph_id="g")
    labels, codes = move_labels(solved)
    moves = {"source": solved.graph.edge_sources(), "target": solved.graph.succ_indices,
             "optimal": solved.solution.optimal}
    with files["game"].open(newline="", encoding="utf-8") as handle:
        header, row = list(csv.reader(handle))
    game = {name.split(":")[0]: value for name, value in zip(header, row)}
    properties = mirror.game_properties(solved)
    properties["id"] = "g"
    expected = fingerprints(mirror.position_columns_per_position(solved), moves, labels, codes, properties)
    assert (game[STRUCTURE], game[CONTENT]) == expected
