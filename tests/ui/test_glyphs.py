"""Every character the page writes itself is one a plain Debian draws: in DejaVu, the one font family
scripts/install requires. Chromium there has no colour-emoji font unless the install could add it, and it
drew the page's emoji (the tab's ✋, the warnings' ⚠️) as empty boxes. Icons are Streamlit's own Material
Symbols (served with the page) or drawn; what a user types is theirs, and the optional emoji font covers it."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The page's own text: its panels and components, and the board drawings it shows. Vendored libraries are left out.
SOURCES = sorted(p for folder in ("explorer/ui", "explorer/render") for p in (ROOT / folder).rglob("*")
                 if p.suffix in (".py", ".js") and not p.name.endswith(".min.js") and "__pycache__" not in p.parts)
EMOJI_PRESENTATION = "\ufe0f"  # asks for the emoji form of the character before it, which needs an emoji font


@cache
def in_dejavu(codepoint: int) -> bool:
    found = subprocess.run(["fc-list", f":charset={codepoint:x}", "family"], capture_output=True, text=True).stdout
    return "DejaVu" in found


def test_the_sources_are_found():
    assert any(p.name == "app.py" for p in SOURCES) and any(p.name == "canvas_view.js" for p in SOURCES)


def test_no_emoji_presentation_is_asked_for():
    asking = [str(p.relative_to(ROOT)) for p in SOURCES if EMOJI_PRESENTATION in p.read_text(encoding="utf-8")]
    assert not asking, asking


@pytest.mark.skipif(shutil.which("fc-list") is None or not in_dejavu(ord("A")),
                    reason="needs fontconfig and DejaVu (scripts/install)")
def test_every_character_of_the_page_is_in_dejavu():
    missing = {}
    for path in SOURCES:
        for ch in set(path.read_text(encoding="utf-8")):
            if ord(ch) > 0x7F and not in_dejavu(ord(ch)):
                missing.setdefault(f"U+{ord(ch):04X} {ch}", []).append(str(path.relative_to(ROOT)))
    assert not missing, missing
