"""Subcommand modules of the `gamegraph` CLI, and the argument types they share.

Each type checks the text where it enters (plain ASCII digits, bounded length,
range) and gives argparse's one-line usage error otherwise.
"""

import argparse

from explorer.core.errors import shell_hint, shown  # noqa: F401  (shell_hint: the subcommands' import)
from explorer.core.bounds import whole_number

MAX_WHOLE_NUMBER = 10 ** 12


OPTIONS_GIVEN = "_options_given"  # the Namespace attribute where StoreOnce notes the options seen


class StoreOnce(argparse._StoreAction):
    """An option that takes a value, refused when it is given twice: argparse keeps the last one silently, so
    `play --side A --side B` played B and `export -o a.jsonl -o b.jsonl` wrote only b.jsonl. Positional
    arguments are counted by argparse itself. explorer.cli's parsers make it the default action."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        if option_string is not None:
            given = getattr(namespace, OPTIONS_GIVEN, None)
            if given is None:
                given = set()
                setattr(namespace, OPTIONS_GIVEN, given)
            if self.dest in given:
                parser.error(f"{'/'.join(self.option_strings)} is given twice: give it once")
            given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


def bounded_int(minimum: int, maximum: int):
    """argparse type: a whole number in [minimum, maximum]."""
    def parse(text: str) -> int:
        try:
            value = whole_number(text, "", max_digits=len(str(maximum)) + 1)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number from {minimum:,} to {maximum:,}") from None
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"{value:,} is out of range: it must be from {minimum:,} to {maximum:,}")
        return value
    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1 (and at most 10**12), with argparse's one-line usage error otherwise."""
    return bounded_int(1, MAX_WHOLE_NUMBER)(text)


def port_number(text: str) -> int:
    """argparse type: a TCP port to listen on, 1..65535 (0, 'any free port', would leave the URL unknown)."""
    return bounded_int(1, 65535)(text)


def graph_limit_hint(game, spec: str, command: str) -> str:
    """The remedy a subcommand without a --max-positions option (show, play) names when the game's graph
    is over the limit: explorer.solved.storage.advice, the one home of that advice."""
    from explorer.solved import advice

    return advice(game, spec, command)


def writes_output(p: argparse.ArgumentParser, func) -> None:
    """Make `func` the command of `p`, a command that writes an output file (-o): its --force lets it replace an
    existing read-only file, which explorer.core.files.output_file otherwise refuses (a file replaced keeps its
    mode either way). The decision lives in that one writer; the command only passes the flag on."""
    import functools

    p.add_argument("--force", action="store_true",
                   help="replace the output file even when it is read-only (it keeps its mode)")

    @functools.wraps(func)
    def command(args: argparse.Namespace):
        from explorer.core.files import replacing_read_only

        with replacing_read_only(getattr(args, "force", False)):
            return func(args)

    p.set_defaults(func=command)
