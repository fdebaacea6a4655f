"""`gamegraph check-game NAME|FILE`: the conformance kit for game authors (see explorer/checkgame.py)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from explorer.commands import positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "check-game", help="check that a game module keeps the rules' promises (notation, symmetry, encoding, ...)",
        description="Run every conformance check on a game: a spec (mutorere, chopsticks:standard, "
                    "my-game(size=3)) or a .py file, whose games are checked with their defaults and presets.")
    p.add_argument("target", metavar="NAME|FILE", help="a game spec or a path to a game module (.py)")
    p.add_argument("--max-positions", type=positive_int, default=200_000,
                   help="refuse games with more reachable positions than this (default 200,000)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def games_to_check(target: str) -> list:
    """The games a target names: one spec, or every game of a file with its defaults and each preset."""
    from explorer.games import parse_spec, plugins

    if target.endswith(".py") or _is_file(target):
        found = []
        for cls in plugins.load_file(target):
            plugins.add_module_path(target)
            games = [parse_spec(cls.name)] + [parse_spec(f"{cls.name}:{p}") for p in cls.presets]
            found += list(dict.fromkeys(games))  # a preset equal to the defaults is checked once
        return found
    return [parse_spec(target)]


def _is_file(target: str) -> bool:
    """Whether `target` names an existing file; False for a spec no file can be named by (a name
    over 255 bytes, a NUL), which is then parsed as a spec."""
    try:
        return Path(target).is_file()
    except (OSError, ValueError):
        return False


def run(args: argparse.Namespace) -> int:
    from explorer.checkgame import check_game

    reports = [check_game(game, limit=args.max_positions) for game in games_to_check(args.target)]
    if args.format == "json":
        print(json.dumps([{"game": r.game, "spec": r.spec, "positions": r.positions, "ok": r.ok,
                           "checks": [{"name": c.name, "ok": c.ok, "skipped": c.skipped, "problems": c.count,
                                       "examples": c.problems} for c in r.checks]} for r in reports], indent=2))
    else:
        print("\n\n".join(r.text() for r in reports))
    return 0 if all(r.ok for r in reports) else 1
