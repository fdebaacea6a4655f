"""`gamegraph query PART-ID ...`: a part of a game solved into a value file, named by the id `load --around`
prints (explorer.graph.part_graph_id), on networkx (made again from the value file). The Neo4j half, on
the real server, is in tests/commands/test_load_part.py."""

from __future__ import annotations

import json

import pytest

from explorer import implicit
from explorer.games import parse_spec
from explorer.graph import parse_graph_id, parse_part_id, part_graph_id
from explorer.solved import materialise
from tests.commands.test_cli import run

SPEC = "dodgem:3x3"


@pytest.fixture
def solved(tmp_path, monkeypatch):
    """Dodgem 3x3 solved into its value file in the state folder the CLI is given."""
    home = tmp_path / "state"
    monkeypatch.setenv("GAMEGRAPH_HOME", str(home))
    game = parse_spec(SPEC)
    return home, game, implicit.solve(game)


def centre_of(game):
    return game.format(game.moves(game.start())[0].position)


def one_error_line(done) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamegraph: error: ") and "Traceback" not in done.stderr
    return lines[0]


@pytest.mark.parametrize("radius,direction", [(0, "both"), (1, "out"), (2, "both"), (3, "in")])
def test_a_part_id_round_trips_and_names_its_game(radius, direction):
    game = parse_spec(SPEC)
    centre = centre_of(game)
    text = part_graph_id(game, centre, radius, direction)
    part = parse_part_id(text)
    assert (part.game.id, part.centre, part.radius, part.direction) == (game.id, centre, radius, direction)
    assert parse_graph_id(text) == (part.game, False)  # a part is never symmetry-reduced
    assert parse_part_id(game.id) is None and parse_graph_id(game.id)[0].id == game.id


@pytest.mark.parametrize("text,said", [
    ("dodgem(size=3)@around(A|b../b../.rr;radius=2;sideways)", "is not the id of a part"),
    ("dodgem(size=3)@around(A|b../b../.rr;radius=x;both)", "is not the id of a part"),
    ("dodgem(size=3)@around(A|b../b../.rr)", "is not the id of a part"),
    ("dodgem(size=3)@around(not a board;radius=1;both)", "not a board"),
    ("no-such-game@around(A|b../b../.rr;radius=1;both)", "no-such-game"),
])
def test_a_bad_part_id_is_one_line(text, said):
    from explorer.core.errors import GameGraphError

    with pytest.raises(GameGraphError) as refused:
        parse_part_id(text)
    assert "\n" not in str(refused.value) and said in str(refused.value), str(refused.value)


@pytest.mark.parametrize("spelling", ["id", "display name"])
def test_query_answers_on_the_part_with_the_value_files_values(solved, spelling):
    home, game, values = solved
    centre = centre_of(game)
    name = game.id if spelling == "id" else game.display_name
    text = f"{name}@around({centre};radius=2;both)"
    done = run("query", text, "neighbourhood", "--k", "6", "--format", "json", home=home)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    part = materialise(values, game.parse(centre), 2, "both")
    keys = {row[0] for row in result["tables"]["positions"]["rows"]}
    assert keys == set(part.graph.keys())  # the whole part, and nothing past it
    assert result["game"] == part_graph_id(game, centre, 2, "both")
    done = run("query", text, "stats", "--format", "json", home=home)
    assert done.returncode == 0, done.stderr
    by_value = dict(map(tuple, json.loads(done.stdout)["tables"]["by_value"]["rows"]))
    expected = {}
    for key in part.graph.keys():
        value = str(values.value(game.parse(key)))
        expected[value] = expected.get(value, 0) + 1
    assert by_value == expected


def test_a_part_without_a_value_file_is_one_line(tmp_path):
    game = parse_spec(SPEC)
    line = one_error_line(run("query", part_graph_id(game, game.format(game.start()), 1), "stats",
                              home=tmp_path / "empty"))
    assert "is not available on networkx" in line and "--implicit" in line, line


def test_a_malformed_part_id_on_the_command_line_is_one_line(solved):
    home, game, _ = solved
    line = one_error_line(run("query", f"{game.id}@around({game.format(game.start())};radius=2)", "stats",
                              home=home))
    assert "is not the id of a part" in line, line


def test_dot_position_graph_draws_the_part_from_the_value_file(solved, tmp_path):
    """`dot PART-ID position-graph` draws the part's own position graph (it stopped at parse_spec before)."""
    from explorer.render import dot

    home, game, values = solved
    centre = centre_of(game)
    out = tmp_path / "part.dot"
    done = run("dot", part_graph_id(game, centre, 2, "both"), "position-graph", "-o", str(out), home=home)
    assert done.returncode == 0, done.stderr
    expected = dot.position_graph_diagram(materialise(values, game.parse(centre), 2, "both"))
    wider = dot.position_graph_diagram(materialise(values, game.parse(centre), 4, "both"), 100_000)
    assert len(expected.nodes) < len(wider.nodes)   # the part's, not a bigger graph's
    assert f"({len(expected.nodes)} positions, {len(expected.edges)} moves)" in done.stdout, done.stdout
    drawn = out.read_text(encoding="utf-8")
    assert "the part within 2 moves of" in drawn and centre in drawn


def test_dot_position_graph_of_a_part_without_a_value_file_is_one_line(tmp_path):
    game = parse_spec(SPEC)
    line = one_error_line(run("dot", part_graph_id(game, centre_of(game), 1), "position-graph",
                              "-o", str(tmp_path / "x.dot"), home=tmp_path / "empty"))
    assert "value file" in line and "--implicit" in line, line


@pytest.mark.parametrize("command", [("dot", "certificate"), ("certificate",)])
def test_a_certificate_of_a_part_is_refused_in_one_line_naming_why(solved, tmp_path, command):
    home, game, _ = solved
    centre = centre_of(game)
    args = [command[0], part_graph_id(game, centre, 2, "both"), *command[1:]]
    if command[0] == "dot":
        args += ["-o", str(tmp_path / "c.dot")]
    line = one_error_line(run(*args, home=home))
    assert "cannot carry one" in line and "to the end of the game" in line, line
    assert f"--position '{centre}'" in line or f"--position {centre}" in line, line   # what to run instead
    assert not (tmp_path / "c.dot").exists()
