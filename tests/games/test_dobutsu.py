"""Dōbutsu shōgi: the rules on hand-picked positions, the notation, the ranking (round trips on a
whole reduced game and at random in the full one), the compiled kernels and the un-moves against
the rules, and the implicit solve against the edge solver on reduced games.

Published figures (Tanaka, "「どうぶつしょうぎ」の完全解析", IPSJ SIG Technical Report
2009-GI-22(3), https://ipsj.ixsq.nii.ac.jp/records/62415): the start is a win for the second
player in 78 plies; his ranking, from the mover's point of view, has 1,567,925,964 positions.
The full solve is a bench-marked run, not a CI test.
"""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from explorer import implicit
from explorer.core.errors import InvalidParameter, InvalidPosition
from explorer.core.values import Value
from explorer.games import parse_spec
from explorer.solved import build

STANDARD = "dobutsu"
START = "A|-/gle/.c./.C./ELG/-"
CHICKS = "dobutsu(giraffes=0,elephants=0,chicks=1)"  # promotions, hens and chick drops


def labels(spec: str, text: str) -> set[str]:
    game = parse_spec(spec)
    return {m.label for m in game.moves(game.parse(text))}


def after(spec: str, text: str, label: str) -> str:
    game = parse_spec(spec)
    return game.format(next(m.position for m in game.moves(game.parse(text)) if m.label == label))


# -- rules ----------------------------------------------------------------------------------

def test_the_start_and_its_four_moves():
    game = parse_spec(STANDARD)
    assert game.format(game.start()) == START and game.to_move(game.start()) == 0
    assert labels(STANDARD, START) == {"L b1-a2", "L b1-c2", "G c1-c2", "C b2xb3"}
    assert after(STANDARD, START, "C b2xb3") == "B|-/gle/.C./.../ELG/C"  # the chick goes to A's hand


def test_each_piece_moves_one_step_its_own_way():
    # A lone piece of each kind on b2 (A), its lion out of the way, B's lion on c4: its targets.
    cases = {"G": ("A|g/..l/.../.G./L../-", {"a2", "c2", "b1", "b3"}),
             "E": ("A|e/..l/.../.E./.L./-", {"a1", "c1", "a3", "c3"}),
             "C": ("A|c/..l/.../.C./L../-", {"b3"}),
             "H": ("A|c/..l/.../.H./L../-", {"a3", "b3", "c3", "a2", "c2", "b1"}),
             "L": ("A|-/..l/.../.L./.../-", {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"})}
    for letter, (text, targets) in cases.items():
        spec = {"G": "dobutsu(giraffes=1,elephants=0,chicks=0)", "E": "dobutsu:small", "L": "dobutsu:lions"}.get(letter, CHICKS)
        found = {label.split(" ")[1][3:] for label in labels(spec, text) if label.startswith(letter + " ")}
        assert found == targets, letter
    # B's pieces move the other way: B's chick on b3 goes to b2.
    assert "C b3-b2" in labels(CHICKS, "B|-/..l/.c./.../L../C")


def test_captures_go_to_the_hand_and_a_hen_comes_back_as_a_chick():
    game = parse_spec("dobutsu(giraffes=1,elephants=0,chicks=1)")
    position = game.parse("A|gc/..l/.h./.G./L../-")
    taken = next(m.position for m in game.moves(position) if m.label == "G b2xb3")
    assert game.format(taken) == "B|gc/..l/.G./.../L../C"


def test_drops_anywhere_empty_and_a_chick_dropped_on_the_far_rank_stays_a_chick():
    spec = CHICKS
    text = "A|c/l../.../.../..L/C"
    drops = {label for label in labels(spec, text) if "*" in label}
    assert drops == {f"C*{sq}" for sq in ("b4", "c4", "a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1")}
    dropped = after(spec, text, "C*b4")
    assert dropped == "B|c/lC./.../.../..L/-"
    # That chick has no move later (nothing is in front of it), and it is not a hen.
    game = parse_spec(spec)
    later = game.parse("A|c/lC./.../.../..L/-")
    assert not any(m.label.startswith("C b4") for m in game.moves(later))


def test_a_chick_reaching_the_far_rank_is_promoted():
    spec = CHICKS
    assert after(spec, "A|c/..l/.C./.../L../-", "C b3-b4+") == "B|c/.Hl/.../.../L../-"
    assert "C b3-b4" not in labels(spec, "A|c/..l/.C./.../L../-")


def test_the_two_lion_wins_and_the_failed_try():
    game = parse_spec("dobutsu:lions")
    # The player to move can take the opposing lion: won, without playing it out.
    assert game.outcome(game.parse("A|-/.../.l./.L./.../-")) == Value.WIN
    # A lion stepping onto the far rank out of reach: the opponent has lost.
    tried = game.parse("A|-/l../.../..L/.../-")
    assert game.outcome(tried) is None
    safe = next(m.position for m in game.moves(tried) if m.label == "L c2-c3")
    assert game.outcome(safe) is None
    arrived = game.parse("B|-/l.L/.../.../.../-")  # A's lion on c4, B's lion on a4 cannot take it
    assert game.outcome(arrived) == Value.LOSS and game.moves(arrived) == []
    # A try onto an attacked square: the opponent takes the lion and wins.
    assert game.outcome(game.parse("B|-/.lL/.../.../.../-")) == Value.WIN
    # The mover's own lion standing on the far rank (the opponent did not take it): won.
    assert game.outcome(game.parse("A|-/..L/.../.../l../-")) == Value.WIN


# -- notation -------------------------------------------------------------------------------

def test_notation_round_trips_along_random_games():
    game = parse_spec(STANDARD)
    rng = random.Random(7)
    for _ in range(40):
        position = game.start()
        for _ in range(60):
            assert game.parse(game.format(position)) == position
            moves = game.moves(position)
            if not moves:
                break
            position = rng.choice(moves).position


@pytest.mark.parametrize("text,fragment", [
    ("A|-/gle/.c./.C./ELG", "malformed"),
    ("C|-/gle/.c./.C./ELG/-", "malformed"),
    ("A|-/gle/.c./.C/-", "malformed"),
    ("A|-/gle/.c./.C./ELX/-", "malformed"),
    ("A|-/gge/.c./.C./ELG/-", "one lion"),
    ("A|-/gle/.c./.C./ELG/G", "3 giraffes"),
    ("A|-/gle/.c./.../ELG/-", "1 chicks"),
    ("A|-/gle/.c./.C./ELG/H", "malformed"),
])
def test_bad_positions_are_one_line_errors(text, fragment):
    with pytest.raises(InvalidPosition) as info:
        parse_spec(STANDARD).parse(text)
    message = str(info.value)
    assert fragment in message and "\n" not in message


def test_parameters_are_validated():
    with pytest.raises(InvalidParameter, match="maximum is 1"):
        parse_spec("dobutsu(chicks=2)")
    assert parse_spec("dobutsu:small").params.elephants == 1 and parse_spec("dobutsu:small").params.chicks == 0


# -- ranking ----------------------------------------------------------------------------------

def test_the_ranking_has_tanakas_size():
    game = parse_spec(STANDARD)
    # Tanaka ranks positions from the mover's point of view: 1,567,925,964 of them. Ours has the
    # mover as its top digit, so twice that; a position and its colour-swapped twin are `half` apart.
    assert game.index_space() == 2 * 1_567_925_964
    start = game.start()
    assert game.rank(game.swap_players(start)) == game.rank(start) + 1_567_925_964
    # The colour-swap fold: the implicit solve covers the half with A to move, under its 2**31 limit.
    kernels = game.implicit_kernels()
    assert kernels.folded and kernels.size == 1_567_925_964 < implicit.MAX_INDICES


@pytest.mark.parametrize("spec", ["dobutsu:lions", "dobutsu(giraffes=1,elephants=0,chicks=0)"])
def test_ranking_round_trips_on_every_index(spec):
    game = parse_spec(spec)
    for i in range(game.index_space()):
        assert game.rank(game.unrank(i)) == i


def test_compiled_ranking_round_trips_and_equals_the_rules():
    """The kernels' compiled ranking (the same source as the rules', table-driven): every index of
    the chicks game and a million random ones of the full game unrank and rank back, and its
    positions are the rules' (Python) ones on a sample."""
    from numba import njit

    from explorer.games.dobutsu.kernels import _rank, _unrank, kernels

    @njit
    def first_failure(ctx, indices, boards, hands):
        board, hand = np.empty(12, np.int64), np.empty(6, np.int64)
        for k in range(len(indices)):
            mover = _unrank(ctx, indices[k], board, hand)
            if _rank(ctx, mover, board, hand) != indices[k]:
                return indices[k]
            if k < len(boards):
                boards[k] = board
                hands[k] = hand
        return -1

    for spec, indices in [(CHICKS, None), (STANDARD, 1_000_000)]:
        game = parse_spec(spec)
        ctx = kernels(game, folded=False).ctx
        every = np.arange(game.index_space(), dtype=np.int64) if indices is None else \
            np.random.default_rng(13).integers(0, game.index_space(), indices).astype(np.int64)
        boards, hands = np.zeros((500, 12), np.int64), np.zeros((500, 6), np.int64)
        assert first_failure(ctx, every, boards, hands) == -1, spec
        for k in range(500):
            position = game.unrank(int(every[k]))
            assert (list(position.board), list(position.hands)) == (list(boards[k]), list(hands[k])), spec


def test_ranking_round_trips_at_random_in_the_full_game():
    game = parse_spec(STANDARD)
    rng = random.Random(11)
    for _ in range(3000):
        i = rng.randrange(game.index_space())
        position = game.unrank(i)
        assert game.rank(position) == i
        assert game.parse(game.format(position)) == position


# -- kernels and un-moves against the rules ----------------------------------------------------

def brute_force_unmoves(game) -> dict[int, set[int]]:
    preds: dict[int, set[int]] = {i: set() for i in range(game.index_space())}
    for i in range(game.index_space()):
        for move in game.moves(game.unrank(i)):
            preds[game.rank(move.position)].add(i)
    return preds


@functools.cache
def compiled(spec: str, folded: bool):
    from explorer.games.dobutsu.kernels import kernels

    game = parse_spec(spec)
    return game, kernels(game, folded)


def assert_kernels_match(spec: str, indices, preds: dict[int, set[int]] | None = None) -> None:
    """The kernels against the rules at these indices of the whole ranking: the unfolded ones at
    each index, the folded ones (the implicit solve's) at its twin in the first half, whose
    successors and un-moves must be the rules' folded (ImplicitKernels.fold_index)."""
    for folded in (False, True):
        game, k = compiled(spec, folded)
        out = np.empty(max(k.max_moves, k.max_unmoves), dtype=np.int64)
        labels = np.empty(k.max_moves, dtype=np.int64)
        for i in indices:
            i = k.fold_index(i)
            assert 0 <= i < k.size
            position = game.unrank(i)
            outcome = game.outcome(position)
            shown = game.format(position)
            assert k.valid(k.ctx, i)
            assert k.terminal(k.ctx, i) == (-1 if outcome is None else int(outcome)), shown
            moves = game.moves(position)
            count = k.labelled_successors(k.ctx, i, out, labels)
            assert list(out[:count]) == [k.fold_index(game.rank(m.position)) for m in moves], shown
            assert [game.batch_label(x) for x in labels[:count]] == [m.label for m in moves], shown
            assert k.successors(k.ctx, i, out) == count and k.move_count(k.ctx, i) == count, shown
            count = k.predecessors(k.ctx, i, out)
            got = list(out[:count])
            assert len(got) == len(set(got)), shown
            assert set(got) == {k.fold_index(game.rank(p)) for p in game.unmoves(position)}, shown
            if preds is not None:
                assert set(got) == {k.fold_index(p) for p in preds[i]}, shown


@pytest.mark.parametrize("spec", ["dobutsu:lions", "dobutsu:small"])
def test_unmoves_equal_a_brute_force_and_kernels_equal_the_rules_on_every_index(spec):
    game = parse_spec(spec)
    preds = brute_force_unmoves(game)
    for i in range(game.index_space()):
        got = [game.rank(p) for p in game.unmoves(game.unrank(i))]
        assert len(got) == len(set(got)) and set(got) == preds[i], game.format(game.unrank(i))
    indices = range(game.index_space()) if game.index_space() < 1000 else \
        random.Random(3).sample(range(game.index_space()), 3000)
    assert_kernels_match(spec, indices, preds)


@pytest.mark.parametrize("spec", [CHICKS, STANDARD])
def test_kernels_equal_the_rules_at_random_and_along_games(spec):
    game = parse_spec(spec)
    rng = random.Random(5)
    indices = [rng.randrange(game.index_space()) for _ in range(300)]
    for _ in range(10):
        position = game.start()
        for _ in range(30):
            indices.append(game.rank(position))
            moves = game.moves(position)
            if not moves:
                break
            position = rng.choice(moves).position
    assert_kernels_match(spec, indices)
    # Un-moves both ways on the sample (the whole game is too large for the brute force above):
    # each listed position has a move here, and each move from a sampled position is undone.
    for i in indices[::5]:
        position = game.unrank(i)
        for before in game.unmoves(position):
            assert position in {m.position for m in game.moves(before)}, game.format(position)
        for move in game.moves(position):
            assert position in game.unmoves(move.position), (game.format(position), move.label)


# -- the implicit solve against the edge solver ---------------------------------------------------

@pytest.mark.parametrize("spec", ["dobutsu:lions", "dobutsu:small", CHICKS])
def test_implicit_solve_equals_edge_solve(spec, tmp_path):
    """The folded solve (the half with A to move) against the edge solver on every reachable
    position, of either player to move: B's are read at their colour-swapped twin's index."""
    game = parse_spec(spec)
    result = implicit.solve(game, tmp_path / "values")
    assert result.meta["folded"] == {"ranking_indices": game.index_space(), "twin_offset": game.index_space() // 2}
    solved = build(game, symmetry=False, use_arrays=False)
    movers = set()
    for node in range(solved.graph.num_positions):
        position = solved.graph.position(node)
        movers.add(game.to_move(position))
        assert (result.value(position), result.remoteness(position)) == (solved.value(node), solved.remoteness(node)), \
            game.format(position)
    assert movers == {0, 1}  # both halves of the ranking were read
    assert result.meta["start"]["value"] == str(solved.value(0))
    assert sum(result.meta["counts"].values()) == result.meta["positions"] == game.index_space() // 2
    assert len(result.values) == game.index_space() // 2


def first_cell_by_the_rules(game, index: int) -> int:
    """The cell of `index` once the first level is worked, from the rules alone: a finished position's
    value at remoteness 0; else a win at 1 when a move finishes the game against the other side, a loss at 1
    when every move finishes it for the other side, else open with the moves not finishing it."""
    from explorer.kernels.retrograde import CODE_BITS, LOSS, OPEN, WIN

    position = game.unrank(index)
    over = game.outcome(position)
    if over is not None:
        return int(over)
    after = [game.outcome(m.position) for m in game.moves(position)]
    if Value.LOSS in after:
        return (1 << CODE_BITS) | WIN
    left = sum(1 for o in after if o != Value.WIN)
    return (left << CODE_BITS) | OPEN if left else (1 << CODE_BITS) | LOSS


@pytest.mark.parametrize("spec", ["dobutsu:lions", "dobutsu:small", CHICKS, STANDARD])
def test_the_first_pass_works_the_first_level_as_the_rules_say(spec):
    """Dōbutsu shōgi's own first pass (kernels.first_cells: no successor built, an index unranked once a run of
    indices that differ in their pieces' owners only) against the rules: over the whole of each reduced game
    and over stretches of the full one (the runs cut at any index), every cell the same as an index unranked
    alone, and as the rules give on every index of the small games and a sample of the others."""
    from explorer.games.dobutsu.kernels import first_cells

    game = parse_spec(spec)
    k = game.implicit_kernels()
    rng = random.Random(11)
    stretches = [(0, k.size)] if k.size <= 2_000_000 else \
        [(at, at + 30_000) for at in rng.sample(range(k.size - 30_000), 4)] + [(k.size - 777, k.size)]
    kinds = set()
    for lo, hi in stretches:
        cells = np.zeros(hi - lo, np.uint16)
        first_cells(k.ctx, lo, cells)
        alone = np.zeros(1, np.uint16)
        for i in rng.sample(range(lo, hi), min(hi - lo, 3000)):
            first_cells(k.ctx, i, alone)
            assert cells[i - lo] == alone[0], i
        checked = range(lo, hi) if hi - lo <= 40_000 else rng.sample(range(lo, hi), 600)
        for i in checked:
            expected = first_cell_by_the_rules(game, i)
            assert int(cells[i - lo]) == expected, game.format(game.unrank(i))
            kinds.add(expected & 7 if expected & 7 == 4 else expected)
    assert kinds <= {0, 3, 8, 11, 4}, kinds
    if spec == "dobutsu:small":  # every index checked: each kind of cell made (loss and win at 0 and 1, open)
        assert kinds == {0, 3, 8, 11, 4}, kinds


@pytest.mark.parametrize("spec", ["dobutsu:lions", "dobutsu:small", CHICKS, "dobutsu(giraffes=1,elephants=0,chicks=0)"])
@pytest.mark.parametrize("threads", [1, 2])
def test_the_solve_from_the_games_first_pass_equals_the_loops_own(spec, threads):
    """The whole solve with Dōbutsu shōgi's own first pass (the first level worked as the cells are filled, the
    queue starting at remoteness 1) leaves the same cells, byte for byte, as with the loop's own first pass
    (implicit_initial, then the first level worked from the queue or the cells: new_state(False)), on one
    thread and on two; its queue never holds a position of remoteness 0."""
    import numba

    from explorer.kernels.retrograde import CODE_BITS, MORE, new_state, no_seeds

    kernels = parse_spec(spec).implicit_kernels()
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        results, starts = [], []
        for own in (True, False):
            state = new_state(own)
            cells, queue = np.empty(kernels.size, np.uint16), np.zeros(kernels.size, np.int32)
            budget = 0  # the first call stops with the first pass done and the queue ready
            while (status := kernels.solve(kernels.ctx, kernels.max_unmoves, cells, queue, state, budget, 0,
                                           *no_seeds())) == MORE:
                if budget == 0:
                    starts.append(np.unique(cells[queue[:state[2]]] >> CODE_BITS).tolist())
                budget = 1000
            assert status == 0
            results.append(cells)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(results[0], results[1])
    assert starts[0] == [1]  # the game's pass: the second level queued, the first never


# -- the Graphviz board -------------------------------------------------------------------------

def test_the_graphviz_board_shows_both_hands_and_the_ranks_in_place():
    import re
    import shutil
    import subprocess

    from explorer.render.boards import board_label

    game = parse_spec(STANDARD)
    label = board_label(game, game.parse("B|ec/gl./.../.C./LEG/-"))
    bold = [c.strip() or "." for c in re.findall(r"<B>([^<]*)</B>", label)]
    assert bold[:3] == ["e", "c", "."] and bold[-1] == "–"  # B's hand above (a row of three), A's (empty) below
    assert "".join(bold[3:-1]) == "gl." + "..." + ".C." + "LEG"  # rank 4 on top, then 3, 2 and 1
    assert "▶ B" in label and "▶ A" not in label
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg"], input=f"digraph {{ n [shape=box label=<{label}>] }}".encode(), check=True,
                       capture_output=True)


def test_a_full_hand_in_the_graphviz_board_is_no_wider_than_the_board():
    """Six pieces in hand are two rows of three cells, the board's width, with the owner's name in
    a column of its own: the hand once was one line of text twice the board's width."""
    import re

    from explorer.render.boards import board_label

    game = parse_spec(STANDARD)
    label = board_label(game, game.parse("A|ggeecc/..l/.../.../L../-"))
    hand = label[:label.index("FIXEDSIZE=\"TRUE\" WIDTH=")]  # what stands above the board's grid
    rows = re.findall(r"<TR>((?:<TD WIDTH=.*?</TD>)+)</TR>", hand)
    assert ["".join(re.findall(r"<B>(.)</B>", row)) for row in rows] == ["gge", "ecc"]
    assert all(len(re.findall(r'WIDTH="18"', row)) == 3 for row in rows)  # as wide as the board's three


# -- the description (the page's header) -------------------------------------------------------
@pytest.mark.parametrize("giraffes, elephants, chicks", [(g, e, c) for g in (0, 1) for e in (0, 1) for c in (0, 1)])
def test_the_description_names_the_pieces_these_parameters_give(giraffes, elephants, chicks):
    from explorer.games.dobutsu.rules import Dobutsu, DobutsuParams

    game = Dobutsu(DobutsuParams(giraffes=giraffes, elephants=elephants, chicks=chicks))
    kinds = {"giraffe": giraffes, "elephant": elephants, "chick": chicks}
    if all(kinds.values()):
        assert game.description == Dobutsu.description  # the full game: the published result too
        return
    without = game.description.split(":", 1)[0]
    has = game.description.split("each player has ", 1)[1].split(" on the 3x4 board", 1)[0]
    for kind, count in kinds.items():
        assert (f"{kind}s" in without) == (not count) and (kind in has) == bool(count)
    assert "lion" in has and ("drops" in game.description) == any(kinds.values())
    assert "second player wins" not in game.description  # Tanaka solved the full game only


def test_the_batch_helpers_of_the_whole_ranking_are_compiled_once_per_process():
    """The edge mode's batch moves and outcomes go through explorer.kernels.implicit.batch_wrappers (Dōbutsu's
    kernels module offers no cached pair for the whole ranking), which compiles a fresh closure at each call:
    they are made once per process and reused, not at every batch (the graph of dobutsu:small took 10.6 s of
    CPU, all of it compiling, at every generate). The answers are those of the game's rules."""
    from explorer.games.dobutsu.kernels import kernels

    game = parse_spec("dobutsu:lions")
    first, second = kernels(game, folded=False), kernels(game, folded=False)
    assert first.moves_of is None and first.terminal_of is None  # the fallback is what is checked here
    codes = np.array([game.encode(game.start())], dtype=np.int64)
    batches = [k.batch_moves(codes) for k in (first, second, first)]
    assert first._batch_kernels() is second._batch_kernels() is first._batch_kernels()
    moves_of, terminal_of = first._batch_kernels()
    assert len(moves_of.signatures) == 1
    first.batch_terminal(codes), second.batch_terminal(codes)
    assert len(terminal_of.signatures) == 1
    assert all(np.array_equal(b.target, batches[0].target) for b in batches)
    by_rules = sorted(game.encode(m.position) for m in game.moves(game.start()))
    assert sorted(batches[0].target.tolist()) == by_rules
