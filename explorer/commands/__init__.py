"""Subcommand modules of the `gamegraph` CLI, and the argument types they share."""

import argparse
import shlex


def shell_hint(*words: str) -> str:
    """A gamegraph command line that pastes into a POSIX shell as it is: each word
    quoted where needed (`gamegraph load 'chopsticks(fingers=4)'`)."""
    return shlex.join(["gamegraph", *words])


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1, with argparse's one-line usage error otherwise."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value
