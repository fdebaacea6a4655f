"""The implicit-graph mode: rankings, un-moves and compiled kernels against the rules, and
the compiled retrograde solver against the edge-based solver, position by position."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer import implicit
from explorer.cli import main
from explorer.games import parse_spec
from explorer.games.chopsticks.rules import Chopsticks, ChopsticksParams
from explorer.solved import build
from explorer.core.values import Value
from tests.support import edge_solves

CHOPSTICKS = [f"chopsticks:{preset}" for preset in Chopsticks.presets]
SMALL = CHOPSTICKS + ["chopsticks(fingers=3)", "chopsticks:rollover(fingers=4,swaps=true)",
                      "chopsticks:magic-fingers(fingers=4,swaps=true,attack_dead=true)",
                      "chopsticks:even-split(fingers=7,attack_dead=true)", "dodgem:3x3", "dodgem(size=2)"]


@functools.cache
def kernel_tables(spec: str):
    """Per index of the game: successors, predecessors, move count, terminal value, validity,
    all from the compiled kernels."""
    game = parse_spec(spec)
    k = game.implicit_kernels()
    out = np.empty(max(k.max_moves, k.max_unmoves), dtype=np.int64)
    labels = np.empty(k.max_moves, dtype=np.int64)
    rows = []
    for i in range(k.size):
        count = k.successors(k.ctx, i, out)
        succ = list(out[:count])
        assert k.labelled_successors(k.ctx, i, out, labels) == count and list(out[:count]) == succ
        count = k.predecessors(k.ctx, i, out)
        rows.append((succ, list(out[:count]), k.move_count(k.ctx, i), k.terminal(k.ctx, i), k.valid(k.ctx, i)))
    return rows


def brute_force_unmoves(game) -> dict[int, set[int]]:
    """Predecessors from forward moves over every legal unfinished position: {index: {index}}."""
    preds: dict[int, set[int]] = {i: set() for i in range(game.index_space())}
    for i in range(game.index_space()):
        if not game.is_valid_index(i):
            continue
        p = game.unrank(i)
        if game.outcome(p) is not None:
            continue
        for move in game.moves(p):
            preds[game.rank(move.position)].add(i)
    return preds


@pytest.mark.parametrize("spec", SMALL)
def test_ranking_round_trips(spec):
    game = parse_spec(spec)
    for i in range(game.index_space()):
        position = game.unrank(i)
        assert game.rank(position) == i
        if game.is_valid_index(i):
            assert game.parse(game.format(position)) == position
    assert 0 <= game.rank(game.start()) < game.index_space()


@pytest.mark.parametrize("spec", SMALL)
def test_unmoves_are_exactly_the_inverse_of_moves(spec):
    """Python un-moves against a brute force over forward moves, for every index."""
    game = parse_spec(spec)
    expected = brute_force_unmoves(game)
    for i in range(game.index_space()):
        if not game.is_valid_index(i):
            continue
        got = [game.rank(p) for p in game.unmoves(game.unrank(i))]
        assert len(got) == len(set(got)), f"{spec}: repeated un-moves of {game.format(game.unrank(i))}"
        assert set(got) == expected[i], (
            f"{spec}: un-moves of {game.format(game.unrank(i))}: extra "
            f"{[game.format(game.unrank(x)) for x in set(got) - expected[i]]}, missing "
            f"{[game.format(game.unrank(x)) for x in expected[i] - set(got)]}")


@pytest.mark.parametrize("spec", SMALL)
def test_kernels_equal_the_rules(spec):
    """Compiled successors, un-moves, move counts, terminal values and validity, index by index."""
    game = parse_spec(spec)
    expected_preds = brute_force_unmoves(game)
    for i, (succ, preds, count, terminal, valid) in enumerate(kernel_tables(spec)):
        assert valid == game.is_valid_index(i)
        if not valid:
            continue
        position = game.unrank(i)
        outcome = game.outcome(position)
        assert terminal == (-1 if outcome is None else int(outcome)), game.format(position)
        moves = list(dict.fromkeys(game.rank(m.position) for m in game.moves(position))) if outcome is None else []
        assert succ == moves, game.format(position)
        assert count == len(moves), game.format(position)
        assert len(preds) == len(set(preds)) and set(preds) == expected_preds[i], game.format(position)


@functools.cache
def implicit_solution(spec: str, tmp_root: str):
    from pathlib import Path
    game = parse_spec(spec)
    return implicit.solve(game, Path(tmp_root) / spec.replace(":", "-"))


def assert_same_as_edge_solve(game, result, spec: str | None = None) -> None:
    """Every position of the edge solve (the rules' own moves, generated in Python) has the value file's value
    and remoteness; every position of the symmetry-reduced graph its value. With `spec` (the game's), the edge
    solves are the process's shared ones (tests/support/edge_solves.py)."""
    solved = edge_solves.plain(spec) if spec else build(game, symmetry=False, use_arrays=False)
    same_at_every_position(game, result, solved, remoteness=True)
    # The symmetry-reduced graph agrees too, through canonical forms.
    if game.has_symmetry():
        reduced = edge_solves.reduced(spec) if spec else build(game, symmetry=True)
        same_at_every_position(game, result, reduced, remoteness=False)


EVERY_CALL_UP_TO = 20_000  # positions; a larger graph has value() and remoteness() called on a sample


def same_at_every_position(game, result, solved, remoteness: bool) -> None:
    """At every node of `solved`, the value file's value (and remoteness) at the position's index, as the file's
    own `index` finds it (the rules' rank, folded as the file is): the two solvers' arrays compared in one go.
    The file's `value` and `remoteness`, which read the same index and only name what they read, are called on
    every position of a graph of up to EVERY_CALL_UP_TO positions and on every 97th of a larger one: one call
    took 0.3 ms, 66 s on connect4:small's 161,029 + 80,000 positions, for nothing the arrays do not check."""
    graph = solved.graph
    positions = [graph.position(node) for node in range(graph.num_positions)]
    at = np.fromiter((result.index(p) for p in positions), dtype=np.int64, count=len(positions))
    wrong = np.asarray(result.values)[at] != solved.solution.value
    if remoteness:
        wrong |= np.asarray(result.remoteness_array)[at].astype(np.int64) != solved.solution.remoteness
    assert not wrong.any(), f"{game.display_name}: {game.format(positions[int(np.argmax(wrong))])}"
    step = 1 if len(positions) <= EVERY_CALL_UP_TO else 97
    for node in range(0, len(positions), step):
        position = positions[node]
        if remoteness:
            assert (result.value(position), result.remoteness(position)) == \
                (solved.value(node), solved.remoteness(node)), f"{game.display_name}: {game.format(position)}"
        else:
            assert result.value(position) == solved.value(node), f"{game.display_name}: {game.format(position)}"


@pytest.mark.parametrize("spec", SMALL)
def test_implicit_solve_equals_edge_solve(spec, tmp_path_factory):
    game = parse_spec(spec)
    result = implicit.solve(game, tmp_path_factory.mktemp("vf") / "v")
    assert_same_as_edge_solve(game, result, spec)
    assert result.meta["start"]["value"] == str(edge_solves.reduced(spec).value(0))
    assert sum(result.meta["counts"].values()) == result.meta["positions"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fingers=st.integers(2, 6), overflow=st.sampled_from(["cutoff", "rollover"]), attack_dead=st.booleans(),
       split=st.sampled_from(["none", "even", "transfer"]), suicide=st.booleans(), swaps=st.booleans())
def test_implicit_equals_edge_solve_on_drawn_chopsticks(tmp_path_factory, fingers, overflow, attack_dead, split,
                                                        suicide, swaps):
    game = Chopsticks(ChopsticksParams(fingers=fingers, overflow=overflow, attack_dead=attack_dead, split=split,
                                       suicide=suicide, swaps=swaps))
    k = game.implicit_kernels()
    out = np.empty(k.max_unmoves, dtype=np.int64)
    expected = brute_force_unmoves(game)
    for i in range(k.size):
        if k.valid(k.ctx, i):
            count = k.predecessors(k.ctx, i, out)
            assert sorted(out[:count]) == sorted(expected[i]), game.format(game.unrank(i))
            assert k.move_count(k.ctx, i) == len({m.position for m in game.moves(game.unrank(i))})
    result = implicit.solve(game, tmp_path_factory.mktemp("vf") / "v")
    assert_same_as_edge_solve(game, result)


def test_value_file_answers_positions_moves_and_lines(tmp_path):
    game = parse_spec("chopsticks")
    result = implicit.solve(game, tmp_path / "v")
    solved = build(game, symmetry=False)
    start = game.start()
    assert result.record(start)["value"] == str(solved.value(0))
    edge_moves = {(m["label"], m["to"], m["value"], m["remoteness"], m["optimal"]) for m in solved.moves(0)}
    assert {(m["label"], m["to"], m["value"], m["remoteness"], m["optimal"]) for m in result.moves(start)} == edge_moves
    winning = max((v for v in range(solved.graph.num_positions) if solved.value(v) == Value.WIN),
                  key=solved.remoteness)
    line = result.best_line(solved.graph.position(winning), limit=1000)
    assert line[0]["value"] == "win" and line[-1]["terminal"] and line[0]["remoteness"] >= 3
    assert [r["remoteness"] for r in line] == list(range(line[0]["remoteness"], -1, -1))
    reopened = implicit.open_value_file(game, tmp_path / "v")
    assert reopened.value(start) == result.value(start)


def test_cli_solve_implicit_and_show(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path))
    assert main(["show", "dodgem", "--implicit"]) == 2
    assert "no value file" in capsys.readouterr().err
    assert main(["solve", "dodgem", "--implicit", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["start"]["value"] == "win" and report["positions"] == 2846
    assert main(["show", "dodgem", "B|b../.b./.rr", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    game = parse_spec("dodgem")
    edge = build(game, symmetry=False)
    node = edge.graph.find("B|b../.b./.rr")
    assert shown["value"] == str(edge.value(node)) and shown["remoteness"] == edge.remoteness(node)
    assert sorted(m["to"] for m in shown["moves"]) == sorted(m["to"] for m in edge.moves(node))
    assert shown["source"] == "value file"
    assert main(["show", "dodgem", "B|b../.b./.rr"]) == 0
    text = capsys.readouterr().out
    assert f"player Red to move: {edge.value(node)} in {edge.remoteness(node)}" in text  # B| = Red to move
    assert all(m["label"] in text for m in edge.moves(node))
    assert main(["solve", "tictactoe", "--implicit"]) == 2
    assert "no implicit mode" in capsys.readouterr().err


def test_invalid_indices_are_marked(tmp_path):
    game = parse_spec("chopsticks(fingers=3)")
    result = implicit.solve(game, tmp_path / "v")
    invalid = [i for i in range(game.index_space()) if not game.is_valid_index(i)]
    assert invalid and all(result.values[i] == implicit.INVALID for i in invalid)
    assert result.meta["invalid_indices"] == len(invalid)
    assert Value(int(result.values[game.rank(game.start())])) == build(game).value(0)


def test_ui_page_reads_the_value_file(tmp_path, monkeypatch):
    """Games whose ranking exceeds the graph limit get the value-file page (limit lowered here)."""
    pytest.importorskip("streamlit")
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from explorer.ui import implicit_page

    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path))
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    monkeypatch.setattr(implicit_page, "LIMIT", 1000)
    app = str(Path(__file__).resolve().parents[2] / "explorer" / "ui" / "app.py")
    at = AppTest.from_file(app, default_timeout=120)
    at.query_params["game"] = "dodgem:3x3"
    at.run()
    # Not solved yet: the usual page (which refuses a graph over its limit at once, with the estimate).
    assert not any("value file" in c.value for c in at.caption)
    implicit.solve(parse_spec("dodgem"))
    at = AppTest.from_file(app, default_timeout=120)
    at.query_params["game"] = "dodgem:3x3"
    at.query_params["pos"] = "B|b../.b./.rr"
    at.run()
    assert not at.exception and not at.error
    text = "\n".join(m.value for m in at.markdown)
    edge = build(parse_spec("dodgem"), symmetry=False)
    node = edge.graph.find("B|b../.b./.rr")
    value_lines = [m.value for m in at.markdown if "Value for" in m.value]  # the value once, as a badge
    assert len(value_lines) == 1 and f">{edge.value(node)} in {edge.remoteness(node)}</span>" in value_lines[0]
    for move in edge.moves(node):
        assert move["to"].replace("|", "\\|") in text


# -- the colour-swap fold (ImplicitKernels.folded) --------------------------------------------------
FOLDED = ["dobutsu:lions", "dobutsu:small", "dobutsu(giraffes=1,elephants=0,chicks=0)",
          "dobutsu(giraffes=0,elephants=0,chicks=1)"]  # Dōbutsu shōgi: the twin of index i is i + half


@pytest.mark.parametrize("spec", FOLDED)
def test_folded_kernels_equal_the_rules_on_every_index_of_the_half(spec):
    """The generic checks, folded: every index of the half against the rules, its successors and
    un-moves (also from a brute force over the whole ranking's moves) folded into the half; and
    the twin of every index of the whole ranking is the colour-swapped position, `size` apart."""
    game = parse_spec(spec)
    k = game.implicit_kernels()
    assert k.folded and 2 * k.size == game.index_space()
    for i in range(game.index_space()):
        position = game.unrank(i)
        assert game.rank(game.swap_players(position)) == (i + k.size) % game.index_space()
        assert k.fold_index(i) == i % k.size
    expected = brute_force_unmoves(game)
    out = np.empty(max(k.max_moves, k.max_unmoves), dtype=np.int64)
    for i in range(k.size):
        position = game.unrank(i)
        outcome = game.outcome(position)
        assert k.valid(k.ctx, i) and k.terminal(k.ctx, i) == (-1 if outcome is None else int(outcome))
        moves = list(dict.fromkeys(k.fold_index(game.rank(m.position)) for m in game.moves(position)))
        count = k.successors(k.ctx, i, out)
        assert list(out[:count]) == moves and k.move_count(k.ctx, i) == len(moves), game.format(position)
        count = k.predecessors(k.ctx, i, out)
        preds = list(out[:count])
        assert len(preds) == len(set(preds)), game.format(position)
        assert set(preds) == {k.fold_index(p) for p in expected[i]}, game.format(position)
        assert all(0 <= x < k.size for x in moves + preds)


def test_a_folded_value_file_holds_the_half_and_answers_both_twins(tmp_path):
    game = parse_spec("dobutsu:small")
    result = implicit.solve(game, tmp_path / "v")
    half = game.index_space() // 2
    assert result.meta["index_space"] == half and len(result.values) == half == len(result.remoteness_array)
    for i in range(0, half, 97):
        position = game.unrank(i)
        if result.values[i] == implicit.INVALID:
            continue
        twin = game.swap_players(position)
        assert result.index(twin) == result.index(position) == i
        assert result.record(twin)["value"] == result.record(position)["value"]
        assert result.remoteness(twin) == result.remoteness(position)
    # A range over the whole ranking (a tiered solve) is refused: the kernels cover the half only.
    from explorer.core.errors import GameGraphError
    from explorer.kernels.retrograde import no_seeds

    with pytest.raises(GameGraphError, match="folded"):
        implicit.solve_range(game, game.implicit_kernels(), 0, game.index_space(), *no_seeds())


def test_the_range_solve_reports_its_progress_at_its_own_steps(monkeypatch):
    """solve_range's `report` is called between the loop's steps (`step` entries at most): many times with small
    steps, never backwards, the bar moved by the same counts, the cells those of one big step; and it ends
    within one chunk of the positions decided, each of which passes a queue once (the ties' queue starting
    again at 0 must not have its last head counted twice at the end)."""
    from contextlib import contextmanager

    from explorer.core import progress
    from explorer.kernels.retrograde import CHUNK, LOSS, PARALLEL_UNMOVES, TIE, WIN, no_seeds

    game = parse_spec("connect4(width=4,height=3)")
    kernels = game.implicit_kernels()
    assert kernels.max_unmoves < PARALLEL_UNMOVES  # the loop works CHUNK entries at a time
    whole = implicit.solve_range(game, kernels, 0, kernels.size, *no_seeds())
    moved = []

    class Bar:
        def update(self, n):
            moved.append(n)

    @contextmanager
    def bar(description, total=None, unit="pos"):
        yield Bar()

    monkeypatch.setattr(progress, "bar", bar)
    said: list[int] = []
    stepped = implicit.solve_range(game, kernels, 0, kernels.size, *no_seeds(), report=said.append, step=CHUNK)
    assert np.array_equal(whole, stepped)
    codes = whole & 7
    ties = int(np.count_nonzero(codes == TIE))
    decided = int(np.count_nonzero((codes == WIN) | (codes == LOSS))) + ties
    assert ties > 4 * CHUNK  # the ties' queue takes several steps: a head counted twice would show
    assert len(said) > 10 and said == sorted(said) and min(moved) >= 0
    assert sum(moved) == said[-1]
    assert decided - CHUNK <= said[-1] <= decided, (decided, said[-1])


# -- the walk from the start (implicit.reachable) -------------------------------------------------
@pytest.mark.parametrize("spec", ["dodgem:3x3", "chopsticks", "chopsticks:magic-fingers", "dobutsu:lions",
                                  "dobutsu:small", "connect4:small", "teeko:small"])
def test_reachable_walk_equals_the_edge_graph(spec, tmp_path):
    """The compiled walk over the kernels finds exactly the edge graph's positions (folded into the
    half for a folded game), their depth, and with the value file their values and finished ones."""
    game = parse_spec(spec)
    k = game.implicit_kernels()
    if game.index_space() > 40_000_000:
        pytest.skip("ranking too large for a quick test")
    solved = edge_solves.plain(spec)
    graph = solved.graph
    index_of = {node: k.fold_index(game.rank(graph.position(node))) for node in range(graph.num_positions)}
    expected = {}
    for node, index in index_of.items():
        expected.setdefault(index, node)  # twins share their value and remoteness: either will do
    walk = implicit.reachable(game, implicit.solve(game, tmp_path / "v"))
    assert walk["positions"] == len(expected)
    names = {v.name.lower(): v for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}
    for name, value in names.items():
        assert walk["counts"][name] == sum(solved.value(n) == value for n in expected.values()), name
        assert walk["finished"][name] == sum(solved.value(n) == value and solved.remoteness(n) == 0
                                             for n in expected.values()), name
    # The depth: the longest of the shortest paths from the start, by a plain breadth-first search.
    depth, level, seen = 0, [0], {index_of[0]}
    while True:
        following = []
        for node in level:
            for successor in graph.successors(node):
                if index_of[successor] not in seen:
                    seen.add(index_of[successor])
                    following.append(successor)
        if not following:
            break
        depth, level = depth + 1, following
    assert walk["depth"] == depth


def test_reachable_refuses_another_games_value_file(tmp_path):
    from explorer.core.errors import GameGraphError

    other = implicit.solve(parse_spec("dodgem(size=2)"), tmp_path / "v")
    with pytest.raises(GameGraphError, match="not"):
        implicit.reachable(parse_spec("dodgem:3x3"), other)


@pytest.mark.parametrize("spec", ["dobutsu:lions", "dobutsu:small", "dobutsu(giraffes=0,elephants=0,chicks=1)"])
def test_reachable_counts_the_positions_a_mirror_leaves_in_place(spec):
    """Dōbutsu shōgi's compiled mirror (its kernels' `mirrored`) against the notation read backwards
    rank by rank, and the walk's fixed points against the edge graph's mirror-symmetric positions."""
    from explorer.games.dobutsu.kernels import mirrored

    game = parse_spec(spec)
    k = game.implicit_kernels()

    def mirror(position):
        mover, rest = game.format(position).split("|")
        parts = rest.split("/")
        return game.parse(mover + "|" + "/".join([parts[0], *(rank[::-1] for rank in parts[1:-1]), parts[-1]]))

    graph = edge_solves.plain(spec).graph
    reachable_indices, fixed = set(), set()
    for node in range(graph.num_positions):
        position = graph.position(node)
        index = k.fold_index(game.rank(position))
        image = k.fold_index(game.rank(mirror(position)))
        assert mirrored(k.ctx, index) == image, game.format(position)
        reachable_indices.add(index)
        if image == index:
            fixed.add(index)
    walk = implicit.reachable(game, image=mirrored)
    assert walk["positions"] == len(reachable_indices)
    assert walk["fixed"]["positions"] == len(fixed) > 0
    assert (walk["positions"] + len(fixed)) % 2 == 0  # Burnside: orbits of one or two positions


# -- the value file at rest: compact (explorer.core.valuestore), the format before still read -------------

def _old_format_copy(values: "implicit.ValueFile", folder):
    """`values`' folder as the format before wrote it: value.npy (int8) and remoteness.npy (int16 or int32)
    memory-mapped, meta.json without `storage`; no compact file."""
    import shutil

    folder.mkdir(mode=0o700)
    np.save(folder / "value.npy", np.asarray(values.values))
    np.save(folder / "remoteness.npy", np.asarray(values.remoteness_array))
    meta = dict(values.meta)
    meta.pop("storage")
    (folder / "meta.json").write_text(json.dumps(meta))
    shutil.copymode(values.folder / "meta.json", folder / "meta.json")
    return folder


@pytest.fixture(scope="module")
def dodgem_4x4(tmp_path_factory) -> "implicit.ValueFile":
    """Dodgem 4x4's value file, solved once for the three tests below, which only read it (each used to
    solve it again: three identical solves). The two that test the format before copy it elsewhere first."""
    return implicit.solve(parse_spec("dodgem:4x4"), tmp_path_factory.mktemp("dodgem-4x4") / "v")


def test_a_value_file_is_stored_compressed_and_reads_position_by_position(dodgem_4x4):
    """solve writes one compact value file (zstd chunks of 65,536), no .npy: Dodgem 4x4 in under half a
    byte a position, and every position reads back the edge solver's value and remoteness."""
    from explorer.core import valuestore

    game, values = dodgem_4x4.game, dodgem_4x4
    assert sorted(p.name for p in values.folder.iterdir()) == ["meta.json", implicit.CODES_FILE]
    store = valuestore.open(values.folder / implicit.CODES_FILE)
    assert (store.codec, store.chunk_size, store.dtype) == ("zstd", valuestore.RANDOM_ACCESS_CHUNK, np.uint16)
    assert store.file_bytes / game.index_space() <= 0.5
    solved = build(game, symmetry=False)
    codes = solved.graph.codes
    assert np.array_equal(np.asarray(values.values)[codes], solved.solution.value)
    assert np.array_equal(values.remoteness_array[codes].astype(np.int32), solved.solution.remoteness)
    for node in range(0, solved.graph.num_positions, 4999):
        position = solved.graph.position(node)
        assert (values.value(position), values.remoteness(position)) == (solved.value(node), solved.remoteness(node))
    every = np.asarray(values.values)
    assert values.meta["counts"] == {str(v): int(np.count_nonzero(every == v))
                                     for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}
    assert values.meta["invalid_indices"] == int(np.count_nonzero(every == implicit.INVALID))


def test_a_value_file_of_the_format_before_still_reads_and_is_compressed_once(dodgem_4x4, tmp_path, capsys):
    """A folder of value.npy + remoteness.npy answers as before; the next solve converts it (a note, no
    solve), and the compact file answers the same at every index."""
    game, new = dodgem_4x4.game, dodgem_4x4
    old_folder = _old_format_copy(new, tmp_path / "old")
    old = implicit.ValueFile(game, old_folder)
    assert old.store is None and isinstance(old.values, np.memmap)
    assert np.array_equal(np.asarray(old.values), np.asarray(new.values))
    assert np.array_equal(np.asarray(old.remoteness_array), np.asarray(new.remoteness_array))
    start = game.start()
    assert (old.value(start), old.remoteness(start), old.moves(start)) == \
        (new.value(start), new.remoteness(start), new.moves(start))
    capsys.readouterr()
    converted = implicit.solve(game, old_folder)
    assert "format before" in capsys.readouterr().err
    assert sorted(p.name for p in old_folder.iterdir()) == ["meta.json", implicit.CODES_FILE]
    assert converted.store is not None and converted.meta["storage"]["codec"] == "zstd"
    assert np.array_equal(np.asarray(converted.values), np.asarray(new.values))
    assert np.array_equal(np.asarray(converted.remoteness_array), np.asarray(new.remoteness_array))
    assert converted.meta["counts"] == new.meta["counts"]


def test_an_interrupted_compression_leaves_the_old_file_readable(dodgem_4x4, tmp_path, monkeypatch):
    """Stopped after a few chunks (Ctrl-C), the conversion leaves the old files as they were and no
    compact or partial file: the folder reads as before, and the next solve converts it."""
    game, new = dodgem_4x4.game, dodgem_4x4
    folder = _old_format_copy(new, tmp_path / "old")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    packed, calls = implicit._Packed.__getitem__, []

    def interrupted(self, where):
        calls.append(where)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return packed(self, where)

    monkeypatch.setattr(implicit._Packed, "__getitem__", interrupted)
    with pytest.raises(KeyboardInterrupt):
        implicit.solve(game, folder)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert np.array_equal(np.asarray(implicit.ValueFile(game, folder).values), np.asarray(new.values))
    monkeypatch.setattr(implicit._Packed, "__getitem__", packed)
    assert np.array_equal(np.asarray(implicit.solve(game, folder).remoteness_array), np.asarray(new.remoteness_array))
