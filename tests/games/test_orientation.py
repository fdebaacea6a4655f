"""One canonical key per position, and a shown orientation that follows the moves (Game.shown_line).

Along a best line from random positions of every game with a symmetry, the board shown after a
move is the board shown before it with that move applied, and it has the key the graph stores.
The stored keys alone break that (the last test): tic-tac-toe's "X a3" leads to a key with X on c1.
"""

from __future__ import annotations

import random

import pytest

from explorer.games import games
from explorer.solved import build
from queries.api import ArraysBackend, run_query

LINES_PER_GAME = 50


def _symmetric_games():
    """Every registered game whose default parameters reduce positions by a symmetry."""
    found = []
    for name, cls in sorted(games().items()):
        game = cls()
        if cls.offers.symmetry and game.has_symmetry():
            found.append(pytest.param(game, id=name))
    return found


SYMMETRIC = _symmetric_games()


@pytest.fixture(scope="module", params=SYMMETRIC)
def solved(request):
    return build(request.param)


def _random_shown_position(game, graph, rng: random.Random):
    """A position as a player would see it: random moves from the start, never canonicalised."""
    here = game.start()
    for _ in range(rng.randrange(0, 12)):
        if game.outcome(here) is not None:
            break
        moves = game.moves(here)
        if not moves:
            break
        here = rng.choice(moves).position
    return here


def follows_the_moves(game, line) -> list[str]:
    """What is wrong with a shown line [(position, label of the move into it)]: each position must
    be the one before it with the move named applied."""
    problems = []
    for (before, _), (after, label) in zip(line, line[1:]):
        played = [move.position for move in game.moves(before) if move.label == label]
        if after not in played:
            problems.append(f"{game.format(before)} -{label}-> {game.format(after)}")
    return problems


def test_every_game_with_a_symmetry_is_checked():
    names = {param.id for param in SYMMETRIC}
    assert {"tictactoe", "chopsticks", "nim", "domineering", "mutorere", "ponghauki"} <= names


def test_the_best_line_shown_follows_the_moves_named(solved):
    game, graph = solved.game, solved.graph
    rng = random.Random(18)
    checked = 0
    for _ in range(LINES_PER_GAME):
        start = _random_shown_position(game, graph, rng)
        node = graph.find(game.format(start))
        steps = solved.principal_line(node, limit=40)
        keys = [graph.key(n) for n, _ in steps]
        labels = [label for _, label in steps[1:]]
        line = game.shown_line(keys, labels, start)
        assert line[0][0] == start
        assert [game.key(position) for position, _ in line] == keys
        assert follows_the_moves(game, line) == []
        checked += len(line) - 1
    assert checked > 0


def test_the_query_library_plays_a_line_out_from_the_position_as_typed(solved):
    game, graph = solved.game, solved.graph
    backend = ArraysBackend(solved)
    rng = random.Random(7)
    asked = 0
    for _ in range(LINES_PER_GAME):
        start = _random_shown_position(game, graph, rng)
        node = graph.find(game.format(start))
        if str(solved.value(node)) == "draw":
            continue
        result = run_query(backend, "shortest-win", position=game.format(start))
        assert result.boards[0] == game.format(start)
        line = [(game.parse(board), label) for board, label in zip(result.boards, [None] + result.named)]
        assert [game.key(position) for position, _ in line] == result.positions
        assert follows_the_moves(game, line) == []
        asked += 1
    assert asked > 0 or all(str(solved.value(n)) == "draw" for n in range(graph.num_positions))


@pytest.mark.parametrize("name", ["tictactoe", "chopsticks"])
def test_the_stored_keys_alone_do_not_follow_the_moves(name):
    """Why the orientation is needed: the check above fails on the keys and labels as stored."""
    solved = build(games()[name]())
    game, graph = solved.game, solved.graph
    broken = 0
    for node in range(graph.num_positions):
        steps = solved.principal_line(node, limit=40)
        line = [(graph.position(n), label) for n, label in steps]
        broken += bool(follows_the_moves(game, line))
    assert broken > 0


def test_tictactoe_x_a3_puts_x_on_a3():
    game = games()["tictactoe"]()
    start = game.start()
    move = game.shown_move(start, "X a3", game.key(game.parse("X../.../...")))
    assert move.label == "X a3" and game.format(move.position) == "X../.../..."


def test_every_legal_move_is_listed_as_played_with_the_value_a_graph_without_symmetry_gives(solved):
    """SolvedGraph.played_moves (the page's moves table, `show`'s text): every legal move of the board as
    shown, mirror images a symmetric graph merged into one edge included (tic-tac-toe's start listed 3 of
    its 9), each reaching the board its move makes, with the value and remoteness that a graph built
    without the symmetry gives the same move: an independent solve."""
    game = solved.game
    plain = build(game, symmetry=False)
    rng = random.Random(11)
    for _ in range(20):
        here = _random_shown_position(game, solved.graph, rng)
        node = solved.graph.node_of(here)
        rows = solved.played_moves(node, here)
        legal = [] if game.outcome(here) is not None else game.moves(here)
        assert sorted((row["label"], row["to"]) for row in rows) == sorted(
            (move.label, game.format(move.position)) for move in legal), game.format(here)
        twin = {move["to"]: move for move in plain.moves(plain.graph.node_of(here))}  # one edge per board reached
        for row in rows:
            assert (row["value"], row["remoteness"]) == (twin[row["to"]]["value"], twin[row["to"]]["remoteness"]), \
                (game.format(here), row)
        stored = [move["label"] for move in solved.moves(node)]
        assert list(dict.fromkeys(row["stored"] for row in rows)) == stored  # grouped under the stored moves, best first


def test_tictactoes_start_lists_its_nine_moves_under_three_stored_ones():
    solved = build("tictactoe")
    rows = solved.played_moves(0)
    assert len(rows) == 9 and len({row["to"] for row in rows}) == 9 and len({row["stored"] for row in rows}) == 3
