"""The spec language that names a game everywhere.

Spec grammar:  NAME[:PRESET][(param=value,...)]
e.g. ``chopsticks``, ``chopsticks:magic-fingers``, ``chopsticks(fingers=7,overflow=rollover)``,
``chopsticks:even-split(fingers=6)`` (parameters override the preset), ``nim(heaps=1-3-5-7)``.
The canonical spec (``Game.id``) spells out every parameter in declaration order.
"""

from __future__ import annotations

import dataclasses
import re

from explorer.core.errors import InvalidParameter, UnknownGame, shown
import explorer.games.plugins as plugins
import explorer.games.registry as registry
from explorer.games.base import Game, parse_value

MAX_SPEC_LENGTH = 1_000  # far longer than any real spec; checked before any parsing


_SPEC = re.compile(r"^\s*(?P<name>[A-Za-z][\w-]*)\s*(?::\s*(?P<preset>[\w-]+)\s*)?(?:\((?P<params>[^()]*)\))?\s*$", re.ASCII)


def games() -> dict[str, type[Game]]:
    """Every game by name: the built-in ones, entry points and GAMEGRAPH_GAME_MODULES files."""
    registry.load_builtin_games()
    plugins.load_all()
    return registry.registered()


def shipped_specs() -> list[str]:
    """Every built-in game with its defaults and each of its presets, each rule set once (a preset equal to the
    defaults, `connect4` and connect4:small, is named once): what `check-game` and its benchmark run over.
    O(games x presets) parses."""
    specs: dict[str, str] = {}
    for name, cls in games().items():
        if cls.__module__.startswith("explorer.games."):
            for spec in [name] + [f"{name}:{preset}" for preset in cls.presets]:
                specs.setdefault(parse_spec(spec).id, spec)
    return list(specs.values())


def game_class(name: str) -> type[Game]:
    available = games()
    if name not in available:
        raise UnknownGame(f"unknown game {shown(name)}: known games are {', '.join(available)}")
    return available[name]


def parse_spec(spec: str) -> Game:
    """Turn a spec string into a Game instance, with one clear error for any mistake."""
    if not isinstance(spec, str):
        raise UnknownGame(f"a game spec is text, not {type(spec).__name__}")
    if len(spec) > MAX_SPEC_LENGTH:
        raise UnknownGame(f"the game spec {shown(spec)} is too long: at most {MAX_SPEC_LENGTH:,} characters")
    match = _SPEC.match(spec)
    if not match:
        raise UnknownGame(f"malformed game spec {shown(spec)}: expected NAME[:PRESET][(param=value,...)], "
                          "e.g. chopsticks:magic-fingers or nim(heaps=1-3-5-7)")
    cls = game_class(match["name"])
    preset = match["preset"]
    values: dict[str, object] = {}
    if preset:
        if preset not in cls.presets:
            valid = ", ".join(cls.presets) or "none"
            raise UnknownGame(f"unknown preset {shown(preset)} for {cls.name}: valid presets are {valid}")
        values.update(cls.presets[preset])
    field_names = [f.name for f in dataclasses.fields(cls.Params)]
    given: set[str] = set()
    items = [part.strip() for part in (match["params"] or "").split(",")]
    if items != [""] and "" in items:  # "()" names no parameter; "(fingers=5,,)" or "(,fingers=5)" is a slip
        raise InvalidParameter(f"the parameters of {shown(spec)} have an empty one (a comma too many): "
                               "write them as (name=value,name=value)")
    for item in filter(None, items):
        name, sep, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep:
            raise InvalidParameter(f"parameter {shown(item)} in {shown(spec)} must be written name=value")
        if not text.strip():
            raise InvalidParameter(f"parameter {shown(name)} in {shown(spec)} has no value: write {name}=VALUE")
        if name in given:
            raise InvalidParameter(f"parameter {name!r} is given twice in {shown(spec)}")
        given.add(name)
        if name not in field_names:
            raise UnknownGame(f"unknown parameter {shown(name)} for {cls.name}: valid parameters are {', '.join(field_names) or 'none'}")
        values[name] = parse_value(cls.Params, name, text)
    try:
        params = cls.Params(**values)
    except TypeError as exc:  # a value of the wrong type that parse_value let through
        raise InvalidParameter(f"bad parameters for {cls.name}: {exc}") from None
    return cls(params, preset=preset)
