"""`gamegraph draws` and `gamegraph diff`: why draws hold, and what a rule change flips."""

from __future__ import annotations

import argparse
import json

from explorer.commands import positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("draws", help="safe and sharp draws, dangerous moves, and the drawing core")
    p.add_argument("spec", help="game spec, e.g. chopsticks")
    p.add_argument("position", nargs="?", help="a position to explain (default: the start)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_draws)

    p = subparsers.add_parser("diff", help="positions two rule sets share whose value differs")
    p.add_argument("first", help="game spec, e.g. chopsticks")
    p.add_argument("second", help="game spec with the same notation, e.g. chopsticks:rollover")
    p.add_argument("--limit", type=positive_int, default=20, help="positions listed in text output (default 20)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_diff)


def cmd_draws(args: argparse.Namespace) -> int:
    from explorer.analysis.draws import analyse, position_report
    from explorer.games import parse_spec
    from explorer.solved import load_or_build

    solved = load_or_build(parse_spec(args.spec))
    analysis = analyse(solved)
    node = solved.graph.find(args.position) if args.position is not None else 0
    report = {"game": solved.game.id, **analysis.counts(), "position": position_report(solved, analysis, node)}
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return 0
    print(f"{solved.game.display_name}: {report['draws']:,} draws: {report['safe']:,} safe (no move loses), "
          f"{report['sharp']:,} sharp (some move loses)")
    print(f"drawing core: {report['core']:,} positions in {report['closed_regions']} closed region(s) "
          "that play never leaves once the draw is kept")
    pos = report["position"]
    if "draw_kind" not in pos:
        print(f"{pos['key']} is a {pos['value']}, not a draw")
        return 0
    where = "in the drawing core" if pos["in_core"] else "outside the core (play drifts towards it)"
    print(f"{pos['key']}: {pos['draw_kind']} draw, {where}")
    for move in pos["dangerous_moves"]:
        print(f"   {move['label']} -> {move['to']} loses in {move['loses_in']}")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from explorer.analysis.diff import diff
    from explorer.solved import load_or_build

    report = diff(load_or_build(args.first), load_or_build(args.second))
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.first}: {report['positions'][0]:,} positions, start {report['start']['first']}")
    print(f"{args.second}: {report['positions'][1]:,} positions, start {report['start']['second']}")
    print(f"shared positions: {report['shared']:,}; value changed at {report['changed']:,}")
    for change, count in report["by_change"].items():
        print(f"   {change}: {count:,}")
    for row in report["positions_changed"][:args.limit]:
        print(f"   {row['key']}: {row['before']} -> {row['after']}")
    if report["changed"] > args.limit:
        print(f"   … {report['changed'] - args.limit:,} more (--limit, or --format json for all)")
    return 0
