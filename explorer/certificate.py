"""Strategy certificates: a value claim about one position that anyone can check from the rules alone.

`certificate(solved, key)` turns the solved graph into a proof of the
position's value; `check_certificate(data)` re-checks that proof using only the
game's rules (``parse_spec``, ``moves``, ``canonical``, ``outcome``), never
the solver or a database, so a bug in the solver cannot vouch for itself.

A certificate holds one or two *strategies*. A strategy belongs to one player
(P) and lists positions; at each of P's positions it names one move, at each
of the other player's positions it must contain every reply (closure), and
every finished game inside it must meet P's goal:

  reach goals (win, at-least-tie)    P forces the game to END with that result.
      Every position carries a `rank` that strictly drops along every move of
      the strategy, so no play can cycle: the game ends within rank moves.
  safety goals (never-lose, never-lose-or-tie)    every play stays inside the
      set forever or ends with that result; cycles are fine, no ranks needed.

Claims, for the player to move (M) and the opponent (O):
  win   M reaches a win.            loss  O reaches a win.
  tie   M reaches a tie or better, and so does O: best play ends in a tie.
  draw  M never loses, and O keeps M from ever winning or tying: the game
        goes on forever under best play.

Building is O(V + E) over the positions reachable from the queried one;
checking is O(certificate positions * moves per position) rule calls.
The `value` and `remoteness` stored per position are the solver's, for
people and diagrams; the checker ignores them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import json
import os

from explorer.core.errors import CertificateError, GameGraphError, shown
from explorer.games import parse_spec
from explorer.core.bounds import MAX_NOTATION_LENGTH
from explorer.games.spec import MAX_SPEC_LENGTH
from explorer.core.values import Value

if TYPE_CHECKING:  # only for annotations: the checker must not import the solver
    from explorer.solved import SolvedGraph

FORMAT = "gamegraph-certificate"
VERSION = 1

# The results (for the strategy's owner) that a finished game may have under each goal.
ACCEPTED = {
    "win": {Value.WIN},
    "at-least-tie": {Value.WIN, Value.TIE},
    "never-lose": {Value.WIN, Value.TIE},
    "never-lose-or-tie": {Value.WIN},
}
REACH_GOALS = ("win", "at-least-tie")
CLAIMS = ("win", "loss", "tie", "draw")

# -- the file format, checked before any field is used ----------------------------------
MAX_CERTIFICATE_BYTES = 128 * 1024 * 1024
MAX_INT_DIGITS = 20            # JSON integers longer than this are refused while parsing
MAX_RANK = 2 ** 53             # ranks and remoteness: at most the number of positions
MAX_LABEL_LENGTH = 200
_KEY = {"type": "string", "minLength": 1, "maxLength": MAX_NOTATION_LENGTH}
_PLAYER = {"type": "integer", "minimum": 0, "maximum": 1}
_DISTANCE = {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_RANK}
_ENTRY = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "to_move": _PLAYER, "value": {"enum": list(CLAIMS)}, "remoteness": _DISTANCE,
        "rank": {"type": "integer", "minimum": 0, "maximum": MAX_RANK}, "outcome": {"enum": list(CLAIMS)},
        "move": {"type": "object", "required": ["to"], "additionalProperties": False,
                 "properties": {"to": _KEY, "label": {"type": "string", "maxLength": MAX_LABEL_LENGTH}}},
        "replies": {"type": "array", "items": _KEY},
    },
}
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "gamegraph strategy certificate, version 1",
    "type": "object", "additionalProperties": False,
    "required": ["format", "version", "game", "symmetry", "position", "claim", "strategies"],
    "properties": {
        "format": {"const": FORMAT}, "version": {"type": "integer", "const": VERSION},
        "game": {"type": "string", "minLength": 1, "maxLength": MAX_SPEC_LENGTH},
        "spec": {"type": "string", "maxLength": MAX_SPEC_LENGTH}, "symmetry": {"type": "boolean"},
        "position": _KEY, "to_move": _PLAYER, "claim": {"enum": list(CLAIMS)}, "remoteness": _DISTANCE,
        "strategies": {"type": "array", "minItems": 1, "maxItems": 2, "items": {
            "type": "object", "required": ["player", "goal", "positions"], "additionalProperties": False,
            "properties": {"player": _PLAYER, "goal": {"enum": list(ACCEPTED)},
                           "positions": {"type": "object", "minProperties": 1, "propertyNames": _KEY,
                                         "additionalProperties": _ENTRY}}}},
    },
}


def required_strategies(claim: str, mover: int) -> list[tuple[int, str]]:
    """(player, goal) of every strategy that proves `claim` for the player to move."""
    other = 1 - mover
    table = {"win": [(mover, "win")], "loss": [(other, "win")],
             "tie": [(mover, "at-least-tie"), (other, "at-least-tie")],
             "draw": [(mover, "never-lose"), (other, "never-lose-or-tie")]}
    if claim not in table:
        raise CertificateError(f"unknown claim {claim!r}: a certificate claims win, loss, tie or draw")
    return table[claim]


# -- building ------------------------------------------------------------------------
def certificate(solved: "SolvedGraph", key: str) -> dict[str, Any]:
    """A JSON-ready certificate of the value of position `key` (any notation the game parses).

    Raises the game's InvalidPosition / UnreachablePosition for a bad key, and
    CertificateError if the solved value cannot be backed by a strategy.
    O(V + E) over the positions reachable from `key`.
    """
    graph = solved.graph
    root = graph.find(key)
    claim = str(solved.value(root))
    mover = int(graph.to_move[root])
    reachable = _reachable(graph, root)
    strategies = []
    for player, goal in required_strategies(claim, mover):
        accepted = ACCEPTED[goal]
        if goal in REACH_GOALS:
            rank = _attractor(graph, reachable, player, lambda n, p=player: _result(graph, n, p) in accepted)
            if root not in rank:
                raise _cannot(graph, root, claim, player, goal)
            nodes = _strategy(solved, root, player, lambda n: n in rank, rank)
        else:
            # The other player's attractor to the results this player must avoid; the rest is safe.
            losing = _attractor(graph, reachable, 1 - player,
                                lambda n, p=player: _result(graph, n, p) not in accepted)
            if root in losing:
                raise _cannot(graph, root, claim, player, goal)
            nodes = _strategy(solved, root, player, lambda n: n not in losing, None)
        strategies.append({"player": player, "goal": goal, "positions": nodes})
    return {"format": FORMAT, "version": VERSION, "game": graph.game.id, "spec": graph.game.display_name,
            "symmetry": bool(graph.symmetry), "position": graph.key(root), "to_move": mover, "claim": claim,
            "remoteness": solved.remoteness(root), "strategies": strategies}


def _cannot(graph, root: int, claim: str, player: int, goal: str) -> CertificateError:
    who = "the player to move" if player == int(graph.to_move[root]) else "the opponent"
    return CertificateError(f"cannot certify that {graph.key(root)} is a {claim}: {who} has no strategy for "
                            f"'{goal}' against every reply (the solver's value assumes both sides prefer a tie "
                            "to endless play)")


def _result(graph, node: int, player: int) -> Value | None:
    """The finished game's result for `player`, or None if the game is not over at `node`."""
    outcome = int(graph.terminal[node])
    if outcome < 0:
        return None
    value = Value(outcome)
    return value if int(graph.to_move[node]) == player else value.for_previous_player()


def _reachable(graph, root: int) -> set[int]:
    seen, queue = {root}, deque([root])
    while queue:
        for child in graph.successors(queue.popleft()).tolist():
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return seen


def _attractor(graph, nodes: set[int], player: int, target: Callable[[int], bool]) -> dict[int, int]:
    """Rank of every node from which `player` forces reaching a finished game with target(node) true.

    Backward breadth-first search (retrograde analysis): a finished target has
    rank 0; the player's node is in at 1 + its best child's rank, the other
    player's node once all its children are in, at 1 + the worst. O(V + E).
    """
    pred_indptr, pred_indices = graph.predecessors_csr
    pending = {n: len(graph.successors(n)) for n in nodes}
    rank = {n: 0 for n in nodes if graph.terminal[n] >= 0 and target(n)}
    queue = deque(sorted(rank))
    while queue:
        node = queue.popleft()
        for parent in pred_indices[pred_indptr[node]:pred_indptr[node + 1]].tolist():
            if parent not in nodes or parent in rank or graph.terminal[parent] >= 0:
                continue
            pending[parent] -= 1
            if int(graph.to_move[parent]) == player or pending[parent] == 0:
                rank[parent] = rank[node] + 1
                queue.append(parent)
    return rank


def _strategy(solved, root: int, player: int, inside: Callable[[int], bool],
              rank: dict[int, int] | None) -> dict[str, dict[str, Any]]:
    """The positions of `player`'s strategy from `root`, closed under the other player's replies.

    The player's move: a child inside the winning region (with rank one less
    for reach goals), preferring the solver's optimal moves, then the smallest
    label, then the smallest key.
    """
    graph, optimal = solved.graph, solved.solution.optimal
    keys: dict[int, str] = {}

    def key_of(node: int) -> str:
        """graph.key, once a node: a node is named as an entry, as a choice and as a reply (decode and format)."""
        if node not in keys:
            keys[node] = graph.key(node)
        return keys[node]

    positions: dict[str, dict[str, Any]] = {}
    queue, seen = deque([root]), {root}
    while queue:
        node = queue.popleft()
        entry: dict[str, Any] = {"to_move": int(graph.to_move[node]), "value": str(solved.value(node)),
                                 "remoteness": solved.remoteness(node)}
        if rank is not None:
            entry["rank"] = rank[node]
        if graph.terminal[node] >= 0:
            entry["outcome"] = str(Value(int(graph.terminal[node])))
            children = []
        elif int(graph.to_move[node]) == player:
            choices = []
            for edge in graph.edge_range(node):
                child = int(graph.succ_indices[edge])
                if inside(child) and (rank is None or rank[child] == rank[node] - 1):
                    choices.append((not optimal[edge], graph.label(edge), key_of(child), child))
            _, label, key, child = min(choices)
            entry["move"] = {"label": label, "to": key}
            children = [child]
        else:
            children = graph.successors(node).tolist()
            entry["replies"] = sorted(key_of(c) for c in children)
        positions[key_of(node)] = entry
        for child in children:
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return positions


# -- checking --------------------------------------------------------------------------
@dataclass
class CheckReport:
    """What a certificate proved: the claim, in words, and how much was checked."""

    game: str
    position: str
    claim: str
    statement: str
    positions_checked: int
    strategies: list[dict[str, Any]] = field(default_factory=list)

    def __str__(self) -> str:
        return self.statement


def load_certificate(path: str | os.PathLike) -> CheckReport:
    """Read, parse, validate and check the certificate file at `path`. CertificateError names the first flaw.

    The file must be a regular file of at most MAX_CERTIFICATE_BYTES (a FIFO or
    a device is refused before it is read). O(file size) + check_certificate.
    """
    from explorer.core.files import read_regular_file

    try:
        raw = read_regular_file(path, MAX_CERTIFICATE_BYTES, "certificate")
    except CertificateError:
        raise
    except GameGraphError as error:
        raise CertificateError(str(error)) from None
    return load_certificate_bytes(raw, os.fsdecode(os.fspath(path)))


def load_certificate_bytes(raw: bytes, name: str) -> CheckReport:
    """Parse certificate bytes (UTF-8 JSON), validate them against SCHEMA and check the proof."""
    return check_certificate(parse_certificate(raw, name))


def parse_certificate(raw: bytes, name: str) -> Any:
    """The JSON value of a certificate file; CertificateError for text that is not UTF-8 JSON of sane size.

    Integers are bounded while parsing (a 5,000-digit number never reaches int()),
    NaN and Infinity are refused, and nesting deeper than the parser's stack is
    refused with a message instead of a RecursionError.
    """
    where = shown(name, 80)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CertificateError(f"{where} is not UTF-8 text (byte {error.start:,} is 0x{raw[error.start]:02x})") from None

    def bounded_int(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise CertificateError(f"{where} holds a number of {len(digits):,} digits; no certificate field "
                                   f"needs more than {MAX_INT_DIGITS}")
        return int(digits)

    def no_constant(name_: str) -> Any:
        raise CertificateError(f"{where} holds {name_}, which is not JSON")

    try:
        return json.loads(text, parse_int=bounded_int, parse_constant=no_constant)
    except RecursionError:
        raise CertificateError(f"{where} is nested too deeply to be a certificate") from None
    except json.JSONDecodeError as error:
        raise CertificateError(f"{where} is not valid JSON: {error.msg} (line {error.lineno}, "
                               f"column {error.colno})") from None


# The JSON types of SCHEMA's "type" keyword as json.loads gives them, and every type it gives (float among them).
_JSON_TYPES = {"object": dict, "array": list, "string": str, "integer": int, "boolean": bool, "null": type(None)}
_EXACT = frozenset({*_JSON_TYPES.values(), float})
_SIZED = {"minLength": str, "maxLength": str, "minItems": list, "maxItems": list, "minProperties": dict}
_ANNOTATIONS = {"$schema", "title"}  # keywords that check nothing


def _conforming(schema: dict) -> Callable[[Any], bool]:
    """A predicate true only for data `schema` accepts, for the keywords SCHEMA uses; ValueError for any other
    keyword, so that a change of SCHEMA cannot pass it by. Stricter than jsonschema, never looser: only the
    exact types json.loads gives (not a subclass, and bool is no integer), `const` and `enum` of the same
    type. `validate` takes True as valid and asks jsonschema about the rest, which names the flaw (or finds
    none). Why: jsonschema took half the time of checking a certificate, ~30 us an entry (check_certificate
    on every position of dodgem:3x3 in tests/explorer/test_certificate.py). fastjsonschema, the library that compiles
    a schema so, was not taken: it accepts 1.0 as an integer (drafts 6 on; tried with 2.22.2), looser than a
    certificate's rule. O(size of data)."""
    checks: list[Callable[[Any], bool]] = []
    properties: dict[str, Callable[[Any], bool]] = {}
    other: Callable[[Any], bool] | None = lambda x: True  # a field not in `properties`; None: not allowed
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        if keyword == "type":
            kinds = tuple(_JSON_TYPES[name] for name in ([value] if isinstance(value, str) else value))
            checks.append(lambda x, kinds=kinds: type(x) in kinds)
        elif keyword in ("const", "enum"):
            allowed = [value] if keyword == "const" else list(value)
            checks.append(lambda x, allowed=allowed: any(type(x) is type(a) and x == a for a in allowed))
        elif keyword == "minimum":
            checks.append(lambda x, low=value: type(x) not in (int, float) or x >= low)
        elif keyword == "maximum":
            checks.append(lambda x, high=value: type(x) not in (int, float) or x <= high)
        elif keyword in _SIZED:
            if keyword.startswith("min"):
                checks.append(lambda x, n=value, kind=_SIZED[keyword]: type(x) is not kind or len(x) >= n)
            else:
                checks.append(lambda x, n=value, kind=_SIZED[keyword]: type(x) is not kind or len(x) <= n)
        elif keyword == "required":
            checks.append(lambda x, names=tuple(value): type(x) is not dict or all(n in x for n in names))
        elif keyword == "properties":
            properties = {name: _conforming(sub) for name, sub in value.items()}
        elif keyword == "additionalProperties" and (value is False or isinstance(value, dict)):
            other = None if value is False else _conforming(value)
        elif keyword == "propertyNames" and isinstance(value, dict):
            names = _conforming(value)
            checks.append(lambda x, names=names: type(x) is not dict or all(names(k) for k in x))
        elif keyword == "items" and isinstance(value, dict):
            item = _conforming(value)
            checks.append(lambda x, item=item: type(x) is not list or all(item(e) for e in x))
        else:
            raise ValueError(f"the schema keyword {keyword}: {value!r} is not known to certificate._conforming")

    def fields(x: Any) -> bool:
        if type(x) is not dict:
            return True
        for name, item in x.items():
            if type(name) is not str:
                return False
            check = properties.get(name, other)
            if check is None or not check(item):
                return False
        return True

    if properties or other is None or "additionalProperties" in schema:
        checks.append(fields)

    def conforms(x: Any) -> bool:
        if type(x) not in _EXACT:
            return False
        for check in checks:
            if not check(x):
                return False
        return True

    return conforms


def validate(data: Any) -> None:
    """CertificateError naming the first field of `data` that breaks SCHEMA (types, sizes, names).

    O(size of data); the checker may then use every field without further type checks. Data that
    `_conforms` (a fast check, never looser than SCHEMA) is valid at once; jsonschema checks the rest.
    """
    if _conforms(data):
        return
    from jsonschema import Draft202012Validator, validators
    from jsonschema.exceptions import best_match

    global _VALIDATOR
    if _VALIDATOR is None:
        # JSON integers only: 1.0 and True are not the integer 1 in a certificate.
        strict = Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool))
        _VALIDATOR = validators.extend(Draft202012Validator, type_checker=strict)(SCHEMA)
    error = best_match(_VALIDATOR.iter_errors(data))
    if error is None:
        return
    field_ = "".join(f"[{step}]" if isinstance(step, int) else f"[{shown(step, 40)}]" for step in error.absolute_path)
    if error.validator == "additionalProperties":
        problem = error.message.split(" were unexpected")[0].split(" was unexpected")[0]
        problem = f"unexpected field {problem.removeprefix('Additional properties are not allowed (').rstrip(')')}"
    elif error.validator == "required":
        problem = error.message.replace(" is a required property", " is missing")
    else:
        problem, instance = error.message, repr(error.instance)
        if problem.startswith(instance) and len(instance) > 60:  # a 4,301-digit value is named, not repeated
            problem = shown(error.instance) + problem[len(instance):]
    raise CertificateError(f"the certificate's field {field_ or '(top level)'} is not valid: {problem[:200]}")


_VALIDATOR = None
_conforms = _conforming(SCHEMA)


def check_certificate(data: Any) -> CheckReport:
    """Verify a certificate from the game's rules alone; CertificateError names the first flaw.

    The data is first validated against SCHEMA (types and sizes of every field).
    O(positions * moves) rule calls; never touches the solver or a database.
    """
    if not isinstance(data, dict):
        raise CertificateError("a certificate is a JSON object")
    version = data.get("version")
    if data.get("format") != FORMAT or type(version) is not int or version != VERSION:
        raise CertificateError(f"not a {FORMAT} version {VERSION} file (format={shown(data.get('format'))}, "
                               f"version={shown(version)})")
    validate(data)
    for name, kind in (("game", str), ("position", str), ("claim", str), ("strategies", list), ("symmetry", bool)):
        if not isinstance(data.get(name), kind):
            raise CertificateError(f"the certificate's {name!r} is missing or not a {kind.__name__}")
    try:
        game = parse_spec(data["game"])
    except GameGraphError as error:
        raise CertificateError(f"the certificate's game {data['game']!r} is not valid: {error}") from None
    symmetry = data["symmetry"] and game.has_symmetry()
    rules = _Rules(game, symmetry)
    root = data["position"]
    mover = rules.position(root).to_move
    required = required_strategies(data["claim"], mover)
    given = [(s.get("player"), s.get("goal")) if isinstance(s, dict) else None for s in data["strategies"]]
    if sorted(given, key=str) != sorted(required, key=str):
        raise CertificateError(f"a {data['claim']} claim for {root} needs the strategies "
                               f"{_describe(required)}, but the certificate has {_describe(given)}")
    summaries = [_check_strategy(rules, root, strategy) for strategy in data["strategies"]]
    summaries.sort(key=lambda s: required.index((s["player"], s["goal"])))
    checked = sum(s["positions"] for s in summaries)
    return CheckReport(game=game.display_name, position=root, claim=data["claim"],
                       statement=_statement(game.display_name, root, data["claim"], summaries),
                       positions_checked=checked, strategies=summaries)


def _describe(pairs: list) -> str:
    return ", ".join(f"player {p} {g}" if isinstance(g, str) else "a malformed entry"
                     for p, g in (pair if pair else (None, None) for pair in pairs)) or "none"


@dataclass
class _Known:
    position: Any
    to_move: int
    outcome: Value | None


class _Rules:
    """The game's rules with memoised parsing and move generation (each position is expanded once)."""

    def __init__(self, game, symmetry: bool):
        self.game, self.symmetry = game, symmetry
        self._known: dict[str, _Known] = {}
        self._children: dict[str, dict[str, list[str]]] = {}

    def position(self, key: Any) -> _Known:
        if not isinstance(key, str):
            raise CertificateError(f"position {key!r} is not a string")
        if key not in self._known:
            try:
                position = self.game.parse(key)
            except GameGraphError as error:
                raise CertificateError(f"position {key!r} is not a legal position: {error}") from None
            canonical = self.game.key(position, self.symmetry)
            if canonical != key:
                raise CertificateError(f"position {key!r} is not written canonically (expected {canonical!r})")
            self._known[key] = _Known(position, self.game.to_move(position), self.game.outcome(position))
        return self._known[key]

    def children(self, key: str) -> dict[str, list[str]]:
        """Canonical key of every successor -> the labels of the moves that reach it."""
        if key not in self._children:
            children: dict[str, list[str]] = {}
            for move in self.game.moves(self.position(key).position):
                children.setdefault(self.game.key(move.position, self.symmetry), []).append(move.label)
            if not children:
                raise CertificateError(f"position {key!r} is not over but the rules give it no moves")
            self._children[key] = children
        return self._children[key]


def _check_strategy(rules: _Rules, root: str, strategy: dict[str, Any]) -> dict[str, Any]:
    """Walk the strategy from the root: legality, closure, finished results and (reach goals) ranks."""
    player, goal, positions = strategy["player"], strategy["goal"], strategy.get("positions")
    if not isinstance(positions, dict):
        raise CertificateError(f"the {goal} strategy of player {player} has no 'positions' object")
    reach = goal in REACH_GOALS
    whose = f"player {player}'s {goal} strategy"

    def entry_of(key: str, reached_from: str | None) -> dict[str, Any]:
        entry = positions.get(key)
        if not isinstance(entry, dict):
            where = f" (a reply to the move from {reached_from})" if reached_from else ""
            raise CertificateError(f"{whose} is not closed: position {key}{where} is missing")
        if reach and (isinstance(entry.get("rank"), bool) or not isinstance(entry.get("rank"), int)
                      or entry["rank"] < 0):
            raise CertificateError(f"{whose}: position {key} has no valid rank (a whole number >= 0)")
        return entry

    entry_of(root, None)
    queue, seen = deque([root]), {root}
    while queue:
        key = queue.popleft()
        entry = positions[key]
        known = rules.position(key)
        if known.outcome is not None:
            result = known.outcome if known.to_move == player else known.outcome.for_previous_player()
            if result not in ACCEPTED[goal]:
                raise CertificateError(f"{whose}: the game ends at {key} with a {result} for player {player}, "
                                       f"which does not meet the goal")
            continue
        children = rules.children(key)
        if known.to_move == player:
            move = entry.get("move")
            if not isinstance(move, dict) or not isinstance(move.get("to"), str):
                raise CertificateError(f"{whose}: position {key} is player {player}'s turn but names no move")
            if move["to"] not in children:
                raise CertificateError(f"{whose}: the move from {key} to {move['to']} is not legal")
            if move.get("label") is not None and move["label"] not in children[move["to"]]:
                raise CertificateError(f"{whose}: no move labelled {move['label']!r} leads from {key} to {move['to']}")
            nexts = [move["to"]]
        else:
            replies = entry.get("replies")
            if replies is not None and sorted(replies) != sorted(children):
                missing = sorted(set(children) - set(replies))
                extra = sorted(set(replies) - set(children))
                raise CertificateError(f"{whose}: the replies listed at {key} are not the legal ones "
                                       f"(missing {missing or 'none'}, not legal {extra or 'none'})")
            nexts = sorted(children)
        for child in nexts:
            child_entry = entry_of(child, key)
            if reach:
                if child_entry["rank"] >= entry["rank"]:
                    raise CertificateError(f"{whose}: the rank does not drop from {key} ({entry['rank']}) to "
                                           f"{child} ({child_entry['rank']}), so play could go on forever")
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return {"player": player, "goal": goal, "positions": len(seen),
            "max_moves": positions[root]["rank"] if reach else None}


def _statement(spec: str, root: str, claim: str, summaries: list[dict[str, Any]]) -> str:
    first = summaries[0]
    if claim == "win":
        return (f"{spec}: the player to move at {root} wins: a strategy of {first['positions']} positions "
                f"ends every game in their win within {first['max_moves']} moves, whatever the opponent plays")
    if claim == "loss":
        return (f"{spec}: the player to move at {root} loses: the opponent has a strategy of {first['positions']} "
                f"positions that wins within {first['max_moves']} moves, whatever is played")
    second = summaries[1]
    if claim == "tie":
        return (f"{spec}: {root} is a tie: each player can force the game to end in a tie or better for them "
                f"(strategies of {first['positions']} and {second['positions']} positions), so best play ties")
    return (f"{spec}: {root} is a draw: the player to move can avoid losing forever ({first['positions']} "
            f"positions) and the opponent can keep them from ever winning or tying ({second['positions']} "
            "positions), so under best play the game never ends")
