"""Output files written whole or not at all, with one-line errors.

Every file a command writes on request (exports, diagrams, certificates,
neo4j-admin import files) goes through `output_file`: the data is written to a
temporary file in the target's folder and renamed over the target at the end,
so a reader never sees half a file and a failure leaves nothing behind. An
OSError (missing folder, no permission, target is a folder, disk full) becomes
a GameGraphError naming the path and the reason, which the CLI prints as one line.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Iterator

from explorer.errors import GameGraphError


@contextmanager
def output_file(path: str | os.PathLike | None, binary: bool = False) -> Iterator[IO]:
    """A handle on `path` (text, UTF-8, no newline translation; bytes when `binary`), or
    standard output when `path` is empty. The file appears only if the block completes."""
    if not path:
        yield sys.stdout.buffer if binary else sys.stdout
        return
    target = Path(path)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")  # same folder: the rename is atomic
    try:
        with (open(partial, "wb") if binary else open(partial, "w", encoding="utf-8", newline="")) as handle:
            yield handle
        partial.replace(target)
    except OSError as error:
        raise GameGraphError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        with suppress(OSError):  # nothing to remove when the folder itself is missing or not a folder
            partial.unlink(missing_ok=True)


def make_folder(path: str | os.PathLike) -> Path:
    """Create a folder (and its parents) unless it exists; GameGraphError naming it otherwise."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = "a file of that name exists" if isinstance(error, FileExistsError) else error.strerror or error
        raise GameGraphError(f"cannot create the folder {path}: {reason}") from None
    return folder
