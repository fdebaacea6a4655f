"""The page's best line names each move and position as played on the board shown, as `gamegraph query`'s
line table does (queries.results.played_tables, issue 37: one move, one name), and keeps the stored key,
the one Cypher needs, in a column of its own."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from explorer.solved import build  # noqa: E402
from loaders.mirror import to_networkx  # noqa: E402
from queries.api import NetworkxBackend, run_query  # noqa: E402
from queries.results import played_tables  # noqa: E402
from tests.support.ui_support import isolated, page  # noqa: E402,F401 - the autouse fixture

SPEC, TYPED = "chopsticks:magic-fingers", "A|3-1|1-2"  # a mirror image of its stored key, A|1-3|1-2


def test_the_best_line_table_is_named_as_played_with_the_stored_key_beside():
    solved = build(SPEC)
    game, graph = solved.game, solved.graph
    assert graph.key(graph.find(TYPED)) != TYPED
    at = page(game=SPEC, pos=TYPED, view="Best line")
    assert not at.exception and not at.error, [e.value for e in at.error]
    table = next(d.value for d in at.dataframe if "stored key" in d.value.columns)
    rows = table.to_dict("records")
    assert rows[0]["position"] == TYPED and rows[0]["move"] == ""
    # each position is the one before it with the move named applied: the board as played, never a mirror jump
    for before, after in zip(rows, rows[1:]):
        moved = {m.label: game.format(m.position) for m in game.moves(game.parse(before["position"]))}
        assert moved[after["move"]] == after["position"], (before, after)
    # the stored key is the graph's (what a Cypher MATCH on key finds), and it differs somewhere
    assert all(r["stored key"] == graph.key(graph.find(r["position"])) for r in rows)
    assert any(r["stored key"] != r["position"] for r in rows)
    # the same names as the CLI's line table (gamegraph query ... shortest-win)
    result = run_query(NetworkxBackend(to_networkx(solved)), "shortest-win", position=TYPED)
    cli = played_tables(result)["line"].records()
    assert [(r["key"], r["stored"]) for r in cli] == [(r["position"], r["stored key"]) for r in rows]
    assert [r["label"] for r in cli if r["label"] is not None] == [r["move"] for r in rows[1:]]  # the move out of
    # each position there, the move into the next one here
