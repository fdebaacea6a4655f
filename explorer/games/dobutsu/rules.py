"""Dōbutsu shōgi ("animal shogi", Madoka Kitao and Maiko Fujita, 2008) on its 3x4 board.

Rules, as published by the game's makers (http://www.doubutsushogi.jp/howtoplayeng.html) and
stated in the same terms by Ludii ("Let's Catch the Lion",
https://ludii.games/details.php?keyword=Let%27s+Catch+the+Lion) and Wikipedia:

- Each player has a lion (moves one square in any of the 8 directions), a giraffe (one square
  orthogonally), an elephant (one square diagonally) and a chick (one square forward). A (the
  first player, "Sente") starts with elephant a1, lion b1, giraffe c1 and chick b2; B mirrors it
  from the top: giraffe a4, lion b4, elephant c4, chick b3.
- A piece moving onto an opposing piece captures it into the mover's hand; on a later turn a
  piece in hand may be dropped, instead of a move, on any empty square. A captured hen goes to
  the hand as a chick.
- A chick that moves onto the far rank is promoted to a hen (moves one square in any direction
  but diagonally backwards, like shogi's gold general); the promotion is compulsory (a chick
  there could never move again). A chick dropped on the far rank is legal and stays a chick,
  with no move until it is captured (Ludii: "A chick dropped on the final rank, however, does
  not promote"; Tanaka found positions where that drop is the only winning move).
- A player wins by capturing the opposing lion, or by moving their own lion onto the far rank
  if the opponent cannot capture it on the next move ("the first one who moves his Lion into the
  farthest row will win, unless the Lion is captured by the opponent in the next turn").

The model, Tanaka's ("「どうぶつしょうぎ」の完全解析", IPSJ SIG Technical Report 2009-GI-22(3),
https://ipsj.ixsq.nii.ac.jp/records/62415, which found the start a win for the second player in
78 plies): a game is over, for the player to move, when
  1. they can capture the opposing lion: a win (the capture is not played out);
  2. their own lion stands on the far rank (the opponent left it there): a win;
  3. the opposing lion stands on their home rank (the try succeeded: they cannot capture it,
     case 1 is checked first): a loss;
  4. they have no legal move: a loss.
So both lions are on the board in every position, a lion may step where it can be taken (the
opponent then wins at once), and a lion entering the far rank on an attacked square simply loses.
The makers' "same moves repeated three times is a draw" is the retrograde solve's draw: a
position from which neither side can force a win.

Notation: the player to move (A or B), ``|``, then ``/``-separated: B's hand (lower case, ``-``
when empty), the ranks from 4 down to 1 (``L`` lion, ``G`` giraffe, ``E`` elephant, ``C`` chick,
``H`` hen; upper case A's, lower case B's, ``.`` empty), and A's hand (upper case, or ``-``):
each hand beside its owner's home rank, as the board is drawn. The start is
``A|-/gle/.c./.C./ELG/-``. Moves: ``G c1-c2``, ``C b2xb3`` (a capture), ``C b3-b4+``
(a promotion), ``C*b3`` (a drop).

Reduced games (parameters giraffes, elephants, chicks, each 0 or 1 per player): the same rules
with those pieces left out of the start. They are sound sub-games (the rules never create a
piece), small enough for the edge solver, and the tests compare every solver on them.

Symmetry: the left-right mirror is a symmetry of the rules (every piece moves symmetrically), but
it is not offered: the start is not symmetric (giraffe and elephant swap sides), the implicit mode
(the only one that solves the whole game) does not reduce by symmetries, and the edge graphs of
the reduced games are small. Exchanging the players (board turned half a turn, colours and hands
swapped: ``swap_players``) is a symmetry too, and is what the ranking (ranking.py) is built around.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from explorer.core.values import Value
from explorer.games.base import Game, Move, MoveBatch, Offers, Params, param
from explorer.games.dobutsu.pieces import (CHICK, COLUMNS, ELEPHANT, GIRAFFE, HEN, LETTERS, LION,
                                           ROWS, SQUARES, cell, far_row, kind_of, owner_of, targets)
from explorer.games.dobutsu.ranking import rank_position, ranking_context, unrank_position
from explorer.games.table import register

PLAYER_NAMES = ("A", "B")
PIECE_NAMES = ("lion", "giraffe", "elephant", "chick", "hen")  # by kind (pieces.py)


@dataclass(frozen=True)
class DobutsuParams(Params):
    giraffes: int = param(1, "giraffes per player (0: a reduced game without them)", minimum=0, maximum=1)
    elephants: int = param(1, "elephants per player (0: a reduced game without them)", minimum=0, maximum=1)
    chicks: int = param(1, "chicks per player (0: a reduced game without them)", minimum=0, maximum=1)


class DobutsuPosition(NamedTuple):
    to_move: int
    board: tuple[int, ...]  # 12 cells, square = row * 3 + column, row 0 = rank 1 (A's home)
    hands: tuple[int, ...]  # A's giraffes, elephants, chicks in hand, then B's


@register
class Dobutsu(Game[DobutsuPosition]):
    name = "dobutsu"
    description = ("Dōbutsu shōgi (Kitao and Fujita 2008): 3x4 shogi with drops; take the lion or "
                   "bring yours safely to the far rank. Solved by Tanaka (2009): the second player wins in 78 "
                   "plies, shown here as a loss in 77 for the first player (a game ends when the lion can be "
                   "taken: the capture is not played).")
    Params = DobutsuParams
    presets = {"standard": dict(giraffes=1, elephants=1, chicks=1),
               "small": dict(giraffes=0, elephants=1, chicks=0),
               "lions": dict(giraffes=0, elephants=0, chicks=0)}
    NOTATION_HELP = ("MOVER|B's hand/ranks 4 to 1/A's hand, pieces L G E C H (upper case A's, lower case B's), "
                     ". empty, - an empty hand, e.g. {example} (A moves first, from rank 1)")
    notation_help = NOTATION_HELP.format(example="A|-/gle/.c./.C./ELG/-")  # the full game's start
    offers = Offers(arrays=True, compiled_moves=False, ranking=True, unmoves=True, implicit_kernels=True,
                    symmetry=False, cgt=None, board="dobutsu", player_names=("A", "B"),
                    swap_players=True, diagram_label=True, folded=True, named_cells=True,
                    # its pieces' letters (18 px in a drawing 482 px tall, hands included) MIN_LABEL_PX (7) on screen
                    # (tests/ui/test_canvas_board_px.py): a node of 64 px at zoom 3.3
                    board_px=214,
                    # The whole game's solve peaked at 3,492-3,740 MB of RSS, the interpreter included, for its
                    # 1,567,925,964 indices: 2.34-2.50 bytes an index (bench/README.md, 2026-11-29); its cells are 2
                    # and its queue at most its largest later level twice, 44.8 million entries (docs/kernels.md).
                    # 3 asks for 4.4 GB, not the worst case's 8.8: the queue's share may be twice that measured.
                    # The reduced games are measured against it (tests/explorer/test_implicit_memory.py).
                    solve_bytes=3.0)

    def __init__(self, params: DobutsuParams | None = None, preset: str | None = None):
        super().__init__(params, preset)
        self.description = self.description_of(self.params)  # the page's header: these pieces
        self.notation_help = self.NOTATION_HELP.format(example=self.format(self.start()))  # an example of these pieces

    @classmethod
    def description_of(cls, params: DobutsuParams) -> str:
        """The game these parameters make, in a sentence: a reduced game names the pieces it has."""
        kinds = (("giraffe", "a giraffe", params.giraffes), ("elephant", "an elephant", params.elephants),
                 ("chick", "a chick", params.chicks))
        missing = [f"{name}s" for name, _, count in kinds if not count]
        if not missing:
            return cls.description
        present = ["a lion"] + [article for _, article, count in kinds if count]
        pieces = present[0] if len(present) == 1 else f"{', '.join(present[:-1])} and {present[-1]}"
        without = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} or {missing[-1]}"
        drops = " and drops" if len(present) > 1 else ""  # a lion is never taken into a hand
        return (f"Dōbutsu shōgi without {without}: each player has {pieces} on the 3x4 board (the full game: "
                f"a lion, a giraffe, an elephant and a chick), shogi moves{drops}; take the lion or bring yours "
                f"safely to the far rank.")

    @cached_property
    def _ctx(self) -> list[int]:
        p = self.params
        return ranking_context(2 * p.giraffes, 2 * p.elephants, 2 * p.chicks)

    def _pieces(self) -> tuple[int, int, int]:
        """Pieces of each hand kind (giraffe, elephant, chick) in the whole game."""
        p = self.params
        return 2 * p.giraffes, 2 * p.elephants, 2 * p.chicks

    # -- size estimate: every index of the ranking is a position ------------------------------
    def estimate_positions(self, symmetry: bool = True) -> int:
        return self.code_space()

    def estimate_moves(self, symmetry: bool = True) -> int:
        """Each index times the most moves a position can have: the lion's 8, every other piece
        of the game on the mover's side with its most steps (hen 6, giraffe and elephant 4), and
        each kind in hand dropped on at most 10 empty squares."""
        p = self.params
        most = 8 + 2 * (4 * p.giraffes + 4 * p.elephants + 6 * p.chicks) + 10 * (p.giraffes + p.elephants + p.chicks)
        return self.code_space() * most

    # -- rules ------------------------------------------------------------------------------
    def start(self) -> DobutsuPosition:
        p = self.params
        board = [0] * SQUARES
        board[1], board[10] = cell(LION, 0), cell(LION, 1)
        if p.elephants:
            board[0], board[11] = cell(ELEPHANT, 0), cell(ELEPHANT, 1)
        if p.giraffes:
            board[2], board[9] = cell(GIRAFFE, 0), cell(GIRAFFE, 1)
        if p.chicks:
            board[4], board[7] = cell(CHICK, 0), cell(CHICK, 1)
        return DobutsuPosition(0, tuple(board), (0,) * 6)

    def to_move(self, position: DobutsuPosition) -> int:
        return position.to_move

    def _lion(self, position: DobutsuPosition, owner: int) -> int:
        return position.board.index(cell(LION, owner))

    def _attacks(self, position: DobutsuPosition, owner: int, square: int) -> bool:
        """Whether a piece of `owner` attacks `square`."""
        for s, value in enumerate(position.board):
            if value and owner_of(value) == owner and square in targets(kind_of(value), owner, s):
                return True
        return False

    def outcome(self, position: DobutsuPosition) -> Value | None:
        mover = position.to_move
        if self._attacks(position, mover, self._lion(position, 1 - mover)):
            return Value.WIN  # the opposing lion can be taken
        if self._lion(position, mover) // COLUMNS == far_row(mover):
            return Value.WIN  # our lion reached the far rank and was not taken
        if self._lion(position, 1 - mover) // COLUMNS == far_row(1 - mover):
            return Value.LOSS  # their lion reached our home rank and cannot be taken
        return None if self._has_move(position) else Value.LOSS

    def ending(self, position: DobutsuPosition) -> str | None:
        """Why the game is over, by the same four cases as `outcome`, naming the squares: a position
        where a lion can be taken ends before the capture, so the capture is said, not shown."""
        mover, other = position.to_move, 1 - position.to_move
        names = (PLAYER_NAMES[mover], PLAYER_NAMES[other])
        theirs = self._lion(position, other)
        for s, value in enumerate(position.board):
            if value and owner_of(value) == mover and theirs in targets(kind_of(value), mover, s):
                return (f"{names[0]}'s {PIECE_NAMES[kind_of(value)]} on {square_name(s)} can take {names[1]}'s "
                        f"lion on {square_name(theirs)}: taking the lion wins, so the game ends before the capture")
        mine = self._lion(position, mover)
        if mine // COLUMNS == far_row(mover):
            return (f"{names[0]}'s lion reached the far rank ({square_name(mine)}) and {names[1]} could not take "
                    f"it: a lion that enters the far rank safely wins")
        if theirs // COLUMNS == far_row(other):
            return (f"{names[1]}'s lion reached the far rank ({square_name(theirs)}) and {names[0]} cannot take "
                    f"it: a lion that enters the far rank safely wins")
        if not self._has_move(position):
            return f"{names[0]} has no legal move, and a player who cannot move loses"
        return None

    def _has_move(self, position: DobutsuPosition) -> bool:
        """Whether the player to move has any move by the rules (cheaper than listing them)."""
        mover, board, hands = position.to_move, position.board, position.hands
        if 0 in board and any(hands[3 * mover:3 * mover + 3]):
            return True  # a drop
        for s, value in enumerate(board):
            if value and owner_of(value) == mover:
                for t in targets(kind_of(value), mover, s):
                    if not board[t] or owner_of(board[t]) != mover:
                        return True
        return False

    def moves(self, position: DobutsuPosition) -> list[Move[DobutsuPosition]]:
        return [] if self.outcome(position) is not None else self._moves(position)

    def _moves(self, position: DobutsuPosition) -> list[Move[DobutsuPosition]]:
        """Every move by the rules, whether or not the game is over: piece moves square by square,
        then drops, kind by kind (giraffe, elephant, chick) and square by square."""
        mover, board, hands = position.to_move, position.board, position.hands
        result = []
        for s, value in enumerate(board):
            if not value or owner_of(value) != mover:
                continue
            kind = kind_of(value)
            for t in targets(kind, mover, s):
                there = board[t]
                if there and owner_of(there) == mover:
                    continue
                new_board, new_hands = list(board), list(hands)
                taken = kind_of(there) if there else None
                if taken is not None:  # a lion is never taken: a position where it can be is over
                    new_hands[3 * mover + (CHICK if taken == HEN else taken) - 1] += 1
                promoted = kind == CHICK and t // COLUMNS == far_row(mover)
                new_board[s], new_board[t] = 0, cell(HEN if promoted else kind, mover)
                label = (f"{LETTERS[kind]} {square_name(s)}{'x' if there else '-'}{square_name(t)}"
                         f"{'+' if promoted else ''}")
                result.append(Move(label, DobutsuPosition(1 - mover, tuple(new_board), tuple(new_hands))))
        for k in (GIRAFFE, ELEPHANT, CHICK):
            if not hands[3 * mover + k - 1]:
                continue
            for t, there in enumerate(board):
                if there:
                    continue
                new_board, new_hands = list(board), list(hands)
                new_board[t] = cell(k, mover)
                new_hands[3 * mover + k - 1] -= 1
                result.append(Move(f"{LETTERS[k]}*{square_name(t)}",
                                   DobutsuPosition(1 - mover, tuple(new_board), tuple(new_hands))))
        return result

    def unmoves(self, position: DobutsuPosition) -> list[DobutsuPosition]:
        """Every unfinished position with a move to this one: the previous mover's piece steps back
        (a hen possibly as the chick it was before its promotion), possibly putting back a piece
        it took (from its hand, a chick as a chick or a hen), or goes back into the hand (a drop)."""
        before_mover = 1 - position.to_move
        board, hands = position.board, position.hands
        found: dict[DobutsuPosition, None] = {}

        def keep(new_board: list[int], new_hands: list[int]) -> None:
            p = DobutsuPosition(before_mover, tuple(new_board), tuple(new_hands))
            if self.outcome(p) is None:
                found[p] = None

        for t, value in enumerate(board):
            if not value or owner_of(value) != before_mover:
                continue
            kind = kind_of(value)
            origins = []  # (square, kind before the move)
            for kind_before in ((kind, CHICK) if kind == HEN else (kind,)):
                if kind == CHICK and t // COLUMNS == far_row(before_mover):
                    continue  # a chick moving onto the far rank is promoted: this one was dropped there
                if kind_before == CHICK and kind == HEN and t // COLUMNS != far_row(before_mover):
                    continue  # a promotion happens on the far rank only
                for s in range(SQUARES):
                    if board[s] == 0 and t in targets(kind_before, before_mover, s):
                        origins.append((s, kind_before))
            for s, kind_before in origins:
                new_board = list(board)
                new_board[s], new_board[t] = cell(kind_before, before_mover), 0
                keep(new_board, list(hands))
                for taken in (GIRAFFE, ELEPHANT, CHICK, HEN):  # un-capture: give back a piece from the hand
                    slot = 3 * before_mover + (CHICK if taken == HEN else taken) - 1
                    if hands[slot]:
                        new_hands = list(hands)
                        new_hands[slot] -= 1
                        new_board[t] = cell(taken, 1 - before_mover)
                        keep(list(new_board), new_hands)
            if kind in (GIRAFFE, ELEPHANT, CHICK):  # un-drop
                new_board, new_hands = list(board), list(hands)
                new_board[t] = 0
                new_hands[3 * before_mover + kind - 1] += 1
                keep(new_board, new_hands)
        return list(found)

    # -- the players exchanged ---------------------------------------------------------------
    def swap_players(self, position: DobutsuPosition) -> DobutsuPosition:
        """The same position for the other player: the board turned half a turn, colours and hands exchanged."""
        board = tuple(0 if not v else cell(kind_of(v), 1 - owner_of(v)) for v in reversed(position.board))
        return DobutsuPosition(1 - position.to_move, board, position.hands[3:] + position.hands[:3])

    # -- notation -----------------------------------------------------------------------------
    def format(self, position: DobutsuPosition) -> str:
        chars = ["." if not v else (LETTERS[kind_of(v)] if owner_of(v) == 0 else LETTERS[kind_of(v)].lower())
                 for v in position.board]
        ranks = ["".join(chars[row * COLUMNS:(row + 1) * COLUMNS]) for row in reversed(range(ROWS))]
        hand_a = "".join(LETTERS[k] * position.hands[k - 1] for k in (GIRAFFE, ELEPHANT, CHICK))
        hand_b = "".join(LETTERS[k].lower() * position.hands[3 + k - 1] for k in (GIRAFFE, ELEPHANT, CHICK))
        return f"{PLAYER_NAMES[position.to_move]}|{hand_b or '-'}/{'/'.join(ranks)}/{hand_a or '-'}"

    _NOTATION = re.compile(r"^\s*([AB])\s*\|\s*(-|[gec]+)\s*/\s*([LGECHlgech.]{3}(?:/[LGECHlgech.]{3}){3})\s*/"
                           r"\s*(-|[GEC]+)\s*$")

    def parse(self, text: str) -> DobutsuPosition:
        match = self._NOTATION.match(text)
        if not match:
            raise self.invalid(text, "malformed")
        rows = match[3].split("/")
        board = [0] * SQUARES
        for i, row in enumerate(rows):
            for col, ch in enumerate(row):
                if ch != ".":
                    board[(ROWS - 1 - i) * COLUMNS + col] = cell(LETTERS.index(ch.upper()), 0 if ch.isupper() else 1)
        hands = [0] * 6
        for ch in (match[2] + match[4]).replace("-", ""):
            hands[(0 if ch.isupper() else 3) + LETTERS.index(ch.upper()) - 1] += 1
        for owner in (0, 1):
            if board.count(cell(LION, owner)) != 1:
                raise self.invalid(text, f"player {PLAYER_NAMES[owner]} needs exactly one lion on the board")
        for k, wanted, name in zip((GIRAFFE, ELEPHANT, CHICK), self._pieces(), ("giraffes", "elephants", "chicks")):
            kinds = (CHICK, HEN) if k == CHICK else (k,)
            total = sum(1 for v in board if v and kind_of(v) in kinds) + hands[k - 1] + hands[3 + k - 1]
            if total != wanted:
                raise self.invalid(text, f"{total} {name} (hens count as chicks) where this game has {wanted}")
        return DobutsuPosition(PLAYER_NAMES.index(match[1]), tuple(board), tuple(hands))

    def fields(self, position: DobutsuPosition) -> dict[str, object]:
        parts = self.format(position).split("|", 1)[1].split("/")
        return {"hand_a": parts[-1], "hand_b": parts[0]}

    def diagram_label(self, position: DobutsuPosition) -> str:
        """B's hand, the four ranks and A's hand, one a line, for diagram nodes."""
        return "\n".join(self.format(position).split("|", 1)[1].split("/"))

    # -- perfect ranking (ranking.py): codes and the implicit mode's indices ----------------------
    def code_space(self) -> int:
        return 2 * self._ctx[4]

    def encode(self, position: DobutsuPosition) -> int:
        return rank_position(self._ctx, position.to_move, position.board, position.hands)

    def decode(self, code: int) -> DobutsuPosition:
        if not 0 <= code < self.code_space():
            raise self.invalid(str(code), f"index out of range(0, {self.code_space()})")
        board, hands = [0] * SQUARES, [0] * 6
        mover = unrank_position(self._ctx, code, board, hands)
        return DobutsuPosition(mover, tuple(board), tuple(hands))

    def implicit_kernels(self):
        from explorer.games.dobutsu.kernels import kernels
        return kernels(self)

    def batch_moves(self, codes, symmetry: bool) -> MoveBatch:
        from explorer.games.dobutsu.kernels import kernels
        return kernels(self, folded=False).batch_moves(codes)  # the graph's codes: the whole ranking

    def batch_outcomes(self, codes):
        from explorer.games.dobutsu.kernels import kernels
        return kernels(self, folded=False).batch_terminal(codes)

    def batch_to_move(self, codes):
        import numpy as np
        return (np.asarray(codes) >= self._ctx[4]).astype(np.int8)

    def batch_label(self, label: int) -> str:
        return move_label(int(label))


def square_name(square: int) -> str:
    row, col = divmod(square, COLUMNS)
    return f"{'abc'[col]}{row + 1}"


DROP = 12  # the "from" square of a drop in a move's integer label


def move_label(label: int) -> str:
    """The text of a kernel's integer label: ((flags * 8 + kind) * 16 + from) * 16 + to, where
    flags has 1 for a capture and 2 for a promotion and from is DROP for a drop."""
    to, rest = label % 16, label // 16
    frm, rest = rest % 16, rest // 16
    kind, flags = rest % 8, rest // 8
    if frm == DROP:
        return f"{LETTERS[kind]}*{square_name(to)}"
    return f"{LETTERS[kind]} {square_name(frm)}{'x' if flags & 1 else '-'}{square_name(to)}{'+' if flags & 2 else ''}"
