"""The tiered solver (explorer/tiered.py): the one retrograde loop with seeds from child tiers
against the plain level-by-level solver on random tiered graphs (cycles inside tiers, moves into
several children), against the implicit mode and the edge solver on Dodgem, and on Dask."""

from __future__ import annotations

import random
import stat
from types import SimpleNamespace

import numpy as np
import pytest
from numba import njit

from explorer import implicit, tiered
from explorer.algorithms.retrograde import retrograde_levels
from explorer.core.errors import GameGraphError, InvalidParameter
from explorer.games import parse_spec
from explorer.games.base import ImplicitKernels, Tiers
from explorer.kernels.retrograde import forward_cells, implicit_initial, solve_cells
from explorer.core.values import Value


# -- a random tiered game: a graph packed into one int64 context array ---------------------------------
# ctx = [n, E, succ_indptr (n+1), pred_indptr (n+1), pred_indices (E), terminal (n), valid (n), succ_indices (E)]

@njit(inline="always")
def _pred_at(ctx):
    return 2 + ctx[0] + 1


@njit(inline="always")
def graph_predecessors(ctx, x, out):
    at = _pred_at(ctx)
    start, end = ctx[at + x], ctx[at + x + 1]
    base = at + ctx[0] + 1
    for k in range(start, end):
        out[k - start] = ctx[base + k]
    return end - start


@njit(inline="always")
def graph_move_count(ctx, x):
    return ctx[2 + x + 1] - ctx[2 + x]


@njit(inline="always")
def graph_terminal(ctx, x):
    return ctx[_pred_at(ctx) + ctx[0] + 1 + ctx[1] + x]


@njit(inline="always")
def graph_valid(ctx, x):
    return ctx[_pred_at(ctx) + ctx[0] + 1 + ctx[1] + ctx[0] + x] != 0


# The two loops below are cached like every kernel (explorer.kernels: in its keyed folder, whose name changes with
# retrograde.py's solve_cells and forward_cells, under tests/explorer): compiled in every run they took 80 and 26 s
# under load, in the first test of each kind (issue 34).
@njit(nogil=True, cache=True)
def graph_solve(ctx, max_unmoves, cells, queue, state, budget, lo, seeds, seed_runs):
    """The one loop compiled with the graph's kernels once for the module (as a game's kernels module does)."""
    return solve_cells(implicit_initial, graph_predecessors, graph_valid, graph_move_count, graph_terminal, ctx,
                       max_unmoves, cells, queue, state, budget, lo, seeds, seed_runs)


@njit(inline="always")
def graph_labelled_successors(ctx, x, out, labels):
    base = _pred_at(ctx) + ctx[0] + 1 + ctx[1] + 2 * ctx[0]
    start, end = ctx[2 + x], ctx[2 + x + 1]
    for k in range(start, end):
        out[k - start] = ctx[base + k]
        labels[k - start] = k - start
    return end - start


@njit(nogil=True, parallel=True, cache=True)
def graph_forward(ctx, max_moves, lo, cells, child_lo, child_cells, status):
    """The one-pass solve of a loop-free tier compiled with the graph's kernels."""
    return forward_cells(graph_labelled_successors, graph_valid, graph_terminal, ctx, max_moves, lo, cells, child_lo,
                         child_cells, status)


def _unused(*args):
    raise AssertionError("the tier solve needs no successors")


def random_tiered_graph(seed: int, loop_free: bool = False):
    """(successor lists, terminal values, valid, Tiers) of a random game: tiers of 1-14 positions, each
    with random earlier tiers as children; moves inside the tier (cycles) and into its children;
    finished wins, losses and ties; a few indices that are no position. With `loop_free`, about
    half the tiers have at most one child and no move inside, and are declared loop-free."""
    rng = random.Random(seed)
    count = rng.randint(1, 6)
    sizes = [rng.randint(1, 14) for _ in range(count)]
    offsets = [0]
    for size in sizes:
        offsets.append(offsets[-1] + size)
    children = [tuple(sorted(rng.sample(range(t), rng.randint(0, t)))) for t in range(count)]
    free = [loop_free and rng.random() < 0.5 for _ in range(count)]
    for t in range(count):
        if free[t]:
            children[t] = children[t][:1]
    n = offsets[-1]
    valid = [rng.random() > 0.07 for _ in range(n)]
    terminal = [-1] * n
    successors: list[list[int]] = [[] for _ in range(n)]
    for t in range(count):
        reach = [x for c in ((t, *children[t]) if not free[t] else children[t])
                 for x in range(offsets[c], offsets[c + 1]) if valid[x]]
        for x in range(offsets[t], offsets[t + 1]):
            if not valid[x]:
                continue
            if rng.random() < 0.25 or not reach:
                terminal[x] = rng.choice([Value.WIN, Value.LOSS, Value.TIE, Value.LOSS])
            else:
                successors[x] = rng.sample(reach, min(len(reach), rng.randint(1, 4)))
    tiers = Tiers(tuple(offsets), tuple(children), tuple(f"tier {t}" for t in range(count)),
                  tuple(free) if loop_free else ())
    return successors, terminal, valid, tiers


class GraphGame:
    """Just enough of a Game for explorer.tiered.solve_tier: kernels, tiers, a name."""

    name = display_name = id = "random-tiers"
    offers = SimpleNamespace(tiers=True, implicit_kernels=True)

    def __init__(self, successors, terminal, valid, tiers):
        n = len(successors)
        succ_indptr = np.cumsum([0] + [len(s) for s in successors])
        preds: list[list[int]] = [[] for _ in range(n)]
        for x, targets in enumerate(successors):
            for y in targets:
                preds[y].append(x)
        pred_indptr = np.cumsum([0] + [len(p) for p in preds])
        pred_indices = [p for ps in preds for p in ps]
        self.arrays = (succ_indptr, pred_indptr, np.array(pred_indices, dtype=np.int64),
                       np.array([int(t) for t in terminal], dtype=np.int8))
        ctx = np.array([n, len(pred_indices), *succ_indptr, *pred_indptr, *pred_indices,
                        *[int(t) for t in terminal], *[int(v) for v in valid], *[y for ys in successors for y in ys]],
                       dtype=np.int64)
        self._kernels = ImplicitKernels(
            ctx=ctx, size=n, max_moves=max([len(s) for s in successors] + [1]),
            max_unmoves=max([len(p) for p in preds] + [1]), successors=_unused,
            labelled_successors=graph_labelled_successors, predecessors=graph_predecessors,
            move_count=graph_move_count, terminal=graph_terminal, valid=graph_valid, solve=graph_solve,
            forward=graph_forward)
        self._tiers = tiers
        self.valid = np.array(valid)

    def implicit_kernels(self):
        return self._kernels

    def tiers(self):
        return self._tiers

    def index_space(self):
        return self._kernels.size


def solve_all_tiers(game, folder):
    for t in tiered.check_tiers(game.tiers(), game.index_space()):
        tiered.solve_tier(game, t, folder)
    return tiered.TieredValues(game, folder, meta={}).arrays()


@pytest.mark.parametrize("seed", range(300))
def test_random_tiered_graphs_equal_the_plain_solver(seed, tmp_path):
    """Every tier solved from its children's files (the seeds merged into the queue by remoteness)
    gives the plain level-by-level solver's value and remoteness on every position of the whole graph."""
    game = GraphGame(*random_tiered_graph(seed))
    value, remoteness = solve_all_tiers(game, tmp_path)
    expected_value, expected_remoteness = retrograde_levels(*game.arrays)
    ok = game.valid
    assert np.array_equal(value[ok], expected_value[ok])
    assert np.array_equal(remoteness[ok], expected_remoteness[ok])
    assert np.all(value[~ok] == implicit.INVALID)


@pytest.mark.parametrize("seed", range(200))
def test_loop_free_tiers_solved_forward_equal_the_plain_solver_and_the_loop(seed, tmp_path):
    """Tiers declared loop-free are solved in one pass over their successors (forward_cells): the
    plain solver's values, and byte for byte the tier files of the same graph solved by the loop."""
    successors, terminal, valid, tiers = random_tiered_graph(seed, loop_free=True)
    game = GraphGame(successors, terminal, valid, tiers)
    value, remoteness = solve_all_tiers(game, tmp_path / "forward")
    expected_value, expected_remoteness = retrograde_levels(*game.arrays)
    ok = game.valid
    assert np.array_equal(value[ok], expected_value[ok])
    assert np.array_equal(remoteness[ok], expected_remoteness[ok])
    solve_all_tiers(GraphGame(successors, terminal, valid, tiers._replace(loop_free=())), tmp_path / "loop")
    for path in sorted((tmp_path / "forward").glob("tier-*.values")):
        assert path.read_bytes() == (tmp_path / "loop" / path.name).read_bytes()


def test_the_random_graphs_have_loop_free_tiers_with_moves():
    """The loop-free variant really solves tiers forward that have moves (else the test above proves little)."""
    moving = 0
    for seed in range(200):
        successors, _, _, tiers = random_tiered_graph(seed, loop_free=True)
        for t, free in enumerate(tiers.loop_free):
            if free and tiers.children[t]:
                moving += sum(len(successors[x]) for x in range(tiers.offsets[t], tiers.offsets[t + 1]))
    assert moving > 500


@pytest.mark.parametrize("spec", ["connect4(width=4,height=3)", "teeko(size=3,pieces=3)"])
def test_loop_free_game_tiers_equal_the_implicit_mode(spec, tmp_path):
    """Connect Four (every tier loop-free) and Teeko (drop tiers loop-free, movement tier loopy):
    the tiered solve equals the one-tier implicit solve on every index."""
    game = parse_spec(spec)
    values = tiered.solve(game, tmp_path / "tiers", processes=False, workers=1)
    one = implicit.solve(game, tmp_path / "one")
    value, remoteness = values.arrays()
    assert np.array_equal(value, np.asarray(one.values))
    assert np.array_equal(remoteness, np.asarray(one.remoteness_array))


@pytest.mark.parametrize("seed", range(0, 300, 10))
def test_a_tier_solved_in_small_steps_gives_the_same_cells(seed, tmp_path, monkeypatch):
    """The solve stops after every chunk (its place, the seed cursor included, kept in `state`) and
    goes on: the same tier files as in one go."""
    game = GraphGame(*random_tiered_graph(seed))
    solve_all_tiers(game, tmp_path / "whole")
    monkeypatch.setattr(implicit, "QUEUE_STEP", 1)
    solve_all_tiers(game, tmp_path / "steps")
    for whole in sorted((tmp_path / "whole").glob("tier-*.values")):
        assert whole.read_bytes() == (tmp_path / "steps" / whole.name).read_bytes()


def test_the_random_graphs_use_the_seeds():
    """The random tiers really move into their children, with decided values there (else the test
    above would not exercise the merge)."""
    crossing = 0
    for seed in range(300):
        successors, terminal, valid, tiers = random_tiered_graph(seed)
        for t in range(len(tiers.names)):
            lo, hi = tiers.offsets[t], tiers.offsets[t + 1]
            crossing += sum(1 for x in range(lo, hi) for y in successors[x] if not lo <= y < hi)
    assert crossing > 1000


def _tiny_windows(monkeypatch, capacity: int) -> None:
    """Windows of `capacity` seeds, however many passes over the children that takes."""
    monkeypatch.setattr(tiered.worker, "SEED_WINDOW_MIN", capacity, raising=False)
    monkeypatch.setattr(tiered.worker, "SEED_WINDOW_SHARE", 1 << 40, raising=False)
    monkeypatch.setattr(tiered.worker, "SEED_WINDOW_PASSES", 1 << 40, raising=False)


@pytest.mark.parametrize("capacity", [1, 3])
@pytest.mark.parametrize("seed", range(0, 300, 3))
def test_seeds_in_tiny_windows_give_the_same_tier_files(seed, capacity, tmp_path, monkeypatch):
    """The children's seeds handed to the loop a few at a time (runs split across windows, the loop
    asking for the next one mid-phase): the plain solver's values, the same files as in one window."""
    game = GraphGame(*random_tiered_graph(seed))
    solve_all_tiers(game, tmp_path / "whole")
    _tiny_windows(monkeypatch, capacity)
    value, remoteness = solve_all_tiers(game, tmp_path / "windows")
    expected_value, expected_remoteness = retrograde_levels(*game.arrays)
    ok = game.valid
    assert np.array_equal(value[ok], expected_value[ok])
    assert np.array_equal(remoteness[ok], expected_remoteness[ok])
    for whole in sorted((tmp_path / "whole").glob("tier-*.values")):
        assert whole.read_bytes() == (tmp_path / "windows" / whole.name).read_bytes()


def _seed_order(children):
    """Every decided child position as (phase, remoteness, code order, child, index): the order the
    loop must see the seeds in, sorted plainly in Python (the reference for SeedWindows)."""
    rank = {int(Value.LOSS): 0, int(Value.WIN): 1, int(Value.TIE): 0}
    keys = []
    for c, (_, cells) in enumerate(children):
        for i, cell in enumerate(cells.tolist()):
            code, r = cell & 7, cell >> 3
            if code in rank:
                keys.append((int(code == Value.TIE), r, rank[code], c, i))
    return sorted(keys)


@pytest.mark.parametrize("seed", range(40))
def test_seed_windows_hand_out_every_decided_child_position_in_order(seed):
    """SeedWindows' windows, end to end, are the decided child positions in the loop's order; each
    holds at most its capacity, each run one remoteness, code and child; all but the last say
    another FOLLOWS; `first` starts over."""
    from explorer.kernels.retrograde import FOLLOWS, RUN_CODE, RUN_OFFSET, RUN_REMOTENESS, RUN_START, SeedWindows

    rng = np.random.default_rng(seed)
    children, offset = [], 0
    for _ in range(rng.integers(1, 4)):
        size = int(rng.integers(0, 300))
        codes = rng.choice([Value.LOSS, Value.DRAW, Value.TIE, Value.WIN, 6], size=size)
        remoteness = np.where((codes == Value.DRAW) | (codes == 6), 0, rng.integers(0, 6, size=size))
        children.append((offset, ((remoteness << 3) | codes).astype(np.uint16)))
        offset += size + int(rng.integers(0, 5))
    capacity = int(rng.integers(1, 40))
    windows = SeedWindows(children, capacity, most_windows=1 << 40)
    expected = _seed_order(children)
    assert windows.total == len(expected)
    for _ in range(2):  # the second time round after first()
        handed, (seeds, runs) = [], windows.first()
        while True:
            assert len(seeds) <= capacity and runs[-1, RUN_START] == len(seeds)
            for k in range(len(runs) - 1):
                c = [child_offset for child_offset, _ in children].index(runs[k, RUN_OFFSET])
                code, r = int(runs[k, RUN_CODE]), int(runs[k, RUN_REMOTENESS])
                for i in seeds[runs[k, RUN_START]:runs[k + 1, RUN_START]].tolist():
                    assert children[c][1][i] == (r << 3) | code
                    handed.append((int(code == Value.TIE), r, 0 if code != Value.WIN else 1, c, i))
            if runs[-1, RUN_CODE] != FOLLOWS:
                break
            seeds, runs = windows.next()
        assert windows.exhausted and handed == expected
        assert windows.windows == max(1, -(-len(expected) // capacity))


def test_a_loopy_tier_with_children_holds_one_window_of_seeds_not_a_list(tmp_path, monkeypatch):
    """The seeds of a loopy tier cost one window (4 bytes a seed of it), not 4 bytes a decided
    position of its children: the peak of the tier solve's traced allocations (numpy's arrays; the
    queue is anonymous memory of its own and not traced) stays far below the list the children's
    200,000 decided positions would make (800 kB)."""
    import shutil
    import tracemalloc

    rng = random.Random(5)
    child, size = 200_000, 1_000
    successors = [[] for _ in range(child)] + [rng.sample(range(child + size), 3) for _ in range(size)]
    terminal = [rng.choice([Value.WIN, Value.LOSS, Value.TIE]) for _ in range(child)] + [-1] * size
    tiers = Tiers((0, child, child + size), ((), (0,)), ("child", "loopy with a child"))
    game = GraphGame(successors, terminal, [True] * (child + size), tiers)
    capacity = 1024
    _tiny_windows(monkeypatch, capacity)
    tiered.solve_tier(game, 0, tmp_path / "warm")
    shutil.copytree(tmp_path / "warm", tmp_path / "measured")
    tiered.solve_tier(game, 1, tmp_path / "warm")  # compiles what the measured solve then only calls
    tracemalloc.start()
    try:
        tiered.solve_tier(game, 1, tmp_path / "measured")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    seed_list = 4 * child
    assert peak < 4 * capacity + 2 * size + 100_000 < seed_list / 2, peak
    value, remoteness = tiered.TieredValues(game, tmp_path / "measured", meta={}).arrays()
    expected_value, expected_remoteness = retrograde_levels(*game.arrays)
    assert np.array_equal(value, expected_value) and np.array_equal(remoteness, expected_remoteness)


def test_a_tier_is_written_owner_only_and_never_solved_twice(tmp_path):
    game = GraphGame(*random_tiered_graph(7))
    solve_all_tiers(game, tmp_path)
    files = sorted(tmp_path.glob("tier-*.values"))
    assert len(files) == len(game.tiers().names)
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    before = {f: f.stat().st_mtime_ns for f in files}
    again = [tiered.solve_tier(game, t, tmp_path) for t in range(len(files))]
    assert all(done["skipped"] for done in again)
    assert {f: f.stat().st_mtime_ns for f in files} == before


def test_a_tier_without_its_children_is_refused(tmp_path):
    seed = next(s for s in range(100) if random_tiered_graph(s)[3].children[-1])
    game = GraphGame(*random_tiered_graph(seed))
    with pytest.raises(GameGraphError, match="needs child tier"):
        tiered.solve_tier(game, len(game.tiers().names) - 1, tmp_path)


@pytest.mark.parametrize("tiers, message", [
    (Tiers((0, 5), ((),), ("a",)), "from 0 to the index space"),
    (Tiers((0, 6, 4, 10), ((), (), ()), ("a", "b", "c")), "must not decrease"),
    (Tiers((0, 5, 10), ((1,), (0,)), ("a", "b")), "cycle"),
    (Tiers((0, 5, 10), ((), (1,)), ("a", "b")), "no other tier"),
])
def test_bad_tiers_are_refused_in_one_line(tiers, message):
    with pytest.raises(GameGraphError, match=message):
        tiered.check_tiers(tiers, 10)


# -- real games ------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["dodgem:3x3", "dodgem:4x4", "chopsticks:magic-fingers"])
def test_tiered_equals_the_implicit_mode_position_by_position(spec, tmp_path):
    game = parse_spec(spec)
    values = tiered.solve(game, tmp_path / "tiers", workers=1, processes=False)
    reference = implicit.solve(game, tmp_path / "implicit")
    value, remoteness = values.arrays()
    assert np.array_equal(value, np.asarray(reference.values))
    assert np.array_equal(remoteness, np.asarray(reference.remoteness_array).astype(np.int32))
    assert values.value(game.start()) == reference.value(game.start())
    assert values.moves(game.start()) == reference.moves(game.start())


@pytest.mark.parametrize("spec", ["dodgem:3x3", "dodgem(size=2)"])
def test_tiered_equals_the_edge_solver_on_every_reachable_position(spec, tmp_path):
    from explorer.solved import build

    game = parse_spec(spec)
    values = tiered.solve(game, tmp_path, workers=1, processes=False)
    solved = build(game, symmetry=False, use_arrays=False)
    for node in range(solved.graph.num_positions):
        position = solved.graph.position(node)
        assert (values.value(position), values.remoteness(position)) == (solved.value(node), solved.remoteness(node))


def test_dodgem_4x4_by_tiers_equals_the_edge_solver_on_every_reachable_position(tmp_path):
    """Dodgem 4x4's 16 tiers by cars left against the edge solver's graph: every reachable position
    (the array path's codes, which are its ranks: checked by position on a sample) has the same value
    and remoteness; the start is a draw (desJardins, 1996)."""
    from explorer.solved import build

    game = parse_spec("dodgem:4x4")
    assert len(tiered.tiers_of(game).names) == 16
    values = tiered.solve(game, tmp_path, workers=1, processes=False)
    solved = build(game, symmetry=False)
    codes = solved.graph.codes
    value, remoteness = values.arrays()
    assert np.array_equal(value[codes], solved.solution.value)
    assert np.array_equal(remoteness[codes], solved.solution.remoteness)
    for node in range(0, solved.graph.num_positions, 997):
        position = solved.graph.position(node)
        assert game.rank(position) == codes[node]
        assert (values.value(position), values.remoteness(position)) == (solved.value(node), solved.remoteness(node))
    assert values.value(game.start()) == Value.DRAW


def test_a_folder_of_another_game_is_refused(tmp_path):
    tiered.solve(parse_spec("dodgem(size=2)"), tmp_path, workers=1, processes=False)
    with pytest.raises(GameGraphError, match="holds the tiers of"):
        tiered.solve(parse_spec("dodgem:3x3"), tmp_path, workers=1, processes=False)


@pytest.mark.parametrize("written", [None, 1])
def test_tier_files_of_another_ranking_version_are_refused(written, tmp_path):
    """Dodgem's indices changed meaning with its ranking version: a folder named by hand that was
    solved under another version (or before versions were recorded: no mark) must not be read as
    today's positions, neither by a reader nor by a solve resuming in it."""
    import json

    game = parse_spec("dodgem(size=2)")
    assert game.ranking_version > 1
    values = tiered.solve(game, tmp_path, workers=1, processes=False)
    assert tiered.open_values(game, tmp_path).value(game.start()) == values.value(game.start())
    for name in ("meta.json", "game.json"):
        path = tmp_path / name
        mark = json.loads(path.read_text())
        assert mark["ranking"] == game.ranking_version
        mark.pop("ranking")
        if written is not None:
            mark["ranking"] = written
        path.write_text(json.dumps(mark))
    with pytest.raises(GameGraphError, match=f"ranking version {written or 0}, not {game.ranking_version}"):
        tiered.open_values(game, tmp_path)
    with pytest.raises(GameGraphError, match=f"ranking version {written or 0}\\), not of"):
        tiered.solve(game, tmp_path, workers=1, processes=False)


def test_a_game_without_kernels_is_refused():
    with pytest.raises(GameGraphError, match="no tiered"):
        tiered.solve(parse_spec("nim"), workers=1, processes=False)


# -- check-game ------------------------------------------------------------------------------------

def dodgem_with_tiers(tiers_of_size):
    """Dodgem 3x3 declaring the tiers tiers_of_size(index space, its own tiers by cars left)."""
    from explorer.games.dodgem.rules import Dodgem

    class RetieredDodgem(Dodgem):
        def tiers(self):
            return tiers_of_size(self.index_space(), Dodgem.tiers(self))

    return RetieredDodgem(Dodgem.Params(size=3))


def with_children(tiers, tier, children):
    """The tiers with tier's children replaced."""
    return tiers._replace(children=tiers.children[:tier] + (children,) + tiers.children[tier + 1:])


def tiers_check(game):
    from explorer.checkgame import check_game

    report = check_game(game)
    return next(c for c in report.checks if c.name.startswith("every move stays in its tier")), report


def test_check_game_passes_sound_tiers_and_skips_a_game_without():
    check, report = tiers_check(dodgem_with_tiers(lambda size, own: Tiers((0, size), ((),), ("all",))))
    assert check.ok and not check.skipped and report.ok, report.text()
    check, report = tiers_check(parse_spec("dodgem:3x3"))  # its own tiers, by cars left
    assert check.ok and not check.skipped and report.ok, report.text()
    check, _ = tiers_check(parse_spec("chopsticks:magic-fingers"))
    assert check.skipped and "declares no tiers" in check.skipped


@pytest.mark.parametrize("tiers, message", [
    # Tier 4 (1 blue, 1 red car) without its child 3 (1 blue, 0 red): Red's car driving off goes there.
    (lambda size, own: with_children(own, 4, (1,)), "which is not one of its children"),
    (lambda size, own: with_children(own, 1, (0, 4)), "cycle"),
    (lambda size, own: own._replace(offsets=own.offsets[:-1] + (size - 1,)), "index space"),
    (lambda size, own: Tiers((0, size), ((),), ("all",), (True,)), "declared loop-free"),
    (lambda size, own: Tiers((0, size), ((),), ("all",), (True, False)), "loop_free flags"),
])
def test_check_game_catches_broken_tiers(tiers, message):
    check, report = tiers_check(dodgem_with_tiers(tiers))
    assert not check.ok and any(message in p for p in check.problems), report.text()


# -- the CLI ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["solve", "nim", "--tiered", "--workers", "1"], "no tiered"),
    (["solve", "dodgem:3x3", "--workers", "2"], "add --tiered"),
    (["solve", "dodgem:3x3", "--tiered", "--implicit"], "drop --implicit"),
    (["solve", "dodgem:3x3", "--tiered", "--scheduler", "tcp://127.0.0.1:9", "--workers", "2"], "its own workers"),
    (["solve", "dodgem:3x3", "--tiered", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
    # more local worker processes than WORKERS_PER_CORE a core: refused before any work, cached tiers or not
    (["solve", "dodgem:3x3", "--tiered", "--workers", "99999999999"], "only takes turns on its cores"),
])
def test_cli_refusals_are_one_line(argv, message, capsys, monkeypatch, tmp_path):
    from explorer.cli import main

    # A state folder without tier files: with dodgem:3x3's (test_cli_solves_by_tiers_and_resumes writes them to the
    # suite's shared folder), the solve is already done and never reaches the scheduler.
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tiered.dag, "CONNECT_SECONDS", 2)  # nothing listens on port 9: refused in 1 s, not 10

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_the_local_worker_cap_follows_the_cores(monkeypatch):
    monkeypatch.setattr(tiered.os, "cpu_count", lambda: 3)
    assert tiered.max_local_workers() == 3 * tiered.WORKERS_PER_CORE
    tiered.check_local_workers(tiered.max_local_workers())  # the cap itself is allowed
    with pytest.raises(InvalidParameter, match=r"--workers 13: .* more than 12 worker processes"):
        tiered.check_local_workers(13)


def test_the_scheduler_address_comes_from_the_environment_too(capsys, monkeypatch):
    from explorer.cli import main

    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:9")  # the discard port: nothing answers Dask there
    monkeypatch.setattr(tiered.dag, "CONNECT_SECONDS", 2)  # refused in 1 s, not 10
    assert main(["solve", "dodgem(size=2)", "--tiered"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def every_tier_written(tmp_path_factory):
    """A state folder where dodgem(size=2) is solved by tiers, every tier written: made once for the cases
    below, which only read it (each checks again that its solve finds nothing to do)."""
    from explorer.cli import main

    home = tmp_path_factory.mktemp("every-tier-written")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("GAMEGRAPH_HOME", str(home))
        assert main(["solve", "dodgem(size=2)", "--tiered", "--workers", "1"]) == 0
    return home


@pytest.mark.parametrize("address, why", [("garbage://<x>", "unknown address scheme"), ("not-an-address", "port"),
                                          ("tcp://127.0.0.1:99999", "port")])
@pytest.mark.parametrize("where", ["option", "environment"])
def test_a_bad_scheduler_address_is_refused_even_when_every_tier_is_written(address, why, where, capsys, monkeypatch,
                                                                           every_tier_written):
    """A solve whose tiers are all written asks no scheduler, but a mistyped address is still a mistake
    to report (it was taken silently, exit 0, and the next solve failed far from its cause)."""
    from explorer.cli import main

    monkeypatch.setenv("GAMEGRAPH_HOME", str(every_tier_written))
    assert main(["solve", "dodgem(size=2)", "--tiered", "--workers", "1"]) == 0
    capsys.readouterr()
    argv = ["solve", "dodgem(size=2)", "--tiered"]
    if where == "option":
        argv += ["--scheduler", address]
    else:
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a Dask scheduler address" in err and why in err, err
    assert ("--scheduler" if where == "option" else "DASK_SCHEDULER_ADDRESS") in err


def test_cli_solves_by_tiers_and_resumes(capsys):
    from explorer.cli import main

    assert main(["solve", "dodgem:3x3", "--tiered", "--workers", "1", "--format", "json"]) == 0
    import json

    meta = json.loads(capsys.readouterr().out)
    reference = implicit.solve(parse_spec("dodgem:3x3"), folder=None)
    assert meta["counts"] == reference.meta["counts"] and meta["start"] == reference.meta["start"]
    assert main(["solve", "dodgem:3x3", "--tiered", "--workers", "1"]) == 0  # all tiers written: nothing to do
    assert "tiered: 9 tier(s)" in capsys.readouterr().out  # by cars left: 0 to 2 of each colour


def test_show_reads_a_tiered_solve(capsys):
    """`show` answers from the tiered solve (no graph built): the value and moves of Connect Four
    positions, equal to the edge solver's."""
    import json

    from explorer.cli import main
    from explorer.solved import load_or_build

    spec = "connect4(width=4,height=3)"
    assert main(["solve", spec, "--tiered", "--workers", "1", "--format", "json"]) == 0
    capsys.readouterr()
    solved = load_or_build(parse_spec(spec), symmetry=False)
    for key in ("..../..../....", "..../..../.X..", "..../.O../.XX."):
        assert main(["show", spec, key, "--format", "json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        node = solved.graph.find(key)
        expected = solved.record(node)
        assert shown["source"] == "value file" and shown["key"] == key
        assert (shown["value"], shown["remoteness"]) == (expected["value"], expected["remoteness"])
        assert sorted((m["label"], m["value"], m["remoteness"]) for m in shown["moves"]) == \
            sorted((m["label"], m["value"], m["remoteness"]) for m in solved.moves(node))


# -- a cluster of two worker processes ------------------------------------------------------------

def test_two_worker_processes_write_the_same_tier_files_as_one_process(tmp_path):
    """A LocalCluster of two worker processes (each parses the spec again and solves its tiers from
    the shared folder) writes tier files identical byte for byte to the in-process solve."""
    game = parse_spec("dodgem:4x4")
    tiered.solve(game, tmp_path / "one", workers=1, processes=False)
    tiered.solve(game, tmp_path / "two", workers=2, processes=True)
    ones = sorted(p.name for p in (tmp_path / "one").glob("tier-*.values"))
    assert ones and ones == sorted(p.name for p in (tmp_path / "two").glob("tier-*.values"))
    for name in ones:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_a_worker_killed_mid_solve_is_replaced_and_the_files_are_the_same(tmp_path):
    """The worker solving the tier is killed (SIGKILL) while it works; Dask's nanny starts another
    worker, the task runs again, and the tier files equal the one-process solve's."""
    import os
    import signal
    import threading

    from distributed import Client, LocalCluster

    game = parse_spec("dodgem:4x4")
    tiered.solve(game, tmp_path / "one", workers=1, processes=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=50) as cluster, Client(cluster) as client:
        pids = client.run(os.getpid)
        killed = []

        def kill_the_busy_worker():
            for _ in range(2000):
                busy = [w for w, keys in client.processing().items() if keys]
                if busy and busy[0] in pids:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(busy[0])
                    return
                threading.Event().wait(0.005)

        killer = threading.Thread(target=kill_the_busy_worker)
        killer.start()
        tiered.solve(game, tmp_path / "two", client=client)
        killer.join()
    assert killed, "no worker was seen working"
    for one in sorted((tmp_path / "one").glob("tier-*.values")):
        assert one.read_bytes() == (tmp_path / "two" / one.name).read_bytes()


@pytest.fixture(scope="class")
def default_local_client():
    """A client on the default local cluster (tiered._client without a scheduler, as `solve --tiered` starts it),
    started once for the class of tests that only look at it (a nanny and a worker process, each importing Dask and
    the package) and closed after them, before the tests that start clusters of their own."""
    client = tiered._client(None, 1)
    try:
        yield client
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()


class TestTheDefaultLocalCluster:
    """What the default local cluster is, one cluster for every test (`default_local_client`)."""

    def test_the_local_cluster_listens_on_loopback_only(self, default_local_client):
        """The scheduler, the workers and every dashboard of the default local cluster accept connections
        from this machine only."""
        import psutil

        mine = {p.pid for p in psutil.Process().children(recursive=True)} | {psutil.Process().pid}
        listening = [c.laddr for c in psutil.net_connections(kind="tcp")
                     if c.status == psutil.CONN_LISTEN and c.pid in mine]
        assert listening, "the cluster listens somewhere"
        assert all(address.ip == "127.0.0.1" for address in listening), listening

    def test_the_local_cluster_keeps_its_scratch_space_in_the_state_folder(self, default_local_client):
        from explorer.core import settings

        assert (settings.state_dir() / "dask").is_dir()
        scratch = default_local_client.run(lambda dask_worker: dask_worker.local_directory)
        assert [folder.startswith(str(settings.state_dir() / "dask")) for folder in scratch.values()] == [True], \
            scratch  # the worker's own scratch there too, not /tmp/dask-scratch-space


def test_an_address_where_no_scheduler_answers_is_one_line_in_time(monkeypatch):
    """Something listens at the address but never answers Dask's handshake (a web server, a stray
    socket): refused in one line within the connect deadline, not a hang."""
    import socket

    monkeypatch.setattr(tiered.dag, "CONNECT_SECONDS", 2)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(GameGraphError, match=r"cannot reach the Dask scheduler at .* \(no answer within 2 s\)"):
            tiered._client(address, None)


def test_a_damaged_tier_file_says_how_to_redo_it(tmp_path):
    game = parse_spec("connect4(width=3,height=3,connect=3)")
    tiered.solve(game, tmp_path, workers=1, processes=False)
    damaged = tmp_path / "tier-4.values"
    damaged.write_bytes(damaged.read_bytes()[:100])
    with pytest.raises(GameGraphError, match="delete that file and run the same solve again"):
        tiered.open_values(game, tmp_path).value(game.unrank(game.tiers().offsets[4]))


# -- a loop-free tier in chunks on several workers --------------------------------------------------

@pytest.mark.parametrize("size, workers, chunk", [(10, 1, None), (10, 3, None), (10, 1, 3), (7, 2, 7), (0, 2, None),
                                                  (5 * tiered.MIN_FORWARD_CHUNK, 2, None),
                                                  (100 * tiered.MIN_FORWARD_CHUNK, 2, None)])
def test_forward_ranges_cover_the_tier_in_order(size, workers, chunk):
    ranges = tiered.forward_ranges(size, workers, chunk)
    assert ranges[0][0] == 0 and ranges[-1][1] == size
    assert all(a < b or size == 0 for a, b in ranges) and all(b == c for (_, b), (c, _) in zip(ranges, ranges[1:]))
    if chunk is not None:
        assert all(b - a == chunk for a, b in ranges[:-1])
    elif workers == 1:
        assert len(ranges) == 1  # one worker: the tier in one task, no merge
    else:
        assert len(ranges) <= tiered.FORWARD_TASKS_PER_WORKER * workers
        assert all(b - a >= tiered.MIN_FORWARD_CHUNK for a, b in ranges[:-1]) or len(ranges) == 1


@pytest.mark.parametrize("seed", range(0, 200, 4))
def test_a_loop_free_tier_solved_in_chunks_is_the_same_file(seed, tmp_path):
    """Each loop-free tier of a random graph solved in chunks of 1-5 positions (a part file each) and
    merged is byte for byte the tier solved in one piece; the part files are gone after the merge."""
    game = GraphGame(*random_tiered_graph(seed, loop_free=True))
    tiers = game.tiers()
    rng = random.Random(seed)
    for t in tiered.check_tiers(tiers, game.index_space()):
        tiered.solve_tier(game, t, tmp_path / "whole")
        if not tiered._is_loop_free(tiers, t):
            tiered.solve_tier(game, t, tmp_path / "chunks")
            continue
        ranges = tiered.forward_ranges(tiers.offsets[t + 1] - tiers.offsets[t], 2, rng.randint(1, 5))
        for a, b in ranges:
            assert not tiered.solve_forward_chunk(game, t, a, b, tmp_path / "chunks")["skipped"]
        tiered.merge_forward_chunks(game, t, tmp_path / "chunks", ranges)
    assert not list((tmp_path / "chunks").glob("*.part-*"))
    for whole in sorted((tmp_path / "whole").glob("tier-*.values")):
        assert whole.read_bytes() == (tmp_path / "chunks" / whole.name).read_bytes(), whole.name


def test_the_random_graphs_have_loop_free_tiers_of_several_chunks():
    """Some loop-free tiers of the test above hold more positions than its largest chunk (else it proves little)."""
    split = 0
    for seed in range(0, 200, 4):
        tiers = random_tiered_graph(seed, loop_free=True)[3]
        split += sum(1 for t, free in enumerate(tiers.loop_free) if free and tiers.offsets[t + 1] - tiers.offsets[t] > 5)
    assert split > 20


@pytest.mark.parametrize("spec", ["connect4(width=4,height=3)", "connect4(width=3,height=3,connect=3)"])
def test_connect4_solved_in_small_chunks_writes_the_same_files(spec, tmp_path):
    """Every tier of Connect Four is loop-free: solved in chunks of 37 positions (parts merged), the tier
    files are byte for byte the unchunked solve's, and meta.json says the same."""
    import json

    game = parse_spec(spec)
    tiered.solve(game, tmp_path / "whole", workers=1, processes=False, compress=False)
    tiered.solve(game, tmp_path / "chunks", workers=1, processes=False, compress=False, forward_chunk=37)
    names = sorted(p.name for p in (tmp_path / "whole").glob("tier-*"))
    assert names and names == sorted(p.name for p in (tmp_path / "chunks").glob("tier-*"))
    largest = max(b - a for a, b in zip(game.tiers().offsets, game.tiers().offsets[1:]))
    assert largest > 37 * 3, "the test needs tiers of several chunks"
    for name in names:
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "chunks" / name).read_bytes(), name
    metas = [json.loads((tmp_path / f / "meta.json").read_text()) for f in ("whole", "chunks")]
    for meta in metas:
        meta.pop("seconds")
    assert metas[0] == metas[1]


def test_an_interrupted_chunked_tier_resumes_from_its_parts(tmp_path):
    """A chunk whose part file is written is not solved again (its part is used as it is); stale parts of a
    tier already written are removed by the next solve."""
    game = parse_spec("connect4(width=4,height=3)")
    tiers = game.tiers()
    order = tiered.check_tiers(tiers, game.index_space())
    t = max(order, key=lambda u: tiers.offsets[u + 1] - tiers.offsets[u])
    for child in order[:order.index(t)]:
        tiered.solve_tier(game, child, tmp_path)
    ranges = tiered.forward_ranges(tiers.offsets[t + 1] - tiers.offsets[t], 2, 100)
    first = tiered.solve_forward_chunk(game, t, *ranges[0], tmp_path)
    part = tiered._part_path(tmp_path, t, *ranges[0])
    before = part.stat().st_mtime_ns
    assert not first["skipped"] and tiered.solve_forward_chunk(game, t, *ranges[0], tmp_path)["skipped"]
    assert part.stat().st_mtime_ns == before
    for a, b in ranges[1:]:
        tiered.solve_forward_chunk(game, t, a, b, tmp_path)
    assert tiered.merge_forward_chunks(game, t, tmp_path, ranges)["skipped"] is False
    assert not list(tmp_path.glob(f"tier-{t}.part-*"))
    stale = tiered._part_path(tmp_path, t, 0, 5)
    stale.write_bytes(b"left by a merge that was interrupted")
    tiered.solve(game, tmp_path, workers=1, processes=False)
    assert not stale.exists()
    one = implicit.solve(game, tmp_path / "one")
    assert np.array_equal(tiered.open_values(game, tmp_path).arrays()[0], np.asarray(one.values))


def test_a_missing_part_is_one_clear_error(tmp_path):
    game = parse_spec("connect4(width=3,height=3,connect=3)")
    ranges = tiered.forward_ranges(game.tiers().offsets[1] - game.tiers().offsets[0], 2, 1)
    with pytest.raises(GameGraphError, match="misses the part file"):
        tiered.merge_forward_chunks(game, 0, tmp_path, ranges)


class RecordedBar:
    """A stand-in for a tqdm bar that keeps what it was told."""

    def __init__(self, description, total):
        self.description, self.total, self.n, self.closed = description, total, 0, False

    def update(self, n=1):
        self.n += n

    def set_description_str(self, text):
        self.description = text

    def set_postfix_str(self, text):
        self.postfix = text


def recorded_bars(monkeypatch) -> list:
    """progress.bar replaced by RecordedBars: the list fills with every bar opened."""
    from contextlib import contextmanager

    from explorer.core import progress

    bars = []

    @contextmanager
    def recorded(description, total=None, unit="pos"):
        bar = RecordedBar(description, total)
        bars.append(bar)
        yield bar
        bar.closed = True

    monkeypatch.setattr(progress, "bar", recorded)
    return bars


def test_each_tier_has_its_own_bar_advanced_by_its_chunks(tmp_path, monkeypatch):
    """With bars on, the DAG shows one bar per tier (named after it, advanced to its size by its chunks,
    closed when it is written) beside the bar over all tiers."""
    from explorer.core import progress

    monkeypatch.setenv("GAMEGRAPH_PROGRESS", "1")
    bars = recorded_bars(monkeypatch)
    monkeypatch.setattr(progress, "notice", lambda message: None)
    game = parse_spec("connect4(width=4,height=3)")
    tiered.solve(game, tmp_path, workers=1, processes=False, compress=False, forward_chunk=50)
    tiers = game.tiers()
    split = 0
    for t, name in enumerate(tiers.names):
        mine = [b for b in bars if b.description == f"tier {t} ({name})"]
        size = tiers.offsets[t + 1] - tiers.offsets[t]
        if size <= 50:  # one task: a bar only if the scheduler was seen running it
            assert len(mine) <= 1 and all(b.total == size and b.closed for b in mine)
            continue
        split += 1
        assert len(mine) == 1, [b.description for b in bars]
        assert (mine[0].total, mine[0].n, mine[0].closed) == (size, size, True)
    assert split >= 5
    overall = [b for b in bars if b.description.startswith(f"{game.display_name}: ")]
    assert len(overall) == 1 and overall[0].n == game.index_space() and overall[0].closed
    assert overall[0].description == f"{game.display_name}: {len(tiers.names)} of {len(tiers.names)} tier(s)"


def test_two_workers_share_the_tiers_of_connect4(tmp_path):
    """Connect Four's tiers form a chain, one tier ready at a time: cut in chunks, a tier runs on both
    worker processes at once (Dask's task stream), and the files equal the one-process solve's."""
    from distributed import Client, LocalCluster, get_task_stream

    game = parse_spec("connect4(width=5,height=4)")
    tiered.solve(game, tmp_path / "one", workers=1, processes=False, compress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=50) as cluster, Client(cluster) as client, get_task_stream(client) as stream:
        tiered.solve(game, tmp_path / "two", client=client, compress=False, forward_chunk=1 << 18)
    chunks = [task for task in stream.data if "-chunk-" in task["key"]]
    assert chunks and all(task["status"] == "OK" for task in stream.data)
    workers_of_tier: dict[str, set] = {}
    for task in chunks:
        workers_of_tier.setdefault(task["key"].split("-chunk-")[0], set()).add(task["worker"])
    assert any(len(workers) == 2 for workers in workers_of_tier.values()), workers_of_tier
    for one in sorted((tmp_path / "one").glob("tier-*.values")):
        assert one.read_bytes() == (tmp_path / "two" / one.name).read_bytes(), one.name


# -- progress inside a loopy tier -------------------------------------------------------------------

def _loopy_teeko():
    """Teeko 3x3 with three pieces and its `loop_free` declaration dropped (test-only): every tier is loopy,
    a drop tier's moves into the next tier come as seeds (bench.bench_tiered.without_loop_free)."""
    from bench.bench_tiered import without_loop_free

    return without_loop_free(parse_spec("teeko(size=3,pieces=3)"))


def test_a_loopy_tier_reports_its_progress_while_its_queue_is_worked(tmp_path, monkeypatch):
    """solve_tier's `report` is called again and again inside one loopy tier (the movement tier, and a drop
    tier with seeds from it), never backwards, and the tier files are the same as without it."""
    game = _loopy_teeko()
    tiers = game.tiers()
    movement = len(tiers.names) - 1
    assert not tiers.loop_free and tiers.children[movement - 1] == (movement,)
    for t in (movement, movement - 1):
        tiered.solve_tier(game, t, tmp_path / "quiet")
    monkeypatch.setattr(tiered.worker, "TIER_PROGRESS_STEP", 16)
    for t in (movement, movement - 1):
        said: list[int] = []
        tiered.solve_tier(game, t, tmp_path / "told", report=said.append)
        assert len(said) > 3, (t, said)
        assert said == sorted(said) and said[-1] > 0
        assert said[-1] <= tiers.offsets[t + 1] - tiers.offsets[t]
        name = f"tier-{t}.values"
        assert (tmp_path / "told" / name).read_bytes() == (tmp_path / "quiet" / name).read_bytes()


def test_the_client_hears_a_loopy_tier_on_dask(tmp_path, monkeypatch):
    """On Dask (an in-process cluster), a loopy tier's worker logs its progress as events on the run's topic:
    the client's _DagProgress hears several for the movement tier, never backwards, and stops following."""
    from explorer.core import progress

    heard, topics = [], []
    original, unsubscribe = tiered._DagProgress._progressed, tiered._DagProgress.unsubscribe

    def progressed(self, event):
        heard.append(event[1])
        original(self, event)

    def unsubscribed(self):
        topics.append(self.topic)
        unsubscribe(self)

    monkeypatch.setenv("GAMEGRAPH_PROGRESS", "1")
    monkeypatch.setattr(progress, "notice", lambda message: None)
    monkeypatch.setattr(tiered.worker, "TIER_PROGRESS_STEP", 16)
    monkeypatch.setattr(tiered.worker, "PROGRESS_SECONDS", 0)
    monkeypatch.setattr(tiered._DagProgress, "_progressed", progressed)
    monkeypatch.setattr(tiered._DagProgress, "unsubscribe", unsubscribed)
    game = parse_spec("teeko(size=3,pieces=3)")
    tiered.solve(game, tmp_path, workers=1, processes=False, compress=False)
    movement = len(game.tiers().names) - 1
    mine = [m["worked"] for m in heard if m["tier"] == movement]
    assert len(mine) > 3 and mine == sorted(mine), heard
    assert {m["tier"] for m in heard} == {movement}  # the drop tiers are loop-free: solved forward, no queue
    assert len(topics) == 1 and topics[0].startswith(tiered.PROGRESS_TOPIC)


def test_a_loopy_tiers_bar_follows_its_workers_events(monkeypatch):
    """_DagProgress: a worker's event opens the tier's bar and the next poll moves it to the positions worked;
    a written tier's bar closes and a late event does not open it again. Bars off: no topic is followed."""
    class Client:
        def __init__(self):
            self.handlers = {}

        def subscribe_topic(self, topic, handler):
            self.handlers[topic] = handler

        def unsubscribe_topic(self, topic):
            del self.handlers[topic]

        def processing(self):
            return {}

    game = parse_spec("teeko(size=3,pieces=3)")
    tiers = game.tiers()
    movement = len(tiers.names) - 1
    off = Client()
    tiered._DagProgress(game, tiers, [movement], off, enabled=False, topic="run")
    assert off.handlers == {}
    client = Client()
    bars = recorded_bars(monkeypatch)
    shown = tiered._DagProgress(game, tiers, [movement], client, enabled=True, topic="run")
    with shown:
        for worked in (5, 9, 7):  # an older event arriving late never moves the bar back
            client.handlers["run"]((0.0, {"tier": movement, "worked": worked}))
            shown.poll()
        bar = next(b for b in bars if b.description == f"tier {movement} (movement)")
        assert bar.n == 9 and not bar.closed
        shown.finished({"tier": movement, "name": "movement", "positions": 3360, "seconds": 1.0})
        assert bar.closed
        client.handlers["run"]((0.0, {"tier": movement, "worked": 11}))
        shown.poll()
        assert [b.description for b in bars].count(f"tier {movement} (movement)") == 1
    shown.unsubscribe()
    assert client.handlers == {}
