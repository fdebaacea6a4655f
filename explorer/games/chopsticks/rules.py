"""Chopsticks, the finger game, in its common rule variants.

Each player has two hands holding 0..n-1 fingers (0 = dead). On a turn the
mover either taps an opponent's hand with one of their live hands (adding the
tapping hand's fingers to it) or splits/transfers fingers between their own
hands. A player whose hands are both dead has lost.

Notation: ``A|1-1|1-1`` = player to move (A or B), then player A's hands, then
player B's hands, each as left-right. Symmetry reduction sorts each player's
hands, so the canonical key of ``A|3-1|1-1`` is ``A|1-3|1-1``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, NamedTuple

import numpy as np

from explorer.games.base import CompiledGenerator, Game, Move, MoveBatch, Offers, Params, StrategyChart, Survey, param
from explorer.games.table import register
from explorer.core.values import Value

HAND_NAMES = ("L", "R")
PLAYER_NAMES = ("A", "B")
# The array generator keeps a 4-byte id per code (2 * fingers**4 codes): 800 MB at 100 fingers.
MAX_FINGERS = 100


@dataclass(frozen=True)
class ChopsticksParams(Params):
    fingers: int = param(5, "a hand holds 0..fingers-1; reaching fingers kills it", minimum=2, maximum=MAX_FINGERS)
    overflow: str = param("cutoff", "cutoff: a total >= fingers kills the hand; rollover: the hand keeps the total mod fingers",
                          choices=("cutoff", "rollover"))
    attack_dead: bool = param(False, "a live hand may tap a dead hand, reviving it with the tapper's count")
    split: str = param("transfer", "none; even: a dead hand + an even hand split into halves; transfer: move k fingers between own hands",
                       choices=("none", "even", "transfer"))
    suicide: bool = param(False, "(transfer) a transfer may empty the source hand")
    swaps: bool = param(False, "(transfer) a transfer may merely mirror the hands, e.g. 1-3 -> 3-1")


class ChopsticksPosition(NamedTuple):
    to_move: int
    hands: tuple[tuple[int, int], tuple[int, int]]


# Template order fixes which label survives when two moves reach the same position.
TAPS = ((0, 0), (0, 1), (1, 0), (1, 1))  # (mover's hand, opponent's hand)
_KIND = 10 ** 9  # label = kind * _KIND + payload


@register
class Chopsticks(Game[ChopsticksPosition]):
    name = "chopsticks"
    description = "The finger game: tap your opponent's hands, split your own; both hands dead loses."
    Params = ChopsticksParams
    presets = {
        "standard": dict(overflow="cutoff", split="transfer", suicide=False, swaps=False, attack_dead=False),
        "magic-fingers": dict(overflow="cutoff", split="transfer", suicide=True, swaps=False, attack_dead=False),
        "even-split": dict(overflow="cutoff", split="even", attack_dead=False),
        "rollover-even-split": dict(overflow="rollover", split="even", attack_dead=True),
        "tap-dead-transfer": dict(overflow="cutoff", split="transfer", suicide=False, swaps=False, attack_dead=True),
        "attack-only": dict(overflow="cutoff", split="none", attack_dead=False),
        "rollover": dict(overflow="rollover", split="transfer", suicide=False, swaps=False, attack_dead=False),
    }
    notation_help = "MOVER|a-a|b-b, e.g. A|1-1|1-1: A or B to move, then A's and B's hands"
    offers = Offers(arrays=True, compiled_moves=True, ranking=True, unmoves=True, implicit_kernels=True,
                    symmetry=True, cgt=None, board="chopsticks", player_names=None,
                    swap_players=False, diagram_label=False, batch_columns=True,
                    chart=StrategyChart(size="fingers", page_maximum=12, sides="hands",  # 2 * 77^2 cells at 12
                                        moves="`>a-b` = split or transfer to a-b"),
                    survey=Survey(axis="fingers", span=(2, 10), shown=(2, 7)))

    @staticmethod
    def survey_meaningful(params: ChopsticksParams) -> bool:
        """Suicide and swaps only change transfers: other split rules ignore them (the variant survey)."""
        return params.split == "transfer" or not (params.suicide or params.swaps)

    def survey_rules(self, params: ChopsticksParams) -> str:
        """A rule set's row of the survey heatmap: the overflow, the dead-hand and split rules in words."""
        return (f"{params.overflow} · {'tap dead' if params.attack_dead else 'no tap dead'} · split {params.split}"
                f"{' +suicide' if params.suicide else ''}{' +swaps' if params.swaps else ''}")

    # -- the strategy chart (offers.chart, explorer/render/chart.py) -------------------
    def chart_sides(self, position: ChopsticksPosition) -> tuple[tuple[int, int], tuple[int, int]]:
        """The mover's hands and the opponent's, each sorted."""
        mover = position.to_move
        return tuple(sorted(position.hands[mover])), tuple(sorted(position.hands[1 - mover]))  # type: ignore[return-value]

    def chart_position(self, mover: int, mine: tuple[int, int], theirs: tuple[int, int]) -> ChopsticksPosition:
        return ChopsticksPosition(mover, (mine, theirs) if mover == 0 else (theirs, mine))

    def chart_move(self, label: str) -> str:
        """Taps stay `L>R`; splits and transfers become `>a-b` (the hands after)."""
        if label.startswith("transfer"):
            return ">" + label.split(": ")[1]
        if label.startswith("split"):
            return ">" + label.split(" ")[1]
        return label

    @property
    def n(self) -> int:
        return self.params.fingers

    # -- rules ----------------------------------------------------------------
    def start(self) -> ChopsticksPosition:
        return ChopsticksPosition(0, ((1, 1), (1, 1)))

    def to_move(self, position: ChopsticksPosition) -> int:
        return position.to_move

    def outcome(self, position: ChopsticksPosition) -> Value | None:
        return Value.LOSS if position.hands[position.to_move] == (0, 0) else None

    def ending(self, position: ChopsticksPosition) -> str | None:
        if position.hands[position.to_move] != (0, 0):
            return None
        return f"both of {PLAYER_NAMES[position.to_move]}'s hands are dead: a player with no live hand loses"

    def _hit(self, total: int) -> int:
        if self.params.overflow == "cutoff":
            return total if total < self.n else 0
        return total % self.n

    def moves(self, position: ChopsticksPosition) -> list[Move[ChopsticksPosition]]:
        mover, hands = position
        mine, theirs = hands[mover], hands[1 - mover]
        result: list[Move[ChopsticksPosition]] = []

        def after(new_mine: tuple[int, int], new_theirs: tuple[int, int]) -> ChopsticksPosition:
            pair = (new_mine, new_theirs) if mover == 0 else (new_theirs, new_mine)
            return ChopsticksPosition(1 - mover, pair)

        for i, j in TAPS:
            if mine[i] and (theirs[j] or self.params.attack_dead):
                hit = list(theirs)
                hit[j] = self._hit(theirs[j] + mine[i])
                result.append(Move(f"{HAND_NAMES[i]}>{HAND_NAMES[j]}", after(mine, (hit[0], hit[1]))))
        if self.params.split == "even":
            dead, live = sorted(mine)
            if dead == 0 and live >= 2 and live % 2 == 0:
                half = live // 2
                result.append(Move(f"split {half}-{half}", after((half, half), theirs)))
        elif self.params.split == "transfer":
            for source, target in ((0, 1), (1, 0)):
                for k in range(1, mine[source] + 1):
                    new = [0, 0]
                    new[source], new[target] = mine[source] - k, mine[target] + k
                    if new[target] >= self.n:
                        break
                    if new[source] == 0 and not self.params.suicide:
                        continue
                    if new[0] == mine[1] and new[1] == mine[0] and not self.params.swaps:
                        continue
                    result.append(Move(f"transfer {k}: {new[0]}-{new[1]}", after((new[0], new[1]), theirs)))
        return result

    def canonical(self, position: ChopsticksPosition) -> ChopsticksPosition:
        a, b = position.hands
        return ChopsticksPosition(position.to_move, (tuple(sorted(a)), tuple(sorted(b))))  # type: ignore[arg-type]

    # -- notation ---------------------------------------------------------------
    def format(self, position: ChopsticksPosition) -> str:
        (a0, a1), (b0, b1) = position.hands
        return f"{PLAYER_NAMES[position.to_move]}|{a0}-{a1}|{b0}-{b1}"

    _NOTATION = re.compile(r"^\s*([AaBb])\s*\|\s*([0-9]+)\s*-\s*([0-9]+)\s*\|\s*([0-9]+)\s*-\s*([0-9]+)\s*$")

    def parse(self, text: str) -> ChopsticksPosition:
        match = self._NOTATION.match(text)
        if not match:
            raise self.invalid(text, "malformed")
        a0, a1, b0, b1 = (self.count(g, text, "a hand's count") for g in match.groups()[1:])
        for count in (a0, a1, b0, b1):
            if count >= self.n:
                raise self.invalid(text, f"a hand holds 0..{self.n - 1} fingers with fingers={self.n}, not {count}")
        mover = PLAYER_NAMES.index(match[1].upper())
        hands = ((a0, a1), (b0, b1))
        if hands[1 - mover] == (0, 0):
            raise self.invalid(text, f"player {PLAYER_NAMES[1 - mover]} has no live hand, so the game ended before {PLAYER_NAMES[mover]}'s turn")
        return ChopsticksPosition(mover, hands)

    def fields(self, position: ChopsticksPosition) -> dict[str, object]:
        return {"hands": [list(h) for h in position.hands]}

    def iter_positions(self) -> Iterator[ChopsticksPosition]:
        """Every canonical position in which both players still have a live hand."""
        pairs = [(x, y) for x in range(self.n) for y in range(x, self.n) if y > 0]
        for mover in (0, 1):
            for a in pairs:
                for b in pairs:
                    yield ChopsticksPosition(mover, (a, b))

    # -- implicit mode: the codes are the ranking (explorer/implicit.py) ------------------
    def is_valid_code(self, code: int) -> bool:
        """A code whose player NOT to move has two dead hands is no position (the game ended)."""
        position = self.decode(code)
        return position.hands[1 - position.to_move] != (0, 0)

    def unmoves(self, position: ChopsticksPosition) -> list[ChopsticksPosition]:
        """Every legal position with a move to `position`: O(fingers^2).

        A tap changed one hand of the player now to move and a split or transfer
        the other player's hands at the same total, so the candidates are those;
        each is kept when one of its moves reaches `position` (the compiled
        kernel inverts each move kind directly instead)."""
        mover, hands = position
        previous = 1 - mover
        candidates = []
        for j in (0, 1):
            for h in range(self.n):
                theirs = list(hands[mover])
                theirs[j] = h
                pair = [None, None]
                pair[mover], pair[previous] = tuple(theirs), hands[previous]
                candidates.append(ChopsticksPosition(previous, (pair[0], pair[1])))
        total = sum(hands[previous])
        for x0 in range(max(0, total - self.n + 1), min(total, self.n - 1) + 1):
            pair = [None, None]
            pair[mover], pair[previous] = hands[mover], (x0, total - x0)
            candidates.append(ChopsticksPosition(previous, (pair[0], pair[1])))
        result = []
        for p in dict.fromkeys(candidates):
            if p == position or p.hands[mover] == (0, 0) or self.outcome(p) is not None:
                continue
            if any(move.position == position for move in self.moves(p)):
                result.append(p)
        return result

    def implicit_kernels(self):
        from explorer.games.chopsticks.kernels import kernels
        return kernels(self)

    # -- size estimate ------------------------------------------------------------
    def _hand_pairs(self, symmetry: bool) -> list[tuple[int, int]]:
        """Every hand pair a player can hold (sorted when symmetric)."""
        return [(x, y) for x in range(self.n) for y in range(x if symmetry else 0, self.n)]

    def estimate_positions(self, symmetry: bool = True) -> int:
        """2 movers x hand pairs of the mover x live hand pairs of the other player: O(1).

        The player who just moved always has a live hand (no move empties the
        mover's own hands), so that factor leaves out (0, 0). Within 1.2x of the
        real count for most presets at 8 or more fingers; attack-only, which
        reaches the fewest, within 2.5x (tests/core/test_limits.py measures it).
        """
        pairs = self.n * (self.n + 1) // 2 if symmetry else self.n * self.n
        return 2 * pairs * (pairs - 1)

    def estimate_moves(self, symmetry: bool = True) -> int:
        """An upper bound on the edges: O(fingers^2).

        For every position `estimate_positions` counts, the distinct successors its
        moves can reach (the generator merges moves that reach one successor: with
        symmetry, taps by or on two equal hands, and transfers that leave the same
        pair of hands, count once). Within 1.3x for most presets; tests/core/test_limits.py
        checks it is never below the real count.
        """
        n, p = self.n, self.params
        pairs = self._hand_pairs(symmetry)
        # Tappers and tapped hands: with symmetry two equal hands give the same move once.
        live = {h: len({x for x in h if x > 0}) if symmetry else (h[0] > 0) + (h[1] > 0) for h in pairs}
        tapped = {h: len(set(h)) if symmetry else 2 for h in pairs}
        own = 0  # splits and transfers, which do not depend on the other player's hands
        for a, b in pairs:
            if p.split == "even":
                own += min(a, b) == 0 and max(a, b) >= 2 and max(a, b) % 2 == 0
            elif p.split == "transfer" and symmetry:
                # After symmetry a transfer leaves the hands {x, total - x}: one move per such pair,
                # whichever hand gave (the generator merges the two ways to reach it).
                total = a + b
                lowest = max(0 if p.suicide else 1, total - (n - 1))
                pairs_after = max(total // 2 - lowest + 1, 0)
                unchanged = lowest <= min(a, b) <= total // 2 and not (p.swaps and a != b)
                own += pairs_after - unchanged
            elif p.split == "transfer":
                for source, target in ((a, b), (b, a)):
                    most = max(min(source - (0 if p.suicide else 1), n - 1 - target), 0)
                    mirror_only = not p.swaps and 1 <= source - target <= most
                    own += most - mirror_only
        targets = sum(tapped[h] if p.attack_dead else live[h] for h in pairs if h != (0, 0))
        taps = sum(live.values()) * targets
        return 2 * (taps + own * (len(pairs) - 1))

    # -- fast path: integer codes and vectorised moves ----------------------------
    def code_space(self) -> int:
        return 2 * self.n ** 4

    def encode(self, position: ChopsticksPosition) -> int:
        (a0, a1), (b0, b1) = position.hands
        n = self.n
        return (((position.to_move * n + a0) * n + a1) * n + b0) * n + b1

    def decode(self, code: int) -> ChopsticksPosition:
        n = self.n
        code, b1 = divmod(code, n)
        code, b0 = divmod(code, n)
        mover, rest = divmod(code, n * n)
        a0, a1 = divmod(rest, n)
        return ChopsticksPosition(mover, ((a0, a1), (b0, b1)))

    def _split_codes(self, codes: np.ndarray) -> tuple[np.ndarray, ...]:
        n = self.n
        codes, b1 = np.divmod(codes, n)
        codes, b0 = np.divmod(codes, n)
        mover, rest = np.divmod(codes, n * n)
        a0, a1 = np.divmod(rest, n)
        return mover, a0, a1, b0, b1

    def _join_codes(self, mover, a0, a1, b0, b1, symmetry: bool) -> np.ndarray:
        if symmetry:
            a0, a1 = np.minimum(a0, a1), np.maximum(a0, a1)
            b0, b1 = np.minimum(b0, b1), np.maximum(b0, b1)
        n = self.n
        return (((mover * n + a0) * n + a1) * n + b0) * n + b1

    def batch_columns(self, codes: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        # A key is its head (mover and A's hands, 2 n^2 texts) joined to B's hands (n^2 texts):
        # two small tables of `format`'s own texts gathered by code and one joining pass in numpy.
        mover, a0, a1, b0, b1 = self._split_codes(np.asarray(codes, dtype=np.int64))
        n = self.n
        hands = [f"{x}-{y}" for x in range(n) for y in range(n)]
        heads = np.array([f"{player}|{pair}|" for player in PLAYER_NAMES for pair in hands])
        keys = np.strings.add(heads[(mover * n + a0) * n + a1], np.array(hands)[b0 * n + b1])
        return keys, {"hands": np.stack([a0, a1, b0, b1], axis=1)}

    def batch_outcomes(self, codes: np.ndarray) -> np.ndarray:
        mover, a0, a1, b0, b1 = self._split_codes(codes.astype(np.int64))
        dead = np.where(mover == 0, (a0 == 0) & (a1 == 0), (b0 == 0) & (b1 == 0))
        return np.where(dead, np.int8(Value.LOSS), np.int8(-1)).astype(np.int8)

    def batch_to_move(self, codes: np.ndarray) -> np.ndarray:
        return (codes // self.n ** 4).astype(np.int8)

    def batch_moves(self, codes: np.ndarray, symmetry: bool) -> MoveBatch:
        """All moves of many positions as arrays: O(len(codes) + moves).

        Moves come out template by template (taps, split, transfers from the left
        hand by increasing k, then from the right), the order `moves` uses, so the
        generator keeps the same label when two moves reach one position.
        """
        n, p = self.n, self.params
        mover, a0, a1, b0, b1 = self._split_codes(codes.astype(np.int64))
        first = mover == 0
        mine = (np.where(first, a0, b0), np.where(first, a1, b1))
        theirs = (np.where(first, b0, a0), np.where(first, b1, a1))
        sources, targets, labels = [], [], []

        def emit(rows, new_mine, new_theirs, label):
            """Moves of the positions `rows`; the hands and labels are given per move."""
            f = first[rows]
            (m0, m1), (t0, t1) = new_mine, new_theirs
            na0, na1 = np.where(f, m0, t0), np.where(f, m1, t1)
            nb0, nb1 = np.where(f, t0, m0), np.where(f, t1, m1)
            sources.append(rows)
            targets.append(self._join_codes(1 - mover[rows], na0, na1, nb0, nb1, symmetry))
            labels.append(np.broadcast_to(label, rows.shape))

        for t, (i, j) in enumerate(TAPS):
            valid = mine[i] > 0
            if not p.attack_dead:
                valid &= theirs[j] > 0
            rows = np.flatnonzero(valid)
            total = theirs[j][rows] + mine[i][rows]
            hit = np.where(total < n, total, 0) if p.overflow == "cutoff" else total % n
            new_theirs = (hit, theirs[1][rows]) if j == 0 else (theirs[0][rows], hit)
            emit(rows, (mine[0][rows], mine[1][rows]), new_theirs, np.int64(t))
        if p.split == "even":
            live = np.maximum(mine[0], mine[1])
            rows = np.flatnonzero((np.minimum(mine[0], mine[1]) == 0) & (live >= 2) & (live % 2 == 0))
            half = live[rows] // 2
            emit(rows, (half, half), (theirs[0][rows], theirs[1][rows]), _KIND + half)
        elif p.split == "transfer":
            for source, target in ((0, 1), (1, 0)):
                # k runs from 1 to the most the source can give and the target can take.
                most = np.minimum(mine[source] - (0 if p.suicide else 1), n - 1 - mine[target])
                count = np.maximum(most, 0)
                rows = np.repeat(np.arange(len(codes)), count)
                k = np.arange(len(rows)) - np.repeat(np.cumsum(count) - count, count) + 1
                new = [None, None]
                new[source] = mine[source][rows] - k
                new[target] = mine[target][rows] + k
                if not p.swaps:  # a transfer that only mirrors the hands is no move
                    keep = ~((new[0] == mine[1][rows]) & (new[1] == mine[0][rows]))
                    rows, k, new = rows[keep], k[keep], [x[keep] for x in new]
                label = 2 * _KIND + (k * n + new[0]) * n + new[1]
                emit(rows, (new[0], new[1]), (theirs[0][rows], theirs[1][rows]), label)
        return MoveBatch(np.concatenate(sources), np.concatenate(targets), np.concatenate(labels))

    def compiled_moves(self, codes: np.ndarray, symmetry: bool) -> MoveBatch:
        """batch_moves from a numba kernel, grouped by source: O(len(codes) + moves)."""
        from explorer.games.chopsticks.moves import SPLIT_EVEN, SPLIT_NONE, SPLIT_TRANSFER, expand

        p = self.params
        split = {"none": SPLIT_NONE, "even": SPLIT_EVEN, "transfer": SPLIT_TRANSFER}[p.split]
        starts, target, label = expand(codes.astype(np.int64, copy=False), self.n, p.overflow == "rollover",
                                       p.attack_dead, split, p.suicide, p.swaps, symmetry)
        return MoveBatch(None, target, label, starts=starts)

    def compiled_generator(self) -> CompiledGenerator:
        """The moves of compiled_moves fused with the generator's bookkeeping (explorer.graph)."""
        from explorer.games.chopsticks.moves import SPLIT_EVEN, SPLIT_NONE, SPLIT_TRANSFER, expand_level

        p = self.params
        split = {"none": SPLIT_NONE, "even": SPLIT_EVEN, "transfer": SPLIT_TRANSFER}[p.split]
        ctx = np.array([self.n, p.overflow == "rollover", p.attack_dead, split, p.suicide, p.swaps], dtype=np.int64)
        return CompiledGenerator(expand_level, ctx, max_moves=5 + 2 * self.n, scratch=self.n)

    def batch_label(self, label: int) -> str:
        kind, payload = divmod(int(label), _KIND)
        if kind == 0:
            i, j = TAPS[payload]
            return f"{HAND_NAMES[i]}>{HAND_NAMES[j]}"
        if kind == 1:
            return f"split {payload}-{payload}"
        rest, new1 = divmod(payload, self.n)
        k, new0 = divmod(rest, self.n)
        return f"transfer {k}: {new0}-{new1}"
