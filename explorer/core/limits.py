"""Size and memory limits, checked from a game's parameters before anything is built.

Every game estimates its graph (``Game.estimate_positions`` and
``Game.estimate_moves``: upper bounds computed from the parameters, in
microseconds, without generating anything). `check` refuses at once, with the
estimate and the limit in the message, a graph over the position limit, over
the configured memory budget (``GAMEGRAPH_MEMORY``, e.g. ``6G``) or over the
memory the machine has available. A game without an estimate is checked only
while it is generated (the generator's ``max_positions``).

Memory model: building a graph (generate, solve, cycles) peaks at about
BYTES_PER_ITEM bytes per position and per move, plus 4 bytes per integer code
for the array generator's code -> id table. Measured with tracemalloc on
Chopsticks (20 to 40 fingers, with and without symmetry), Nim and tic-tac-toe:
44 to 89 bytes per position and move; see docs/limits.md.

The memory left is two questions, each with its limits (`Room`: the bytes and the limit's name for a message):
what a work keeps in memory against MemAvailable and a container's limit (`resident_room`), and what it maps
against the address-space limit, ``ulimit -v`` (`address_space_room`). They differ for work that maps more than
it fills (the implicit solve's queue, mapped whole: explorer.implicit.check_memory, through `short_of_room`).

This module imports nothing heavy: the CLI refuses before numpy loads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from explorer.core import settings
from explorer.core.errors import GraphTooLarge
from explorer.core.settings import MEMORY_ENV, parse_size  # noqa: F401 - the budget setting, read in settings

# The default --max-positions of a whole graph's generation (explorer.graph); here, below the commands, so that
# they read it without importing the generator and numpy (`gamegraph --help` stays under 0.3 s of CPU, issue 34).
DEFAULT_MAX_POSITIONS = 30_000_000
BYTES_PER_ITEM = 100          # peak bytes per position and per move while building (measured at most 89)
BYTES_PER_CODE = 8            # the compiled generator's per-code table: int32 dense id and last source (explorer.graph)


@dataclass(frozen=True)
class Estimate:
    """Upper bounds on a graph's size, and the memory building it takes."""

    positions: int
    moves: int | None
    bytes: int

    def describe(self) -> str:
        moves = "" if self.moves is None else f" and {self.moves:,} moves"
        return f"up to {self.positions:,} positions{moves} (about {human_bytes(self.bytes)} to build)"


def human_bytes(count: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if count < 1024 or unit == "TB":
            return f"{count:,.0f} {unit}" if unit == "bytes" else f"{count:,.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Room:
    """What one limit leaves this process: `bytes`, and `limit`, the words that name the limit after
    "the <bytes>" in a message ("more than the 5.7 GB the address-space limit (ulimit -v) leaves")."""

    bytes: int
    limit: str


AVAILABLE_NOW = "this machine has available now"
CGROUP_LEAVES = "the container's memory limit (cgroup memory.max) leaves"
ADDRESS_SPACE_LEAVES = "the address-space limit (ulimit -v) leaves"


def resident_room() -> Room | None:
    """The memory this process may still fill (the pages it touches): MemAvailable, or what a cgroup's (container's)
    limit leaves when that is less; None when neither is known. The question for what a work keeps in memory."""
    rooms = [Room(left, limit) for left, limit in ((meminfo_available(), AVAILABLE_NOW),
                                                   (_cgroup_room(), CGROUP_LEAVES)) if left is not None]
    return min(rooms, key=lambda room: room.bytes, default=None)


def address_space_room() -> Room | None:
    """The address space this process may still map: the address-space limit (RLIMIT_AS, ``ulimit -v``) less what
    it maps already (VmSize); None without a limit. The question for what a work maps, touched or not: a map
    counts whole the moment it is made, so one larger than this fails at once (ENOMEM, or numpy's MemoryError)
    however little of it would ever be in memory."""
    left = _address_space_left()
    return None if left is None else Room(left, ADDRESS_SPACE_LEAVES)


def available_memory() -> int | None:
    """Bytes this process may still allocate and fill: the least of `resident_room` and `address_space_room`;
    None if neither is known. For work that fills what it maps (a graph built in numpy arrays: `check`); work
    that maps more than it fills asks the two questions apart (`short_of_room`)."""
    known = [room.bytes for room in (address_space_room(), resident_room()) if room is not None]
    return min(known) if known else None


def short_of_room(resident: int, mapped: int) -> tuple[Room, int] | None:
    """The limit that work keeping `resident` bytes in memory and mapping `mapped` bytes (its whole maps, however
    little of them it touches) would pass, with the figure it passes: `mapped` against the address-space limit,
    `resident` against the memory available (and a container's limit); None when both fit or nothing is known.
    The address space first: passing it fails at once, at the map, where memory runs short only as pages fill."""
    for room, need in ((address_space_room(), mapped), (resident_room(), resident)):
        if room is not None and need > room.bytes:
            return room, need
    return None


def meminfo_available() -> int | None:
    """MemAvailable of /proc/meminfo (Linux), else the free pages; None when neither is known."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _cgroup_room() -> int | None:
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        used = int(Path("/sys/fs/cgroup/memory.current").read_text().strip())
    except (OSError, ValueError):
        return None
    return max(0, int(limit) - used) if limit.isdigit() else None


def _address_space_left() -> int | None:
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return max(0, soft - int(line.split()[1]) * 1024)
        return soft
    except (ImportError, OSError, ValueError, IndexError):
        return None


def total_memory() -> int | None:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def estimate(game, symmetry: bool = True) -> Estimate | None:
    """The game's own bounds and the memory model's bytes, or None when the game offers no estimate. O(the game's formula)."""
    symmetry = symmetry and game.has_symmetry()
    positions = game.estimate_positions(symmetry)
    if positions is None:
        return None
    moves = game.estimate_moves(symmetry)
    codes = game.code_space() or 0
    # Without a move bound, assume the densest game shipped (about 15 moves a position).
    items = positions + (moves if moves is not None else 15 * positions)
    return Estimate(positions, moves, BYTES_PER_ITEM * items + BYTES_PER_CODE * codes)


RAISE_THE_LIMIT = "raise --max-positions if the memory allows, or choose smaller parameters"
"""The remedy named when a graph is over the position limit, for a command that takes --max-positions."""


def check(game, symmetry: bool = True, max_positions: int | None = None, budget: int | None = None,
          hint: str = RAISE_THE_LIMIT, budget_name: str = MEMORY_ENV) -> Estimate | None:
    """Refuse at once (GraphTooLarge) a graph whose estimate exceeds a limit; return the estimate.

    Limits: `max_positions`; the memory `budget` (default: GAMEGRAPH_MEMORY,
    when set); the memory available now. Each message gives the estimate and
    the limit it exceeds; over `max_positions` it ends with `hint`, the remedy
    the caller offers (a command without --max-positions names another one,
    e.g. the value-file solve: explorer.commands.graph_limit_hint).
    """
    found = estimate(game, symmetry)
    if found is None:
        return None
    name = game.display_name
    if max_positions is not None and found.positions > max_positions:
        raise GraphTooLarge(f"{name} would have {found.describe()}, estimated from its parameters: "
                            f"more than the limit of {max_positions:,} positions; {hint}")
    if budget is None:
        budget = settings.memory_budget(budget_name)
    if budget is not None and found.bytes > budget:
        raise GraphTooLarge(f"{name} would have {found.describe()}: over the memory budget of "
                            f"{human_bytes(budget)} ({budget_name}); choose smaller parameters")
    available = available_memory()
    if available is not None and found.bytes > available:
        raise GraphTooLarge(f"{name} would have {found.describe()}: more than the {human_bytes(available)} "
                            "of memory this machine has available; choose smaller parameters")
    return found
