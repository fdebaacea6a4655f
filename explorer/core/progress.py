"""Progress bars on stderr for work that takes more than a moment."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from explorer.core import settings

if TYPE_CHECKING:  # tqdm's import is a third of a fast command's start: loaded when a bar is made
    from tqdm import tqdm


def enabled() -> bool:
    """Bars are shown on a terminal unless GAMEGRAPH_PROGRESS=0; tests and pipes stay quiet."""
    setting = settings.progress()
    if setting is not None:
        return setting
    return sys.stderr.isatty()


def notice(message: str) -> None:
    """One line on standard error about something the user should know that did not stop the work
    (an answer given without writing its cache, say)."""
    print(f"gamegraph: note: {message}", file=sys.stderr, flush=True)


@contextmanager
def bar(description: str, total: int | None = None, unit: str = "pos") -> Iterator[tqdm]:
    """A tqdm bar that appears only after half a second, so quick work prints nothing."""
    from tqdm import tqdm

    with tqdm(total=total, desc=description, unit=unit, unit_scale=True, file=sys.stderr,
              disable=not enabled(), delay=0.5, leave=False, dynamic_ncols=True) as progress:
        yield progress
