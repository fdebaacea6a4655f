"""The sidebar's game picker: game, preset and one typed widget per declared parameter.

Widgets are generated from `Params` metadata (min/max become the number
input's limits, choices a select, bools a checkbox), so a new game or
parameter needs no UI code. The URL's spec is the truth: when it names a game
the widgets do not show yet, the widgets are reset from it; when a widget
changes, the new spec goes into the URL (a bad combination is reported and
the URL keeps the last good game).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import streamlit as st

from explorer.core.errors import GameGraphError
from explorer.games import Game, game_class, games, parse_spec
from explorer.games.base import format_value, parse_value, type_name
from explorer.ui import state
from explorer.ui.widgets import error

CUSTOM = "custom"


def _key(game_name: str, param: str) -> str:
    return f"param_{game_name}_{param}"


def preset_of(game: Game) -> str:
    """The preset whose parameters the game has exactly, else 'custom'."""
    return game.preset_name() or CUSTOM


def _widget_value(value: Any) -> Any:
    return format_value(value) if isinstance(value, tuple) else value


def named_game(spec: str) -> Game:
    """The game a (possibly bad) spec names, with its first preset, as the picker offers it on a game
    change; the default game when the spec names none. For the page of a bad link. O(spec)."""
    name = re.match(r"\s*([A-Za-z0-9_-]*)", spec)[1].lower()
    try:
        cls = game_class(name)
        first = next(iter(cls.presets), None)
        return cls(cls.Params(**cls.presets.get(first, {})))
    except GameGraphError:
        return parse_spec(state.DEFAULT_GAME)


def _load_widgets(game: Game) -> None:
    """Point every picker widget at `game` (before the widgets are drawn)."""
    st.session_state["pick_game"] = game.name
    st.session_state["pick_preset"] = preset_of(game)
    for f in dataclasses.fields(game.params):
        st.session_state[_key(game.name, f.name)] = _widget_value(getattr(game.params, f.name))
    st.session_state["picker_for"] = game.id


def _params_from_widgets(cls: type[Game]) -> dict[str, Any]:
    values = {}
    for f in dataclasses.fields(cls.Params):
        raw = st.session_state.get(_key(cls.name, f.name), f.default)
        values[f.name] = parse_value(cls.Params, f.name, raw) if isinstance(raw, str) and type_name(f.type) != "str" else raw
    return values


def _widgets_show(game: Game) -> bool:
    """Whether the picker's widgets hold exactly `game` (not parameters typed and refused)."""
    if st.session_state.get("pick_game") != game.name:
        return False
    try:
        return game.Params(**_params_from_widgets(type(game))) == game.params
    except (GameGraphError, TypeError, ValueError):
        return False


def _apply(cls: type[Game], values: dict[str, Any]) -> None:
    """Validate the chosen parameters; a good game goes into the URL, a bad one is reported."""
    try:
        game = cls(cls.Params(**values))
    except GameGraphError as exc:
        state.refuse("picker_error", str(exc))
        return
    except TypeError as exc:
        state.refuse("picker_error", f"bad parameters for {cls.name}: {exc}")
        return
    state.set_game(game.display_name)  # forgets the refusals
    _load_widgets(game)


def _game_changed() -> None:
    cls = game_class(st.session_state["pick_game"])
    first = next(iter(cls.presets), None)
    _apply(cls, dict(cls.presets.get(first, {})))


def _preset_changed() -> None:
    cls = game_class(st.session_state["pick_game"])
    preset = st.session_state["pick_preset"]
    if preset == CUSTOM:
        return
    _apply(cls, dict(cls.presets[preset]))


def _param_changed() -> None:
    cls = game_class(st.session_state["pick_game"])
    try:
        values = _params_from_widgets(cls)
    except GameGraphError as exc:
        state.refuse("picker_error", str(exc))
        return
    _apply(cls, values)


def sidebar(game: Game) -> None:
    """Draw the picker for the game in use (the URL's). While a refusal of its parameters is shown the boxes
    keep what was typed, to be mended; once it is gone (the page moved on) they show the game in use again."""
    refused = state.refusal("picker_error")
    if st.session_state.get("picker_for") != game.id or (refused is None and not _widgets_show(game)):
        _load_widgets(game)
    registry = games()
    st.selectbox("Game", list(registry), key="pick_game", on_change=_game_changed,
                 format_func=lambda name: name, help="; ".join(f"{n}: {c.description}" for n, c in registry.items()))
    cls = registry[st.session_state["pick_game"]]
    st.selectbox("Preset", [*cls.presets, CUSTOM], key="pick_preset", on_change=_preset_changed,
                 help="a named rule set; changing a parameter below makes it 'custom'")
    with st.expander("Parameters", expanded=preset_of(game) == CUSTOM):
        for row in cls.Params.describe():
            _param_widget(cls, row)
    if refused:
        error(refused)


def _bounds(row: dict[str, Any]) -> str:
    """A parameter's declared limits in words: 'from 2 to 100', 'at least 0', 'at most 8'."""
    low, high = row["minimum"], row["maximum"]
    if low is not None and high is not None:
        return f"from {low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _param_widget(cls: type[Game], row: dict[str, Any]) -> None:
    key = _key(cls.name, row["name"])
    label = row["name"].replace("_", " ")
    if row["choices"]:
        st.selectbox(label, list(row["choices"]), key=key, help=row["help"], on_change=_param_changed)
    elif row["type"] == "bool":
        st.checkbox(label, key=key, help=row["help"], on_change=_param_changed)
    elif row["type"] == "int":
        st.number_input(label, min_value=row["minimum"], max_value=row["maximum"], step=1, key=key,
                        help=f"{row['help']} ({_bounds(row)})", on_change=_param_changed)
    else:
        limits = ""
        if row["minimum"] is not None or row["maximum"] is not None:
            limits = f" (each {_bounds(row)})"
        st.text_input(label, key=key, help=f"{row['help']}{limits}", on_change=_param_changed)
