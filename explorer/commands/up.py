"""`gamegraph up`: the main job in one command.

Start the embedded Neo4j (when Java and Maven are there), solve every Chopsticks
preset, load each into Neo4j and the networkx mirror, then run the explorer UI.
Without Neo4j it still ends in the UI, on the networkx mirror, and says why.
"""

from __future__ import annotations

import argparse
import sys

from explorer.commands import port_number, ui
from explorer.errors import GameGraphError
from explorer.games.chopsticks import Chopsticks
from explorer.solved import load_or_build


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("up", help="start Neo4j, solve and load every Chopsticks preset, open the UI")
    p.add_argument("--port", type=port_number, default=8501, help="UI port (default 8501)")
    p.add_argument("--host", default="127.0.0.1", help="UI address (default 127.0.0.1)")
    p.add_argument("--headless", action="store_true", help="do not open a browser window")
    p.add_argument("--no-neo4j", action="store_true", help="skip Neo4j; the UI uses the networkx mirror")
    p.add_argument("--no-ui", action="store_true", help="prepare everything, then exit instead of starting the UI")
    p.set_defaults(func=run)


def preset_specs() -> list[str]:
    return [f"{Chopsticks.name}:{preset}" for preset in Chopsticks.presets]


def run(args: argparse.Namespace) -> int:
    ui.check_address(args.host, args.port)  # before any work: a bad --host or --port fails in a second
    connection = None if args.no_neo4j else _start_neo4j()
    driver, settings = connection or (None, None)
    try:
        for spec in preset_specs():
            _prepare(spec, driver, settings)
    finally:
        if driver is not None:
            driver.close()
    if args.no_ui:
        return 0
    say(f"starting the explorer on http://{args.host}:{args.port}  (Ctrl-C stops it)")
    return ui.run(args)


def _start_neo4j():
    from loaders import neo4j_server
    from loaders.settings import Neo4jSettings, open_driver

    try:
        neo4j_server.start()
        settings = Neo4jSettings.from_env()
        return open_driver(settings), settings
    except GameGraphError as exc:
        say(f"Neo4j is not available, the UI will use the networkx mirror: {exc}")
        return None


def _prepare(spec: str, driver, settings) -> None:
    from loaders import mirror, neo4j_loader

    solved = load_or_build(spec)
    mirror.mirror_for(solved.game, solved=solved)
    where = "networkx"
    if driver is not None:
        if neo4j_loader.game_properties(driver, settings.database, solved.graph.graph_id) is None:
            neo4j_loader.load(solved, driver, settings.database)
        where = "networkx + Neo4j"
    remoteness = solved.remoteness(0)
    value = f"{solved.value(0)}" + ("" if remoteness is None else f" in {remoteness}")
    say(f"{spec:<34} {solved.graph.num_positions:>5} positions {solved.graph.num_moves:>5} moves  "
        f"start: {value:<12} ready in {where}")


def say(message: str) -> None:
    print(f"gamegraph: {message}", file=sys.stderr)
