"""`gamegraph cgt`: canonical combinatorial values of positions, and of their sum."""

from __future__ import annotations

import argparse
import json


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "cgt", help="canonical CGT value, outcome class and best moves of positions, and their sum",
        description="Combinatorial game theory for short partizan games (toads-and-frogs, domineering) "
                    "and impartial ones (nim). Positions are boards without the side to move, e.g. "
                    "`gamegraph cgt toads-and-frogs TT..FF T.F`; OTHER-SPEC::BOARD adds a board of another "
                    "game to the sum, e.g. 'nim::2-3'.")
    p.add_argument("spec", help="game spec, e.g. toads-and-frogs, 'domineering(rows=3,cols=3)', nim:small")
    p.add_argument("positions", nargs="*", help="boards (default: the start); with several, their sum is analysed")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_cgt)


def cmd_cgt(args: argparse.Namespace) -> int:
    from explorer.analysis.cgt_report import describe, parse_component, require_cgt, sum_report
    from explorer.games import parse_spec

    game = parse_spec(args.spec)
    require_cgt(game)
    texts = args.positions or [game.format_board(game.cgt_board(game.start()))]
    components = [parse_component(game, text) for text in texts]
    report = {"positions": [describe(c) for c in components]}
    if len(components) > 1:
        report["sum"] = sum_report(components)
    if args.format == "json":
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    for index, record in enumerate(report["positions"], 1):
        print(f"#{index} {record['position']}  ({record['game']})")
        print(f"   value {record['value']}   [ascii {record['ascii']}]   kind {record['kind']}")
        print(f"   outcome {record['outcome']}: {record['outcome_text']}")
        for side in ("left", "right"):
            moves = record[f"{side}_best"]
            listed = ", ".join(f"{m['move']} → {m['position']} = {m['value']}" for m in moves) or "none"
            losing = " (no move wins moving first; these lose least)" if moves and not moves[0]["wins"] else ""
            print(f"   {side.capitalize()}'s best: {listed}{losing}")
    if "sum" in report:
        total = report["sum"]
        print(f"sum of {len(components)}: value {total['value']}   [ascii {total['ascii']}]   kind {total['kind']}")
        print(f"   outcome {total['outcome']}: {total['outcome_text']}")
        for side in ("left", "right"):
            wins = total[f"{side}_wins_by"]
            listed = "; ".join(f"{w['move']} in #{w['component']} (→ {w['position']}, sum {w['sum_after']})"
                               for w in wins) or "no winning move when moving first"
            print(f"   {side.capitalize()} moving first wins by: {listed}")
    return 0
