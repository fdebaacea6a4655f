"""A path ends on exactly the board typed (issue 37): `gamegraph query GAME path --to BOARD` and the page's
"Shortest path from here to…" reached a mirror image of BOARD (tic-tac-toe's XXX/OO./... ended on
XO./XO./X..), since the graph keeps one key per position. Each board on the way is the one before it with
the move named, from the start typed; a board reached from there only as its mirror image is refused in one
line."""

from __future__ import annotations

import pytest

from explorer.core.errors import QueryError
from explorer.games import parse_spec
from explorer.solved import build
from loaders.mirror import to_networkx
from queries.api import NetworkxBackend, run_query

# Games with a symmetry, each with a start typed and enough moves to reach every orientation of a position.
GAMES = [("tictactoe", ".../.../...", 4), ("chopsticks", "A|1-1|1-1", 3), ("connect4", "..../..../..../....", 3),
         ("domineering", "V|.../.../...", 3)]


def _boards_by_key(game, start, depth: int) -> dict[str, list[str]]:
    """Every board play reaches from `start` within `depth` moves (by the rules, no symmetry), by stored key."""
    seen, frontier = {game.format(start): start}, [start]
    for _ in range(depth):
        frontier = [m.position for board in frontier if game.outcome(board) is None for m in game.moves(board)]
        frontier = [seen.setdefault(game.format(b), b) for b in frontier if game.format(b) not in seen]
    grouped: dict[str, list[str]] = {}
    for text, board in seen.items():
        grouped.setdefault(game.key(board), []).append(text)
    return grouped


@pytest.mark.parametrize("spec, typed, depth", GAMES)
def test_every_orientation_asked_for_is_the_path_s_last_board(spec, typed, depth):
    game = parse_spec(spec)
    backend = NetworkxBackend(to_networkx(build(spec)))
    twins = {key: boards for key, boards in _boards_by_key(game, game.parse(typed), depth).items() if len(boards) > 1}
    assert twins, f"{spec}: no position with two orientations within {depth} moves"
    for key, boards in twins.items():
        for board in boards:
            result = run_query(backend, "path", position=typed, to=board)
            assert result.boards[0] == typed and result.boards[-1] == board, (board, result.boards)
            assert result.positions[-1] == key
            rows = result.shown("path").records()
            assert [row["key"] for row in rows] == result.boards and rows[-1]["key"] == board
            for row, after in zip(rows, rows[1:]):  # each board is the one before it with the move named
                reached = [game.format(m.position) for m in game.moves(game.parse(row["key"]))
                           if m.label == row["label"]]
                assert reached == [row["to"]] == [after["key"]], row
            assert str(result).splitlines()[0].split(", to=")[1].startswith(board)  # the heading as typed


@pytest.mark.parametrize("spec, typed, depth", GAMES)
def test_the_stored_line_alone_ends_on_another_orientation_so_the_test_above_can_fail(spec, typed, depth):
    """Played out from the start without the end asked for (the old line), some path ends on a mirror
    image of the board typed."""
    game = parse_spec(spec)
    backend = NetworkxBackend(to_networkx(build(spec)))
    for key, boards in _boards_by_key(game, game.parse(typed), depth).items():
        for board in boards:
            result = run_query(backend, "path", position=typed, to=board)
            plain = game.shown_line(result.positions, result.moves, game.parse(typed))
            if game.format(plain[-1][0]) != board:
                return
    pytest.fail(f"{spec}: every plain line already ends on the board typed")


def test_a_board_reached_only_as_its_mirror_image_is_refused_in_one_line():
    backend = NetworkxBackend(to_networkx(build("tictactoe")))
    with pytest.raises(QueryError) as refused:  # X on a3 stays there: X on c3 and a1 is another orientation
        run_query(backend, "path", position="X../.../...", to="..X/.O./X..")
    message = str(refused.value)
    assert "\n" not in message and "..X/.O./X.." in message and "X../.O./..X" in message
    assert "never reaches it" in message
    result = run_query(backend, "path", position="X../.../...", to="X../.O./..X")
    assert result.boards == ["X../.../...", "X../.O./...", "X../.O./..X"]


def test_a_board_the_stored_line_misses_is_reached_by_a_line_of_its_own():
    """From a start without the symmetry (A|1-2|1-2), the shortest line between the stored keys reaches
    A|0-4|2-3 only as A|4-0|2-3; a line to the board itself is found by the rules, each row from the graph."""
    game = parse_spec("chopsticks")
    backend = NetworkxBackend(to_networkx(build("chopsticks")))
    typed, wanted = "A|1-2|1-2", "A|0-4|2-3"
    plain = run_query(backend, "path", position=typed, to="A|4-0|2-3")
    assert plain.boards[-1] == "A|4-0|2-3"
    result = run_query(backend, "path", position=typed, to=wanted)
    assert result.boards[0] == typed and result.boards[-1] == wanted
    distance = _boards_by_key(game, game.parse(typed), len(plain.boards) + 2)
    assert any(wanted in boards for boards in distance.values())
    rows = result.shown("path").records()
    for row, after in zip(rows, rows[1:]):
        reached = [game.format(m.position) for m in game.moves(game.parse(row["key"])) if m.label == row["label"]]
        assert reached == [row["to"]] == [after["key"]], row
    for row in rows:  # each row's facts are the graph's, for its stored key
        stored = backend.position(row["stored"])
        assert (row["value"], row["remoteness"]) == (stored["value"], stored["remoteness"])
        assert game.key(game.parse(row["key"])) == row["stored"]
    assert [row["step"] for row in rows] == list(range(len(rows)))


def test_no_line_is_said_of_the_boards_as_typed():
    backend = NetworkxBackend(to_networkx(build("tictactoe")))
    result = run_query(backend, "path", position="XX./OO./...", to=".../.../...")  # stored .../.OO/.XX
    assert result.tables["path"].rows == []
    assert result.notes == [".../.../... cannot be reached from XX./OO./..."]
    # the heading too names the boards as typed, the stored key beside one typed otherwise
    heading = str(result).splitlines()[0]
    stored = backend.game.key(backend.game.parse("XX./OO./..."))
    assert heading == f"path on tictactoe, position=XX./OO./... (stored {stored}), to=.../.../...", heading
    assert result.to_dict()["typed"] == {"position": "XX./OO./..."}


def test_a_search_that_gives_up_says_so_in_one_line(monkeypatch):
    import queries.api as api

    monkeypatch.setattr(api, "MAX_EXACT_SEARCH", 5)
    backend = NetworkxBackend(to_networkx(build("chopsticks")))
    with pytest.raises(QueryError) as refused:
        run_query(backend, "path", position="A|1-2|1-2", to="A|0-4|2-3")
    message = str(refused.value)
    assert "\n" not in message and "among the first 5 boards searched" in message and "A|4-0|2-3" in message
