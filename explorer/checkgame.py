"""`gamegraph check-game`: does a game module keep the promises the rest of gamegraph relies on?

Every check walks the positions reachable from the start (without symmetry,
by plain breadth-first search over `moves`, at most `limit` of them) and
reports each broken promise with the position or move that breaks it:

- notation: ``parse(format(p)) == p`` on every reachable position;
- determinism: ``moves``, ``outcome`` and ``to_move`` give the same answer twice;
- outcome vs moves: a finished position has no moves, an unfinished one has some;
  moves alternate between the players;
- canonical form: idempotent, keeps the mover and the outcome, commutes with moves;
- encoding: ``decode(encode(p)) == p`` inside ``range(code_space())``; the batch
  outcomes and movers agree with the rules;
- ranking: ``unrank(rank(p)) == p`` inside ``range(index_space())`` (the same codes
  under the ranking's names) and every reachable position's index is valid;
- un-moves: ``unmoves`` is exactly the inverse of ``moves``;
- tiers: the declared tiers (``tiers()``) split ``range(index_space())`` into ranges whose
  child relation is a DAG, and every reachable move stays in its tier or goes to a declared child;
- solving with and without symmetry gives every position the same value;
- the array generator gives the same graph as the generic one;
- batch columns: ``batch_columns(codes)`` gives every code's key and game fields exactly as
  ``format`` and ``fields`` give them one position at a time, with the dtypes the CSV writer
  needs (bool for flags, integers for numbers); on every reachable position, or an even
  sample of `BATCH_COLUMNS_SAMPLE` of them.

Which checks apply is what the game declares (``game.offers``): a capability it
does not declare is skipped, and says so.

O(V + E) rule calls per check, V and E those of the reachable graph.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from explorer.core import progress
from explorer.core.errors import GameGraphError, GraphTooLarge
from explorer.games.base import Game

MAX_PER_CHECK = 5  # problems shown per check; the count says how many more there were
BATCH_COLUMNS_SAMPLE = 100_000  # codes whose batch columns are compared; more reachable positions are sampled evenly


@dataclass
class Check:
    name: str
    problems: list[str] = field(default_factory=list)
    count: int = 0
    skipped: str | None = None

    def fail(self, message: str) -> None:
        self.count += 1
        if len(self.problems) < MAX_PER_CHECK:
            self.problems.append(message)

    @property
    def ok(self) -> bool:
        return self.count == 0


@dataclass
class Report:
    game: str       # the short spec people read (dodgem:4x4)
    spec: str       # the canonical spec, every parameter spelled out (dodgem(size=4)): what was checked
    positions: int
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def text(self) -> str:
        lines = [f"check-game {self.game}   [{self.spec}]: {self.positions:,} reachable positions"]
        for c in self.checks:
            if c.skipped:
                lines.append(f"  skip  {c.name}: {c.skipped}")
            elif c.ok:
                lines.append(f"  ok    {c.name}")
            else:
                lines.append(f"  FAIL  {c.name}: {c.count} problem{'s' if c.count > 1 else ''}")
                lines += [f"          - {p}" for p in c.problems]
                if c.count > len(c.problems):
                    lines.append(f"          ... and {c.count - len(c.problems)} more")
        lines.append("all checks passed" if self.ok else
                     f"{len(self.failed())} check{'s' if len(self.failed()) > 1 else ''} failed")
        return "\n".join(lines)


def _call(check: Check, what: Callable[[], str], fn: Callable[[], Any]) -> tuple[bool, Any]:
    """Run one rule call; an exception becomes a problem naming the call (`what()`), not a crash. The
    name is made only then: formatting every position for a call that passes was a sixth of the walk."""
    try:
        return True, fn()
    except Exception as exc:  # the author's bug, reported, never raised
        check.fail(f"{what()} raised {type(exc).__name__}: {exc}")
        return False, None


def check_game(game: Game, limit: int = 200_000) -> Report:
    """Run every check on `game`; never raises for a broken game (the report says what is broken)."""
    notation = Check("notation round-trips (parse(format(p)) == p)")
    determinism = Check("rules are deterministic (moves, outcome, to_move)")
    ending = Check("outcome agrees with moves; moves alternate")
    canonical = Check("canonical form is idempotent and commutes with moves")
    encoding = Check("encode/decode round-trip and batch rules agree")
    ranking = Check("rank/unrank round-trip")
    unmoves = Check("un-moves are exactly the inverse of moves")
    tiers = Check("every move stays in its tier or goes to a declared child tier; the tiers form a DAG")
    symmetry = Check("solving with and without symmetry gives the same values")
    arrays = Check("the array path equals the generic path")
    columns = Check("batch_columns equals format and fields position by position")
    checks = [notation, determinism, ending, canonical, encoding, ranking, unmoves, tiers, symmetry, arrays, columns]

    fmt = _formatter(game)
    ok, start = _call(ending, lambda: "start()", game.start)
    if not ok:
        for c in checks:
            if c is not ending:
                c.skipped = "no start position"
        return Report(game.display_name, game.id, 0, checks)
    with progress.bar(f"check-game {game.display_name}: exploring") as bar:
        reachable, edges = _explore(game, start, limit, ending, fmt, bar)
    with progress.bar(f"check-game {game.display_name}: rules", total=len(reachable)) as bar:
        for p in reachable:
            _guarded(ending, lambda: f"checking position {fmt(p)}",
                     lambda: _check_position(game, p, fmt, notation, determinism, ending, canonical))
            bar.update()
    with progress.bar(f"check-game {game.display_name}") as bar:
        _stage(bar, game, encoding, 2 * len(reachable))  # encode and decode, then the batch rules
        _guarded(encoding, "the encoding check",
                 lambda: _check_encoding(game, _ticking(reachable, bar), fmt, encoding))
        _stage(bar, game, ranking, len(reachable))
        _guarded(ranking, "the ranking check", lambda: _check_ranking(game, _ticking(reachable, bar), fmt, ranking))
        _stage(bar, game, unmoves, len(edges) + len(reachable))
        _guarded(unmoves, "the un-moves check",
                 lambda: _check_unmoves(game, _ticking(reachable, bar), _ticking(edges, bar), fmt, unmoves))
        _stage(bar, game, tiers, len(edges))
        _guarded(tiers, "the tiers check", lambda: _check_tiers(game, _ticking(edges, bar), fmt, tiers))
        _later_checks(game, reachable, limit, bar, notation, determinism, ending, canonical, encoding,
                      symmetry, arrays, columns)
    return Report(game.display_name, game.id, len(reachable), checks)


def _stage(bar, game: Game, check: Check, total: int | None = None) -> None:
    """Start the bar again for the check starting, named, over the positions or moves it walks (`total`;
    None for a check whose generator shows its own bars): a check takes minutes on connect4:small's
    161,029 positions, and the bar is all the user sees meanwhile."""
    bar.reset()
    bar.total = total  # reset(total=None) would keep the last check's total
    bar.set_description_str(f"check-game {game.display_name}: {check.name.split(' (')[0]}")


class _ticking:
    """A list that counts on `bar` the items each walk over it takes, 1,000 at a time (a tqdm update per
    item would cost more than many rule calls); len() and a second walk as the list's."""

    def __init__(self, items: list, bar) -> None:
        self.items, self.bar = items, bar

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        for start in range(0, len(self.items), 1000):
            yield from self.items[start:start + 1000]
            self.bar.update(min(1000, len(self.items) - start))


def _later_checks(game: Game, reachable: list, limit: int, bar, notation: Check, determinism: Check,
                  ending: Check, canonical: Check, encoding: Check, symmetry: Check, arrays: Check,
                  columns: Check) -> None:
    """The checks that run only when the rules they build on passed: symmetry, arrays, batch columns."""
    clean = ending.ok and determinism.ok
    graphs = _Graphs(game, limit)
    _stage(bar, game, symmetry)  # generating and solving show their own bars
    if not game.has_symmetry():
        canonical.skipped = canonical.skipped or "the game declares no symmetry (has_symmetry() is False)"
        symmetry.skipped = "the game declares no symmetry"
    elif not clean or not canonical.ok:
        symmetry.skipped = "the rules or the canonical form failed above"
    else:
        _guarded(symmetry, "solving", lambda: _check_symmetric_solve(game, symmetry, graphs))
    _stage(bar, game, arrays)
    if not _has_arrays(game):
        arrays.skipped = _NO_ARRAYS
    elif not (clean and encoding.ok):
        arrays.skipped = "the rules or the encoding failed above"
    else:
        _guarded(arrays, "generating", lambda: _check_arrays(game, arrays, graphs))
    _stage(bar, game, columns)
    if not game.offers.batch_columns:
        columns.skipped = "the game offers no batch columns (offers.batch_columns is False)"
    elif not _has_arrays(game):
        columns.skipped = _NO_ARRAYS
    elif not (notation.ok and encoding.ok):
        columns.skipped = "the notation or the encoding failed above"
    else:
        _guarded(columns, "the batch columns check", lambda: _check_batch_columns(game, reachable, columns))


def _guarded(check: Check, what: str | Callable[[], str], fn: Callable[[], None]) -> None:
    """Run one check; an exception becomes a problem naming `what` (a callable is called only then)."""
    try:
        fn()
    except Exception as exc:  # a rule that raises on a second call, or a generator that chokes on bad output
        name = what() if callable(what) else what
        check.fail(f"{name}: {exc}" if isinstance(exc, GameGraphError) else
                   f"{name} raised {type(exc).__name__}: {exc}")


def _formatter(game: Game) -> Callable[[Any], str]:
    def fmt(p: Any) -> str:
        try:
            return repr(game.format(p))
        except Exception:
            return repr(p)
    return fmt


def _explore(game: Game, start: Hashable, limit: int, ending: Check, fmt, bar=None) -> tuple[list, list]:
    """Reachable positions (no symmetry) and their moves (p, label, q), breadth-first, at most `limit`;
    `bar` (a progress bar) counts the positions."""
    seen = {start}
    order, edges = [], []
    queue = deque([start])
    while queue:
        p = queue.popleft()
        order.append(p)
        if bar is not None:
            bar.update()
        ok, outcome = _call(ending, lambda: f"outcome({fmt(p)})", lambda: game.outcome(p))
        if not ok or outcome is not None:
            continue
        ok, moves = _call(ending, lambda: f"moves({fmt(p)})", lambda: game.moves(p))
        for move in moves or []:
            edges.append((p, move.label, move.position))
            try:
                fresh = move.position not in seen
            except TypeError:
                ending.fail(f"move {move.label!r} of {fmt(p)} leads to an unhashable position {move.position!r}")
                continue
            if fresh:
                if len(seen) >= limit:
                    raise GraphTooLarge(f"{game.display_name} has more than {limit:,} reachable positions; "
                                        f"check a smaller size{_presets_within(game, limit)} or raise --max-positions")
                seen.add(move.position)
                queue.append(move.position)
    return order, edges


def _presets_within(game: Game, limit: int) -> str:
    """", e.g. teeko:small" naming the game's presets whose size estimate (an upper bound, so they are
    sure to fit) is within `limit`, for the refusal of a game too large to check; "" when none is."""
    from explorer.core import limits
    from explorer.games import parse_spec

    fitting = []
    for preset in getattr(type(game), "presets", {}):
        try:
            other = parse_spec(f"{game.name}:{preset}")
            found = limits.estimate(other, symmetry=False)
        except Exception:  # a plugin's preset that does not parse or estimate: not offered, never a crash
            continue
        if found is not None and found.positions <= limit and other.id != game.id:
            fitting.append(other.display_name)
    fitting = list(dict.fromkeys(fitting))
    return f", e.g. {' or '.join(fitting[:3])}," if fitting else ""


def _check_position(game: Game, p, fmt, notation: Check, determinism: Check, ending: Check, canonical: Check) -> None:
    ok, text = _call(notation, lambda: f"format({p!r})", lambda: game.format(p))
    if ok:
        ok, back = _call(notation, lambda: f"parse({text!r})", lambda: game.parse(text))
        if ok and back != p:
            notation.fail(f"position {text}: parse(format(p)) gives {back!r}, not the position {p!r}")
    outcome = game.outcome(p)
    if game.outcome(p) != outcome:
        determinism.fail(f"outcome({fmt(p)}) changes between two calls")
    ok, mover = _call(ending, lambda: f"to_move({fmt(p)})", lambda: game.to_move(p))
    if ok and mover not in (0, 1):
        ending.fail(f"to_move({fmt(p)}) is {mover!r}, not 0 or 1")
    if game.to_move(p) != mover:
        determinism.fail(f"to_move({fmt(p)}) changes between two calls")
    ok, moves = _call(ending, lambda: f"moves({fmt(p)})", lambda: game.moves(p))
    moves = moves or []
    again = [(m.label, m.position) for m in game.moves(p)] if ok else []
    if ok and again != [(m.label, m.position) for m in moves]:
        determinism.fail(f"moves({fmt(p)}) differ between two calls")
    if outcome is not None and moves:
        ending.fail(f"position {fmt(p)} is over ({outcome}) but has {len(moves)} moves, e.g. {moves[0].label!r}")
    if outcome is None and ok and not moves:
        ending.fail(f"position {fmt(p)} is not over (outcome None) but has no moves")
    if outcome is None:
        for m in moves:
            if game.to_move(m.position) == mover:
                ending.fail(f"move {m.label!r} of {fmt(p)} leaves player {mover} to move again: moves must alternate")
                break
    if not game.has_symmetry():
        return
    ok, c = _call(canonical, lambda: f"canonical({fmt(p)})", lambda: game.canonical(p))
    if not ok:
        return
    if game.canonical(c) != c:
        canonical.fail(f"canonical is not idempotent at {fmt(p)}: canonical(p) = {fmt(c)}, "
                       f"canonical of that = {fmt(game.canonical(c))}")
    if game.to_move(c) != mover or game.outcome(c) != outcome:
        canonical.fail(f"canonical({fmt(p)}) = {fmt(c)} changes the mover or the outcome")
    elif outcome is None:
        mine = {game.canonical(m.position) for m in moves}
        theirs = {game.canonical(m.position) for m in game.moves(c)}
        if mine != theirs:
            extra = sorted(fmt(x) for x in mine ^ theirs)[:3]
            canonical.fail(f"canonical does not commute with moves at {fmt(p)}: its moves and those of "
                           f"canonical(p) = {fmt(c)} reach different classes (e.g. {', '.join(extra)})")


_NO_ARRAYS = "the game offers no integer encoding (offers.arrays is False or code_space() is None)"


def _has_arrays(game: Game) -> bool:
    from explorer.graph import arrays_offered

    return arrays_offered(game)


def _check_encoding(game: Game, reachable: list, fmt, encoding: Check) -> None:
    if not _has_arrays(game):
        encoding.skipped = _NO_ARRAYS
        return
    space = game.code_space()
    import numpy as np

    codes = []
    for p in reachable:
        ok, code = _call(encoding, lambda: f"encode({fmt(p)})", lambda: game.encode(p))
        if not ok:
            continue
        if not (isinstance(code, (int, np.integer)) and 0 <= code < space):
            encoding.fail(f"encode({fmt(p)}) = {code!r} is not in range(code_space()) = range({space})")
            continue
        ok, back = _call(encoding, lambda: f"decode({code})", lambda: game.decode(int(code)))
        if ok and back != p:
            encoding.fail(f"decode(encode(p)) is {fmt(back)}, not the position {fmt(p)} (code {code})")
        codes.append(int(code))
    if not encoding.ok or not codes:
        return
    array = np.asarray(codes, dtype=np.int64)
    ok, outcomes = _call(encoding, lambda: "batch_outcomes", lambda: game.batch_outcomes(array))
    ok2, movers = _call(encoding, lambda: "batch_to_move", lambda: game.batch_to_move(array))
    if not (ok and ok2):
        return
    for p, got, mover in zip(reachable, outcomes.tolist(), movers.tolist()):
        want = game.outcome(p)
        if got != (-1 if want is None else int(want)):
            encoding.fail(f"batch_outcomes says {got} at {fmt(p)}, outcome() says {want}")
        if mover != game.to_move(p):
            encoding.fail(f"batch_to_move says {mover} at {fmt(p)}, to_move() says {game.to_move(p)}")


def _check_ranking(game: Game, reachable: list, fmt, ranking: Check) -> None:
    space = game.index_space()
    if space is None:
        ranking.skipped = "the game offers no ranking (offers.ranking is False or index_space() is None)"
        return
    for p in reachable:
        ok, index = _call(ranking, lambda: f"rank({fmt(p)})", lambda: game.rank(p))
        if not ok:
            continue
        if not 0 <= index < space:
            ranking.fail(f"rank({fmt(p)}) = {index} is not in range(index_space()) = range({space})")
            continue
        ok, back = _call(ranking, lambda: f"unrank({index})", lambda: game.unrank(index))
        if ok and back != p:
            ranking.fail(f"unrank(rank(p)) is {fmt(back)}, not the position {fmt(p)} (index {index})")
        if not game.is_valid_index(index):
            ranking.fail(f"is_valid_index({index}) is False for the reachable position {fmt(p)}")


def _check_tiers(game: Game, edges: list, fmt, tiers: Check) -> None:
    from bisect import bisect_right

    from explorer.tiered import check_tiers

    if not game.offers.tiers:
        tiers.skipped = "the game declares no tiers (offers.tiers is False)"
        return
    declared = game.tiers()
    if declared is None:
        tiers.skipped = "the game's tiers() is None for these parameters: one tier"
        return
    try:
        check_tiers(declared, game.index_space())
    except GameGraphError as exc:
        tiers.fail(str(exc))
        return

    def tier(p) -> int:
        return bisect_right(declared.offsets, game.rank(p)) - 1

    for p, label, q in edges:
        ok, pair = _call(tiers, lambda: f"rank of {fmt(p)} or {fmt(q)}", lambda: (tier(p), tier(q)))
        if not ok:
            continue
        here, there = pair
        if there != here and there not in declared.children[here]:
            tiers.fail(f"the move {label} from {fmt(p)} (tier {here}, {declared.names[here]}) reaches {fmt(q)} in "
                       f"tier {there} ({declared.names[there]}), which is not one of its children "
                       f"{list(declared.children[here])}")
        elif there == here and declared.loop_free and declared.loop_free[here]:
            tiers.fail(f"the move {label} from {fmt(p)} stays in tier {here} ({declared.names[here]}), "
                       "which is declared loop-free")


def _check_unmoves(game: Game, reachable: list, edges: list, fmt, unmoves: Check) -> None:
    if not game.offers.unmoves:
        unmoves.skipped = "the game offers no un-moves (offers.unmoves is False)"
        return
    reduce = game.canonical if game.has_symmetry() else (lambda p: p)
    # Each rule call is made once per position and remembered (the rules are deterministic, or the
    # determinism check says not): unmoves(q) serves both directions, and moves(p) every q that lists p,
    # where it was asked once per listing. On connect4:small this check was a third of check-game.
    listed: dict = {}   # q -> unmoves(q) as a list, or None when it raised
    classes_before: dict = {}  # q -> the classes of unmoves(q), or None
    classes_after: dict = {}   # p -> the classes its moves reach (none once over), or None when a rule raised

    def unmoves_of(q):
        if q not in listed:
            ok, found = _call(unmoves, lambda: f"unmoves({fmt(q)})", lambda: list(game.unmoves(q)))
            listed[q] = found if ok else None
        return listed[q]

    def before(q):
        if q not in classes_before:
            found = unmoves_of(q)
            classes_before[q] = None if found is None else {reduce(x) for x in found}
        return classes_before[q]

    def after(p):
        if p not in classes_after:
            ok, moves = _call(unmoves, lambda: f"moves({fmt(p)})",
                              lambda: game.moves(p) if game.outcome(p) is None else [])
            classes_after[p] = {reduce(m.position) for m in moves} if ok else None
        return classes_after[p]

    for p, label, q in edges:
        found = before(q)
        if found is not None and reduce(p) not in found:
            unmoves.fail(f"move {label!r} leads from {fmt(p)} to {fmt(q)}, but unmoves({fmt(q)}) does not list {fmt(p)}")
    for q in reachable:
        for p in unmoves_of(q) or []:
            reached = after(p)
            if reached is not None and reduce(q) not in reached:
                unmoves.fail(f"unmoves({fmt(q)}) lists {fmt(p)}, but no move of {fmt(p)} reaches {fmt(q)}")


def _check_symmetric_solve(game: Game, symmetry: Check, graphs: _Graphs) -> None:
    """Generated and solved here, not through explorer.solved.build: build first refuses from the game's
    size estimate, an upper bound that can pass the limit when the real graph does not (connect4:small is
    estimated at 201,755 positions and has 161,029), while this check has already counted the real graph
    under `limit` (_explore), and the generator stops at that same limit. The two graphs are the game's
    default generator's (the array path when offered), which the arrays check compares with the generic
    path. O(V + E)."""
    from explorer.solver import solve

    full, reduced = graphs.get(symmetry=False), graphs.get(symmetry=True)
    full_solution, reduced_solution = solve(full), solve(reduced)
    for node in range(full.num_positions):
        twin = reduced.node_of(full.position(node))
        if twin is None:
            symmetry.fail(f"position {full.key(node)} has no class in the symmetry-reduced graph")
            continue
        a = _value(full_solution, node)
        b = _value(reduced_solution, twin)
        if a != b:
            symmetry.fail(f"position {full.key(node)} is {a} without symmetry but its class "
                          f"{reduced.key(twin)} is {b} with it")


class _Graphs:
    """The generated graphs of one check_game, each made once: the symmetry check solves the default
    generator's two graphs (with and without symmetry), which are the array path's when the game offers
    it, and the arrays check compares those same two with the generic path's (they were generated
    twice, once for each check). Each comparison still sets two
    separate computations side by side (full against reduced; array path against generic path). A
    generation that raises is not kept: the next check to ask gets its own exception."""

    def __init__(self, game: Game, limit: int) -> None:
        self.game, self.limit, self.made = game, limit, {}

    def get(self, symmetry: bool, use_arrays: bool | None = None):
        from explorer.graph import arrays_offered, generate

        symmetry = symmetry and self.game.has_symmetry()
        arrays = arrays_offered(self.game) if use_arrays is None else use_arrays
        if (symmetry, arrays) not in self.made:
            self.made[symmetry, arrays] = generate(self.game, symmetry=symmetry, use_arrays=arrays,
                                                   max_positions=self.limit)
        return self.made[symmetry, arrays]


def _value(solution, node: int) -> str:
    """A solved position's value and remoteness as the problem lines say them ("win in 3", "draw")."""
    from explorer.core.values import Value

    remoteness = int(solution.remoteness[node])
    return f"{Value(int(solution.value[node]))}" + ("" if remoteness < 0 else f" in {remoteness}")


def _check_arrays(game: Game, arrays: Check, graphs: _Graphs) -> None:
    for sym in ([True, False] if game.has_symmetry() else [False]):
        try:
            fast = graphs.get(symmetry=sym, use_arrays=True)
        except Exception as exc:
            arrays.fail(f"the array generator failed ({'with' if sym else 'without'} symmetry): "
                        f"{type(exc).__name__}: {exc}")
            continue
        slow = graphs.get(symmetry=sym, use_arrays=False)
        where = "with symmetry" if sym else "without symmetry"
        fast_keys, slow_keys = fast.keys(), slow.keys()  # once each: a key is format() of a position
        fast_edges, slow_edges = _edge_set(fast, fast_keys), _edge_set(slow, slow_keys)
        fast_nodes, slow_nodes = set(fast_keys), set(slow_keys)
        for edge in sorted(slow_edges - fast_edges)[:MAX_PER_CHECK]:
            arrays.fail(f"{where}: move {edge[1]!r} from {edge[0]!r} to {edge[2]!r} is missing from batch_moves")
        for edge in sorted(fast_edges - slow_edges)[:MAX_PER_CHECK]:
            arrays.fail(f"{where}: batch_moves has a move {edge[1]!r} from {edge[0]!r} to {edge[2]!r} "
                        "that moves() does not")
        for key in sorted(slow_nodes - fast_nodes)[:MAX_PER_CHECK]:
            arrays.fail(f"{where}: position {key!r} is reached by the generic path only")
        for key in sorted(fast_nodes - slow_nodes)[:MAX_PER_CHECK]:
            arrays.fail(f"{where}: position {key!r} is reached by the array path only")


def _edge_set(graph, keys: list[str]) -> set[tuple[str, str, str]]:
    """The graph's moves as (source key, label, target key); `keys` are graph.keys()."""
    sources = graph.edge_sources()
    return {(keys[int(s)], graph.label(e), keys[int(t)])
            for e, (s, t) in enumerate(zip(sources.tolist(), graph.succ_indices.tolist()))}


def _check_batch_columns(game: Game, reachable: list, columns: Check) -> None:
    """batch_columns over the reachable positions' codes (an even sample of BATCH_COLUMNS_SAMPLE when
    there are more) against format and fields one position at a time: the loaders write whichever the
    game offers (loaders/mirror.py), so both must give the same key, the same fields in the same order,
    the same values and the types the CSV writer writes alike (bool as true/false, int as digits).
    One line per broken column, naming its first bad code and key with both values. O(sample) calls."""
    import numpy as np

    if len(reachable) > BATCH_COLUMNS_SAMPLE:
        reachable = [reachable[int(i)] for i in np.linspace(0, len(reachable) - 1, BATCH_COLUMNS_SAMPLE)]
    codes = np.array([int(game.encode(p)) for p in reachable], dtype=np.int64)
    keys = [game.format(p) for p in reachable]
    given = [game.fields(p) for p in reachable]
    ok, result = _call(columns, lambda: f"batch_columns of {len(codes):,} codes",
                       lambda: game.batch_columns(codes.copy()))
    if not ok:
        return
    if not (isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], dict)):
        columns.fail(f"batch_columns gives {type(result).__name__}, not a pair (keys, dict of field arrays)")
        return
    batch_keys, batch_fields = np.asarray(result[0]), result[1]

    def first_bad(name: str, got: list, want: list, reference: str) -> None:
        bad = [i for i, (a, b) in enumerate(zip(got, want)) if a != b or _leaf_types(a) != _leaf_types(b)]
        if bad:
            i = bad[0]
            columns.fail(f"{name} differs at {len(bad):,} of {len(codes):,} codes; the first is code {codes[i]} "
                         f"(key {keys[i]!r}): batch_columns gives {got[i]!r}, {reference} gives {want[i]!r}")

    if batch_keys.shape != codes.shape:
        columns.fail(f"batch_columns gives keys of shape {batch_keys.shape} for {len(codes):,} codes")
    else:
        first_bad("the key", batch_keys.tolist(), keys, "format()")
    names = [tuple(fields) for fields in given]
    if len(set(names)) > 1:
        i = next(i for i, n in enumerate(names) if n != names[0])
        columns.fail(f"fields() names {list(names[i])} at code {codes[i]} (key {keys[i]!r}) but {list(names[0])} "
                     f"at code {codes[0]} (key {keys[0]!r}): batch columns need the same fields everywhere")
        return
    expected = list(names[0]) if names else []
    if list(batch_fields) != expected:
        columns.fail(f"batch_columns gives the fields {list(batch_fields)}, fields() gives {expected} "
                     "(the same names in the same order)")
    for name in (name for name in expected if name in batch_fields):
        values = np.asarray(batch_fields[name])
        want = [_leaves(fields[name]) for fields in given]
        kinds = {kind for value in want for kind in _leaf_types(value)}
        if values.shape[:1] != codes.shape:
            columns.fail(f"field {name!r}: batch_columns gives an array of shape {values.shape} for "
                         f"{len(codes):,} codes")
            continue
        if values.dtype.kind not in "biu" or (values.dtype.kind == "b") != (kinds == {bool}):
            columns.fail(f"field {name!r}: batch_columns gives {values.dtype} values, fields() gives "
                         f"{' and '.join(sorted(k.__name__ for k in kinds)) or 'nothing'}: a flag must be a bool "
                         "array and a number an integer array, as the CSV writer writes them")
            continue
        rows = values.reshape(len(values), -1).tolist() if values.ndim > 1 else values.tolist()
        first_bad(f"field {name!r}", rows, want, "fields()")


def _leaves(value: Any) -> Any:
    """A field value as the loaders store it: nested lists and tuples flattened into one list
    (loaders.mirror.flatten, a layer above this one), a scalar as it is."""
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in (_leaves(item) if isinstance(item, (list, tuple)) else [item])]
    return value


def _leaf_types(value: Any) -> tuple:
    """The Python types of a value's leaves in order: True == 1, but the CSV writes true, not 1."""
    return tuple(map(type, value)) if isinstance(value, list) else (type(value),)
