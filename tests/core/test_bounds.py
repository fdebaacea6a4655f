"""explorer.core.bounds: numbers as typed, plain ASCII only, never silently changed (issue 19, item 7)."""

from __future__ import annotations

import pytest

from explorer.core.bounds import decimal_number, whole_number
from explorer.core.errors import GameGraphError
from explorer.core import settings


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("3", 3.0), (".25", 0.25), ("1e-3", 0.001), ("0", 0.0),
                                         ("0.0e9", 0.0), ("-2", -2.0), (" 1.5 ", 1.5)])
def test_plain_decimals_are_read(text, value):
    assert decimal_number(text, "x") == value


@pytest.mark.parametrize("text, reason", [
    ("\u0663", "not a plain decimal"), ("\uff13", "not a plain decimal"), ("nan", "not a plain decimal"),
    ("inf", "not a plain decimal"), ("0x10", "not a plain decimal"), ("1_0", "not a plain decimal"), ("", "not a plain"),
    ("1e-400", "would become 0"), ("1e400", "too large"), ("9" * 41, "characters"),
])
def test_what_float_would_accept_or_change_is_refused(text, reason):
    with pytest.raises(ValueError, match=reason):
        decimal_number(text, "x")


@pytest.mark.parametrize("text", ["\u0663", "\uff13", "\u0662\u0662", "1_0", "1.0"])
def test_whole_numbers_are_ascii_digits_only(text):
    with pytest.raises(ValueError):
        whole_number(text, "x")


@pytest.mark.parametrize("variable, text", [
    ("GAMEGRAPH_MEMORY", "\u0663G"), ("GAMEGRAPH_MEMORY", "9" * 309), ("GAMEGRAPH_MEMORY", "9" * 25),
    ("GAMEGRAPH_MEMORY", "1" + "0" * 20 + "T"), ("GAMEGRAPH_UI_MEMORY", "\uff14G"),
    ("GAMEGRAPH_UI_MAX_POSITIONS", "\u0663"), ("GAMEGRAPH_KERNELS_FROM", "\u0663"), ("GAMEGRAPH_KERNELS_FROM", "9" * 400),
])
def test_numeric_settings_refuse_unicode_digits_and_huge_values_in_one_line(variable, text, monkeypatch):
    monkeypatch.setenv(variable, text)
    read = {"GAMEGRAPH_MEMORY": settings.memory_budget, "GAMEGRAPH_UI_MEMORY": settings.ui_memory,
            "GAMEGRAPH_UI_MAX_POSITIONS": settings.ui_max_positions, "GAMEGRAPH_KERNELS_FROM": settings.kernels_from}
    with pytest.raises(GameGraphError, match=variable) as caught:
        read[variable]()
    assert "\n" not in str(caught.value)


def test_memory_sizes_are_exact(monkeypatch):
    assert settings.parse_size("1.5G") == 3 * 2 ** 29
    assert settings.parse_size("1000000") == 1_000_000
    assert settings.parse_size("1024T") == 2 ** 50
    monkeypatch.setenv("GAMEGRAPH_UI_MIRROR_MAX_POSITIONS", "\u0663")
    assert settings.ui_mirror_max_positions() == settings.DEFAULT_UI_MIRROR_MAX_POSITIONS  # documented: ignored
