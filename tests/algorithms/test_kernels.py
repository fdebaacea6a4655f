"""The compiled kernels against the plain versions they replace, on inputs the game tests do not reach."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import kernels
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


def random_game_graph(seed: int, n: int, degree: int = 4):
    """A random graph with terminal wins, losses and ties, long chains and many cycles."""
    rng = np.random.default_rng(seed)
    kinds = rng.choice(4, size=n, p=[0.9, 0.04, 0.03, 0.03])
    terminal = {u: (None, Value.LOSS, Value.WIN, Value.TIE)[k] for u, k in enumerate(kinds.tolist()) if k}
    edges = []
    for u in range(n):
        if u not in terminal:
            for v in rng.integers(max(0, u - 50), min(n, u + 50), size=int(rng.integers(1, degree + 1))).tolist():
                edges.append((u, v))
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


def test_cache_dir_falls_back_to_the_state_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    writable, locked = tmp_path / "pkg", tmp_path / "locked"
    writable.mkdir()
    locked.mkdir()
    locked.chmod(0o500)
    # The permission bits decide, as for an ordinary user (root's os.access says yes to everything).
    monkeypatch.setattr(kernels.os, "access", lambda path, mode: bool(os.stat(path).st_mode & 0o200))
    try:
        assert kernels.cache_dir(writable, locked / "numba") is None  # numba's own __pycache__ works
        assert kernels.cache_dir(locked / "pkg", writable / "numba") is None  # numba's user cache works
        assert kernels.cache_dir(locked / "pkg", locked / "numba") == tmp_path / "state" / "numba-cache"
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
        assert kernels.cache_dir(locked / "pkg", locked / "numba") is None  # the user's choice stands
    finally:
        locked.chmod(0o700)


def test_kernels_run_from_a_fresh_cache_folder(tmp_path):
    """A fresh install: an empty cache folder is filled on first use and reused by the next process."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "GAMEGRAPH_PROGRESS": "0"}
    script = ("from explorer.solved import build; s = build('chopsticks'); "
              "print(s.graph.num_positions, str(s.value(0)), int(s.on_cycle.sum()))")
    root = Path(__file__).resolve().parents[2]
    first = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    assert any((tmp_path / "cache").rglob("*.nbi")), "numba wrote its index files"
    second = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0 and second.stdout == first.stdout
    assert first.stdout.split()[:2] == ["342", "draw"]
