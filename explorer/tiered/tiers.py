"""A game's tiers as the tiered solver sees them: whether it has any, its declaration checked (a partition
of the ranking, children a DAG), which tiers are solved forward, what fits in memory, and which `solve` option
suits the game (the tier manager's declarations, after GamesmanOne's tier_manager)."""

from __future__ import annotations

from explorer import implicit
from explorer.core.errors import GameGraphError
from explorer.games.base import Game, Tiers


def supports(game: Game) -> bool:
    """Whether the game can be solved by tiers: it has a ranking with compiled kernels (a game
    without declared tiers is one tier)."""
    return implicit.supports(game)


def tiers_of(game: Game) -> Tiers:
    """The game's tiers, or the whole ranking as one tier."""
    declared = game.tiers() if game.offers.tiers else None
    if declared is not None:
        return declared
    return Tiers(offsets=(0, game.index_space()), children=((),), names=("all positions",))


def check_tiers(tiers: Tiers, size: int) -> list[int]:
    """The tiers in an order that puts every child before its parents; a GameGraphError when the
    declaration is not a partition of range(size) into ranges, or its child relation is no DAG."""
    offsets, count = tiers.offsets, len(tiers.offsets) - 1
    if count < 1 or offsets[0] != 0 or offsets[-1] != size:
        raise GameGraphError(f"the tiers' offsets must run from 0 to the index space ({size:,}), "
                             f"not {offsets[0] if offsets else None} to {offsets[-1] if offsets else None}")
    if any(b < a for a, b in zip(offsets, offsets[1:])):
        raise GameGraphError("the tiers' offsets must not decrease")
    if len(tiers.children) != count or len(tiers.names) != count:
        raise GameGraphError(f"{count} tiers need {count} lists of children and {count} names")
    if tiers.loop_free and len(tiers.loop_free) != count:
        raise GameGraphError(f"{count} tiers need {count} loop_free flags (or none), not {len(tiers.loop_free)}")
    for t, children in enumerate(tiers.children):
        for c in children:
            if not 0 <= c < count or c == t:
                raise GameGraphError(f"tier {t} ({tiers.names[t]}) names child {c}, which is no other tier")
    order, state = [], [0] * count  # 0 new, 1 on the path, 2 done
    for root in range(count):
        stack = [(root, iter(tiers.children[root]))]
        if state[root]:
            continue
        state[root] = 1
        while stack:
            t, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                state[t] = 2
                order.append(t)
            elif state[child] == 1:
                raise GameGraphError(f"the tiers' child relation has a cycle through tier {child} "
                                     f"({tiers.names[child]})")
            elif state[child] == 0:
                state[child] = 1
                stack.append((child, iter(tiers.children[child])))
    return order



def _is_loop_free(tiers: Tiers, tier: int) -> bool:
    """Whether the tier is solved forward: declared loop-free, with at most one child."""
    return bool(tiers.loop_free) and tiers.loop_free[tier] and len(tiers.children[tier]) <= 1




def _require(game: Game) -> None:
    if not supports(game):
        raise GameGraphError(f"{game.display_name} offers no ranking with compiled kernels, "
                             "so it has no tiered (or implicit) solve")




def edgeless_flag(game: Game) -> str | None:
    """The `solve` option that solves this game without stored edges, for hints: --tiered for a game
    with tiers, --implicit for one whose ranking fits one tier, None when neither can."""
    if not implicit.supports(game):
        return None
    tiers = game.tiers() if game.offers.tiers else None
    if tiers is not None:
        largest = max(b - a for a, b in zip(tiers.offsets, tiers.offsets[1:]))
        return "--tiered" if largest < implicit.MAX_INDICES else None
    size = game.implicit_size()  # a folded ranking is solved over its half (Offers.folded): no kernels built
    return "--implicit" if size < implicit.MAX_INDICES else None


def tier_memory(tiers: Tiers) -> list[int]:
    """The bytes each tier's solve holds (check_size): 2 a position of the tier (6 with the queue and seeds of a
    loopy one) and 2 a position of each child tier read. O(tiers + child links)."""
    sizes = [b - a for a, b in zip(tiers.offsets, tiers.offsets[1:])]
    return [size * (2 if _is_loop_free(tiers, t) else 6) + sum(2 * sizes[c] for c in tiers.children[t])
            for t, size in enumerate(sizes)]


def check_size(game: Game, tiers: Tiers) -> None:
    """Refuse before any work, in one line (GraphTooLarge): a tier over the one-tier limit, or a tier
    whose solve needs more memory than is available (tier_memory): 2 bytes a position of the tier (6 for the
    queue and seeds of a loopy one) and its children's files read through the page cache."""
    from explorer.core.errors import GraphTooLarge
    from explorer.core.limits import meminfo_available

    sizes = [b - a for a, b in zip(tiers.offsets, tiers.offsets[1:])]
    t = max(range(len(sizes)), key=sizes.__getitem__)
    if sizes[t] >= implicit.MAX_INDICES:
        raise GraphTooLarge(f"{game.display_name}: tier {t} ({tiers.names[t]}) has {sizes[t]:,} indices; the tiered "
                            f"solver solves a tier of at most {implicit.MAX_INDICES - 1:,}")
    available = meminfo_available()
    for t, need in enumerate(tier_memory(tiers)):
        if available is not None and need > available:
            raise GraphTooLarge(f"{game.display_name}: tier {t} ({tiers.names[t]}) needs about {need / 2**30:,.1f} GiB "
                                f"to solve, and {available / 2**30:,.1f} GiB of memory is available")
