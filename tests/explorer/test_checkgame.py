"""check-game: every shipped game passes; each deliberately broken module is caught with the right message."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.checkgame import check_game
from explorer.cli import main
from explorer.core.errors import GraphTooLarge
from explorer.games import games, parse_spec, plugins

BROKEN = Path(__file__).resolve().parents[1] / "support" / "plugin_games" / "broken_games.py"


@pytest.fixture(scope="module")
def broken():
    yield {cls.name for cls in plugins.load_file(BROKEN)}
    plugins.unload(BROKEN)


def shipped_specs() -> list[str]:
    """Every registered game with its defaults and each preset (games added later are covered too)."""
    specs = []
    for name, cls in games().items():
        if cls.__module__.startswith("explorer.games."):
            specs += [name] + [f"{name}:{p}" for p in cls.presets]
    return specs


@pytest.mark.parametrize("spec", shipped_specs())
def test_every_shipped_game_passes(spec):
    try:
        report = check_game(parse_spec(spec), limit=100_000)
    except GraphTooLarge as exc:  # e.g. a 5x5 preset meant for the implicit mode: checked at its small sizes
        pytest.skip(str(exc))
    assert report.ok, report.text()


CAUGHT = [
    ("broken-notation", "notation round-trips", "parse(format(p)) gives"),
    ("broken-canonical-idempotent", "canonical form", "not idempotent"),
    ("broken-canonical-commutes", "canonical form", "does not commute with moves"),
    ("broken-outcome-never-over", "outcome agrees with moves", "is not over (outcome None) but has no moves"),
    ("broken-outcome-over-too-soon", "outcome agrees with moves", "is over (loss) but has"),
    ("broken-alternation", "outcome agrees with moves", "moves must alternate"),
    ("broken-nondeterministic", "deterministic", "differ between two calls"),
    ("broken-encoding", "encode/decode", "decode(encode(p)) is"),
    ("broken-ranking", "rank/unrank", "unrank(rank(p)) is"),
    ("broken-unmoves", "un-moves", "does not list"),
    ("broken-unmoves-extra", "un-moves", "but no move of"),
    ("broken-arrays", "array path", "missing from batch_moves"),
    ("broken-raises", "outcome agrees with moves", "raised KeyError"),
]


@pytest.mark.parametrize("name,check,message", CAUGHT, ids=[c[0] for c in CAUGHT])
def test_broken_games_are_caught_with_the_right_message(broken, name, check, message):
    report = check_game(parse_spec(name))
    failed = report.failed()
    assert failed, report.text()
    assert check in failed[0].name, report.text()  # the first failing check is the one broken
    assert any(message in p for p in failed[0].problems), report.text()
    # The message names the offending position in the game's notation.
    assert any("|" in p for p in failed[0].problems), report.text()


def test_the_sound_copy_passes(broken):
    assert check_game(parse_spec("sound-copy")).ok


@pytest.fixture
def clean_env(monkeypatch):
    """--game-module exports the path for child processes: keep that out of the other tests."""
    monkeypatch.setenv(plugins.ENV, "")


def test_cli_exit_status_and_output(broken, capsys, clean_env):
    assert main(["check-game", "ponghauki"]) == 0
    assert "all checks passed" in capsys.readouterr().out
    assert main(["--game-module", str(BROKEN), "check-game", "broken-ranking"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  rank/unrank round-trip" in out and "unrank(rank(p))" in out


def test_cli_checks_every_game_of_a_file(broken, capsys, clean_env):
    assert main(["check-game", str(BROKEN), "--format", "json"]) == 1
    import json
    reports = {r["game"]: r for r in json.loads(capsys.readouterr().out)}
    assert reports["sound-copy"]["ok"] and not reports["broken-arrays"]["ok"]  # games without parameters: bare names


def test_a_bad_target_is_one_line(capsys):
    assert main(["check-game", "no-such-game"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'no-such-game'" in err and "Traceback" not in err
