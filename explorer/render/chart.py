"""Charts made from solved games: the strategy chart and the value history.

The strategy chart, of a game that declares one (`offers.chart`, explorer/games/base.StrategyChart:
two-hand Chopsticks): mover's side x opponent's side -> best move. Every position
of the game's `iter_positions()` is covered (Chopsticks: every pair of hands in which
both players still have a live hand), reachable from the start or not: the chart's
graph is generated from all of them. A cell holds the best move for the mover and a
mark: + forced win, - forced loss, = tie, blank draw.

The value history (`value_history`): GamesmanUni's "visual value history" of a
game played or walked, as a Vega-Lite specification (plain data: the page draws
it with `st.vega_lite_chart`, a test reads it). One row per position, top to
bottom; across, remoteness, from both players' sides at once: the left half is
where the first player wins, the right half where the second player wins, the
edges are remoteness 0 (the game is over) and the centre column holds the draws
and ties; the axis says so in words (`history_axis`). A position won by nobody sits in the centre; a move that changed the
value (a slip: the outcome for the players moved) is ringed; a draw is labelled
with its draw level where the game has them (explorer/algorithms/draw_levels.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.errors import InvalidParameter
from explorer.games import Game
from explorer.core.values import Value
from explorer.solved import build


@dataclass
class Chart:
    game: Game
    hands: list[tuple[int, ...]]          # row and column headers: the sides (Chopsticks: unordered pairs of hands)
    cells: list[list[tuple[str, str]]]    # [row][col] = (mark, best move label)
    remoteness: list[list[int | None]]

    def short(self, label: str) -> str:
        """A move's label as a cell shows it (the game's `chart_move`)."""
        return self.game.chart_move(label)


MISSING = ("", "")  # a cell whose sides make no position (never in Chopsticks'): no value, no move


def cell_value(cell: tuple[str, str]) -> str | None:
    """A cell's value ("win", "loss", "tie", "draw"), None for a MISSING one (a draw always has a move)."""
    return None if cell == MISSING else str(Value.from_symbol(cell[0]))


def side_text(side: tuple[int, ...]) -> str:
    """A row's or column's header: the side's numbers joined by '-' (Chopsticks' hands 1-3)."""
    return "-".join(str(n) for n in side)


def chart_refusal(game: Game) -> str | None:
    """Why `game` has no strategy chart, in one line, or None when it offers one."""
    if game.offers.chart is None:
        from explorer.games.registry import registered

        offered = sorted(name for name, cls in registered().items() if cls.offers.chart is not None)
        others = f": {', '.join(offered)} {'does' if len(offered) == 1 else 'do'}" if offered else ""
        return f"{game.name} offers no strategy chart{others} (a game declares one in its offers: chart=StrategyChart(...))"
    return None


def strategy_chart(game: Game) -> Chart:
    """The chart of a game that declares one (offers.chart); InvalidParameter otherwise.
    O(n^4) positions for Chopsticks' n fingers: generated and solved from every one the chart covers."""
    refusal = chart_refusal(game)
    if refusal:
        raise InvalidParameter(refusal)
    positions = list(game.iter_positions())
    solved = build(game, start=positions[0], extra_starts=positions[1:])
    hands = sorted({game.chart_sides(game.canonical(p))[0] for p in positions})
    cells, remoteness = [], []
    for mine in hands:
        row, rrow = [], []
        for theirs in hands:
            node = solved.graph.node_of(game.chart_position(0, mine, theirs))
            if node is None:  # no position of the game has these sides: an empty cell (MISSING)
                row.append(MISSING)
                rrow.append(None)
                continue
            moves = solved.moves(node)
            row.append((solved.value(node).symbol.strip(), moves[0]["label"] if moves else ""))
            rrow.append(solved.remoteness(node))
        cells.append(row)
        remoteness.append(rrow)
    return Chart(game, hands, cells, remoteness)


def as_text(chart: Chart) -> str:
    head = [side_text(side) for side in chart.hands]
    sides = chart.game.offers.chart.sides
    width = max(len(chart.short(label)) for row in chart.cells for _, label in row) + 2
    lines = [f"{chart.game.display_name}: rows = mover's {sides}, columns = opponent's {sides}",
             " " * 5 + "".join(h.rjust(width) for h in head)]
    for header, row in zip(head, chart.cells):
        lines.append(header.rjust(5) + "".join((mark + chart.short(label)).rjust(width) for mark, label in row))
    moves = chart.game.offers.chart.moves
    lines.append("+ forced win   - forced loss   = tie   (no mark) draw" + (f";  {moves.replace('`', '')}" if moves else ""))
    return "\n".join(lines)


def as_records(chart: Chart) -> list[dict[str, object]]:
    return [{"mover": side_text(m), "opponent": side_text(t),
             "value": cell_value((mark, label)), "move": label,
             "remoteness": chart.remoteness[i][j]}
            for i, m in enumerate(chart.hands) for j, t in enumerate(chart.hands)
            for mark, label in [chart.cells[i][j]]]


FLIPPED = {"win": "loss", "loss": "win", "tie": "tie", "draw": "draw"}


@dataclass
class HistoryPoint:
    """One position of a game's course: the player to move (0 or 1), their value and remoteness,
    the move into it (None for the start or a jump), and its draw level and class (draws only)."""

    ply: int
    to_move: int
    value: str
    remoteness: int | None
    position: str = ""
    move: str | None = None
    draw_level: int | None = None
    draw_class: str | None = None


def history_rows(points: list[HistoryPoint], players: tuple[str, str]) -> list[dict[str, object]]:
    """The chart's rows: each point placed across (`x`, see value_history) with both players' values,
    and `changed` where the outcome differs from the point before (a move, not a jump). O(points)."""
    top = max([p.remoteness for p in points if p.remoteness is not None], default=0) + 1
    rows, before = [], None
    for point in points:
        for_first = point.value if point.to_move == 0 else FLIPPED[point.value]
        winner = {"win": 0, "loss": 1}.get(for_first)
        if winner is None or point.remoteness is None:
            x = 0
        else:
            x = (top - point.remoteness) * (-1 if winner == 0 else 1)
        changed = before is not None and point.move is not None and for_first != before
        level = (f"L{point.draw_level} {point.draw_class}" if point.draw_level is not None
                 else (point.draw_class or ""))
        rows.append({"ply": point.ply, "x": x, "position": point.position, "move": point.move or "",
                     "to move": players[point.to_move], "value for the mover": point.value,
                     f"value for {players[0]}": for_first, f"value for {players[1]}": FLIPPED[for_first],
                     "remoteness": point.remoteness, "draw level": level if point.value == "draw" else "",
                     "changed": changed})
        before = for_first
    return rows


def centre_name(values: set[str]) -> str:
    """What the centre column of the value history holds, in words: the outcomes with no winner."""
    return {frozenset({"draw"}): "draw", frozenset({"tie"}): "tie"}.get(
        frozenset(values & {"tie", "draw"}), "tie/draw" if values >= {"tie", "draw"} else "no winner")


def history_axis(top: int, players: tuple[str, str], centre: str) -> tuple[list[int], dict[int, str], str]:
    """(ticks, tick labels, title) of the value history's remoteness axis: the distance from the centre
    column is how soon the game ends, the side says who wins. Each side counts remoteness from its
    edge (0: the game is over) in to `top - 1`; the centre column is named (`centre`) instead of the
    bare "D" it used to carry, and the title says which side is whose ("0 · D · 0" said neither).
    At most 25 labels across, the edges and the centre always among them."""
    ticks = list(range(-top, top + 1))
    step = max(1, -(-len(ticks) // 25))
    ticks = [t for t in ticks if t % step == 0 or abs(t) == top]
    labels = {t: centre if t == 0 else str(top - abs(t)) for t in ticks}
    title = f"← {players[0]} wins · moves to the end with best play (remoteness; 0 = over) · {players[1]} wins →"
    return ticks, labels, title


def value_history(points: list[HistoryPoint], players: tuple[str, str], height_per_ply: int = 24,
                  max_height: int = 560) -> dict[str, object]:
    """The Vega-Lite specification of the value history of `points` (in order); `players` names the
    first and second player. The x axis is labelled by remoteness (history_axis), so its labels
    never crowd, whatever the values: integer ticks, one per column."""
    from explorer.render import palette

    rows = history_rows(points, players)
    top = max([p.remoteness for p in points if p.remoteness is not None], default=0) + 1
    ticks, labels, title = history_axis(top, players, centre_name({p.value for p in points}))
    # Vega's expression language has no dictionary literal lookup on numbers: a chain of conditions.
    label_expr = "".join(f"datum.value == {t} ? {labels[t]!r} : " for t in ticks) + "''"
    last = max([p.ply for p in points], default=0)
    tooltip = [{"field": f, "type": "nominal" if f not in ("ply", "remoteness") else "quantitative"}
               for f in ("ply", "move", "position", "to move", f"value for {players[0]}",
                         f"value for {players[1]}", "remoteness", "draw level")]
    x = {"field": "x", "type": "quantitative", "title": title,
         "scale": {"domain": [-top - 0.5, top + 0.5], "nice": False, "zero": False},
         "axis": {"values": ticks, "labelExpr": label_expr, "titleFontWeight": "normal", "titleLimit": 0,
                  "grid": True, "orient": "top", "labelOverlap": True, "labelFlush": False}}
    y = {"field": "ply", "type": "quantitative", "title": "ply",
         "scale": {"domain": [0, max(last, 1)], "reverse": True, "nice": False},
         "axis": {"tickMinStep": 1, "format": "d", "labelOverlap": True}}
    colour = {"field": "value for the mover", "type": "nominal", "title": "value for the player to move",
              "scale": palette.scale(), "legend": {"orient": "bottom", "direction": "horizontal", "titleOrient": "left"}}
    shape = {"field": "to move", "type": "nominal", "title": "to move",
             "scale": {"domain": list(players), "range": ["circle", "square"]},
             "legend": {"orient": "bottom", "direction": "horizontal", "titleOrient": "left"}}
    layers: list[dict[str, object]] = [
        {"mark": {"type": "rule", "color": palette.RULE_LIGHT, "strokeDash": [4, 4]}, "data": {"values": [{"x": 0}]},
         "encoding": {"x": {"field": "x", "type": "quantitative"}}},
        {"mark": {"type": "line", "color": palette.RULE, "strokeWidth": 1.5}, "encoding": {"x": x, "y": y,
                                                                                     "order": {"field": "ply"}}},
        {"mark": {"type": "point", "filled": True, "size": 110, "opacity": 1},
         "encoding": {"x": x, "y": y, "color": colour, "shape": shape, "tooltip": tooltip}},
        {"transform": [{"filter": "datum.changed"}],
         "mark": {"type": "point", "filled": False, "size": 420, "strokeWidth": 2.5, "color": palette.INK},
         "encoding": {"x": x, "y": y, "tooltip": tooltip}},
        {"transform": [{"filter": "datum['draw level'] != ''"}],
         "mark": {"type": "text", "align": "left", "dx": 9, "fontSize": 10, "color": palette.COLOURS["draw"]},
         "encoding": {"x": x, "y": y, "text": {"field": "draw level"}}},
    ]
    return {"$schema": "https://vega.github.io/schema/vega-lite/v6.json", "data": {"values": rows},
            "width": "container", "height": min(max_height, max(160, height_per_ply * (last + 1))),
            "padding": {"left": 5, "right": 5, "top": 5, "bottom": 10}, "autosize": {"type": "fit-x", "contains": "padding"},
            "layer": layers}
