"""The tier files: a tier folder in the state folder, one compact value file per tier (explorer.core.valuestore),
a chunk's part file, and each tier's summary. The only module that knows their layout on disk."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from explorer.core import private
from explorer.core.errors import GameGraphError
from explorer.core.settings import solve_threads
from explorer.core.values import Value
from explorer.games.base import Game

FORMAT = 2  # 2: tier files are compact value files (explorer.core.valuestore)

CACHE_KIND = "tiered"  # the state folder's subfolder of tier folders
NO_POSITION = 6  # a tier cell's code for an index that names no position (explorer.kernels.retrograde)


def folder_for(game: Game) -> Path:
    """``<state dir>/tiered/<name>-<hash>``."""
    return private.cache_path(CACHE_KIND, game.name, f"{FORMAT}|{game.stored_id}")



# -- one tier on disk: the only functions that know its layout --------------------------------------
# A tier is one compact value file (explorer.core.valuestore): the kernel's final cells, 2 bytes a
# position. Written uncompressed while the solve runs, so that parents memory-map their children;
# compressed into zstd chunks when every tier is done (`_compress_tier`), read at random from then on.


def _tier_path(folder: Path, tier: int) -> Path:
    return Path(folder) / f"tier-{tier}.values"


def _write_tier(folder: Path, tier: int, cells) -> None:
    """A solved tier's final cells, uncompressed (a parent memory-maps them), written whole or not at all, 0600."""
    from explorer.core import valuestore

    valuestore.write(_tier_path(folder, tier), cells, codec="none")


def _open_store(folder: Path, tier: int):
    """A written tier as a valuestore.Store (random access, either codec); None when not written yet."""
    from explorer.core import valuestore

    path = _tier_path(folder, tier)
    if not path.exists():
        return None
    try:
        return valuestore.open(path)
    except valuestore.BadValueFile as error:
        raise GameGraphError(f"{error}; delete that file and run the same solve again to redo its tier") from None


def _open_tier(folder: Path, tier: int):
    """A written tier's cells as an array: memory-mapped read-only while uncompressed, else decompressed
    into memory (2 bytes a position); None when the tier is not written yet."""
    store = _open_store(folder, tier)
    if store is None:
        return None
    return store.as_memmap() if store.codec == "none" else store.to_array()


def _compress_tier(folder: Path, tier: int) -> "TierSummary | None":
    """Rewrite a tier's file in zstd chunks (about 0.25 bytes a position on Dodgem 5x5; bench/README.md),
    atomically: a reader sees the old file or the new one, and return its summary (`_summarize`, read
    on the way). None when there is nothing to do: not written, or compressed already."""
    from explorer.core import valuestore

    store = _open_store(folder, tier)
    if store is None or store.codec != "none":
        return None
    cells = store.as_memmap()
    summary = _summarize(cells)
    valuestore.write(_tier_path(folder, tier), cells, chunk=valuestore.RANDOM_ACCESS_CHUNK, codec="zstd",
                     threads=solve_threads())  # the chunks compressed on every core (the same bytes)
    del cells
    store.close()
    return summary


class TierSummary(NamedTuple):
    """What meta.json says of a tier: the positions of each code (explorer.core.values.Value, NO_POSITION
    at 6), the deepest remoteness of a win, loss or tie (0: none)."""
    codes: tuple[int, ...]
    deepest: int


def _summarize(cells) -> TierSummary:
    """The tier's TierSummary, valuestore.summarize's answer, counted on every core (explorer.kernels.retrograde.
    count_cells: blocks of a memory map read once, each by one thread, their counts added; the same with any
    threads). O(N)."""
    import numpy as np

    from explorer.kernels.retrograde import count_cells

    deepest, counts = count_cells(np.asarray(cells))
    return TierSummary(tuple(int(c) for c in counts), int(deepest))





def _part_path(folder: Path, tier: int, start: int, end: int) -> Path:
    return Path(folder) / f"tier-{tier}.part-{start}-{end}.values"


def _remove_parts(folder: Path, tier: int) -> None:
    """The part files of a tier whose file is written (left by an interrupted merge or another chunking)."""
    for part in Path(folder).glob(f"tier-{tier}.part-*.values"):
        part.unlink(missing_ok=True)
