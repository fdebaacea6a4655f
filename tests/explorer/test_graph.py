"""The two generators agree, symmetry reduction is a true quotient, limits and other starts work."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.errors import GraphTooLarge
from explorer.games import parse_spec
from explorer.games.chopsticks.rules import Chopsticks, ChopsticksParams
from explorer.graph import generate
from explorer.graph import generate_levels
from explorer.solver import solve
from tests.support.brute_force import explore

CHOPSTICKS_PRESETS = sorted(Chopsticks.presets)


def edge_set(graph):
    """{(from_key, to_key, label)} of a graph, independent of node numbering and edge order."""
    sources = graph.edge_sources()
    keys = graph.keys()
    return {(keys[int(u)], keys[int(v)], graph.label(e)) for e, (u, v) in enumerate(zip(sources, graph.succ_indices))}


def node_table(graph):
    keys = graph.keys()
    return {k: (int(graph.terminal[i]), int(graph.to_move[i])) for i, k in enumerate(keys)}


def assert_well_formed(graph):
    n = graph.num_positions
    assert graph.succ_indptr[0] == 0 and graph.succ_indptr[-1] == graph.num_moves
    assert (graph.succ_indptr[1:] >= graph.succ_indptr[:-1]).all()
    assert graph.succ_indices.min(initial=0) >= 0 and graph.succ_indices.max(initial=0) < n
    keys = graph.keys()
    assert len(set(keys)) == n, "a position appears twice"
    for u in range(n):
        kids = graph.successors(u).tolist()
        assert len(kids) == len(set(kids)), f"{keys[u]}: repeated successor"
        assert (graph.terminal[u] >= 0) == (len(kids) == 0), f"{keys[u]}: terminal xor has moves"
    # Breadth-first: node 0 is the start and every node is reachable from it.
    seen, frontier = {0}, [0]
    while frontier:
        frontier = [v for u in frontier for v in graph.successors(u).tolist() if v not in seen and not seen.add(v)]
    assert len(seen) == n


def assert_same_graph(graph, other):
    assert graph.key(0) == other.key(0)
    assert graph.num_positions == other.num_positions and graph.num_moves == other.num_moves
    assert node_table(graph) == node_table(other)
    assert edge_set(graph) == edge_set(other)


def assert_breadth_first(graph):
    """Ids are breadth-first: a node's distance from the starts never decreases with its id."""
    n = graph.num_positions
    depth = np.full(n, -1)
    depth[0] = 0
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for v in graph.successors(u).tolist():
                if depth[v] < 0:
                    depth[v] = depth[u] + 1
                    nxt.append(v)
        frontier = nxt
    assert (np.diff(depth) >= 0).all()


def assert_generators_agree(game, symmetry):
    """The compiled kernel, numpy batch_moves (new and old bookkeeping) and the generic BFS give one graph."""
    arrays = generate(game, symmetry=symmetry, use_arrays=True)
    batch = generate(game, symmetry=symmetry, use_arrays=True, compiled=False)
    levels = generate_levels(game, symmetry=symmetry)
    generic = generate(game, symmetry=symmetry, use_arrays=False)
    assert arrays.codes is not None and generic.codes is None
    for other in (batch, levels, generic):
        assert_same_graph(arrays, other)
    assert np.array_equal(arrays.codes, batch.codes) and np.array_equal(arrays.succ_indices, batch.succ_indices)
    for graph in (arrays, batch, levels, generic):
        assert_well_formed(graph)
    assert_breadth_first(arrays)
    # And both equal a plain BFS over the rules (first label kept per successor).
    explored = explore(game, symmetry=symmetry and game.has_symmetry())
    expected = {(game.format(u), game.format(v), label) for (u, v), label in explored.labels.items()}
    assert edge_set(generic) == expected
    return arrays, generic


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("preset", CHOPSTICKS_PRESETS)
def test_generators_agree_on_presets(preset, symmetry):
    assert_generators_agree(parse_spec(f"chopsticks:{preset}"), symmetry)


chopsticks_params = st.builds(
    ChopsticksParams,
    fingers=st.sampled_from([2, 3, 4, 5, 6, 7]),
    overflow=st.sampled_from(["cutoff", "rollover"]),
    attack_dead=st.booleans(),
    split=st.sampled_from(["none", "even", "transfer"]),
    suicide=st.booleans(),
    swaps=st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(chopsticks_params, st.booleans())
def test_generators_agree_on_parameters(params, symmetry):
    assert_generators_agree(Chopsticks(params), symmetry)


@pytest.mark.parametrize("chunk_moves", [1, 7, 100])
@pytest.mark.parametrize("spec", ["chopsticks:standard", "chopsticks:magic-fingers(fingers=9)",
                                  "chopsticks:rollover-even-split(fingers=8)", "chopsticks:attack-only(fingers=12)"])
def test_chunked_levels_give_the_same_graph(spec, chunk_moves, monkeypatch):
    """The array generator expands a level in chunks of about CHUNK_MOVES moves: chunk
    boundaries anywhere (even one position per call) change nothing."""
    import explorer.graph

    game = parse_spec(spec)
    whole = generate(game)
    monkeypatch.setattr(explorer.graph, "CHUNK_MOVES", chunk_moves)
    for compiled in (True, False):
        chunked = generate(game, compiled=compiled)
        assert np.array_equal(chunked.codes, whole.codes)
        assert np.array_equal(chunked.succ_indptr, whole.succ_indptr)
        assert np.array_equal(chunked.succ_indices, whole.succ_indices)
        assert np.array_equal(chunked.edge_label, whole.edge_label)
    assert_same_graph(whole, generate_levels(game))


@pytest.mark.parametrize("spec", ["chopsticks(fingers=2)", "chopsticks(fingers=3,split=even,overflow=rollover)",
                                  "chopsticks(fingers=6,attack_dead=true,suicide=true,swaps=true)",
                                  "chopsticks(fingers=7,split=none,overflow=rollover,attack_dead=true)",
                                  "mutorere", "mutorere:free-putahi", "ponghauki", "toads-and-frogs:winning-ways",
                                  "domineering", "dodgem:3x3"])
def test_generators_agree_on_chosen_combinations(spec):
    for symmetry in (True, False):
        assert_generators_agree(parse_spec(spec), symmetry)


def rows_of(graph):
    """Per node, its (successor, label) pairs as a sorted list: the edges independent of their order in a row."""
    return [sorted(zip(graph.successors(u).tolist(), graph.edge_label[graph.edge_range(u)].tolist()))
            for u in range(graph.num_positions)]


@pytest.mark.parametrize("spec", ["chopsticks:standard", "chopsticks:magic-fingers(fingers=9)",
                                  "chopsticks:rollover-even-split(fingers=8)", "chopsticks:tap-dead-transfer(fingers=7)",
                                  "chopsticks:attack-only(fingers=12)", "mutorere", "ponghauki",
                                  "toads-and-frogs:winning-ways", "domineering", "dodgem:3x3"])
@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
def test_array_generator_numbers_nodes_like_the_reference(spec, symmetry):
    """The array generator (compiled game kernel or numpy batch_moves, both with the compiled
    bookkeeping) gives node for node the graph of generate_levels, the plain numpy reference:
    the same codes in the same order (breadth-first, code order within a level), outcomes,
    players, row lengths, and per row the same successors with the same labels."""
    game = parse_spec(spec)
    reference = generate_levels(game, symmetry=symmetry)
    assert reference.num_positions > 10 and reference.num_moves > reference.num_positions
    for compiled in (True, False):
        graph = generate(game, symmetry=symmetry, use_arrays=True, compiled=compiled)
        assert np.array_equal(graph.codes, reference.codes)
        assert np.array_equal(graph.terminal, reference.terminal) and np.array_equal(graph.to_move, reference.to_move)
        assert np.array_equal(graph.succ_indptr, reference.succ_indptr)
        assert rows_of(graph) == rows_of(reference)


def plain_absorb(start_codes, rows):
    """explorer.kernels.bfs.absorb_moves's bookkeeping in plain Python: (codes, indptr, targets,
    labels) with ids in discovery order and, per row, one edge per distinct target (first label)."""
    ids = {code: i for i, code in enumerate(start_codes)}
    codes, indptr, targets, labels = list(start_codes), [0], [], []
    for moves in rows:
        met = set()
        for code, label in moves:
            if code not in ids:
                ids[code] = len(codes)
                codes.append(code)
            if ids[code] not in met:
                met.add(ids[code])
                targets.append(ids[code])
                labels.append(label)
        indptr.append(len(targets))
    return codes, indptr, targets, labels


move_rows = st.integers(1, 200).flatmap(lambda space: st.tuples(
    st.just(space),
    st.lists(st.lists(st.tuples(st.integers(0, space - 1), st.integers(0, 9)), max_size=150), min_size=1, max_size=8)))


@settings(max_examples=150, deadline=None)
@given(move_rows)
def test_absorbing_moves_keeps_the_first_move_to_each_target(case):
    """Rows of up to 150 moves over a small code space (many repeats, within a row and
    across rows) give exactly the plain bookkeeping's arrays."""
    from explorer.kernels import bfs

    space, rows = case
    start_codes = [0]  # position 0, already met; row u holds the moves of position u
    table = np.full((space, 2), -1, dtype=np.int32)
    codes = np.empty(space, dtype=np.int64)
    codes[:len(start_codes)] = start_codes
    bfs.set_ids(table, codes[:len(start_codes)], 0)
    lengths = [len(row) for row in rows]
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    flat = [move for row in rows for move in row]
    target = np.array([code for code, _ in flat], dtype=np.int64)
    label = np.array([name for _, name in flat], dtype=np.int64)
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    targets = np.empty(len(flat), dtype=np.int32)
    labels = np.empty(len(flat), dtype=np.int64)
    found, edges, ok = bfs.absorb_moves(0, np.ones(len(rows), dtype=np.bool_), starts, np.empty(0, dtype=np.int64),
                                        target, label, table, codes, indptr, targets, labels,
                                        len(start_codes), 0, space)
    expected = plain_absorb(start_codes, rows)
    assert ok
    assert codes[:found].tolist() == expected[0] and indptr.tolist() == expected[1]
    assert targets[:edges].tolist() == expected[2] and labels[:edges].tolist() == expected[3]
    assert [table[code, 0] for code in expected[0]] == list(range(found))


# -- the fused pass's stops (explorer.kernels.bfs.expand_positions) ----------------------------
FUSED_SPECS = ["chopsticks:standard", "chopsticks:magic-fingers(fingers=9)", "chopsticks:rollover-even-split(fingers=8)",
               "chopsticks:tap-dead-transfer(fingers=7)", "chopsticks:attack-only(fingers=12)",
               "chopsticks(fingers=6,attack_dead=true,suicide=true,swaps=true)"]


def run_fused(game, symmetry, room, limit, slots=2, block=None):
    """The fused pass over a whole game, level by level as explorer.graph drives it, with edge arrays
    of `room` entries that grow by only a little more than one position's moves at each NEED_ROOM,
    in rounds of `slots` slots of `block` positions (bfs.fused_work).
    ([every (next position, found, edges, status) the kernel returned], codes, indptr, terminal,
    targets, labels), the arrays cut to the positions and edges made."""
    from explorer.graph import start_codes
    from explorer.kernels import bfs

    fused = game.compiled_generator()
    symmetry, start = start_codes(game, symmetry)
    space = game.code_space()
    table = np.full(space, bfs.UNSEEN, dtype=np.int32)
    codes, indptr, terminal = np.empty(space, np.int64), np.zeros(space + 1, np.int64), np.empty(space, np.int8)
    targets, labels = np.empty(room, np.int32), np.empty(room, np.int64)
    work = bfs.fused_work(slots, fused.max_moves, fused.scratch, block)
    codes[:len(start)] = start
    table[start] = np.arange(len(start))
    first, found, edges, stops = 0, len(start), 0, []
    while first < found:
        level_end, level_edges = found, edges
        while first < level_end:
            first, found, edges, status = fused.expand(
                fused.ctx, symmetry, first, level_end, fused.max_moves, table, codes, indptr, terminal,
                targets, labels, found, edges, limit, *work)
            stops.append((first, found, edges, status))
            if status == bfs.TOO_MANY:
                return stops, (codes[:found], indptr[:first + 1], terminal[:first], targets[:edges], labels[:edges])
            if status == bfs.NEED_ROOM:
                targets = np.concatenate([targets[:edges], np.empty(fused.max_moves + 3, np.int32)])
                labels = np.concatenate([labels[:edges], np.empty(fused.max_moves + 3, np.int64)])
        bfs.settle_level(table, codes, level_end, np.sort(codes[level_end:found]), targets, level_edges, edges)
        first = level_end
    return stops, (codes[:found], indptr[:found + 1], terminal[:found], targets[:edges], labels[:edges])


@pytest.mark.parametrize("spec", FUSED_SPECS)
@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
def test_the_fused_pass_stops_for_room_and_for_the_limit_without_changing_the_graph(spec, symmetry):
    """NEED_ROOM again and again (edge arrays a few moves too small) gives, array for array, the graph
    of the numpy batch path (explorer.kernels.bfs.absorb_moves); TOO_MANY (the limit reached in the
    middle of a level) stops with found = limit + 1 and every row before the stop as in that graph."""
    from explorer.kernels import bfs

    game = parse_spec(spec)
    whole = generate(game, symmetry=symmetry, compiled=False)
    stops, arrays = run_fused(game, symmetry, 1, 1 << 40)
    assert sum(status == bfs.NEED_ROOM for *_, status in stops) > 5 and stops[-1][3] == 0
    for array, expected in zip(arrays, (whole.codes, whole.succ_indptr, whole.terminal, whole.succ_indices,
                                        whole.edge_label)):
        assert np.array_equal(array, expected)
    for limit in (whole.num_positions // 3, whole.num_positions - 1):
        stops, (codes, indptr, terminal, _, _) = run_fused(game, symmetry, 1 << 20, limit)
        first, found, edges, status = stops[-1]
        assert status == bfs.TOO_MANY and found == limit + 1 and edges <= whole.num_moves
        assert np.array_equal(indptr, whole.succ_indptr[:first + 1])
        assert np.array_equal(terminal, whole.terminal[:first])
        assert set(codes[:limit].tolist()) <= set(whole.codes.tolist())


@pytest.mark.parametrize("spec", FUSED_SPECS)
@pytest.mark.parametrize("slots,block", [(1, 1), (1, 5), (2, 1), (2, 3), (3, 2), (4, 64)])
def test_the_fused_pass_gives_one_graph_whatever_its_slots_and_rounds(spec, slots, block):
    """Rounds of 1-4 slots of 1-64 positions each (a slot's moves copied into place a round later,
    codes met by two slots at once listed once) give, array for array, the numpy batch path's graph."""
    game = parse_spec(spec)
    for symmetry in (True, False):
        whole = generate(game, symmetry=symmetry, compiled=False)
        stops, arrays = run_fused(game, symmetry, 1 << 20, 1 << 40, slots, block)
        assert stops[-1][3] == 0
        for array, expected in zip(arrays, (whole.codes, whole.succ_indptr, whole.terminal, whole.succ_indices,
                                            whole.edge_label)):
            assert np.array_equal(array, expected)


@pytest.mark.parametrize("spec", ["chopsticks(fingers=17)", "chopsticks:rollover-even-split(fingers=25)"])
def test_generation_is_bit_identical_on_one_thread_and_on_two(spec):
    """explorer.graph.generate with numba's one thread and with two (NUMBA_NUM_THREADS=1 vs 2): the
    same node order and the same CSR arrays, equal to the numpy batch path's. The graphs are big enough
    for many rounds of two slots (about 2M moves without symmetry)."""
    import numba

    game = parse_spec(spec)
    before = numba.get_num_threads()
    try:
        graphs = []
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            graphs.append(generate(game, symmetry=False, compiled=True))
    finally:
        numba.set_num_threads(before)
    reference = generate(game, symmetry=False, compiled=False)
    assert reference.num_moves > 500_000
    for graph in graphs:
        for name in ("codes", "succ_indptr", "succ_indices", "edge_label", "terminal", "to_move"):
            assert np.array_equal(getattr(graph, name), getattr(reference, name)), name


# -- symmetry ----------------------------------------------------------------------
QUOTIENT_SPECS = [f"chopsticks:{p}" for p in CHOPSTICKS_PRESETS] + ["tictactoe", "nim:small", "nim(heaps=2-3-4)",
                                                                   "mutorere", "ponghauki", "domineering"]


@pytest.mark.parametrize("spec", QUOTIENT_SPECS)
def test_symmetry_gives_the_quotient(spec):
    game = parse_spec(spec)
    full, reduced = generate(game, symmetry=False), generate(game, symmetry=True)
    assert reduced.symmetry and not full.symmetry
    assert reduced.graph_id == game.id and full.graph_id == f"{game.id}[nosym]"
    canon = [game.key(full.position(u)) for u in range(full.num_positions)]
    reduced_keys = reduced.keys()
    assert set(canon) == set(reduced_keys), "the reduced graph holds exactly the classes of the full graph"
    assert reduced.num_positions < full.num_positions
    # The moves of a class are the classes of the moves of any member.
    index = {k: i for i, k in enumerate(reduced_keys)}
    for u in range(full.num_positions):
        r = index[canon[u]]
        assert {canon[v] for v in full.successors(u).tolist()} == {reduced_keys[v] for v in reduced.successors(r).tolist()}
        assert full.terminal[u] == reduced.terminal[r] and full.to_move[u] == reduced.to_move[r]
    # Values and remoteness agree between a position and its canonical form.
    fs, rs = solve(full), solve(reduced)
    for u in range(full.num_positions):
        r = index[canon[u]]
        assert (fs.value[u], fs.remoteness[u]) == (rs.value[r], rs.remoteness[r]), full.key(u)


def test_no_symmetry_for_a_one_heap_nim():
    game = parse_spec("nim(heaps=5)")
    graph = generate(game, symmetry=True)
    assert not game.has_symmetry() and not graph.symmetry
    assert graph.num_positions == generate(game, symmetry=False).num_positions


# -- limits ---------------------------------------------------------------------------
@pytest.mark.parametrize("use_arrays,compiled", [(True, True), (True, False), (False, True)],
                         ids=["kernel", "batch", "generic"])
@pytest.mark.parametrize("spec", ["chopsticks:standard", "chopsticks:attack-only"])
def test_max_positions_is_exact(spec, use_arrays, compiled):
    game = parse_spec(spec)
    size = generate(game, use_arrays=use_arrays, compiled=compiled).num_positions
    assert generate(game, max_positions=size, use_arrays=use_arrays, compiled=compiled).num_positions == size
    with pytest.raises(GraphTooLarge, match=f"more than {size - 1:,} positions"):
        generate(game, max_positions=size - 1, use_arrays=use_arrays, compiled=compiled)
    with pytest.raises(GraphTooLarge, match=r"chopsticks"):
        generate(game, max_positions=10, use_arrays=use_arrays, compiled=compiled)


def test_max_positions_generic_only_games():
    game = parse_spec("tictactoe")
    with pytest.raises(GraphTooLarge, match="tictactoe"):
        generate(game, max_positions=764)
    assert generate(game, max_positions=765).num_positions == 765


# -- another start ----------------------------------------------------------------------
@pytest.mark.parametrize("use_arrays", [True, False], ids=["arrays", "generic"])
@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("spec,start", [("chopsticks:standard", "B|3-1|0-2"), ("chopsticks:magic-fingers", "A|4-1|2-0"),
                                        ("chopsticks:rollover-even-split", "A|0-4|1-1"), ("chopsticks:standard", "A|0-0|1-3")])
def test_generate_from_another_start(spec, start, symmetry, use_arrays):
    game = parse_spec(spec)
    position = game.parse(start)
    sub = generate(game, symmetry=symmetry, start=position, use_arrays=use_arrays)
    assert_well_formed(sub)
    expected_start = game.canonical(position) if symmetry else position
    assert sub.position(0) == expected_start
    # The positions are exactly those reachable from the start in an independent BFS...
    explored = explore(game, symmetry=symmetry, start=position)
    assert set(sub.keys()) == {game.format(p) for p in explored.succ}
    # ...and their values are those of the same positions in a graph from another start
    # (a value depends only on what is reachable from the position).
    whole = generate(game, symmetry=symmetry)
    ws, ss = solve(whole), solve(sub)
    for u in range(sub.num_positions):
        w = whole.node_of(sub.position(u))
        assert w is not None, f"{sub.key(u)} is reachable from the start"
        assert (ws.value[w], ws.remoteness[w]) == (ss.value[u], ss.remoteness[u]), sub.key(u)


def test_terminal_start_is_a_one_node_graph():
    game = parse_spec("chopsticks")
    for use_arrays in (True, False):
        graph = generate(game, start=game.parse("A|0-0|1-1"), use_arrays=use_arrays)
        assert graph.num_positions == 1 and graph.num_moves == 0
        assert solve(graph).value.tolist() == [0]  # a loss for the mover


def test_node_of_and_find():
    game = parse_spec("chopsticks")
    for use_arrays in (True, False):
        graph = generate(game, use_arrays=use_arrays)
        assert graph.find("A|1-1|1-1") == 0
        assert graph.key(graph.find("B|3-1|1-2")) == "B|1-3|1-2"  # canonical form
        for u in range(0, graph.num_positions, 7):
            assert graph.node_of(graph.position(u)) == u


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
def test_extra_starts_add_their_reachable_positions(symmetry):
    game = parse_spec("chopsticks:attack-only")
    extra = [game.parse("A|4-4|4-4"), game.parse("B|2-3|4-1"), game.start()]
    graphs = [generate(game, symmetry=symmetry, extra_starts=extra, use_arrays=arrays, compiled=compiled)
              for arrays, compiled in ((True, True), (True, False), (False, True))]
    graphs.append(generate_levels(game, symmetry=symmetry, extra_starts=extra))
    expected = set()
    for start in [game.start(), *extra]:
        expected |= {game.format(p) for p in explore(game, symmetry=symmetry, start=start).succ}
    for graph in graphs:
        assert graph.key(0) == "A|1-1|1-1"
        assert set(graph.keys()) == expected
    for other in graphs[1:]:
        assert edge_set(graphs[0]) == edge_set(other)
    assert generate(game, symmetry=symmetry).num_positions < len(expected)


# -- predecessor arrays: numpy (small graphs) and scipy (large ones) give the same CSR ----------------
@pytest.mark.parametrize("spec", ["chopsticks:standard", "chopsticks(fingers=9)", "tictactoe", "nim:marienbad"])
@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
def test_predecessor_arrays_agree_between_numpy_and_scipy(spec, symmetry):
    import numpy as np

    from explorer.algorithms.reverse import reverse_csr_numpy, reverse_csr_scipy

    g = generate(parse_spec(spec), symmetry=symmetry)
    args = (g.num_positions, g.succ_indptr, g.succ_indices)
    (ip1, ix1), (ip2, ix2) = reverse_csr_numpy(*args), reverse_csr_scipy(*args)
    assert ip1.dtype == ip2.dtype == np.int64 and ix1.dtype == ix2.dtype == np.int32
    assert np.array_equal(ip1, ip2) and np.array_equal(ix1, ix2)
    # and both are the reversed graph, sources ascending per target
    expected = {}
    for source in range(g.num_positions):
        for target in g.succ_indices[g.succ_indptr[source]:g.succ_indptr[source + 1]].tolist():
            expected.setdefault(target, []).append(source)
    for target in range(g.num_positions):
        assert ix1[ip1[target]:ip1[target + 1]].tolist() == expected.get(target, [])


@pytest.mark.parametrize("generator", ["generic", "compiled", "levels"])
def test_a_refusal_names_the_remedy_of_the_command_that_asked(generator):
    """`show` and `play` have no --max-positions: their refusal names what they offer (explorer.commands.
    graph_limit_hint), every generator alike; a command with the option is told to raise it."""
    from explorer.core.limits import RAISE_THE_LIMIT

    game = parse_spec("chopsticks:magic-fingers")
    run = {"generic": lambda **kw: generate(game, use_arrays=False, **kw),
           "compiled": lambda **kw: generate(game, use_arrays=True, compiled=True, **kw),
           "levels": lambda **kw: generate_levels(game, **kw)}[generator]
    with pytest.raises(GraphTooLarge) as default:
        run(max_positions=20)
    assert RAISE_THE_LIMIT in str(default.value)
    remedy = "solve it into a value file first, which `show` then reads"
    with pytest.raises(GraphTooLarge) as told:
        run(max_positions=20, hint=remedy)
    message = str(told.value)
    assert remedy in message and "--max-positions" not in message and "\n" not in message
