"""Subcommands `query`, `dot`, `certificate` and `check-certificate`.

`query` and `dot` run a named query on the networkx mirror (default) or on
Neo4j, where the game must already be loaded. Argument checking is left to
queries.api so that every mistake gets the same one-line message as in the UI.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from explorer.commands import positive_int, shell_hint, shown, writes_output
from explorer.core.bounds import decimal_number
from explorer.render.dot import MAX_GRAPH_NODES
from explorer.core.errors import GameGraphError, QueryError
from explorer.core.files import output_file, output_target
from explorer.games import parse_spec
from queries.catalog import DEFAULT_TIMEOUT_S, DIRECTIONS, QUERIES, check_timeout, spec as query_spec

if TYPE_CHECKING:  # the backends pull in networkx and the Neo4j driver: loaded per command
    from queries.api import Backend

DIAGRAMS = ("shortest-win", "certificate", "neighbourhood", "cycle", "graph", "position-graph")


# The option that sets each parameter of the catalogue (queries.catalog.QuerySpec.params).
OPTIONS = {"position": "--position", "to": "--to", "direction": "--direction", "value": "--value", "k": "--k",
           "max_length": "--max-length", "limit": "--limit"}


def query_lines(width: int = 100) -> list[str]:
    """One entry per query of the catalogue (queries.catalog.QUERIES), in its order: its name, what it answers
    (its `summary`) and the options it reads, with their limits and defaults, wrapped to `width` with a hanging
    indent. The catalogue is the one home of the words; the help only lays them out. O(queries)."""
    import textwrap

    lines = []
    for query in QUERIES.values():
        reads = []
        for name in query.params:
            param = query.int_param(name)
            if param is not None:
                reads.append(f"{OPTIONS[name]} ({param.minimum}-{param.maximum}, default {param.default})")
            else:
                reads.append({"position": "--position (default: the start)", "to": "--to (required)",
                              "direction": f"--direction ({', '.join(DIRECTIONS)}; default both)",
                              "value": "--value (required)"}[name])
        options = f"; reads {', '.join(reads)}" if reads else "; reads no query option"
        lines += textwrap.wrap(f"{query.name}: {query.summary}{options}", width, initial_indent="  ",
                               subsequent_indent="      ", break_on_hyphens=False)
    return lines


def register(subparsers: argparse._SubParsersAction) -> None:
    names = ", ".join(QUERIES)
    p = subparsers.add_parser("query", help="run a named query on the networkx mirror or on Neo4j",
                              formatter_class=argparse.RawDescriptionHelpFormatter,
                              description="Run a named query. Each answers one question, on either backend, and "
                                          "reads the options named\n(--backend, --timeout, --no-symmetry and "
                                          "--format apply to every query):\n\n" + "\n".join(query_lines()))
    p.add_argument("spec", help="game spec, e.g. chopsticks:magic-fingers, or the id of a part that "
                                "`load --around` printed, e.g. 'dobutsu@around(POSITION;radius=2;both)'")
    p.add_argument("name", help=f"one of: {names}")
    _query_options(p)
    p.add_argument("--limit", help="row cap of list queries")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=cmd_query)

    p = subparsers.add_parser("dot", help="draw a winning line, certificate, neighbourhood, cycle or whole graph")
    p.add_argument("spec", help="game spec, e.g. chopsticks:magic-fingers, or the id of a part that `load --around` "
                                "printed (every diagram but certificate)")
    p.add_argument("query", help=f"one of: {', '.join(DIAGRAMS)}")
    _query_options(p)
    p.add_argument("--max-nodes", type=positive_int, default=MAX_GRAPH_NODES,
                   help=f"whole-graph limit (default {MAX_GRAPH_NODES} positions)")
    p.add_argument("--cgt", action="store_true",
                   help="label each position with its combinatorial value (toads-and-frogs, domineering, nim)")
    p.add_argument("--boards", action="store_true",
                   help="draw each position of a line or cycle (shortest-win, cycle) as its board")
    p.add_argument("-o", "--output", required=True, help="FILE.dot or FILE.gv (Graphviz text), FILE.svg, FILE.png or FILE.pdf")
    p.add_argument("--dpi", metavar="N", help="a PNG's resolution in dots per inch, 36 to 1200 (default 150: "
                                              "tic-tac-toe's winning line with --boards is 2,284 px wide)")
    writes_output(p, cmd_dot)

    p = subparsers.add_parser("certificate", help="write a checkable strategy certificate of a position's value")
    p.add_argument("spec", help="game spec, e.g. chopsticks:magic-fingers")
    p.add_argument("--position", help="position in the game's notation (default: the start)")
    p.add_argument("--no-symmetry", action="store_true", help="do not merge symmetric positions")
    p.add_argument("-o", "--output", help="FILE.json (default or '-': standard output)")
    writes_output(p, cmd_certificate)

    p = subparsers.add_parser("check-certificate", help="verify a certificate from the game rules alone")
    p.add_argument("file", help="a certificate written by `gamegraph certificate`")
    p.set_defaults(func=cmd_check_certificate)


def _query_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--position", help="position in the game's notation (default: the start)")
    p.add_argument("--to", help="target position (path)")
    p.add_argument("--k", help="radius of neighbourhood")
    p.add_argument("--direction", help="neighbourhood direction: out, in or both (default both)")
    p.add_argument("--max-length", dest="max_length", help="cycle length bound")
    p.add_argument("--value", help="a combinatorial game value (cgt-equal), e.g. '^', '+-1', '{0|*}'")
    p.add_argument("--backend", choices=("networkx", "neo4j"), default="networkx",
                   help="networkx mirror (default) or Neo4j (the game must be loaded)")
    p.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT_S,
                   help=f"query timeout in seconds, on either backend (default {DEFAULT_TIMEOUT_S:g})")
    p.add_argument("--no-symmetry", action="store_true", help="do not merge symmetric positions")


def _seconds(text: str) -> float:
    """argparse type of --timeout: a number of seconds in the range read_rows accepts."""
    try:
        seconds = decimal_number(text, "")
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number of seconds (plain digits, e.g. 2.5)") from None
    try:
        return check_timeout(seconds)
    except QueryError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


@contextmanager
def _backend(args: argparse.Namespace) -> Iterator[Backend]:
    """The chosen backend; the Neo4j driver is closed afterwards, also when the game is not loaded.
    A spec that is a part's id (explorer.graph.part_graph_id, as `load --around` prints it) names that
    part: in Neo4j where it was loaded, on networkx materialised again from the value file."""
    from explorer.graph import parse_part_id
    from queries.api import NetworkxBackend

    part = parse_part_id(args.spec)  # None for a game spec; a malformed part id: one line
    if part is not None:
        with _part_backend(args, part) as backend:
            yield backend
        return
    game = parse_spec(args.spec)
    symmetry = not args.no_symmetry
    if args.backend == "networkx":
        from loaders.mirror import mirror_for
        yield NetworkxBackend(mirror_for(game, symmetry=symmetry), timeout_s=args.timeout)
        return
    from loaders.settings import Neo4jSettings, open_driver
    from queries.api import Neo4jBackend  # the neo4j driver only when asked for (it pulls pandas in: 0.4 s of CPU)
    settings = Neo4jSettings.from_env()
    driver = open_driver(settings)
    try:
        yield Neo4jBackend.for_spec(driver, settings.database, args.spec, symmetry=symmetry, timeout_s=args.timeout)
    finally:
        driver.close()


@contextmanager
def _part_backend(args: argparse.Namespace, part) -> Iterator[Backend]:
    """The backend of a part of a game solved into a value file (explorer.solved.materialise). Neo4j:
    the part as `load --around` stored it, or one line naming that command. networkx: the same part
    made again from the value file (values, remoteness and best moves are the file's), or one line
    saying why it cannot be (no value file: `solve --implicit`; a centre the file does not hold)."""
    from explorer.graph import part_graph_id
    from queries.api import NetworkxBackend

    game, centre = part.game, part.game.format(part.game.parse(part.centre))
    game_id = part_graph_id(game, centre, part.radius, part.direction)  # a spec's display name becomes the id
    if args.backend == "networkx":
        from loaders.mirror import to_networkx

        yield NetworkxBackend(to_networkx(_materialised(part)), timeout_s=args.timeout)
        return
    from loaders import neo4j_loader
    from loaders.settings import Neo4jSettings, open_driver
    from queries.api import Neo4jBackend

    settings = Neo4jSettings.from_env()
    driver = open_driver(settings)
    try:
        if neo4j_loader.game_properties(driver, settings.database, game_id) is None:
            load = shell_hint("load", game.display_name, "--around", centre, "--radius", str(part.radius),
                              *(["--direction", part.direction] if part.direction != "both" else []))
            raise QueryError(f"the part {game_id!r} is not loaded into Neo4j (database {settings.database!r}): "
                             f"run `{load}` first, or query it on networkx (drop --backend neo4j)")
        yield Neo4jBackend(driver, settings.database, game_id, timeout_s=args.timeout)
    finally:
        driver.close()


def _materialised(part) -> Any:
    """The part a part's id names (explorer.graph.PartId), made again from the game's value file
    (explorer.solved.materialise: values, remoteness and best moves are the file's); one line saying why
    it cannot be (no value file: `solve --implicit`; a centre the file does not hold)."""
    from explorer.graph import part_graph_id
    from explorer.solved import VALUES_ONLY, materialise, open_solved

    game, centre = part.game, part.game.format(part.game.parse(part.centre))
    try:
        values = open_solved(game, VALUES_ONLY).values
    except GameGraphError as error:
        raise GameGraphError(f"the part {part_graph_id(game, centre, part.radius, part.direction)!r} is not "
                             f"available on networkx, which makes it again from the game's value file: {error}") from None
    return materialise(values, game.parse(centre), part.radius, part.direction)


def _params(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    return {name: getattr(args, name, None) for name in names if getattr(args, name, None) is not None}


def cmd_query(args: argparse.Namespace) -> int:
    from queries.api import format_result, run_query

    query_spec(args.name)  # an unknown name is refused before a mirror is built or a cache written
    with _backend(args) as backend:
        result = run_query(backend, args.name, **_params(args, "position", "to", "k", "direction", "max_length",
                                                         "limit", "value"))
    print(result.to_json() if args.format == "json" else format_result(result))
    return 0


def cmd_dot(args: argparse.Namespace) -> int:
    from explorer.render import dot
    from queries.api import run_query

    if args.query not in DIAGRAMS:
        raise QueryError(f"unknown diagram {args.query!r}: choose one of {', '.join(DIAGRAMS)}")
    output_target(args.output)  # before Path() drops a trailing slash: `-o x.svg/` names a folder
    if Path(args.output).suffix.lower() not in dot.FORMATS:
        raise QueryError(f"cannot write {args.output!r}: the file name must end in {', '.join(dot.FORMATS)}")
    if args.dpi is not None:  # before any work: a bad resolution is one line, and nothing is written
        dot.check_dpi(args.dpi)
        if Path(args.output).suffix.lower() != ".png":
            raise QueryError(f"--dpi sets a PNG's resolution; {args.output[:200]!r} is not a .png (SVG and PDF scale freely)")
    if args.boards and args.query not in ("shortest-win", "cycle"):
        raise QueryError(f"--boards draws the boards of a line or a cycle (shortest-win, cycle), not of {args.query}")
    _refuse_too_large_to_draw(args)
    if args.query == "certificate":
        if args.cgt:
            raise QueryError("--cgt labels query diagrams; a certificate diagram shows the strategy only")
        diagram = dot.certificate_diagram(_certificate(args))
    elif args.query == "position-graph":  # drawn from the solved arrays: every game, any backend
        from explorer.graph import parse_part_id
        from explorer.solved import open_graph
        part = parse_part_id(args.spec)  # a part's id: the part made again from the value file, on either backend
        solved = (open_graph(parse_spec(args.spec), symmetry=not args.no_symmetry, command="dot") if part is None
                  else _materialised(part))
        diagram = dot.position_graph_diagram(solved, args.max_nodes)
        if part is not None:
            diagram.title += (f"; the part within {part.radius} moves of {solved.centre} "
                              f"({'both ways' if part.direction == 'both' else part.direction}), values from the value file")
    else:
        with _backend(args) as backend:
            if args.cgt:
                from explorer.cgt.evaluate import supports_cgt
                if not supports_cgt(backend.game):
                    raise QueryError(f"{backend.game.display_name} has no combinatorial values to label: "
                                     "--cgt is for games such as toads-and-frogs, domineering and nim")
            if args.query == "graph":
                if args.backend != "networkx":
                    raise QueryError("the whole-graph diagram is drawn from the networkx mirror: drop --backend neo4j")
                highlight = None
                if args.position is not None:
                    from queries.api import resolve_position
                    highlight = resolve_position(backend, args.position)
                diagram = dot.graph_diagram(backend.G, args.max_nodes, highlight)
            elif args.query == "shortest-win":
                diagram = dot.line_diagram(run_query(backend, "shortest-win", **_params(args, "position")),
                                           boards=args.boards)
            elif args.query == "neighbourhood":
                diagram = dot.neighbourhood_diagram(run_query(
                    backend, "neighbourhood", **_params(args, "position", "k", "direction")))
            else:
                diagram = dot.cycle_diagram(run_query(backend, "shortest-cycle",
                                                      **_params(args, "position", "max_length")),
                                            boards=args.boards)
            if args.cgt:
                dot.label_values(diagram, backend.position)
    path = dot.render(diagram, args.output, dpi=args.dpi)
    print(f"wrote {path} ({len(diagram.nodes)} positions, {len(diagram.edges)} moves)")
    return 0


def _refuse_too_large_to_draw(args: argparse.Namespace) -> None:
    """Refuse at once, from the game's size estimate, a game whose solved graph is over the limit: every diagram
    is drawn from that graph with its edges, and dot has no --max-positions to raise, so the refusal names what
    reads a value file instead (explorer.solved.storage.advice). A part's id is drawn from the value file and passes."""
    from explorer.graph import DEFAULT_MAX_POSITIONS, parse_part_id
    from explorer.solved import refuse_graph

    if parse_part_id(args.spec) is not None:
        return
    refuse_graph(parse_spec(args.spec), not args.no_symmetry, DEFAULT_MAX_POSITIONS, command="dot")


def _certificate(args: argparse.Namespace) -> dict[str, Any]:
    """The certificate of a position of a whole game. A part's id (explorer.graph.part_graph_id) is refused
    in one line: a certificate follows the strategy through every reply to the end of the game, and a part
    stops at its radius, so the moves out of its edge are not in it and the checker would reject the proof."""
    from explorer.certificate import certificate
    from explorer.graph import parse_part_id
    from explorer.solved import open_graph

    part = parse_part_id(args.spec)  # a malformed part id: its own one line
    if part is not None:
        position = args.position if args.position is not None else part.centre
        raise QueryError(f"a certificate follows the strategy through every reply to the end of the game, and the "
                         f"part {args.spec[:200]!r} stops {part.radius} moves from its centre, so it cannot carry one: "
                         f"ask the whole game for it, `{shell_hint('certificate', part.game.display_name, '--position', position)}` "
                         "(it needs the game's graph)")
    # certificate has no --max-positions to raise: over the limit, the refusal names what it can do instead
    solved = open_graph(parse_spec(args.spec), symmetry=not args.no_symmetry, command="certificate")
    return certificate(solved, args.position if args.position is not None else solved.graph.key(0))




def cmd_certificate(args: argparse.Namespace) -> int:
    data = _certificate(args)
    text = json.dumps(data, indent=1)
    if args.output is None or args.output == "-":
        print(text)
        return 0
    with output_file(args.output) as handle:
        handle.write(text + "\n")
    sizes = " and ".join(str(len(s["positions"])) for s in data["strategies"])
    print(f"wrote {args.output}: {data['position']} is a {data['claim']} ({sizes} positions); "
          f"check it with `{shell_hint('check-certificate', args.output)}`", file=sys.stdout)
    return 0


def cmd_check_certificate(args: argparse.Namespace) -> int:
    from explorer.certificate import load_certificate

    print(f"proved: {load_certificate(args.file)}")
    return 0
