"""gamegraph's Python API, for notebooks and scripts (docs/python.md):

    import explorer as gg

    ttt = gg.open("tictactoe")          # solved, or read from what `gamegraph solve` kept
    ttt.value()                         # Value.TIE: the start, for the player to move
    ttt.moves("X../.../...")            # every move, best first, with its value for the mover
    ttt.line()                          # the line both players follow with their best moves
    ttt.neighbourhood(k=2)              # a networkx.DiGraph of the positions within 2 moves
    ttt.board("X../.O./...")            # draws itself in Jupyter (_repr_svg_)
    ttt.export("positions.csv")         # every position, as `gamegraph export` writes it

A position is given in the game's notation, as a position of the game, or left out for the start.
`open` goes through the one home of a solved game (explorer.solved.storage): a game solved into a value
file (`gamegraph solve SPEC --implicit` or `--tiered`) is read from it, and a graph kept by
`gamegraph solve` is not solved again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from explorer.core.errors import GameGraphError, InvalidParameter
from explorer.core.values import Value
from explorer.games import Game, parse_spec
from explorer.solved import GRAPH, VALUES, SolvedGame, open_solved
from explorer.solved import solve as _solve

__all__ = ["Board", "Line", "Solved", "Value", "game_names", "open", "solve"]


def game_names() -> list[str]:
    """The names of every game gamegraph knows (built in, and plug-ins loaded)."""
    from explorer.games import games as known

    return sorted(known())


def open(spec: str | Game, *, symmetry: bool = True) -> "Solved":  # noqa: A001 - gg.open, as in the docs
    """The solved game named by `spec` (e.g. "tictactoe", "nim(heaps=1-3-5)", "connect4:small"): read from a
    value file when one is stored, else the graph kept by `gamegraph solve`, else solved now and kept.
    One line (GameGraphError) for a bad spec or a game too large for a graph without a value file."""
    game = parse_spec(spec) if isinstance(spec, str) else spec
    return Solved(open_solved(game, VALUES, symmetry=symmetry, command="show", spec=game.display_name))


def solve(spec: str | Game, how: str = GRAPH, **options: Any) -> "Solved":
    """Solve the game `how` ("graph", "implicit" or "tiered"; explorer.solved.storage.solve takes the
    options) and keep the result, as `gamegraph solve` does; the solved game, read back."""
    game = parse_spec(spec) if isinstance(spec, str) else spec
    return Solved(_solve(game, how, **options)[0])


@dataclass
class Board:
    """A position of a game that draws itself: an SVG in Jupyter (`_repr_svg_`) when the game has a drawing,
    else its notation (`_repr_html_`, `str`)."""

    game: Game
    position: Any

    @property
    def key(self) -> str:
        return self.game.format(self.position)

    def svg(self) -> str | None:
        """The board as SVG (the page's drawing, explorer/ui/boards), or None when the game has none."""
        from explorer.ui.drawing import position_svg

        return position_svg(self.game, self.position)

    def _repr_svg_(self) -> str | None:
        return self.svg()

    def _repr_html_(self) -> str:
        from html import escape

        return self.svg() or f"<code>{escape(self.key)}</code>"

    def __str__(self) -> str:
        return self.key

    def __repr__(self) -> str:
        return f"Board({self.game.display_name!r}, {self.key!r})"


class Line(list):
    """The records of a line of play (each but the last with its `move`); its boards draw in Jupyter."""

    def __init__(self, game: Game, records: list[dict[str, Any]]):
        super().__init__(records)
        self.game = game

    @property
    def keys(self) -> list[str]:
        return [record["key"] for record in self]

    @property
    def moves(self) -> list[str]:
        return [record["move"] for record in self if "move" in record]

    def boards(self) -> list[Board]:
        """Each position as played on one board from the first (`board`; its stored `key` may be a mirror image)."""
        return [Board(self.game, self.game.parse(record.get("board", record["key"]))) for record in self]

    def _repr_html_(self) -> str:
        from html import escape

        cells = []
        for board, record in zip(self.boards(), self):
            words = f"{record['value']}" + ("" if record["remoteness"] is None else f" in {record['remoteness']}")
            move = f"<br>then {escape(record['move'])}" if "move" in record else ""
            cells.append(f"<td style='text-align:center;vertical-align:top'>{board._repr_html_()}"
                         f"<br>{escape(words)}{move}</td>")
        return f"<table><tr>{''.join(cells)}</tr></table>"


class Solved:
    """A solved game: its value, remoteness, record and moves of a position, lines, neighbourhoods as networkx
    graphs, boards and exports, whatever the storage (`kind`: graph, implicit or tiered)."""

    def __init__(self, solved: SolvedGame):
        self._solved = solved
        self.game: Game = solved.game
        self.kind: str = solved.kind
        self._reverse = None

    def __repr__(self) -> str:
        size = (f"{self._solved.graph.graph.num_positions:,} positions" if self._solved.graph is not None
                else f"{self._solved.values.meta.get('positions', 0):,} positions in its value file")
        return f"<solved {self.game.display_name} [{self.game.id}]: {size}, start {self.describe()}>"

    def position(self, position: Any = None) -> Any:
        """The position itself (the start when None; notation parsed)."""
        if position is None:
            return self.game.start()
        return self.game.parse(position) if isinstance(position, str) else position

    def key(self, position: Any = None) -> str:
        """The key the solved game stores the position under (its symmetry class's, in a reduced graph)."""
        return self._solved.key(self._at(position))

    def _at(self, position: Any) -> Any:
        """The position as SolvedGame takes it: notation, a position, or None for the start."""
        return position

    def value(self, position: Any = None) -> Value:
        """The value for the player to move: Value.WIN, LOSS, TIE or DRAW."""
        return self._solved.value(self._at(position))

    def remoteness(self, position: Any = None) -> int | None:
        """Moves to the end of the game with best play (None for a draw)."""
        return self._solved.remoteness(self._at(position))

    def describe(self, position: Any = None) -> str:
        """'win in 3', 'draw'."""
        r = self.remoteness(position)
        return f"{self.value(position)}" + ("" if r is None else f" in {r}")

    def record(self, position: Any = None) -> dict[str, Any]:
        """Everything known about the position (docs/model.md)."""
        return self._solved.record(self._at(position))

    def moves(self, position: Any = None) -> list[dict[str, Any]]:
        """Every move (label, to, value for the mover, remoteness, optimal), best first."""
        return self._solved.moves(self._at(position))

    def best_move(self, position: Any = None) -> str | None:
        """The label of the best move, None at the end of the game."""
        moves = self.moves(position)
        return moves[0]["label"] if moves else None

    def line(self, position: Any = None, limit: int = 50) -> Line:
        """The line both players follow with their best moves, to the end (or where a draw repeats): records
        whose `board` is the position as played on one board from `position` and `move` the move named on it
        (Game.shown_line; `key` stays the stored key, one of its mirror images in a symmetry-reduced graph)."""
        records = self._solved.line(self._at(position), limit)
        shown = self.game.shown_line([r["key"] for r in records], [r.get("move") for r in records[:-1]],
                                     start=self.position(position))
        for record, (board, _) in zip(records, shown):
            record["board"] = self.game.format(board)
        for record, (_, label) in zip(records, shown[1:]):
            record["move"] = label
        return Line(self.game, records)

    def board(self, position: Any = None) -> Board:
        """The position as a Board, which draws itself in Jupyter."""
        return Board(self.game, self.position(position))

    def play(self, *moves: str, start: Any = None) -> Any:
        """The position reached by playing the moves (labels as `moves` names them) from `start`."""
        here = self.position(start)
        for label in moves:
            found = next((m.position for m in self.game.moves(here) if m.label == label), None)
            if found is None:
                raise InvalidParameter(f"{label!r} is not a move of {self.game.format(here)}")
            here = found
        return here

    def neighbourhood(self, position: Any = None, k: int = 1, direction: str = "both"):
        """The positions within `k` moves of `position` (by moves `out`, un-moves `in`, or `both`) and every move
        between them, as a networkx.DiGraph keyed by position key; nodes carry value and remoteness, edges
        label and optimal. A game in a value file is walked by its rules (explorer.solved.materialise)."""
        import networkx as nx

        if direction not in ("out", "in", "both"):
            raise InvalidParameter(f"direction {direction!r} is not valid: choose out, in or both")
        if not isinstance(k, int) or k < 0:
            raise InvalidParameter(f"k {k!r} is not valid: a whole number of moves, 0 or more")
        if self._solved.graph is None:
            from explorer.solved import materialise

            part = materialise(self._solved.values, self.position(position), k, direction)
            nodes = range(part.graph.num_positions)
            return _digraph(nx, part, nodes)
        solved = self._solved.graph
        graph = solved.graph
        centre = self._solved.at(position)
        found, frontier = {centre}, [centre]
        for _ in range(k):
            level = []
            for node in frontier:
                for there in self._neighbours(node, direction):
                    if there not in found:
                        found.add(there)
                        level.append(there)
            frontier = level
        return _digraph(nx, solved, sorted(found, key=lambda n: (n != centre, n)))

    def _neighbours(self, node: int, direction: str) -> Iterator[int]:
        graph = self._solved.graph.graph
        if direction in ("out", "both"):
            yield from (int(graph.succ_indices[e]) for e in graph.edge_range(node))
        if direction in ("in", "both"):
            if self._reverse is None:
                from explorer.algorithms.reverse import reverse_csr

                self._reverse = reverse_csr(graph.num_positions, graph.succ_indptr, graph.succ_indices)
            indptr, indices = self._reverse
            yield from (int(i) for i in indices[indptr[node]:indptr[node + 1]])

    def to_networkx(self):
        """The whole solved graph as a networkx.DiGraph (loaders.mirror.to_networkx); a graph only."""
        if self._solved.graph is None:
            raise GameGraphError(f"{self.game.display_name} is read from a value file, which stores no moves: "
                                 "take a neighbourhood instead")
        from loaders.mirror import to_networkx

        return to_networkx(self._solved.graph)

    def export(self, path: str | Path, what: str = "positions", format: str | None = None) -> int:  # noqa: A002
        """Write every position (or `what="moves"`) as JSONL or CSV (by the suffix, or `format`), as
        `gamegraph export` does; returns how many records. A graph only."""
        from explorer import export
        from explorer.core.files import output_file

        if self._solved.graph is None:
            raise GameGraphError(f"{self.game.display_name} is read from a value file: export needs its graph")
        if what not in ("positions", "moves"):
            raise InvalidParameter(f"what {what!r} is not valid: choose positions or moves")
        fmt = format or Path(path).suffix.lstrip(".").lower()
        if fmt not in ("jsonl", "csv"):
            raise InvalidParameter(f"cannot tell the format of {str(path)!r}: end it in .jsonl or .csv, or give format=")
        solved = self._solved.graph
        with output_file(str(path)) as out:
            if what == "moves":
                return export.write(export.move_records(solved), out, fmt, export.MOVE_COLUMNS)
            return export.write(export.position_records(solved), out, fmt, export.POSITION_COLUMNS)


def _digraph(nx, solved, nodes) -> Any:
    """The induced networkx.DiGraph of `nodes` of a SolvedGraph (or a part): value and remoteness on nodes,
    label and optimal on edges."""
    graph = solved.graph
    inside = {int(n) for n in nodes}
    G = nx.DiGraph(game=graph.game.id)
    for node in inside:
        G.add_node(graph.key(node), value=str(solved.value(node)), remoteness=solved.remoteness(node),
                   to_move=int(graph.to_move[node]), terminal=bool(graph.terminal[node] >= 0))
    for node in inside:
        for edge in graph.edge_range(node):
            there = int(graph.succ_indices[edge])
            if there in inside:
                G.add_edge(graph.key(node), graph.key(there), label=graph.label(edge),
                           optimal=bool(solved.solution.optimal[edge]))
    return G
