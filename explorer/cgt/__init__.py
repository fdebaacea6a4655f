"""Combinatorial game theory for short partizan games: canonical forms, sums,
outcome classes and standard notation. No UI or database code lives here.

    from explorer.cgt import game, parse_value, nimber
    parse_value("^") + parse_value("^") + nimber(1) == game([0], [parse_value("^*")])
"""

from explorer.cgt.forms import ZERO, CGValue, game
from explorer.cgt.notation import format_value, parse_value
from explorer.cgt.simple import kind, nimber, number, stops, switch, ups

__all__ = ["ZERO", "CGValue", "game", "format_value", "parse_value", "kind", "nimber", "number",
           "stops", "switch", "ups"]
