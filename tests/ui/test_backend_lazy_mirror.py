"""The networkx mirror is built on the first question over every position asked of the page's backend, not
when the page chooses it nor for a question about one position, which the solved arrays answer with the
mirror's rows: a run whose open tab asks nothing (the whole-graph drawing, Play) or only about positions
(Neighbourhood, lines, cycles, paths) never pays for it. A mirror that cannot be made gives one warning,
and the solved arrays answer the same questions."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")

from explorer.core.errors import GameGraphError, QueryError  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.ui import backend as ui_backend  # noqa: E402
from loaders.mirror import to_networkx  # noqa: E402
from queries import api  # noqa: E402


@pytest.fixture
def no_neo4j(monkeypatch):
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")  # nothing listens there: the mirror is chosen
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    ui_backend.connection.clear()
    yield
    ui_backend.connection.clear()


def _counted(monkeypatch, fail: bool = False) -> list[str]:
    asked: list[str] = []
    real = ui_backend._mirror

    def mirror(graph_id, _solved=None):
        asked.append(graph_id)
        if fail:
            raise GameGraphError("no room for it")
        return real(graph_id, _solved)

    monkeypatch.setattr(ui_backend, "_mirror", mirror)
    return asked


@pytest.mark.parametrize("spec", ["chopsticks:standard", "tictactoe:standard"])
def test_questions_about_one_position_never_build_the_mirror_and_one_over_every_position_builds_it_once(
        spec, monkeypatch, no_neo4j):
    asked = _counted(monkeypatch)
    solved = build(spec)
    chosen = ui_backend.choose(solved.graph.graph_id, solved.graph.num_positions, solved=solved)
    assert chosen.kind == "networkx" and asked == []
    mirrored = api.NetworkxBackend(to_networkx(solved))
    start = solved.graph.key(0)
    far = sorted(mirrored.G.nodes)[len(mirrored.G) // 2]
    assert (chosen.queries.game_id, chosen.queries.start_key, chosen.queries.symmetry) == (
        mirrored.game_id, mirrored.start_key, mirrored.symmetry)
    assert chosen.queries.game.display_name == mirrored.game.display_name
    asked_of_both = [("neighbourhood", dict(position=start, k=2)), ("shortest-cycle", dict(position=start)),
                     ("cycles", dict(position=start, max_length=6)), ("dangerous-moves", dict(position=start)),
                     ("path", dict(position=start, to=far))]
    lazy = [api.run_query(chosen.queries, name, **params) for name, params in asked_of_both]
    position = chosen.queries.position(start)
    assert asked == [], "a question about one position is answered from the solved arrays"
    assert position == {name: mirrored.position(start)[name] for name in position} and position["key"] == start
    assert chosen.queries.position("no such key") is None
    direct = [api.run_query(mirrored, name, **params) for name, params in asked_of_both]
    assert [r.tables for r in lazy] == [r.tables for r in direct] and all(r.tables for r in lazy)
    assert [r.boards for r in lazy] == [r.boards for r in direct]
    stats = api.run_query(chosen.queries, "stats")
    assert asked == [solved.graph.graph_id], "a question over every position builds the mirror"
    assert stats.tables == api.run_query(mirrored, "stats").tables
    api.run_query(chosen.queries, "components")
    again = api.run_query(chosen.queries, "neighbourhood", position=start, k=2)
    assert asked == [solved.graph.graph_id], "the mirror is made once per backend"
    assert again.tables == lazy[0].tables and chosen.queries.position(start) == mirrored.position(start), \
        "once built, the mirror answers everything"


def test_a_mirror_that_cannot_be_made_hands_the_questions_to_the_solved_arrays(monkeypatch, no_neo4j):
    asked = _counted(monkeypatch, fail=True)
    warned: list[str] = []
    monkeypatch.setattr(ui_backend.st, "warning", lambda text, **_: warned.append(text))
    solved = build("chopsticks:standard")
    chosen = ui_backend.choose(solved.graph.graph_id, solved.graph.num_positions, solved=solved)
    start = solved.graph.key(0)
    answered = api.run_query(chosen.queries, "neighbourhood", position=start, k=1)
    assert asked == [] and warned == []
    assert answered.tables == api.run_query(api.ArraysBackend(solved), "neighbourhood", position=start, k=1).tables
    with pytest.raises(QueryError, match="every position.*networkx mirror or Neo4j"):
        api.run_query(chosen.queries, "stats")
    assert asked == [solved.graph.graph_id]
    assert len(warned) == 1 and "could not be made (no room for it); the solved arrays answer instead" in warned[0]
    again = api.run_query(chosen.queries, "neighbourhood", position=start, k=1)
    assert again.tables == answered.tables and asked == [solved.graph.graph_id] and len(warned) == 1


def test_without_the_solved_graph_every_question_goes_to_the_mirror(monkeypatch, no_neo4j):
    asked = _counted(monkeypatch)
    solved = build("nim:small")
    chosen = ui_backend.choose(solved.graph.graph_id, solved.graph.num_positions)
    start = solved.graph.key(0)
    answered = api.run_query(chosen.queries, "neighbourhood", position=start, k=1)
    assert asked == [solved.graph.graph_id]
    assert answered.tables == api.run_query(api.NetworkxBackend(to_networkx(solved)), "neighbourhood",
                                            position=start, k=1).tables
