"""`gamegraph draws` and `gamegraph diff`: why draws hold, and what a rule change flips."""

from __future__ import annotations

import argparse
import json

from explorer.commands import positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("draws", help="safe and sharp draws, dangerous moves, the drawing core and draw levels")
    p.add_argument("spec", help="game spec, e.g. chopsticks")
    p.add_argument("position", nargs="?", help="a position to explain (default: the start)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_draws)

    p = subparsers.add_parser("diff", help="positions two rule sets share whose value differs")
    p.add_argument("first", help="game spec, e.g. chopsticks")
    p.add_argument("second", help="game spec with the same notation, e.g. chopsticks:rollover")
    p.add_argument("--limit", type=positive_int, default=20, help="positions listed in text output (default 20)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--backend", choices=("solved", "neo4j"), default="solved",
                   help="solved: solve both (cached); neo4j: ask Neo4j, where both must be loaded")
    p.add_argument("--no-symmetry", action="store_true", help="do not merge symmetric positions (with --backend neo4j: the games as loaded so)")
    p.set_defaults(func=cmd_diff)


def cmd_draws(args: argparse.Namespace) -> int:
    from explorer.analysis.draws import analyse, position_report
    from explorer.games import parse_spec
    from explorer.solved import open_graph

    solved = open_graph(parse_spec(args.spec))
    analysis = analyse(solved)
    levels = solved.draw_levels
    node = solved.graph.find(args.position) if args.position is not None else 0
    report = {"game": solved.game.id, **analysis.counts(), "position": position_report(solved, analysis, node),
              "draw_levels": levels.table()}
    from explorer.games.base import player_name

    mover = player_name(solved.game, int(solved.graph.to_move[node]))
    opponent = player_name(solved.game, 1 - int(solved.graph.to_move[node]))
    level_text = levels.describe(node, mover, opponent)
    if level_text:
        from explorer.algorithms.draw_levels import CLASS_NAMES

        levelled = int(levels.level[node]) >= 0
        report["position"].update(draw_class=CLASS_NAMES[int(levels.kind[node])],
                                  draw_level=int(levels.level[node]) if levelled else None,
                                  draw_remoteness=int(levels.remoteness[node]) if levelled else None,
                                  draw_level_text=level_text)
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return 0
    print(f"{solved.game.display_name}: {report['draws']:,} draws: {report['safe']:,} safe (no move loses), "
          f"{report['sharp']:,} sharp (some move loses)")
    print(f"drawing core: {report['core']:,} positions in {report['closed_regions']} closed region(s) "
          "that play never leaves once the draw is kept")
    if report["draw_levels"]:
        print("draw levels (GamesmanClassic's pure draw analysis): " + ", ".join(
            f"{row['positions']:,} {row['class']}" + (f" at level {row['level']}" if row["level"] is not None else "")
            for row in report["draw_levels"]))
    pos = report["position"]
    if "draw_kind" not in pos:
        print(f"{pos['key']} is a {pos['value']}, not a draw")
        return 0
    where = "in the drawing core" if pos["in_core"] else "outside the core (play drifts towards it)"
    print(f"{pos['key']}: {pos['draw_kind']} draw, {where}")
    print(f"   {pos['draw_level_text']}")
    for move in pos["dangerous_moves"]:
        print(f"   {move['label']} -> {move['to']} loses in {move['loses_in']}")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    if args.backend == "neo4j":
        from explorer.games import parse_spec
        from explorer.graph import graph_id
        from loaders.settings import Neo4jSettings, open_driver
        from queries.rule_diff import neo4j_diff

        ids = [graph_id(parse_spec(spec), not args.no_symmetry) for spec in (args.first, args.second)]
        settings = Neo4jSettings.from_env()
        driver = open_driver(settings)
        try:
            report = neo4j_diff(driver, settings.database, *ids)
        finally:
            driver.close()
    else:
        from explorer.analysis.diff import diff
        from explorer.games import parse_spec
        from explorer.solved import open_graph

        report = diff(open_graph(parse_spec(args.first), symmetry=not args.no_symmetry),
                      open_graph(parse_spec(args.second), symmetry=not args.no_symmetry))
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
