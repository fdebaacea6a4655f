"""Size estimates and the refusals they drive (explorer/limits.py, Game.estimate_positions / estimate_moves).

The estimates must never undercount (an upper bound on the real graph) and must
stay close enough that a limit does not refuse what would fit: both are checked
against generated graphs for every preset and for random small parameters.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core import limits
from explorer.core.errors import GraphTooLarge, InvalidParameter
from explorer.games import games, parse_spec
from explorer.games.chopsticks.rules import Chopsticks, ChopsticksParams
from explorer.games.nim import Nim, NimParams
from explorer.graph import generate
from explorer.solved import build

# How far above the real count each game's bound may be (positions, moves), at the sizes tested here.
# Chopsticks attack-only reaches the fewest positions of its bound; tiny games are the loosest.
FACTOR = {"chopsticks": (3.0, 4.0), "nim": (1.5, 3.0), "tictactoe": (1.0, 1.0),
          # Counting bounds (pieces conserved, cells covered in pairs): loose, never under.
          "dodgem": (1.5, 3.5), "domineering": (110.0, 450.0), "mutorere": (16.0, 330.0),
          "ponghauki": (2.5, 25.0), "toads-and-frogs": (25.0, 70.0),
          "connect4": (1.6, 3.5),  # the ranking: it counts boards no game reaches (a column XXOO) and won ones
          "teeko": (1.5, 2.5),  # the ranking, and each empty cell reached by at most min(8, pieces) pieces
          "dobutsu": (3.0, 30.0)}  # the whole ranking (half unreached), and every piece's most steps and drops
TINY = 20  # below this many positions only the upper bound is checked (a 2-finger game reaches 4 of 12)

# Every preset small enough to generate here (Dodgem 5x5 is solved only in the implicit mode).
PRESETS = [f"{name}:{preset}" for name, cls in games().items() for preset in cls.presets
           if parse_spec(f"{name}:{preset}").estimate_positions(False) <= 2_000_000]


def assert_bound(game, symmetry: bool) -> None:
    graph = generate(game, symmetry=symmetry)
    positions, moves = game.estimate_positions(symmetry), game.estimate_moves(symmetry)
    assert positions >= graph.num_positions, (game.id, symmetry)
    assert moves >= graph.num_moves, (game.id, symmetry)
    if graph.num_positions >= TINY:
        most_positions, most_moves = FACTOR[game.name]
        assert positions <= most_positions * graph.num_positions, (game.id, symmetry, positions, graph.num_positions)
        assert moves <= most_moves * graph.num_moves, (game.id, symmetry, moves, graph.num_moves)


@pytest.mark.parametrize("spec", PRESETS)
@pytest.mark.parametrize("symmetry", [True, False])
def test_estimate_bounds_every_preset(spec, symmetry):
    assert_bound(parse_spec(spec), symmetry)


def test_every_shipped_game_estimates_its_size():
    for name, cls in games().items():
        game = cls()
        assert game.estimate_positions(True) is not None and game.estimate_moves(True) is not None, name


@settings(max_examples=60, deadline=None)
@given(fingers=st.integers(2, 9), overflow=st.sampled_from(["cutoff", "rollover"]), attack_dead=st.booleans(),
       split=st.sampled_from(["none", "even", "transfer"]), suicide=st.booleans(), swaps=st.booleans(),
       symmetry=st.booleans())
def test_chopsticks_estimate_bounds_random_rules(fingers, overflow, attack_dead, split, suicide, swaps, symmetry):
    game = Chopsticks(ChopsticksParams(fingers=fingers, overflow=overflow, attack_dead=attack_dead, split=split,
                                       suicide=suicide, swaps=swaps))
    assert_bound(game, symmetry)


@settings(max_examples=60, deadline=None)
@given(heaps=st.lists(st.integers(0, 6), min_size=1, max_size=4), symmetry=st.booleans())
def test_nim_estimate_bounds_random_heaps(heaps, symmetry):
    game = Nim(NimParams(heaps=tuple(heaps)))
    graph = generate(game, symmetry=symmetry)
    assert game.estimate_positions(symmetry) >= graph.num_positions
    assert game.estimate_moves(symmetry) >= graph.num_moves
    if not (symmetry and game.has_symmetry()):  # the formula without symmetry is exact
        assert game.estimate_positions(symmetry) == graph.num_positions


def test_huge_chopsticks_is_refused_at_once_with_its_estimate(monkeypatch):
    """Refused from the parameters' estimate, before any position is generated (it once took 14 GB)."""
    from explorer.solved import graph as solved_graph

    def generated(*args, **kwargs):
        raise AssertionError("the graph was generated: the refusal must come from the estimate first")

    monkeypatch.setattr(solved_graph, "generate", generated)
    game = parse_spec("chopsticks(fingers=99)")
    with pytest.raises(GraphTooLarge) as refused:
        build(game, max_positions=3_000_000)
    message = str(refused.value)
    assert f"{game.estimate_positions():,} positions" in message and "limit of 3,000,000 positions" in message


def test_the_remedy_the_caller_names_reaches_the_refusal(tmp_path, monkeypatch):
    """show and play take no --max-positions: the remedy they name (explorer.commands.graph_limit_hint)
    passes through build and load_or_build into the one size check, also for a graph cached under a
    higher limit; without one the refusal names --max-positions."""
    from explorer.solved import load_or_build

    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path))
    game = parse_spec("chopsticks(fingers=99)")
    remedy = "solve it into a value file first, which `show` then reads"
    for make in (build, load_or_build):
        with pytest.raises(GraphTooLarge) as refused:
            make(game, max_positions=3_000_000, hint=remedy)
        assert str(refused.value).endswith(f"; {remedy}") and "--max-positions" not in str(refused.value)
        with pytest.raises(GraphTooLarge) as refused:
            make(game, max_positions=3_000_000)
        assert str(refused.value).endswith(f"; {limits.RAISE_THE_LIMIT}")
    small = parse_spec("chopsticks")
    cached = load_or_build(small)  # cached under the default limit, then asked for under a lower one
    assert cached.graph.num_positions > 100
    with pytest.raises(GraphTooLarge) as refused:
        load_or_build(small, max_positions=100, hint=remedy)
    assert str(refused.value).endswith(f"; {remedy}")


def test_memory_budget_refuses_with_the_estimate(monkeypatch):
    game = parse_spec("chopsticks(fingers=20)")
    needed = limits.estimate(game).bytes
    monkeypatch.setenv("GAMEGRAPH_MEMORY", str(needed - 1))
    with pytest.raises(GraphTooLarge, match="memory budget") as refused:
        build(game)
    assert limits.human_bytes(needed) in str(refused.value) and "GAMEGRAPH_MEMORY" in str(refused.value)
    monkeypatch.setenv("GAMEGRAPH_MEMORY", str(needed))
    assert build(game).graph.num_positions <= game.estimate_positions()


def test_a_game_too_large_for_the_machine_gets_one_clear_message(monkeypatch):
    monkeypatch.setattr(limits, "available_memory", lambda: 10 * 2 ** 20)
    with pytest.raises(GraphTooLarge, match=r"more than the 10\.0 MB of memory this machine has available"):
        build("chopsticks(fingers=30)")


def test_the_estimate_of_memory_bounds_the_measured_peak():
    """The memory model (BYTES_PER_ITEM) holds for a real build, measured with tracemalloc (numpy reports to it)."""
    import tracemalloc

    game = parse_spec("chopsticks(fingers=16)")
    tracemalloc.start()
    try:
        build(game)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= limits.estimate(game).bytes


def test_a_game_without_an_estimate_falls_back_to_the_generation_limit(monkeypatch):
    monkeypatch.setattr(Chopsticks, "estimate_positions", lambda self, symmetry=True: None)
    assert limits.estimate(parse_spec("chopsticks"), True) is None
    with pytest.raises(GraphTooLarge, match="more than 100 positions"):
        build("chopsticks", max_positions=100)


@pytest.mark.parametrize("text, expected", [("4G", 4 * 2 ** 30), ("512M", 512 * 2 ** 20), ("1.5GiB", int(1.5 * 2 ** 30)),
                                            ("1000", 1000), (" 2 gb ", 2 * 2 ** 30), ("3k", 3072)])
def test_memory_sizes_parse(text, expected):
    assert limits.parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "-1G", "0", "4X", "1e9"])
def test_bad_memory_sizes_name_the_value(text):
    with pytest.raises(InvalidParameter, match="GAMEGRAPH_MEMORY"):
        limits.parse_size(text)


def test_cli_refuses_huge_chopsticks_in_one_line_with_estimate_and_limit(tmp_path):
    env = {"GAMEGRAPH_HOME": str(tmp_path), "GAMEGRAPH_PROGRESS": "0", "PATH": "/usr/bin:/bin"}
    for args in (["solve", "chopsticks(fingers=99)"], ["solve", "chopsticks(fingers=99)", "--max-positions", "3000000"],
                 ["show", "chopsticks(fingers=99)"], ["export", "chopsticks(fingers=99)", "-o", str(tmp_path / "x")]):
        out = subprocess.run([sys.executable, "-m", "explorer.cli", *args], capture_output=True, text=True, env=env,
                             timeout=120)
        assert out.returncode == 2, (args, out.stderr)
        line, = out.stderr.strip().splitlines()
        assert "48,995,100 positions" in line and "limit of" in line and "Traceback" not in line
    assert not (tmp_path / "x").exists()


def test_solve_checks_every_variant_before_building_any(tmp_path, monkeypatch):
    """`solve` builds the reduced and the full graph: a full graph over the limit is refused before the reduced one is built."""
    from explorer.solved import storage as solved  # where solve builds
    from explorer.commands import core

    game = parse_spec("chopsticks(fingers=12)")
    limit = game.estimate_positions(True) + 1  # the reduced graph fits, the full one does not
    built = []
    monkeypatch.setattr(solved, "build", lambda *a, **k: built.append(a) or pytest.fail("built before refusing"))
    from argparse import Namespace
    with pytest.raises(GraphTooLarge, match=f"limit of {limit:,} positions"):
        core.cmd_solve(Namespace(spec=game.id, start=None, no_symmetry=False, max_positions=limit, format="json",
                                 implicit=False, tiered=False, scheduler=None, workers=None))
    assert not built


def test_an_address_space_limit_counts_as_the_memory_available(tmp_path):
    """`ulimit -v` (item 11 of issue 8: chopsticks(fingers=60) under a 6 GB limit): refused from the estimate,
    in one line, instead of a numpy out-of-memory traceback."""
    env = {"GAMEGRAPH_HOME": str(tmp_path), "GAMEGRAPH_PROGRESS": "0", "PATH": "/usr/bin:/bin"}
    script = f"ulimit -v 6000000; exec {sys.executable} -m explorer.cli solve 'chopsticks(fingers=60)'"
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2, out.stderr
    line, = out.stderr.strip().splitlines()
    assert "of memory this machine has available" in line and "positions" in line
    script = ("ulimit -v 3000000; exec " + sys.executable +
              " -c 'from explorer.core import limits; print(limits.available_memory())'")
    left = int(subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=60).stdout)
    assert 0 < left < 3_000_000 * 1024
