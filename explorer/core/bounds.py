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
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


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
