"""One move, one name (issue 37): a line of play's table, in the CLI's text and JSON, names each move as
played on the board the user typed, with the board before and after it; the stored key stays beside it."""

from __future__ import annotations

import json

import pytest

from explorer.games import parse_spec
from explorer.solved import build
from loaders.mirror import to_networkx
from queries.api import NetworkxBackend, run_query
from queries.results import format_result


@pytest.mark.parametrize("spec, typed", [("chopsticks:magic-fingers", "A|1-1|1-1"), ("tictactoe", "X../.O./...")])
def test_each_row_of_the_line_is_a_move_played_on_the_board_before_it(spec, typed):
    game = parse_spec(spec)
    solved = build(spec)
    result = run_query(NetworkxBackend(to_networkx(solved)), "shortest-win", position=typed)
    data = json.loads(result.to_json())
    table = data["tables"]["line"]
    rows = [dict(zip(table["columns"], row)) for row in table["rows"]]
    assert rows[0]["key"] == typed
    assert [row["stored"] for row in rows] == result.positions  # the graph's keys stay, in their own column
    for row, after in zip(rows, rows[1:]):
        reached = [game.format(m.position) for m in game.moves(game.parse(row["key"])) if m.label == row["label"]]
        assert reached == [row["to"]] and row["to"] == after["key"], row  # the move named, on this very board
    assert [row["label"] for row in rows[:-1]] == result.named  # the JSON's `named` and its table agree
    text = format_result(result)
    assert "[as played]" not in text  # one table, not two names for one move
    for i, name in enumerate(result.named):
        line = next(line for line in text.splitlines() if line.startswith(f"{i} ") or line.startswith(f"{i}  "))
        assert f"  {name}  " in line and line.split()[1] == result.boards[i], line


def test_the_moves_differ_from_the_stored_labels_in_magic_fingers_so_the_test_above_can_fail():
    result = run_query(NetworkxBackend(to_networkx(build("chopsticks:magic-fingers"))), "shortest-win",
                       position="A|1-1|1-1")
    assert result.named != result.moves and result.boards != result.positions


def test_a_query_result_shows_the_line_as_played_and_keeps_the_stored_table():
    """QueryResult printed (str) or read as shown (`shown`) names the line as the CLI does, with the stored
    key beside; `table` keeps the stored keys the library reads on (a Python user gets both, one name each)."""
    typed = "A|3-1|1-2"  # a mirror image of its stored key A|1-3|1-2
    result = run_query(NetworkxBackend(to_networkx(build("chopsticks:magic-fingers"))), "shortest-win",
                       position=typed)
    import re

    text = str(result)
    assert text == format_result(result) and re.search(rf"^0 +{re.escape(typed)} ", text, re.MULTILINE)
    assert text.splitlines()[0].endswith(f"position={typed} (stored A|1-3|1-2)")  # the heading as typed too
    shown = result.shown("line")
    assert shown.column("key")[0] == typed and shown.column("stored") == result.positions
    assert shown.column("label")[:-1] == result.named
    assert result.table("line").column("key") == result.positions  # the stored table is unchanged
