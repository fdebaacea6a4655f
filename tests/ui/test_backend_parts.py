"""The page's networkx mirror (explorer/ui/backend.py `_mirror`) asked for a part's graph id
(explorer.graph.part_graph_id): the part's own mirror when the caller holds the part, else one clear
line; never the whole game's mirror cache, which would solve the whole game or file the part under
the game's name."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from explorer import implicit  # noqa: E402
from explorer.core.errors import GameGraphError  # noqa: E402
from explorer.games import parse_spec  # noqa: E402
from explorer.graph import part_graph_id  # noqa: E402
from explorer.solved import build, materialise  # noqa: E402
from explorer.ui import backend as ui_backend  # noqa: E402

SPEC = "dodgem:3x3"


@pytest.fixture
def part(tmp_path, monkeypatch):
    """A part of Dodgem 3x3 around a position one move from the start, from its value file; the whole
    game's mirror cache is out of bounds (mirror_for fails the test if it is asked)."""
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))
    game = parse_spec(SPEC)
    centre = game.moves(game.start())[0].position
    made = materialise(implicit.solve(game), centre, 2, "both")

    def whole_game_mirror(*args, **kwargs):
        raise AssertionError("the whole game's mirror was asked for a part")

    monkeypatch.setattr(ui_backend, "mirror_for", whole_game_mirror)
    ui_backend._mirror.clear()
    yield game, made
    ui_backend._mirror.clear()


def test_a_part_id_with_its_part_gives_the_parts_mirror(part):
    game, made = part
    assert made.graph.graph_id == part_graph_id(game, made.centre, 2, "both")
    G, queries = ui_backend._mirror(made.graph.graph_id, made)
    assert set(G.nodes) == set(made.graph.keys())  # the part, and nothing past it
    assert G.number_of_edges() == made.graph.num_moves
    assert queries.position(made.centre)["value"] == str(made.value(0))


def test_a_part_id_without_its_part_is_one_line(part):
    game, made = part
    with pytest.raises(GameGraphError) as refused:
        ui_backend._mirror(made.graph.graph_id)
    line = str(refused.value)
    assert "\n" not in line and "is a part of" in line and made.centre in line, line


def test_a_malformed_part_id_is_one_line(part):
    game, made = part
    with pytest.raises(GameGraphError) as refused:
        ui_backend._mirror(f"{game.id}@around({made.centre};radius=2)")
    assert "is not the id of a part" in str(refused.value)


def test_the_solved_graph_of_another_game_is_refused(part):
    game, made = part
    with pytest.raises(GameGraphError) as refused:
        ui_backend._mirror(game.id, made)   # the whole game's id, a part's arrays
    assert "mixed two games" in str(refused.value)
    other = build("nim:small")
    with pytest.raises(GameGraphError):
        ui_backend._mirror(made.graph.graph_id, other)
