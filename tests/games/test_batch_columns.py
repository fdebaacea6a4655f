"""Game.batch_columns (offers.batch_columns): every code's key and game fields at once must be what
`format` and `fields` give one position at a time, for every game that offers it, on every preset
small enough to generate here, on Chopsticks at several finger counts and on Connect Four at several
board sizes. The loaders' side (the same columns and CSV bytes as the per-position path) is
tests/loaders/test_neo4j_import.py; `gamegraph check-game` checks the same promise on any game."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from explorer.games import parse_spec
from explorer.games.base import Offers
from explorer.games.registry import registered
from explorer.graph import generate

SMALL = 20_000  # positions: a preset whose estimate is larger is left to the benchmark


def _offering_instances():
    for name, cls in registered().items():
        if not cls.offers.batch_columns:
            continue
        for preset in [None, *cls.presets]:
            game = parse_spec(f"{name}:{preset}" if preset else name)
            estimate = game.estimate_positions()
            if estimate is not None and estimate <= SMALL:
                yield pytest.param(f"{name}:{preset}" if preset else name, id=f"{name}:{preset or 'default'}")


CHOPSTICKS_SIZES = [f"chopsticks:{preset}(fingers={fingers})" for fingers in (2, 3, 6, 11)
                    for preset in ("standard", "rollover", "even-split", "attack-only")]
# Every Connect Four preset is larger than SMALL: boards from one column to 4x3, lines of 2 to 4.
CONNECT4_SIZES = [f"connect4(width={w},height={h},connect={k})" for w, h, k in
                  ((1, 4, 4), (2, 3, 2), (3, 3, 3), (4, 3, 3), (3, 4, 4), (4, 3, 4), (2, 5, 3))]


def _flattened(value) -> list:
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _flattened(item)]
    return [value]


@pytest.mark.parametrize("spec", list(_offering_instances()) + CHOPSTICKS_SIZES + CONNECT4_SIZES)
@pytest.mark.parametrize("symmetry", [True, False])
def test_batch_columns_are_format_and_fields_position_by_position(spec, symmetry):
    game = parse_spec(spec)
    graph = generate(game, symmetry=symmetry)
    assert graph.codes is not None
    keys, fields = game.batch_columns(graph.codes)
    positions = [game.decode(code) for code in graph.codes.tolist()]
    assert np.asarray(keys).tolist() == [game.format(position) for position in positions]
    expected = [game.fields(position) for position in positions]
    assert list(fields) == list(expected[0])
    for name, values in fields.items():
        values = np.asarray(values)
        assert len(values) == len(positions), name
        rows = values.reshape(len(values), -1).tolist() if values.ndim > 1 else values.tolist()
        reference = [_flattened(field[name]) if values.ndim > 1 else field[name] for field in expected]
        assert rows == reference, name
        assert {type(v) for row in rows for v in (row if values.ndim > 1 else [row])} <= {int, bool}


def test_some_game_offers_batch_columns_so_the_check_above_covers_it():
    assert any(cls.offers.batch_columns for cls in registered().values())


def test_every_game_that_offers_batch_columns_is_checked_above():
    """A game that offers batch_columns with no preset small enough must have sizes listed above."""
    specs = [param.values[0] for param in _offering_instances()] + CHOPSTICKS_SIZES + CONNECT4_SIZES
    checked = {type(parse_spec(spec)).name for spec in specs}
    assert {name for name, cls in registered().items() if cls.offers.batch_columns} <= checked


def test_batch_columns_needs_arrays_and_the_method():
    class Declared:  # a stand-in class: the check reads only the declaration here
        pass

    plain = Offers(arrays=False, compiled_moves=False, ranking=False, unmoves=False, implicit_kernels=False,
                   symmetry=False, cgt=None, board=None, player_names=None, swap_players=False, diagram_label=False)
    assert plain.batch_columns is False  # the default: a game is read one position at a time
    assert dataclasses.replace(plain, batch_columns=True).missing(Declared) == \
        "declares batch_columns=True without arrays=True"
    with_arrays = dataclasses.replace(plain, arrays=True, batch_columns=True)
    arrays_only = type("ArraysOnly", (), {method: lambda self: None for method in Offers.NEEDS["arrays"]})
    assert with_arrays.missing(arrays_only) == "declares batch_columns in its offers but has no method batch_columns()"
    complete = type("Complete", (arrays_only,), {"batch_columns": lambda self, codes: None})
    assert with_arrays.missing(complete) is None
