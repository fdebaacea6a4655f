"""Connect Four (explorer/games/connect4): rules, notation, ranking and tiers, compiled kernels,
and the published results.

Published results checked here:
- John Tromp, "John's Connect Four Playground", https://tromp.github.io/c4/c4.html (formerly
  http://homepages.cwi.nl/~tromp/c4/c4.html): the table of the start's game-theoretic value by
  board width x height (``=`` a draw, ``+`` a first-player win, ``-`` a second-player win), of
  which TROMP below keeps the boards up to 6 wide and 5 high, and the number of positions of small
  boards (4x4: 161,029; 4 wide x 5 high: 1,706,255, as quoted from that page by public code).
- OEIS A212693, https://oeis.org/A212693 (Tromp's counts): the positions of the standard 7x6
  board after n plies.
- Victor Allis, "A Knowledge-based Approach of Connect-Four" (master's thesis, Vrije Universiteit
  Amsterdam, 1988; its abstract): on a board 6 columns wide (and, by the same follow-up strategy,
  narrower) of an even height the second player can always prevent a first-player win.
Each board size the edge solver solves in a few seconds here is compared with them; a plain
negamax search written below (its own board, not the game's rules) cross-checks the smallest
boards position by position on the start and its successors.
"""

from __future__ import annotations

import functools
import os
import random

import pytest

from explorer import implicit
from explorer.core.errors import InvalidParameter, InvalidPosition
from explorer.core.values import Value
from explorer.games import parse_spec
from explorer.games.connect4.rules import Connect4, Connect4Params, Connect4Position
from explorer.solved import build
from tests.explorer import test_implicit as generic
from tests.support import edge_solves

TINY = ["connect4(width=3,height=3,connect=3)", "connect4(width=2,height=3,connect=2)",
        "connect4(width=4,height=3,connect=3)", "connect4(width=1,height=4,connect=3)"]
# Tromp's table (see the docstring): (width, height) -> the start's value for the first player.
TROMP = {(4, 4): "=", (5, 4): "=", (6, 4): "-", (4, 5): "=", (5, 5): "=", (6, 5): "="}
SIGN = {"=": Value.TIE, "+": Value.WIN, "-": Value.LOSS}
PUBLISHED_START = {"connect4:small": Value.TIE, "connect4:5x4": Value.TIE, "connect4(width=4,height=5)": Value.TIE}
# Positions reachable from the start (Tromp's counts; his 1,706,255 is the board 4 columns wide, 5 high).
PUBLISHED_POSITIONS = {"connect4:small": 161_029, "connect4(width=4,height=5)": 1_706_255}
A212693 = [1, 7, 49, 238, 1120, 4263, 16422, 54859]  # 7x6 positions after 0..7 plies


def game_of(width: int, height: int, connect: int = 4) -> Connect4:
    return Connect4(Connect4Params(width=width, height=height, connect=connect))


def play(game: Connect4, columns: str) -> Connect4Position:
    """The position after dropping pieces into the columns given as digits (1 = a), as Tromp writes games."""
    position = game.start()
    for column in columns:
        (position,) = [m.position for m in game.moves(position) if m.label == "abcdefghi"[int(column) - 1]]
    return position


# -- rules --------------------------------------------------------------------------------------
def test_start_moves_and_gravity():
    game = parse_spec("connect4:standard")
    assert (game.width, game.height, game.params.connect) == (7, 6, 4) and game.display_name == "connect4:standard"
    assert parse_spec("connect4").display_name == "connect4:small"  # the default: a board solved in seconds
    start = game.start()
    assert game.to_move(start) == 0 and [m.label for m in game.moves(start)] == list("abcdefg")
    after = play(game, "44")
    assert game.format(after).split("/")[-2:] == ["...O...", "...X..."] and game.to_move(after) == 0
    full = play(game, "111111")
    assert "a" not in [m.label for m in game.moves(full)] and len(game.moves(full)) == 6


@pytest.mark.parametrize("spec,line,winner", [
    ("connect4:standard", "1212121", "X"),                      # up
    ("connect4:standard", "1122334", "X"),                      # across
    ("connect4:standard", "12233434474", "X"),                  # diagonal, up to the right
    ("connect4(width=3,height=3,connect=3)", "3221131", "X"),   # diagonal, down to the right
    ("connect4:standard", "12324212", "O"),
    ("connect4:standard", "11223", None)])                      # three are not four
def test_a_line_ends_the_game_for_the_player_who_completed_it(spec, line, winner):
    """Every direction; the player to move after a line has lost, and has no move."""
    game = parse_spec(spec)
    position = play(game, line)
    if winner is None:
        assert game.outcome(position) is None and game.lines(position.columns) == set()
        return
    assert game.outcome(position) == Value.LOSS and game.moves(position) == []
    assert "XO"[1 - game.to_move(position)] == winner and game.lines(position.columns) == {winner}


def test_a_full_board_without_a_line_is_a_tie_and_connect_changes_the_line():
    game = game_of(2, 2)
    full = play(game, "1122")
    assert game.outcome(full) == Value.TIE and game.moves(full) == []
    three = game_of(3, 3, connect=3)
    assert three.outcome(play(three, "12121")) == Value.LOSS  # three up column 1


# -- notation -----------------------------------------------------------------------------------
def random_positions(game, count: int, seed: int = 7):
    rng = random.Random(seed)
    for _ in range(count):
        position = game.start()
        for _ in range(rng.randrange(game.cells + 1)):
            moves = game.moves(position)
            if not moves:
                break
            position = rng.choice(moves).position
        yield position


@pytest.mark.parametrize("spec", ["connect4:standard", "connect4:small", "connect4(width=5,height=3,connect=3)"])
def test_notation_round_trips(spec):
    game = parse_spec(spec)
    for position in random_positions(game, 200):
        text = game.format(position)
        assert game.parse(text) == position and game.parse(text.lower()) == position
        assert len(text.split("/")) == game.height


BAD_TEXT = [
    ("..../..../....", "4 rows of 4 cells"),
    ("..../..../..../...", "4 rows of 4 cells"),
    ("..../..../..../..Z.", "X, O or ."),
    ("..../..../.X../....", "floats above an empty cell in column b"),
    ("..../..../..../XX..", "X has 2 pieces and O has 0"),
    ("..../..../..../O...", "X has 0 pieces and O has 1"),
    ("X.O./X.O./X.O./X.O.", "both X and O have 4 in a row"),
    ("..../XX../XXX./OOOO", "O has 4 in a row but X moved last"),
    ("..../O.../OOOX/XXXX", "play went on after a win"),
]


@pytest.mark.parametrize("text,why", BAD_TEXT)
def test_bad_text_is_refused_in_one_line(text, why):
    game = parse_spec("connect4:small")
    with pytest.raises(InvalidPosition) as info:
        game.parse(text)
    message = str(info.value)
    assert why in message and "\n" not in message and "connect4" in message


def test_parameters_are_validated_in_one_line():
    for values, why in [(dict(width=10, height=6), "width x (height + 1) must be at most 63"),
                        (dict(width=0), "minimum is 1"), (dict(connect=1), "minimum is 2")]:
        with pytest.raises(InvalidParameter, match=r"\(height|minimum") as info:
            Connect4Params(**values)
        assert why in str(info.value)
    assert parse_spec("connect4(width=9,height=6)").code_space() < 1 << 62  # the largest boards still number


# -- ranking, tiers, symmetry -------------------------------------------------------------------
@pytest.mark.parametrize("spec", TINY)
def test_ranking_round_trips_and_tiers_count_pieces(spec):
    game = parse_spec(spec)
    tiers = game.tiers()
    assert tiers.offsets[0] == 0 and tiers.offsets[-1] == game.index_space() and len(tiers.names) == game.cells + 1
    assert tiers.children == tuple((k + 1,) for k in range(game.cells)) + ((),)
    for k in range(game.cells + 1):
        for i in range(tiers.offsets[k], tiers.offsets[k + 1]):
            position = game.unrank(i)
            assert game.rank(position) == i and sum(map(len, position.columns)) == k
            assert position.to_move == k % 2
    generic.test_ranking_round_trips(spec)


def test_every_4x4_index_round_trips_through_the_kernels_and_the_rules_on_a_sample():
    game = parse_spec("connect4:small")
    from explorer.games.connect4 import kernels as c4

    k = game.implicit_kernels()
    for i in range(game.index_space()):
        x, o, pieces = c4.unrank(k.ctx, i)
        assert c4.rank(k.ctx, x, o) == i
    for i in random.Random(3).sample(range(game.index_space()), 2000):
        assert game.rank(game.unrank(i)) == i


@pytest.mark.parametrize("spec", TINY)
def test_unmoves_are_the_inverse_of_moves(spec):
    generic.test_unmoves_are_exactly_the_inverse_of_moves(spec)


@pytest.mark.parametrize("spec", TINY)
def test_kernels_equal_the_rules_on_every_index(spec):
    generic.test_kernels_equal_the_rules(spec)


def test_every_move_goes_to_the_next_tier():
    game = parse_spec("connect4(width=4,height=3,connect=3)")
    offsets = game.tiers().offsets
    for i, (successors, predecessors, *_) in enumerate(generic.kernel_tables(game.id)):
        k = max(t for t in range(len(offsets) - 1) if offsets[t] <= i)
        assert all(offsets[k + 1] <= j < offsets[k + 2] for j in successors)
        assert all(offsets[k - 1] <= j < offsets[k] for j in predecessors)


@pytest.mark.parametrize("spec", ["connect4(width=3,height=3,connect=3)", "connect4(width=4,height=3,connect=3)"])
def test_check_game_passes(spec):
    """The conformance kit: notation, symmetry, ranking, un-moves, kernels and tiers on every reachable position."""
    from explorer.checkgame import check_game

    report = check_game(parse_spec(spec))
    assert report.ok, report.text()


def test_the_mirror_is_the_symmetry():
    game = parse_spec("connect4:small")
    position = play(game, "1123")
    mirror = Connect4Position(position.to_move, position.columns[::-1])
    assert game.canonical(position) == game.canonical(mirror) in (position, mirror)
    assert not game_of(1, 4).has_symmetry()


def test_estimates_bound_the_graph_and_refuse_the_standard_board():
    from explorer.core import limits
    from explorer.core.errors import GraphTooLarge
    from explorer.graph import generate

    for spec in ("connect4(width=3,height=3,connect=3)", "connect4:small"):
        game = parse_spec(spec)
        for symmetry in (True, False):
            graph = generate(game, symmetry=symmetry)
            assert graph.num_positions <= game.estimate_positions(symmetry)
            assert graph.num_moves <= game.estimate_moves(symmetry)
            if game.params.connect == 4:  # three in a row ends most 3x3 games early: far fewer reached there
                assert game.estimate_positions(symmetry) <= 1.6 * graph.num_positions
    with pytest.raises(GraphTooLarge, match="connect4:standard would have up to 37,981,678,010,084 positions"):
        limits.check(parse_spec("connect4:standard"))


# -- published results ----------------------------------------------------------------------------
def negamax_value(width: int, height: int, connect: int, columns: tuple[str, ...]) -> Value:
    """The value for the player to move, by a plain memoised negamax over its own board."""

    def line_through(cols, c, r, mark) -> bool:
        def at(cc, rr):
            return 0 <= cc < width and 0 <= rr < len(cols[cc]) and cols[cc][rr] == mark
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                step = 1
                while at(c + sign * step * dc, r + sign * step * dr):
                    run += 1
                    step += 1
            if run >= connect:
                return True
        return False

    @functools.lru_cache(maxsize=None)
    def score(cols: tuple[str, ...]) -> int:
        pieces = sum(map(len, cols))
        mark = "XO"[pieces % 2]
        best = None
        for c in range(width):
            if len(cols[c]) < height:
                after = cols[:c] + (cols[c] + mark,) + cols[c + 1:]
                value = 1 if line_through(after, c, len(cols[c]), mark) else -score(after)
                best = value if best is None else max(best, value)
                if best == 1:
                    break
        return 0 if best is None else best

    return {1: Value.WIN, 0: Value.TIE, -1: Value.LOSS}[score(columns)]


@pytest.mark.parametrize("spec", ["connect4(width=3,height=3,connect=3)", "connect4:small"])
def test_negamax_agrees_with_the_solver_on_the_start_and_its_successors(spec):
    game = parse_spec(spec)
    solved = edge_solves.reduced(spec)
    p = game.params
    node = solved.graph.find(game.key(game.start()))
    assert solved.value(node) == negamax_value(p.width, p.height, p.connect, game.start().columns)
    for move in game.moves(game.start()):
        node = solved.graph.find(game.key(move.position))
        assert solved.value(node) == negamax_value(p.width, p.height, p.connect, move.position.columns), move.label


@pytest.mark.parametrize("spec", sorted(PUBLISHED_START))
def test_the_start_value_is_tromps(spec):
    game = parse_spec(spec)
    solved = build(game, symmetry=True)
    assert solved.value(0) == PUBLISHED_START[spec]
    if game.height % 2 == 0 and game.width <= 6:  # Allis: the first player cannot win there
        assert solved.value(0) != Value.WIN
    if spec in PUBLISHED_POSITIONS:
        assert build(game, symmetry=False).graph.num_positions == PUBLISHED_POSITIONS[spec]


def test_published_start_values_are_tromps_table():
    """PUBLISHED_START (the boards the edge solver solves) is Tromp's table, not a second opinion."""
    for spec, value in PUBLISHED_START.items():
        game = parse_spec(spec)
        assert SIGN[TROMP[(game.width, game.height)]] == value


@pytest.mark.parametrize("size", [(6, 4)] + ([(5, 5), (6, 5)] if os.environ.get("GAMEGRAPH_LONG") == "1" else []))
def test_larger_boards_solved_by_tiers_match_tromps_table(size, tmp_path):
    """6x4 is Tromp's second-player win (a start value the solver could get wrong in a way a draw
    would not show), solved tier by tier (explorer.tiered: every tier loop-free, one pass forward)
    in about a minute here; 5x5 and 6x5 with GAMEGRAPH_LONG=1 (6x5: 9.9e9 indices, about an hour).
    6x4 is solved once a run in the state folder, shared with the README's `solve connect4:6x4 --tiered`
    (tests/support/shared_tiers.py: never files from an earlier run)."""
    from explorer import tiered
    from tests.support.shared_tiers import solved_this_run

    game = parse_spec(f"connect4(width={size[0]},height={size[1]})")
    if size == (6, 4):
        values = solved_this_run(game)
    else:
        values = tiered.solve(game, tmp_path, workers=1, processes=False)
    assert values.value(game.start()) == SIGN[TROMP[size]]
    # The best move (listed first) keeps the start's value, and no move does better.
    moves = values.moves(game.start())
    assert str(moves[0]["value"]) == str(values.value(game.start()))
    assert all(m["optimal"] == (str(m["value"]) == str(moves[0]["value"]) and
                                m["remoteness"] == moves[0]["remoteness"]) for m in moves)


def test_the_first_plies_of_7x6_count_as_oeis_a212693():
    game = parse_spec("connect4:standard")
    level = {game.start()}
    for plies, expected in enumerate(A212693):
        assert len(level) == expected, plies
        level = {m.position for p in level for m in game.moves(p)}


def test_the_implicit_solve_equals_the_edge_solver_on_4x4(tmp_path):
    game = parse_spec("connect4:small")
    result = implicit.solve(game, tmp_path / "v")
    generic.assert_same_as_edge_solve(game, result, "connect4:small")
    assert result.meta["start"]["value"] == "tie"
    valid = sum(game.implicit_kernels().valid(game.implicit_kernels().ctx, i) for i in range(game.index_space()))
    assert result.meta["invalid_indices"] == game.index_space() - valid


def test_the_board_links_each_open_column():
    from explorer.ui.boards import board_svg

    game = parse_spec("connect4:small")
    position = play(game, "1111")
    links = {m.label: f"?pos={m.label}" for m in game.moves(position)}
    svg = board_svg(game, position, links)
    assert svg.startswith("<svg") and svg.count("<a href") == 3 and 'data-move="a"' not in svg
    assert all(f'data-move="{c}"' in svg for c in "bcd") and "X to move" in svg
    assert game.diagram_label(position) == "O . . .\\nX . . .\\nO . . .\\nX . . .\\na b c d"  # files: the moves' names
    assert game.fields(position) == {"pieces": 4}


# -- the description (the page's header) -------------------------------------------------------
@pytest.mark.parametrize("spec", ["connect4:small", "connect4:5x4", "connect4:standard", "connect4(width=6,height=3)",
                                  "connect4(width=3,height=3,connect=4)", "connect4(width=5,height=5,connect=3)"])
def test_the_description_is_the_board_these_parameters_make(spec):
    game = parse_spec(spec)
    w, h, k = game.params.width, game.params.height, game.params.connect
    assert f"{w} columns wide and {h} high" in game.description
    assert f"{k} in a row" in game.description
    assert ("every game is a tie" in game.description) == (k > max(w, h))
    assert ("standard size" in game.description) == ((w, h) == (7, 6))
