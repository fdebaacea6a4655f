"""`gamegraph up`: the main job in one command.

Start the embedded Neo4j (when Java and Maven are there), solve every Chopsticks
preset and the small classic games (SMALL_GAMES), load each into Neo4j and the networkx mirror, then run the explorer UI.
Without Neo4j it still ends in the UI, on the networkx mirror, and says why.

What it starts it stops: Ctrl-C or SIGTERM, at any stage, stops the UI and the
Neo4j server that this command started (a server that was already running is
left running, and the command says so and how to stop it). --keep-neo4j leaves
the server running for later commands.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

from explorer.commands import port_number, ui
from explorer.core.errors import GameGraphError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("up", help="start Neo4j, solve and load every Chopsticks preset and the small classic games, open the UI")
    ui.add_server_options(p)
    p.add_argument("--no-neo4j", action="store_true", help="skip Neo4j; the UI uses the networkx mirror")
    p.add_argument("--no-ui", action="store_true", help="prepare everything, then exit instead of starting the UI")
    p.add_argument("--keep-neo4j", action="store_true",
                   help="leave the Neo4j server this command starts running when it exits "
                        "(stop it later with `gamegraph neo4j stop`)")
    p.set_defaults(func=run)


# The classic games at their small (published) sizes, loaded next to the Chopsticks presets:
# the loopy ones and the partizan ones whose positions carry combinatorial values.
SMALL_GAMES = ["mutorere", "ponghauki", "dodgem:3x3", "toads-and-frogs", "domineering", "tictactoe", "nim:marienbad",
               "connect4:small", "teeko:small", "dobutsu:small"]


def preset_specs() -> list[str]:
    from explorer.games.chopsticks.rules import Chopsticks

    return [f"{Chopsticks.name}:{preset}" for preset in Chopsticks.presets] + SMALL_GAMES


def _terminate(signum, frame) -> None:
    raise SystemExit(128 + signum)  # unwinds through the finally blocks that stop what was started


def run(args: argparse.Namespace) -> int:
    ui.check_address(args.host or ui.DEFAULT_ADDRESS, args.port)  # before any work: a bad --host or --port fails in a second
    previous = signal.signal(signal.SIGTERM, _terminate)
    started_neo4j, ours = False, None
    try:
        connection = None
        if not args.no_neo4j:
            from loaders import neo4j_server

            # Decided before the start, so that an interrupt during it still stops the server.
            started_neo4j = not neo4j_server.status().running
            connection = _start_neo4j()
            if started_neo4j:
                ours = neo4j_server.status().pid  # on exit, only this launcher is stopped
        driver, settings = connection or (None, None)
        try:
            for spec in preset_specs():
                _prepare(spec, driver, settings)
        finally:
            if driver is not None:
                driver.close()
        if args.no_ui:
            if started_neo4j and not args.keep_neo4j:
                say("Neo4j keeps running for later commands; stop it with `gamegraph neo4j stop`")
                started_neo4j = False  # --no-ui prepares for later use: the server is the point
            return 0
        return ui.run(args, announce=_announce(started_neo4j, args.keep_neo4j, connection is not None),
                      settings=_page_settings(args.no_neo4j))
    finally:
        signal.signal(signal.SIGTERM, previous)
        if started_neo4j and not args.keep_neo4j:
            _stop_neo4j(ours)


def _page_settings(no_neo4j: bool) -> dict[str, str]:
    """The environment the UI gets besides ours: with --no-neo4j the page never probes Neo4j nor
    asks for its password (loaders.settings.neo4j_switched_off), as the command itself does not."""
    from loaders.settings import NO_NEO4J_ENV

    return {NO_NEO4J_ENV: "1"} if no_neo4j else {}


def _announce(started: bool, keep: bool, neo4j_up: bool) -> str:
    if not neo4j_up:
        return "the explorer (networkx mirror)"
    if started and not keep:
        return "the explorer and Neo4j, both stopped on exit,"
    return "the explorer (Neo4j keeps running after it; `gamegraph neo4j stop` stops it)"


def _start_neo4j():
    """(driver, settings) of the started (or already running) server, or None without Neo4j."""
    from loaders import neo4j_server
    from loaders.settings import Neo4jSettings, open_driver

    try:
        neo4j_server.start()
        settings = Neo4jSettings.from_env()
        return open_driver(settings), settings
    except GameGraphError as exc:
        say(f"Neo4j is not available, the UI will use the networkx mirror: {exc}")
        return None


def _stop_neo4j(ours: int | None = None) -> None:
    """Stop the server this run started (launcher pid `ours`; None: interrupted while starting it,
    so whichever is running), never one started by someone else since."""
    from loaders import neo4j_server

    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not interrupt the clean stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        if neo4j_server.status().running:
            try:
                neo4j_server.stop(only=ours)
            except BrokenPipeError:  # whoever read our output has gone (a closed pipe): stop quietly
                sys.stdout = sys.stderr = open(os.devnull, "w")
                neo4j_server.stop(only=ours)
    except GameGraphError as exc:
        say(f"could not stop Neo4j: {exc}")


def _prepare(spec: str, driver, settings) -> None:
    from explorer.solved import open_graph
    from loaders import mirror, neo4j_loader

    solved = open_graph(spec)
    mirror.mirror_for(solved.game, solved=solved)
    where = "networkx"
    if driver is not None:
        neo4j_loader.load(solved, driver, settings.database)  # checks counts only when unchanged, else updates
        where = "networkx + Neo4j"
    remoteness = solved.remoteness(0)
    value = f"{solved.value(0)}" + ("" if remoteness is None else f" in {remoteness}")
    say(f"{spec:<34} {counted_graph(solved)}  start: {value:<12} ready in {where}")


def counted_graph(solved) -> str:
    """The graph's positions and moves, labelled "up to symmetry" when mirror images are one position, with
    the count in all beside it (README and check-game say 161,029 for connect4:small, the log said 80,541
    unlabelled). That count generates the game again without symmetry: 0.6 s of CPU for every game `up`
    prepares together, 0.45 s of it connect4:small's."""
    from explorer.graph import generate

    graph = solved.graph
    counts = f"{graph.num_positions:,} positions and {graph.num_moves:,} moves"
    if not graph.symmetry:
        return counts
    in_all = generate(solved.game, symmetry=False).num_positions
    return f"{counts} up to symmetry ({in_all:,} positions in all)"


def say(message: str) -> None:
    print(f"gamegraph: {message}", file=sys.stderr, flush=True)
