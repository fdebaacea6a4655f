"""`gamegraph survey`: every rule set of a game solved, as a table, CSV, JSON or Neo4j nodes."""

from __future__ import annotations

import argparse
import csv
import io
import json

from explorer.commands import writes_output


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("survey", help="solve every rule set of a game: start value, counts, cycles, longest win",
                              description="Solves every combination of a game's rule parameters (choices and "
                                          "booleans; integer parameters over the ranges given). Results are cached.")
    p.add_argument("game", help="game name, e.g. chopsticks")
    p.add_argument("--fingers", help="Chopsticks: the range of fingers, e.g. 2..10 (same as --range fingers=2..10)")
    p.add_argument("--range", action="append", default=[], metavar="NAME=A..B",
                   help="an integer parameter's range (repeatable); others keep their default")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table")
    p.add_argument("-o", "--output", help="write the CSV/JSON/table to this file instead of standard output")
    p.add_argument("--neo4j", action="store_true", help="also write one Variant node per rule set into Neo4j")
    p.add_argument("--no-cache", action="store_true", help="solve every rule set again")
    writes_output(p, cmd_survey)


def cmd_survey(args: argparse.Namespace) -> int:
    from explorer.analysis.survey import COLUMNS, grid, parse_range, survey
    from explorer.core.errors import InvalidParameter
    from explorer.core.files import output_file

    ranges = {}
    items = list(args.range) + ([f"fingers={args.fingers}"] if args.fingers else [])
    for item in items:
        name, sep, text = item.partition("=")
        if not sep:
            raise InvalidParameter(f"--range {item!r} must be NAME=A..B, e.g. fingers=2..10")
        name = name.strip().replace("-", "_")
        if name in ranges:  # `--fingers 2..3 --range fingers=2..3`: which one was meant?
            raise InvalidParameter(f"the range of {name} is given twice (--fingers is --range fingers=A..B): give it once")
        ranges[name] = parse_range(text.strip())
    rows = survey(grid(args.game, ranges), use_cache=not args.no_cache)
    if args.format == "json":
        text = json.dumps(rows, indent=2) + "\n"
    elif args.format == "csv":
        buffer = io.StringIO()
        params = [k for k in rows[0] if k not in COLUMNS] if rows else []
        writer = csv.DictWriter(buffer, fieldnames=["spec", *params, *COLUMNS[1:]], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
        text = buffer.getvalue()
    else:
        text = _table(rows)
    if args.output not in (None, "-"):  # -o '' is refused by output_file, as by every command
        with output_file(args.output) as handle:
            handle.write(text)
        print(f"wrote {len(rows)} rule sets to {args.output}")
    else:
        print(text, end="")
    if args.neo4j:
        from loaders.neo4j_loader import load_variants

        print(f"wrote {load_variants(rows, args.game)} Variant nodes to Neo4j")
    return 0


def _table(rows: list[dict]) -> str:
    from explorer.games import parse_spec

    header = ("rule set", "start", "positions", "moves", "win", "loss", "tie", "draw", "on cycles", "longest win")
    lines = []
    for row in rows:
        start = row["start_value"] + (f" in {row['start_remoteness']}" if row["start_remoteness"] is not None else "")
        name = parse_spec(row["spec"]).display_name
        lines.append((name, start, f"{row['positions']:,}", f"{row['moves']:,}", f"{row['win']:,}",
                      f"{row['loss']:,}", f"{row['tie']:,}", f"{row['draw']:,}", f"{row['on_cycle_share']:.0%}",
                      "-" if row["longest_win"] is None else str(row["longest_win"])))
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h) for i, h in enumerate(header)]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths)), "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(line, widths)) for line in lines]
    wins = sum(1 for r in rows if r["start_value"] == "win")
    out.append(f"{len(rows)} rule sets: first player wins {wins}, loses "
               f"{sum(1 for r in rows if r['start_value'] == 'loss')}, draws "
               f"{sum(1 for r in rows if r['start_value'] == 'draw')}, ties {sum(1 for r in rows if r['start_value'] == 'tie')}")
    return "\n".join(out) + "\n"
