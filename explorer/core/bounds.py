"""Size bounds on text that enters from outside, checked before any conversion.

Python's int() refuses 4,301 digits with a ValueError and a 100,000-character
position would be parsed for nothing, so every number and every notation is
measured first. No heavy imports: the CLI's argument types use this module.
"""

from __future__ import annotations

import re

from explorer.core.errors import shown

# No position notation is longer; no number in one, or in a parameter, has more digits.
MAX_NOTATION_LENGTH = 1_000
MAX_NUMBER_DIGITS = 9
MAX_DECIMAL_LENGTH = 40
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def whole_number(text: str, what: str, max_digits: int = MAX_NUMBER_DIGITS) -> int:
    """int(text) for plain ASCII digits (an optional sign) of at most max_digits; ValueError naming
    `what` otherwise. The shared bounded conversion for positions, parameters and options: the
    size is checked before int() runs, and no Unicode digit, underscore or inner space slips
    through. O(len(text))."""
    text = text.strip()
    what = f"{what} " if what else ""
    if not _WHOLE_NUMBER.fullmatch(text):
        raise ValueError(f"{what}{shown(text)} is not a whole number")
    digits = len(text.lstrip("+-"))
    if digits > max_digits:
        raise ValueError(f"{what}{shown(text)} has {digits:,} digits; at most {max_digits} are allowed")
    return int(text)


def decimal_number(text: str, what: str, max_length: int = MAX_DECIMAL_LENGTH) -> float:
    """float(text) for a plain ASCII decimal (``0.25``, ``3``, ``1e-3``) of at most max_length characters;
    ValueError naming `what` otherwise. float() alone would take Unicode digits (``٣``), ``nan``,
    ``inf`` and ``0x``-less oddities, and turn ``1e-400`` into 0 and ``1e400`` into infinity: a number
    that is not the one written is refused here rather than used. O(len(text))."""
    text = text.strip()
    what = f"{what} " if what else ""
    if len(text) > max_length:
        raise ValueError(f"{what}{shown(text)} has {len(text):,} characters; at most {max_length} are allowed")
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"{what}{shown(text)} is not a plain decimal number")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{what}{shown(text)} is too large to represent")
    mantissa = re.split(r"[eE]", text)[0]
    if value == 0 and any(digit in "123456789" for digit in mantissa):
        raise ValueError(f"{what}{shown(text)} is too small to represent: it would become 0")
    return value
