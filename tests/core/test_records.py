"""One position record and one move order (explorer/core/records.py), and one implementation of the
position queries: the solved arrays answer exactly as the networkx mirror (queries/arrays_backend.py)."""

from __future__ import annotations

import io
import random

import pytest

from explorer import export, implicit
from explorer.core import records
from explorer.core.errors import QueryError
from explorer.games import parse_spec
from explorer.solved import build, load_or_build
from loaders import mirror
from queries.api import ArraysBackend, NetworkxBackend, run_query

GAMES = ["chopsticks", "chopsticks:magic-fingers", "tictactoe", "nim:small", "mutorere", "ponghauki",
         "toads-and-frogs:winning-ways", "domineering"]


def test_every_home_of_the_record_uses_one_field_list():
    solved = build("chopsticks")
    record = solved.record(0)
    assert tuple(record)[:len(records.POSITION_FIELDS)] == records.POSITION_FIELDS
    assert list(record)[len(records.POSITION_FIELDS):] == ["hands"]
    assert tuple(mirror.position_columns(solved))[:len(records.POSITION_FIELDS)] == records.POSITION_FIELDS
    assert export.POSITION_COLUMNS == list(records.POSITION_FIELDS)
    out = io.StringIO()
    export.write(export.position_records(solved), out, "csv", export.POSITION_COLUMNS)
    assert out.getvalue().splitlines()[0] == ",".join(records.POSITION_FIELDS + ("hands",))
    short = solved.record(0, full=False)
    assert tuple(short) == records.POSITION_FIELDS[:7] and short == {k: record[k] for k in short}


def test_the_move_order_is_best_first_and_stable():
    rows = [records.move_record("a", "x", "loss", 3, False), records.move_record("b", "x", "win", 5, False),
            records.move_record("c", "x", "win", 1, False), records.move_record("d", "x", "draw", None, True),
            records.move_record("e", "x", "loss", 7, False), records.move_record("f", "x", "tie", 2, False),
            records.move_record("g", "x", "win", 1, False)]
    assert [m["label"] for m in records.best_first(rows)] == ["d", "c", "g", "b", "f", "e", "a"]


def test_the_principal_line_is_one_walk_for_both_modes(tmp_path):
    game = parse_spec("chopsticks")
    solved = build(game, symmetry=False)
    values = implicit.solve(game, tmp_path / "v")
    for node in [0, *random.Random(3).sample(range(solved.graph.num_positions), 25)]:
        line = solved.principal_line(node, limit=60)
        steps = values.best_line(solved.graph.position(node), limit=60)
        assert [solved.graph.key(n) for n, _ in line] == [s["key"] for s in steps]
        assert [label for _, label in line[1:]] == [s["move"] for s in steps[:-1]]


def _presets_the_page_mirrors() -> list[str]:
    """Every built-in preset the page holds as a solved graph with a networkx mirror, but those whose mirror
    costs more than a few seconds here (MIRRORED_PRESETS_UP_TO positions by the game's estimate: Dodgem 4x4's
    395,294 take 26 s of CPU; its questions run the same code as Dodgem 3x3's). Those in GAMES are asked
    about more positions below."""
    from explorer.games import registry

    specs, asked = [], {parse_spec(spec).stored_id for spec in GAMES}
    for name, game_class in registry.registered().items():
        if not game_class.__module__.startswith(registry.BUILTIN_GAMES):  # a plug-in another test registered
            continue
        for preset in game_class.presets:
            spec = f"{name}:{preset}"
            game = parse_spec(spec)
            if game.estimate_positions(True) <= MIRRORED_PRESETS_UP_TO and game.stored_id not in asked:
                specs.append(spec)
    return specs


MIRRORED_PRESETS_UP_TO = 200_000
PRESETS = _presets_the_page_mirrors()


@pytest.mark.parametrize("spec, sampled", [(spec, 8) for spec in GAMES] + [(spec, 0) for spec in PRESETS])
def test_the_arrays_answer_every_position_query_as_the_mirror(spec, sampled):
    """The page's questions about one position come from the solved arrays (explorer/ui/backend.py LazyMirror)
    with the mirror's rows: at every mirrored preset's start, and at `sampled` more positions of GAMES."""
    solved = load_or_build(spec)
    nx_backend, arrays = NetworkxBackend(mirror.mirror_for(spec, solved=solved)), ArraysBackend(solved)
    keys = sorted(nx_backend.G.nodes)
    rnd = random.Random(spec)
    for key in [nx_backend.start_key, *rnd.sample(keys, min(sampled, len(keys)))]:
        calls = [("neighbourhood", {"k": k, "direction": d, "limit": limit})
                 for k in (1, 3) for d in ("out", "in", "both") for limit in (4, 500)]
        calls += [("shortest-cycle", {}), ("shortest-cycle", {"max_length": 4}), ("cycles", {"max_length": 6}),
                  ("cycles", {"max_length": 8, "limit": 3}), ("draw-cycles", {"max_length": 8, "limit": 1}),
                  ("dangerous-moves", {}), ("path", {"to": rnd.choice(keys)})]
        if nx_backend.G.nodes[key]["value"] != "draw":
            calls.append(("shortest-win", {}))
        assert arrays.position(key) == {name: nx_backend.position(key)[name] for name in arrays.position(key)}
        for name, params in calls:
            expected = run_query(nx_backend, name, position=key, **params)
            actual = run_query(arrays, name, position=key, **params)
            assert (actual.game, actual.params, actual.tables, actual.truncated, actual.notes, actual.positions,
                    actual.moves, actual.boards, actual.named) == (
                        expected.game, expected.params, expected.tables, expected.truncated, expected.notes,
                        expected.positions, expected.moves, expected.boards, expected.named), (spec, key, name, params)


def test_the_arrays_refuse_questions_over_every_position_and_unknown_positions():
    arrays = ArraysBackend(build("chopsticks"))
    with pytest.raises(QueryError, match="every position.*networkx mirror or Neo4j"):
        run_query(arrays, "stats")
    mirrored = NetworkxBackend(mirror.to_networkx(build("chopsticks")))
    assert arrays.position("A|1-1|1-1")["value"] == "draw"
    for key in ("A|1-1|1-2", "B|1-1|1-1", "A|1-1|2-1", "A|0-0|1-1", "not a key"):  # stored, stored, not canonical, ...
        assert (arrays.position(key) is None) == (mirrored.position(key) is None), key
