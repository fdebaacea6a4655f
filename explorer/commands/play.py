"""`gamegraph play`: a game against the solver in the terminal, scriptable through standard input."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from explorer.commands import MAX_WHOLE_NUMBER, bounded_int

# Standard input ended before the game did, or the player quit (q): the report is printed, and a script sees that
# no result was reached. (2 is a refused input, as for every command; a game that ends, or stops at --max-plies,
# exits 0.)
EXIT_UNFINISHED = 4
NO_INPUT = "no more moves on standard input"  # the report's "stopped" when standard input ends
QUIT = "you quit"                              # ... when the player typed q (or quit)
QUIT_WORDS = ("q", "quit")                     # a move's own label that reads so is played, not taken as quitting


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "play", help="play against the perfect player (or a slipping or random one)",
        description="Your moves come from standard input, one per line: a move's label (or the label without "
                    "the mover's letter, `a1` for `X a1`, when that names one move), its number in the list, or the "
                    "position it reaches. It works without a terminal: "
                    "`printf '1\\n1\\n' | gamegraph play chopsticks --side A`. The board is drawn before every "
                    "move (the game's own text drawing, else its notation's rows) and your move is prompted for; "
                    "`q` quits. Exit status: 0 when the game "
                    f"ends (or stops at --max-plies), {EXIT_UNFINISHED} when standard input ends first or you quit "
                    "with q (the game is left unfinished), 2 for a refused move or option.")
    p.add_argument("spec", help="game spec, e.g. chopsticks:magic-fingers")
    p.add_argument("--side", default="A", help="the side you play: A (moves first) or B, or the game's own name "
                                                "for it (X or O in tic-tac-toe, Blue or Red in Dodgem), in any case; "
                                                "default A")
    p.add_argument("--opponent", default="perfect", help="perfect (default), random, or slip=P (a random move with "
                                                         "probability P)")
    p.add_argument("--seed", type=bounded_int(-MAX_WHOLE_NUMBER, MAX_WHOLE_NUMBER), default=0, help="seed of the random and slipping opponents (default 0)")
    p.add_argument("--start", help="start from this position instead of the game's start")
    p.add_argument("--max-plies", type=bounded_int(1, 100_000), default=500, help="stop a game after this many plies (default 500)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--no-board", action="store_true",
                   help="plain output for scripts: no board drawn and no prompt (the text format's lines only)")
    p.add_argument("--backend", choices=("solver", "values", "neo4j"), default=None,
                   help="where the values, optimal moves and draw grades come from: the solved graph; the value "
                        "file of `gamegraph solve SPEC --implicit` (or --tiered), read position by position, no "
                        "graph built (no draw levels: the perfect player keeps a draw without pressing); or the "
                        "game as loaded into Neo4j (`gamegraph load SPEC` first). Default: the value file for a "
                        "game solved into one that is too large for a graph, else the solved graph")
    p.set_defaults(func=cmd_play)


def _side(text: str, game) -> int:
    """The player `--side` names, 0 (moves first) or 1: A or B, 1 or 2, first or second, or the game's own
    name for the side (offers.player_names: X and O, Blue and Red), in any case. The game's names are
    read first, so a game that calls its first player "B" means that one."""
    from explorer.core.errors import InvalidParameter, shown
    from explorer.games.base import player_name

    side = text.strip().casefold()
    names = [player_name(game, i) for i in (0, 1)]
    for i, name in enumerate(names):
        if side == name.casefold():
            return i
    if side in ("a", "1", "first"):
        return 0
    if side in ("b", "2", "second"):
        return 1
    own = [f"{name} (or {generic})" if name != generic else name for name, generic in zip(names, "AB")]
    raise InvalidParameter(f"side {shown(text)} is not valid for {game.display_name}: choose {own[0]}, who moves "
                           f"first, or {own[1]}")


def cmd_play(args: argparse.Namespace) -> int:
    import random

    from explorer.core.errors import InvalidParameter
    from explorer.games import parse_spec
    from explorer.graph import DEFAULT_MAX_POSITIONS
    from explorer.play import Match, Opponent, Played, start_position
    from explorer.solved import GRAPH, choose, open_graph, open_solved

    opponent = Opponent.parse(args.opponent)
    if not 1 <= args.max_plies <= 100_000:
        raise InvalidParameter(f"--max-plies {args.max_plies} must be from 1 to 100,000")
    game = parse_spec(args.spec)
    side = _side(args.side, game)  # the game's own names for its sides count too
    prefer = _preference(game, args.backend)
    if choose(game, prefer, DEFAULT_MAX_POSITIONS) != GRAPH:  # a value file: stored, or asked for by --backend values
        values = open_solved(game, prefer).values  # none yet: one line naming `gamegraph solve ... --implicit`
        start = game.parse(args.start) if args.start else game.start()
        match = Match(values, start)
        match.find(game.format(start))  # a position the file holds as illegal: one line, InvalidPosition
        return _play(args, game, side, opponent, Played(match, start), random.Random(args.seed))
    # The graph kept by `solve` (or built and kept here); over the limit: the value file that would answer.
    start = game.parse(args.start) if args.start else None
    solved = open_graph(game, start=start, command="play", spec=args.spec)
    if start is None:
        start = start_position(solved)
    with _matched(solved, args.backend) as match:
        return _play(args, game, side, opponent, Played(match, start), random.Random(args.seed))


def _preference(game, backend: str | None) -> str:
    """How play reads the game (explorer.solved.storage): --backend values the value file only, by default the
    graph unless the game is too large for one and solved into a value file, else (solver, neo4j) the graph."""
    from explorer.core.errors import GameGraphError
    from explorer.solved import GRAPH_FIRST, GRAPH_ONLY, VALUES_ONLY

    if backend == "values":
        from explorer import implicit

        if not implicit.supports(game):
            raise GameGraphError(f"{game.display_name} cannot be solved into a value file: play it with "
                                 "--backend solver")
        return VALUES_ONLY
    return GRAPH_FIRST if backend is None else GRAPH_ONLY


@contextlib.contextmanager
def _matched(solved, backend: str):
    """The match on the solved graph, or on the game as Neo4j holds it (its driver closed afterwards)."""
    from explorer.play import Match

    if backend in (None, "solver"):
        yield Match(solved)
        return
    from loaders.settings import Neo4jSettings, open_driver
    from queries.play_neo4j import Neo4jMatch

    settings = Neo4jSettings.from_env()
    driver = open_driver(settings)
    try:
        yield Neo4jMatch(solved, driver, settings.database)
    finally:
        driver.close()


def _player(game, index: int) -> str:
    """'player A' for a game without names of its own, else its name: X, Blue, Toads."""
    from explorer.games.base import player_name

    return f"player {player_name(game, index)}" if game.offers.player_names is None else player_name(game, index)


def _play(args, game, side, opponent, played, rng) -> int:
    """The game loop. Moves are the rules' own, on the position as played: symmetric twins merged in
    the solved graph are never swapped in, so the board never turns under the player."""
    from explorer.core.errors import GameGraphError, counted
    from explorer.play import RESULT_WORDS, result_for

    match = played.match
    interactive = sys.stdin is not None and sys.stdin.isatty()
    text = args.format == "text"
    board = text and not args.no_board  # --no-board: the plain lines a script reads, no drawing, no prompt
    stopped = None
    drawn = None  # the position whose board was drawn last: a refused move does not draw it again
    while not match.over and len(match.plies) < args.max_plies:
        node = match.node
        if board and drawn != len(match.plies):
            _draw(game, played.position)
            drawn = len(match.plies)
        if text:
            mover = match.to_move()
            whose = "for you" if mover == side else "for them"  # the value is the mover's, you or the opponent
            print(f"{game.format(played.position)}: {_player(game, mover)} to move, "
                  f"{match.value(node)}{_in(match.remoteness(node))} {whose}")
        if match.to_move() == side:
            moves = played.moves()
            if text:
                print("  your moves: " + ", ".join(f"{number}) {label}" for number, label, _, _ in moves))
            if board:
                print("  your move (its number, its label or the position it reaches; q quits): ", end="", flush=True)
            line = sys.stdin.readline() if sys.stdin is not None else ""
            if board and not (interactive and line.endswith("\n")):
                print(line.rstrip("\n"))  # piped: the move read, as a terminal would echo it; at the end: a new line
            if not line:
                stopped = NO_INPUT
                break
            if line.strip().casefold() in QUIT_WORDS and all(line.strip() != label for _, label, _, _ in moves):
                stopped = QUIT
                break
            try:
                number = played.find(line)
            except GameGraphError as error:
                if not interactive:
                    raise
                print(f"  {error}", file=sys.stderr)
                continue
        else:
            _, target = match.choose(opponent, rng)
            number = played.number_reaching(target)
        played.play(number)
        ply = match.plies[-1]
        if text:
            who = "you" if ply.player == side else "opponent"
            change = f"{ply.value_before} -> {ply.value_after}"
            print(f"  {who}: {ply.label} -> {played.shown[-1]}   ({change}{'  SLIP' if ply.slip else ''})")
    if board and match.over:
        _draw(game, played.position)  # the final board, before the result
    report = {"game": game.id, "side": "AB"[side], "opponent": args.opponent,
              "plies": [vars(p) for p in match.plies], "history": match.history(),
              "over": match.over, "result": result_for(match, side) if match.over else None,
              "ending": played.ending(),
              "stopped": stopped or (None if match.over else f"stopped after {args.max_plies} plies")}
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return _left_unfinished(match, stopped)
    if match.over:
        why = f" ({report['ending']})" if report["ending"] else ""
        print(f"game over after {len(match.plies)} plies: you {RESULT_WORDS[report['result']]}{why}")
    elif stopped not in (NO_INPUT, QUIT):  # said below, on standard error, with the exit status
        print(f"game stopped after {counted(len(match.plies), 'ply', 'plies')}: the limit set by --max-plies")
    slips = [p for p in match.plies if p.slip]
    print(f"slips: {', '.join(f'ply {p.ply} ({p.label}, {p.value_before} -> {p.value_after})' for p in slips) or 'none'}")
    print("value history (for the player to move): " + " ".join(
        f"{row['ply']}:{row['value'][0].upper()}{'' if row['remoteness'] is None else row['remoteness']}"
        for row in report["history"]))
    return _left_unfinished(match, stopped)


def _left_unfinished(match, stopped: str | None) -> int:
    """EXIT_UNFINISHED, after one line on standard error, when standard input ended before the game or the player
    quit; else 0."""
    from explorer.core.errors import counted

    plies = counted(len(match.plies), "ply", "plies")
    if stopped == QUIT:
        print(f"gamegraph: play: you quit; the game was left unfinished after {plies}; exit status "
              f"{EXIT_UNFINISHED}", file=sys.stderr)
        return EXIT_UNFINISHED
    if stopped != NO_INPUT:
        return 0
    print(f"gamegraph: play: the game was left unfinished after {plies}: standard input ended before it did "
          f"(no input for the next move); exit status {EXIT_UNFINISHED}", file=sys.stderr)
    return EXIT_UNFINISHED


def board_text(game, position) -> str | None:
    """The board of `position` in lines of text, for the terminal: the game's own text drawing
    (`Game.diagram_label`, offers.diagram_label; its DOT line breaks made real), else the rows of a notation
    written as rows separated by '/' (after an optional 'MOVER|'), one cell a column; None when the notation
    is no grid (Chopsticks' hands, Nim's heaps: the position's line says it all). A game whose moves name cells
    by file and rank (tic-tac-toe's "X c1", Dodgem's "a2-b2") has them beside its board
    (explorer.render.boards.labelled_text). O(cells)."""
    from explorer.render.boards import labelled_text

    labelled = labelled_text(game, position)
    if labelled is not None:
        return labelled
    if game.offers.diagram_label:
        return game.diagram_label(position).replace("\\n", "\n")
    notation = game.format(position)
    cells = notation.split("|", 1)[1] if "|" in notation else notation
    if "/" not in cells or "|" in cells:
        return None
    return "\n".join(" ".join(row) for row in cells.split("/"))


def _draw(game, position) -> None:
    """The board, indented, after a blank line, above the position's line."""
    drawing = board_text(game, position)
    if drawing:
        print("\n" + "\n".join("    " + line for line in drawing.splitlines()))


def _in(remoteness: int | None) -> str:
    return "" if remoteness is None else f" in {remoteness}"
