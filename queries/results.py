"""The plain result types every query returns, whichever backend ran it.

A QueryResult is a few named tables of JSON-ready scalars (str, int, bool, None)
or lists of them, sorted deterministically, so results from Neo4j and networkx
compare equal with ``==`` and print or serialise without special cases.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Table:
    columns: list[str]
    rows: list[list[Any]]

    def records(self) -> list[dict[str, Any]]:
        """Rows as dicts keyed by column: O(rows * columns)."""
        return [dict(zip(self.columns, row)) for row in self.rows]

    def column(self, name: str) -> list[Any]:
        at = self.columns.index(name)
        return [row[at] for row in self.rows]


@dataclass
class QueryResult:
    """One query's answer.

    query: the query name; game: the graph id; params: the validated arguments
    (position keys canonical); tables: name -> Table, in a fixed order;
    truncated: the row cap was hit; notes: plain sentences for people
    (the row cap, an empty answer's reason); positions, moves: a line of play as plain
    lists (its table's key and label columns); boards, named: the same line as played on one board.
    """

    query: str
    game: str
    params: dict[str, Any]
    tables: dict[str, Table]
    truncated: bool = False
    notes: list[str] = field(default_factory=list)
    # A line of play (shortest-win, path, shortest-cycle closed on its position): its position
    # keys from start to end, and the labels of the moves between them (one fewer). None for other queries.
    positions: list[str] | None = None
    moves: list[str] | None = None
    # The same line as played on one board (Game.shown_line): each board is the one before it with
    # the move named applied, starting from the position as typed. Stored keys jump between
    # symmetric orientations; these do not. None for other queries.
    boards: list[str] | None = None
    named: list[str] | None = None
    # Positions given to the query as typed, where no line shows them (a path that found none) and the stored key
    # differs: parameter name -> the board as typed, for the heading. None otherwise.
    typed: dict[str, str] | None = None

    def orient_from(self, game: Any, board: Any = None) -> None:
        """Keeps what a neighbourhood is drawn from: its game and the position as typed (`board`, a position
        of the game whose key is the centre's; None: the centre as stored). `drawing` orients it when first
        read, so a caller reading only the stored tables (the canvas, which orients from the page's board)
        pays nothing. Kept beside the fields, not in them: `==` and `to_dict` see the tables only."""
        self._orient = (game, board)
        self._drawing = None

    def drawing(self) -> tuple[dict[str, str], list[tuple[str | None, bool]]] | None:
        """A neighbourhood as drawn from the position as typed (Game.orient, as the page's canvas draws it):
        (stored key -> its board in the orientation that follows the moves, for every key a move reaches or
        leaves; each row of the `moves` table as (its name as played on its `from` board, whether its `to`
        is drawn as another orientation of the board it leaves)). None for another query, or a result not
        given orient_from. O(moves x moves of a position) rule calls, once."""
        if self.query != "neighbourhood" or getattr(self, "_orient", None) is None:
            return None
        if self._drawing is None:
            game, board = self._orient
            centre = self.params["position"]
            shown = {centre: board if board is not None else game.parse(centre)}
            moves = self.tables["moves"]
            at = [moves.columns.index(column) for column in ("from", "label", "to")]
            played = game.orient([tuple(row[i] for i in at) for row in moves.rows], shown)
            self._drawing = ({key: game.format(position) for key, position in shown.items()}, played)
        return self._drawing

    def table(self, name: str) -> Table:
        """A table as the query found it: a line of play on the stored keys, which the library reads on
        (a key, a label, the next key); `shown` gives it as a person reads it."""
        return self.tables[name]

    def shown(self, name: str) -> Table:
        """A table as a person reads it, the CLI's text and JSON's: a line of play named as played on the
        board typed (played_tables: one name per move and position), its stored keys, the ones Cypher
        matches, in a last column `stored`; any other table as it is. O(rows)."""
        return played_tables(self)[name]

    def __str__(self) -> str:
        """The result as `gamegraph query` prints it (format_result), a line of play named as played."""
        return format_result(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; `positions`, `moves`, `boards` and `named` appear only for a line of play, whose
        table names each move as played (played_tables)."""
        data = {k: v for k, v in asdict(self).items()
                if k not in ("positions", "moves", "boards", "named", "typed") or v is not None}
        data["tables"] = {name: asdict(table) for name, table in played_tables(self).items()}
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


@dataclass
class ConsoleResult:
    """What the read-only Cypher console returns: the columns, the rows (JSON-ready) and whether the cap cut them."""

    columns: list[str]
    rows: list[list[Any]]
    truncated: bool
    row_cap: int
    # The byte cap when it, not the row cap, cut the rows (queries.console.MAX_RESULT_BYTES); None otherwise.
    byte_cap: int | None = None
    # The nodes and relationships the rows hold (result_graph), for the page's canvas; None when none.
    graph: dict[str, list[dict[str, Any]]] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def format_cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " > ".join(format_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def format_table(table: Table) -> str:
    """A fixed-width text table: O(rows * columns)."""
    cells = [[format_cell(v) for v in row] for row in table.rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(table.columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(table.columns, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines)


def format_result(result: QueryResult) -> str:
    """The whole result as text: one titled table per section (a line of play named as played,
    played_tables), then the notes."""
    parts = [f"{result.query} on {result.game}" + "".join(
        f", {k}={_param(result, k, v)}" for k, v in result.params.items())]
    players = _players(result.game)
    for name, table in played_tables(result).items():
        parts.append(f"\n[{name}] ({len(table.rows)} row{'' if len(table.rows) == 1 else 's'})")
        parts.append(format_table(_values_shown(table, players)) if table.rows else "(none)")
    notes = list(result.notes)
    if result.boards and (result.boards != result.positions or result.named != result.moves):
        notes.insert(0, "the line is played on one board from the position as typed: each key is the board "
                        "before it with the move named applied; `stored` is the key the graph keeps for it "
                        "(a position and its mirror images share one)")
    drawing = result.drawing()
    if drawing is not None:
        drawn, played = drawing
        said = []
        if any(text != key for key, text in drawn.items()):
            said.append("the positions are drawn in the orientation that follows the moves from the position as "
                        "typed, each move named as played on its `from` board; `stored` is the key the graph keeps "
                        "(a position and its mirror images share one)")
        if any(mirrored for _, mirrored in played):
            said.append("a move with `mirrored` yes leaves the mirror image (or a turn) of its `to` as drawn: the "
                        "same position, reached another way")
        notes = said + notes
    parts += [f"\nnote: {note}" for note in notes]
    return "\n".join(parts)


CGT_COLUMNS = ("cgt",)   # columns holding a combinatorial value as stored (ASCII, '+-1'; queries/cgt-*.cypher)


PLAYER_COLUMNS = ("to_move",)  # a player's index as stored (0 or 1): written as the game calls its players


def _players(graph_id: str) -> tuple[str, str] | None:
    """The names of the game's two players (X and O, Red and Blue, A and B) for a graph id; None when it names no
    game this install knows (a result read back from elsewhere)."""
    from explorer.core.errors import GameGraphError
    from explorer.games.base import player_name
    from explorer.graph import parse_graph_id

    try:
        game, _ = parse_graph_id(graph_id)
    except (GameGraphError, ValueError, KeyError):
        return None
    return player_name(game, 0), player_name(game, 1)


def _values_shown(table: Table, players: tuple[str, str] | None = None) -> Table:
    """The table with its CGT values written as people read them ('±1', explorer.cgt.notation.shown_stored) and
    its players by name (`players`, for PLAYER_COLUMNS' 0 and 1: `X`, not 0); JSON keeps the stored values, the
    text Neo4j and --value match on. O(rows)."""
    at = [i for i, column in enumerate(table.columns) if column in CGT_COLUMNS]
    named = [i for i, column in enumerate(table.columns) if column in PLAYER_COLUMNS] if players else []
    if not at and not named:
        return table
    from explorer.cgt.notation import shown_stored

    def shown(i: int, v: Any) -> Any:
        if i in at and isinstance(v, str):
            return shown_stored(v)
        if i in named and v in (0, 1) and not isinstance(v, bool):
            return players[v]
        return v

    return Table(table.columns, [[shown(i, v) for i, v in enumerate(row)] for row in table.rows])


def _param(result: QueryResult, name: str, value: Any) -> str:
    """A parameter in a result's heading; a line's starting position as typed (its first board) and a path's
    end as typed (its last board), with the stored key the query was given beside each when they differ."""
    if result.typed and name in result.typed:
        return f"{result.typed[name]} (stored {format_cell(value)})"
    if (name == "position" and result.boards and result.positions and value == result.positions[0]
            and result.boards[0] != value):
        return f"{result.boards[0]} (stored {format_cell(value)})"
    drawing = result.drawing() if name == "position" else None
    if drawing is not None and drawing[0].get(value, value) != value:
        return f"{drawing[0][value]} (stored {format_cell(value)})"
    if (name == "to" and result.query == "path" and result.boards and result.positions
            and value == result.positions[-1] and result.boards[-1] != value):
        return f"{result.boards[-1]} (stored {format_cell(value)})"
    if name == "value" and result.query == "cgt-equal" and isinstance(value, str):
        from explorer.cgt.notation import shown_stored

        return shown_stored(value)
    return format_cell(value)


LINE_TABLES = ("line", "path", "cycle")  # the tables that hold a line of play (queries.api.LINES)


def played_tables(result: QueryResult) -> dict[str, Table]:
    """The result's tables, a line of play's named as played on one board (Game.shown_line, kept in
    `boards` and `named`): its `key`, `label` and `to` are the board before each move, the move as named
    there and the board it leaves, so that each move has one name, the one a person plays; a last column
    `stored` keeps the key the graph stores (symmetric positions share one). A neighbourhood as drawn
    (neighbourhood_tables). Other tables as they are. O(rows)."""
    drawing = result.drawing()
    if drawing is not None:
        return neighbourhood_tables(result.tables, *drawing)
    if not result.boards or result.named is None:
        return dict(result.tables)
    tables = dict(result.tables)
    for name in LINE_TABLES:
        table = tables.get(name)
        if table is None or not {"key", "label", "to"} <= set(table.columns) or not table.rows:
            continue
        at = {column: table.columns.index(column) for column in ("key", "label", "to")}
        rows = []
        for i, row in enumerate(table.rows):
            played = list(row)
            if i < len(result.boards):
                played[at["key"]] = result.boards[i]
            if row[at["to"]] is not None and i + 1 < len(result.boards):
                played[at["to"]] = result.boards[i + 1]
            if row[at["label"]] is not None and i < len(result.named):
                played[at["label"]] = result.named[i]
            rows.append(played + [row[at["key"]]])
        tables[name] = Table(table.columns + ["stored"], rows)
    return tables


def neighbourhood_tables(tables: dict[str, Table], drawn: dict[str, str],
                         played: list[tuple[str | None, bool]]) -> dict[str, Table]:
    """A neighbourhood's tables as drawn (QueryResult.drawing: Game.orient from the position as typed): each
    position's `key` is its board in the orientation that follows the moves, with the key the graph stores in a
    last column `stored`; each move's `from` and `to` are those boards and its `label` the move as played on its
    `from` board, so that the move named, played there, leaves its `to` board, unless the last column `mirrored`
    says that `to` is drawn as another orientation of the board the move leaves (the same position, reached
    another way). O(rows)."""
    positions, moves = tables["positions"], tables["moves"]
    key = positions.columns.index("key")
    drawn_positions = Table(positions.columns + ["stored"],
                            [[drawn.get(row[key], row[key]) if i == key else v for i, v in enumerate(row)] + [row[key]]
                             for row in positions.rows])
    at = {column: moves.columns.index(column) for column in ("from", "label", "to")}
    rows = []
    for row, (label, mirrored) in zip(moves.rows, played):
        shown = list(row)
        shown[at["from"]] = drawn.get(row[at["from"]], row[at["from"]])
        shown[at["to"]] = drawn.get(row[at["to"]], row[at["to"]])
        shown[at["label"]] = label
        rows.append(shown + [mirrored])
    return {**tables, "positions": drawn_positions, "moves": Table(moves.columns + ["mirrored"], rows)}


MAX_GRAPH_NODES = 2000  # the most nodes a console result draws (the canvas's own limit)


def result_graph(rows: list[list[Any]], max_nodes: int = MAX_GRAPH_NODES) -> dict[str, list[dict[str, Any]]] | None:
    """The nodes, relationships and paths in a Cypher result's rows (neo4j driver values, at any depth of
    lists and maps) as a graph for the canvas: {"nodes": [{id, labels, properties}], "relationships":
    [{id, type, start, end, properties}]}, ids being Neo4j element ids. A relationship's two ends are
    included even when the rows do not name them. None when the rows hold no graph value. At most
    max_nodes nodes (relationships to nodes past that are left out). O(size of the rows).
    """
    from neo4j.graph import Node, Path, Relationship

    nodes: dict[str, dict[str, Any]] = {}
    relationships: dict[str, dict[str, Any]] = {}

    def add_node(node: Node) -> bool:
        if node.element_id not in nodes:
            if len(nodes) >= max_nodes:
                return False
            nodes[node.element_id] = {"id": node.element_id, "labels": sorted(node.labels),
                                      "properties": _plain_properties(node)}
        return True

    def add_relationship(rel: Relationship) -> None:
        if rel.element_id in relationships or rel.start_node is None or rel.end_node is None:
            return
        if add_node(rel.start_node) and add_node(rel.end_node):
            relationships[rel.element_id] = {"id": rel.element_id, "type": rel.type,
                                             "start": rel.start_node.element_id, "end": rel.end_node.element_id,
                                             "properties": _plain_properties(rel)}

    stack: list[Any] = list(rows)
    while stack:
        value = stack.pop()
        if isinstance(value, Node):
            add_node(value)
        elif isinstance(value, Relationship):
            add_relationship(value)
        elif isinstance(value, Path):
            for node in value.nodes:
                add_node(node)
            for rel in value.relationships:
                add_relationship(rel)
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
    if not nodes:
        return None
    return {"nodes": list(nodes.values()), "relationships": list(relationships.values())}


def _plain_properties(entity: Any) -> dict[str, Any]:
    """An entity's properties as JSON-ready values (temporal and spatial ones as text)."""
    def plain(value: Any) -> Any:
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return str(value)

    return {k: plain(v) for k, v in entity.items()}


# -- the console's table cells ---------------------------------------------------------------
MAX_CELL_CHARS = 2000  # a cell's text is cut here (the row and byte caps bound the whole result)


def readable(value: Any, limit: int = MAX_CELL_CHARS) -> str:
    """A console cell (a value of queries.console.plain: JSON-ready, nodes and relationships as maps)
    as text for people, as Neo4j Browser's table writes it, never as JSON: a node as
    ``(:Position {key: A|1-1|1-1, value: loss})``, a relationship as ``[:MOVE {label: L>R}]``, a path
    as its nodes' keys joined by its moves, a list as ``[a, b]`` and a map as ``{k: v}``, at any depth;
    strings without quotes, null as ``null``. Cut to `limit` characters, saying so. O(size of the value)."""
    text = _readable(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _readable(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_readable(v) for v in value) + "]"
    if isinstance(value, dict):
        if isinstance(value.get("_labels"), list):  # a node
            rest = dict(sorted((item for item in value.items() if item[0] != "_labels"),
                               key=lambda item: item[0] != "key"))  # its key first: what names a position
            return "(" + "".join(f":{label}" for label in value["_labels"]) + (f" {_map(rest)}" if rest else "") + ")"
        if isinstance(value.get("_type"), str):  # a relationship
            rest = {k: v for k, v in value.items() if k != "_type"}
            return f"[:{value['_type']}" + (f" {_map(rest)}" if rest else "") + "]"
        if set(value) == {"nodes", "relationships"} and isinstance(value["nodes"], list):  # a path
            nodes, rels = value["nodes"], value["relationships"] or []
            parts = [_caption(nodes[0])] if nodes else []
            for rel, node in zip(rels, nodes[1:]):
                name = rel.get("label") if isinstance(rel, dict) else None
                parts.append(f"-[{name}]->" if name is not None else "-->")
                parts.append(_caption(node))
            return " ".join(parts)
        return _map(value)
    return str(value)


def _map(value: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {_readable(v)}" for k, v in value.items()) + "}"


def _caption(node: Any) -> str:
    """A node in a path: its key when it has one, else the whole node."""
    if isinstance(node, dict) and isinstance(node.get("key"), (str, int)):
        return str(node["key"])
    return _readable(node)


# -- lines of position keys ------------------------------------------------------------------
MAX_KEY_STEPS = 1000  # the most moves a result's lines of keys may ask the canvas to draw


def key_steps(columns: list[str], rows: list[list[Any]], max_steps: int = MAX_KEY_STEPS) -> list[list[Any]]:
    """The moves of the lines of position keys a console result holds as plain lists (the library's
    cycles query returns each cycle as `keys`, the positions visited, and `labels`, the moves between
    them): [from key, to key, move label or None] once each, in order. In each row, a column holding a
    list of at least two strings is a line; a column of strings one shorter names its moves. The
    console looks the steps up as moves of the game, so lists of other strings simply draw nothing.
    At most max_steps. O(size of the rows)."""
    steps: dict[tuple[Any, ...], None] = {}
    for row in rows:
        lists = [v for v in row if isinstance(v, list) and v and all(isinstance(x, str) for x in v)]
        lengths = {len(v) for v in lists}
        for line in (v for v in lists if len(v) >= 2 and len(v) + 1 not in lengths):  # not a line's move names
            names = next((v for v in lists if len(v) == len(line) - 1), None)
            for i in range(len(line) - 1):
                steps.setdefault((line[i], line[i + 1], names[i] if names else None))
                if len(steps) >= max_steps:
                    return [list(step) for step in steps]
    return [list(step) for step in steps]
