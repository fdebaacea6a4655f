"""A tiered solve read back: the tier files as one value-file reader (explorer.implicit.ValueFile's interface)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from explorer import implicit
from explorer.core.errors import GameGraphError
from explorer.core.values import Value
from explorer.games.base import Game
from explorer.tiered.files import FORMAT, NO_POSITION, _open_store, _open_tier, folder_for
from explorer.tiered.tiers import _require, supports, tiers_of


def exists(game: Game) -> bool:
    return supports(game) and (folder_for(game) / "meta.json").exists()


def open_values(game: Game, folder: Path | None = None) -> "TieredValues":
    """The game's solved tiers; a GameGraphError saying how to make them when there are none."""
    _require(game)
    folder = Path(folder) if folder else folder_for(game)
    if not (folder / "meta.json").exists():
        raise GameGraphError(f"{game.display_name} has no tiered solve yet: run gamegraph solve "
                             f"'{game.display_name}' --tiered")
    return TieredValues(game, folder)



def solved_exists(game: Game) -> bool:
    """Whether the game has a tiered solve or an implicit value file in the state folder."""
    return exists(game) or implicit.exists(game)


def open_solved(game: Game) -> "implicit.ValueFile":
    """The game's values without a graph: its tiered solve, else its implicit value file (the same
    interface: value, remoteness, record, moves, best_line); a GameGraphError saying how to make one."""
    if exists(game):
        return open_values(game)
    return implicit.open_value_file(game)


class TieredValues(implicit.ValueFile):
    """A tiered solve's values and remoteness, read from the memory-mapped tier files: the interface
    of implicit.ValueFile (value, remoteness, record, moves, best_line), one tier file read per look-up."""

    def __init__(self, game: Game, folder: Path, meta: dict[str, Any] | None = None):
        self.game = game
        self.folder = Path(folder)
        self.tiers = tiers_of(game)
        try:
            self.meta = meta if meta is not None else json.loads((self.folder / "meta.json").read_text())
            if meta is None and (self.meta.get("format") != FORMAT or self.meta.get("game") != game.id):
                raise ValueError("tier files of another game or format")
            if meta is None:
                implicit.check_ranking(self.meta, game, "tier files")
        except (OSError, ValueError) as error:
            raise GameGraphError(f"cannot read the tiered solve in {self.folder}: {error}") from None
        self._cells: dict[int, Any] = {}

    def cell(self, index: int) -> int:
        """The stored cell of a global index (value code in the low 3 bits, remoteness above)."""
        from bisect import bisect_right

        tier = bisect_right(self.tiers.offsets, index) - 1
        if tier not in self._cells:
            cells = _open_store(self.folder, tier)  # one chunk read a look-up, compressed or not
            if cells is None:
                raise GameGraphError(f"tier {tier} of {self.game.display_name} is not solved in {self.folder}")
            self._cells[tier] = cells
        return int(self._cells[tier][index - self.tiers.offsets[tier]])

    def value(self, position: Any) -> Value:
        code = self.cell(self.game.rank(position)) & 7
        if code == NO_POSITION:
            raise GameGraphError(f"{self.game.format(position)} is no legal position of {self.game.display_name}")
        return Value(code)

    def remoteness(self, position: Any) -> int | None:
        cell = self.cell(self.game.rank(position))
        return None if (cell & 7) in (Value.DRAW, NO_POSITION) else cell >> 3

    def arrays(self):
        """(value int8, remoteness int32) over the whole ranking, as the implicit mode's value file
        holds them (-2 / -1 where no position; -1 for draws): for comparisons, O(N) memory."""
        import numpy as np

        value = np.empty(self.tiers.offsets[-1], dtype=np.int8)
        remoteness = np.empty(self.tiers.offsets[-1], dtype=np.int32)
        for t in range(len(self.tiers.offsets) - 1):
            lo, hi = self.tiers.offsets[t], self.tiers.offsets[t + 1]
            cells = np.asarray(_open_tier(self.folder, t)).astype(np.int64)
            codes = cells & 7
            value[lo:hi] = np.where(codes == NO_POSITION, implicit.INVALID, codes)
            remoteness[lo:hi] = np.where((codes == Value.DRAW) | (codes == NO_POSITION), -1, cells >> 3)
        return value, remoteness
