"""Playing against the solver: opponents, moves, slips and the value history.

The perfect opponent plays an optimal move (explorer.solver: keep the value,
fastest win, slowest loss, keep a draw or tie); in a pure draw it presses as
GamesmanUni's computer does (explorer.algorithms.draw_levels): from a draw-win
towards the fringe, from a draw-lose as far from it as it can; a slipping one plays a random
legal move with probability p and a perfect one otherwise; a random one plays
any legal move. A move's effect is judged by the value for the mover before and
after it: a slip is a move that makes the mover's result worse (win → draw or
loss, draw → loss, tie → loss, …).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from explorer.core.bounds import decimal_number
from explorer.core.errors import InvalidParameter, InvalidPosition
from explorer.solved import SolvedGraph
from explorer.core.values import Value


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
    """A game in progress on a solved graph: the current node and what happened so far."""

    solved: SolvedGraph
    node: int = 0
    plies: list[Ply] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return bool(self.solved.graph.terminal[self.node] >= 0)

    def to_move(self) -> int:
        return int(self.solved.graph.to_move[self.node])

    def moves(self) -> list[tuple[str, int, bool]]:
        """(label, target node, optimal) of every legal move here."""
        graph = self.solved.graph
        return [(graph.label(e), int(graph.succ_indices[e]), bool(self.solved.solution.optimal[e]))
                for e in graph.edge_range(self.node)]

    # Where the values come from. The solved graph here; a subclass may ask another store
    # (queries.play_neo4j: the game as loaded into Neo4j) for the same facts.
    def value(self, node: int) -> Value:
        return self.solved.value(node)

    def remoteness(self, node: int) -> int | None:
        return self.solved.remoteness(node)

    def draw_grade(self, node: int) -> tuple[int, int, int]:
        """(class, level, draw remoteness) of explorer.algorithms.draw_levels; level -1 for none."""
        levels = self.solved.draw_levels
        return int(levels.kind[node]), int(levels.level[node]), int(levels.remoteness[node])

    def find_move(self, text: str) -> tuple[str, int]:
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
            node = self.solved.graph.find(text)
        except InvalidPosition:
            node = None
        for label, target, _ in moves:
            if node is not None and target == node:
                return label, target
        listed = ", ".join(label for label, _, _ in moves)
        raise InvalidParameter(f"{text[:60]!r} is not a legal move here: legal moves are {listed}")

    def play(self, label: str, target: int) -> Ply:
        solved = self.solved
        before = self.value(self.node)
        after = self.value(target).for_previous_player()
        ply = Ply(len(self.plies) + 1, self.to_move(), label, solved.graph.key(self.node), solved.graph.key(target),
                  str(before), str(after), after < before)
        self.plies.append(ply)
        self.node = target
        return ply

    def choose(self, opponent: Opponent, rng: random.Random) -> tuple[str, int]:
        moves = self.moves()
        if opponent.kind == "random" or (opponent.kind == "slip" and rng.random() < opponent.slip):
            label, target, _ = rng.choice(moves)
            return label, target
        best = self._pressing(sorted((label, target) for label, target, optimal in moves if optimal))
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
        graph = self.solved.graph
        rows = [{"ply": 0, "position": graph.key(0), "to_move": int(graph.to_move[0]),
                 "value": str(self.value(0)), "remoteness": self.remoteness(0)}]
        node_of = {graph.key(n): n for n in {0, self.node}}
        for ply in self.plies:
            node = node_of.get(ply.after)
            if node is None:
                node = node_of[ply.after] = graph.find(ply.after)
            rows.append({"ply": ply.ply, "position": ply.after, "to_move": int(graph.to_move[node]),
                         "value": str(self.value(node)), "remoteness": self.remoteness(node)})
        return rows


@dataclass
class Played:
    """A match on the solved graph plus the position as actually played (not reduced by symmetry)."""

    match: Match
    position: Any
    numbers: list[int] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)   # each position reached, in the frame played

    def moves(self) -> list[tuple[int, str, Any, int]]:
        """(number, label, resulting position, its node) of each legal move of the played position."""
        if self.match.over:
            return []
        solved = self.match.solved
        rows = []
        for number, move in enumerate(solved.game.moves(self.position), 1):
            node = solved.graph.node_of(move.position)
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

    def number_reaching(self, node: int) -> int:
        """The first legal move (in the rules' order) whose result is `node` after symmetry reduction."""
        return next(n for n, _, _, target in self.moves() if target == node)

    def find(self, text: str) -> int:
        """The number of a move named by its label, its number in the list (1-based) or the position it
        reaches (as played, or any symmetric twin); InvalidParameter listing the legal moves otherwise."""
        text = text.strip()
        moves = self.moves()
        for number, label, _, _ in moves:
            if text == label:
                return number
        if text.isdigit() and len(text) < 6 and any(number == int(text) for number, _, _, _ in moves):
            return int(text)
        try:
            node = self.match.solved.graph.find(text)
        except InvalidPosition:
            node = None
        for number, _, _, target in moves:
            if node is not None and target == node:
                return number
        listed = ", ".join(label for _, label, _, _ in moves)
        raise InvalidParameter(f"{text[:60]!r} is not a legal move here: legal moves are {listed}")


def start_position(solved: SolvedGraph) -> Any:
    """The start as the rules write it (its canonical twin only when the graph starts elsewhere)."""
    start = solved.game.start()
    return start if solved.graph.node_of(start) == 0 else solved.graph.position(0)


RESULT_WORDS = {"win": "won", "loss": "lost", "tie": "tied", "draw": "drew"}  # "you won", not "you win"


def result_for(game: "Match", player: int) -> str:
    """How a finished game ended for `player`."""
    outcome = Value(int(game.solved.graph.terminal[game.node]))
    return str(outcome if game.to_move() == player else outcome.for_previous_player())
