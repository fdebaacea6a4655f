"""CSV files for ``neo4j-admin database import full``, the fastest way to fill an empty database.

The offline importer writes the store files directly (millions of relationships
per second) but only into a new or emptied database, and it creates no schema.
`write_game_files` writes four CSV files (header on the first line) with the
same properties as the Bolt loader (docs/model.md, via loaders.mirror); several
games go into one import with disjoint Position ids (`id_offset`), which is how
`gamegraph load --bulk` rebuilds a database (loaders.neo4j_bulk).
`write_neo4j_import` writes one game plus ``schema.cypher`` (the constraints and
indexes to run once the server is up) and returns the import command, run
through `gamegraph neo4j-admin`, the project's own copy of Neo4j's admin tool
(the Maven-resolved jars of the embedded server). O(V + E) time, streaming rows
to disk; each file is written whole or not at all (explorer.core.files.output_file).
"""

from __future__ import annotations

import csv
import io
import shlex
from pathlib import Path
from typing import Any, Iterable

from explorer.core.files import make_folder, output_file
from explorer.solved import SolvedGraph
from loaders import mirror
from loaders.neo4j_loader import SCHEMA

ARRAY_DELIMITER = ";"
FILES = {"game": "game.csv", "positions": "positions.csv", "moves": "moves.csv", "start": "start.csv"}


ADMIN_COMMAND = ["gamegraph", "neo4j-admin"]  # explorer.commands.neo4j: Neo4j's AdminTool on the embedded server


def write_neo4j_import(solved: SolvedGraph, directory: str | Path, database: str = "neo4j") -> str:
    """Write the import files for one game into `directory` and return the exact command to run.

    See `write_game_files`; GameGraphError when a file cannot be written.
    """
    directory = make_folder(directory)
    paths = write_game_files(solved, directory)
    with output_file(directory / "schema.cypher") as handle:
        handle.write("".join(f"{statement};\n" for statement in SCHEMA))
    return shlex.join(ADMIN_COMMAND + import_arguments([paths], database))


def import_arguments(games: list[dict[str, Path]], database: str) -> list[str]:
    """The arguments of ``database import full`` for the files of one or more games (`write_game_files`)."""
    nodes = [f"--nodes={files[name]}" for files in games for name in ("game", "positions")]
    relationships = [f"--relationships={files[name]}" for files in games for name in ("moves", "start")]
    return ["database", "import", "full", *nodes, *relationships, f"--array-delimiter={ARRAY_DELIMITER}",
            "--overwrite-destination=true", database]


def write_game_files(solved: SolvedGraph, directory: Path, graph_id: str | None = None,
                     id_offset: int = 0) -> dict[str, Path]:
    """Write the four CSV files of one game into the existing `directory`; return their absolute paths.

    Node ids live in two id spaces (``Position``: the dense node id plus
    `id_offset`, ``Game``: the graph id); neither is stored as a property. A
    Game node with ``complete: true`` and its START relationship are included,
    so readers treat the imported game like one the Bolt loader finished:
    `solved` must be the whole game, generated from its start. `graph_id`
    overrides the game's id (as in the Bolt loader). O(V + E).
    """
    paths = {name: (directory / file).resolve() for name, file in FILES.items()}

    from loaders.neo4j_loader import CONTENT, STRUCTURE, encode_labels, fingerprints

    columns, moves = mirror.position_columns(solved), mirror.move_columns(solved)
    game = mirror.game_properties(solved)
    game["id"] = graph_id = graph_id or solved.graph.graph_id
    # As the Bolt loader stores them, so that a Bolt reload of an imported game finds it unchanged.
    game[STRUCTURE], game[CONTENT] = fingerprints(columns, moves, *encode_labels(moves["label"]), game)
    game["complete"] = True
    game_header = [":ID(Game)"] + [f"{name}{_type_suffix(value)}" for name, value in game.items()] + [":LABEL"]
    _write(paths["game"], game_header, [[game["id"], *(_cell(v) for v in game.values()), "Game"]])

    names = list(columns)
    position_header = [":ID(Position)", "game"] + [f"{name}{_column_type(columns[name])}" for name in names] + [":LABEL"]
    _write(paths["positions"], position_header,
           ([id_offset + node, graph_id, *(_cell(v) for v in row), "Position"]
            for node, row in enumerate(zip(*columns.values()))))

    _write_moves(paths["moves"], moves, id_offset)
    _write(paths["start"], [":START_ID(Game)", ":END_ID(Position)", ":TYPE"], [[graph_id, id_offset, "START"]])
    return paths


def _write_moves(path: Path, moves: dict[str, Any], id_offset: int, chunk: int = 1 << 16) -> None:
    """moves.csv, a chunk of rows per write: the columns are numbers, flags and labels that
    need no quoting (labels are checked), so rows are joined directly, several times faster
    than csv.writer on the millions of rows a bulk load is for. O(E)."""
    sources = (moves["source"] + id_offset).tolist()
    targets = (moves["target"] + id_offset).tolist()
    flags = ("false", "true")
    cells: dict[str, str] = {}  # label -> its CSV cell, quoted only where CSV needs it

    def cell(label: str) -> str:
        if label not in cells:
            buffer = io.StringIO()
            csv.writer(buffer, lineterminator="").writerow([label])
            cells[label] = buffer.getvalue()
        return cells[label]

    labels = [cell(label) for label in moves["label"]]
    optimal = moves["optimal"]
    with output_file(path) as handle:
        handle.write(":START_ID(Position),:END_ID(Position),label,optimal:boolean,:TYPE\n")
        for start in range(0, len(sources), chunk):
            stop = start + chunk
            handle.write("".join(f"{s},{t},{label},{flags[o]},MOVE\n" for s, t, label, o
                                 in zip(sources[start:stop], targets[start:stop], labels[start:stop],
                                        optimal[start:stop])))


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
