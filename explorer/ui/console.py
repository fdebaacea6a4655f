"""The read-only Cypher console: only with Neo4j as the backend, with a timeout and a row cap.

Safety is the query library's job (`queries.api.run_readonly_cypher` has Neo4j
plan the text first and runs it only when the plan is a read of the game graph
made of allowed operators, then in a read transaction); the page
adds the examples (the library's own queries/*.cypher files), parameters as
JSON and a clear message for every failure. Rows arrive JSON-ready
(`queries.console.plain`); every cell is shown as readable text (`queries.results.readable`: nodes,
relationships, paths, lists and maps laid out as Neo4j Browser writes them, never JSON). Nodes,
relationships and paths at any depth are drawn on the canvas; a result that holds lines of position
keys instead (the library's cycles query) is drawn by looking those moves up with a second read,
under the same checks. Ctrl/Cmd+Enter in the editor runs it (a form), and the statements run since
the page opened stay in a history that reloads them. The table cuts a long cell at its column's width:
a row holding one can be chosen under the table and read in full, wrapped and escaped. Choosing an
example runs it once in the background (warm_up), so that its Run finds Neo4j's plans made.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pandas as pd
import streamlit as st

from explorer.core.errors import GameGraphError, Neo4jUnavailable, QueryError, QueryTimeout
from explorer.ui import backend as backends
from explorer.ui.backend import Backend
from explorer.ui.widgets import as_text, error
from queries import api, catalog
from queries.console import MAX_PARAM_DEPTH, MAX_PARAM_SIZE, MAX_RESULT_BYTES
from queries.results import ConsoleResult, Table, key_steps, readable

TIMEOUT_S = 10.0
ROW_CAP = 1000
MAX_HISTORY = 50  # statements kept in the console's history (this page's session only)
WIDE_CELL = 40  # characters of a cell's text past which the table cuts it: its row can be read in full below
# Characters of the parameters' JSON text, bounded before json.loads reads it (check_params bounds what it holds,
# MAX_PARAM_SIZE, only after): twice that, room for escapes and spacing; Streamlit alone would pass 200 MB.
MAX_PARAM_TEXT = 2 * MAX_PARAM_SIZE
# The moves of lines of keys in a result (queries.results.key_steps), as nodes and relationships to draw.
STEPS_QUERY = ("UNWIND $steps AS step\n"
               "MATCH (a:Position {game: $game, key: step[0]})-[m:MOVE]->(b:Position {game: $game, key: step[1]})\n"
               "WHERE step[2] IS NULL OR m.label = step[2]\nRETURN a, m, b")
DEFAULT_QUERY = ("MATCH (p:Position {game: $game, key: $key})-[m:MOVE]->(q)\n"
                 "RETURN m.label AS move, q.key AS to, q.value AS value\nLIMIT 25")


def examples() -> dict[str, str]:
    """name -> runnable Cypher of every queries/*.cypher file (path-length placeholders set to their defaults)."""
    found = {}
    for path in sorted(catalog.QUERY_DIR.glob("*.cypher")):
        found[path.stem] = (catalog.render(path.stem, {}) if path.stem in catalog.QUERIES
                            else path.read_text(encoding="utf-8"))
    return found


def example_params(name: str, graph_id: str, key: str, start_key: str) -> dict[str, Any]:
    """The parameters an example needs, filled with the current game and position and the defaults."""
    params: dict[str, Any] = {"game": graph_id, "key": key}
    if name == "rule-diff":  # two rule sets of one game: this one and another preset (loaded or not)
        return {"first": graph_id, "second": _another_preset(graph_id)}
    if name not in api.query_names():
        return params
    spec = api.describe(name)
    if spec["to"]:
        params["to"] = start_key
    if spec["direction"]:
        params["direction"] = "both"
    if spec.get("value"):
        params["cgt"] = "*"  # cgt-equal: a value to look for, in canonical ASCII notation
    for p in spec["ints"]:
        if p["name"] == "limit":
            params["limit"] = p["default"]
    return params


def _another_preset(graph_id: str) -> str:
    """The graph id of another preset of the same game (the game's own when it has no other)."""
    from explorer.games import parse_spec
    from explorer.graph import graph_id as id_of, parse_graph_id

    from explorer.core.errors import GameGraphError

    try:
        game, symmetry = parse_graph_id(graph_id)
    except GameGraphError:  # an id that names no game (tests load games under ids of their own)
        return graph_id
    for preset in game.presets:
        other = id_of(parse_spec(f"{game.name}:{preset}"), symmetry)
        if other != graph_id:
            return other
    return graph_id


def applies(name: str, graph_id: str) -> bool:
    """Whether the library query `name` has anything to say about this game: the CGT queries need
    combinatorial values, rule-diff another preset."""
    from explorer.cgt.evaluate import supports_cgt
    from explorer.core.errors import GameGraphError
    from explorer.graph import parse_graph_id

    try:
        game, _ = parse_graph_id(graph_id)
    except GameGraphError:  # an id of its own (tests): offer everything
        return True
    if name.startswith("cgt"):
        return supports_cgt(game)
    if name == "rule-diff":
        return _another_preset(graph_id) != graph_id
    return True


def split_header(text: str) -> tuple[str, str]:
    """(the leading comment header without its // marks, the statement after it) of a .cypher file:
    the editor shows the statement, the header is shown above it as the example's explanation."""
    lines = text.splitlines()
    at = 0
    while at < len(lines) and (lines[at].lstrip().startswith("//") or not lines[at].strip()):
        at += 1
    header = "\n".join(line.lstrip()[2:].removeprefix(" ") for line in lines[:at] if line.lstrip().startswith("//"))
    return header.strip(), "\n".join(lines[at:]).strip() + "\n"


def _load_example(graph_id: str, key: str, start_key: str, backend: Backend | None = None) -> None:
    """The chosen example's statement in the editor (its comment header above it), and exactly its
    own parameters: nothing of the previous example's stays. Neo4j starts on it at once (warm_up), while
    its explanation is read."""
    name = st.session_state.get("cypher_example")
    text = examples().get(name)
    if text is not None:
        about, statement = split_header(text)
        st.session_state["cypher_text"] = statement
        st.session_state["cypher_about"] = (name, about)
        st.session_state["cypher_params"] = json.dumps(example_params(name, graph_id, key, start_key))
        st.session_state.pop("cypher_result", None)  # the last answer was to another question
        if backend is not None:
            warm_up(backend, graph_id, statement, st.session_state["cypher_params"])


# -- an example's first run ---------------------------------------------------------------------
# Neo4j plans a statement the first time it sees its text, and plans it twice in the console (the plan check's
# EXPLAIN is cached apart from the run); on a server that has not met it yet the cycles example took 2.2 s to
# EXPLAIN, 1.2 s to run and 1.1 s to look its moves up (at load 7; 0.1-0.3 s each once seen), and its first
# run on the page 9.5 s at load 10 against 3.4 s for the second. So choosing an example runs it in the
# background, through the same checks, limits and look-up as the Run button (nothing is kept but Neo4j's
# caches), and a Run of the same statement waits for that run to end and then finds every plan made.
_WARMING: dict[tuple[str, str, str], threading.Thread] = {}
_WARMING_LOCK = threading.Lock()


def warm_up(backend: Backend, graph_id: str, text: str, params_text: str) -> threading.Thread | None:
    """Runs the statement `text` with the parameters `params_text` (JSON) once in a background thread, as _run
    would (run_readonly_cypher, then the look-up of its lines of keys), so that Neo4j has planned both when the
    Run button asks; its answer and its errors are dropped. One at a time per statement and parameters (the
    thread, or None when it could not start: bad JSON, no driver). O(the statement's own cost), off the page's run."""
    try:
        params = json.loads(params_text) if len(params_text) <= MAX_PARAM_TEXT else None
    except (ValueError, RecursionError):
        params = None
    if not isinstance(params, dict) or getattr(backend, "driver", None) is None:
        return None
    key = (backend.database, text, params_text)

    def run() -> None:
        try:
            result = api.run_readonly_cypher(backend.driver, backend.database, text, params, timeout_s=TIMEOUT_S,
                                             row_cap=ROW_CAP)
            if result.graph is None:
                _draw_key_lines(backend, graph_id, params, result, {})
        except Exception:  # noqa: BLE001 - a warm-up only: the Run button says what goes wrong
            pass
        finally:
            with _WARMING_LOCK:
                _WARMING.pop(key, None)

    with _WARMING_LOCK:
        if key in _WARMING:
            return _WARMING[key]
        thread = _WARMING[key] = threading.Thread(target=run, name="cypher-console-warm-up", daemon=True)
    thread.start()
    return thread


_OPENED: set[tuple[str, str]] = set()


def _warm_on_open(backend: Backend, graph_id: str) -> None:
    """The first time this server's page opens the console on a game: the look-up of lines of keys (STEPS_QUERY,
    with no steps) in the background, so that its plan, and Neo4j's planner itself, are warm before an example
    is chosen. Once per game and database in the server's life. O(1) here."""
    if getattr(backend, "driver", None) is None:
        return
    opened = (backend.database, graph_id)
    if opened not in _OPENED:
        _OPENED.add(opened)
        warm_up(backend, graph_id, STEPS_QUERY, json.dumps({"game": graph_id, "steps": []}))


def _await_warm_up(backend: Backend, text: str, params_text: str) -> None:
    """Waits (at most the console's timeout and a second) for the warm-up of exactly this statement and these
    parameters, when one is running: the Run then finds Neo4j's plans made instead of making them a second time
    beside it."""
    with _WARMING_LOCK:
        thread = _WARMING.get((getattr(backend, "database", None), text, params_text))
    if thread is not None:
        thread.join(TIMEOUT_S + 1.0)


def panel(backend: Backend, graph_id: str, key: str, start_key: str) -> None:
    if backend.kind != "neo4j":
        st.info("The Cypher console needs Neo4j, and this page is using the "
                f"{backend.description} because {backend.neo4j_reason or 'Neo4j is not in use'}.")
        return
    _warm_on_open(backend, graph_id)
    library = {name: text for name, text in examples().items() if applies(name, graph_id)}
    if library:
        st.selectbox("Example from the query library", list(library), key="cypher_example", index=None,
                     placeholder="choose an example to load it", on_change=_load_example,
                     args=(graph_id, key, start_key, backend))
    about = st.session_state.get("cypher_about")
    if about and about[1]:
        with st.expander(f"About the example {about[0]}"):
            st.text(about[1])
    st.session_state.setdefault("cypher_text", DEFAULT_QUERY)
    st.session_state.setdefault("cypher_params", json.dumps({"game": graph_id, "key": key}))
    with st.form("cypher_form", border=False, enter_to_submit=True):  # Ctrl/Cmd+Enter in the editor submits it
        st.text_area("Cypher (read-only)", key="cypher_text", height=160)
        st.text_input("Parameters (JSON)", key="cypher_params",
                      help="bound to $name in the query; the current game and position are filled in")
        st.caption(f"Reads only: a statement runs when Neo4j plans it as a read of the game graph; "
                   f"at most {TIMEOUT_S:.0f} s, {ROW_CAP} rows and {MAX_RESULT_BYTES / 1e6:g} MB of data. "
                   "Ctrl+Enter (Cmd+Enter) runs it.")
        run = st.form_submit_button("Run", key="cypher_run", type="primary")
    st.button("Use this position", key="cypher_here", on_click=_use_position, args=(graph_id, key),
              help="set $game and $key in the parameters to the position shown")
    if run:
        _run(backend, graph_id)
    _history()
    shown = st.session_state.get("cypher_result")
    if shown:
        st.caption(shown["caption"])
        if shown.get("graph"):  # nodes, relationships or paths: drawn on the canvas, the table under it
            from explorer.ui import console_canvas
            from explorer.ui.state import url_game

            # The canvas takes the page's width, as Neo4j Browser's graph view does: beside the table it had
            # 310 px at a 1,000 px window, and 20 positions drawn readably need 425 (the table under it is
            # as readable: its long cells are read in full below it).
            graph = shown["graph"]
            st.caption(f"{len(graph['nodes'])} nodes and {len(graph['relationships'])} relationships "
                       f"{shown.get('drawn_from', 'from the result')}; click a position for its facts and to open it.")
            console_canvas.console_canvas(graph, url_game(), graph_id, f"cypher_canvas_{shown['run']}")
        with st.container():
            if shown["rows"]:
                st.dataframe(pd.DataFrame(shown["rows"]), hide_index=True)
                _full_text(shown["rows"], f"cypher_full_{shown.get('run', 0)}")
            for i, (name, records) in enumerate(shown.get("nested", [])):
                st.markdown(f"{as_text(name)}: {len(records)} row{'' if len(records) == 1 else 's'}")  # a column name
                st.dataframe(pd.DataFrame(records), hide_index=True)
                _full_text(records, f"cypher_full_{shown.get('run', 0)}_{i}")


def long_rows(records: list[dict[str, Any]], wide: int = WIDE_CELL) -> list[int]:
    """The rows (0-based) of a console table holding a cell of more than `wide` characters: text the table
    cuts at its column's width. O(cells)."""
    return [i for i, record in enumerate(records) if any(len(str(v)) > wide for v in record.values())]


def _full_text(records: list[dict[str, Any]], key: str) -> None:
    """Under a table whose cells are cut at its columns' width, a choice of a row to read in full: each of
    its cells wrapped to the page's width, escaped (explorer.ui.widgets.as_text: no markup, no link), one
    row at a time (the table is up to ROW_CAP rows of MAX_CELL_CHARS a cell). O(cells)."""
    rows = long_rows(records)
    if not rows:
        return
    said = f"{len(rows)} row{'' if len(rows) == 1 else 's'}"
    pick = st.selectbox(f"Read a row in full ({said} hold{'s' if len(rows) == 1 else ''} text wider than the table)",
                        rows, index=None, key=key, format_func=lambda i: f"row {i + 1}",
                        placeholder="choose a row to read its cells in full")
    if pick is None:
        return
    with st.container(border=True, key=f"{key}_text"):
        for column, cell in records[pick].items():
            st.markdown(f"**{as_text(str(column))}**: {as_text(str(cell))}")


def _use_position(graph_id: str, key: str) -> None:
    text = st.session_state.get("cypher_params") or "{}"
    try:
        params = json.loads(text) if len(text) <= MAX_PARAM_TEXT else {}  # too long to read: start again too
    except (ValueError, RecursionError):  # not JSON, or JSON Python cannot read: start again from these two
        params = {}
    params = params if isinstance(params, dict) else {}
    params.update(game=graph_id, key=key)
    st.session_state["cypher_params"] = json.dumps(params)


def _history() -> None:
    """The statements run since the page opened, newest first; a click puts one back in the editor."""
    history = st.session_state.get("cypher_history") or []
    if not history:
        return
    with st.expander(f"History: {len(history)} statement{'' if len(history) == 1 else 's'} run since the page opened"):
        for i, entry in enumerate(reversed(history)):
            first = " ".join(entry["text"].split())
            label = first if len(first) <= 90 else first[:89] + "…"
            st.button(as_text(label), key=f"cypher_history_{len(history) - 1 - i}", on_click=_reload,
                      args=(entry,), help="put this statement and its parameters back in the editor",
                      width="stretch")


def _reload(entry: dict[str, str]) -> None:
    st.session_state["cypher_text"] = entry["text"]
    st.session_state["cypher_params"] = entry["params"]


def _remember(text: str, params: str) -> None:
    history = st.session_state.setdefault("cypher_history", [])
    entry = {"text": text, "params": params}
    if entry in history:
        history.remove(entry)  # run again: it moves to the top
    history.append(entry)
    del history[:-MAX_HISTORY]


def _run(backend: Backend, graph_id: str = "") -> None:
    """Run the console's text; the rows (or nothing, after an error) stay shown until the next run."""
    st.session_state.pop("cypher_result", None)
    text = st.session_state.get("cypher_params") or ""
    if len(text) > MAX_PARAM_TEXT:  # bounded before it is read (or kept in the history): check_params comes after
        error(f"The parameters are {len(text):,} characters of JSON; the console reads at most {MAX_PARAM_TEXT:,} "
              f"(and takes at most {MAX_PARAM_SIZE:,} characters of strings and names)")
        return
    _remember(st.session_state.get("cypher_text") or "", text)
    _await_warm_up(backend, st.session_state.get("cypher_text") or "", text)
    try:
        params = json.loads(text or "{}")
        if not isinstance(params, dict):
            raise QueryError("parameters must be a JSON object, e.g. {\"game\": \"...\"}")
    except json.JSONDecodeError as exc:
        error(f"The parameters are not valid JSON: {exc}")
        return
    except (ValueError, RecursionError):  # a number of thousands of digits, or thousands of nested brackets
        error("The parameters hold a number too long or brackets nested too deep to read; "
              f"parameters are JSON values nested at most {MAX_PARAM_DEPTH} deep")
        return
    try:
        result = api.run_readonly_cypher(backend.driver, backend.database, st.session_state.get("cypher_text") or "",
                                         params, timeout_s=TIMEOUT_S, row_cap=ROW_CAP)
    except Neo4jUnavailable as exc:
        backends.forget()  # the next run probes again, and falls back to the mirror meanwhile
        error(f"{exc}. The page tries Neo4j again within {backends.PROBE_TTL} s.")
        return
    except QueryTimeout:  # the shared message says to raise the timeout; here it is a fixed limit
        error(f"The query took longer than the console's {TIMEOUT_S:g} s and was stopped. The limit is fixed, so that "
              "no query holds the server; narrow it (a LIMIT, a smaller pattern), or run it where you control "
              "the limits (Neo4j's cypher-shell, or `gamegraph query` with --timeout for a named query).")
        return
    except GameGraphError as exc:
        error(str(exc))
        return
    st.session_state["cypher_result"] = _shown(result)
    if result.graph is None:
        _draw_key_lines(backend, graph_id, params, result, st.session_state["cypher_result"])
    st.session_state["cypher_result"]["run"] = st.session_state.get("cypher_runs", 0) + 1  # a new canvas per run
    st.session_state["cypher_runs"] = st.session_state["cypher_result"]["run"]


def _draw_key_lines(backend: Backend, graph_id: str, params: dict[str, Any], result: ConsoleResult,
                    shown: dict[str, Any]) -> None:
    """A result holding lines of position keys (queries.results.key_steps) but no graph values: its
    moves looked up in the game ($game, else the page's) with one more read under the console's own
    checks, so that they are drawn. Nothing is drawn when the lists name no moves; a failure of the
    look-up leaves the table alone."""
    steps = key_steps(result.columns, result.rows)
    game = params.get("game") if isinstance(params.get("game"), str) else graph_id
    if not steps or not game:
        return
    try:
        found = api.run_readonly_cypher(backend.driver, backend.database, STEPS_QUERY, {"game": game, "steps": steps},
                                        timeout_s=TIMEOUT_S, row_cap=ROW_CAP)
    except GameGraphError:
        return
    if found.graph:
        shown["graph"] = found.graph
        shown["drawn_from"] = "of the lines of position keys in the result"


def _is_table(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def _shown(result: ConsoleResult) -> dict[str, Any]:
    """The caption and table rows of a console result; every cell as readable text (queries.results.readable).

    A single row whose columns hold lists of maps (the library's queries that return several
    tables, e.g. draw-levels) is shown as one table per such column, each row of which is a map,
    since a JSON list in one cell is unreadable; its other columns stay in the main table."""
    note = f"; cut at the row cap ({result.row_cap})" if result.truncated else ""
    if result.byte_cap:
        note = f"; cut at {result.byte_cap / 1e6:g} MB of data (the console's byte cap), so later rows are not shown"
    nested: list[tuple[str, list[dict[str, Any]]]] = []
    columns, rows = list(result.columns), [list(row) for row in result.rows]
    if len(rows) == 1 and any(_is_table(v) for v in rows[0]):
        keep = [i for i, v in enumerate(rows[0]) if not _is_table(v)]
        nested = [(columns[i], _records(rows[0][i])) for i in range(len(columns)) if i not in keep]
        columns, rows = [columns[i] for i in keep], [[rows[0][i] for i in keep]] if keep else []
    table = Table(columns, _cells(rows))
    count = len(result.rows)
    caption = f"{count} row{'' if count == 1 else 's'}{note}" + (", shown below as one table per column" if nested else "")
    return {"caption": caption + ".", "rows": table.records(), "nested": nested, "graph": result.graph}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _cells(rows: list[list[Any]]) -> list[list[Any]]:
    """The rows' cells as the table shows them: a column of numbers (nulls allowed) stays numbers, so
    that it sorts as numbers; any other column is readable text, one type per column."""
    numeric = [all(_number(v) or v is None for v in column) for column in zip(*rows)]
    return [[v if numeric[i] else readable(v) for i, v in enumerate(row)] for row in rows]


def _records(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A list of maps as the rows of a table of its own (keys as columns), cells as _cells shows them."""
    columns = list(dict.fromkeys(k for item in items for k in item))
    rows = _cells([[item.get(k) for k in columns] for item in items])
    return [dict(zip(columns, row)) for row in rows]
