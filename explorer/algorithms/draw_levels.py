"""Draw levels: GamesmanClassic's "pure draw analysis" of the draw region.

A drawn position says only that neither side can force a result. Draw levels
say who is under pressure inside the draw. The definition is GamesmanClassic's
(src/core/solveloopypd.c, "Loopy solver with pure draw analysis", Robert Shi,
GamesCrafters, 2022); GamesmanUni shows its output as "L{level}R{remoteness}
draw-win/draw-lose". docs/analysis.md has the prose and the differences.

Level 0. The *fringe* is every draw with a move to a position the opponent wins
(a blunder is on the board): a draw-lose at remoteness 0. From the fringe the
ordinary retrograde runs inside the draw region: a draw with a move to a
draw-lose is a draw-win (remoteness one more than the nearest), a draw whose
draw moves all reach draw-wins is a draw-lose (one more than the farthest). A
draw-win can force the opponent onto the fringe; a draw-lose cannot avoid it.
Level L+1. The fringe is every still undecided draw with a move to a level-L
draw-win, and the same retrograde runs again; until a level finds no draw-win.

Impurity. A draw-lose with a parent that is already a draw-lose (a fringe
position that could also put its opponent under pressure) or non-pure makes the
picture ambiguous: it becomes *non-pure*, and so does every draw from which a
draw-keeping line reaches a non-pure position. Draws never decided by any level
and never non-pure have only such moves: play from them never meets a chance to
go wrong. We call them *dead* draws.

Two implementations, checked equal in the tests: `_levels_plain` follows
GamesmanClassic's control flow (a lose queue drained before a win queue, a list
of unanalysed wins per level) in Python; `explorer.kernels.draw_levels` is one
FIFO queue, compiled. Both are O(V + E): every position is decided once, every
predecessor list is read a bounded number of times (twice for a draw-lose: the
purity check, then its parents).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from explorer.algorithms.reverse import edge_sources
from explorer.core.values import Value

NOT_A_DRAW, DRAW_WIN, DRAW_LOSE, NONPURE, DEAD = -1, 0, 1, 2, 3
UNDECIDED = 4  # only while running
CLASS_NAMES = {DRAW_WIN: "draw-win", DRAW_LOSE: "draw-lose", NONPURE: "non-pure", DEAD: "dead"}
_DRAW, _WIN = int(Value.DRAW), int(Value.WIN)


@dataclass
class DrawLevels:
    kind: np.ndarray        # int8[V]: NOT_A_DRAW, DRAW_WIN, DRAW_LOSE, NONPURE or DEAD
    level: np.ndarray       # int32[V]: the draw level of a draw-win or draw-lose, else -1
    remoteness: np.ndarray  # int32[V]: its draw remoteness (0 on the fringe), else -1

    def counts(self) -> dict[str, int]:
        return {name: int((self.kind == code).sum()) for code, name in CLASS_NAMES.items()}

    def table(self) -> list[dict]:
        """Positions per (level, class) for draw-wins and draw-loses, then non-pure and dead. O(V)."""
        rows = []
        levelled = (self.kind == DRAW_WIN) | (self.kind == DRAW_LOSE)
        if levelled.any():
            pairs = np.stack([self.level[levelled], self.kind[levelled].astype(np.int32)], axis=1)
            combos, tally = np.unique(pairs, axis=0, return_counts=True)
            for (level, kind), positions in zip(combos.tolist(), tally.tolist()):
                rows.append({"level": level, "class": CLASS_NAMES[kind], "positions": positions})
        for code in (NONPURE, DEAD):
            positions = int((self.kind == code).sum())
            if positions:
                rows.append({"level": None, "class": CLASS_NAMES[code], "positions": positions})
        return rows

    def describe(self, node: int, mover: str, opponent: str) -> str | None:
        """GamesmanUni's sentence for one position, or None when it is not a draw."""
        kind, level, rem = int(self.kind[node]), int(self.level[node]), int(self.remoteness[node])
        if kind == DRAW_WIN:
            return (f"L{level}R{rem} draw-win: {mover} can force {opponent} onto the level-{level} fringe "
                    f"in {rem} move{'s' if rem != 1 else ''}")
        if kind == DRAW_LOSE and rem == 0:
            return f"L{level}R0 draw-lose: {mover} is on the level-{level} fringe" + (
                " (a move here loses)" if level == 0 else f" (a move here hands {opponent} a level-{level - 1} draw-win)")
        if kind == DRAW_LOSE:
            return (f"L{level}R{rem} draw-lose: {mover} can be forced onto the level-{level} fringe "
                    f"in {rem} move{'s' if rem != 1 else ''}")
        if kind == NONPURE:
            return "non-pure draw: the pressure inside this draw is not one-sided, so it has no level"
        if kind == DEAD:
            return "dead draw: no line of play from here ever offers a losing move"
        return None


def draw_levels(graph, value: np.ndarray) -> DrawLevels:
    """Draw class, level and draw remoteness of every position of `graph` (a GameGraph:
    its successor and predecessor CSR arrays), given its solved `value`. O(V + E)."""
    from explorer.algorithms.dispatch import use_kernels

    if len(value) != graph.num_positions:
        raise ValueError(f"{len(value)} values for a graph of {graph.num_positions} positions")
    pred_indptr, pred_indices = graph.predecessors_csr
    arrays = (graph.succ_indptr, graph.succ_indices, pred_indptr, pred_indices, value)
    if use_kernels(graph.num_positions + graph.num_moves):
        from explorer.kernels.draw_levels import draw_levels as kernel

        kind, level, remoteness = kernel(*arrays)
    else:
        kind, level, remoteness = _levels_plain(*arrays)
    return DrawLevels(kind, level, remoteness)


def _levels_plain(succ_indptr, succ_indices, pred_indptr, pred_indices, value):
    """GamesmanClassic's control flow in plain Python (see the module doc). O(V + E)."""
    n = len(value)
    is_draw = value == _DRAW
    kind = np.where(is_draw, UNDECIDED, NOT_A_DRAW).astype(np.int8)
    level = np.full(n, -1, dtype=np.int32)
    remoteness = np.full(n, -1, dtype=np.int32)
    sources = edge_sources(succ_indptr)
    # Moves not yet known to reach a draw-win; a draw's other moves all reach wins.
    pending = np.bincount(sources[is_draw[succ_indices]], minlength=n).tolist()
    preds = [pred_indices[pred_indptr[u]:pred_indptr[u + 1]].tolist() for u in range(n)]
    kinds = kind.tolist()
    unanalysed = [u for u in range(n) if value[u] == _WIN]
    nonpure = []
    current = 0
    while unanalysed:
        lose_queue: deque[int] = deque()
        win_queue: deque[int] = deque()
        for child in unanalysed:  # the level's fringe
            for parent in preds[child]:
                if kinds[parent] == UNDECIDED:
                    kinds[parent] = DRAW_LOSE
                    level[parent], remoteness[parent] = current, 0
                    lose_queue.append(parent)
        unanalysed = []
        while lose_queue or win_queue:
            child = lose_queue.popleft() if lose_queue else win_queue.popleft()
            if kinds[child] == DRAW_LOSE:
                if any(kinds[p] in (DRAW_LOSE, NONPURE) for p in preds[child]):
                    kinds[child] = NONPURE
                    nonpure.append(child)
                    continue
                for parent in preds[child]:
                    if kinds[parent] == UNDECIDED:
                        kinds[parent] = DRAW_WIN
                        level[parent], remoteness[parent] = current, remoteness[child] + 1
                        win_queue.append(parent)
                        unanalysed.append(parent)
            else:
                for parent in preds[child]:
                    if kinds[parent] == UNDECIDED:
                        pending[parent] -= 1
                        if pending[parent] == 0:
                            kinds[parent] = DRAW_LOSE
                            level[parent], remoteness[parent] = current, remoteness[child] + 1
                            lose_queue.append(parent)
        current += 1
    while nonpure:  # every draw with a draw-keeping line into a non-pure draw is non-pure
        child = nonpure.pop()
        for parent in preds[child]:
            if kinds[parent] in (DRAW_WIN, DRAW_LOSE, UNDECIDED):
                kinds[parent] = NONPURE
                nonpure.append(parent)
    kind = np.array(kinds, dtype=np.int8)
    kind[kind == UNDECIDED] = DEAD
    unlevelled = (kind != DRAW_WIN) & (kind != DRAW_LOSE)
    level[unlevelled] = -1
    remoteness[unlevelled] = -1
    return kind, level, remoteness
