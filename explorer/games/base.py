"""The Game interface: one small module per game, registered by name.

A game declares its name, a frozen parameters dataclass (the single place its
parameters, defaults and limits are written) and its presets. Rules are pure
functions over immutable, hashable positions. Moves alternate between the two
players, so a move's value for the mover is its successor's value flipped.

Writing a game (docs/your-own-game.md walks through one):

- required: ``name``, ``description``, ``Params`` (a frozen ``Params`` dataclass,
  fields declared with ``param``), ``start``, ``to_move``, ``outcome``, ``moves``,
  ``format`` and ``parse`` (a notation that round-trips);
- what it offers beyond the rules, declared once as data: ``offers = Offers(...)``
  (below), every capability listed, False or None where absent. Generic code
  reads the declaration and nothing else; ``Game.__init_subclass__`` checks at
  class creation that each declared capability's methods exist, and is the one
  place a class's methods are looked at (a class that does not declare inherits
  its parent's declaration, updated by the ``board_svg`` method or
  ``player_names`` it defines; a direct subclass of Game offers the rules only);
- optional methods with defaults: ``fields`` (extra exported properties),
  ``ending`` (why a finished game ended, shown in play), ``presets``,
  ``notation_help`` (an instance may set its own, so that its example is a position
  of its parameters), ``estimate_positions``/``estimate_moves``,
  ``has_symmetry`` (whether these parameters have a symmetry), ``survey_meaningful``.
  ``gamegraph check-game`` checks every promise the declaration makes.

A game is registered by ``@register`` in explorer/games, by a file given with
``--game-module`` / ``GAMEGRAPH_GAME_MODULES``, or by an entry point of the group
``gamegraph.games`` (explorer/games/plugins.py). The UI draws its positions as
``offers.board`` says: the game's own ``board_svg`` method, a drawing module of
explorer/ui/boards, or (None) its notation.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Hashable, Iterable, NamedTuple, Sequence, TypeVar

from explorer.core.bounds import MAX_NOTATION_LENGTH, whole_number
from explorer.core.errors import GameGraphError, InvalidParameter, InvalidPosition, shown
from explorer.core.values import Value

if TYPE_CHECKING:  # numpy is imported where arrays are made: `gamegraph --help` and `games` need no arrays (issue 34)
    import numpy as np

P = TypeVar("P", bound=Hashable)



def param(default: Any, help: str, *, choices: Sequence[str] | None = None,
          minimum: int | None = None, maximum: int | None = None) -> Any:
    """Declare a game parameter: its default, one-line help and its limits."""
    return field(default=default, metadata={
        "help": help, "choices": tuple(choices) if choices else None,
        "minimum": minimum, "maximum": maximum})


@dataclass(frozen=True)
class Params:
    """Base of every game's parameters: validates each field against its declared limits."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            meta = f.metadata
            if meta.get("choices") and value not in meta["choices"]:
                raise InvalidParameter(
                    f"{f.name}={value!r} is not valid: choose one of {', '.join(meta['choices'])}")
            if isinstance(value, bool):
                continue
            numbers = value if isinstance(value, tuple) else (value,)
            for number in numbers:
                if not isinstance(number, int):
                    continue
                if meta.get("minimum") is not None and number < meta["minimum"]:
                    raise InvalidParameter(f"{f.name}={format_value(value)} is too small: the minimum is {meta['minimum']}")
                if meta.get("maximum") is not None and number > meta["maximum"]:
                    raise InvalidParameter(f"{f.name}={format_value(value)} is too large: the maximum is {meta['maximum']}")
        self.validate()

    def validate(self) -> None:
        """Checks that involve several parameters; override where needed."""

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Name, type, default, help and limits of every parameter, for `gamegraph games`."""
        rows = []
        for f in dataclasses.fields(cls):
            rows.append({"name": f.name, "type": type_name(f.type), "default": format_value(f.default),
                         "help": f.metadata.get("help", ""), "choices": f.metadata.get("choices"),
                         "minimum": f.metadata.get("minimum"), "maximum": f.metadata.get("maximum")})
        return rows


def type_name(annotation: Any) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return {"tuple[int, ...]": "list of int (a-b-c)"}.get(text, text)


def format_value(value: Any) -> str:
    """Text form of a parameter value, as written in a game spec."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "-".join(str(v) for v in value)
    return str(value)


def parse_value(params_cls: type[Params], name: str, text: str) -> Any:
    """Parse the text of parameter `name` to the type its dataclass field declares."""
    fields = {f.name: f for f in dataclasses.fields(params_cls)}
    kind = type_name(fields[name].type)
    text = text.strip()
    try:
        if kind == "bool":
            lowered = text.lower()
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
            raise ValueError
        if kind == "int":
            return whole_number(text, name)
        if kind.startswith("list of int"):
            return tuple(whole_number(part, name) for part in text.split("-"))
    except ValueError as error:
        detail = str(error).partition(" has ")[2]  # whole_number's "... has 20 digits; at most 9 are allowed"
        raise InvalidParameter(f"{name}={shown(text)} is not a valid {kind}"
                               + (f": it has {detail}" if detail else "")) from None
    return text


def player_name(game: "Game", index: int) -> str:
    """How players are called in a game: the names it declares (`offers.player_names`), else A and B."""
    names = game.offers.player_names
    return str(names[index]) if names else ("A", "B")[index]


OWN_DRAWING = "board_svg"  # Offers.board: the game draws itself with its method board_svg(position, links)


@dataclass(frozen=True)
class CgtValues:
    """A game's combinatorial values (explorer/cgt), offered through four hooks:
    ``cgt_board(position)`` (the position without the side to move), ``cgt_position(board,
    side)`` (Left = side 0 to move), ``format_board(board)`` and ``parse_board(text)``."""

    HOOKS: ClassVar[tuple[str, ...]] = ("cgt_board", "cgt_position", "format_board", "parse_board")

    impartial: bool  # both sides always have the same options, so every value is a nimber (Nim)


@dataclass(frozen=True)
class StrategyChart:
    """A game's strategy chart (explorer/render/chart.py: `gamegraph chart`, the page's Strategy chart view):
    every position of ``iter_positions()`` solved, one row per side the mover holds and one column per side
    the opponent holds, each cell the mover's value and best move. Offered through three hooks:
    ``iter_positions()`` (the positions covered, reachable from the start or not),
    ``chart_sides(position)`` (the mover's side and the opponent's, each a tuple of ints, shown as a-b:
    a canonical position's) and ``chart_position(mover, mine, theirs)`` (the position back); and
    ``chart_move(label)`` (optional: a move's label as short as a cell allows)."""

    HOOKS: ClassVar[tuple[str, ...]] = ("iter_positions", "chart_sides", "chart_position")

    size: str  # the whole-number parameter that sets how many sides there are (Chopsticks: fingers)
    page_maximum: int  # the largest `size` the page draws: a bigger chart does not fit a page
    sides: str = "sides"  # what a row's and a column's side is, in words (Chopsticks: "hands")
    moves: str = ""  # how a cell's move reads, in words, for the legend ("" when the labels say it)


@dataclass(frozen=True)
class Survey:
    """A game's survey heatmap (the page's Survey view, explorer/ui/analysis_panel.py): every rule set
    of the game (explorer/analysis/survey.grid) solved, one row per rule set, one column per value of the
    whole-number parameter `axis`, each cell coloured by the start's value; `span` bounds the page's
    range of `axis` and `shown` is the range it starts on. A row is named by the game's
    ``survey_rules(params)`` (the parameters other than `axis`, name=value, unless it says better).
    `gamegraph survey` surveys any game; this declares the page's heatmap."""

    axis: str
    span: tuple[int, int]
    shown: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class Offers:
    """What a game offers beyond its rules, declared once per game class as ``offers = Offers(...)``.

    Like OpenSpiel's GameType or GamesmanOne's game struct: every field is written out,
    False or None where the game offers nothing. A True field promises methods (listed
    in NEEDS), checked when the class is created. Instances can still narrow a
    capability for their parameters: ``code_space()`` None (a board too large for
    arrays) and ``has_symmetry()`` False (a single Nim heap).

    - arrays: integer codes (``code_space``/``encode``/``decode``) and the ``batch_*``
      methods, so the graph is generated over arrays (explorer/graph.py);
    - compiled_moves: ``compiled_moves``, a numba kernel for ``batch_moves`` (needs arrays);
    - ranking: the integer codes number every position, symmetric ones included
      (``is_valid_code`` False where a code is no legal position): a perfect ranking,
      also spelled ``index_space``/``rank``/``unrank``/``is_valid_index``;
    - unmoves: ``unmoves``, the inverse of ``moves``;
    - implicit_kernels: ``implicit_kernels``, the ranking and un-moves compiled: the
      implicit mode (explorer/implicit.py; needs ranking and unmoves);
    - symmetry: ``canonical`` reduces positions by the game's symmetries;
    - cgt: combinatorial values (CgtValues and its hooks), or None;
    - board: how the UI draws a position: OWN_DRAWING (``"board_svg"``, the game's own
      method ``board_svg(position, links)``), the name of a module of explorer/ui/boards
      with ``svg(game, position, links)``, or None (the notation is shown);
    - player_names: the two players' names, or None (A and B);
    - swap_players: ``swap_players(position)`` exchanges the players, a symmetry of the
      rules (position-graph diagrams merge the twins);
    - diagram_label: ``diagram_label(position)``, the board in a few lines for diagram nodes;
    - tiers: ``tiers()``, a partition of the ranking into tiers (Tiers) for the tiered solver
      (explorer/tiered/; needs implicit_kernels). A field with a default (False): a game
      without tiers is solved as one tier;
    - folded: ``implicit_kernels()`` are folded by the colour swap (ImplicitKernels.folded): they
      cover the first half of the ranking, so the implicit mode solves ``index_space() // 2``
      indices (``Game.implicit_size``, known without building the kernels; needs
      implicit_kernels). A field with a default (False): most games do not fold;
    - batch_columns: ``batch_columns(codes)``, every code's key and game fields at once, as
      arrays (needs arrays): the loaders' position columns without a Python call per position
      (loaders/mirror.py; the same values as ``format``/``fields`` one position at a time,
      tests/games/test_batch_columns.py). A field with a default (False): a game without it is
      read one position at a time.
    - named_cells: the moves name the board's cells by file (a, b, ... from the left) and rank (1, 2, ...
      from the bottom) in a notation of rows, ``MOVER|top/.../bottom`` (explorer/games/square_board.py's):
      diagrams' boards (``gamegraph dot --boards``) and ``gamegraph play``'s terminal board carry the names
      (explorer/render/boards.py). A field with a default (False);
    - named_files: the moves name the board's columns alone, a, b, ... from the left (Connect Four's drops,
      "a"): diagrams' boards carry the files under them. A field with a default (False);
    - chart: a strategy chart (StrategyChart and its hooks), or None. A field with a default (None);
    - survey: the page's survey heatmap (Survey: its column parameter and range), or None. A field
      with a default (None): `gamegraph survey` surveys every game, the page draws the heatmap of
      those that declare it.
    - board_px: the least width on screen, in px, of a canvas node whose board drawing (``board``) can be read:
      below it the canvas draws the node as a glyph in its value colour (explorer/ui/static/canvas_view.js, 18).
      A board's readable size depends on its cells and marks: Dōbutsu's tall 3x4 board with its two hands and
      lettered pieces needs far more than tic-tac-toe's crosses. A field with a default (None: the canvas's
      default, explorer/ui/canvas/marks.py MIN_BOARD_PX).
    - solve_bytes: the most bytes an index the implicit mode's solve of this game holds at once: its 2-byte cell
      and its share of the queue, the level sort's scratch included, as measured on the game with a margin (the
      measurement named beside the declaration). The memory asked for before the solve (explorer/implicit.py
      check_memory), which the solve then watches between its steps. A field with a default (None: the worst
      case, a cell and a 4-byte queue entry an index, implicit.BYTES_PER_INDEX_SOLVING). Needs implicit_kernels.
    """

    arrays: bool
    compiled_moves: bool
    ranking: bool
    unmoves: bool
    implicit_kernels: bool
    symmetry: bool
    cgt: CgtValues | None
    board: str | None
    player_names: tuple[str, str] | None
    swap_players: bool
    diagram_label: bool
    tiers: bool = False
    folded: bool = False
    batch_columns: bool = False
    named_cells: bool = False
    named_files: bool = False
    chart: StrategyChart | None = None
    survey: Survey | None = None
    board_px: int | None = None
    solve_bytes: float | None = None

    CODES: ClassVar[tuple[str, ...]] = ("code_space", "encode", "decode")
    NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "arrays": (*CODES, "batch_moves", "batch_outcomes", "batch_to_move", "batch_label"),
        "compiled_moves": ("compiled_moves",),
        "ranking": CODES,
        "unmoves": ("unmoves",),
        "implicit_kernels": ("implicit_kernels",),
        "symmetry": ("canonical",),
        "cgt": CgtValues.HOOKS,
        "swap_players": ("swap_players",),
        "diagram_label": ("diagram_label",),
        "tiers": ("tiers",),
        "batch_columns": ("batch_columns",),
        "chart": StrategyChart.HOOKS,
    }
    REQUIRES: ClassVar[dict[str, tuple[str, ...]]] = {
        "compiled_moves": ("arrays",), "implicit_kernels": ("ranking", "unmoves"), "tiers": ("implicit_kernels",),
        "folded": ("implicit_kernels",), "batch_columns": ("arrays",),
        "solve_bytes": ("implicit_kernels",)}

    def missing(self, cls: type) -> str | None:
        """What `cls` lacks to keep this declaration, as one line; None when nothing. O(fields)."""
        for name, requires in self.REQUIRES.items():
            for other in requires:
                if getattr(self, name) and not getattr(self, other):
                    return f"declares {name}=True without {other}=True"
        needs = dict(self.NEEDS)
        if self.board == OWN_DRAWING:
            needs["board"] = (OWN_DRAWING,)
        for name, methods in needs.items():
            if getattr(self, name) not in (False, None):
                for method in methods:
                    if not _defines(cls, method):
                        return f"declares {name} in its offers but has no method {method}()"
        for what, parameter in (("chart", self.chart and self.chart.size), ("survey", self.survey and self.survey.axis)):
            if parameter and not _whole_parameter(cls, parameter):
                return f"declares a {what} over {parameter!r}, which is not a whole-number parameter of its Params"
        declared = self.solve_bytes
        if declared is not None and not (isinstance(declared, (int, float)) and not isinstance(declared, bool)
                                         and 0 < declared < float("inf")):
            return f"declares solve_bytes={declared!r}: a positive number of bytes an index is needed"
        names = self.player_names
        if names is not None and not (isinstance(names, tuple) and len(names) == 2
                                      and all(isinstance(n, str) for n in names)):
            return f"declares player_names={names!r}: two names are needed, e.g. (\"Black\", \"White\")"
        return None


def _whole_parameter(cls: type, name: str) -> bool:
    """Whether `cls.Params` declares `name` as a whole-number parameter (class creation only)."""
    params = getattr(cls, "Params", None)
    fields = {f.name: f for f in dataclasses.fields(params)} if dataclasses.is_dataclass(params) else {}
    return name in fields and type_name(fields[name].type) == "int" and not fields[name].metadata.get("choices")


def _defines(cls: type, method: str) -> bool:
    """Whether `cls` has `method` of its own, not Game's placeholder (class creation only)."""
    found = getattr(cls, method, None)
    return callable(found) and found is not getattr(Game, method, None)


GENERIC = Offers(arrays=False, compiled_moves=False, ranking=False, unmoves=False, implicit_kernels=False,
                 symmetry=False, cgt=None, board=None, player_names=None, swap_players=False, diagram_label=False)


@dataclass(frozen=True)
class Move(Generic[P]):
    """A legal move: a short human label and the position it leads to."""

    label: str
    position: P


# A move drawn into a position shown as another orientation of the board it leaves (Game.orient): the
# mark after its name, on the canvas, in the neighbourhood's tables and diagrams.
MIRRORED_MARK = " ⇄"


class CompiledGenerator(NamedTuple):
    """A game's fused generation pass (Game.compiled_generator): `expand` is its cached wrapper
    of explorer.kernels.bfs.expand_positions (same arguments after `ctx` and `symmetry`),
    `ctx` the int64 parameters it reads, `max_moves` a bound on one position's moves,
    `scratch` the length of the int64 scratch array its moves function may use."""

    expand: Callable
    ctx: Any
    max_moves: int
    scratch: int = 0


@dataclass(frozen=True)
class MoveBatch:
    """Moves of many positions at once, as arrays (the fast generation path).

    `source[i]` indexes the input codes, `target[i]` is the successor's canonical
    code and `label[i]` an integer that `Game.batch_label` turns into text.
    A batch grouped by source may give `starts` instead (int64[len(codes)+1]:
    the moves of codes[r] are target[starts[r]:starts[r+1]]) and source None.
    """

    source: np.ndarray | None
    target: np.ndarray
    label: np.ndarray
    starts: np.ndarray | None = None


class Tiers(NamedTuple):
    """A partition of a game's ranking into tiers (offers.tiers), as GamesmanOne splits a game.

    Tier t is the index range [offsets[t], offsets[t + 1]) of the game's ranking (so each
    tier has its own perfect ranking: index - offsets[t]). Every move from a position in
    tier t stays in tier t (cycles inside a tier are allowed) or goes to a tier listed in
    children[t]; the child relation is a DAG. names[t] says what the tier is ("4 pieces",
    "movement"). loop_free[t] (optional; () says nothing) declares that no move stays in tier t:
    such a tier with at most one child is solved in one pass forward over its successors, on
    every core, instead of by the retrograde loop. check-game verifies the declaration;
    explorer/tiered/ solves children first.
    """

    offsets: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    loop_free: tuple[bool, ...] = ()


class ImplicitKernels(NamedTuple):
    """A game's compiled kernels for the implicit-graph mode (explorer/implicit.py).

    Every function is numba-compiled (``@njit(cache=True)``) and takes the game's
    int64 context array `ctx` first (its parameters and tables), then an index in
    range(size) of the game's perfect ranking (`Game.rank`):

    - ``successors(ctx, index, out) -> count``: writes the distinct successors'
      indices into `out` (length `max_moves`), in `Game.moves` order;
    - ``labelled_successors(ctx, index, out, labels) -> count``: the same, plus an
      integer label per move that `Game.batch_label` turns into text;
    - ``predecessors(ctx, index, out) -> count``: the un-moves, ranked: every
      distinct index with a move to `index` (length `max_unmoves`);
    - ``move_count(ctx, index) -> int``: the number of distinct successors (0 exactly
      on finished positions: the solver asks `terminal` only there);
    - ``terminal(ctx, index) -> int``: the Value for the player to move when the
      game is over there, else -1;
    - ``valid(ctx, index) -> bool``: whether the index is a legal position;
    - ``solve(ctx, max_unmoves, cells, queue, state, budget, lo, seeds, seed_runs) -> status`` (optional): the one retrograde
      kernel compiled with these functions (explorer.kernels.retrograde.solve_cells), made
      at the top level of the game's kernels module so that numba caches it (one line:
      explorer.kernels.ranked.cached_wrappers, which also makes the three below); without it
      the implicit mode compiles one per process (explorer.kernels.retrograde.implicit_wrapper);
    - ``forward(ctx, max_moves, lo, cells, child_lo, child_cells, status) -> status`` (optional):
      the one-pass solve of a loop-free tier (explorer.kernels.retrograde.forward_cells) compiled
      with these functions and cached likewise (else forward_wrapper compiles one per process);
    - ``moves_of(ctx, max_moves, codes, sources, targets, labels) -> count`` and
      ``terminal_of(ctx, codes, out)`` (optional, together): the batch helpers of
      explorer.kernels.implicit compiled with these functions and cached, likewise.
    The retrograde solver trusts them: tests/explorer/test_implicit.py checks every game's
    kernels against its Python `moves`, `rank` and `unmoves`.

    ``folded`` (the colour-swap fold): the kernels cover only the first half of a ranking of
    2 * `size` indices in which index i + size is the colour-swapped twin of index i (the same
    position with the players exchanged: the same value and remoteness for the player to move).
    Every function then takes an index of the half, and `successors` and `predecessors` return
    indices folded into it (`fold_index`); the implicit mode solves and stores the half only
    (explorer.implicit). Dōbutsu shōgi, whose ranking is Tanaka's with the mover as its top digit.
    """

    ctx: Any
    size: int
    max_moves: int
    max_unmoves: int
    successors: Callable
    labelled_successors: Callable
    predecessors: Callable
    move_count: Callable
    terminal: Callable
    valid: Callable
    solve: Callable | None = None
    forward: Callable | None = None
    moves_of: Callable | None = None
    terminal_of: Callable | None = None
    folded: bool = False

    def fold_index(self, index: int) -> int:
        """An index of the game's ranking as the kernels number it: its twin's in the first half
        when `folded`, else itself."""
        return index - self.size if self.folded and index >= self.size else index

    def _batch_kernels(self) -> tuple[Callable, Callable]:
        if self.moves_of is not None and self.terminal_of is not None:
            return self.moves_of, self.terminal_of
        pair = (self.labelled_successors, self.terminal)
        made = _BATCH_FALLBACKS.get(pair)
        if made is None:  # compiled once per process and game functions, not at every batch (Dobutsu small:
            from explorer.kernels.implicit import batch_wrappers  # 10.6 s of CPU per generate, now 1.2 s once)

            made = _BATCH_FALLBACKS[pair] = batch_wrappers(*pair)
        return made

    def batch_moves(self, codes) -> MoveBatch:
        """A MoveBatch of every move of many indices, through the compiled kernels. O(moves)."""
        import numpy as np

        codes = np.ascontiguousarray(codes, dtype=np.int64)
        room = len(codes) * self.max_moves
        sources = np.empty(room, dtype=np.int64)
        targets = np.empty(room, dtype=np.int64)
        labels = np.empty(room, dtype=np.int64)
        total = self._batch_kernels()[0](self.ctx, self.max_moves, codes, sources, targets, labels)
        return MoveBatch(sources[:total].copy(), targets[:total].copy(), labels[:total].copy())

    def batch_terminal(self, codes) -> np.ndarray:
        """int8 terminal value (-1: not over) of many indices, through the compiled kernels. O(len(codes))."""
        import numpy as np

        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty(len(codes), dtype=np.int8)
        self._batch_kernels()[1](self.ctx, codes, out)
        return out


# The uncached batch helpers (explorer.kernels.implicit.batch_wrappers) of the games whose kernels module
# offers none, by their (labelled_successors, terminal): numba compiles a fresh closure at every call of it.
_BATCH_FALLBACKS: dict[tuple[Callable, Callable], tuple[Callable, Callable]] = {}


class Game(Generic[P]):
    """A two-player game with alternating moves. Subclasses declare:

    name, description, Params (a frozen Params dataclass), presets (name -> dict
    of parameter values), and implement the rule functions below.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    Params: ClassVar[type[Params]]
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    notation_help: ClassVar[str] = ""
    offers: ClassVar[Offers] = GENERIC  # what the game offers beyond its rules: declared once per game
    # Raised by a game whose ranking (`encode`/`decode`) comes to order its indices differently: every file
    # that stores indices (implicit value files, tier files, cached graphs' codes) is keyed by `stored_id`,
    # so a file of the old order is another file, never read in the new one, and no other game's files move.
    ranking_version: ClassVar[int] = 0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """At class creation, once: the declaration (`offers`) is settled and checked, and `parse`
        is wrapped.

        The one place a game class's methods are looked at. A class that does not assign
        `offers` inherits its parent's declaration, updated by what its own body defines of
        the presentational hooks: a `board_svg` method (board=OWN_DRAWING) and a
        `player_names` attribute. A declared capability whose methods are missing is one
        GameGraphError line naming the game and the method.

        Every game's `parse` is wrapped by `checked_notation`: whatever a game module does
        (built in, added later, or a plug-in), its parser never sees text that is not a str of
        sane length."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "offers" not in own:
            changes: dict[str, Any] = {}
            if callable(own.get(OWN_DRAWING)):
                changes["board"] = OWN_DRAWING
            if own.get("player_names") is not None:
                changes["player_names"] = tuple(own["player_names"])
            if changes:
                cls.offers = dataclasses.replace(cls.offers, **changes)
        if not isinstance(cls.offers, Offers):
            raise GameGraphError(f"game {cls._label()!r}: offers must be an Offers(...) declaration, "
                                 f"not {type(cls.offers).__name__}")
        problem = cls.offers.missing(cls)
        if problem:
            raise GameGraphError(f"game {cls._label()!r} {problem}")
        parse = cls.__dict__.get("parse")
        if parse is not None and not getattr(parse, "_checks_notation", False):
            @functools.wraps(parse)
            def checked_parse(self: Game, text: str) -> Any:
                return parse(self, self.checked_notation(text))
            checked_parse._checks_notation = True  # type: ignore[attr-defined]
            cls.parse = checked_parse  # type: ignore[method-assign]

    @classmethod
    def _label(cls) -> str:
        """The game's name for messages about the class itself (its class name before it has one)."""
        name = getattr(cls, "name", None)
        return name if isinstance(name, str) else cls.__qualname__

    def checked_notation(self, text: Any) -> str:
        """`text` if it can be a position of this game: a non-empty str of at most MAX_NOTATION_LENGTH
        characters without control characters; InvalidPosition otherwise. O(len(text))."""
        if not isinstance(text, str):
            raise InvalidPosition(f"a {self.name} position is text, not {type(text).__name__}")
        if len(text) > MAX_NOTATION_LENGTH:
            raise self.invalid(text, f"too long for a position (at most {MAX_NOTATION_LENGTH:,} characters)")
        if not text.strip():
            raise self.invalid(text, "malformed (empty)")
        if any(ord(c) < 32 or ord(c) == 127 for c in text):
            raise self.invalid(text, "malformed (control characters)")
        return text

    def __init__(self, params: Params | None = None, preset: str | None = None):
        self.params = params if params is not None else self.Params()
        self.preset = preset

    # -- identity ---------------------------------------------------------
    @property
    def id(self) -> str:
        """Canonical spec: every parameter spelled out, in declaration order."""
        parts = [f"{f.name}={format_value(getattr(self.params, f.name))}" for f in dataclasses.fields(self.params)]
        return f"{self.name}({','.join(parts)})" if parts else self.name

    @property
    def stored_id(self) -> str:
        """What files of this game's indices are keyed by: `id`, and the ranking's version once it has one."""
        return f"{self.id}|ranking {self.ranking_version}" if self.ranking_version else self.id

    def preset_name(self) -> str | None:
        """The preset whose values give exactly these parameters, else None."""
        for preset, values in self.presets.items():
            if self.Params(**values) == self.params:
                return preset
        return None

    @property
    def display_name(self) -> str:
        """Short spec for people: the preset name when the parameters match it exactly; the bare name
        for the preset called default and for a game without parameters (one rule set: tictactoe)."""
        preset = self.preset_name()
        if preset is not None:
            plain = preset == "default" or not dataclasses.fields(self.params)
            return self.name if plain else f"{self.name}:{preset}"
        defaults = self.Params()
        changed = [f"{f.name}={format_value(getattr(self.params, f.name))}" for f in dataclasses.fields(self.params)
                   if getattr(self.params, f.name) != getattr(defaults, f.name)]
        return f"{self.name}({','.join(changed)})" if changed else self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.display_name}>"

    # -- rules (pure functions of the position) ----------------------------
    def start(self) -> P:
        raise NotImplementedError

    def to_move(self, position: P) -> int:
        """0-based index of the player to move."""
        raise NotImplementedError

    def outcome(self, position: P) -> Value | None:
        """The result for the player to move if the game is over, else None."""
        raise NotImplementedError

    def ending(self, position: P) -> str | None:
        """Why the game is over at `position`, in the game's own words and its players' names (never
        "you": the reader may be either player), e.g. Dōbutsu shōgi's "B's giraffe on b3 can take A's
        lion on b2: taking the lion wins, so the game ends before the capture"; None when the game is not
        over or gives no reason. Play (explorer.play, the UI's Play panel, `gamegraph play`) shows it
        under the result. Optional: the default gives no reason."""
        return None

    def moves(self, position: P) -> list[Move[P]]:
        """Legal moves of a position that is not over (successors not canonicalised)."""
        raise NotImplementedError

    def canonical(self, position: P) -> P:
        """The representative of the position's symmetry class (identity by default; offers.symmetry)."""
        return position

    def has_symmetry(self) -> bool:
        """Whether these parameters have a symmetry to reduce by: the declaration's `symmetry` by
        default; a game narrows it for parameters without one (a single Nim heap)."""
        return self.offers.symmetry

    # -- one canonical key per position, and a shown orientation that follows the moves ----------
    # The graph stores each position once, as its canonical key, and each move with the label it
    # has from that key. A line of play shown as those keys jumps between orientations (tic-tac-
    # toe's "X a3" leads to a key with X on c1). These two methods replay a line on the board as
    # shown, so that each board is the one before it with the move named applied.
    def shown_move(self, shown: P, label: str | None, successor_key: str) -> Move[P]:
        """The move from the board as shown (`shown`, any orientation) to the position whose key is
        `successor_key`, named as it is played on that board, with the board it leaves.

        `label` is the move's label in the stored graph (named from the canonical key of `shown`);
        among the moves of `shown` that reach `successor_key` (compared by canonical key) the one of
        that label is kept when there is one, else the one reaching exactly `successor_key` (a graph
        built without symmetry reduction), else the first. Without a symmetry the move is the
        stored one. O(moves of `shown`).
        """
        if not self.has_symmetry():
            return Move(label or "", self.parse(successor_key))
        target = self.key(self.parse(successor_key))
        reaching = [move for move in self.moves(shown) if self.key(move.position) == target]
        named = [move for move in reaching if move.label == label]
        exact = [move for move in reaching if self.format(move.position) == successor_key]
        if named or exact or reaching:  # exact: a graph without symmetry reduction keeps every orientation
            return (named or exact or reaching)[0]
        # No rule reaches it (a game whose moves and graph disagree; check-game finds that): the key.
        return Move(label or "", self.parse(successor_key))

    def shown_line(self, keys: Sequence[str], labels: Sequence[str | None],
                   start: P | None = None, end: P | None = None) -> list[tuple[P, str | None]]:
        """A line of stored keys (`keys[i + 1]` reached from `keys[i]` by the move stored as
        `labels[i]`) as played on one board: [(position as shown, label of the move into it as
        named from the board before)], starting with (`start` or the first key's position, None).

        Each shown position has the key `keys[i]` and is the previous one with the move named
        applied. A cycle may come back in another orientation of its first position. O(moves
        along the line).

        With `end` (a position whose key is the last key: the board a user asked the line to reach),
        the line ends on exactly that board when some playing of these keys from the start does
        (`_line_to`); else it is the line without `end`, whose last board is then another
        orientation of `end` (the caller compares). O(moves along the line x orientations).
        """
        if not keys:
            return []
        here = start if start is not None else self.parse(keys[0])
        line: list[tuple[P, str | None]] = [(here, None)]
        for key, label in zip(keys[1:], labels):
            move = self.shown_move(here, label, key)
            here = move.position
            line.append((here, move.label))
        if end is not None and self.format(line[-1][0]) != self.format(end):
            return self._line_to(keys, line, end) or line
        return line

    def orient(self, edges: Sequence[tuple[str, str | None, str]], shown: dict[str, P],
               stored: Callable[[str], P] | None = None) -> list[tuple[str | None, bool]]:
        """A graph of stored keys (a neighbourhood, the canvas) drawn in the orientation that follows the
        moves: each move named as played on the board drawn at its start (`shown_move`), as the moves
        table and `shown_line` name it. Returns, per edge of `edges` ((from key, label as stored, to key),
        in their order), (its name as played, whether its end is drawn as another orientation of the board
        it leaves: a move marked MIRRORED_MARK). `shown` (key -> board) holds the boards already drawn (the
        position as typed, a canvas's earlier nodes) and gets each newly drawn one.

        The graph stores a position and its mirror images as one key, each move labelled on that key.
        Breadth first from the boards in `shown`, a key reached by a move is drawn as the board that move
        leaves (the first move found); a part no drawn move reaches starts from its board as stored
        (`stored(key)`, else `parse(key)`); a key no edge leaves nor reaches is left to the caller (as
        stored). A move whose board differs from the one its end is drawn as (the same position by another
        way, mirrored or turned) is marked mirrored. Without a symmetry every board is the stored one: the
        labels come back as they are, nothing marked, `shown` untouched. O(edges x moves of a position) rule calls."""
        played: list[tuple[str | None, bool]] = [(label, False) for _, label, _ in edges]
        if not self.has_symmetry():
            return played
        board_of = stored if stored is not None else self.parse
        leaving: dict[str, list[int]] = {}
        for i, (source, _, _) in enumerate(edges):
            leaving.setdefault(source, []).append(i)
        queue = sorted(source for source in leaving if source in shown)  # breadth first: read from `at` on
        at = 0
        pending = sorted(leaving)
        done: set[str] = set()
        while at < len(queue) or pending:
            if at == len(queue):  # a part no drawn move reaches from what is drawn: it starts as stored
                source = pending.pop()
                if source in done:
                    continue
                if source not in shown:
                    shown[source] = board_of(source)
                queue.append(source)
            source = queue[at]
            at += 1
            if source in done:
                continue
            done.add(source)
            for i in leaving.get(source, []):
                _, label, target = edges[i]
                move = self.shown_move(shown[source], label, target)
                mirrored = False
                if target not in shown:
                    shown[target] = move.position
                    queue.append(target)
                elif target != source and self.format(shown[target]) != self.format(move.position):
                    mirrored = True
                played[i] = (move.label or label, mirrored)
        return played

    def _line_to(self, keys: Sequence[str], line: list[tuple[P, str | None]],
                 end: P) -> list[tuple[P, str | None]] | None:
        """The keys played from `line`'s first board so as to end on exactly `end`, or None when no
        playing of them does. Every board with key `keys[i]` that a move takes from a board of step
        i - 1 is followed (at most one per orientation of the position, so the symmetry group's size
        at each step), `line`'s own board first, so a line that can keep `line`'s boards and names does;
        then the one reaching `end` is read back. O(len(keys) x orientations x moves) rule calls."""
        wanted = self.format(end)
        layers: list[dict[str, tuple[P, str | None, str | None]]] = [
            {self.format(line[0][0]): (line[0][0], None, None)}]
        for i, key in enumerate(keys[1:], start=1):
            target = self.key(self.parse(key))
            ahead: dict[str, tuple[P, str | None, str | None]] = {}
            preferred = self.format(line[i][0])
            for text, (board, _, _) in layers[-1].items():
                for move in self.moves(board):
                    reached = self.format(move.position)
                    if reached not in ahead and self.key(move.position) == target:
                        ahead[reached] = (move.position, text, move.label)
            if not ahead:
                return None
            if preferred in ahead:  # the plain line's board first: ties keep its names
                ahead = {preferred: ahead[preferred], **ahead}
            layers.append(ahead)
        if wanted not in layers[-1]:
            return None
        played: list[tuple[P, str | None]] = []
        text: str | None = wanted
        for layer in reversed(layers):
            board, text, label = layer[text]
            played.append((board, label))
        return played[::-1]

    # -- notation -----------------------------------------------------------
    def format(self, position: P) -> str:
        raise NotImplementedError

    def parse(self, text: str) -> P:
        """Inverse of `format`; raises InvalidPosition for malformed or illegal text."""
        raise NotImplementedError

    def key(self, position: P, symmetry: bool = True) -> str:
        """The canonical key of a position: its notation after symmetry reduction."""
        return self.format(self.canonical(position) if symmetry else position)

    def fields(self, position: P) -> dict[str, Any]:
        """Extra, game-specific properties of a position (exported and loaded)."""
        return {}

    def invalid(self, text: str, why: str) -> InvalidPosition:
        hint = f" (notation: {self.notation_help})" if self.notation_help else ""
        return InvalidPosition(f"invalid {self.name} position {shown(text)}: {why}{hint}")

    def count(self, text: str, text_of_position: str, what: str = "number") -> int:
        """A number inside a position's notation, bounded before conversion (whole_number)."""
        try:
            return whole_number(text, what)
        except ValueError as error:
            raise self.invalid(text_of_position, str(error)) from None

    # -- integer codes: one numbering of positions, two uses ----------------------
    # A game may number its positions: encode(p) in range(code_space()), decode its
    # inverse. With `offers.arrays` and the batch_* methods below, the generator
    # builds the graph over arrays instead of one Python call per position (both
    # paths must agree: tests/explorer/test_graph.py). With `offers.ranking` the
    # numbering covers every position, symmetric ones included, and is the implicit
    # mode's perfect ranking (below), where it goes by the names index_space, rank,
    # unrank and is_valid_index: the same methods, not a second numbering.
    def code_space(self) -> int | None:
        """Size N of the numbering; None when these parameters have none (e.g. too large for arrays)."""
        return None

    def encode(self, position: P) -> int:
        """The code in range(code_space()) of a position; inverse of `decode`."""
        raise NotImplementedError

    def decode(self, code: int) -> P:
        raise NotImplementedError

    def is_valid_code(self, code: int) -> bool:
        """False for a code that names no legal position (skipped by the implicit solver)."""
        return True

    def batch_moves(self, codes: np.ndarray, symmetry: bool) -> MoveBatch:
        raise NotImplementedError

    # Optional compiled kernel for the same moves (offers.compiled_moves; see
    # docs/kernels.md). Return a MoveBatch grouped by source (`starts` set; within a
    # source the order `moves` lists them) built by a numba function
    # (`@explorer.kernels.jit`) in a module of its own, imported inside this method
    # (numba stays off the CLI start-up path); or None, and the generator uses
    # batch_moves. The generator's bookkeeping (ids, merging repeated targets) is
    # compiled either way; tests/explorer/test_graph.py checks kernel == batch_moves == moves.
    def compiled_moves(self, codes: np.ndarray, symmetry: bool) -> MoveBatch | None:
        return None

    # Optional, with compiled_moves: the same moves fused with the generator's bookkeeping
    # into one compiled pass (explorer.kernels.bfs.expand_positions, inlined into a
    # wrapper the game's kernels module compiles and numba caches), so that no batch
    # arrays are written and read in between. None: the generator uses compiled_moves.
    def compiled_generator(self) -> CompiledGenerator | None:
        return None

    def batch_outcomes(self, codes: np.ndarray) -> np.ndarray:
        """int8 Value of each code for the player to move, -1 where not over."""
        raise NotImplementedError

    def batch_to_move(self, codes: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def batch_label(self, label: int) -> str:
        raise NotImplementedError

    # Optional (offers.batch_columns): the keys and game fields of many codes at once, for the
    # loaders (loaders/mirror.py), which otherwise decode, format and ask `fields` per position.
    def batch_columns(self, codes: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """(keys, fields) of the positions `codes` name: keys[i] is ``format(decode(codes[i]))``
        (a str array), fields[name][i] is ``fields(decode(codes[i]))[name]`` flattened (see
        loaders.mirror.flatten), as an int or bool array: one value per code, or one row per
        code for a list of a fixed length. Every field `fields` gives, in its order."""
        raise NotImplementedError

    # -- size estimate (explorer/core/limits.py) ------------------------------------
    # Every game should implement these: the CLI and the UI call them before
    # generating anything and refuse at once a graph over the position limit or
    # the memory budget. They must be cheap (no generation: a formula, or a count
    # over a small part of the space) and must never undercount: an upper bound
    # on the reachable graph (symmetry-reduced when `symmetry` is true), as tight
    # as the game allows, since a loose bound refuses graphs that would fit.
    # tests/core/test_limits.py checks the bound against real graphs for every preset
    # and for random small parameters. A game returning None is checked only
    # while it is generated (the generator's max_positions), which is slower to
    # refuse and cannot protect memory in advance.
    def estimate_positions(self, symmetry: bool = True) -> int | None:
        """An upper bound on the number of reachable positions, or None when the game offers none."""
        return None

    def estimate_moves(self, symmetry: bool = True) -> int | None:
        """An upper bound on the number of moves (edges) of the graph, or None."""
        return None

    def iter_positions(self) -> Iterable[P]:
        """Every position of the game, reachable or not (for charts); optional."""
        raise NotImplementedError

    def chart_move(self, label: str) -> str:
        """A move's label as a strategy chart's cell shows it (offers.chart); the label itself by default."""
        return label

    def survey_rules(self, params: Params) -> str:
        """A rule set's name in the survey heatmap (offers.survey): its parameters other than the
        heatmap's column, as name=value; a game may say it better. O(parameters)."""
        axis = self.offers.survey.axis if self.offers.survey else None
        return " · ".join(f"{f.name}={format_value(getattr(params, f.name))}" for f in dataclasses.fields(params)
                          if f.name != axis) or self.name

    @staticmethod
    def survey_meaningful(params: Params) -> bool:
        """Whether the variant survey (explorer/analysis/survey.py) keeps this parameter
        combination; False drops one whose rules are the same as another's. Every one by default."""
        return True

    # -- optional implicit-graph mode (explorer/implicit.py) -------------------------
    # Games too large to hold as edges are solved over a perfect ranking of their
    # positions, with predecessors generated by un-moves instead of stored edges:
    # a few bytes per position. Positions are NOT canonicalised here: the ranking
    # covers every position, symmetric ones included. The ranking is the game's
    # integer codes (offers.ranking); these four are their names here, not methods
    # a game writes.
    def index_space(self) -> int | None:
        """Size N of the game's perfect ranking (its code_space); None when it declares none."""
        return self.code_space() if self.offers.ranking else None

    def implicit_size(self) -> int | None:
        """The indices the implicit mode solves and stores: index_space(), or its first half when the
        kernels fold it (offers.folded); equal to implicit_kernels().size without building them (for
        hints and limits: tests/games check the two agree). None without a ranking. O(1)."""
        size = self.index_space()
        return size // 2 if size is not None and self.offers.folded else size

    def rank(self, position: P) -> int:
        """Index in range(index_space()) of a position: its code; inverse of `unrank`."""
        return self.encode(position)

    def unrank(self, index: int) -> P:
        return self.decode(index)

    def is_valid_index(self, index: int) -> bool:
        """False for an index that names no legal position (skipped by the solver)."""
        return self.is_valid_code(index)

    def unmoves(self, position: P) -> list[P]:
        """Every position p (not canonicalised) with a move leading to exactly `position`.

        For each reachable p and move p -> q, p is in unmoves(q); each p' in unmoves(q)
        has a move to q (with symmetry, compared by canonical form). check-game verifies both.
        """
        raise NotImplementedError

    def implicit_kernels(self) -> ImplicitKernels | None:
        """Compiled kernels over indices (see ImplicitKernels; offers.implicit_kernels). Import numba inside."""
        return None

    def tiers(self) -> Tiers | None:
        """The ranking's tiers (offers.tiers; see Tiers); None: the whole ranking is one tier."""
        return None
