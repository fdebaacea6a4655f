"""A part of a game solved into a value file (explorer.solved.materialise): the neighbourhood of a
position as a small SolvedGraph whose values, remoteness and optimal moves are the value file's.
The oracle is the edge solver's whole graph of dobutsu:small, generated from the start and from every
position of the parts (so that un-moves to positions the start never reaches are in it too)."""

from __future__ import annotations

import random

import pytest

from explorer import implicit
from explorer.core.errors import GameGraphError, GraphTooLarge
from explorer.games import parse_spec
from explorer.solved import PART_MAX_RADIUS, build, materialise, part_id

SPEC = "dobutsu:small"
CASES = [(seed, radius, direction) for seed, radius, direction in
         [(0, 0, "both"), (1, 1, "both"), (2, 2, "both"), (3, 3, "both"), (4, 2, "out"), (5, 3, "out"),
          (6, 2, "in"), (7, 1, "in"), (8, 3, "both"), (9, 2, "both")]]


def random_position(game, seed: int):
    """A position a random game reaches in 0 to 24 plies (either player to move; maybe finished)."""
    rng = random.Random(seed)
    position = game.start()
    for _ in range(rng.randrange(25)):
        if game.outcome(position) is not None:
            break
        position = rng.choice(game.moves(position)).position
    return position


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """The value file, the parts of CASES, and the edge solver's graph holding every position of them."""
    game = parse_spec(SPEC)
    values = implicit.solve(game, tmp_path_factory.mktemp("part") / "values")
    parts = {case: materialise(values, random_position(game, case[0]), case[1], case[2]) for case in CASES}
    extra = [p for part in parts.values() for p in part.positions]
    return game, values, parts, build(game, symmetry=False, use_arrays=False, extra_starts=extra)


def same_as_the_whole_game(part, oracle) -> None:
    """Every node: value and remoteness; every move: in the whole game, with its label and optimal
    flag; every move of the whole game between two positions of the part: in the part."""
    assert part.graph.num_positions == len(set(part.positions))
    nodes = [oracle.graph.node_of(part.graph.position(i)) for i in range(part.graph.num_positions)]
    assert None not in nodes
    for i, n in enumerate(nodes):
        key = part.graph.key(i)
        assert (part.value(i), part.remoteness(i)) == (oracle.value(n), oracle.remoteness(n)), key
        assert (part.graph.terminal[i], part.graph.to_move[i]) == (oracle.graph.terminal[n], oracle.graph.to_move[n])
        ours = {part.graph.key(int(part.graph.succ_indices[e])): (part.graph.label(e), bool(part.solution.optimal[e]))
                for e in part.graph.edge_range(i)}
        theirs = {oracle.graph.key(int(oracle.graph.succ_indices[e])): (oracle.graph.label(e),
                                                                         bool(oracle.solution.optimal[e]))
                  for e in oracle.graph.edge_range(n)}
        inside = {k: v for k, v in theirs.items() if part.graph.node_of(part.game.parse(k)) is not None}
        assert ours == inside, key
        assert part.record(i)["value"] == str(oracle.value(n))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"seed{c[0]}-r{c[1]}-{c[2]}")
def test_a_part_has_the_whole_games_values_at_every_node(solved, case):
    game, values, parts, oracle = solved
    part = parts[case]
    _, radius, direction = case
    same_as_the_whole_game(part, oracle)
    assert part.graph.key(0) == game.format(random_position(game, case[0]))  # node 0 is the centre
    assert max(part.distance.values()) <= radius
    # Every position less than `radius` moves away has all its successors (forward parts) in the part.
    if direction != "in":
        for position, distance in part.distance.items():
            if distance < radius:
                assert all(part.graph.node_of(m.position) is not None for m in
                           (game.moves(position) if game.outcome(position) is None else []))
    if direction == "out":  # exactly the positions the whole graph reaches in `radius` moves
        start = oracle.graph.node_of(part.graph.position(0))
        reach, frontier = {start}, [start]
        for _ in range(radius):
            frontier = [int(s) for n in frontier for s in oracle.graph.successors(n) if int(s) not in reach]
            reach.update(frontier)
        assert {oracle.graph.key(n) for n in reach} == {part.graph.key(i) for i in range(part.graph.num_positions)}


def test_the_parts_cover_both_players_and_both_ends_of_the_part(solved):
    """The cases exercise what could go wrong: B to move (the value file's colour-swap fold), frontier
    positions whose moves leave the part, and predecessors the start never reaches."""
    game, _, parts, oracle = solved
    movers = {game.to_move(p) for part in parts.values() for p in part.positions}
    assert movers == {0, 1}
    edge = [p for part in parts.values() for p in part.positions
            if part.distance[p] == part.radius and part.radius
            and not part.complete(game.format(p), "out")]
    assert edge  # positions at the part's edge whose moves leave it: their values are the file's anyway


def test_growing_a_part_keeps_every_value_right(solved):
    game, values, parts, _ = solved
    part = materialise(values, random_position(game, 3), 1, "both")
    before = part.graph.num_positions
    frontier = next(game.format(p) for p in part.positions if not part.complete(game.format(p), "out"))
    added = part.grow(frontier, 1, "out")
    assert added > 0 and part.graph.num_positions == before + added
    assert part.complete(frontier, "out")
    oracle = build(game, symmetry=False, use_arrays=False, extra_starts=part.positions)
    same_as_the_whole_game(part, oracle)
    assert part.grow(frontier, 1, "out") == 0  # nothing new the second time


def test_a_part_over_its_limit_is_refused_in_one_line_before_any_value_is_read(solved):
    game, values, _, _ = solved
    with pytest.raises(GraphTooLarge) as refused:
        materialise(values, game.start(), PART_MAX_RADIUS, "both", limit=40)
    message = str(refused.value)
    assert "\n" not in message and "more than 40 positions" in message and "smaller radius" in message
    fits = refused.value.fits
    assert materialise(values, game.start(), fits, "both").graph.num_positions <= 40
    with pytest.raises(GraphTooLarge):
        materialise(values, game.start(), fits + 1, "both", limit=40)
    part = materialise(values, game.start(), 1, "out", limit=40)
    before = (part.graph.num_positions, part.graph.num_moves, dict(part.distance))
    with pytest.raises(GraphTooLarge):
        part.grow(part.graph.key(0), PART_MAX_RADIUS, "both")
    assert (part.graph.num_positions, part.graph.num_moves, part.distance) == before  # refused: unchanged


@pytest.mark.parametrize("radius,direction,said", [(-1, "both", "radius -1"), (PART_MAX_RADIUS + 1, "out", "radius"),
                                                   (1, "sideways", "direction 'sideways'")])
def test_bad_arguments_are_one_line(solved, radius, direction, said):
    game, values, _, _ = solved
    with pytest.raises(GameGraphError, match=said):
        materialise(values, game.start(), radius, direction)


def test_a_part_has_an_id_of_its_own(solved):
    game, values, _, _ = solved
    part = materialise(values, game.start(), 1)
    assert part.graph.graph_id == part_id(game, game.format(game.start()), 1, "both")
    assert part.graph.graph_id.startswith(game.id) and part.graph.graph_id not in (game.id, f"{game.id}[nosym]")


class _WithoutUnmoves:
    """The value file of `values`, over its game narrowed to offer no un-moves (as a plugin game may)."""

    def __init__(self, values):
        import dataclasses

        self._values = values
        game = values.game
        self.game = type("NoUnmoves", (), {"__getattr__": lambda _self, name: getattr(game, name),
                                           "offers": dataclasses.replace(game.offers, unmoves=False)})()

    def __getattr__(self, name):
        return getattr(self._values, name)


def test_a_game_without_unmoves_is_refused_backwards_in_one_line_when_made_and_when_grown(solved):
    game, values, _, _ = solved
    narrowed = _WithoutUnmoves(values)
    for direction in ("in", "both"):
        with pytest.raises(GameGraphError) as refused:
            materialise(narrowed, game.start(), 1, direction)
        assert "\n" not in str(refused.value) and "offers no un-moves" in str(refused.value)
    part = materialise(narrowed, game.start(), 1, "out")  # forward is fine
    before = part.graph.num_positions
    with pytest.raises(GameGraphError, match="offers no un-moves"):
        part.grow(part.graph.key(0), 1, "in")
    assert part.graph.num_positions == before
