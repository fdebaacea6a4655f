"""The docs and docstrings name only files and modules that exist, so a newcomer following
docs/architecture.md (or any module's "see ...") never lands on a path that moved."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATH = re.compile(r"\b(?:explorer|loaders|queries|tests|bench|scripts|docs)/[A-Za-z0-9_/.-]+\.(?:py|cypher|md|json|toml|java|xml|svg)\b")
MODULE = re.compile(r"\b(?:explorer|loaders|queries)(?:\.[a-z_][a-z0-9_]*)+")


def _texts() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md"]
    for package in ("explorer", "loaders", "queries"):
        files += sorted((ROOT / package).rglob("*.py"))
    return files


def _module_exists(dotted: str) -> bool:
    """A module, or an attribute of one (explorer.solved.build): the longest importable prefix decides."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        relative = Path(*parts[:cut])
        if (ROOT / relative).with_suffix(".py").is_file() or (ROOT / relative / "__init__.py").is_file():
            return cut >= len(parts) - 2  # at most module.attribute.attribute
    return False


@pytest.mark.parametrize("text", _texts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_named_paths_and_modules_exist(text):
    body = text.read_text(encoding="utf-8")
    missing = sorted({p for p in PATH.findall(body) if not (ROOT / p).exists()})
    missing += sorted({m for m in MODULE.findall(body) if not _module_exists(m)})
    assert missing == []
