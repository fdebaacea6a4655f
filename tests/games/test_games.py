"""Game specs, notation and the rules of each game on hand-picked positions."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.errors import GameGraphError, InvalidParameter, InvalidPosition, UnknownGame
from explorer.games import games, parse_spec
from explorer.games.chopsticks.rules import Chopsticks, ChopsticksParams
from explorer.games.nim import Nim, NimParams
from explorer.graph import generate
from explorer.solver import solve
from explorer.core.values import Value

# -- specs -------------------------------------------------------------------------


def test_registry_lists_the_builtin_games():
    assert {"chopsticks", "nim", "tictactoe"} <= set(games())
    for name, cls in games().items():
        assert cls.name == name and cls.description
        for row in cls.Params.describe():
            assert row["name"] and row["help"] and row["type"]


@pytest.mark.parametrize("name,cls", [("chopsticks", Chopsticks), ("nim", Nim)])
def test_every_preset_parses_to_its_values(name, cls):
    for preset, values in cls.presets.items():
        game = parse_spec(f"{name}:{preset}")
        assert game.preset == preset
        assert game.params == cls.Params(**values)
        for field, value in values.items():
            assert getattr(game.params, field) == value
        assert parse_spec(game.id).id == game.id
        assert parse_spec(game.display_name).id == game.id
        assert game.display_name == f"{name}:{preset}"


def test_overrides_and_defaults():
    game = parse_spec("chopsticks:even-split(fingers=6)")
    assert game.params.fingers == 6 and game.params.split == "even" and game.params.overflow == "cutoff"
    assert game.display_name == "chopsticks(fingers=6,split=even)"
    assert game.id == "chopsticks(fingers=6,overflow=cutoff,attack_dead=false,split=even,suicide=false,swaps=false)"
    # An override that contradicts the preset wins.
    assert parse_spec("chopsticks:magic-fingers(suicide=false)").params == ChopsticksParams()
    # Defaults: the plain name is the standard preset, spelled by its preset name.
    assert parse_spec("chopsticks").params == ChopsticksParams()
    assert parse_spec("chopsticks").display_name == "chopsticks:standard"
    assert parse_spec("nim").params.heaps == (1, 3, 5, 7)
    assert parse_spec("nim(heaps=2-3-4)").params.heaps == (2, 3, 4)
    assert parse_spec("nim(heaps=2-3-4)").display_name == "nim(heaps=2-3-4)"
    assert parse_spec("tictactoe").id == "tictactoe"
    # Spacing, dashes in parameter names and boolean spellings.
    spaced = parse_spec(" chopsticks : magic-fingers ( fingers = 6 , attack-dead = yes ) ")
    assert spaced.params.fingers == 6 and spaced.params.attack_dead and spaced.params.suicide
    assert parse_spec("chopsticks(swaps=on)").params.swaps is True
    assert parse_spec("chopsticks(swaps=0)").params.swaps is False
    assert parse_spec("chopsticks(fingers=2)").params.fingers == 2
    assert parse_spec("chopsticks(fingers=100)").params.fingers == 100


@settings(max_examples=60, deadline=None)
@given(st.builds(ChopsticksParams, fingers=st.integers(2, 100), overflow=st.sampled_from(["cutoff", "rollover"]),
                 attack_dead=st.booleans(), split=st.sampled_from(["none", "even", "transfer"]),
                 suicide=st.booleans(), swaps=st.booleans()))
def test_chopsticks_ids_round_trip(params):
    game = Chopsticks(params)
    again = parse_spec(game.id)
    assert again.params == params and again.id == game.id and again == game
    assert parse_spec(game.display_name).params == params


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=1, max_size=4))  # 5 heaps of 20 pass the move limit
def test_nim_ids_round_trip(heaps):
    game = Nim(NimParams(heaps=tuple(heaps)))
    assert parse_spec(game.id).params.heaps == tuple(heaps)
    assert parse_spec(game.display_name).id == game.id


def test_nim_refuses_games_with_too_many_moves():
    with pytest.raises(InvalidParameter, match=r"heaps=11-13-13-15-18 has about [\d,]+ moves; the limit is 50,000,000"):
        parse_spec("nim(heaps=11-13-13-15-18)")


BAD_SPECS = [
    # (spec, exception, text that must appear in the message)
    ("chess", UnknownGame, ["'chess'", "chopsticks"]),
    ("chopsticks:nope", UnknownGame, ["'nope'", "magic-fingers"]),
    ("chopsticks(colour=red)", UnknownGame, ["'colour'", "fingers"]),
    ("tictactoe(size=4)", UnknownGame, ["'size'", "valid parameters are none"]),
    ("chopsticks(fingers=abc)", InvalidParameter, ["fingers", "'abc'", "int"]),
    ("chopsticks(fingers=5.0)", InvalidParameter, ["'5.0'"]),
    ("chopsticks(fingers=1)", InvalidParameter, ["fingers=1", "minimum is 2"]),
    ("chopsticks(fingers=101)", InvalidParameter, ["fingers=101", "maximum is 100"]),
    ("chopsticks(overflow=wrap)", InvalidParameter, ["'wrap'", "cutoff", "rollover"]),
    ("chopsticks(split=half)", InvalidParameter, ["'half'", "transfer"]),
    ("chopsticks(attack_dead=maybe)", InvalidParameter, ["'maybe'", "bool"]),
    ("chopsticks(fingers=)", InvalidParameter, ["'fingers'", "has no value: write fingers=VALUE"]),
    ("chopsticks(fingers=5,,)", InvalidParameter, ["'chopsticks(fingers=5,,)'", "an empty one (a comma too many)"]),
    ("chopsticks(,fingers=5)", InvalidParameter, ["an empty one"]),
    ("chopsticks(fingers=5,)", InvalidParameter, ["an empty one"]),
    ("chopsticks(fingers)", InvalidParameter, ["'fingers'", "name=value"]),
    ("nim(heaps=1-x)", InvalidParameter, ["'1-x'"]),
    ("nim(heaps=1001)", InvalidParameter, ["heaps=1001", "maximum is 1000"]),
    ("nim(heaps=1000-1000-1000)", InvalidParameter, ["1000-1000-1000", "10,000,000"]),
    ("nim(heaps=1-1-1-1-1-1-1-1-1-1-1-1-1)", InvalidParameter, ["1-1-1-1-1-1-1-1-1-1-1-1-1", "1 to 12"]),
    ("chopsticks((", UnknownGame, ["'chopsticks(('", "NAME"]),
    ("chopsticks(fingers=6", UnknownGame, ["'chopsticks(fingers=6'"]),
    ("chopsticks:", UnknownGame, ["'chopsticks:'"]),
    ("", UnknownGame, ["malformed"]),
    ("3chopsticks", UnknownGame, ["'3chopsticks'"]),
]


@pytest.mark.parametrize("spec,exc,fragments", BAD_SPECS, ids=[s or "empty" for s, _, _ in BAD_SPECS])
def test_bad_specs_raise_clear_errors(spec, exc, fragments):
    with pytest.raises(exc) as info:
        parse_spec(spec)
    assert isinstance(info.value, GameGraphError)
    for fragment in fragments:
        assert fragment in str(info.value), f"{fragment!r} missing from {str(info.value)!r}"


# -- notation ------------------------------------------------------------------------
ROUND_TRIP_SPECS = ["chopsticks:standard", "chopsticks:rollover-even-split", "chopsticks(fingers=3)",
                    "tictactoe", "nim:small", "nim(heaps=2-3-4)", "mutorere", "ponghauki",
                    "toads-and-frogs:winning-ways", "domineering", "dodgem:3x3"]


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("spec", ROUND_TRIP_SPECS)
def test_notation_round_trips_on_every_position(spec, symmetry):
    game = parse_spec(spec)
    graph = generate(game, symmetry=symmetry)
    for node in range(graph.num_positions):
        position = graph.position(node)
        text = game.format(position)
        assert game.parse(text) == position
        assert game.format(game.parse(text)) == text
        assert graph.find(text) == node
        if symmetry and game.has_symmetry():
            assert game.canonical(position) == position
            assert game.key(position) == text


@settings(max_examples=200, deadline=None)
@given(fingers=st.integers(2, 9), mover=st.sampled_from("AaBb"), hands=st.lists(st.integers(0, 9), min_size=4, max_size=4),
       pad=st.sampled_from(["", " ", "  "]))
def test_chopsticks_notation_parses_or_explains(fingers, mover, hands, pad):
    game = Chopsticks(ChopsticksParams(fingers=fingers))
    a0, a1, b0, b1 = hands
    text = f"{pad}{mover}{pad}|{a0}{pad}-{a1}|{pad}{b0}-{b1}{pad}"
    canonical_text = f"{mover.upper()}|{a0}-{a1}|{b0}-{b1}"
    opponent_dead = (b0, b1) == (0, 0) if mover in "Aa" else (a0, a1) == (0, 0)
    if max(hands) >= fingers or opponent_dead:
        with pytest.raises(InvalidPosition) as info:
            game.parse(text)
        assert repr(text) in str(info.value)
    else:
        position = game.parse(text)
        assert game.format(position) == canonical_text
        assert game.parse(canonical_text) == position


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="AB|-0123456789 xX.O/", max_size=14))
def test_garbage_notation_never_crashes(text):
    for game in (parse_spec("chopsticks"), parse_spec("tictactoe"), parse_spec("nim:small")):
        try:
            position = game.parse(text)
        except InvalidPosition as exc:
            assert repr(text) in str(exc)
        else:
            assert game.parse(game.format(position)) == position


BAD_POSITIONS = [
    ("chopsticks", "", "malformed"),
    ("chopsticks", "A|1-1", "malformed"),
    ("chopsticks", "C|1-1|1-1", "malformed"),
    ("chopsticks", "A|1-1|1-x", "malformed"),
    ("chopsticks", "A|5-1|1-1", "0..4"),
    ("chopsticks", "A|1-1|1-12", "not 12"),
    ("chopsticks", "A|1-1|0-0", "no live hand"),
    ("chopsticks", "B|0-0|2-2", "no live hand"),
    ("tictactoe", "XXX/OO", "9 cells"),
    ("tictactoe", "XXZ/.../...", "9 cells"),
    ("tictactoe", "XX./.../...", "X has 2 marks and O has 0"),
    ("tictactoe", "O../.../...", "X has 0 marks and O has 1"),
    ("tictactoe", "XXX/OOO/...", "earlier win"),
    ("tictactoe", "OOO/XX./X.X", "earlier win"),
    ("nim:small", "A|1-2", "3 heaps, not 2"),
    ("nim:small", "A|1-2-4", "exceed 3"),
    ("nim:small", "C|1-2-3", "malformed"),
    ("nim:small", "A|1--2-3", "malformed"),
]


@pytest.mark.parametrize("spec", ["chopsticks", "tictactoe", "nim:small"])
@pytest.mark.parametrize("text, why", [
    ("A|" + "9" * 4301 + "-1|1-1", "too long"),           # past int()'s 4,300-digit limit: measured, not converted
    ("9" * 999, ""), ("A|1-1|1-" + "0" * 990 + "1", ""),  # under the length bound, still no huge int()
    ("x" * 100_000, "too long"), ("A|1-1|1-1\x00", "control characters"), (" ", "empty"),
    ("A|\u0661-\u0661|1-1", ""), ("A|1_0-1|1-1", ""),   # Unicode digits and underscores are not digits here
])
def test_oversized_or_odd_notation_is_refused_before_any_conversion(spec, text, why):
    game = parse_spec(spec)
    with pytest.raises(InvalidPosition, match="invalid .* position") as info:
        game.parse(text)
    assert why in str(info.value) and len(str(info.value)) < 300, str(info.value)
    with pytest.raises(InvalidPosition, match="is text, not int"):
        game.parse(5)


@pytest.mark.parametrize("spec, why", [
    ("chopsticks(fingers=" + "9" * 5000 + ")", "too long"), ("chopsticks(fingers=" + "9" * 20 + ")", "not a valid int"),
    ("chopsticks(fingers=1_0)", "not a valid int"), ("chopsticks(fingers=\u0663)", "not a valid int"),
    ("x" * 100_000, "too long"), ("ch\u00f6psticks", "malformed"),
])
def test_oversized_or_odd_specs_are_refused_in_one_short_line(spec, why):
    with pytest.raises(GameGraphError) as info:
        parse_spec(spec)
    assert why in str(info.value) and len(str(info.value)) < 300, str(info.value)


@pytest.mark.parametrize("spec,text,why", BAD_POSITIONS)
def test_invalid_notation(spec, text, why):
    game = parse_spec(spec)
    with pytest.raises(InvalidPosition) as info:
        game.parse(text)
    assert repr(text) in str(info.value) and why in str(info.value), str(info.value)


def test_tictactoe_accepts_exactly_the_reachable_boards():
    game = parse_spec("tictactoe")
    accepted = set()
    for cells in itertools.product("XO.", repeat=9):
        try:
            accepted.add(game.parse("".join(cells)))
        except InvalidPosition:
            pass
    assert accepted == set(generate(game, symmetry=False).positions)
    assert game.parse("XXX/OO./...") == tuple("XXXOO....")


# -- chopsticks rules ---------------------------------------------------------------------
def moves_of(spec: str, text: str) -> dict[str, str]:
    game = parse_spec(spec)
    moves = game.moves(game.parse(text))
    table = {m.label: game.format(m.position) for m in moves}
    assert len(table) == len(moves), "labels are unique"
    return table


TAPS_12 = {"L>L": "B|1-2|2-1", "L>R": "B|1-2|1-2", "R>L": "B|1-2|3-1", "R>R": "B|1-2|1-3"}


def test_taps_and_forbidden_transfers_in_standard():
    # 1-2: L->R gives 0-3 (suicide), R->L 1 gives 2-1 (a swap), R->L 2 gives 3-0 (suicide).
    assert moves_of("chopsticks", "A|1-2|1-1") == TAPS_12


def test_suicide_allows_emptying_a_hand():
    assert moves_of("chopsticks:magic-fingers", "A|1-2|1-1") == {
        **TAPS_12, "transfer 1: 0-3": "B|0-3|1-1", "transfer 2: 3-0": "B|3-0|1-1"}


def test_swaps_allow_mirroring():
    assert moves_of("chopsticks(swaps=true)", "A|1-2|1-1") == {**TAPS_12, "transfer 1: 2-1": "B|2-1|1-1"}
    assert moves_of("chopsticks(swaps=true,suicide=true)", "A|1-2|1-1") == {
        **TAPS_12, "transfer 1: 0-3": "B|0-3|1-1", "transfer 1: 2-1": "B|2-1|1-1", "transfer 2: 3-0": "B|3-0|1-1"}


def test_transfer_limits():
    # 3-3 with fingers=5: 2-4 and 4-2; 1-5 would reach 5 fingers.
    moves = moves_of("chopsticks", "A|3-3|1-1")
    assert {k: v for k, v in moves.items() if k.startswith("transfer")} == {
        "transfer 1: 2-4": "B|2-4|1-1", "transfer 1: 4-2": "B|4-2|1-1"}
    # A dead hand can receive: 0-4 -> 1-3, 2-2, 3-1 (4-0 is both a swap and a suicide).
    assert moves_of("chopsticks", "A|0-4|1-1") == {
        "R>L": "B|0-4|0-1", "R>R": "B|0-4|1-0",
        "transfer 1: 1-3": "B|1-3|1-1", "transfer 2: 2-2": "B|2-2|1-1", "transfer 3: 3-1": "B|3-1|1-1"}
    # With more fingers the same hands may move more.
    assert "transfer 2: 1-5" in moves_of("chopsticks(fingers=6)", "A|3-3|1-1")


def test_cutoff_and_rollover_kills():
    # 4 taps 3: 7 fingers.  cutoff: dead;  rollover: 7 mod 5 = 2.
    assert moves_of("chopsticks", "A|4-1|3-3")["L>L"] == "B|4-1|0-3"
    assert moves_of("chopsticks:rollover", "A|4-1|3-3")["L>L"] == "B|4-1|2-3"
    # Exactly 5: dead under both rules.
    assert moves_of("chopsticks", "A|1-1|4-4")["L>L"] == "B|1-1|0-4"
    assert moves_of("chopsticks:rollover", "A|1-1|4-4")["L>L"] == "B|1-1|0-4"
    # Below 5: the same under both rules.
    assert moves_of("chopsticks", "A|1-2|1-1")["R>R"] == moves_of("chopsticks:rollover", "A|1-2|1-1")["R>R"]


def test_killing_the_last_hand_ends_the_game():
    game = parse_spec("chopsticks")
    after = game.parse(moves_of("chopsticks", "A|2-1|0-3")["L>R"])
    assert game.format(after) == "B|2-1|0-0"
    assert game.outcome(after) == Value.LOSS and game.to_move(after) == 1
    assert game.outcome(game.parse("A|2-1|0-3")) is None


def test_attack_dead_revives():
    assert moves_of("chopsticks", "A|2-1|0-3") == {"L>R": "B|2-1|0-0", "R>R": "B|2-1|0-4"}
    revived = moves_of("chopsticks:tap-dead-transfer", "A|2-1|0-3")
    assert revived["L>L"] == "B|2-1|2-3" and revived["R>L"] == "B|2-1|1-3"
    assert set(revived) == {"L>L", "L>R", "R>L", "R>R"}  # 2-1 has no legal transfer
    # A dead hand of the mover never taps.
    assert set(moves_of("chopsticks:tap-dead-transfer(split=none)", "A|0-3|0-2")) == {"R>L", "R>R"}


def test_even_split_needs_a_dead_hand_and_an_even_count():
    assert moves_of("chopsticks:even-split", "A|0-4|1-1") == {"R>L": "B|0-4|0-1", "R>R": "B|0-4|1-0", "split 2-2": "B|2-2|1-1"}
    assert moves_of("chopsticks:even-split", "A|2-0|1-1")["split 1-1"] == "B|1-1|1-1"
    assert not any(k.startswith("split") for k in moves_of("chopsticks:even-split", "A|0-3|1-1"))
    assert not any(k.startswith("split") for k in moves_of("chopsticks:even-split", "A|2-2|1-1"))
    assert not any(k.startswith("split") for k in moves_of("chopsticks:even-split", "A|1-4|1-1"))
    assert moves_of("chopsticks:even-split(fingers=7)", "A|6-0|1-1")["split 3-3"] == "B|3-3|1-1"


def test_attack_only_has_no_splits():
    assert moves_of("chopsticks:attack-only", "A|0-4|1-1") == {"R>L": "B|0-4|0-1", "R>R": "B|0-4|1-0"}
    assert moves_of("chopsticks:attack-only", "A|2-2|1-1").keys() == {"L>L", "L>R", "R>L", "R>R"}


def test_player_b_moves_its_own_hands():
    # B's left (2) taps A's left (1): A gets 3; B's transfers change B's hands only.
    moves = moves_of("chopsticks", "B|1-1|2-3")
    assert moves["L>L"] == "A|3-1|2-3" and moves["R>R"] == "A|1-4|2-3"
    assert moves["transfer 1: 1-4"] == "A|1-1|1-4"


def test_chopsticks_with_two_fingers():
    game = parse_spec("chopsticks(fingers=2)")
    # Every tap kills (1 + 1 = 2) and no transfer fits.
    assert moves_of("chopsticks(fingers=2)", "A|1-1|1-1") == {
        "L>L": "B|1-1|0-1", "L>R": "B|1-1|1-0", "R>L": "B|1-1|0-1", "R>R": "B|1-1|1-0"}
    graph = generate(game, symmetry=False)
    # A kills one of B's hands, B one of A's, then A kills B's last: a first-player win in 3.
    solution = solve(graph)
    assert (Value(int(solution.value[0])), int(solution.remoteness[0])) == (Value.WIN, 3)


def test_symmetry_of_chopsticks_and_nim_keys():
    chop = parse_spec("chopsticks")
    assert chop.key(chop.parse("A|3-1|2-1")) == "A|1-3|1-2"
    assert chop.key(chop.parse("A|3-1|2-1"), symmetry=False) == "A|3-1|2-1"
    nim = parse_spec("nim:small")
    assert nim.key(nim.parse("B|3-0-2")) == "B|0-2-3"


# -- tic-tac-toe and nim rules ----------------------------------------------------------------
def test_tictactoe_rules():
    game = parse_spec("tictactoe")
    start = game.start()
    assert game.to_move(start) == 0 and len(game.moves(start)) == 9
    assert game.format(game.moves(start)[0].position) == "X../.../..."
    board = game.parse("XX./OO./...")
    assert game.to_move(board) == 0
    assert "X c3" in {m.label for m in game.moves(board)}
    won = game.parse("XXX/OO./...")
    assert game.outcome(won) == Value.LOSS  # O to move, X completed a line
    full = game.parse("XOX/XOO/OXX")
    assert game.outcome(full) == Value.TIE
    assert game.outcome(board) is None
    assert game.canonical(game.parse("..X/.../...")) == game.canonical(game.parse("X../.../..."))


def test_tictactoe_golden_counts():
    game = parse_spec("tictactoe")
    full, reduced = generate(game, symmetry=False), generate(game, symmetry=True)
    assert full.num_positions == 5478
    assert reduced.num_positions == 765
    for graph in (full, reduced):
        solution = solve(graph)
        assert (Value(int(solution.value[0])), int(solution.remoteness[0])) == (Value.TIE, 9)


def test_nim_rules():
    game = parse_spec("nim:small")
    start = game.start()
    assert game.format(start) == "A|1-2-3"
    assert len(game.moves(start)) == 1 + 2 + 3
    assert {game.format(m.position) for m in game.moves(game.parse("B|0-2-0"))} == {"A|0-1-0", "A|0-0-0"}
    assert game.outcome(game.parse("A|0-0-0")) == Value.LOSS
    assert game.outcome(game.parse("A|0-0-1")) is None
    assert not parse_spec("nim(heaps=5)").has_symmetry()


def test_parameters_are_frozen_and_validated_directly():
    with pytest.raises(InvalidParameter, match="fingers=0"):
        ChopsticksParams(fingers=0)
    with pytest.raises(InvalidParameter, match="'sideways'"):
        ChopsticksParams(split="sideways")
    with pytest.raises(InvalidParameter, match="heaps=3-1001"):
        NimParams(heaps=(3, 1001))
    params = ChopsticksParams()
    with pytest.raises(dataclasses.FrozenInstanceError):
        params.fingers = 6  # type: ignore[misc]
