"""Core subcommands: games, solve, show, export, chart.

Registering them imports nothing heavy: each command imports what it needs when
it runs (scipy, networkx, neo4j stay out of `gamegraph --help` and `games`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from explorer.commands import StoreOnce, positive_int, shown, writes_output
from explorer.core.errors import GameGraphError, InvalidParameter
from explorer.core.files import output_file
from explorer.games import games, parse_spec
from explorer.core.limits import DEFAULT_MAX_POSITIONS

if TYPE_CHECKING:
    from explorer.solved import SolvedGraph


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("games", help="list every game, its presets and parameters")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_games)

    p = subparsers.add_parser("solve", help="generate and solve a game; print counts, the start's value, times")
    _add_graph_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--implicit", action="store_true",
                   help="solve every position of the game's ranking into a value file, storing no edges; "
                        "see docs/implicit.md. Only when given: a graph over --max-positions (default "
                        f"{DEFAULT_MAX_POSITIONS:,}) is refused at once, and the refusal names this option "
                        "when the game offers it")
    p.add_argument("--tiered", action="store_true",
                   help="solve the game's ranking tier by tier on Dask (a game without tiers is one tier); "
                        "by default on a local cluster of this machine's cores; see docs/distributed.md")
    p.add_argument("--scheduler", metavar="ADDRESS", type=_scheduler_address,
                   help="with --tiered: the address of an existing Dask scheduler whose workers share the state "
                        "folder (default: $DASK_SCHEDULER_ADDRESS, else a local cluster)")
    p.add_argument("--workers", type=positive_int, metavar="N",
                   help="with --tiered: worker processes of the local cluster (default: this machine's cores)")
    p.set_defaults(func=cmd_solve)

    p = subparsers.add_parser("show", help="value, remoteness and every move of one position")
    p.add_argument("spec", help="game spec, e.g. chopsticks:magic-fingers")
    p.add_argument("position", nargs="?", help="position in the game's notation (default: the start)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--no-symmetry", action="store_true", help="do not merge symmetric positions")
    p.add_argument("--implicit", action="store_true",
                   help="read the value file of `solve --implicit` (used automatically when it exists)")
    p.set_defaults(func=cmd_show)

    p = subparsers.add_parser("export", help="write every position (or move) as jsonl/csv, or Neo4j import files")
    _add_graph_options(p)
    p.add_argument("--format", choices=("jsonl", "csv", "neo4j-import"), default="jsonl")
    p.add_argument("--edges", action="store_true", help="write the moves (from, to, label, optimal) instead")
    p.add_argument("-o", "--output", help="output file (a folder for neo4j-import); default or '-': stdout")
    writes_output(p, cmd_export)

    p = subparsers.add_parser("chart", help="strategy chart of two-hand Chopsticks")
    p.add_argument("spec")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    p.set_defaults(func=cmd_chart)


def _add_graph_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", help="game spec, e.g. chopsticks, chopsticks:magic-fingers, nim(heaps=1-3-5)")
    p.add_argument("--start", help="generate from this position instead of the game's start")
    p.add_argument("--no-symmetry", action="store_true", help="do not merge symmetric positions")
    p.add_argument("--max-positions", type=positive_int, default=DEFAULT_MAX_POSITIONS, action=_Given,
                   help=f"refuse graphs larger than this (default {DEFAULT_MAX_POSITIONS:,})")


def _scheduler_address(text: str) -> str:
    """argparse type of --scheduler: an address, never empty (`--scheduler ''` was taken as no scheduler at all and
    the solve ran on a local cluster, exit 0), without blanks or control characters."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty address: give the scheduler's, e.g. tcp://10.0.0.5:8786, or "
                                         "leave --scheduler out for a local cluster")
    if any(c.isspace() or ord(c) < 32 for c in text) or len(text) > 2048:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a scheduler address (e.g. tcp://10.0.0.5:8786)")
    return text


_scheduler_address.__name__ = "address"  # argparse names the type in its messages


class _Given(StoreOnce):
    """Stores the value (once) and notes that it was given (a default and a typed value can be equal)."""

    def __call__(self, parser, namespace, values, option_string=None):
        super().__call__(parser, namespace, values, option_string)
        setattr(namespace, f"{self.dest}_given", True)


def _solved(args: argparse.Namespace) -> SolvedGraph:
    """The solved graph the options ask for: cached when it starts at the game's start (explorer.solved.storage)."""
    from explorer.solved import open_graph

    game = parse_spec(args.spec)
    start = game.parse(args.start) if getattr(args, "start", None) is not None else None
    return open_graph(game, symmetry=not args.no_symmetry, start=start,
                      max_positions=getattr(args, "max_positions", DEFAULT_MAX_POSITIONS))


# -- games ---------------------------------------------------------------------
def cmd_games(args: argparse.Namespace) -> int:
    listing = []
    for name, cls in games().items():
        listing.append({"name": name, "description": cls.description, "notation": cls.notation_help,
                        "presets": {p: {k: _plain(v) for k, v in values.items()} for p, values in cls.presets.items()},
                        "parameters": [{k: v for k, v in row.items() if v is not None} for row in cls.Params.describe()]})
    if args.format == "json":
        print(json.dumps(listing, indent=2))
        return 0
    for game in listing:
        print(f"{game['name']}: {game['description']}")
        if game["notation"]:
            print(f"  notation: {game['notation']}")
        for row in game["parameters"]:
            limits = ", ".join(filter(None, [
                "|".join(row["choices"]) if row.get("choices") else "",
                f">= {row['minimum']}" if row.get("minimum") is not None else "",
                f"<= {row['maximum']}" if row.get("maximum") is not None else ""]))
            print(f"  {row['name']} ({row['type']}{'; ' + limits if limits else ''}) [default {row['default']}]: {row['help']}")
        for preset, values in game["presets"].items():
            shown = ", ".join(f"{k}={_text(v)}" for k, v in values.items()) or "(defaults)"
            print(f"  preset {game['name']}:{preset}  {shown}")
        print()
    return 0


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def _text(value: object) -> str:
    from explorer.games.base import format_value
    return format_value(value)


# -- solve ---------------------------------------------------------------------
def cmd_solve(args: argparse.Namespace) -> int:
    """Solve the game the way the options ask (explorer.solved.storage.solve) and keep the result, which show,
    play, query, dot and the UI then read without solving again."""
    from explorer.solved import GRAPH, IMPLICIT, TIERED, solve

    game = parse_spec(args.spec)
    if _wants_tiered(args):
        return _solve_tiered(game, solve(game, TIERED, scheduler=args.scheduler, workers=args.workers)[0], args)
    if _wants_implicit(game, args):
        return _solve_implicit(game, solve(game, IMPLICIT)[0], args)
    start = game.parse(args.start) if args.start is not None else None
    began = time.perf_counter()
    solved = solve(game, GRAPH, symmetry=not args.no_symmetry, start=start, max_positions=args.max_positions,
                   spec=args.spec)
    results = {"reduced" if s.graph.graph.symmetry else "full": s.graph for s in solved}
    total = time.perf_counter() - began
    main = next(iter(results.values()))
    report = {
        "game": game.display_name, "id": game.id,
        "start": main.graph.key(0), "value": str(main.value(0)), "remoteness": main.remoteness(0),
        "graphs": {name: {"positions": s.graph.num_positions, "moves": s.graph.num_moves,
                          "counts": s.solution.counts(), "on_cycle": int(s.on_cycle.sum()),
                          "seconds": {k: round(v, 4) for k, v in s.seconds.items()}}
                   for name, s in results.items()},
        "seconds": round(total, 3),
    }
    values = {str(s.value(0)) for s in results.values()}
    if len(values) != 1:  # the quotient graph must agree with the full one
        raise GameGraphError(f"internal check failed: start values differ between graphs: {values}")
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return 0
    remoteness = "" if report["remoteness"] is None else f" in {report['remoteness']} moves"
    print(f"{report['game']}   [{report['id']}]")
    print(f"start {report['start']}: {report['value']}{remoteness} for the player to move")
    for name, g in report["graphs"].items():
        label = "symmetry-reduced" if name == "reduced" else "without symmetry"
        counts = "  ".join(f"{k} {v:,}" for k, v in g["counts"].items())
        times = ", ".join(f"{k} {v:.3f}s" for k, v in g["seconds"].items())
        print(f"{label:>17}: {g['positions']:,} positions, {g['moves']:,} moves, {g['on_cycle']:,} on cycles")
        print(f"{'':>17}  {counts}   ({times})")
    print(f"total {report['seconds']:.3f}s")
    return 0


def _wants_implicit(game, args: argparse.Namespace) -> bool:
    # Only when asked: a graph too large to build is refused at once, with its estimate
    # and this option in the message (cmd_solve), rather than replaced by a long solve.
    if args.implicit and args.start:
        raise InvalidParameter("--implicit solves every position of the game: drop --start")
    if args.implicit and getattr(args, "max_positions_given", False):
        raise InvalidParameter("--max-positions limits a graph, and --implicit stores none: drop --max-positions")
    return bool(args.implicit)


def _wants_tiered(args: argparse.Namespace) -> bool:
    if not args.tiered:
        if args.scheduler or args.workers:
            raise InvalidParameter("--scheduler and --workers choose where a --tiered solve runs: add --tiered")
        return False
    for given, option in ((args.implicit, "--implicit"), (args.start, "--start"),
                          (getattr(args, "max_positions_given", False), "--max-positions"),
                          (args.no_symmetry, "--no-symmetry")):
        if given:
            raise InvalidParameter(f"--tiered solves every position of the game's ranking: drop {option}")
    if args.scheduler and args.workers:
        raise InvalidParameter("--workers sizes the local cluster; an existing one (--scheduler) has its own workers")
    return True


def _solve_tiered(game, solved, args: argparse.Namespace) -> int:
    values = solved.values
    meta = {**values.meta, "folder": str(values.folder), "total_seconds": round(solved.seconds, 3)}
    if args.format == "json":
        print(json.dumps(meta, indent=2))
        return 0
    start = meta["start"]
    remoteness = "" if start["remoteness"] is None else f" in {start['remoteness']} moves"
    print(f"{game.display_name}   [{game.id}]   tiered: {len(meta['tiers']['names'])} tier(s), every position "
          "of the ranking, no edges")
    print(f"start {start['key']}: {start['value']}{remoteness} for the player to move")
    counts = "  ".join(f"{k} {v:,}" for k, v in meta["counts"].items())
    print(f"{meta['positions']:,} legal positions in the ranking ({meta['index_space']:,} indices; not all reachable "
          f"from the start), max remoteness {meta['max_remoteness']}")
    print(f"  {counts}")
    print(f"tier files {meta['folder']} ({meta['bytes_on_disk']:,} bytes)   total {meta['total_seconds']:.3f}s")
    return 0


def _solve_implicit(game, solved, args: argparse.Namespace) -> int:
    values = solved.values
    meta = {**values.meta, "value_file": str(values.folder), "total_seconds": round(solved.seconds, 3)}
    if args.format == "json":
        print(json.dumps(meta, indent=2))
        return 0
    start = meta["start"]
    remoteness = "" if start["remoteness"] is None else f" in {start['remoteness']} moves"
    print(f"{game.display_name}   [{game.id}]   implicit mode: every position of the ranking, no edges")
    print(f"start {start['key']}: {start['value']}{remoteness} for the player to move")
    counts = "  ".join(f"{k} {v:,}" for k, v in meta["counts"].items())
    print(f"{meta['positions']:,} positions ({meta['index_space']:,} indices), max remoteness {meta['max_remoteness']}")
    print(f"  {counts}")
    print(f"value file {meta['value_file']}   total {meta['total_seconds']:.3f}s")
    return 0


# -- show ----------------------------------------------------------------------
def cmd_show(args: argparse.Namespace) -> int:
    from explorer.games.base import player_name
    from explorer.play import game_over
    from explorer.solved import VALUES, VALUES_ONLY, open_solved

    game = parse_spec(args.spec)
    # The value file whenever one is stored (or asked for), else the graph, kept by `solve` or built and kept
    # here; over the limit, the refusal names the value file that would answer (explorer.solved.storage).
    solved = open_solved(game, VALUES_ONLY if args.implicit else VALUES, symmetry=not args.no_symmetry,
                         command="show", spec=args.spec)
    record = {**solved.record(args.position), "source": solved.stored_as}
    moves = solved.moves(args.position)
    # A finished position says why it ended and who won, from the board as typed (explorer.play.game_over).
    ending = game_over(game, game.parse(args.position) if args.position is not None else game.start())
    if args.format == "json":
        print(json.dumps({**record, "game_over": ending, "moves": moves}, indent=2))
        return 0
    shown = record["key"]
    if game.has_symmetry() and record["source"] == "graph":
        # The text follows the board as typed (the start as the game sets it up): a stored move is named from
        # the stored (canonical) orientation, so every legal move is listed as played on that board, reaching
        # the board it leaves, mirror images included, as the UI's moves table shows them.
        here = game.parse(args.position) if args.position is not None else game.start()
        shown = game.format(here)
        moves = solved.graph.played_moves(solved.at(args.position), here)
    remoteness = "" if record["remoteness"] is None else f" in {record['remoteness']}"
    stored = f"   (stored as {record['key']}, one node with its mirror images)" if shown != record["key"] else ""
    print(f"{game.display_name}  position {shown}{stored}")
    mover = player_name(game, record["to_move"])
    turn = f"value for player {mover}, whose turn it would be" if record["terminal"] else f"player {mover} to move"
    print(f"{turn}: {record['value']}{remoteness}"
          f"{'   (game over)' if record['terminal'] else ''}{'   (on a cycle)' if record['on_cycle'] else ''}")
    if ending:
        print(ending)
    if moves:
        width = max(len(m["label"]) for m in moves)
        result_width = max(14, *(len(m["to"]) for m in moves))  # the longest key sets the column
        print(f"\n  {'move'.ljust(width)}  {'result'.ljust(result_width)} value  remoteness")
        for m in moves:
            r = "" if m["remoteness"] is None else str(m["remoteness"])
            print(f"{'*' if m['optimal'] else ' '} {m['label'].ljust(width)}  {m['to'].ljust(result_width)} "
                  f"{m['value'].ljust(5)}  {r}")
        print("\n* optimal; value is for the player making the move")
    return 0


# -- export --------------------------------------------------------------------
def cmd_export(args: argparse.Namespace) -> int:
    if args.format == "neo4j-import":
        return _export_neo4j_import(args)
    from explorer import export

    solved = _solved(args)
    fmt = args.format
    with output_file(args.output) as out:
        if args.edges:
            count = export.write(export.move_records(solved), out, fmt, export.MOVE_COLUMNS)
        else:
            count = export.write(export.position_records(solved), out, fmt, export.POSITION_COLUMNS)
    if args.output is not None and args.output != "-":
        print(f"wrote {count:,} {'moves' if args.edges else 'positions'} to {args.output}", file=sys.stderr)
    return 0


def _export_neo4j_import(args: argparse.Namespace) -> int:
    if not args.output or args.output == "-":
        raise InvalidParameter("--format neo4j-import writes several files: give a folder with -o DIR")
    if args.start is not None:  # the files hold a Game node marked complete under the game's own id
        raise InvalidParameter("--format neo4j-import writes the whole game from its start: drop --start "
                               "(jsonl and csv exports can start anywhere)")
    from loaders.neo4j_import import write_neo4j_import
    command = write_neo4j_import(_solved(args), Path(args.output))
    print(f"wrote Neo4j import files to {args.output}; import them with:\n{command}\n"
          "(gamegraph neo4j-admin is Neo4j's own tool, from the embedded server's jars. The import replaces the "
          "whole database: stop the server first with `gamegraph neo4j stop`. `gamegraph load --bulk SPEC` does "
          "all of this and keeps the other loaded games.)", file=sys.stderr)
    return 0


# -- chart ---------------------------------------------------------------------
def cmd_chart(args: argparse.Namespace) -> int:
    from explorer import export
    from explorer.render.chart import as_records, as_text, strategy_chart

    chart = strategy_chart(parse_spec(args.spec))
    if args.format == "text":
        print(as_text(chart))
    elif args.format == "json":
        print(json.dumps(as_records(chart), indent=1))
    else:
        export.write(iter(as_records(chart)), sys.stdout, "csv", ["mover", "opponent", "value", "move", "remoteness"])
    return 0
