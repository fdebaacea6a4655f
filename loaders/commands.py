"""Subcommands that talk to Neo4j: load, verify, and neo4j start|stop|status.

Every check that can fail without touching the database (the game spec, the
batch size, the connection and credentials, the graph size) runs before the
first write, so a refused `load` leaves Neo4j exactly as it was.
"""

from __future__ import annotations

import argparse
import logging
from typing import Any, Iterable

import networkx as nx

from explorer.commands import bounded_int, positive_int
from explorer.games import parse_spec
from explorer.graph import DEFAULT_MAX_POSITIONS
from explorer.solved import load_or_build
from loaders import mirror, neo4j_loader, neo4j_server
from loaders.settings import Neo4jSettings, open_driver

MAX_SHOWN_DIFFERENCES = 20
# One transaction per row made `load --batch-size 1` run for minutes; below 50 rows a
# transaction's round trip dominates. Above a million rows a batch is one huge transaction.
MIN_BATCH_SIZE = 50
MAX_BATCH_SIZE = 1_000_000
MAX_WORKERS = 16

def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("load", help="load a game's solved graph into Neo4j (replacing that game only)")
    _add_game_options(p)
    p.add_argument("--batch-size", type=bounded_int(MIN_BATCH_SIZE, MAX_BATCH_SIZE),
                   default=neo4j_loader.DEFAULT_BATCH_SIZE,
                   help=f"rows per write transaction, {MIN_BATCH_SIZE:,} to {MAX_BATCH_SIZE:,} "
                        f"(default {neo4j_loader.DEFAULT_BATCH_SIZE:,})")
    p.add_argument("--workers", type=bounded_int(1, MAX_WORKERS), default=neo4j_loader.DEFAULT_WORKERS,
                   help=f"concurrent write transactions, 1 to {MAX_WORKERS} (default {neo4j_loader.DEFAULT_WORKERS})")
    p.set_defaults(func=cmd_load)

    p = subparsers.add_parser("verify", help="compare a game in Neo4j with the networkx mirror; exit 1 on any difference")
    _add_game_options(p)
    p.set_defaults(func=cmd_verify)

    p = subparsers.add_parser("neo4j", help="start, stop or check the embedded Neo4j server (status exits 3 when stopped)")
    p.add_argument("action", choices=("start", "stop", "status"))
    p.set_defaults(func=cmd_neo4j)

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

# -- load ------------------------------------------------------------------------
def cmd_load(args: argparse.Namespace) -> int:
    """Check spec and connection, build (or reopen) the solved graph, then load it. O(V + E)."""
    game = parse_spec(args.spec)
    settings = Neo4jSettings.from_env()
    driver = _connect(settings)
    try:
        # Refuses a graph over --max-positions, cached or not, before anything is written.
        solved = load_or_build(game, symmetry=not args.no_symmetry, max_positions=args.max_positions)
        report = neo4j_loader.load(solved, driver, settings.database, batch_size=args.batch_size,
                                   workers=args.workers)
    finally:
        driver.close()
    print(report)
    return 0

# -- verify ----------------------------------------------------------------------
def cmd_verify(args: argparse.Namespace) -> int:
    """Print every difference between Neo4j and the mirror; 0 when there is none, else 1. O(V + E)."""
    game = parse_spec(args.spec)
    settings = Neo4jSettings.from_env()
    driver = _connect(settings)
    try:
        G = mirror.mirror_for(game, symmetry=not args.no_symmetry, max_positions=args.max_positions)
        game_id = G.graph["id"]
        stored = neo4j_loader.game_properties(driver, settings.database, game_id)
        if stored is None:
            print(f"{game.display_name} is not loaded in Neo4j (no complete Game node {game_id!r}); "
                  f"run `gamegraph load {args.spec}`")
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
        return 0
    if args.action == "stop":
        neo4j_server.stop()
        return 0
    status = neo4j_server.status()
    print(status)
    return 0 if status.running else 3
