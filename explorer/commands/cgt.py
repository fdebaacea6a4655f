"""`gamegraph cgt`: canonical combinatorial values of positions, and of their sum."""

from __future__ import annotations

import argparse
import json

from explorer.commands import writes_output
from explorer.core.errors import shell_hint


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "cgt", help="canonical CGT value, outcome class, mean, temperature, thermograph and best moves "
                    "of positions, and their sum",
        description="Combinatorial game theory for short partizan games (toads-and-frogs, domineering) "
                    "and impartial ones (nim). Positions are boards without the side to move, e.g. "
                    "`gamegraph cgt toads-and-frogs TT..FF T.F`; OTHER-SPEC::BOARD adds a board of another "
                    "game to the sum, e.g. 'nim::2-3'. "
                    f"`{shell_hint('cgt', '--value', '{2|-1/2}')}` analyses a value written out instead.")
    p.add_argument("spec", nargs="?",
                   help="game spec, e.g. toads-and-frogs, 'domineering(rows=3,cols=3)', nim:small")
    p.add_argument("positions", nargs="*", help="boards (default: the start); with several, their sum is analysed")
    p.add_argument("--value", action="append", metavar="VALUE",
                   help="a game value instead of a game's position, e.g. '{2|-1/2}', '+-1', '^*' (repeat to add "
                        "values; with a game, they join its positions in the sum)")
    p.add_argument("--thermograph", metavar="FILE.svg|FILE.png",
                   help="draw the thermograph (of the sum, when there are several) to an SVG or PNG file "
                        "('-': SVG on stdout; PNG is the SVG drawn by Chromium, 1,560 x 1,080 px)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    writes_output(p, cmd_cgt)  # --thermograph FILE: --force replaces a read-only one


def cmd_cgt(args: argparse.Namespace) -> int:
    from explorer.analysis.cgt_report import (describe, describe_expression, parse_component, require_cgt,
                                              sum_report, total_value)
    from explorer.render.thermograph import thermograph_png, thermograph_svg
    from explorer.cgt.notation import parse_value
    from explorer.cgt.thermograph import thermograph
    from explorer.core.errors import InvalidParameter
    from explorer.core.files import output_file
    from explorer.games import parse_spec

    if args.thermograph and args.thermograph != "-" and not args.thermograph.lower().endswith((".svg", ".png")):
        raise InvalidParameter(f"--thermograph draws SVG or PNG: name a file ending in .svg or .png, "
                               f"not {args.thermograph[:200]!r}")
    if args.spec is None and not args.value:
        raise InvalidParameter("give a game spec (e.g. toads-and-frogs) or --value VALUE (e.g. '{2|-1/2}')")
    values = [parse_value(text) for text in args.value or []]
    components = []
    if args.spec is not None:
        game = parse_spec(args.spec)
        require_cgt(game)
        texts = args.positions or ([] if values else [game.format_board(game.cgt_board(game.start()))])
        components = [parse_component(game, text) for text in texts]
    records = [describe(c) for c in components] + [describe_expression(v) for v in values]
    report = {"positions": records}
    if len(records) > 1:
        report["sum"] = sum_report(components, values)
    if args.thermograph:
        total = total_value(components, values)
        title = f"the sum = {report['sum']['value']}" if "sum" in report else \
            f"{records[0]['position']} = {records[0]['value']}"
        title = title if len(title) <= 80 else title[:79] + "…"
        svg = thermograph_svg(thermograph(total), f"thermograph of {title}")
        png = args.thermograph != "-" and args.thermograph.lower().endswith(".png")
        data = thermograph_png(svg) if png else svg  # drawn before the file is opened: nothing half-written
        with output_file(args.thermograph, binary=png) as handle:
            handle.write(data)
        if args.thermograph == "-":
            return 0
    if args.format == "json":
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    games = [_board_game(c) for c in components] + ["a value written out"] * len(values)
    for index, (record, named) in enumerate(zip(report["positions"], games), 1):
        print(f"#{index} {record['position']}  ({named})")
        print(f"   value {record['value']}   [ascii {record['ascii']}]   kind {record['kind']}")
        print(f"   mean {record['mean']}   temperature {record['temperature']}")
        print(f"   outcome {record['outcome']}: {record['outcome_text']}")
        for side in ("left", "right"):
            moves = record[f"{side}_best"]
            listed = ", ".join(f"{m['move']} → {m['position']} = {m['value']}" for m in moves) or "none"
            losing = " (no move wins moving first; these lose least)" if moves and not moves[0]["wins"] else ""
            print(f"   {side.capitalize()}'s best: {listed}{losing}")
    if "sum" in report:
        total = report["sum"]
        print(f"sum of {len(records)}: value {total['value']}   [ascii {total['ascii']}]   kind {total['kind']}")
        print(f"   mean {total['mean']}   temperature {total['temperature']}")
        print(f"   outcome {total['outcome']}: {total['outcome_text']}")
        for side in ("left", "right"):
            wins = total[f"{side}_wins_by"]
            listed = "; ".join(f"{w['move']} in #{w['component']} (→ {w['position']}, sum {w['sum_after']})"
                               for w in wins) or "no winning move when moving first"
            print(f"   {side.capitalize()} moving first wins by: {listed}")
    if args.thermograph:
        print(f"thermograph written to {args.thermograph}")
    return 0


def _board_game(component) -> str:
    """The game a board is a position of, as the header names it: the game whose start is this board when
    the spec has one such parameter (`cgt nim 2-3` is nim(heaps=2-3), not the default nim(heaps=1-3-5-7)), the
    spec's own game for its start, else the game's name with the board's dimensions left to the board."""
    from explorer.core.errors import GameGraphError
    from explorer.games import parse_spec

    game = component.game
    text = game.format_board(component.board)
    start = game.format_board(game.cgt_board(game.start()))
    if text == start:
        return game.display_name  # as `show` and every command name it (Game.display_name)
    if f"={start}" in game.id:  # a parameter holds the start board itself (nim's heaps, toads-and-frogs' board)
        try:
            other = parse_spec(game.id.replace(f"={start}", f"={text}", 1))
            if other.format_board(other.cgt_board(other.start())) == text:
                return other.display_name
        except GameGraphError:
            pass
    return f"a {game.name} board"
