"""The networkx mirror is built on the first question asked of the page's backend, not when the page
chooses it: a run whose open tab asks nothing (the whole-graph drawing, Play) never pays for it. A
mirror that cannot be made gives one warning, and the solved arrays answer the same questions."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")

from explorer.core.errors import GameGraphError  # noqa: E402
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
def test_choosing_the_mirror_builds_nothing_and_the_first_question_builds_it_once(spec, monkeypatch, no_neo4j):
    asked = _counted(monkeypatch)
    solved = build(spec)
    chosen = ui_backend.choose(solved.graph.graph_id, solved.graph.num_positions, solved=solved)
    assert chosen.kind == "networkx" and asked == []
    start = solved.graph.key(0)
    lazy = api.run_query(chosen.queries, "neighbourhood", position=start, k=1)
    assert asked == [solved.graph.graph_id]
    api.run_query(chosen.queries, "stats")
    assert asked == [solved.graph.graph_id], "the mirror is made once per backend"
    direct = api.run_query(api.NetworkxBackend(to_networkx(solved)), "neighbourhood", position=start, k=1)
    assert lazy.tables == direct.tables and lazy.tables


def test_a_mirror_that_cannot_be_made_hands_the_questions_to_the_solved_arrays(monkeypatch, no_neo4j):
    asked = _counted(monkeypatch, fail=True)
    solved = build("chopsticks:standard")
    chosen = ui_backend.choose(solved.graph.graph_id, solved.graph.num_positions, solved=solved)
    start = solved.graph.key(0)
    answered = api.run_query(chosen.queries, "neighbourhood", position=start, k=1)
    assert asked == [solved.graph.graph_id]
    assert answered.tables == api.run_query(api.ArraysBackend(solved), "neighbourhood", position=start, k=1).tables
