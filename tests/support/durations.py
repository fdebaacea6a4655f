"""How long each test file took in a whole run, so that the next run starts the longest first.

Under pytest-xdist (`./scripts/test`: `-n 2 --dist loadfile`) a file runs whole on one worker, and
the run ends when the last file does. Given out in collection order, a long file that came late
ran alone at the end while the other worker idled (the "tail"). tests/conftest.py orders the files
longest first by `tests/durations.json` (longest-processing-time-first scheduling, which ends
within 4/3 of the best possible on two workers); files it does not know yet go after the known
ones, in collection order.

Refresh the table from a whole run's JUnit report (wall seconds per file, setup and teardown
included):

    ./scripts/test --junitxml=/tmp/run.xml
    .venv/bin/python -m tests.support.durations /tmp/run.xml

The table only orders the files: a stale one costs time, never a result.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "durations.json"


def load() -> dict[str, float]:
    """Seconds per test file (relative to the clone, e.g. 'tests/ui/test_app.py'); {} if none is kept."""
    try:
        table = json.loads(TABLE.read_text())
    except (OSError, ValueError):
        return {}
    return {str(path): float(seconds) for path, seconds in table.get("files", {}).items()
            if isinstance(seconds, (int, float))}


def from_junit(report: Path) -> dict[str, float]:
    """Seconds per file from a JUnit XML report (its testcase 'classname' is the dotted module path)."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "")
        parts = module.split(".")
        # a test class adds one part: keep the parts up to the first 'test_*' module
        while parts and not parts[-1].startswith("test_"):
            parts.pop()
        if parts:
            seconds["/".join(parts) + ".py"] += float(case.get("time") or 0)
    return dict(seconds)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.support.durations REPORT.xml", file=sys.stderr)
        return 2
    try:
        files = from_junit(Path(argv[0]))
    except (OSError, ET.ParseError) as error:
        print(f"durations: cannot read {argv[0]}: {error}", file=sys.stderr)
        return 1
    ranked = dict(sorted(((path, round(s, 1)) for path, s in files.items()), key=lambda kv: -kv[1]))
    TABLE.write_text(json.dumps({"about": "seconds per test file in a whole run (tests/support/durations.py)",
                                 "files": ranked}, indent=1) + "\n")
    print(f"{len(ranked)} files, {sum(ranked.values()):.0f} s in all, written to {TABLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
