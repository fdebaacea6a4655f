"""The tier manager: a game's whole tiered solve, from its checked declaration and claimed folder through the
tiers still to solve (run on Dask, explorer.tiered.dag) to the compressed files and ``meta.json``."""

from __future__ import annotations

import json
import time
from pathlib import Path

from explorer import implicit
from explorer.core import private, progress
from explorer.core.errors import GameGraphError
from explorer.core.values import Value
from explorer.games.base import Game, Tiers
from explorer.tiered.dag import _run_dag, check_local_workers, scheduler_address
from explorer.tiered.files import (FORMAT, NO_POSITION, TierSummary, _compress_tier, _open_tier, _remove_parts,
                                   _summarize, _tier_path, folder_for)
from explorer.tiered.reader import TieredValues
from explorer.tiered.tiers import _require, check_size, check_tiers, tiers_of


def solve(game: Game, folder: Path | None = None, scheduler: str | None = None, workers: int | None = None,
          processes: bool = True, client=None, compress: bool = True,
          forward_chunk: int | None = None) -> "TieredValues":
    """Solve every tier of the game not solved yet in `folder` (default: the state folder's) on Dask,
    children first, compress every tier file (unless `compress` is False: they stay memory-mappable,
    2 bytes a position), then write ``meta.json``; return the reader. `client`: an existing
    distributed.Client to use (kept open); else one made by `_client` and closed at the end.
    `forward_chunk`: the positions of a chunk of a loop-free tier (default: forward_ranges chooses)."""
    _require(game)
    check_local_workers(workers)  # here, not where the cluster starts: a solve already written starts none
    scheduler_address(scheduler)  # likewise: a bad address is refused even when no scheduler is needed
    tiers = tiers_of(game)
    size = game.index_space()
    order = check_tiers(tiers, size)
    check_size(game, tiers)
    in_state_folder = folder is None
    folder = Path(folder) if folder else folder_for(game)
    if in_state_folder:
        private.private_state_dir()
    private.ensure_private_dir(folder)
    _claim(game, tiers, folder)
    todo = [t for t in order if not _tier_path(folder, t).exists()]
    for t in set(order) - set(todo):
        _remove_parts(folder, t)
    seconds = 0.0
    if todo:
        t0 = time.perf_counter()
        _run_dag(game, tiers, todo, folder, scheduler, workers, processes, client, forward_chunk)
        seconds = time.perf_counter() - t0
    summaries = _compress_all(game, tiers, folder) if compress else {}
    if todo or not (folder / "meta.json").exists():
        _write_meta(game, tiers, folder, seconds, summaries)
    return TieredValues(game, folder)


def _compress_all(game: Game, tiers: Tiers, folder: Path) -> dict[int, "TierSummary"]:
    """Compress the tier files still uncompressed, in this process, with a progress bar over positions.
    After the whole DAG: a parent solved later would read a compressed child into memory, not map it.
    Returns the summary (`_summarize`) of each tier it compressed, taken from the memory map just
    before it is compressed (the pages at hand), so `_write_meta` need not decompress those tiers."""
    count = len(tiers.offsets) - 1
    summaries: dict[int, TierSummary] = {}
    with progress.bar(f"compressing the tiers of {game.display_name}", total=tiers.offsets[-1]) as bar:
        for t in range(count):
            summary = _compress_tier(folder, t)
            if summary is not None:
                summaries[t] = summary
            bar.update(tiers.offsets[t + 1] - tiers.offsets[t])
    return summaries



def _claim(game: Game, tiers: Tiers, folder: Path) -> None:
    """Mark the folder as this game's tiers (``game.json``), or refuse a folder of another game or tiers,
    whose tier files would be read as this game's."""
    mark = {"format": FORMAT, "game": game.id, "offsets": list(tiers.offsets), **implicit.ranking_mark(game)}
    path = folder / "game.json"
    if path.exists():
        try:
            found = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise GameGraphError(f"cannot read {path}: {error}") from None
        if found != mark:
            raise GameGraphError(f"{folder} holds the tiers of {found.get('game')} (format {found.get('format')}, "
                                 f"ranking version {found.get('ranking', 0)}), not of {game.id} (format {FORMAT}, "
                                 f"ranking version {game.ranking_version}): use another folder")
        return
    with private.atomic_private_file(path) as handle:
        handle.write((json.dumps(mark) + "\n").encode())


def _write_meta(game: Game, tiers: Tiers, folder: Path, seconds: float,
                summaries: dict[int, TierSummary] | None = None) -> None:
    """``meta.json``: counts of each value over all tiers, the deepest remoteness, the start. `summaries`:
    the tiers summarized already (by `_compress_all`); any other tier is read once here."""
    summaries = summaries or {}
    counts = {str(v): 0 for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}
    invalid, deepest, stored = 0, 0, 0
    for t in range(len(tiers.offsets) - 1):
        summary = summaries.get(t)
        if summary is None:
            summary = _summarize(_open_tier(folder, t))
        for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW):
            counts[str(v)] += summary.codes[int(v)]
        invalid += summary.codes[NO_POSITION]
        deepest = max(deepest, summary.deepest)
        stored += _tier_path(folder, t).stat().st_size
    values = TieredValues(game, folder, meta={})
    start = game.start()
    meta = {"format": FORMAT, "game": game.id, "display_name": game.display_name, "index_space": game.index_space(),
            "tiers": {"offsets": list(tiers.offsets), "children": [list(c) for c in tiers.children],
                      "names": list(tiers.names)},
            "positions": game.index_space() - invalid, "invalid_indices": invalid, "counts": counts,
            "max_remoteness": deepest, "bytes_on_disk": stored,
            "start": {"index": game.rank(start), "key": game.format(start), "value": str(values.value(start)),
                      "remoteness": values.remoteness(start)},
            "seconds": round(seconds, 3), **implicit.ranking_mark(game)}
    with private.atomic_private_file(folder / "meta.json") as handle:
        handle.write((json.dumps(meta, indent=2) + "\n").encode())
