"""The `gamegraph` command line. Each feature area registers its own subcommands.

Every user mistake or environment fault is a GameGraphError: one line on
stderr, exit status 2, no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from explorer.errors import GameGraphError

# Modules with a `register(subparsers)` function; each adds its subcommands.
COMMAND_MODULES = (
    "explorer.commands.core",
    "loaders.commands",
    "queries.commands",
    "explorer.commands.ui",
    "explorer.commands.up",
    "explorer.commands.cgt",
    "explorer.commands.analysis",
    "explorer.commands.survey",
    "explorer.commands.play",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamegraph",
        description="Generate, solve exactly, load into Neo4j and explore the state graphs of small games.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue  # a feature area that is not installed
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except GameGraphError as exc:
        print(f"gamegraph: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gamegraph: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
