"""Subcommands that talk to Neo4j: load, verify, and neo4j start|stop|status.

Every check that can fail without touching the database (the game spec, the
batch size, the connection and credentials, the graph size) runs before the
first write, so a refused `load` leaves Neo4j exactly as it was.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING, Any, Iterable

from explorer.commands import bounded_int, positive_int, shell_hint
from explorer.core.errors import GameGraphError
from explorer.games import parse_spec
from explorer.core.limits import DEFAULT_MAX_POSITIONS
from loaders import neo4j_server
from loaders.defaults import DEFAULT_BATCH_SIZE, DEFAULT_WORKERS
from loaders.settings import Neo4jSettings, open_driver

if TYPE_CHECKING:  # networkx and the driver load when a command needs them, not for --help
    import networkx as nx

MAX_SHOWN_DIFFERENCES = 20
# One transaction per row made `load --batch-size 1` run for minutes; below 50 rows a
# transaction's round trip dominates. Above a million rows a batch is one huge transaction.
MIN_BATCH_SIZE = 50
MAX_BATCH_SIZE = 1_000_000
MAX_WORKERS = 16

def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("load", help="load a game's solved graph into Neo4j (replacing that game only; a reload "
                                         "of an unchanged game writes nothing)")
    _add_game_options(p)
    p.add_argument("--batch-size", type=bounded_int(MIN_BATCH_SIZE, MAX_BATCH_SIZE), default=DEFAULT_BATCH_SIZE,
                   help=f"rows per write transaction, {MIN_BATCH_SIZE:,} to {MAX_BATCH_SIZE:,} "
                        f"(default {DEFAULT_BATCH_SIZE:,})")
    p.add_argument("--workers", type=bounded_int(1, MAX_WORKERS), default=DEFAULT_WORKERS,
                   help=f"concurrent write transactions, 1 to {MAX_WORKERS} (default {DEFAULT_WORKERS})")
    p.add_argument("--replace", action="store_true",
                   help="delete the game's copy in Neo4j and load it again, even when it is unchanged or only its "
                        "properties changed (a reload otherwise verifies it, or updates it in place)")
    p.add_argument("--bulk", action="store_true",
                   help="rebuild the embedded server's whole database offline with Neo4j's importer (much faster for "
                        "big games; rewrites every loaded game, asks first; see docs/neo4j-loading.md)")
    p.add_argument("--yes", action="store_true", help="with --bulk: replace the database without asking")
    p.add_argument("--around", metavar="POSITION",
                   help="load only the positions within --radius moves of POSITION of a game solved into a value "
                        "file (`solve --implicit` or `--tiered`), with their values from the file, as a game id of "
                        "its own (the game's id followed by @around(...)); see docs/implicit.md")
    p.add_argument("--radius", metavar="K", type=_radius,
                   help="with --around: how many moves from POSITION (a few: a part past its size limit is refused)")
    p.add_argument("--direction", choices=("both", "out", "in"),
                   help="with --around: follow moves forward (out), backward by un-moves (in) or both (default)")
    p.set_defaults(func=cmd_load)

    # prefix_chars="+": every argument, --help and --version included, belongs to neo4j-admin itself.
    p = subparsers.add_parser("neo4j-admin", prefix_chars="+", add_help=False,
                              help="run Neo4j's admin tool (neo4j-admin) from the embedded server's jars, on its "
                                   "folder; e.g. `gamegraph neo4j-admin database import full --help`")
    p.add_argument("arguments", nargs=argparse.REMAINDER, help="neo4j-admin's own arguments")
    p.set_defaults(func=cmd_neo4j_admin)

    p = subparsers.add_parser("verify", help="compare a game in Neo4j with the networkx mirror; exit 1 on any difference")
    _add_game_options(p)
    p.set_defaults(func=cmd_verify)

    p = subparsers.add_parser("neo4j", help="start, stop or check the embedded Neo4j server (status exits 3 when stopped)")
    p.add_argument("action", choices=("start", "stop", "status"))
    p.set_defaults(func=cmd_neo4j)

def _radius(text: str) -> int:
    """argparse type of --radius: 0 to explorer.solved.PART_MAX_RADIUS (imported only when the option is given)."""
    from explorer.solved import PART_MAX_RADIUS

    return bounded_int(0, PART_MAX_RADIUS)(text)


_radius.__name__ = "whole number"  # argparse names the type in its messages


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", help="game spec, e.g. chopsticks:magic-fingers or nim(heaps=1-3-5)")
    p.add_argument("--no-symmetry", action="store_true", help="do not merge symmetric positions")
    p.add_argument("--max-positions", type=positive_int, default=DEFAULT_MAX_POSITIONS,
                   help=f"refuse graphs larger than this (default {DEFAULT_MAX_POSITIONS:,})")

def _connect(settings: Neo4jSettings):
    """open_driver, quietly.

    The driver's own log (deadlock retries between writer threads, server
    notifications) is silenced below errors: the command reports the outcome.
    """
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    return open_driver(settings)

def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)

# -- load ------------------------------------------------------------------------
def cmd_load(args: argparse.Namespace) -> int:
    """Check spec and connection, build (or reopen) the solved graph, then load it. O(V + E)."""
    from explorer.solved import open_graph
    from loaders import neo4j_loader

    game = parse_spec(args.spec)
    if args.around is not None or args.radius is not None or args.direction is not None:
        return _load_part(args, game)
    if args.yes and not args.bulk:  # before the settings: a wrong option is said first, whatever Neo4j's state
        raise GameGraphError("--yes confirms a --bulk rebuild; a load without --bulk replaces only its own game")
    settings = Neo4jSettings.from_env()
    if args.bulk:
        return _bulk_load(args, game, settings)
    driver = _connect(settings)
    try:
        # Refuses a graph over --max-positions, cached or not, before anything is written.
        solved = open_graph(game, symmetry=not args.no_symmetry, max_positions=args.max_positions)
        advice = neo4j_loader.advice(solved.graph.num_positions, solved.graph.num_moves, args.spec)
        if advice:
            _say(advice)
        report = neo4j_loader.load(solved, driver, settings.database, batch_size=args.batch_size,
                                   workers=args.workers, on_wait=_say, replace=args.replace)
    finally:
        driver.close()
    print(report)
    return 0


def _load_part(args: argparse.Namespace, game) -> int:
    """`load --around POSITION --radius K`: the part of a game solved into a value file around a position
    (explorer.solved.materialise), loaded under its own game id. Everything is checked and the part made
    before Neo4j is reached. O(part x moves)."""
    from explorer.solved import PART_MAX_POSITIONS, VALUES_ONLY, materialise, open_solved
    from loaders import neo4j_loader

    if args.around is None or args.radius is None:
        raise GameGraphError("--around POSITION and --radius K go together: the part within K moves of POSITION")
    if args.bulk or args.yes:
        raise GameGraphError("--bulk rebuilds the database from whole games; a part (--around) is loaded over Bolt")
    settings = Neo4jSettings.from_env()  # after the options' checks, before the part is made
    values = open_solved(game, VALUES_ONLY).values  # none yet: one line naming `gamegraph solve SPEC --implicit`
    part = materialise(values, game.parse(args.around), args.radius, args.direction or "both",
                       limit=min(args.max_positions, PART_MAX_POSITIONS))
    driver = _connect(settings)
    try:
        report = neo4j_loader.load(part, driver, settings.database, batch_size=args.batch_size,
                                   workers=args.workers, on_wait=_say, replace=args.replace)
    finally:
        driver.close()
    print(report)
    print(f"game id {part.graph.graph_id!r}: the positions within {part.radius} "
          f"{'move' if part.radius == 1 else 'moves'} of {part.centre} "
          f"({part.direction}), values and remoteness from the value file; its Game node's start is that position")
    return 0


def _bulk_load(args: argparse.Namespace, game, settings: Neo4jSettings) -> int:
    """Plan, show, confirm (terminal or --yes), then rebuild the database. O(V + E) of all games."""
    from explorer.solved import open_graph
    from loaders import neo4j_bulk

    logging.getLogger("neo4j").setLevel(logging.ERROR)
    solved = open_graph(game, symmetry=not args.no_symmetry, max_positions=args.max_positions)
    plan = neo4j_bulk.plan(solved, settings)
    if not args.yes:
        if not sys.stdin.isatty():
            raise GameGraphError(f"{plan.summary()}; rerun with --yes to confirm (there is no terminal to ask on)")
        print(neo4j_bulk.describe(plan))
        try:
            answer = input("Replace it? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing was replaced")
            return 1
    else:
        print(neo4j_bulk.describe(plan))
    neo4j_bulk.regenerate(plan, max_positions=args.max_positions)
    print(neo4j_bulk.run(plan, settings, say=_say))
    return 0


# -- neo4j-admin -----------------------------------------------------------------
def cmd_neo4j_admin(args: argparse.Namespace) -> int:
    """Run Neo4j's AdminTool on the embedded server's folder; its exit code is ours."""
    import subprocess

    from loaders import neo4j_admin

    command, env = neo4j_admin.argv(args.arguments)
    return subprocess.run(command, env=env).returncode


# -- verify ----------------------------------------------------------------------
def cmd_verify(args: argparse.Namespace) -> int:
    """Print every difference between Neo4j and the mirror; 0 when there is none, else 1. O(V + E)."""
    from loaders import mirror, neo4j_loader

    game = parse_spec(args.spec)
    settings = Neo4jSettings.from_env()
    driver = _connect(settings)
    try:
        G = mirror.mirror_for(game, symmetry=not args.no_symmetry, max_positions=args.max_positions)
        game_id = G.graph["id"]
        stored = neo4j_loader.game_properties(driver, settings.database, game_id)
        if stored is None:
            print(f"{game.display_name} is not loaded in Neo4j (no complete Game node {game_id!r}); "
                  f"run `{shell_hint('load', args.spec, *(['--no-symmetry'] if args.no_symmetry else []))}`")
            return 1
        positions = neo4j_loader.read_positions(driver, settings.database, game_id)
        moves = neo4j_loader.read_moves(driver, settings.database, game_id)
    finally:
        driver.close()
    differences = list(compare(G, stored, positions, moves))
    for line in differences[:MAX_SHOWN_DIFFERENCES]:
        print(line)
    if len(differences) > MAX_SHOWN_DIFFERENCES:
        print(f"... and {len(differences) - MAX_SHOWN_DIFFERENCES:,} more differences")
    if differences:
        print(f"{game.display_name}: {len(differences):,} differences between Neo4j and the mirror")
        return 1
    print(f"{game.display_name}: Neo4j matches the mirror ({G.number_of_nodes():,} positions, "
          f"{G.number_of_edges():,} moves)")
    return 0

def compare(G: nx.DiGraph, game: dict[str, Any], positions: dict[str, dict[str, Any]],
            moves: dict[tuple[str, str], dict[str, Any]]) -> Iterable[str]:
    """One line per difference between the mirror and what was read from Neo4j. O(V + E).

    Checks the Game node's properties (but solved_at, a timestamp), the counts,
    every position's properties and every move's label and optimal flag.
    """
    for name, expected in G.graph.items():
        if name != "solved_at" and game.get(name) != expected:
            yield f"game {name}: Neo4j has {game.get(name)!r}, the mirror {expected!r}"
    if len(positions) != G.number_of_nodes():
        yield f"positions: Neo4j has {len(positions):,}, the mirror {G.number_of_nodes():,}"
    if len(moves) != G.number_of_edges():
        yield f"moves: Neo4j has {len(moves):,}, the mirror {G.number_of_edges():,}"
    for key, expected in G.nodes(data=True):
        actual = positions.get(key)
        if actual is None:
            yield f"position {key}: missing in Neo4j"
            continue
        for name in sorted(set(expected) | set(actual)):
            if actual.get(name) != expected.get(name):
                yield f"position {key} {name}: Neo4j has {actual.get(name)!r}, the mirror {expected.get(name)!r}"
    for key in positions.keys() - G.nodes.keys():
        yield f"position {key}: in Neo4j only"
    for a, b, expected in G.edges(data=True):
        actual = moves.get((a, b))
        if actual is None:
            yield f"move {a} -> {b}: missing in Neo4j"
            continue
        for name in ("label", "optimal"):
            if actual.get(name) != expected.get(name):
                yield f"move {a} -> {b} {name}: Neo4j has {actual.get(name)!r}, the mirror {expected.get(name)!r}"
    for a, b in moves.keys() - set(G.edges()):
        yield f"move {a} -> {b}: in Neo4j only"

# -- neo4j start|stop|status -----------------------------------------------------------
def cmd_neo4j(args: argparse.Namespace) -> int:
    """Thin wrapper over loaders.neo4j_server; status exits 0 when running and 3 when stopped (as LSB init scripts)."""
    if args.action == "start":
        print(neo4j_server.start())
        print(f"Neo4j keeps running in the background until `{shell_hint('neo4j', 'stop')}`", file=sys.stderr)
        return 0
    if args.action == "stop":
        neo4j_server.stop()
        return 0
    status = neo4j_server.status(look_elsewhere=True)
    print(status)
    return 0 if status.running else 3  # this state folder's server, whatever else answers at its address
