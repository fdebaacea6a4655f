"""Playing against the solver: opponents, moves, slips and the value history.

The perfect opponent plays an optimal move (explorer.solver: keep the value,
fastest win, slowest loss, keep a draw or tie); in a pure draw it presses as
GamesmanUni's computer does (explorer.algorithms.draw_levels): from a draw-win
towards the fringe, from a draw-lose as far from it as it can; a slipping one plays a random
legal move with probability p and a perfect one otherwise; a random one plays
any legal move. A move's effect is judged by the value for the mover before and
after it: a slip is a move that makes the mover's result worse (win → draw or
loss, draw → loss, tie → loss, …).

One Match plays over anything that satisfies `Solved`: a solved graph
(explorer.solved.SolvedGraph, a position named by its node number) or a value
file of a game too large for a graph (explorer.implicit.ValueFile and
explorer.tiered.TieredValues, from `gamegraph solve SPEC --implicit` or
`--tiered`, a position named by the position itself, read in O(1) chunk reads).
The value file has no graph, hence no draw levels: there the perfect player
keeps a draw with the first draw-keeping move (by label) and does not press.
"""

from __future__ import annotations

import re

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from explorer.core.bounds import decimal_number
from explorer.core.errors import GameGraphError, InvalidParameter, InvalidPosition
from explorer.games import Game
from explorer.solved import SolvedGraph, too_large_for_a_graph  # noqa: F401  (the page's import)
from explorer.core.values import Value


class Solved(Protocol):
    """What a match asks of a solved game, at a position named the store's way (`at`): its value and
    remoteness for the player to move, its record (explorer.core.records) and its moves as move records
    (label, to, value, remoteness, optimal). explorer.solved.SolvedGraph satisfies it with node numbers,
    explorer.implicit.ValueFile and explorer.tiered.TieredValues with the positions themselves."""

    game: Game

    def value(self, at: Any) -> Value: ...

    def remoteness(self, at: Any) -> int | None: ...

    def record(self, at: Any) -> dict[str, Any]: ...

    def moves(self, at: Any) -> list[dict[str, Any]]: ...


def value_file_for(game: Game, max_positions: int) -> Any | None:
    """The game's value-file reader when it is solved into one and too large for a graph of `max_positions`
    positions (explorer.solved.storage.choose, GRAPH_FIRST); else None, and play uses the solved graph."""
    from explorer.solved import GRAPH, GRAPH_FIRST, choose, open_solved

    if choose(game, GRAPH_FIRST, max_positions) == GRAPH:
        return None
    return open_solved(game, GRAPH_FIRST, max_positions=max_positions).values


class _Nodes:
    """Positions named by node numbers of a solved graph: the graph's arrays answer, O(1) each."""

    def __init__(self, solved: SolvedGraph):
        self.solved, self.graph = solved, solved.graph
        self.start = 0

    def key(self, node: int) -> str:
        return self.graph.key(node)

    def find(self, text: str) -> int:
        return self.graph.find(text)

    def of(self, position: Any) -> int | None:
        return self.graph.node_of(position)

    def outcome(self, node: int) -> Value | None:
        code = int(self.graph.terminal[node])
        return None if code < 0 else Value(code)

    def to_move(self, node: int) -> int:
        return int(self.graph.to_move[node])

    def moves(self, node: int) -> list[tuple[str, int, bool]]:
        graph = self.graph
        return [(graph.label(e), int(graph.succ_indices[e]), bool(self.solved.solution.optimal[e]))
                for e in graph.edge_range(node)]

    def draw_grade(self, node: int) -> tuple[int, int, int]:
        levels = self.solved.draw_levels
        return int(levels.kind[node]), int(levels.level[node]), int(levels.remoteness[node])


class _Positions:
    """Positions named by themselves, read from a value file (no graph): the rules give the moves in their
    order (moves reaching one position merged, the first label kept, as in a graph) and the reader's move
    records their optimal flags. O(moves) chunk reads a position."""

    def __init__(self, values: Solved, start: Any):
        self.values, self.game = values, values.game
        self.start = start
        self._named: dict[str, Any] = {}

    def key(self, position: Any) -> str:
        key = self.game.format(position)
        self._named[key] = position
        return key

    def find(self, text: str) -> Any:
        """The position `text` names (InvalidPosition for bad text, or a position the file holds as illegal)."""
        known = self._named.get(text)
        if known is not None:
            return known
        position = self.game.parse(text)
        try:
            self.values.value(position)
        except GameGraphError as error:
            raise InvalidPosition(str(error)) from None
        return position

    def of(self, position: Any) -> Any:
        return position

    def outcome(self, position: Any) -> Value | None:
        return self.game.outcome(position)

    def to_move(self, position: Any) -> int:
        return int(self.game.to_move(position))

    def moves(self, position: Any) -> list[tuple[str, Any, bool]]:
        if self.game.outcome(position) is not None:
            return []
        optimal = {move["to"]: move["optimal"] for move in self.values.moves(position)}
        rows, seen = [], set()
        for move in self.game.moves(position):
            if move.position not in seen:
                seen.add(move.position)
                rows.append((move.label, move.position, bool(optimal[self.key(move.position)])))
        return rows

    def draw_grade(self, position: Any) -> tuple[int, int, int]:
        return -1, -1, -1   # no graph, no draw levels: every draw is plain


@dataclass(frozen=True)
class Opponent:
    kind: str            # perfect | random | slip
    slip: float = 0.0

    @classmethod
    def parse(cls, text: str) -> "Opponent":
        text = (text or "").strip().lower()
        if text in ("perfect", "random"):
            return cls(text)
        if text.startswith("slip="):
            try:  # plain ASCII, and never a number that underflows to 0 (slip=1e-400)
                p = decimal_number(text[5:], "")
            except ValueError:
                p = -1.0
            if 0.0 <= p <= 1.0:
                return cls("slip", p)
        raise InvalidParameter(f"opponent {text!r} is not valid: choose perfect, random or slip=P with P from 0 to 1")


@dataclass
class Ply:
    ply: int
    player: int
    label: str
    before: str          # the position moved from
    after: str           # the position reached
    value_before: str    # for the mover, before the move
    value_after: str     # for the mover, after the move (its successor's value flipped)
    slip: bool


@dataclass
class Match:
    """A game in progress on a solved game (`Solved`): the current position (a node of a solved graph, the
    position itself on a value file), the start and what happened so far."""

    solved: Solved
    node: Any = None     # the current position, the store's way; None: the start
    plies: list[Ply] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.solved, SolvedGraph):
            self.places: Any = _Nodes(self.solved)
        else:
            self.places = _Positions(self.solved, self.solved.game.start() if self.node is None else self.node)
        if self.node is None:
            self.node = self.places.start
        self.start = self.node

    @property
    def graph_backed(self) -> bool:
        """Whether a solved graph answers (draw levels, node numbers), not a value file."""
        return isinstance(self.places, _Nodes)

    @property
    def over(self) -> bool:
        return self.places.outcome(self.node) is not None

    def outcome(self) -> Value:
        """The result of the finished game for the player to move."""
        return self.places.outcome(self.node)

    def to_move(self) -> int:
        return self.places.to_move(self.node)

    def key(self, node: Any) -> str:
        """A position's key: its canonical key in a graph, its notation on a value file."""
        return self.places.key(node)

    def find(self, text: str) -> Any:
        """The position a key names, the store's way; InvalidPosition for one it does not hold."""
        return self.places.find(text)

    def node_of(self, position: Any) -> Any:
        """A position as the rules make it, the store's way (None when a graph does not hold it)."""
        return self.places.of(position)

    def moves(self) -> list[tuple[str, Any, bool]]:
        """(label, target, optimal) of every legal move here."""
        return self.places.moves(self.node)

    # Where the values come from. The solved game here; a subclass may ask another store
    # (queries.play_neo4j: the game as loaded into Neo4j) for the same facts.
    def value(self, node: Any) -> Value:
        return self.solved.value(node)

    def remoteness(self, node: Any) -> int | None:
        return self.solved.remoteness(node)

    def draw_grade(self, node: Any) -> tuple[int, int, int]:
        """(class, level, draw remoteness) of explorer.algorithms.draw_levels; level -1 for none (and
        class -1 on a value file, which has no draw levels)."""
        return self.places.draw_grade(node)

    def find_move(self, text: str) -> tuple[str, Any]:
        """A move named by its label, its number in the list (1-based) or the position it reaches."""
        text = text.strip()
        moves = self.moves()
        for label, target, _ in moves:
            if text == label:
                return label, target
        if text.isdigit() and len(text) < 6 and 1 <= int(text) <= len(moves):
            label, target, _ = moves[int(text) - 1]
            return label, target
        try:
            node = self.find(text)
        except InvalidPosition:
            node = None
        for label, target, _ in moves:
            if node is not None and target == node:
                return label, target
        listed = ", ".join(label for label, _, _ in moves)
        raise InvalidParameter(f"{text[:60]!r} is not a legal move here: legal moves are {listed}")

    def play(self, label: str, target: Any) -> Ply:
        before = self.value(self.node)
        after = self.value(target).for_previous_player()
        ply = Ply(len(self.plies) + 1, self.to_move(), label, self.key(self.node), self.key(target),
                  str(before), str(after), after < before)
        self.plies.append(ply)
        self.node = target
        return ply

    def choose(self, opponent: Opponent, rng: random.Random) -> tuple[str, Any]:
        """The opponent's move. The perfect one: the optimal moves (keep the value, fastest win, slowest
        loss), the first by label (then by the key reached); in a pure draw of a graph, pressing (below)."""
        moves = self.moves()
        if opponent.kind == "random" or (opponent.kind == "slip" and rng.random() < opponent.slip):
            label, target, _ = rng.choice(moves)
            return label, target
        optimal = sorted(((label, target) for label, target, optimal in moves if optimal),
                         key=lambda move: (move[0], self.key(move[1])))
        best = self._pressing(optimal)
        return best[0] if best else (moves[0][0], moves[0][1])

    def _pressing(self, keeping: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """Of the draw-keeping moves of a pure draw, those GamesmanUni's computer plays: to the opposite
        class at the same draw level, nearest the fringe from a draw-win, farthest from a draw-lose.
        Other positions keep every optimal move. O(moves) after the draw levels, made once per graph."""
        from explorer.algorithms.draw_levels import DRAW_LOSE, DRAW_WIN

        here, level, _ = self.draw_grade(self.node)
        if here not in (DRAW_WIN, DRAW_LOSE):
            return keeping
        wanted = DRAW_LOSE if here == DRAW_WIN else DRAW_WIN
        grades = {target: self.draw_grade(target) for _, target in keeping}
        same = [(label, target) for label, target in keeping if grades[target][:2] == (wanted, level)]
        if not same:
            return keeping
        pick = min if here == DRAW_WIN else max
        best = pick(grades[target][2] for _, target in same)
        return [(label, target) for label, target in same if grades[target][2] == best]

    def history(self) -> list[dict]:
        """The value and remoteness for the player to move after each ply (ply 0 = the start)."""
        places = self.places
        rows = [{"ply": 0, "position": self.key(self.start), "to_move": places.to_move(self.start),
                 "value": str(self.value(self.start)), "remoteness": self.remoteness(self.start)}]
        node_of = {self.key(n): n for n in (self.start, self.node)}
        for ply in self.plies:
            node = node_of.get(ply.after)
            if node is None:
                node = node_of[ply.after] = self.find(ply.after)
            rows.append({"ply": ply.ply, "position": ply.after, "to_move": places.to_move(node),
                         "value": str(self.value(node)), "remoteness": self.remoteness(node)})
        return rows


@dataclass
class Played:
    """A match on a solved game plus the position as actually played (not reduced by symmetry)."""

    match: Match
    position: Any
    numbers: list[int] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)   # each position reached, in the frame played

    def moves(self) -> list[tuple[int, str, Any, Any]]:
        """(number, label, resulting position, its node) of each legal move of the played position."""
        if self.match.over:
            return []
        rows = []
        for number, move in enumerate(self.match.solved.game.moves(self.position), 1):
            node = self.match.node_of(move.position)
            if node is not None:
                rows.append((number, move.label, move.position, node))
        return rows

    def play(self, number: int) -> None:
        solved = self.match.solved
        for n, label, position, node in self.moves():
            if n == number:
                self.match.play(label, node)
                self.position = position
                self.numbers.append(number)
                self.shown.append(solved.game.format(position))
                return
        raise KeyError(number)

    def ending(self) -> str | None:
        """Why the finished game ended, in the game's own words (Game.ending of the position as played:
        Dōbutsu shōgi ends when a lion can be taken, before the capture, so the capture is said, not
        shown); None while the game goes on or when the game gives no reason. O(the game's rule)."""
        return self.match.solved.game.ending(self.position) if self.match.over else None

    def move_values(self) -> dict[str, tuple[str, int | None]]:
        """{move label: (its value for the mover, its remoteness)} of every legal move of the played
        position, from the solved game (the board's colours, explorer.ui.drawing). O(moves)."""
        solved = self.match.solved
        return {label: (str(solved.value(node).for_previous_player()), solved.remoteness(node))
                for _, label, _, node in self.moves()}

    def number_reaching(self, node: Any) -> int:
        """The first legal move (in the rules' order) whose result is `node` after symmetry reduction."""
        return next(n for n, _, _, target in self.moves() if target == node)

    def find(self, text: str) -> int:
        """The number of a move named by its label, its number in the list (1-based), its label without the
        mover's letter when that names one move (`a1` for tic-tac-toe's `X a1`), or the position it reaches
        (as played, or any symmetric twin); InvalidParameter listing the legal moves otherwise."""
        text = text.strip()
        moves = self.moves()
        for number, label, _, _ in moves:
            if text == label:
                return number
        if text.isdigit() and len(text) < 6 and any(number == int(text) for number, _, _, _ in moves):
            return int(text)
        unlettered = [number for number, label, _, _ in moves if text and label.partition(" ")[2] == text]
        if len(unlettered) == 1:
            return unlettered[0]
        try:
            node = self.match.find(text)
        except InvalidPosition:
            node = None
        for number, _, _, target in moves:
            if node is not None and target == node:
                return number
        listed = ", ".join(label for _, label, _, _ in moves)
        raise InvalidParameter(f"{text[:60]!r} is not a legal move here: legal moves are {listed}")


def start_position(solved: Solved) -> Any:
    """The start as the rules write it (its canonical twin only when the graph starts elsewhere)."""
    start = solved.game.start()
    if not isinstance(solved, SolvedGraph):
        return start
    return start if solved.graph.node_of(start) == 0 else solved.graph.position(0)


RESULT_WORDS = {"win": "won", "loss": "lost", "tie": "tied", "draw": "drew"}  # "you won", not "you win"


def game_over(game: Game, position: Any) -> str | None:
    """At a finished position, one sentence saying that the game is over, why (Game.ending, in the
    game's words) and how it ended, in the players' names: "Game over: X has three in a row. X wins.";
    None while the game goes on. The one home of this text: every board's caption (explorer/ui/boards:
    `turn_caption`), the explorer's position view and `gamegraph show` say it, so a finished board never
    reads "B to move". O(the rules' outcome and ending)."""
    from explorer.games.base import player_name

    outcome = game.outcome(position)
    if outcome is None:
        return None
    mover = game.to_move(position)
    winner = {Value.WIN: player_name(game, mover), Value.LOSS: player_name(game, 1 - mover)}.get(outcome)
    result = f"{winner} wins" if winner else "It is a tie" if outcome == Value.TIE else "It is a draw"
    why = (game.ending(position) or "").strip().rstrip(".")
    if not why:
        return f"Game over: {result}."
    # A reason that already names the result ("... so Blue has no move and wins", "...: a tie") is not
    # followed by it again.
    if winner:  # the winner and "wins" in one clause
        said = re.search(rf"\b{re.escape(winner)}\b[^.:;,]*\bwins\b", why, re.IGNORECASE) is not None
    else:
        said = re.search(r"\b(tie|draw)\b", why, re.IGNORECASE) is not None
    return f"Game over: {why}." if said else f"Game over: {why}. {result}."


def result_for(game: "Match", player: int) -> str:
    """How a finished game ended for `player`."""
    outcome = game.outcome()
    return str(outcome if game.to_move() == player else outcome.for_previous_player())
