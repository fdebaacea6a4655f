"""Every rule set of a game solved: the variant survey.

The grid is every combination of a game's rule parameters: each parameter with
choices takes all of them, each boolean both values, and each integer parameter
the range the caller gives (e.g. fingers 2..10; others keep their default). A
game may declare `survey_meaningful(params)` to drop combinations whose
parameters cannot matter (Chopsticks: suicide and swaps only change transfers).

Each rule set is built and solved from its start (explorer.solved.build) and
summarised; the summary of each rule set is cached under the state folder, by
game id, so a rerun solves only what is new.

Complexity: the sum over rule sets of O(V + E).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from typing import Any, Iterable

from explorer.core import private, progress
from explorer.core.bounds import whole_number
from explorer.core.errors import InvalidParameter
from explorer.games import Game, game_class
from explorer.games.base import format_value, type_name
from explorer.core.values import Value

CACHE_VERSION = 1
CACHE_KIND = "survey"  # the state folder's subfolder of summaries
MAX_RULE_SETS = 2_000
COLUMNS = ("spec", "start_value", "start_remoteness", "positions", "moves", "win", "loss", "tie", "draw",
           "moves_from_win", "moves_from_loss", "moves_from_tie", "moves_from_draw", "on_cycle_share", "longest_win")


def parse_range(text: str) -> range:
    """'2..10' or '5' as a range of whole numbers."""
    low, sep, high = text.partition("..")
    try:  # plain ASCII digits, bounded (explorer.core.bounds), like every number typed
        first, last = whole_number(low, ""), whole_number(high if sep else low, "")
    except ValueError:
        raise InvalidParameter(f"range {text!r} must be N or A..B with whole numbers, e.g. 2..10") from None
    if last < first:
        raise InvalidParameter(f"range {text!r} is empty: {last} < {first}")
    return range(first, last + 1)


def grid(name: str, ranges: dict[str, range]) -> list[Game]:
    """Every meaningful rule set of game `name`, integer parameters over `ranges`."""
    cls = game_class(name)
    fields = {f.name: f for f in dataclasses.fields(cls.Params)}
    unknown = sorted(set(ranges) - set(fields))
    if unknown:
        known = f"its parameters are {', '.join(fields)}" if fields else "it has no parameters to range over"
        raise InvalidParameter(f"{name} has no parameter {', '.join(unknown)}: {known}")
    for field_name, values in ranges.items():
        _check_range(name, fields, field_name, values)
    axes: list[tuple[str, list[Any]]] = []
    for field_name, field in fields.items():
        kind = type_name(field.type)
        if field.metadata.get("choices"):
            axes.append((field_name, list(field.metadata["choices"])))
        elif kind == "bool":
            axes.append((field_name, [False, True]))
        elif kind == "int" and field_name in ranges:
            axes.append((field_name, list(ranges[field_name])))
        else:
            axes.append((field_name, [field.default]))
    total = 1
    for _, values in axes:
        total *= len(values)
    if total > MAX_RULE_SETS:
        raise InvalidParameter(f"{name}: {total:,} combinations is more than the survey's {MAX_RULE_SETS:,}")
    games: list[Game] = []
    used: dict[str, set] = {field_name: set() for field_name in ranges}  # the range values some rule set took
    refusals: dict[str, str] = {}
    for combination in itertools.product(*(values for _, values in axes)):
        values = dict(zip((n for n, _ in axes), combination))
        try:
            params = cls.Params(**values)
        except InvalidParameter as error:
            for field_name in ranges:  # a combination the game itself forbids: why, for the refusal below
                refusals.setdefault(f"{field_name}={values[field_name]}", str(error))
            continue
        for field_name in ranges:
            used[field_name].add(values[field_name])
        if cls.survey_meaningful(params):
            games.append(cls(params))
    for field_name, values in ranges.items():  # a value no rule set can take is refused, not dropped silently
        unused = [value for value in values if value not in used[field_name]]
        if unused:
            why = refusals.get(f"{field_name}={unused[0]}", "")
            raise InvalidParameter(f"--range {field_name}={_range_text(values)}: {name} has no rule set with "
                                   f"{field_name}={unused[0]}{f' ({why})' if why else ''}; give a range it allows")
    return games


def _range_text(values: range) -> str:
    return f"{values.start}..{values.stop - 1}" if len(values) > 1 else str(values.start)


def _check_range(name: str, fields: dict[str, dataclasses.Field], field_name: str, values: range) -> None:
    """InvalidParameter (one line, naming the parameter and what it allows) unless `field_name` is a whole-number
    parameter whose declared minimum and maximum hold every value of `values`."""
    wholes = [n for n, f in fields.items() if type_name(f.type) == "int" and not f.metadata.get("choices")]
    field = fields[field_name]
    if field_name not in wholes:
        meta = field.metadata
        kind = (f"takes one of {', '.join(meta['choices'])}" if meta.get("choices") else
                "is true or false" if type_name(field.type) == "bool" else f"is a {type_name(field.type)}")
        offer = (f"{name}'s whole-number parameters are {', '.join(wholes)}" if wholes else
                 f"{name} has no whole-number parameter to range over")
        taken = " (the survey takes each of its values)" if meta.get("choices") or type_name(field.type) == "bool" else ""
        raise InvalidParameter(f"--range {field_name}=...: {field_name} {kind}{taken}, not a range of whole "
                               f"numbers; {offer}")
    low, high = field.metadata.get("minimum"), field.metadata.get("maximum")
    if (low is not None and values.start < low) or (high is not None and values.stop - 1 > high):
        allowed = (f"from {low} to {high}" if low is not None and high is not None else
                   f"at least {low}" if low is not None else f"at most {high}")
        raise InvalidParameter(f"--range {field_name}={_range_text(values)}: {name}'s {field_name} must be "
                               f"{allowed}")


def summarise(game: Game) -> dict[str, Any]:
    """One rule set's row: start value and remoteness, counts by value, cycle share, longest win."""
    import numpy as np

    from explorer.solved import build

    solved = build(game)
    graph, solution = solved.graph, solved.solution
    counts = solution.counts()
    sources = graph.edge_sources()
    by_source = np.bincount(solution.value[sources], minlength=4) if graph.num_moves else np.zeros(4, dtype=int)
    wins = solution.remoteness[solution.value == int(Value.WIN)]
    return {"spec": game.id, **{f.name: _plain(getattr(game.params, f.name)) for f in dataclasses.fields(game.params)},
            "start_value": str(solved.value(0)), "start_remoteness": solved.remoteness(0),
            "positions": graph.num_positions, "moves": graph.num_moves, **counts,
            **{f"moves_from_{v}": int(by_source[int(Value.parse(v))]) for v in ("win", "loss", "tie", "draw")},
            "on_cycle_share": round(float(solved.on_cycle.mean()), 6) if graph.num_positions else 0.0,
            "longest_win": int(wins.max()) if len(wins) else None}


def _plain(value: Any) -> Any:
    return format_value(value) if isinstance(value, tuple) else value


def _cache_file(game: Game):
    """``<state dir>/survey/<name>-<hash>.json``."""
    return private.cache_path(CACHE_KIND, game.name, f"{CACHE_VERSION}|{game.id}", ".json")


def survey(games: Iterable[Game], use_cache: bool = True) -> list[dict[str, Any]]:
    """The summary row of every rule set, from the cache where present, with a progress bar."""
    games = list(games)
    rows = []
    caching = True
    with progress.bar("surveying rule sets", total=len(games), unit="rule set") as bar:
        for game in games:
            path = _cache_file(game)
            row = None
            if use_cache and path.exists():
                try:
                    row = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    row = None  # a torn cache entry is recomputed
                if row is not None and row.get("spec") != game.id:
                    row = None
            if row is None:
                row = summarise(game)
                caching = caching and _keep(path, row)  # after one failure, the next would fail too: said once
            rows.append(row)
            bar.update(1)
    return rows


def _keep(path, row: dict[str, Any]) -> bool:
    """Cache one summary; True when written. One that cannot be written is one notice, and the survey goes on
    without it (private.keep_cache_file)."""
    return private.keep_cache_file(path, lambda handle: handle.write(json.dumps(row).encode("utf-8")), "surveyed")
