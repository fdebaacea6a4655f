"""CSV files for ``neo4j-admin database import full``, the fastest way to fill an empty database.

The offline importer writes the store files directly (millions of relationships
per second) but only into a new or emptied database, and it creates no schema.
`write_game_files` writes four CSV files (header on the first line) with the
same properties as the Bolt loader (docs/model.md, via loaders.mirror); several
games go into one import with disjoint Position ids (`id_offset`) and Game ids
(`game_number`), which is how `gamegraph load --bulk` rebuilds a database
(loaders.neo4j_bulk). Every id is a number, so the import runs with
``--id-type=integer`` (the importer's cheapest id map); labels and relationship
types are named on the command line, not repeated on every row.
`write_neo4j_import` writes one game plus ``schema.cypher`` (the constraints and
indexes to run once the server is up) and returns the import command, run
through `gamegraph neo4j-admin`, the project's own copy of Neo4j's admin tool
(the Maven-resolved jars of the embedded server). O(V + E) time; moves.csv and
positions.csv are assembled with numpy in blocks of rows (`_write_moves`,
`_write_positions` over `mirror.position_arrays`), not row by row in Python; the
row-by-row writer stays beside them as their reference (`_write_positions_per_row`:
the same bytes, tests/loaders/test_neo4j_import.py). The Game node's content
fingerprint hashes the JSON of every Position property, laid out from the same
arrays in the same blocks (`_columns_json`: `neo4j_loader._json`'s bytes, no
Python list per property). With a game that offers ``batch_columns``, nothing
here makes a Python call per position. Each file is written whole or not at all
(explorer.core.files.output_file), and `write_neo4j_import`'s folder too: it is filled
as a hidden sibling and renamed into place at the end (explorer.core.files.output_folder).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
from concurrent.futures import ThreadPoolExecutor
from itertools import repeat
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np

from explorer.core.files import output_file, output_folder
from explorer.solved import SolvedGraph
from loaders import mirror
from loaders.neo4j_loader import SCHEMA
from loaders.settings import import_memory, import_threads

ARRAY_DELIMITER = ";"
FILES = {"game": "game.csv", "positions": "positions.csv", "moves": "moves.csv", "start": "start.csv"}
# The label or relationship type of every row of each file, given on the command line.
FILE_TYPES = {"game": "Game", "positions": "Position", "moves": "MOVE", "start": "START"}
MOVES_HEADER = ":START_ID(Position),:END_ID(Position),label,optimal:boolean\n"
MOVE_ROWS_PER_BLOCK = 1 << 18  # about 8 MB of row bytes per block: big numpy steps, bounded memory
POSITION_ROWS_PER_BLOCK = 1 << 16  # positions.csv rows are wider: about 8 MB a block too
NUMBER_TABLE_SIZE = 1 << 16  # a number column spanning fewer values has each value's digits laid out once


ADMIN_COMMAND = ["gamegraph", "neo4j-admin"]  # explorer.commands.neo4j: Neo4j's AdminTool on the embedded server


def write_neo4j_import(solved: SolvedGraph, directory: str | Path, database: str = "neo4j") -> str:
    """Write the import files for one game into `directory` and return the exact command to run.

    The command carries this machine's importer settings (`machine_arguments`).
    See `write_game_files`; GameGraphError when a file cannot be written.
    """
    final = Path(os.path.realpath(directory))  # where the files will be, for the command
    with output_folder(directory) as partial:  # the folder appears whole or not at all
        written = write_game_files(solved, partial)
        with output_file(partial / "schema.cypher") as handle:
            handle.write("".join(f"{statement};\n" for statement in SCHEMA))
    paths = {name: final / path.name for name, path in written.items()}
    return shlex.join(ADMIN_COMMAND + import_arguments([paths], database) + machine_arguments())


def import_arguments(games: list[dict[str, Path]], database: str) -> list[str]:
    """The arguments of ``database import full`` for the files of one or more games (`write_game_files`)."""
    nodes = [f"--nodes={FILE_TYPES[name]}={files[name]}" for files in games for name in ("game", "positions")]
    relationships = [f"--relationships={FILE_TYPES[name]}={files[name]}" for files in games
                     for name in ("moves", "start")]
    return ["database", "import", "full", *nodes, *relationships, f"--array-delimiter={ARRAY_DELIMITER}",
            "--id-type=integer", "--overwrite-destination=true", database]


def machine_arguments() -> list[str]:
    """The importer's --threads and --max-off-heap-memory for this machine (loaders.settings:
    `import_threads`, `import_memory`; each overridable from the environment)."""
    return [f"--threads={import_threads()}", f"--max-off-heap-memory={import_memory()}"]


def write_game_files(solved: SolvedGraph, directory: Path, graph_id: str | None = None,
                     id_offset: int = 0, game_number: int = 0) -> dict[str, Path]:
    """Write the four CSV files of one game into the existing `directory`; return their absolute paths.

    Node ids live in two id spaces, both numbers (``Position``: the dense node id
    plus `id_offset`, ``Game``: `game_number`); neither is stored as a property
    (the Game's ``id`` property is its graph id, as the Bolt loader writes it). A
    Game node with ``complete: true`` and its START relationship are included,
    so readers treat the imported game like one the Bolt loader finished:
    `solved` must be the whole game, generated from its start. `graph_id`
    overrides the game's id (as in the Bolt loader). O(V + E).
    """
    paths = {name: (directory / file).resolve() for name, file in FILES.items()}

    from loaders.neo4j_loader import CONTENT, STRUCTURE, fingerprints, move_labels

    graph = solved.graph
    # The arrays themselves: `fingerprints` reads them as numpy, as it reads the Bolt loader's lists.
    moves = {"source": graph.edge_sources(), "target": graph.succ_indices, "optimal": solved.solution.optimal}

    def labelled_moves(labelled) -> None:
        _write_moves(paths["moves"], moves["source"], moves["target"], *labelled.result(), moves["optimal"], id_offset)

    with ThreadPoolExecutor(max_workers=1) as pool:
        # The moves' labels, then moves.csv: numpy work that mostly runs without the GIL, so it is done on a
        # second core while this thread lays out the position rows; an error in either surfaces here.
        labelled = pool.submit(move_labels, solved)
        moves_written = pool.submit(labelled_moves, labelled)
        arrays = mirror.position_arrays(solved)
        game = mirror.game_properties(solved)
        game["id"] = graph_id = graph_id or graph.graph_id
        _write_positions(paths["positions"], arrays, graph_id, id_offset)
        # As the Bolt loader stores them, so that a Bolt reload of an imported game finds it unchanged: the
        # same JSON bytes, written from the arrays in blocks rather than from a Python list per property.
        content = _columns_json({name: column for name, column in arrays.items() if name != "key"})
        labels, label_codes = labelled.result()
        game[STRUCTURE], game[CONTENT] = fingerprints({"key": arrays["key"].tolist()}, moves, labels, label_codes,
                                                      game, content_json=content)
        game["complete"] = True
        game_header = [":ID(Game)"] + [f"{name}{_type_suffix(value)}" for name, value in game.items()]
        _write(paths["game"], game_header, [[game_number, *(_cell(v) for v in game.values())]])
        moves_written.result()
    _write(paths["start"], [":START_ID(Game)", ":END_ID(Position)"], [[game_number, id_offset]])
    return paths


def _write_moves(path: Path, sources: np.ndarray, targets: np.ndarray, labels: list[str], label_codes: np.ndarray,
                 optimal: np.ndarray, id_offset: int, block: int = MOVE_ROWS_PER_BLOCK) -> None:
    """moves.csv from the solved arrays, a block of rows at a time, in numpy (no Python per row). O(E).

    Each row ``source,target,label,optimal`` is laid out in a byte matrix, one row
    per move and one column per byte: the numbers' digits (right-aligned in their
    field), each label's CSV cell and ``true``/``false`` (left-aligned, looked up by
    code); a mask of the bytes in use then drops the padding, leaving the rows end
    to end. Labels are quoted where CSV needs it, as csv.writer would. A graph's node
    ids are turned into digits once each and gathered per move, not divided per move.
    """
    label_table, label_lengths = _byte_table([_csv_cell(label).encode() for label in labels])
    flag_table, flag_lengths = _byte_table([b"false", b"true"])
    codes = np.asarray(label_codes, dtype=np.int64)
    flags = np.asarray(optimal, dtype=np.int64)
    top = int(max(np.max(sources), np.max(targets))) if len(codes) else 0
    if top < 2 * len(codes) + (1 << 16):  # node ids: each one's digits once, gathered per move (no division)
        id_digits, id_used = _decimal(np.arange(top + 1, dtype=np.int64) + id_offset)

        def decimal(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            return id_digits[ids], id_used[ids]
    else:  # ids far apart (not a graph's dense ids): digits per move
        def decimal(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            return _decimal(np.asarray(ids, dtype=np.int64) + id_offset)
    with output_file(path, binary=True) as handle:
        handle.write(MOVES_HEADER.encode())
        for start in range(0, len(codes), block):
            stop = min(start + block, len(codes))
            source_digits, source_used = decimal(sources[start:stop])
            target_digits, target_used = decimal(targets[start:stop])
            label, flag = codes[start:stop], flags[start:stop]
            rows = stop - start
            comma = np.full((rows, 1), ord(","), dtype=np.uint8)
            newline = np.full((rows, 1), ord("\n"), dtype=np.uint8)
            every = np.ones((rows, 1), dtype=bool)
            matrix = np.hstack([source_digits, comma, target_digits, comma, label_table[label], comma,
                                flag_table[flag], newline])
            used = np.hstack([source_used, every, target_used, every, _left(label_lengths[label], label_table.shape[1]),
                              every, _left(flag_lengths[flag], flag_table.shape[1]), every])
            handle.write(matrix[used].tobytes())


def _write_positions(path: Path, columns: dict[str, mirror.Column], graph_id: str, id_offset: int,
                     block: int = POSITION_ROWS_PER_BLOCK) -> None:
    """positions.csv from the columns of `mirror.position_arrays`, a block of rows at a time, in numpy. O(V).

    The same bytes as `_write_positions_per_row` (tests/loaders/test_neo4j_import.py):
    each column gives its cells as a byte matrix and a mask of the bytes in use
    (`_cells`), laid side by side with the commas, as `_write_moves` lays out moves.
    Only the keys and the game's own non-numeric fields are Python objects, encoded
    once per node.
    """
    rows = len(columns["key"].values)
    header = [":ID(Position)", "game"] + [f"{name}{_array_column_type(column)}" for name, column in columns.items()]
    cells = [_NumberCells(np.arange(id_offset, id_offset + rows, dtype=np.int64)),
             _TableCells([_csv_cell(graph_id)], np.zeros(rows, dtype=np.int64))]
    cells += [_cells(column) for column in columns.values()]
    with output_file(path, binary=True) as handle:
        handle.write(_csv_row(header).encode())
        _write_rows(handle, cells, rows, block)


def _write_positions_per_row(path: Path, columns: dict[str, list[Any]], graph_id: str, id_offset: int) -> None:
    """The reference for `_write_positions`: positions.csv from `mirror.position_columns`' lists,
    row by row through csv.writer (how the file was written before it was vectorised). O(V) Python."""
    names = list(columns)
    header = [":ID(Position)", "game"] + [f"{name}{_column_type(columns[name])}" for name in names]
    cells = [_column_cells(columns[name]) for name in names]
    rows = len(columns["key"])
    _write(path, header, zip(range(id_offset, id_offset + rows), repeat(graph_id), *cells))


def _csv_row(cells: list[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    return buffer.getvalue()


def _write_rows(handle, cells: list[Any], rows: int, block: int) -> None:
    """Rows of comma-separated cells, each ended by a newline, `block` rows per numpy step. O(rows x width)."""
    for start in range(0, rows, block):
        stop = min(start + block, rows)
        comma = np.full((stop - start, 1), ord(","), dtype=np.uint8)
        every = np.ones((stop - start, 1), dtype=bool)
        matrices, masks = [], []
        for column, cell in enumerate(cells):
            matrix, used = cell.block(start, stop)
            matrices += [matrix, comma if column < len(cells) - 1 else np.full_like(comma, ord("\n"))]
            masks += [used, every]
        handle.write(np.hstack(matrices)[np.hstack(masks)].tobytes())


class _NumberCells:
    """Integer cells in decimal (a minus sign where negative), empty where not `present`."""

    def __init__(self, values: np.ndarray, present: np.ndarray | None = None):
        self.values, self.present = values, present
        self.low, self.table = 0, None
        if len(values):
            low, high = min(int(values.min()), 0), max(int(values.max()), 0)  # 0 stands in where absent
            if high - low < NUMBER_TABLE_SIZE:  # a small range (counts, flags, levels): each cell laid out once
                self.low, self.table = low, self._laid_out(np.arange(low, high + 1, dtype=np.int64))

    def block(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        values = self.values[start:stop]
        present = None if self.present is None else self.present[start:stop]
        if present is not None:
            values = np.where(present, values, 0)
        if self.table is not None:  # gathered, not divided
            matrix, used = self.table[0][values - self.low], self.table[1][values - self.low]
        else:
            matrix, used = self._laid_out(values)
        if present is not None:
            used &= present[:, None]
        return matrix, used

    @staticmethod
    def _laid_out(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        negative = values < 0
        digits, used = _decimal(np.abs(values))
        sign = np.where(negative, ord("-"), 0).astype(np.uint8)[:, None]
        return np.hstack([sign, digits]), np.hstack([negative[:, None], used])


class _TableCells:
    """Cells from a short table of texts: row r's cell is texts[index[r]]."""

    def __init__(self, texts: list[str], index: np.ndarray):
        self.table, self.lengths = _byte_table([text.encode() for text in texts])
        self.index = index

    def block(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        index = self.index[start:stop]
        return self.table[index], _left(self.lengths[index], self.table.shape[1])


class _TextCells:
    """One text per row, CSV-quoted where needed, gathered from one buffer of their UTF-8 bytes."""

    def __init__(self, texts: list[str]):
        joined = "".join(texts)
        if any(char in joined for char in CSV_SPECIAL):  # some need quoting: each is looked at
            texts = [_csv_cell(text) for text in texts]
            joined = "".join(texts)
        buffer = joined.encode()
        if len(buffer) == len(joined):  # ASCII: a text's bytes are its characters
            self.lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        else:
            encoded = [text.encode() for text in texts]
            self.lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        self.offsets = np.cumsum(self.lengths) - self.lengths
        self.buffer = np.frombuffer(buffer + b"\0", dtype=np.uint8)

    def block(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        lengths = self.lengths[start:stop]
        width = max(int(lengths.max()) if len(lengths) else 0, 1)
        at = self.offsets[start:stop, None] + np.arange(width)
        used = _left(lengths, width)
        return self.buffer[np.where(used, at, len(self.buffer) - 1)], used


class _ListCells:
    """Fixed-length lists, their items' cells joined by the array delimiter."""

    def __init__(self, items: list[Any], delimiter: str = ARRAY_DELIMITER):
        self.items, self.delimiter = items, delimiter

    def block(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        delimiter = np.full((stop - start, 1), ord(self.delimiter), dtype=np.uint8)
        every = np.ones((stop - start, 1), dtype=bool)
        matrices, masks = [], []
        for position, item in enumerate(self.items):
            matrix, used = item.block(start, stop)
            matrices += [matrix] if position == 0 else [delimiter, matrix]
            masks += [used] if position == 0 else [every, used]
        return np.hstack(matrices), np.hstack(masks)


def _cells(column: mirror.Column):
    """A column's CSV cells as `_write_positions_per_row` writes them (`_column_cells`, then csv.writer's text)."""
    values = column.values
    if column.names is not None:
        return _TableCells([_csv_cell(_csv_text(_cell(name))) for name in column.names], values)
    if isinstance(values, list):
        if set(map(type, values)) == {str}:  # keys: already their text (the check runs in C)
            return _TextCells(values)
        return _TextCells([_csv_text(value) for value in _column_cells(values)])
    if values.ndim == 2:
        return _ListCells([_cells(mirror.Column(values[:, item])) for item in range(values.shape[1])])
    if values.dtype == bool:
        index = values.astype(np.int64) if column.present is None else np.where(column.present, values, 2)
        return _TableCells(["false", "true", ""], index)
    return _NumberCells(values, column.present)


class _Framed:
    """Cells between fixed texts (a JSON list's brackets around its items)."""

    def __init__(self, before: str, cells: Any, after: str):
        self.before, self.cells, self.after = before.encode(), cells, after.encode()

    def block(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        rows = stop - start
        matrix, used = self.cells.block(start, stop)
        before = np.tile(np.frombuffer(self.before, dtype=np.uint8), (rows, 1))
        after = np.tile(np.frombuffer(self.after, dtype=np.uint8), (rows, 1))
        return (np.hstack([before, matrix, after]),
                np.hstack([np.ones(before.shape, dtype=bool), used, np.ones(after.shape, dtype=bool)]))


class _OrNull:
    """Number cells, ``null`` where not `present` (JSON's absent value)."""

    def __init__(self, values: np.ndarray, present: np.ndarray):
        self.numbers, self.present = _NumberCells(values, present), present

    def block(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        matrix, used = self.numbers.block(start, stop)
        width = max(matrix.shape[1], len(b"null"))
        matrix = np.hstack([matrix, np.zeros((len(matrix), width - matrix.shape[1]), dtype=np.uint8)])
        used = np.hstack([used, np.zeros((len(used), width - used.shape[1]), dtype=bool)])
        absent = ~self.present[start:stop]
        matrix[absent, :4] = np.frombuffer(b"null", dtype=np.uint8)
        used[absent] = _left(np.full(int(absent.sum()), 4), width)
        return matrix, used


def _json_cells(column: mirror.Column):
    """A column's cells as JSON texts (`neo4j_loader._json` of `column.tolist()`'s items), or None where
    its values are Python objects (they go through json itself)."""
    values = column.values
    if column.names is not None:
        return _TableCells([json.dumps(name) for name in column.names], values)
    if isinstance(values, list):
        return None
    if values.ndim == 2:
        items = [_json_cells(mirror.Column(values[:, item])) for item in range(values.shape[1])]
        return _Framed("[", _ListCells(items, delimiter=","), "]") if items else _TableCells(["[]"], np.zeros(
            len(values), dtype=np.int64))
    if values.dtype == bool:
        index = values.astype(np.int64) if column.present is None else np.where(column.present, values, 2)
        return _TableCells(["false", "true", "null"], index)
    return _NumberCells(values) if column.present is None else _OrNull(values, column.present)


def _columns_json(columns: dict[str, mirror.Column], block: int = POSITION_ROWS_PER_BLOCK) -> Iterator[bytes]:
    """The bytes of ``neo4j_loader._json({name: column.tolist()})`` (keys sorted, no spaces), in pieces:
    the lists of numbers and flags and names laid out in numpy a block of rows at a time (`_write_rows`'
    byte matrices, a comma after each item but the last), other columns through json. O(V x columns)."""
    yield b"{"
    for number, name in enumerate(sorted(columns)):
        column = columns[name]
        yield (b"," if number else b"") + json.dumps(name).encode() + b":"
        cells = _json_cells(column)
        rows = len(column.values)
        if cells is None or rows == 0:
            yield json.dumps(column.tolist(), sort_keys=True, separators=(",", ":"), default=repr).encode()
            continue
        yield b"["
        for start in range(0, rows, block):
            stop = min(start + block, rows)
            matrix, used = cells.block(start, stop)
            comma = np.full((stop - start, 1), ord(","), dtype=np.uint8)
            text = np.hstack([matrix, comma])[np.hstack([used, np.ones((stop - start, 1), dtype=bool)])].tobytes()
            yield text[:-1] if stop == rows else text
        yield b"]"
    yield b"}"


def _csv_text(value: Any) -> str:
    """The text csv.writer writes for a cell before quoting: None empty, floats by repr, the rest by str."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return repr(value) if isinstance(value, float) else str(value)


def _array_column_type(column: mirror.Column) -> str:
    """`_column_type` of the column's values, from the arrays where it has them."""
    values = column.values
    if column.names is not None or isinstance(values, list):
        return _column_type(column.tolist())
    if values.ndim == 2:  # lists are never absent: the first node's list gives the type, as in _column_type
        return _column_type([values[0].tolist()] if len(values) else [])
    present = values if column.present is None else values[column.present]
    if not len(present):
        return ""
    if values.dtype == bool:
        return ":boolean"
    return ":long" if int(np.abs(present).max()) >= 2 ** 31 else ":int"


def _decimal(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(digits, used): the decimal digits of non-negative integers as ASCII, right-aligned in a
    (rows, width) byte matrix, and which of its bytes are digits (no leading zeros; 0 is "0")."""
    width = len(str(int(values.max()))) if len(values) else 1
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    digits = (values[:, None] // powers) % 10
    used = (values[:, None] >= powers) | (powers == 1)
    return (digits + ord("0")).astype(np.uint8), used


def _byte_table(cells: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """(table, lengths): the cells left-aligned in a (cells, longest) byte matrix, and each one's length."""
    width = max((len(cell) for cell in cells), default=0) or 1
    table = np.zeros((max(len(cells), 1), width), dtype=np.uint8)
    for row, cell in enumerate(cells):
        table[row, :len(cell)] = np.frombuffer(cell, dtype=np.uint8)
    return table, np.array([len(cell) for cell in cells] or [0], dtype=np.int64)


def _left(lengths: np.ndarray, width: int) -> np.ndarray:
    """Which bytes of left-aligned cells of these lengths are in use, as a (rows, width) mask."""
    return np.arange(width) < lengths[:, None]


CSV_SPECIAL = ',"\r\n\0'  # a text holding none of these goes into a row as it is (csv.writer's QUOTE_MINIMAL)


def _csv_cell(text: str) -> str:
    """One CSV cell exactly as `_write`'s csv.writer writes it inside a row: quoted only where
    CSV needs it. The writer itself decides, on a row of two cells (a lone empty cell is quoted)."""
    if not any(char in text for char in CSV_SPECIAL):
        return text
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([text, ""])
    return buffer.getvalue()[:-len(",\n")]


def _column_cells(values: list[Any]) -> list[Any]:
    """A column's CSV cells (see `_cell`), converted only where csv.writer would write another text:
    booleans and lists; numbers, strings and None (empty, so absent) go as they are. O(V)."""
    sample = next((v for v in values if v is not None), None)
    if isinstance(sample, list) and {type(item) for value in values if value for item in value} <= {int, str, float}:
        # Items whose text str() already gives (no booleans, no nulls): joined without a call per item.
        return ["" if value is None else ARRAY_DELIMITER.join(map(str, value)) for value in values]
    if isinstance(sample, (bool, list)):
        return [_cell(v) for v in values]
    return values


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
