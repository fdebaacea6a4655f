"""bench/README.md holds one section per benchmark script, each between its own markers."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).with_name("README.md")
INTRO = """# Benchmarks

Each benchmark script rewrites only its own section, between its markers.
"""


def write_section(name: str, heading: str, text: str) -> None:
    """Replace (or append under `heading`) the section of benchmark `name`; temp file + rename.

    `text` holds no heading: the heading is written here, once, outside the markers, so
    rewriting a section leaves it alone.
    """
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    current = README.read_text() if README.exists() else INTRO
    section = f"{start}\n{text}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if pattern.search(current):
        updated = pattern.sub(lambda _: section, current, count=1)
    else:
        updated = current.rstrip("\n") + f"\n\n## {heading}\n\n" + section + "\n"
    partial = README.with_name(f"README.md.{name}.partial")
    partial.write_text(updated)
    partial.replace(README)


def publish(name: str, heading: str, text: str, write: bool = True) -> None:
    """Print a benchmark's table and, unless told not to, keep it in bench/README.md."""
    print(text)
    if write:
        write_section(name, heading, text)
        print(f"wrote {README}")
