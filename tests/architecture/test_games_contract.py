"""One list of built-in games (explorer/games/registry.BUILTIN_GAMES), which the import contract
"Games do not know each other" (pyproject.toml, [tool.importlinter], id "games") must name game for
game: import-linter reads only its own TOML, so this test keeps the two equal, and keeps every
module of explorer/games that registers a game in the list."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from explorer.games.registry import BUILTIN_GAMES

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "explorer" / "games"


def contract_gaps(config: str, games: tuple[str, ...] = BUILTIN_GAMES) -> tuple[list[str], list[str]]:
    """(built-in games the independence contract leaves out, contract modules that are no built-in game)
    of the pyproject text `config`. O(games)."""
    contracts = tomllib.loads(config)["tool"]["importlinter"]["contracts"]
    listed = [c for c in contracts if c.get("id") == "games"]
    assert len(listed) == 1 and listed[0]["type"] == "independence", "pyproject.toml has no contract id = \"games\""
    modules = listed[0]["modules"]
    return sorted(set(games) - set(modules)), sorted(set(modules) - set(games))


def registering_modules() -> set[str]:
    """The game modules (a module, or the package of a game folder) of explorer/games whose source
    registers a game with @register."""
    found = set()
    for path in GAMES.rglob("*.py"):
        if re.search(r"^@register\b", path.read_text(encoding="utf-8"), re.MULTILINE):
            relative = path.relative_to(GAMES).with_suffix("").parts
            found.add("explorer.games." + relative[0])  # a game folder's package: its rules are inside
    return found


def test_the_contract_names_every_built_in_game_and_nothing_else():
    missing, extra = contract_gaps((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert not missing, f"add {missing} to the 'games' independence contract in pyproject.toml"
    assert not extra, f"{extra} are in the 'games' contract of pyproject.toml but not in BUILTIN_GAMES"


def test_every_module_that_registers_a_game_is_built_in():
    assert registering_modules() == set(BUILTIN_GAMES)


def test_a_game_left_out_of_the_contract_is_named():
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    dropped = BUILTIN_GAMES[3]
    assert f'    "{dropped}",\n' in config
    missing, extra = contract_gaps(config.replace(f'    "{dropped}",\n', "", 1))
    assert missing == [dropped] and extra == []
    assert contract_gaps(config, BUILTIN_GAMES[:-1]) == ([], [BUILTIN_GAMES[-1]])
