"""Find on the canvas (issue 35): a position typed in the game's notation, or a filter over the positions
drawn. What is found is marked (`_found` in its data, drawn by the style sheet's ring) and the view moves to
it (the layout sent carries `ggFind`: static/canvas_view.js, 14); a position not drawn yet is added with a
shortest path to it from the page's position (`explorer.ui.data.path`, the path query of queries.api),
placed as expansions place what they bring (`grow_layout`)."""

from __future__ import annotations

import re

from explorer.core.errors import GameGraphError
from explorer.games import Game
from explorer.solved import SolvedGraph
from explorer.ui import data
from explorer.ui.backend import Backend
from explorer.ui.canvas.elements import Grown, _add, _board
from explorer.ui.canvas.layout import grow_layout
from explorer.ui.canvas.marks import MAX_NODES
from explorer.ui.local import Neighbourhood

MAX_TEXT = 200        # characters of a search; longer is refused, in one line, before any work (panel._on_find)
MAX_PATH = 60         # moves of a path added to the canvas
MAX_REMOTENESS_DIGITS = 6  # a remoteness term's number: at most 999,999 (no game here comes near it)
VALUES = ("win", "loss", "tie", "draw")
FILTER_HELP = ("a position in the game's notation, or a filter: value=win|loss|tie|draw, remoteness=N "
               "(or <N, >N), cycle (on a cycle), kind=<CGT kind>; terms together all apply")
_TERM = re.compile(r"^(value|remoteness|kind)\s*(=|<=|>=|<|>)\s*(\S+)$|^(cycle|on-cycle)$")


class SearchError(GameGraphError):
    """A search that cannot be answered: one line for the page."""


def parse_filter(text: str) -> list[tuple[str, str, str]] | None:
    """The filter's terms [(name, operator, value)], or None when `text` is not written as a filter (then
    it is read as a position). A term that starts as a filter but is wrong raises SearchError. O(len(text))."""
    terms = [t for t in re.split(r"[\s,]+", re.sub(r"\s*(<=|>=|=|<|>)\s*", r"\1", text.strip())) if t]
    if not terms or not any("=" in t or "<" in t or ">" in t or t in ("cycle", "on-cycle") for t in terms):
        return None
    parsed = []
    for term in terms:
        match = _TERM.match(term)
        if match is None:
            raise SearchError(f"{term!r} is not a filter term: {FILTER_HELP}")
        if match.group(4):
            parsed.append(("cycle", "=", "yes"))
            continue
        name, op, value = match.group(1), match.group(2), match.group(3)
        if name == "remoteness" and not (value.isascii() and value.isdigit()):
            raise SearchError(f"remoteness takes a whole number, not {value[:40]!r}")
        if name == "remoteness" and len(value.lstrip("0")) > MAX_REMOTENESS_DIGITS:
            raise SearchError(f"remoteness {value[:40]}{'…' if len(value) > 40 else ''} is too large: "
                              f"at most {10 ** MAX_REMOTENESS_DIGITS - 1:,}")
        if name == "value" and value not in VALUES:
            raise SearchError(f"value is one of {', '.join(VALUES)}, not {value[:40]!r}")
        if name != "remoteness" and op != "=":
            raise SearchError(f"{name} takes =, not {op}")
        parsed.append((name, op, value))
    return parsed


def _matches(record: dict, terms: list[tuple[str, str, str]]) -> bool:
    for name, op, value in terms:
        if name == "cycle":
            if not record.get("on_cycle"):
                return False
        elif name == "value":
            if str(record.get("value")) != value:
                return False
        elif name == "kind":
            if str(record.get("cgt_kind")).lower() != value.lower():
                return False
        else:
            have = record.get("remoteness")
            if have is None:
                return False
            want = int(value)
            if not {"=": have == want, "<": have < want, ">": have > want, "<=": have <= want,
                    ">=": have >= want}[op]:
                return False
    return True


def find(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, text: str,
         focus: str) -> tuple[list[str], str, bool]:
    """The keys found for `text` (already on the canvas, or added with their path from `focus`), the
    line that says so, and whether a path was added. SearchError (one line) for text that is neither a position nor a filter, a
    position out of reach, or a canvas too full. O(nodes drawn) for a filter; a path query for a position."""
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise SearchError(f"a search of {len(text):,} characters is refused: at most {MAX_TEXT} (a position, or a "
                          "filter such as value=win remoteness<5)")
    try:  # a position first: some games' notations hold =, < or >
        node = solved.graph.find(text)
    except (GameGraphError, KeyError, ValueError, IndexError) as exc:
        try:
            terms = parse_filter(text)
        except SearchError as bad:
            raise SearchError(f"{text[:40]!r} is not a position of {game.display_name} ({exc}) nor a filter ({bad})") from None
        if terms is None:
            raise SearchError(f"{text[:40]!r} is not a position of {game.display_name} ({exc}) nor a filter: "
                              f"{FILTER_HELP}") from None
        found = [k for k in grown.nodes if _matches(solved.record(solved.graph.find(k)), terms)]
        return found, f"{len(found)} of the {len(grown.nodes)} positions drawn match {text!r}", False
    key = solved.graph.key(node)
    if key in grown.nodes:
        return [key], found_line(grown, game, solved, key, text, "is on the canvas"), False
    moves, added = add_path(grown, game, solved, backend, key, focus)
    return [key], found_line(grown, game, solved, key, text, f"added with its path from here ({moves} moves)"), bool(added)


def found_line(grown: Grown, game: Game, solved: SolvedGraph, key: str, text: str, what: str) -> str:
    """The line that names a position found: in the one spelling the canvas draws it in (its label and info panel:
    the orientation that follows the moves from here, `_board`), never the stored key, which in a game stored up
    to symmetry may be a third orientation. When `text` was typed as another orientation of it, the line says so
    once ("X../.../... is on the canvas, drawn as its mirror image (or turn) ../../..X"). O(1) rule calls."""
    drawn = game.format(_board(grown, solved, key))
    try:
        typed = game.format(game.parse(text))  # (as the game writes it: spaces, case)
    except (GameGraphError, KeyError, ValueError, IndexError):
        typed = drawn  # (typed as a key, not a board: named as drawn)
    if typed == drawn:
        return f"{drawn} {what}"
    return f"{typed} {what}, drawn as its mirror image (or turn) {drawn}"


def add_path(grown: Grown, game: Game, solved: SolvedGraph, backend: Backend, key: str,
             focus: str) -> tuple[int, set[str]]:
    """Adds the stored position `key` to the canvas with a shortest path to it from `focus` (the path query),
    placed as expansions place what they bring, and keeps it in `grown.paths` (the saved scene's `path=`, with the
    expansions made before it). Returns (the path's moves, the keys added). SearchError for a path longer than
    MAX_PATH or one that would take the canvas past MAX_NODES; a position the game cannot reach from here raises
    the path query's one line. A saved scene's searches are made again through here (panel._scene_into)."""
    key = solved.graph.key(solved.graph.find(key))  # (a link's text: the stored key, as the path query answers)
    steps = data.path(backend, solved, focus, key)
    if len(steps) - 1 > MAX_PATH:
        raise SearchError(f"{key} is {len(steps) - 1} moves from here, more than the {MAX_PATH} the canvas adds")
    missing = [k for k, _ in steps if k not in grown.nodes]
    if len(grown.nodes) + len(missing) > MAX_NODES:
        raise SearchError(f"the canvas holds {len(grown.nodes)} positions and the path to {key} needs {len(missing)} "
                          f"more, past its {MAX_NODES}: collapse or remove some first")
    added: set[str] = set()
    for (there, _), (here, label) in zip(steps, steps[1:]):
        hood = data.neighbourhood(backend, solved, there, 1, "out")
        edges = [e for e in hood.edges if e[0] == there and e[1] == here] or [(there, here, label or "", False)]
        new = _add(grown, game, solved, Neighbourhood(there, {there: {}, here: {}}, edges), grown.boards, focus)
        if new:
            grow_layout(grown, there, new)
            added |= new
    if grown.layout is not None and added:
        grown.layout["ggNew"] = sorted(added)
    if added:
        grown.paths.pop(key, None)  # (a position searched again after it was taken off: last in the order)
        grown.paths[key] = frozenset(grown.grown)
    return len(steps) - 1, added



def mark(grown: Grown, found: list[str], added: bool) -> None:
    """Marks `found` (and only them) on the canvas, and asks the browser to bring them into view; `added`:
    the search added a path (its layout places it), else nothing moves. O(nodes).

    A node's mark is set to 0, not taken out: the browser merges new data into the old (cy.json)."""
    chosen = set(found)
    for key, node in grown.nodes.items():
        if key in chosen:
            node["data"]["_found"] = 1
        elif node["data"].get("_found"):
            node["data"]["_found"] = 0
    if grown.layout is not None and found:
        grown.layout_runs += 1
        layout = grown.layout if added else {k: v for k, v in grown.layout.items()
                                             if k not in ("ggExpand", "ggNew", "ggData")}
        grown.layout = {**layout, "run": grown.layout_runs, "ggFind": sorted(found)}
