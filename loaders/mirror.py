"""The networkx mirror of a solved game graph, and the model flattening every backend shares.

docs/model.md fixes the names and shapes of the Game, Position and MOVE
properties. The functions at the top of this module turn a SolvedGraph into
exactly those properties, column by column (numpy does the per-node work where
it can, so a million positions take seconds, not minutes; only keys and the
game's own fields take one call of the game's Python per node, unless the game
offers them for many codes at once, ``Game.batch_columns``). The Neo4j
loader, the neo4j-admin CSV writer and the mirror all use them, so the three
backends cannot drift apart. `position_columns_per_position` is the plain
per-node version kept as the reference of `position_arrays`/`position_columns`.

The mirror itself is an ``nx.DiGraph`` keyed by position key. Building it is
O(V + E) Python work, so `mirror_for` caches it in ``<state dir>/mirrors/``
as data only: an ``.npz`` (loaded with allow_pickle=False) holding the
graph's and the positions' properties as one JSON document and the moves as
arrays, written atomically, mode 0600. Never a pickle: a file planted in the
state folder cannot run code. Reopening a preset's mirror takes a few
milliseconds (docs/limits.md has the figures).
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from itertools import chain
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from explorer.core import private
from explorer.core.errors import GameGraphError
from explorer.core.records import POSITION_FIELDS
from explorer.games import Game, parse_spec
from explorer.graph import DEFAULT_MAX_POSITIONS, check_size, graph_id
from explorer.solved import CACHE_FORMAT, SolvedGraph, load_or_build
from explorer.core.values import Value

if TYPE_CHECKING:  # networkx loads with the first mirror built or opened: `gamegraph load` and the import
    import networkx as nx  # files never build one, and it cost every such process 0.3-0.5 s of CPU at its start

# Bump when the mirror's attributes or file layout change: old files are then ignored and rebuilt.
# Format 1 was a pickle (<name>-<hash>.pickle); it is never opened again, and removed when a mirror is saved.
MIRROR_FORMAT = 4  # 3: draw_class, draw_level, draw_remoteness; 4: "non-pure" spelt so
CACHE_KIND = "mirrors"  # the state folder's subfolder of mirrors

_VALUE_NAMES = np.array([str(Value(v)) for v in range(4)], dtype=object)


# -- the shared model ----------------------------------------------------------
def flatten(value: Any) -> Any:
    """A property value Neo4j can store: tuples become lists, nested lists are flattened in order.

    Neo4j properties cannot nest, so Chopsticks ``hands`` ``[[1, 2], [0, 3]]``
    becomes ``[1, 2, 0, 3]`` (player order, then hand order). O(size of value).
    """
    if isinstance(value, (list, tuple)):
        flat: list[Any] = []
        for item in value:
            item = flatten(item)
            flat.extend(item if isinstance(item, list) else [item])
        return flat
    return value


def game_properties(solved: SolvedGraph, solved_at: str | None = None) -> dict[str, Any]:
    """The Game node's properties (docs/model.md), parameters included. O(V) for the value tally.

    `solved_at` defaults to now (UTC, ISO 8601): the solved graph does not record
    when it was first solved, so this is when the backend received it.
    """
    graph, game = solved.graph, solved.game
    counts = solved.solution.counts()
    params = {name: flatten(getattr(game.params, name)) for name in game.params.__dataclass_fields__}
    fixed = {"id": graph.graph_id, "name": game.name, "spec": game.display_name, "symmetry": bool(graph.symmetry),
             "positions": int(graph.num_positions), "moves": int(graph.num_moves), "start_key": graph.key(0),
             "solved_at": solved_at or datetime.now(timezone.utc).isoformat(timespec="seconds"),
             "win": counts["win"], "loss": counts["loss"], "tie": counts["tie"], "draw": counts["draw"]}
    return {**params, **fixed}  # a parameter never shadows a model property


@dataclass(frozen=True)
class Column:
    """One Position property of every node, in node-id order, held column-wise.

    `values` is a numpy array for numbers and booleans (int64 or bool, one per
    node) and for lists of a fixed length of integers or booleans (flattened, one
    row per node), else the Python list of the flattened values. `present`
    (bool per node, None: everywhere) marks the nodes that have the property;
    elsewhere it is absent (None). With `names`, `values` are codes into it (a
    property with a few distinct values, such as `value`; a name may be None).
    """
    values: np.ndarray | list[Any]
    present: np.ndarray | None = None
    names: tuple[Any, ...] | None = None

    def tolist(self) -> list[Any]:
        """The property of every node as plain Python values (None where absent). O(V) in C."""
        if self.names is not None:
            return np.array(self.names, dtype=object)[self.values].tolist()
        if isinstance(self.values, list):
            return self.values
        if self.present is None:
            return self.values.tolist()
        return np.where(self.present, self.values, None).tolist()


def position_arrays(solved: SolvedGraph) -> dict[str, Column]:
    """Every Position property except `game`, column-wise: the columns of `position_columns` before
    they become Python lists, for writers that work on arrays (loaders.neo4j_import). O(V + E).

    The model's fields are numpy over the solver's arrays. Keys and the game's
    fields come from the game's own Python (``Game.format``, ``Game.fields``),
    one decode per node, or from ``Game.batch_columns`` over the graph's codes at
    once where the game offers it (offers.batch_columns); a game field that is a number, a boolean or a list of a
    fixed length of either becomes an array in one step.
    """
    graph, solution = solved.graph, solved.solution
    remoteness = solution.remoteness.astype(np.int64)
    levels = solved.draw_levels
    from explorer.algorithms.draw_levels import CLASS_NAMES

    levelled = levels.level >= 0
    keys, fields = _keys_and_fields(solved)
    model = {
        "key": Column(keys),
        "to_move": Column(graph.to_move.astype(np.int64)),
        "value": Column(solution.value.astype(np.int64), names=tuple(_VALUE_NAMES)),
        "remoteness": Column(remoteness, present=remoteness >= 0),
        "terminal": Column(graph.terminal >= 0),
        "on_cycle": Column(solved.on_cycle.astype(bool)),
        "scc": Column(solved.scc.astype(np.int64)),
        "draw_class": Column(levels.kind.astype(np.int64) + 1, names=(None, *CLASS_NAMES.values())),
        "draw_level": Column(levels.level.astype(np.int64), present=levelled),
        "draw_remoteness": Column(levels.remoteness.astype(np.int64), present=levelled),
    }
    columns = {name: model[name] for name in POSITION_FIELDS}
    for name, values in fields.items():
        if name not in columns and name != "game":  # a game field never shadows a model property
            columns[name] = Column(values) if isinstance(values, np.ndarray) else _field_column(values)
    return columns


def position_columns(solved: SolvedGraph) -> dict[str, list[Any]]:
    """Every Position property except `game`, as one list per property, in node-id order.

    The record of explorer.core.records column by column: its POSITION_FIELDS in
    that order, then the game fields (``Game.fields``), flattened. O(V + E):
    `position_arrays`, then one list per column in C. The same lists as
    `position_columns_per_position`, the reference (tests/loaders/test_mirror.py).
    """
    return {name: column.tolist() for name, column in position_arrays(solved).items()}


def position_columns_per_position(solved: SolvedGraph) -> dict[str, list[Any]]:
    """The reference for `position_columns`: the same lists, keys and game fields built with
    one Python call per node and property (two decodes per node). O(V) Python calls."""
    graph, solution = solved.graph, solved.solution
    remoteness = solution.remoteness.astype(np.int64)
    model: dict[str, list[Any]] = {
        "key": graph.keys(),
        "to_move": graph.to_move.astype(np.int64).tolist(),
        "value": _VALUE_NAMES[solution.value].tolist(),
        "remoteness": np.where(remoteness < 0, None, remoteness).tolist(),
        "terminal": (graph.terminal >= 0).tolist(),
        "on_cycle": solved.on_cycle.astype(bool).tolist(),
        "scc": solved.scc.astype(np.int64).tolist(),
        **_draw_level_columns(solved),
    }
    columns = {name: model[name] for name in POSITION_FIELDS}
    extra: dict[str, list[Any]] = {}
    for node in range(graph.num_positions):
        for name, value in solved.game.fields(graph.position(node)).items():
            extra.setdefault(name, []).append(flatten(value))
    for name, values in extra.items():
        if name not in columns and name != "game":  # a game field never shadows a model property
            columns[name] = values
    return columns


def _keys_and_fields(solved: SolvedGraph) -> tuple[list[str], dict[str, list[Any]]]:
    """(every node's key, every game field's values as given), decoding each node once. O(V) game calls.

    When nodes disagree on which fields they have, the fields are collected as
    `position_columns_per_position` collects them (node by node, flattened).
    """
    graph, game = solved.graph, solved.game
    if graph.codes is not None and game.offers.batch_columns:
        return _batch_keys_and_fields(game, graph.codes)
    positions = graph.positions if graph.codes is None else list(map(game.decode, graph.codes.tolist()))
    keys = list(map(game.format, positions))
    given = list(map(game.fields, positions))
    names = {tuple(fields) for fields in given}
    if len(names) == 1:
        return keys, {name: list(map(itemgetter(name), given)) for name in next(iter(names))}
    extra: dict[str, list[Any]] = {}
    for fields in given:
        for name, value in fields.items():
            extra.setdefault(name, []).append(flatten(value))
    return keys, extra


def _batch_keys_and_fields(game: Game, codes: np.ndarray) -> tuple[list[str], dict[str, Any]]:
    """`_keys_and_fields` from the game's `batch_columns` (offers.batch_columns): no call per node.
    Numbers become int64 and flags bool, as `_field_column` makes them from Python values. O(V) numpy."""
    keys, fields = game.batch_columns(np.asarray(codes))
    arrays: dict[str, Any] = {}
    for name, values in fields.items():
        values = np.asarray(values)
        if values.ndim > 2:  # nested lists of a fixed shape, flattened per node
            values = values.reshape(len(values), -1)
        arrays[name] = values if values.dtype == bool else values.astype(np.int64)
    return np.asarray(keys).tolist(), arrays


_NUMBER_TYPES = {int: np.int64, bool: np.bool_}


def _field_column(values: list[Any]) -> Column:
    """A game field's column: an array when every value is an int, every value a bool, or every
    value the same nesting of lists of ints (or of bools), flattened per node; else the list of
    `flatten`ed values. O(V), the type checks in C."""
    kinds = set(map(type, values))
    if not any(issubclass(kind, (list, tuple)) for kind in kinds):  # flatten leaves scalars as they are
        if len(kinds) == 1 and (dtype := _NUMBER_TYPES.get(next(iter(kinds)))) is not None:
            try:
                return Column(np.array(values, dtype=dtype))
            except OverflowError:  # an int beyond int64 stays a Python int
                pass
        return Column(values)
    try:
        array = np.array(values)
    except (ValueError, TypeError):  # ragged lists
        array = None
    if array is not None and array.ndim >= 2 and array.dtype.kind in "ib" and array.shape[1:].count(0) == 0:
        leaves: Any = values
        for _ in range(array.ndim - 1):
            leaves = chain.from_iterable(leaves)
        if set(map(type, leaves)) == {bool if array.dtype.kind == "b" else int}:
            return Column(array.reshape(len(values), -1))
    return Column([flatten(value) for value in values])


def _draw_level_columns(solved: SolvedGraph) -> dict[str, list[Any]]:
    """draw_class (draws only), draw_level and draw_remoteness (draw-wins and draw-loses only). O(V + E)."""
    from explorer.algorithms.draw_levels import CLASS_NAMES

    levels = solved.draw_levels
    names = np.array([None, *CLASS_NAMES.values()], dtype=object)  # kind -1 .. 3 -> index 0 .. 4
    levelled = levels.level >= 0
    level = levels.level.astype(np.int64)
    remoteness = levels.remoteness.astype(np.int64)
    return {"draw_class": names[levels.kind.astype(np.int64) + 1].tolist(),
            "draw_level": np.where(levelled, level, None).tolist(),
            "draw_remoteness": np.where(levelled, remoteness, None).tolist()}


def move_columns(solved: SolvedGraph) -> dict[str, Any]:
    """MOVE edges as columns: source and target node ids (int arrays), label (str list), optimal (bool list).

    Labels are decoded once per distinct label code, so this is O(E) numpy work
    plus O(distinct labels) Python calls.
    """
    graph = solved.graph
    codes, first, inverse = np.unique(graph.edge_label, return_index=True, return_inverse=True)
    names = np.array([graph.label(int(edge)) for edge in first], dtype=object)
    return {"source": graph.edge_sources(), "target": graph.succ_indices,
            "label": names[inverse.reshape(-1)].tolist() if len(codes) else [],
            "optimal": solved.solution.optimal.astype(bool).tolist()}


# -- the mirror ------------------------------------------------------------------
def to_networkx(solved: SolvedGraph, solved_at: str | None = None) -> nx.DiGraph:
    """The whole solved graph as an nx.DiGraph keyed by position key. O(V + E).

    Node attributes are the Position properties except `game` (remoteness is
    None for draws); edges carry `label` and `optimal`; ``G.graph`` holds the
    Game properties.
    """
    positions = position_columns(solved)
    names = list(positions)
    keys = positions["key"]
    import networkx as nx

    G = nx.DiGraph(**game_properties(solved, solved_at))
    G.add_nodes_from((keys[i], dict(zip(names, row))) for i, row in enumerate(zip(*positions.values())))
    moves = move_columns(solved)
    sources, targets = moves["source"].tolist(), moves["target"].tolist()
    G.add_edges_from((keys[s], keys[t], {"label": label, "optimal": optimal})
                     for s, t, label, optimal in zip(sources, targets, moves["label"], moves["optimal"]))
    return G


def save(G: nx.DiGraph, path: str | os.PathLike) -> Path:
    """Write the mirror as data only (npz + JSON), mode 0600, atomically: a reader sees the old file or the new one.

    Node properties go column by column into one JSON document with the graph's
    properties; moves are int32 source/target arrays, a label code per move and
    the label table, and a bool array. O(V + E).
    """
    path = Path(path)
    keys = list(G.nodes)
    index = {key: i for i, key in enumerate(keys)}
    names: list[str] = []
    for _, data in G.nodes(data=True):
        names.extend(name for name in data if name not in names)
    columns = {name: [data.get(name) for _, data in G.nodes(data=True)] for name in names}
    labels: dict[str, int] = {}
    edges = list(G.edges(data=True))
    document = {"format": MIRROR_FORMAT, "graph": G.graph, "keys": keys, "columns": columns,
                "edge_names": sorted({name for _, _, data in edges for name in data} - {"label", "optimal"}),
                "labels": []}
    arrays = {
        "source": np.array([index[a] for a, _, _ in edges], dtype=np.int32),
        "target": np.array([index[b] for _, b, _ in edges], dtype=np.int32),
        "label": np.array([labels.setdefault(d.get("label"), len(labels)) for _, _, d in edges], dtype=np.int32),
        "optimal": np.array([bool(d.get("optimal")) for _, _, d in edges], dtype=bool),
    }
    document["labels"] = list(labels)
    document["edge_extra"] = {name: [d.get(name) for _, _, d in edges] for name in document["edge_names"]}
    arrays["document"] = np.frombuffer(json.dumps(document, separators=(",", ":")).encode(), dtype=np.uint8)
    with private.atomic_private_file(path) as handle:  # its folder made owner-only first
        np.savez(handle, **arrays)
    return path


def open(path: str | os.PathLike) -> nx.DiGraph:  # noqa: A001 - the module's reading verb, mirror.open(path)
    """Reopen a mirror written by `save`: O(V + E), data only (no pickle is ever loaded).

    ValueError for a file that is not a mirror of this format (torn, foreign,
    a pickle, an old format); OSError when it cannot be read.
    """
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            document = json.loads(data["document"].tobytes().decode())
            source, target = data["source"].tolist(), data["target"].tolist()
            label, optimal = data["label"].tolist(), data["optimal"].tolist()
    except (KeyError, EOFError, zipfile.BadZipFile, UnicodeDecodeError, json.JSONDecodeError, AttributeError) as exc:
        raise ValueError(f"{path} does not hold a networkx mirror: {exc}") from None
    except ValueError as exc:  # numpy refuses pickled content, or the file is no npz at all
        raise ValueError(f"{path} does not hold a networkx mirror: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != MIRROR_FORMAT:
        raise ValueError(f"{path} does not hold a networkx mirror of format {MIRROR_FORMAT}")
    try:
        return _graph(document, source, target, label, optimal)
    except (KeyError, IndexError, TypeError, AttributeError) as exc:  # a damaged document
        raise ValueError(f"{path} does not hold a valid networkx mirror: {type(exc).__name__}: {exc}") from None


def _graph(document: dict, source: list[int], target: list[int], label: list[int], optimal: list[bool]) -> nx.DiGraph:
    keys, columns, labels = document["keys"], document["columns"], document["labels"]
    names = list(columns)
    import networkx as nx

    G = nx.DiGraph(**document["graph"])
    if names:
        G.add_nodes_from((key, dict(zip(names, row))) for key, row in zip(keys, zip(*columns.values())))
    else:
        G.add_nodes_from(keys)
    extra = document.get("edge_extra") or {}
    if extra:
        extra_rows = list(zip(*extra.values()))
        G.add_edges_from((keys[s], keys[t], {"label": labels[l], "optimal": o, **dict(zip(extra, row))})
                         for s, t, l, o, row in zip(source, target, label, optimal, extra_rows))
    else:
        G.add_edges_from((keys[s], keys[t], {"label": labels[l], "optimal": o})
                         for s, t, l, o in zip(source, target, label, optimal))
    return G


def mirror_path(game: Game, symmetry: bool = True) -> Path:
    """Where the cached mirror of a game lives: ``<state dir>/mirrors/<name>-<hash>.npz``."""
    symmetry = symmetry and game.has_symmetry()
    return private.cache_path(CACHE_KIND, game.name, f"{MIRROR_FORMAT}|{CACHE_FORMAT}|{game.id}|{symmetry}", ".npz")


def _remove_old_pickles(folder: Path) -> None:
    """Mirrors of format 1 were pickles: never read again, so removed rather than left to be trusted."""
    for old in folder.glob("*.pickle"):
        old.unlink(missing_ok=True)


def mirror_for(spec_or_game: Game | str, symmetry: bool = True,
               max_positions: int = DEFAULT_MAX_POSITIONS, solved: SolvedGraph | None = None) -> nx.DiGraph:
    """The mirror of a game, from the mirror cache when present, else built and cached.

    A hit costs one read of the data-only file (`open`); a miss costs the solve (`solved` when the caller
    holds it, else load_or_build) plus O(V + E) to build and write the mirror.
    A torn or foreign cache file is rebuilt; a graph over `max_positions` is refused.
    """
    game = parse_spec(spec_or_game) if isinstance(spec_or_game, str) else spec_or_game
    path = mirror_path(game, symmetry)
    expected_id = graph_id(game, symmetry)
    if path.exists():
        try:
            G = open(path)
            if G.graph.get("id") == expected_id:
                check_size(G.number_of_nodes(), game, max_positions)
                return G
        except (OSError, ValueError):
            pass
        path.unlink(missing_ok=True)  # a torn, foreign or planted file is rebuilt, never trusted
    G = to_networkx(solved or load_or_build(game, symmetry=symmetry, max_positions=max_positions))
    private.private_state_dir()
    try:
        save(G, path)
    except OSError as error:  # the state folder is checked; a sub-folder in the way is reported in one line
        raise GameGraphError(f"cannot write the mirror cache {path}: {error.strerror or error}") from None
    _remove_old_pickles(path.parent)
    return G
