"""The strategy chart of two-hand Chopsticks: mover's hands x opponent's hands -> best move.

Every pair of hands in which both players still have a live hand is covered,
reachable from the start or not: the chart's graph is generated from all of them.
A cell holds the best move for the mover and a mark: + forced win, - forced loss,
= tie, blank draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.errors import InvalidParameter
from explorer.games import Game
from explorer.games.chopsticks.rules import Chopsticks, ChopsticksPosition
from explorer.core.values import Value
from explorer.solved import build


@dataclass
class Chart:
    game: Game
    hands: list[tuple[int, int]]          # row and column headers, as unordered pairs
    cells: list[list[tuple[str, str]]]    # [row][col] = (mark, best move label)
    remoteness: list[list[int | None]]


def strategy_chart(game: Game) -> Chart:
    """O(n^4) positions for n fingers: generated and solved from every live pair."""
    if not isinstance(game, Chopsticks):
        raise InvalidParameter(f"the strategy chart is for two-hand Chopsticks, not {game.name}")
    positions = list(game.iter_positions())
    solved = build(game, start=positions[0], extra_starts=positions[1:])
    hands = sorted({p.hands[0] for p in positions})
    cells, remoteness = [], []
    for mine in hands:
        row, rrow = [], []
        for theirs in hands:
            node = solved.graph.node_of(ChopsticksPosition(0, (mine, theirs)))
            best = solved.moves(node)[0]
            row.append((solved.value(node).symbol.strip(), best["label"]))
            rrow.append(solved.remoteness(node))
        cells.append(row)
        remoteness.append(rrow)
    return Chart(game, hands, cells, remoteness)


def short_label(label: str) -> str:
    """Compact cell text: taps stay `L>R`, splits and transfers become `>a-b` (the hands after)."""
    if label.startswith("transfer"):
        return ">" + label.split(": ")[1]
    if label.startswith("split"):
        return ">" + label.split(" ")[1]
    return label


def as_text(chart: Chart) -> str:
    head = [f"{a}-{b}" for a, b in chart.hands]
    width = max(len(short_label(label)) for row in chart.cells for _, label in row) + 2
    lines = [f"{chart.game.display_name}: rows = mover's hands, columns = opponent's hands",
             " " * 5 + "".join(h.rjust(width) for h in head)]
    for header, row in zip(head, chart.cells):
        lines.append(header.rjust(5) + "".join((mark + short_label(label)).rjust(width) for mark, label in row))
    lines.append("+ forced win   - forced loss   = tie   (no mark) draw;  >a-b = split/transfer to a-b")
    return "\n".join(lines)


def as_records(chart: Chart) -> list[dict[str, object]]:
    return [{"mover": f"{m[0]}-{m[1]}", "opponent": f"{t[0]}-{t[1]}",
             "value": str(Value.from_symbol(mark)), "move": label,
             "remoteness": chart.remoteness[i][j]}
            for i, m in enumerate(chart.hands) for j, t in enumerate(chart.hands)
            for mark, label in [chart.cells[i][j]]]
