"""Independent reference implementations the tests compare the core against.

Written deliberately unlike explorer/solver.py and explorer/graph.py: plain
Python over dict adjacency, straight from the definitions, no numpy tricks.

(a) `solve_by_definition`: depth-bounded fixed point.
    W_0 / L_0 = terminal wins / losses. For d >= 1 a non-terminal position is in
    W_d when one of its moves reaches L_{d-1}, in L_d when all its moves reach
    W_{d-1}. Remoteness = the least such d. Then ties among the rest: T_0 =
    terminal ties, T_d adds every remaining non-terminal position with a move
    into T_{d-1}. Everything else is a draw (remoteness -1).
(b) `minimax`: memoised minimax straight over a Game's rules, for acyclic games.
(c) `networkx_cycles`: strongly connected components and on-cycle positions by networkx.

Plus `explore` (a dict BFS over a Game's rules, independent of explorer.graph)
and `graph_from_edges` (a GameGraph built directly from an edge list, so the
solver can run on arbitrary random graphs).
"""

from __future__ import annotations

import sys
from collections import deque
from dataclasses import dataclass
from typing import Hashable, Iterable

import networkx as nx
import numpy as np

from explorer.games.base import Game, Move, Params
from explorer.graph import GameGraph
from explorer.core.values import Value

WIN, LOSS, TIE, DRAW = Value.WIN, Value.LOSS, Value.TIE, Value.DRAW


# -- (a) the fixed-point definition ---------------------------------------------
def solve_by_definition(succ: dict[Hashable, list[Hashable]],
                        terminal: dict[Hashable, Value]) -> dict[Hashable, tuple[Value, int]]:
    """{node: (value, remoteness)} for every node of `succ` (remoteness -1 for draws).

    `succ` maps every node to its successors (terminal nodes map to []), and
    `terminal` maps the finished positions to their outcome for the mover.
    """
    nodes = list(succ)
    for node in nodes:
        assert (node in terminal) != bool(succ[node]), f"{node!r}: terminal xor has moves"
    result: dict[Hashable, tuple[Value, int]] = {}
    wins = {v for v in nodes if terminal.get(v) == WIN}
    losses = {v for v in nodes if terminal.get(v) == LOSS}
    for v in wins | losses:
        result[v] = (terminal[v], 0)
    bound = len(nodes) + 1
    for d in range(1, bound + 1):
        new_wins = {v for v in nodes if v not in terminal and v not in wins
                    and any(c in losses for c in succ[v])}
        new_losses = {v for v in nodes if v not in terminal and v not in losses
                      and all(c in wins for c in succ[v])}
        assert not (new_wins & new_losses)
        if not new_wins and not new_losses:
            break  # W_d == W_{d-1} and L_d == L_{d-1}: a fixed point, nothing changes later
        for v in new_wins:
            result[v] = (WIN, d)
        for v in new_losses:
            result[v] = (LOSS, d)
        wins |= new_wins
        losses |= new_losses
    else:
        raise AssertionError("win/loss sets still growing after V+1 rounds")
    assert not (wins & losses)
    rest = [v for v in nodes if v not in wins and v not in losses]
    ties = {v for v in rest if terminal.get(v) == TIE}
    for v in ties:
        result[v] = (TIE, 0)
    for d in range(1, bound + 1):
        new_ties = {v for v in rest if v not in terminal and v not in ties
                    and any(c in ties for c in succ[v])}
        if not new_ties:
            break
        for v in new_ties:
            result[v] = (TIE, d)
        ties |= new_ties
    for v in rest:
        result.setdefault(v, (DRAW, -1))
    return result


def optimal_by_definition(succ: dict[Hashable, list[Hashable]],
                          solved: dict[Hashable, tuple[Value, int]]) -> set[tuple[Hashable, Hashable]]:
    """The optimal moves (u, v): they keep the mover's value at the best remoteness.

    win: a move to a loss with remoteness r-1 (the fastest win); loss: a move to a
    win with remoteness r-1 (the slowest loss); tie: a move to a tie with r-1;
    draw: a move to a draw.
    """
    optimal = set()
    for u, children in succ.items():
        value, r = solved[u]
        for v in children:
            cv, cr = solved[v]
            if value == WIN and cv == LOSS and cr == r - 1:
                optimal.add((u, v))
            elif value == LOSS and cv == WIN and cr == r - 1:
                optimal.add((u, v))
            elif value == TIE and cv == TIE and cr == r - 1:
                optimal.add((u, v))
            elif value == DRAW and cv == DRAW:
                optimal.add((u, v))
    return optimal


# -- (b) memoised minimax for acyclic games -------------------------------------
def minimax(game: Game, position: Hashable, memo: dict | None = None) -> tuple[Value, int]:
    """(value, remoteness) by plain recursion over the rules; the game must be acyclic.

    value = the best of the successors' values seen by the mover; remoteness =
    1 + the least remoteness among losing successors (a win), 1 + the greatest
    among all successors (a loss: every successor is a win for the opponent),
    1 + the least among tying successors (a tie).
    """
    memo = {} if memo is None else memo
    if position in memo:
        result = memo[position]
        assert result is not None, "minimax needs an acyclic game"
        return result
    memo[position] = None  # on the stack: seeing it again means a cycle
    outcome = game.outcome(position)
    if outcome is not None:
        result = (outcome, 0)
    else:
        children = [minimax(game, move.position, memo) for move in game.moves(position)]
        options = [(value.for_previous_player(), r) for value, r in children]
        best = max(value for value, _ in options)
        if best == WIN:
            r = 1 + min(r for value, r in options if value == WIN)
        elif best == LOSS:
            r = 1 + max(r for _, r in options)
        elif best == TIE:
            r = 1 + min(r for value, r in options if value == TIE)
        else:
            raise AssertionError("no draws in an acyclic game")
        result = (best, r)
    memo[position] = result
    return result


# -- (c) cycles by networkx -----------------------------------------------------
def networkx_cycles(succ: dict[Hashable, list[Hashable]]) -> tuple[set[frozenset], set[Hashable]]:
    """(the strongly connected components as frozensets, the nodes on a cycle)."""
    g = nx.DiGraph()
    g.add_nodes_from(succ)
    g.add_edges_from((u, v) for u, children in succ.items() for v in children)
    components = {frozenset(c) for c in nx.strongly_connected_components(g)}
    on_cycle = {v for c in components if len(c) > 1 for v in c}
    on_cycle |= {v for v in succ if v in succ[v]}
    return components, on_cycle


# -- the rules explored by a plain dict BFS ---------------------------------------
@dataclass
class Explored:
    succ: dict[Hashable, list[Hashable]]          # position -> distinct successor positions
    labels: dict[tuple[Hashable, Hashable], str]  # (position, successor) -> first move label
    terminal: dict[Hashable, Value]
    to_move: dict[Hashable, int]


def explore(game: Game, symmetry: bool = False, start: Hashable | None = None) -> Explored:
    """Every position reachable from the start, by BFS over `game.moves` (no explorer.graph)."""
    reduce = (lambda p: game.canonical(p)) if symmetry else (lambda p: p)
    first = reduce(game.start() if start is None else start)
    succ: dict[Hashable, list[Hashable]] = {}
    labels: dict[tuple[Hashable, Hashable], str] = {}
    terminal: dict[Hashable, Value] = {}
    to_move: dict[Hashable, int] = {}
    queue = deque([first])
    seen = {first}
    while queue:
        p = queue.popleft()
        to_move[p] = game.to_move(p)
        outcome = game.outcome(p)
        succ[p] = []
        if outcome is not None:
            terminal[p] = outcome
            continue
        for move in game.moves(p):
            c = reduce(move.position)
            if (p, c) not in labels:
                labels[(p, c)] = move.label
                succ[p].append(c)
            if c not in seen:
                seen.add(c)
                queue.append(c)
    return Explored(succ, labels, terminal, to_move)


def graph_adjacency(graph: GameGraph) -> tuple[dict[int, list[int]], dict[int, Value]]:
    """The (succ, terminal) dicts of a generated GameGraph, by node id."""
    succ = {u: [int(v) for v in graph.successors(u)] for u in range(graph.num_positions)}
    terminal = {u: Value(int(t)) for u, t in enumerate(graph.terminal) if t >= 0}
    return succ, terminal


# -- a GameGraph straight from an edge list ----------------------------------------
@dataclass(frozen=True)
class _NoParams(Params):
    pass


class EdgeListGame(Game[int]):
    """A stand-in game whose positions are the node numbers of a given graph."""

    name = "edges"
    description = "an arbitrary directed graph given as an edge list (tests only)"
    Params = _NoParams

    def __init__(self, succ: dict[int, list[int]], terminal: dict[int, Value]):
        super().__init__()
        self._succ, self._terminal = succ, terminal

    def start(self) -> int:
        return 0

    def to_move(self, position: int) -> int:
        return 0

    def outcome(self, position: int) -> Value | None:
        return self._terminal.get(position)

    def moves(self, position: int) -> list[Move[int]]:
        return [Move(f"{position}>{c}", c) for c in self._succ[position]]

    def format(self, position: int) -> str:
        return f"n{position}"

    def parse(self, text: str) -> int:
        return int(text.strip().lstrip("n"))


def graph_from_edges(num_nodes: int, edges: Iterable[tuple[int, int]], terminal: dict[int, Value],
                     merge: bool = True) -> GameGraph:
    """A GameGraph of nodes 0..num_nodes-1 with these moves and terminal outcomes.

    Edges keep their given order within a source. `merge` drops repeated
    (source, target) pairs like the generators do; merge=False keeps parallel edges.
    """
    succ: dict[int, list[int]] = {u: [] for u in range(num_nodes)}
    for u, v in edges:
        assert 0 <= u < num_nodes and 0 <= v < num_nodes
        if merge and v in succ[u]:
            continue
        succ[u].append(v)
    indptr, targets, labels = [0], [], []
    for u in range(num_nodes):
        targets += succ[u]
        labels += range(len(succ[u]))
        indptr.append(len(targets))
    game = EdgeListGame(succ, terminal)
    return GameGraph(game=game, symmetry=False,
                     succ_indptr=np.array(indptr, dtype=np.int64),
                     succ_indices=np.array(targets, dtype=np.int32),
                     edge_label=np.array(labels, dtype=np.int64),
                     terminal=np.array([int(terminal[u]) if u in terminal else -1 for u in range(num_nodes)], dtype=np.int8),
                     to_move=np.zeros(num_nodes, dtype=np.int8),
                     positions=list(range(num_nodes)),
                     label_names=[str(i) for i in range(max(map(len, succ.values()), default=0) or 1)])


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
