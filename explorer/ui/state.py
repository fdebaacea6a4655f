"""The page's state: the game and the position live in the URL, the walk in the session.

`?game=<spec>&pos=<key>` is the single source of truth for what is shown, so a
copied link opens the same view (`&view=<tab>` opens a tab, `&k=<moves>` the neighbourhood's k, `&exp=`,
`&layout=`, `&colour=`, `&size=`, `&group=`, `&open=`, `&dir=`, `&grow=`, `&boards=`, `&labels=` and `&seen=` the canvas's saved scene: `url_scene`, `url_opened`); the history of visited positions is per
browser tab (Streamlit session state) because it is a trail, not a view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from explorer.ui.widgets import echo

DEFAULT_GAME = "chopsticks:standard"
HISTORY_LIMIT = 200


def url_game() -> str:
    return (st.query_params.get("game") or "").strip() or DEFAULT_GAME


def url_position() -> str | None:
    text = (st.query_params.get("pos") or "").strip()
    return text or None


def url_k(maximum: int) -> tuple[int | None, str | None]:
    """The neighbourhood's k from the URL (`&k=3`): (k, None); (None, None) without one; (None, the
    text given) when it is not a whole number from 1 to `maximum`, an empty `k=` included (the caller says so,
    escaped: an empty one used to be taken for no k, without a word)."""
    given = st.query_params.get("k")
    if given is None:
        return None, None
    text = given.strip()
    if not text:
        return None, given
    # The length first: int() of a number past 4,300 digits raises (Python's own limit), so a k that
    # long must be refused as text, never converted.
    if text.isascii() and text.isdigit() and len(text) <= len(str(maximum)) and 1 <= int(text) <= maximum:
        return int(text), None
    return None, text


def url_choice(name: str, allowed: Sequence[str], default: str) -> tuple[str, str | None]:
    """A URL parameter that must be one of `allowed` (Play's `side`, `opp`): (its value, None);
    (`default`, None) without one; (`default`, the text given) when it is not one of them (an empty one too), so
    that the caller says so in one escaped line naming both, and the page carries on with `default`. O(len(allowed))."""
    text = st.query_params.get(name)
    if text is None:
        return default, None
    if text in allowed:
        return text, None
    return default, text


def link_k_to_apply(maximum: int) -> int | None:
    """The URL's k when a link brings one not applied yet (applied once: the box may change it later),
    else None. Read by the canvas's controls, which apply it, and by a page that must know the k before
    them (the value-file page makes its part to that radius)."""
    asked, _ = url_k(maximum)
    return asked if asked is not None and st.session_state.get("hood_k_url") != asked else None


# A saved scene (issue 35): the canvas's expansions, layout and colouring in the URL beside the position, so that a
# copied link reopens the same canvas. `exp` is a JSON list of the expanded positions' keys, in order.
SCENE_PARAMS = ("exp", "path", "layout", "colour", "size", "group", "open", "dir", "grow", "boards", "labels", "seen")
# `dir` the moves the canvas follows (both, out, in: which positions it starts with), `grow` what an expansion adds,
# `boards` and `labels` on or off, `seen` whose side the values are seen from: each written only when not the
# canvas's default (explorer/ui/canvas/panel.py SCENE_CHOICES).
SCENE_TEXT_LIMIT = 8_000     # characters of `exp`, refused from its length before it is read
SCENE_EXPANSIONS = 40        # expansions a link may ask for
# The positions the canvas's search added with their path from the focus (canvas/search.py add_path): `path` is a
# JSON list of [position, n] pairs, each added after the first n expansions of `exp` (so the canvas is made again in
# the order it was made: the same places).
PATH_TEXT_LIMIT = 4_000      # characters of `path`, refused from its length before it is read
SCENE_PATHS = 10             # searched positions a link may add (each a path query and at most 60 moves)
# The level of detail (explorer/ui/canvas/clusters.py): `group` is how the positions are grouped, `open` a JSON
# list of the clusters opened (their ids, as clusters.clusters_of names them).
OPENED_TEXT_LIMIT = 4_000    # characters of `open`, refused from its length before it is read
OPENED_CLUSTERS = 60         # clusters a link may open
OPENED_ID_LIMIT = 200        # characters of one cluster's id

# Every parameter the page reads (Play's `play`, `side` and `opp` too). Another one in a link, say
# `position=` for `pos=` or `color=` for `colour=`, would be dropped without a word and the page show
# something else than was asked: it is named once, with the parameter it was likely meant to be.
# `pick` is the Play board's links' (explorer/ui/play_panel.py `_link`): a tab Ctrl-clicked open from one
# reads its game from `play`, so `pick` is known and unused.
URL_PARAMS = ("game", "pos", "view", "k", *SCENE_PARAMS, "play", "side", "opp", "pick")


def url_unknown() -> str | None:
    """One line naming the link's parameters the page does not read, with a likely meant one each; they
    are taken out of the address (so said once). None when there are none. O(parameters)."""
    import difflib

    unknown = [name for name in st.query_params if name not in URL_PARAMS]
    if not unknown:
        return None
    named = []
    for name in unknown[:5]:
        meant = ([known for known in URL_PARAMS if name.lower().startswith(known) or known.startswith(name.lower())]
                 or difflib.get_close_matches(name.lower(), URL_PARAMS, n=1, cutoff=0.6))
        named.append(f"{name[:40]}=" + (f" (did you mean {meant[0]}=?)" if meant else ""))
    for name in unknown:
        del st.query_params[name]
    more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
    return (f"The link's {', '.join(named)}{more} {'is not a parameter' if len(unknown) == 1 else 'are not parameters'}"
            f" this page reads, so {'it was' if len(unknown) == 1 else 'they were'} left out; it reads "
            f"{', '.join(URL_PARAMS)}.")


def url_repeated() -> str | None:
    """One line naming the link's parameters given more than once with different values (`k=1&k=`), each with its
    values and the one read; None when there are none. Streamlit reads the last of them, so `k=1&k=` opened the canvas
    at its own k without a word (issue 35). Each is put back into the address once, with the first of its values that
    is not empty, which the page then reads and checks as any other (so said once); a parameter repeated with one
    value is made one without a word: nothing was lost. O(the link's values)."""
    said, kept = [], []
    for name in [name for name in st.query_params if name in URL_PARAMS]:
        values = st.query_params.get_all(name)
        if len(values) < 2:
            continue
        read = next((value for value in values if value.strip()), values[0])
        st.query_params[name] = read
        distinct = list(dict.fromkeys(values))
        if len(distinct) > 1:
            shown = ", ".join(echo(value) for value in distinct[:3])
            more = f" and {len(distinct) - 3:,} more" if len(distinct) > 3 else ""
            said.append(f"{name}= {len(values):,} times ({shown}{more})")
            kept.append(f"{name}={echo(read)}")
    if not said:
        return None
    return (f"The link gives {'; '.join(said[:5])}{' and more' if len(said) > 5 else ''}: a parameter is read once, "
            f"so the page reads the first value that is not empty: {', '.join(kept[:5])}.")


# The parameters whose empty value means nothing but "not given", and what the page shows without them (the
# canvas's, Play's and the scene's say their own line with the value they use: state.url_k, url_choice, url_scene,
# panel._controls); an empty `play=` is Play's game at its start, written by the page itself.
EMPTY_MEANS = {"game": f"the page opens {DEFAULT_GAME}", "pos": "the page shows the game's start position"}


def url_empty() -> str | None:
    """One line naming the link's `game=` or `pos=` that is empty (or blank), and what the page shows instead; they
    are taken out of the address (so said once). None when neither is. An empty one used to be taken for no
    parameter without a word (issue 35). O(1)."""
    empty = [name for name in EMPTY_MEANS if name in st.query_params and not st.query_params.get(name, "").strip()]
    if not empty:
        return None
    said = [f"{name}={echo(st.query_params.get(name, ''))} is empty: {EMPTY_MEANS[name]}" for name in empty]
    for name in empty:
        del st.query_params[name]
    return f"The link's {'; its '.join(said)}."


def _url_json(name: str, limit: int, too_long) -> tuple[str | None, object, str | None]:
    """A scene parameter of the link read as JSON: (its text, its value, None); (None, None, None) without it; the
    value is None when the text is not JSON (an empty `exp=` included: the caller's line names it). When the text is
    longer than `limit` characters: (text, None, too_long(its length)), before it is parsed, so a crafted link costs
    O(limit) at most. Each caller checks the value's shape and says its own line (url_scene, url_paths, url_opened)."""
    import json

    text = st.query_params.get(name)
    if text is None:
        return None, None, None
    if len(text) > limit:
        return text, None, too_long(len(text))
    try:
        return text, json.loads(text), None
    except (ValueError, RecursionError):  # (RecursionError: "[[[[…" nested deeper than Python's stack, in the limit)
        return text, None, None


def url_scene() -> tuple[list[str], str | None]:
    """The expansions a link asks for: (keys, None); ([], None) without any; ([], one line) when `exp` is too
    long, not a JSON list of texts, or names more than SCENE_EXPANSIONS. The length is checked before the
    text is parsed, so a crafted link costs O(SCENE_TEXT_LIMIT) at most."""
    text, keys, refused = _url_json("exp", SCENE_TEXT_LIMIT, lambda length: (
        f"The link's scene (exp=) is {length:,} characters, more than the {SCENE_TEXT_LIMIT:,} a scene may hold: "
        "the canvas opens without its expansions."))
    if text is None or refused:
        return [], refused
    if not isinstance(keys, list) or not all(isinstance(k, str) and 0 < len(k) <= 400 for k in keys):
        return [], f"The link's scene (exp={_quote(text)}) is not a list of positions: the canvas opens without it."
    if len(keys) > SCENE_EXPANSIONS:
        return [], (f"The link's scene asks for {len(keys):,} expansions, more than the {SCENE_EXPANSIONS} a scene "
                    "may hold: the canvas opens without them.")
    return list(dict.fromkeys(keys)), None


def url_paths() -> tuple[list[tuple[str, int]], str | None]:
    """The positions a link's searches added (`path=`): ([(key, n)], None), each to be added with its path after the
    first n expansions of `exp`; ([], None) without any; ([], one line) when `path` is too long, not a JSON list of
    [position, n] pairs (n a whole number from 0 to SCENE_EXPANSIONS), or names more than SCENE_PATHS. The length
    is checked before the text is parsed, so a crafted link costs O(PATH_TEXT_LIMIT) at most."""
    text, pairs, refused = _url_json("path", PATH_TEXT_LIMIT, lambda length: (
        f"The link's searched positions (path=) are {length:,} characters, more than the {PATH_TEXT_LIMIT:,} a "
        "scene may hold: the canvas opens without them."))
    if text is None or refused:
        return [], refused
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and 0 < len(p[0]) <= 400
            and type(p[1]) is int and 0 <= p[1] <= SCENE_EXPANSIONS for p in pairs):
        return [], (f"The link's searched positions (path={_quote(text)}) are not a list of [position, n] pairs: the "
                    "canvas opens without them.")
    if len(pairs) > SCENE_PATHS:
        return [], (f"The link adds {len(pairs):,} searched positions, more than the {SCENE_PATHS} a scene may hold: "
                    "the canvas opens without them.")
    return list(dict.fromkeys((k, n) for k, n in pairs)), None


def url_opened() -> tuple[list[str], str | None]:
    """The clusters a link opens (`open=`): (ids, None); ([], None) without any; ([], one line) when `open` is
    too long, not a JSON list of short texts, or names more than OPENED_CLUSTERS. The length is checked before
    the text is parsed, so a crafted link costs O(OPENED_TEXT_LIMIT) at most; ids the canvas has no cluster
    for are the caller's to say (it knows the clusters)."""
    text, ids, refused = _url_json("open", OPENED_TEXT_LIMIT, lambda length: (
        f"The link's opened clusters (open=) are {length:,} characters, more than the {OPENED_TEXT_LIMIT:,} a "
        "scene may hold: the canvas opens with every cluster closed."))
    if text is None or refused:
        return [], refused
    if not isinstance(ids, list) or not all(isinstance(i, str) and 0 < len(i) <= OPENED_ID_LIMIT for i in ids):
        return [], (f"The link's opened clusters (open={_quote(text)}) are not a list of clusters: the canvas opens "
                    "with every cluster closed.")
    if len(ids) > OPENED_CLUSTERS:
        return [], (f"The link opens {len(ids):,} clusters, more than the {OPENED_CLUSTERS} a scene may hold: the "
                    "canvas opens with every cluster closed.")
    return list(dict.fromkeys(ids)), None


def write_params(values: dict[str, str | None]) -> None:
    """Put these link parameters into the address: None takes one out; one already holding its value is not
    written again (each write is a browser history update)."""
    for name, value in values.items():
        if value is None:
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != value:
            st.query_params[name] = value


def _quote(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}…"


def link(game: str, position: str | None = None) -> str:
    """A relative link that opens `game` at `position`: `?game=...&pos=...`."""
    query = {"game": game}
    if position is not None:
        query["pos"] = position
    return "?" + urlencode(query)


# -- the sidebar's refusals: a bad typed position, bad parameters ------------------------------
# A refusal is kept in the session (its widget's callback runs before the script) with the page it was made
# on, and is shown only while the URL still shows that page: any request that then succeeds (a good position
# typed, Start, a click on the canvas, a link) leaves it behind. It used to stay until its own box changed.
REFUSALS = ("goto_error", "picker_error")


def _page() -> tuple[str | None, str | None]:
    return st.query_params.get("game"), st.query_params.get("pos")


def refuse(slot: str, message: str) -> None:
    """Keep `message` for the sidebar slot (`REFUSALS`) until the page changes or a request succeeds."""
    st.session_state[slot] = {"message": message, "page": _page()}


def refusal(slot: str) -> str | None:
    """The slot's message while the page it was made on is still the one shown, else None (and forgotten)."""
    kept = st.session_state.get(slot)
    if not isinstance(kept, dict) or kept.get("page") != _page():
        st.session_state.pop(slot, None)
        return None
    return kept["message"]


def forget_refusals() -> None:
    for slot in REFUSALS:
        st.session_state.pop(slot, None)


# The canvas's settings belong to one game (issue 35): k=4 chosen on tic-tac-toe is 456 positions of
# dobutsu:small at k=3 and a Neo4j refusal at 4. Every session key the neighbourhood's controls keep
# starts with one of these (explorer/ui/canvas, explorer/ui/graphs.py).
PER_GAME_SETTINGS = ("hood_", "canvas_")


def set_game(spec: str) -> None:
    """Switch game: the new game opens at its start with its canvas's default settings (k, layout,
    colouring, what was expanded), and the old trail no longer applies."""
    forget_refusals()
    for name in ("pos", "k", *SCENE_PARAMS):
        if name in st.query_params:
            del st.query_params[name]  # not clear(): the open tab (`view`) stays
    for name in [name for name in st.session_state if str(name).startswith(PER_GAME_SETTINGS)]:
        del st.session_state[name]
    st.query_params["game"] = spec
    st.session_state["history"] = []


def set_position(spec: str, key: str) -> None:
    forget_refusals()
    for name in ("exp", "path", "open"):  # the expansions, searches and opened clusters belong to the canvas left
        if name in st.query_params:
            del st.query_params[name]
    st.query_params["game"] = spec
    st.query_params["pos"] = key


@dataclass
class Step:
    """One visited position, and how the walk got there (a move label, or None for a jump)."""

    key: str
    to_move: int
    value: str
    remoteness: int | None
    move: str | None = None
    game: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def history() -> list[Step]:
    return st.session_state.setdefault("history", [])


def record_visit(step: Step) -> None:
    """Append a position unless the walk is already there (reruns revisit the same one)."""
    trail = history()
    if trail and trail[-1].key == step.key and trail[-1].game == step.game:
        return
    if trail and trail[-1].game != step.game:
        trail.clear()
    trail.append(step)
    del trail[:-HISTORY_LIMIT]


def pending_move() -> str | None:
    """The label of the move whose button was clicked, consumed once by the next visit."""
    return st.session_state.pop("pending_move", None)


def go(spec: str, key: str, move: str | None = None) -> None:
    """Navigate (used from button callbacks): the URL changes and the rerun shows the position."""
    st.session_state["pending_move"] = move
    set_position(spec, key)
