"""CSV files for ``neo4j-admin database import full``, the fastest way to fill an empty database.

The offline importer writes the store files directly (millions of relationships
per second) but only into a new or emptied database, and it creates no schema.
`write_neo4j_import` writes four CSV files (header on the first line) with the
same properties as the Bolt loader (docs/model.md, via loaders.mirror), plus
``schema.cypher`` holding the constraints and indexes to run once the server is
up, and returns the import command. O(V + E) time, streaming rows to disk;
each file is written whole or not at all (explorer.files.output_file).
"""

from __future__ import annotations

import csv
import shlex
from pathlib import Path
from typing import Any, Iterable

from explorer.files import make_folder, output_file
from explorer.solved import SolvedGraph
from loaders import mirror
from loaders.neo4j_loader import SCHEMA

ARRAY_DELIMITER = ";"
FILES = {"game": "game.csv", "positions": "positions.csv", "moves": "moves.csv", "start": "start.csv"}


def write_neo4j_import(solved: SolvedGraph, directory: str | Path, database: str = "neo4j") -> str:
    """Write the import files for one game into `directory` and return the exact command to run.

    Node ids live in two id spaces (``Position``: the dense node id, ``Game``:
    the graph id); neither is stored as a property. A Game node with
    ``complete: true`` and its START relationship are included, so readers treat
    the imported game like one the Bolt loader finished: `solved` must be the
    whole game, generated from its start. GameGraphError when a file cannot be written.
    """
    directory = make_folder(directory)
    paths = {name: (directory / file).resolve() for name, file in FILES.items()}

    game = mirror.game_properties(solved)
    game["complete"] = True
    game_header = [":ID(Game)"] + [f"{name}{_type_suffix(value)}" for name, value in game.items()] + [":LABEL"]
    _write(paths["game"], game_header, [[game["id"], *(_cell(v) for v in game.values()), "Game"]])

    columns = mirror.position_columns(solved)
    names = list(columns)
    position_header = [":ID(Position)", "game"] + [f"{name}{_column_type(columns[name])}" for name in names] + [":LABEL"]
    graph_id = solved.graph.graph_id
    _write(paths["positions"], position_header,
           ([node, graph_id, *(_cell(v) for v in row), "Position"] for node, row in enumerate(zip(*columns.values()))))

    moves = mirror.move_columns(solved)
    _write(paths["moves"], [":START_ID(Position)", ":END_ID(Position)", "label", "optimal:boolean", ":TYPE"],
           ([s, t, label, _cell(optimal), "MOVE"] for s, t, label, optimal
            in zip(moves["source"].tolist(), moves["target"].tolist(), moves["label"], moves["optimal"])))
    _write(paths["start"], [":START_ID(Game)", ":END_ID(Position)", ":TYPE"], [[game["id"], 0, "START"]])

    with output_file(directory / "schema.cypher") as handle:
        handle.write("".join(f"{statement};\n" for statement in SCHEMA))
    command = ["neo4j-admin", "database", "import", "full",
               f"--nodes={paths['game']}", f"--nodes={paths['positions']}",
               f"--relationships={paths['moves']}", f"--relationships={paths['start']}",
               f"--array-delimiter={ARRAY_DELIMITER}", "--overwrite-destination=true", database]
    return shlex.join(command)


def _write(path: Path, header: list[str], rows: Iterable[list[Any]]) -> None:
    with output_file(path) as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def _cell(value: Any) -> Any:
    """CSV text of a property: booleans as true/false, lists joined by the array delimiter, None empty (absent)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ARRAY_DELIMITER.join(str(_cell(item)) for item in value)
    return value


def _type_suffix(value: Any) -> str:
    """The importer's type annotation for a value (``:int``, ``:boolean``, ``:int[]``...); strings need none."""
    if isinstance(value, list):
        inner = next((item for item in value if item is not None), "")
        return f"{_type_suffix(inner) or ':string'}[]"
    if isinstance(value, bool):
        return ":boolean"
    if isinstance(value, int):
        return ":long" if abs(value) >= 2 ** 31 else ":int"
    if isinstance(value, float):
        return ":double"
    return ""


def _column_type(values: list[Any]) -> str:
    """Type of a column from its first non-null value (columns are homogeneous by construction)."""
    sample = next((v for v in values if v is not None), "")
    suffix = _type_suffix(sample)
    if suffix == ":int" and any(isinstance(v, int) and abs(v) >= 2 ** 31 for v in values):
        return ":long"
    return suffix
