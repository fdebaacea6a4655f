"""The compiled kernels against the plain versions they replace, on inputs the game tests do not reach."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games import parse_spec
from explorer.games.chopsticks.rules import Chopsticks, ChopsticksParams
from explorer.kernels import bfs, csr
from explorer.algorithms.reverse import reverse_csr_scipy
from explorer.algorithms.scc import scipy_strongly_connected
from explorer.solver import solve_levels
from explorer.solver import solve
from explorer.algorithms.scc import strongly_connected
from explorer.core.values import Value
from tests.support.brute_force import graph_from_edges


def random_game_graph(seed: int, n: int, degree: int = 4, hub: int = 0):
    """A random graph with terminal wins, losses and ties, long chains and many cycles; with `hub`, the
    first `hub` positions that are not over also move to position n // 2 (a position with many predecessors)."""
    rng = np.random.default_rng(seed)
    kinds = rng.choice(4, size=n, p=[0.9, 0.04, 0.03, 0.03])
    terminal = {u: (None, Value.LOSS, Value.WIN, Value.TIE)[k] for u, k in enumerate(kinds.tolist()) if k}
    edges = []
    for u in range(n):
        if u not in terminal:
            for v in rng.integers(max(0, u - 50), min(n, u + 50), size=int(rng.integers(1, degree + 1))).tolist():
                edges.append((u, v))
    edges += [(u, n // 2) for u in [u for u in range(n) if u not in terminal][:hub]]
    return graph_from_edges(n, edges, terminal)


@pytest.mark.parametrize("seed", range(3))
def test_solver_and_cycles_on_big_random_graphs(seed):
    graph = random_game_graph(seed, 60_000)
    ours, plain = solve(graph), solve_levels(graph)
    for name in ("value", "remoteness", "optimal"):
        assert np.array_equal(getattr(ours, name), getattr(plain, name)), name
    assert len(set(ours.value.tolist())) == 4, "all four values occur, so the case is not degenerate"
    labels, flags = strongly_connected(graph)
    theirs, their_flags = scipy_strongly_connected(graph)
    assert np.array_equal(flags, their_flags) and flags.any() and not flags.all()
    assert len(set(zip(labels.tolist(), theirs.tolist()))) == len(set(theirs.tolist()))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=4 * n))))
def test_reverse_is_scipys_transpose(case):
    n, edges = case
    graph = graph_from_edges(n, edges, {}, merge=False)
    indptr, indices = csr.reverse(graph.succ_indptr, graph.succ_indices)
    expected = reverse_csr_scipy(graph.num_positions, graph.succ_indptr, graph.succ_indices)
    assert indptr.dtype == np.int64 and indices.dtype == np.int32
    assert np.array_equal(indptr, expected[0]) and np.array_equal(indices, expected[1])


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 20).flatmap(lambda rows: st.tuples(st.just(rows), st.lists(st.integers(0, rows - 1), max_size=60))))
def test_group_by_source_is_a_stable_sort(case):
    rows, source = case
    starts, order = bfs.group_by_source(np.array(source, dtype=np.int64), rows)
    assert np.array_equal(order, np.argsort(np.array(source, dtype=np.int64), kind="stable"))
    assert np.array_equal(starts, np.concatenate([[0], np.cumsum(np.bincount(source, minlength=rows))]))


def plain_renumber(table_ids, codes, found, targets, edge_start):
    """bfs.renumber in plain Python: the level codes[found:] ordered by code, ids and this
    level's edges following them."""
    level = codes[found:]
    final = {code: found + r for r, code in enumerate(sorted(level))}
    by_old_id = {found + i: final[code] for i, code in enumerate(level)}
    table_ids = {**table_ids, **final}
    new_targets = targets[:edge_start] + [by_old_id.get(t, t) for t in targets[edge_start:]]
    return table_ids, codes[:found] + sorted(level), new_targets


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 6), st.integers(0, 12), st.data())
def test_renumber_orders_a_level_by_code_like_plain_python(found, new, data):
    """A level discovered in any order gets ids in code order, and the level's edges follow."""
    space = 40
    distinct = data.draw(st.lists(st.integers(0, space - 1), min_size=found + new, max_size=found + new, unique=True))
    edge_start = data.draw(st.integers(0, 5))
    targets = data.draw(st.lists(st.integers(0, max(found + new - 1, 0)), max_size=30)) if found + new else []
    table = np.full((space, 2), -1, dtype=np.int32)
    for i, code in enumerate(distinct):
        table[code, 0] = i  # discovery order
    edge_start = min(edge_start, len(targets))
    expected_ids, expected_codes, expected_targets = plain_renumber(
        {code: i for i, code in enumerate(distinct)}, distinct, found, targets, edge_start)
    codes = np.array(distinct + [7, 7], dtype=np.int64)  # room past the level stays untouched
    target_array = np.array(targets + [-5], dtype=np.int32)
    bfs.renumber(table, codes, found, np.sort(codes[found:found + new]), target_array, edge_start, len(targets))
    assert codes.tolist() == expected_codes + [7, 7]
    assert target_array.tolist() == expected_targets + [-5]
    assert {code: int(table[code, 0]) for code in distinct} == expected_ids
    assert (table[[c for c in range(space) if c not in set(distinct)], 0] == -1).all()


chopsticks_params = st.builds(
    ChopsticksParams, fingers=st.integers(2, 9), overflow=st.sampled_from(["cutoff", "rollover"]),
    attack_dead=st.booleans(), split=st.sampled_from(["none", "even", "transfer"]),
    suicide=st.booleans(), swaps=st.booleans())


@settings(max_examples=60, deadline=None)
@given(chopsticks_params, st.booleans())
def test_chopsticks_kernel_moves_equal_batch_moves(params, symmetry):
    """Every code of the space (legal or not): the same moves, labels and order per source,
    once repeated targets are dropped (the kernel drops some itself)."""
    game = Chopsticks(params)
    codes = np.arange(game.code_space(), dtype=np.int64)
    kernel = game.compiled_moves(codes, symmetry)
    batch = game.batch_moves(codes, symmetry)
    kernel_source = np.repeat(np.arange(len(codes)), np.diff(kernel.starts))
    assert (np.diff(kernel_source) >= 0).all()

    def first_moves(source, target, label):
        """[(source, target, label)] keeping the first move per (source, target), in order."""
        seen, kept = set(), []
        for move in zip(source.tolist(), target.tolist(), label.tolist()):
            if move[:2] not in seen:
                seen.add(move[:2])
                kept.append(move)
        return kept

    order = np.argsort(batch.source, kind="stable")  # batch_moves lists template by template
    expected = first_moves(batch.source[order], batch.target[order], batch.label[order])
    assert first_moves(kernel_source, kernel.target, kernel.label) == expected
    if not symmetry:  # without symmetry the kernel drops nothing
        assert len(kernel.target) == len(batch.target)


@pytest.mark.slow  # among the slowest of the suite (bench/README.md, Test suite)
def test_kernels_run_from_a_fresh_cache_folder(tmp_path):
    """A fresh install: an empty cache folder is filled on first use and reused by the next process, which
    loads the kernel instead of compiling it again. One small kernel (csr.reverse, on Chopsticks' graph) takes
    the path every kernel of explorer/kernels takes through the cache; compiling all of Chopsticks' edge
    kernels here cost 29 s of CPU and checked no more of the cache (test_the_implicit_kernels_are_cached
    has a game's own kernels, the same way)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "GAMEGRAPH_PROGRESS": "0"}
    env.pop("GAMEGRAPH_KERNELS_FROM", None)  # chopsticks is small: solved on the plain path, reverse compiled
    script = ("import sys; from explorer.solved import build; from explorer.kernels import csr; "
              "s = build('chopsticks'); indptr, _ = csr.reverse(s.graph.succ_indptr, s.graph.succ_indices); "
              "print(s.graph.num_positions, str(s.value(0)), int(s.on_cycle.sum()), int(indptr[-1])); "
              "stats = csr.reverse.stats; "
              "open(sys.argv[1], 'w').write(f'{sum(stats.cache_hits.values())} {sum(stats.cache_misses.values())}')")
    root = Path(__file__).resolve().parents[2]
    first = subprocess.run([sys.executable, "-c", script, str(tmp_path / "first")], cwd=root, env=env,
                           capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    assert any((tmp_path / "cache").rglob("*.nbi")), "numba wrote its index files"
    assert (tmp_path / "first").read_text() == "0 1"  # compiled and stored
    second = subprocess.run([sys.executable, "-c", script, str(tmp_path / "second")], cwd=root, env=env,
                            capture_output=True, text=True, timeout=600)
    assert second.returncode == 0 and second.stdout == first.stdout
    assert (tmp_path / "second").read_text() == "1 0"  # loaded, not compiled again
    assert first.stdout.split()[:2] == ["342", "draw"]


# -- the one retrograde kernel: its cells, its threads, its cache ----------------------
def test_compare_and_swap_swaps_on_a_match_and_loses_no_update_between_threads():
    """bits.compare_and_swap, the cell update of the queue on two threads (retrograde._update_shared): it
    returns the element as it was and swaps only when that equals `expected`; millions of increments of
    four shared cells from every thread, each a read and then a swap tried again until it matches, add up
    exactly (plain `cells[p] += 1` lost 0.2% of them on two threads when this was written)."""
    from numba import njit, prange

    from explorer.kernels.bits import compare_and_swap

    @njit
    def once(cells, p, expected, new):
        return compare_and_swap(cells, p, expected, new)

    @njit(parallel=True)
    def increments(cells, rounds):
        for t in prange(rounds):
            p = t % len(cells)
            other = cells[p]
            while True:
                seen = compare_and_swap(cells, p, other, other + 1)
                if seen == other:
                    break
                other = seen

    cells = np.array([5, 7], dtype=np.uint16)
    assert once(cells, 0, 5, 9) == 5 and cells.tolist() == [9, 7]
    assert once(cells, 1, 6, 1) == 7 and cells.tolist() == [9, 7]  # no match: unchanged
    rounds = 8_000_000
    for dtype in (np.uint16, np.uint32):
        cells = np.zeros(4, dtype=dtype)
        increments(cells, rounds)
        assert cells.tolist() == [(rounds // 4) % (1 << (8 * cells.itemsize))] * 4


def _edge_kernel_and_plain(num_nodes, edges, terminal):
    from explorer.algorithms.retrograde import retrograde_levels
    from explorer.kernels.retrograde import retrograde

    graph = graph_from_edges(num_nodes, edges, terminal, merge=False)
    pred_indptr, pred_indices = graph.predecessors_csr
    args = (graph.succ_indptr, pred_indptr, pred_indices, graph.terminal)
    return retrograde(*args), retrograde_levels(*args)


def test_finished_positions_with_moves_keep_the_plain_semantics():
    """A finished position that still has moves (only hand-made graphs have them): a terminal win
    or loss stays what it is, a terminal tie becomes a win through a move to a loss, as in the
    plain solver; a dead end that is not finished is a draw."""
    edges = [(0, 1), (2, 1), (2, 3), (4, 0), (5, 5)]
    terminal = {0: Value.TIE, 1: Value.LOSS, 3: Value.WIN, 6: Value.TIE}
    (value, remoteness), (plain_value, plain_remoteness) = _edge_kernel_and_plain(8, edges, terminal)
    assert value.tolist() == plain_value.tolist() and remoteness.tolist() == plain_remoteness.tolist()
    assert [Value(int(v)) for v in value] == [Value.WIN, Value.LOSS, Value.WIN, Value.WIN, Value.LOSS,
                                             Value.DRAW, Value.TIE, Value.DRAW]


@pytest.mark.parametrize("length", [100, 9_000])
def test_remoteness_past_two_byte_cells(length):
    """A chain longer than a 2-byte cell's 8,191 moves: the kernel widens its cells and still
    agrees with the plain solver (and with the chain's own arithmetic)."""
    edges = [(u, u + 1) for u in range(length - 1)]
    (value, remoteness), (plain_value, plain_remoteness) = _edge_kernel_and_plain(length, edges, {length - 1: Value.LOSS})
    assert np.array_equal(value, plain_value) and np.array_equal(remoteness, plain_remoteness)
    assert remoteness[0] == length - 1 and remoteness.dtype == np.int32


def test_many_moves_past_two_byte_cells():
    """A position with more moves than a 2-byte cell counts (10,000): 4-byte cells, same answer."""
    hub = 10_000
    edges = [(hub, v) for v in range(hub)]
    (value, remoteness), (plain_value, plain_remoteness) = _edge_kernel_and_plain(
        hub + 1, edges, {v: Value.WIN for v in range(hub)})
    assert np.array_equal(value, plain_value) and np.array_equal(remoteness, plain_remoteness)
    assert Value(int(value[hub])) == Value.LOSS and remoteness[hub] == 1


_DIGEST = """
import hashlib, sys, tempfile
import numpy as np
from explorer import implicit
from explorer.games import parse_spec
from explorer.kernels.retrograde import retrograde
rng = np.random.default_rng(7)
h = hashlib.sha1()
for spec in sys.argv[1:]:
    vf = implicit.solve(parse_spec(spec), tempfile.mkdtemp() + "/v")
    h.update(np.asarray(vf.values).tobytes()); h.update(np.asarray(vf.remoteness_array).tobytes())
n = 50_000
succ = np.sort(rng.integers(0, n, size=4 * n)); indptr = np.searchsorted(succ, np.arange(n + 1))
targets = rng.integers(0, n, size=4 * n).astype(np.int32)
order = np.argsort(targets, kind="stable"); pred_indptr = np.searchsorted(targets[order], np.arange(n + 1))
sources = np.repeat(np.arange(n), np.diff(indptr)).astype(np.int32)
terminal = np.where(np.diff(indptr) == 0, rng.choice([0, 2, 3], size=n), -1).astype(np.int8)
value, remoteness = retrograde(indptr, pred_indptr, sources[order], terminal)
h.update(value.tobytes()); h.update(remoteness.tobytes())
import numba; print(numba.get_num_threads(), h.hexdigest())
"""


@pytest.mark.slow  # among the slowest of the suite (bench/README.md, Test suite)
def test_results_are_bit_identical_with_one_thread_and_with_two(tmp_path):
    """The passes that run on every core (initial cells, decoding) write only their own cells:
    one thread and two give the same bytes, in the implicit and the edge mode."""
    root = Path(__file__).resolve().parents[2]
    digests = {}
    for threads in ("1", "2"):
        env = {**os.environ, "NUMBA_NUM_THREADS": threads, "GAMEGRAPH_HOME": str(tmp_path / threads),
               "GAMEGRAPH_PROGRESS": "0", "GAMEGRAPH_KERNELS_FROM": "0"}
        run = subprocess.run([sys.executable, "-c", _DIGEST, "dodgem:4x4", "chopsticks:magic-fingers"], cwd=root,
                             env=env, capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stderr
        used, digest = run.stdout.split()
        digests[threads] = digest
        assert used == threads
    assert digests["1"] == digests["2"]


def _not_numbas(folder, names) -> list[str]:
    """shutil.copytree's ignore: every name but numba's index and data files."""
    return [name for name in names if not name.endswith((".nbi", ".nbc"))]


def shared_kernels_into(cache: Path) -> None:
    """Into the empty cache folder `cache` (a NUMBA_CACHE_DIR to be): this run's compiled kernels of explorer/kernels
    (the shared ones every game's solve calls: finish_cells, count_cells, ...) as the install's warm-up leaves them,
    and no game's own (none where nothing was compiled yet: all compile then). In the keyed folder a child finds
    there: the same kernel sources and numba make the same key."""
    import shutil

    warm = Path(os.environ["NUMBA_CACHE_DIR"])  # explorer.kernels' keyed folder (imported above: bfs, csr)
    if (warm / "explorer" / "kernels").is_dir():
        shutil.copytree(warm / "explorer" / "kernels", cache / warm.name / "explorer" / "kernels", ignore=_not_numbas)


def games_kernels_into(cache: Path, games: tuple[str, ...]) -> bool:
    """Into the cache folder `cache` (as `shared_kernels_into` leaves it): the compiled kernels of these games
    (explorer/games/<game>) that the run's cache holds, as the install's warm-up (explorer.kernels.warmup) or an
    earlier process of the run left them; False, copying nothing, when it holds none of one of them."""
    import shutil

    warm = Path(os.environ["NUMBA_CACHE_DIR"])
    folders = [warm / "explorer" / "games" / game for game in games]
    if not all(any(folder.glob("*.nbi")) for folder in folders):
        return False
    for folder in folders:
        shutil.copytree(folder, cache / warm.name / folder.relative_to(warm), dirs_exist_ok=True, ignore=_not_numbas)
    return True


@pytest.mark.slow  # among the slowest of the suite (bench/README.md, Test suite)
def test_the_implicit_kernels_are_cached(tmp_path):
    """A game's own wrappers of the one kernel (solve, moves_of, terminal_of) load from numba's
    cache in the next process instead of compiling again (issue 20: no compile tax): Dodgem's own
    solve, and the wrappers explorer.kernels.ranked builds from one template for each game (Dodgem's
    batch helpers, Chopsticks' solve), each game's filed apart (the same bytecode, other callees).

    Compiling them is most of the cost (Dodgem's solve alone 104 s of CPU, the whole test 216 s at load 7-14, issue 34),
    and another process has already paid it when the run's cache holds both games' kernels: the install's warm-up
    compiles every built-in game's (scripts/install), the suite's own process those its tests call. Then they are
    copied into a cache of the test's own and one fresh process must load all four (`1 1 1 1`): another process
    stored them, this one compiled none. Otherwise (no warm-up, or it stored other specialisations than these calls
    need) the test compiles them itself: the cache starts as an install leaves it for a game not compiled yet, the
    shared kernels of explorer/kernels in it (`shared_kernels_into`), none of either game's, so the first process
    compiles the games' wrappers it checks and not every shared kernel the solve calls besides (finish_cells,
    count_cells, ...: an empty folder is test_kernels_run_from_a_fresh_cache_folder's case), stores them (`0 0 0 0`)
    and the second loads them (`1 1 1 1`)."""
    script = ("import tempfile; from explorer import implicit; from explorer.games import parse_spec; "
              "game = parse_spec('dodgem:3x3'); k = game.implicit_kernels(); "
              "implicit.solve(game, tempfile.mkdtemp() + '/v'); k.batch_moves([0, 1]); k.batch_terminal([0, 1]); "
              "other = parse_spec('chopsticks:magic-fingers'); c = other.implicit_kernels(); "
              "implicit.solve(other, tempfile.mkdtemp() + '/v'); "
              "print(*(sum(f.stats.cache_hits.values()) for f in (k.solve, k.moves_of, k.terminal_of, c.solve)))")
    root = Path(__file__).resolve().parents[2]

    def run(cache: Path) -> subprocess.CompletedProcess:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "GAMEGRAPH_PROGRESS": "0",
               "GAMEGRAPH_HOME": str(tmp_path / "home")}
        return subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True,
                              timeout=900)

    stored_before = tmp_path / "stored-before"
    shared_kernels_into(stored_before)
    if games_kernels_into(stored_before, ("dodgem", "chopsticks")):
        loaded = run(stored_before)
        assert loaded.returncode == 0, loaded.stderr
        if loaded.stdout.split() == ["1", "1", "1", "1"]:
            return  # each loaded what another process stored
    shared_kernels_into(tmp_path / "cache")
    runs = [run(tmp_path / "cache") for _ in range(2)]
    assert all(done.returncode == 0 for done in runs), runs[0].stderr + runs[1].stderr
    assert runs[0].stdout.split() == ["0", "0", "0", "0"]  # compiled and stored
    assert runs[1].stdout.split() == ["1", "1", "1", "1"]  # loaded


def test_cached_wrappers_refuses_an_unknown_template_and_a_clashing_callee():
    """explorer.kernels.ranked.cached_wrappers names what it cannot make, and will not bind a template to a
    module whose `solve_cells` (a name the template reads) is something else."""
    from explorer.kernels.ranked import cached_wrappers

    with pytest.raises(ValueError, match="no wrapper template solv: choose among solve, forward"):
        cached_wrappers({"__name__": "mine", "__file__": __file__}, "solv")
    with pytest.raises(ValueError, match="mine binds solve_cells"):
        cached_wrappers({"__name__": "mine", "__file__": __file__, "solve_cells": len}, "solve")


@pytest.mark.parametrize("spec", ["dodgem:3x3", "chopsticks:magic-fingers", "chopsticks:rollover(fingers=4)"])
def test_the_solve_resumes_to_the_same_cells_whatever_its_steps(spec):
    """The implicit solve worked in steps (its progress kept in `state` between calls) ends in the
    same cells as in one call, however small the steps."""
    from explorer.kernels.retrograde import MORE, new_state, no_seeds

    kernels_of_game = parse_spec(spec).implicit_kernels()
    results = []
    for budget in (1, 7, 1000, kernels_of_game.size + 1):
        cells = np.empty(kernels_of_game.size, dtype=np.uint16)
        queue = np.empty(kernels_of_game.size, dtype=np.int32)
        state, calls = new_state(), 0
        while True:
            calls += 1
            status = kernels_of_game.solve(kernels_of_game.ctx, kernels_of_game.max_unmoves, cells, queue, state, budget,
                                           0, *no_seeds())
            if status != MORE:
                break
        assert status == 0
        results.append(cells)
        if budget == 1:
            assert calls > 10, "the steps were really taken (a step is at least one chunk of the queue)"
    assert all(np.array_equal(results[0], other) for other in results[1:])


def test_probably_cached_tells_a_compile_ahead(tmp_path, monkeypatch):
    """The first implicit solve says it compiles (a stranger waited 25 s in silence): the check
    behind that line is true once numba holds the function or its cache index, false before."""
    from explorer.kernels import probably_cached

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    source = tmp_path / "fresh_kernel.py"
    source.write_text("from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    module = importlib.import_module("fresh_kernel")
    assert not probably_cached(module.twice)  # never compiled anywhere: a call would compile
    assert module.twice(21) == 42
    assert probably_cached(module.twice)
    assert probably_cached(len)  # not numba at all: says nothing rather than 'compiling'


def _solve_in_mode(mode: str, spec: str, folder):
    """(value, remoteness) of one case of the 1-vs-2-thread test: the edge mode over a random graph, the
    implicit mode over a game's whole ranking, or the tiered mode tier by tier in this thread (a Dask
    worker thread would have numba's default threads, not the ones the test sets)."""
    from explorer import implicit, tiered
    from explorer.kernels.retrograde import retrograde

    if mode == "edge":
        return retrograde(*_thread_graph_args(spec))
    game = parse_spec(spec)
    if mode == "implicit":
        values = implicit.solve(game, folder)
        return np.array(values.values), np.array(values.remoteness_array)
    for t in tiered.check_tiers(game.tiers(), game.index_space()):
        tiered.solve_tier(game, t, folder)
    return tiered.TieredValues(game, folder, meta={}).arrays()


def _thread_graph_args(spec: str):
    """The edge case's random graph: `hub` a hub of PARALLEL_UNMOVES predecessors (big batches on one thread
    too) or `plain` (chunks on one thread, big batches on two); big enough that levels hold more than
    PARALLEL_MIN entries, loopy enough that all four values occur. A fresh copy of its arrays for each
    solve, so that no solve sees what another may have written into them."""
    return tuple(array.copy() for array in _thread_graph_arrays(spec))


@functools.cache
def _thread_graph_arrays(spec: str):
    """The arrays of `_thread_graph_args`, built once per case: random_game_graph of 200,000 positions is
    plain Python (9 s of CPU), and the test solves the same graph three times (one thread, two, the plain solver)."""
    from explorer.kernels.retrograde import PARALLEL_UNMOVES

    graph = random_game_graph(11, 200_000, degree=3, hub=PARALLEL_UNMOVES if spec == "hub" else 0)
    pred_indptr, pred_indices = graph.predecessors_csr
    return graph.succ_indptr, pred_indptr, pred_indices, graph.terminal


THREAD_CASES = [("edge", "hub"), ("edge", "plain"), ("implicit", "dodgem:4x4"),
                ("implicit", "dobutsu(giraffes=0,elephants=0,chicks=1)"), ("implicit", "chopsticks(fingers=17)"),
                ("tiered", "dodgem:4x4"), ("tiered", "connect4(width=4,height=4)")]


@pytest.mark.slow  # among the slowest of the suite (bench/README.md, Test suite)
@pytest.mark.parametrize("mode,spec", THREAD_CASES)
def test_the_retrograde_loop_is_bit_identical_on_one_thread_and_on_two(mode, spec, tmp_path):
    """The queue on every core (solve_cells: a batch of one remoteness of PARALLEL_MIN entries or more is
    split in stripes over the threads, each cell updated by a compare-and-swap, `_spread`, when numba has two
    threads; chunks or batches applied on one core with one): the same values and remoteness, byte for byte,
    with numba set to one thread and to two,
    in the edge, implicit and tiered modes; the edge mode's equal to the plain level-by-level solver's."""
    import numba

    from explorer.algorithms.retrograde import retrograde_levels
    from explorer.kernels.retrograde import PARALLEL_MIN

    before = numba.get_num_threads()
    results = {}
    try:
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
            numba.set_num_threads(threads)
            results[threads] = _solve_in_mode(mode, spec, tmp_path / str(threads))
    finally:
        numba.set_num_threads(before)
    assert numba.config.NUMBA_NUM_THREADS >= 2, "two threads to compare (NUMBA_NUM_THREADS)"
    (value, remoteness), (value_2, remoteness_2) = results[1], results[2]
    assert value.dtype == value_2.dtype and remoteness.dtype == remoteness_2.dtype
    assert np.array_equal(value, value_2) and np.array_equal(remoteness, remoteness_2)
    if mode == "implicit":  # the counts finish_cells takes on every core, as the values say, with any threads
        metas = [{k: v for k, v in json.loads((tmp_path / str(t) / "meta.json").read_text()).items() if k != "seconds"}
                 for t in (1, 2)]
        assert metas[0] == metas[1]
        assert metas[0]["counts"] == {name: int(np.count_nonzero(value == v))
                                      for name, v in (("win", 3), ("loss", 0), ("tie", 2), ("draw", 1))}
        assert metas[0]["max_remoteness"] == int(remoteness.max())
        assert metas[0]["invalid_indices"] == int(np.count_nonzero(value == -2))
    decided = remoteness >= 0
    assert np.bincount(remoteness[decided]).max() >= PARALLEL_MIN, "a level big enough for every core"
    if mode == "edge":
        plain_value, plain_remoteness = retrograde_levels(*_thread_graph_args(spec))
        assert len(set(plain_value.tolist())) == 4
        assert np.array_equal(value_2, plain_value) and np.array_equal(remoteness_2, plain_remoteness)


@pytest.mark.parametrize("size", [0, 1, 7, (1 << 20) - 1, (1 << 20) + 3, (5 << 20) + 1])
@pytest.mark.parametrize("dtype", [np.uint16, np.uint32])
def test_finish_cells_counts_the_finished_codes_as_summarize_does(size, dtype):
    """finish_cells (a solved range's open cells made draws, on every core) also returns what
    valuestore.summarize reads from the finished cells, the deepest remoteness and each code's count, which
    the implicit mode writes into meta.json without a second pass: equal to it across block boundaries."""
    from explorer.core import valuestore
    from explorer.kernels.retrograde import CODE_BITS, LOSS, NO_POSITION, OPEN, OPEN_TIE, TIE, WIN, finish_cells

    rng = np.random.default_rng(size)
    codes = rng.choice([LOSS, 1, TIE, WIN, OPEN, OPEN_TIE, NO_POSITION], size)
    payload = rng.integers(0, 1000, size) * np.isin(codes, [LOSS, TIE, WIN, OPEN])
    cells = ((payload << CODE_BITS) | codes).astype(dtype)
    deepest, counts = finish_cells(cells)
    assert not np.isin(cells & 7, [OPEN, OPEN_TIE]).any()
    assert (counts.tolist(), int(deepest)) == (list(valuestore.summarize(cells)[0]), valuestore.summarize(cells)[1])


@pytest.mark.parametrize("size", [0, 7, (1 << 20) + 3, (5 << 20) + 1])
@pytest.mark.parametrize("dtype", [np.uint16, np.uint32])
def test_a_tiers_summary_is_counted_on_every_core_as_summarize_counts(size, dtype, tmp_path):
    """explorer.tiered.files._summarize counts a finished tier's cells on every core (count_cells, over a read-only
    memory map as the tier's file is opened): the same counts and deepest remoteness with one thread and two, and
    as valuestore.summarize's, across block boundaries."""
    import numba

    from explorer.core import valuestore
    from explorer.kernels.retrograde import CODE_BITS, LOSS, NO_POSITION, TIE, WIN
    from explorer.tiered.files import _summarize

    rng = np.random.default_rng(size + 1)
    codes = rng.choice([LOSS, 1, TIE, WIN, NO_POSITION], size)
    payload = rng.integers(0, 1000, size) * np.isin(codes, [LOSS, TIE, WIN])
    ((payload << CODE_BITS) | codes).astype(dtype).tofile(tmp_path / "cells")
    cells = np.memmap(tmp_path / "cells", dtype=dtype, mode="r") if size else np.zeros(0, dtype)
    before = numba.get_num_threads()
    found = {}
    try:
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            found[threads] = _summarize(cells)
    finally:
        numba.set_num_threads(before)
    expected = valuestore.summarize(cells)
    assert found[1] == found[2] == (expected[0], expected[1])
    assert sum(found[1].codes) == size


@pytest.mark.parametrize("threads", [1, 2])
def test_a_large_first_level_is_read_from_the_cells_and_never_queued(threads):
    """A first level of more than 1/FIRST_LEVEL_QUEUED of the cells (Dōbutsu shōgi's: 85% of its indices, 5.3 GB
    of queue) is read from the cells by the loop (_scan_chunk) instead of being queued: the queue never holds
    it, and the cells are the ones a state of before (7 slots: every first level queued) gives."""
    import numba

    from explorer.kernels.retrograde import CODE_MASK, FIRST_LEVEL_QUEUED, LOSS, MORE, SCAN, WIN, new_state, no_seeds

    kernels = parse_spec("dobutsu(giraffes=0,elephants=0,chicks=1)").implicit_kernels()
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        results, first_queued, most_queued = [], [], []
        for state in (new_state(False), new_state(False)[:SCAN]):  # (Dōbutsu's own first pass works the level)
            cells, queue = np.empty(kernels.size, np.uint16), np.zeros(kernels.size, np.int32)
            budget, longest = 0, 0  # the first call stops with the first level ready
            while (status := kernels.solve(kernels.ctx, kernels.max_unmoves, cells, queue, state, budget, 0,
                                           *no_seeds())) == MORE:
                if budget == 0:
                    first_queued.append(int(state[2]))
                budget, longest = 1000, max(longest, int(state[2]) - int(state[1]))
            assert status == 0
            results.append(cells)
            most_queued.append(longest)
    finally:
        numba.set_num_threads(before)
    code, remoteness = results[1] & CODE_MASK, results[1] >> 3
    first_level = int(np.count_nonzero(((code == WIN) | (code == LOSS)) & (remoteness == 0)))
    assert first_level > kernels.size // FIRST_LEVEL_QUEUED, "a first level to read from the cells"
    assert np.array_equal(results[0], results[1])
    assert first_queued == [0, first_level]
    assert most_queued[0] < first_level


@pytest.mark.parametrize("size", [0, 1, 7, (1 << 20) - 1, (1 << 20) + 3, 5 << 20])
def test_count_values_counts_each_decoded_value_like_a_comparison_per_value(size):
    """count_values (the value file's counts, one compiled pass) equals numpy's comparison per value,
    across its block boundaries, and ignores values outside INVALID..WIN."""
    from explorer.kernels.retrograde import COUNTED_HIGH, COUNTED_LOW, count_values

    values = np.random.default_rng(size).integers(COUNTED_LOW - 3, COUNTED_HIGH + 4, size).astype(np.int8)
    expected = [int(np.count_nonzero(values == v)) for v in range(COUNTED_LOW, COUNTED_HIGH + 1)]
    assert count_values(values).tolist() == expected


def _sort_level_kernel():
    """retrograde._sort_level in a parallel wrapper of its own (it is inlined into solve_cells')."""
    from tests.algorithms import sort_level_kernel

    return sort_level_kernel.sort_level


@pytest.mark.parametrize("n", [5, 1 << 12, 1 << 20, (1 << 28) + 11, (1 << 31) - 1])
@pytest.mark.parametrize("parts", [1, 2, 3])
def test_sort_level_orders_a_level_by_its_top_bits_stably_with_any_number_of_parts(n, parts):
    """_sort_level (the next level of the queue in index order before it is worked) leaves the entries
    before `head` and the ones it does not own alone, and orders queue[head:tail] as a stable sort by the
    index's top 2 * SORT_DIGIT bits: the same entries, neighbours within 2 ** 11 in the order they were
    queued, and the same result with one stretch per thread or several. Without the scratch room after the
    tail it sorts nothing and says so."""
    from explorer.kernels.retrograde import SORT_DIGIT

    rng = np.random.default_rng(n + parts)
    head, size = 7, 50_000
    entries = rng.integers(0, n, size).astype(np.int32)
    queue = np.full(head + 2 * size + 3, -1, dtype=np.int32)
    queue[:head] = np.arange(head)
    queue[head:head + size] = entries
    assert _sort_level_kernel()(queue, head, head + size, n, parts)
    shift = max(0, int(n - 1).bit_length() - 2 * SORT_DIGIT)
    expected = entries[np.argsort(entries >> shift, kind="stable")]
    assert np.array_equal(queue[head:head + size], expected)
    assert np.array_equal(queue[:head], np.arange(head))
    assert (n > 1 << 20) == (not np.array_equal(expected, np.sort(entries)))  # only big ranges keep some order
    short = np.concatenate([np.arange(head), entries, np.zeros(size - 1)]).astype(np.int32)
    assert not _sort_level_kernel()(short, head, head + size, n, parts)
    assert np.array_equal(short[head:head + size], entries)
