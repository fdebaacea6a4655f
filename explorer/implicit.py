"""The implicit-graph mode: solve a game over its perfect ranking and answer from a value file.

For games too large to hold as edges. `solve` runs the compiled retrograde
solver (explorer.kernels.retrograde.retrograde_implicit) over every index of the game's ranking
(Game.index_space / rank / unrank / unmoves, compiled as ImplicitKernels) and
keeps the result as a value file: a folder under the state dir with

- ``value.npy``: int8[N], a Value per index (-2 where the index is no position);
- ``remoteness.npy``: int16[N] (int32 if needed), -1 for draws and invalid indices;
- ``meta.json``: format, game id, index encoding, dtypes, counts, start, timings.

`ValueFile` memory-maps them, so opening costs nothing and a query touches a
few pages: the value and remoteness of any position, its moves (each
successor's value read from the file), a neighbourhood or a best line,
materialised only as far as it is shown. No symmetry reduction here: every
position is its own index.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from explorer.core import settings
from explorer.core.errors import GameGraphError, GraphTooLarge
from explorer.games.base import Game
from explorer.core.values import Value

FORMAT = 1
INVALID = -2
MAX_INDICES = 2 ** 31  # int32 queue entries; 8 bytes an index is 16 GiB there


def supports(game: Game) -> bool:
    """Whether the game offers a ranking with compiled kernels (without importing numba)."""
    return game.index_space() is not None and type(game).implicit_kernels is not Game.implicit_kernels


def folder_for(game: Game) -> Path:
    digest = hashlib.sha1(f"{FORMAT}|{game.id}".encode()).hexdigest()[:16]
    return settings.state_dir() / "implicit" / f"{game.name}-{digest}"


def _require(game: Game) -> None:
    if not supports(game):
        raise GameGraphError(f"{game.display_name} offers no ranking and un-moves, so it has no implicit mode")


def solve(game: Game, folder: Path | None = None) -> "ValueFile":
    """Solve every index of the game's ranking; write the value file atomically (a
    partial folder renamed at the end). O(N + E) time, 8 bytes per index while solving
    (value, int16 remoteness, uint8 counter, int32 queue entry), 3 bytes kept."""
    import numpy as np

    from explorer.kernels.retrograde import OVERFLOW, STUCK, retrograde_implicit as retrograde

    _require(game)
    folder = Path(folder) if folder else folder_for(game)
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    kernels = game.implicit_kernels()
    size = kernels.size
    if size >= MAX_INDICES:
        raise GraphTooLarge(f"{game.display_name} has {size:,} indices; the implicit mode solves at most "
                            f"{MAX_INDICES - 1:,} (8 bytes each while solving)")
    if kernels.max_moves > 255:
        raise GameGraphError(f"{game.display_name}: up to {kernels.max_moves} moves a position; the counters hold 255")
    partial = folder.with_name(f"{folder.name}.{os.getpid()}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    try:
        # Solved in anonymous memory and saved at the end: a memory-mapped file updated at
        # random would be written back to disk over and over while solving.
        value = np.empty(size, dtype=np.int8)
        counter = np.zeros(size, dtype=np.uint8)
        queue = np.empty(size, dtype=np.int32)
        deepest = OVERFLOW
        for dtype in (np.int16, np.int32):
            remoteness = np.empty(size, dtype=dtype)
            seconds["setup"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            deepest = retrograde(kernels.move_count, kernels.predecessors, kernels.terminal, kernels.valid,
                                 kernels.ctx, kernels.max_unmoves, value, remoteness, counter, queue)
            seconds["solve"] = seconds.get("solve", 0.0) + time.perf_counter() - t0
            if deepest <= STUCK:
                stuck = game.format(game.unrank(STUCK - deepest))
                raise GameGraphError(f"{game.display_name}: position {stuck} is not over but has no moves")
            if deepest != OVERFLOW:
                break
            del remoteness
        del counter, queue
        t0 = time.perf_counter()
        # One byte-wide comparison per value (np.bincount would widen the array to int64).
        counts = {str(v): int(np.count_nonzero(value == v)) for v in (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)}
        invalid = int(np.count_nonzero(value == INVALID))
        np.save(partial / "value.npy", value)
        np.save(partial / "remoteness.npy", remoteness)
        seconds["write"] = time.perf_counter() - t0
        start = game.rank(game.start())
        meta = {"format": FORMAT, "game": game.id, "display_name": game.display_name, "index_space": size,
                "encoding": f"{game.name} perfect ranking (Game.rank), no symmetry reduction",
                "value_dtype": "int8", "remoteness_dtype": str(remoteness.dtype),
                "positions": size - invalid, "invalid_indices": invalid,
                "counts": counts, "max_remoteness": int(deepest),
                "start": {"index": start, "key": game.format(game.start()), "value": str(Value(int(value[start]))),
                          "remoteness": None if remoteness[start] < 0 else int(remoteness[start])},
                "seconds": {k: round(v, 3) for k, v in seconds.items()}}
        del value, remoteness
        (partial / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
        if folder.exists():
            shutil.rmtree(folder)
        partial.replace(folder)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return ValueFile(game, folder)


def open_value_file(game: Game, folder: Path | None = None) -> "ValueFile":
    """The game's value file; a GameGraphError saying how to make it when there is none."""
    folder = Path(folder) if folder else folder_for(game)
    if not (folder / "meta.json").exists():
        raise GameGraphError(f"{game.display_name} has no value file yet: run gamegraph solve '{game.display_name}' --implicit")
    return ValueFile(game, folder)


def exists(game: Game) -> bool:
    return supports(game) and (folder_for(game) / "meta.json").exists()


class ValueFile:
    """A solved game's values and remoteness by index, memory-mapped; positions in, records out."""

    def __init__(self, game: Game, folder: Path):
        import numpy as np

        self.game = game
        self.folder = Path(folder)
        try:
            self.meta = json.loads((self.folder / "meta.json").read_text())
            if self.meta.get("format") != FORMAT or self.meta.get("game") != game.id:
                raise ValueError("value file of another game or format")
            self.values = np.load(self.folder / "value.npy", mmap_mode="r")
            self.remoteness_array = np.load(self.folder / "remoteness.npy", mmap_mode="r")
        except (OSError, ValueError) as error:
            raise GameGraphError(f"cannot read the value file in {self.folder}: {error}") from None

    # -- one position -----------------------------------------------------------------
    def value(self, position: Any) -> Value:
        v = int(self.values[self.game.rank(position)])
        if v < 0:
            raise GameGraphError(f"{self.game.format(position)} is no legal position of {self.game.display_name}")
        return Value(v)

    def remoteness(self, position: Any) -> int | None:
        r = int(self.remoteness_array[self.game.rank(position)])
        return None if r < 0 else r

    def record(self, position: Any) -> dict[str, Any]:
        """Key, player to move, value, remoteness, whether the game is over: O(1) reads."""
        return {"key": self.game.format(position), "to_move": self.game.to_move(position),
                "value": str(self.value(position)), "remoteness": self.remoteness(position),
                "terminal": self.game.outcome(position) is not None, **self.game.fields(position)}

    def moves(self, position: Any) -> list[dict[str, Any]]:
        """Every move with the successor's value for the mover, best first (as SolvedGraph.moves).
        Moves reaching one position are merged, keeping the first label, as in the graph."""
        value, remoteness = self.value(position), self.remoteness(position)
        rows, seen = [], set()
        for move in self.game.moves(position):
            if move.position in seen:
                continue
            seen.add(move.position)
            child_value, child_remoteness = self.value(move.position), self.remoteness(move.position)
            mover_value = child_value.for_previous_player()
            optimal = mover_value == value and (value == Value.DRAW or
                                                child_remoteness == (remoteness or 0) - 1)
            rows.append({"label": move.label, "to": self.game.format(move.position), "value": str(mover_value),
                         "remoteness": child_remoteness, "optimal": bool(optimal)})
        rank = {"win": 0, "tie": 1, "draw": 2, "loss": 3}
        rows.sort(key=lambda m: (not m["optimal"], rank[m["value"]],
                                 (m["remoteness"] or 0) * (1 if m["value"] in ("win", "tie") else -1)))
        return rows

    def best_line(self, position: Any, limit: int = 50) -> list[dict[str, Any]]:
        """The positions of an optimal line from `position`: the first optimal move each time,
        until the game ends, a position repeats (a draw's cycle) or `limit` moves."""
        line, seen = [self.record(position)], {position}
        for _ in range(limit):
            best = next((m for m in self.moves(position) if m["optimal"]), None)
            if best is None:
                break
            position = self.game.parse(best["to"])
            line[-1]["move"] = best["label"]
            line.append(self.record(position))
            if position in seen:
                break
            seen.add(position)
        return line

    def neighbourhood(self, position: Any, depth: int = 1, limit: int = 500) -> dict[str, list[dict[str, Any]]]:
        """Positions within `depth` moves forward (at most `limit`) and the moves between
        them, with values from the file: a small graph to draw. O(shown positions x moves)."""
        nodes = {self.game.format(position): self.record(position)}
        edges, frontier = [], [position]
        for _ in range(depth):
            following = []
            for p in frontier:
                for move in self.game.moves(p):
                    key = self.game.format(move.position)
                    edges.append({"from": self.game.format(p), "to": key, "label": move.label})
                    if key not in nodes and len(nodes) < limit:
                        nodes[key] = self.record(move.position)
                        following.append(move.position)
            frontier = following
        edges = [e for e in edges if e["to"] in nodes]
        return {"nodes": list(nodes.values()), "edges": edges}
