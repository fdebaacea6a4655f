"""What a game says to people: the example in its error messages is a position of the game as
parametrised (teeko:small once showed a 5x5 board), and every finished position says why the game
ended (Game.ending: Dōbutsu shōgi ends when a lion can be taken, before the capture is played)."""

from __future__ import annotations

import random
import re

import pytest

from explorer.core.errors import InvalidPosition
from explorer.games import games, parse_spec
from tests.games.test_smallest_parameters import smallest_specs

PRESET_SPECS = sorted({name for name in games()} | {f"{name}:{preset}" for name, cls in games().items()
                                                     for preset in cls.presets})
# An example follows "e.g." inside the notation hint; a trailing ":" or ")" closes the sentence, not the example.
EXAMPLE = re.compile(r"e\.g\. (\S+?)[:,;)]?(?=\s|$)")


def examples(spec: str) -> list[str]:
    """The example positions an error message of this game shows (its notation hint)."""
    game = parse_spec(spec)
    message = str(game.invalid("?", "malformed"))
    assert "(notation: " in message, message
    return EXAMPLE.findall(message.split("(notation: ", 1)[1])


@pytest.mark.parametrize("spec", PRESET_SPECS + smallest_specs())
def test_every_error_example_is_a_position_of_its_game(spec):
    game = parse_spec(spec)
    found = examples(spec)
    assert found, f"{spec}: no example in its notation hint"
    for example in found:
        try:
            game.parse(example)
        except InvalidPosition as error:
            pytest.fail(f"{spec}: its error example {example!r} is refused: {error}")


def test_teeko_small_shows_a_3x3_example():
    assert examples("teeko:small") == ["R|.../.b./..."]


def finished_positions(spec: str, games_played: int = 30, seed: int = 0) -> list:
    """Positions where random games ended, with the unfinished ones met on the way."""
    game = parse_spec(spec)
    rng = random.Random(seed)
    ended, unfinished = [], []
    for _ in range(games_played):
        position = game.start()
        for _ in range(400):
            if game.outcome(position) is not None:
                ended.append(position)
                break
            unfinished.append(position)
            position = rng.choice(game.moves(position)).position
    return ended, unfinished


@pytest.mark.parametrize("spec", sorted(games()))
def test_every_finished_game_says_why_and_an_unfinished_one_does_not(spec):
    game = parse_spec(spec)
    ended, unfinished = finished_positions(spec)
    assert ended, f"{spec}: no random game ended"
    for position in ended:
        why = game.ending(position)
        assert isinstance(why, str) and why.strip(), f"{spec}: {game.format(position)} ends without a reason"
        assert "you" not in why.split(), why  # either player may read it
    assert all(game.ending(position) is None for position in unfinished[:200])


def test_dobutsu_says_which_piece_can_take_the_lion_and_which_lion_reached_the_far_rank():
    game = parse_spec("dobutsu")
    lost = game.parse("B|-/gle/.c./.L./E.G/C")  # A's lion stepped to b2, where B's chick on b3 takes it
    assert str(game.outcome(lost)) == "win"
    assert game.ending(lost).startswith("B's chick on b3 can take A's lion on b2"), game.ending(lost)
    assert game.ending(game.start()) is None
    lions = parse_spec("dobutsu:lions")
    arrived = lions.parse("A|-/L../..l/.../.../-")  # A's lion on a4, B did not take it
    assert str(lions.outcome(arrived)) == "win"
    assert lions.ending(arrived).startswith("A's lion reached the far rank (a4) and B could not take it")
    entered = lions.parse("B|-/L../..l/.../.../-")  # the same, seen by B, who cannot take it now
    assert str(lions.outcome(entered)) == "loss"
    assert lions.ending(entered).startswith("A's lion reached the far rank (a4) and B cannot take it")
