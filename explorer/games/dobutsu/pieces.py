"""Dōbutsu shōgi's board and pieces: how each kind steps, the one table the rules (rules.py) and
the kernels (kernels.py) both read. Cells hold 0 (empty) or 1 + kind + 5 * owner; squares are
row * 3 + column, row 0 = rank 1 (A's home)."""

from __future__ import annotations

LION, GIRAFFE, ELEPHANT, CHICK, HEN = range(5)
LETTERS = "LGECH"
COLUMNS, ROWS = 3, 4
SQUARES = COLUMNS * ROWS
# (row step, column step) of each kind for player A (rows grow towards B); B's rows are negated.
STEPS = (
    ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, -1), (-1, 0), (-1, 1)),   # lion
    ((1, 0), (0, -1), (0, 1), (-1, 0)),                                       # giraffe
    ((1, -1), (1, 1), (-1, -1), (-1, 1)),                                     # elephant
    ((1, 0),),                                                                # chick
    ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, 0)),                      # hen (gold general)
)
MAX_MOVES = 7 * 8 + 3 * 10     # seven pieces on the board at most, three kinds to drop on ten squares
MAX_UNMOVES = 7 * 8 * 5 + 3 * 10  # each step back, with or without one of four un-captures; un-drops


def cell(kind: int, owner: int) -> int:
    return 1 + kind + 5 * owner


def kind_of(value: int) -> int:
    return (value - 1) % 5


def owner_of(value: int) -> int:
    return (value - 1) // 5


def _targets(kind: int, owner: int, square: int) -> tuple[int, ...]:
    row, col = divmod(square, COLUMNS)
    found = []
    for dr, dc in STEPS[kind]:
        r, c = row + (dr if owner == 0 else -dr), col + dc
        if 0 <= r < ROWS and 0 <= c < COLUMNS:
            found.append(r * COLUMNS + c)
    return tuple(found)


# Every piece's targets computed once: the rules ask for them at every square of every position.
TARGETS = tuple(tuple(tuple(_targets(kind, owner, square) for square in range(SQUARES)) for kind in range(len(STEPS)))
                for owner in (0, 1))


def targets(kind: int, owner: int, square: int) -> tuple[int, ...]:
    """The squares a piece of this kind and owner on `square` attacks, in STEPS order."""
    return TARGETS[owner][kind][square]


def far_row(owner: int) -> int:
    return ROWS - 1 if owner == 0 else 0


