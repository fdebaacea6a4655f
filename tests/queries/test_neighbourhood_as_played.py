"""One move, one name, in a neighbourhood (issue 37): `gamegraph query … neighbourhood` (text and JSON) and
`gamegraph dot … neighbourhood` draw each position in the orientation that follows the moves from the board
typed (Game.orient, as the page's canvas does) and name each move as played on the board drawn at its start,
so that the move named, played there, leaves the board drawn at its end, or the move says it leaves that
board's mirror image. The stored keys stay beside them.

Each expectation is checked by playing the move with the game's own rules, not against boards written here."""

from __future__ import annotations

import json
import re

import pytest

from explorer.games import parse_spec
from explorer.games.base import MIRRORED_MARK
from explorer.render import dot
from explorer.solved import build
from loaders.mirror import to_networkx
from queries.api import NetworkxBackend, run_query
from queries.results import format_result

SPECS = ["tictactoe", "chopsticks:magic-fingers", "connect4:small"]


def mirrored_board(game):
    """A board a move or two from the start whose stored key is another orientation of it (a move there
    is named differently on the key): the position a user types as played."""
    frontier = [game.start()]
    for _ in range(3):
        frontier = [m.position for board in frontier for m in game.moves(board)]
        for board in frontier:
            if game.format(board) != game.key(board):
                return board
    raise AssertionError(f"{game.name}: no board near the start differs from its stored key")


def check_move(game, source: str, label: str, target: str, mirrored: bool) -> None:
    """The move named `label`, played by the rules on the board `source`, leaves exactly `target`, or (when
    `mirrored`) another orientation of it, never a position of another key."""
    after = {game.format(m.position) for m in game.moves(game.parse(source)) if m.label == label}
    assert after, f"{label!r} is not a move of {source}"
    if mirrored:
        assert target not in after and game.key(game.parse(target)) in {game.key(game.parse(a)) for a in after}, \
            (source, label, target)
    else:
        assert target in after, (source, label, target, after)


@pytest.fixture(scope="module", params=SPECS)
def hood(request):
    game = parse_spec(request.param)
    backend = NetworkxBackend(to_networkx(build(request.param)))
    typed = game.format(mirrored_board(game))
    return game, typed, run_query(backend, "neighbourhood", position=typed, k=2)


def test_json_moves_are_played_on_the_board_drawn_at_their_start(hood):
    game, typed, result = hood
    tables = json.loads(result.to_json())["tables"]
    positions = [dict(zip(tables["positions"]["columns"], row)) for row in tables["positions"]["rows"]]
    moves = [dict(zip(tables["moves"]["columns"], row)) for row in tables["moves"]["rows"]]
    centre = [row for row in positions if row["distance"] == 0]
    assert [row["key"] for row in centre] == [typed] and centre[0]["stored"] == result.params["position"] != typed
    drawn = {row["stored"]: row["key"] for row in positions}
    for row in positions:  # each board drawn is the position the graph stores under that key
        assert game.key(game.parse(row["key"])) == row["stored"]
    assert len(moves) == len(result.table("moves").rows) > 0
    for row, stored in zip(moves, result.table("moves").records()):
        check_move(game, row["from"], row["label"], row["to"], row["mirrored"])
        assert (row["from"], row["to"]) == (drawn.get(stored["from"], row["from"]), drawn.get(stored["to"], row["to"]))
    assert any(row["label"] != stored["label"] for row, stored in zip(moves, result.table("moves").records())), \
        "no move is named differently on the stored key: the test could not fail"


def test_text_names_each_move_as_played_with_the_board_typed_in_its_heading(hood):
    game, typed, result = hood
    text = format_result(result)
    assert text.splitlines()[0].startswith(f"neighbourhood on {game.id}, position={typed} "
                                           f"(stored {result.params['position']})")
    section = text.split("[moves]")[1].split("\nnote:")[0].strip().splitlines()
    header, rows = re.split(r"\s{2,}", section[1].strip()), section[3:]
    assert header == ["from", "label", "to", "optimal", "mirrored"]
    assert len(rows) == len(result.table("moves").rows)
    mirrored = 0
    for line in rows:
        source, label, target, _, flag = re.split(r"\s{2,}", line.strip())
        check_move(game, source, label, target, flag == "yes")
        mirrored += flag == "yes"
    assert ("`mirrored` yes" in text) == (mirrored > 0)


def test_dot_draws_the_boards_the_moves_reach_and_marks_the_mirrored_ones(hood):
    game, typed, result = hood
    diagram = dot.neighbourhood_diagram(result)
    assert f"of {typed} (" in diagram.title and diagram.highlight == result.params["position"]

    def board(key):
        return diagram.nodes[key].get("shown", key)

    assert board(result.params["position"]) == typed
    marked = 0
    for source, target, label, _ in diagram.edges:
        mirrored = label.endswith(MIRRORED_MARK)
        marked += mirrored
        check_move(game, board(source), label.removesuffix(MIRRORED_MARK), board(target), mirrored)
    source = dot.to_dot(diagram)
    assert f"{typed}\\n" in source  # the node's label is the board drawn
    assert (MIRRORED_MARK.strip() + " the move leaves the mirror image" in source) == (marked > 0)


def test_some_moves_of_tictactoe_are_marked_mirrored():
    """Two moves into one position from boards drawn differently: one of them leaves its mirror image."""
    game = parse_spec("tictactoe")
    result = run_query(NetworkxBackend(to_networkx(build("tictactoe"))), "neighbourhood", position="X../.../...", k=2)
    played = result.drawing()[1]
    assert any(mirrored for _, mirrored in played) and not all(mirrored for _, mirrored in played)
    assert result.drawing()[0][result.params["position"]] == "X../.../..."
    assert game.format(game.parse(result.params["position"])) != "X../.../..."


def test_a_game_without_symmetry_is_drawn_as_stored():
    result = run_query(NetworkxBackend(to_networkx(build("dodgem:3x3"))), "neighbourhood", k=2)
    drawn, played = result.drawing()
    assert all(text == key for key, text in drawn.items())
    assert [label for label, _ in played] == result.table("moves").column("label")
    assert not any(mirrored for _, mirrored in played)
    shown = result.shown("positions")
    assert shown.column("key") == shown.column("stored") == result.table("positions").column("key")
    assert "orientation" not in format_result(result)


def test_text_names_the_player_to_move_as_the_game_calls_them_and_json_keeps_the_index(hood):
    """The positions table said `to_move 0` and `1`; the text now says X and O (Chopsticks' A and B), each the
    player whose turn it is by the game's own rules, while JSON keeps 0 and 1."""
    from explorer.games.base import player_name

    game, _, result = hood
    text = format_result(result)
    section = text.split("[positions]")[1].split("\n[")[0].strip().splitlines()
    header = re.split(r"\s{2,}", section[1].strip())
    at, key_at = header.index("to_move"), header.index("key")
    rows = [re.split(r"\s{2,}", line.strip()) for line in section[3:]]
    assert rows and {row[at] for row in rows} <= {player_name(game, 0), player_name(game, 1)}
    for row in rows:
        assert row[at] == player_name(game, game.to_move(game.parse(row[key_at]))), row
    assert {v for v in result.table("positions").column("to_move")} <= {0, 1}
