"""`gamegraph query --help` explains every query of the catalogue (issue 37): its name, what it answers (the
catalogue's `summary`, queries.catalog) and the options it reads, one entry per query; it listed the names only,
although the README said it explains each."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from queries.catalog import QUERIES

OPTIONS = {"position": "--position", "to": "--to", "direction": "--direction", "value": "--value", "k": "--k",
           "max_length": "--max-length", "limit": "--limit"}


def entries(text: str) -> dict[str, str]:
    """The help's entries, by query name: a line '  NAME: ...' and its indented continuation lines."""
    found: dict[str, str] = {}
    name = None
    for line in text.splitlines():
        head = re.match(r"  (\S+): (.*)", line)
        if head and head[1] in QUERIES:
            name = head[1]
            found[name] = head[2]
        elif name and line.startswith("      "):
            found[name] += " " + line.strip()
        else:
            name = None
    return found


def test_every_query_has_its_line_saying_what_it_answers_and_which_options_it_reads(tmp_path):
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "home"), "COLUMNS": "100"}
    out = subprocess.run([sys.executable, "-m", "explorer.cli", "query", "--help"], capture_output=True, text=True,
                         env=env, timeout=120, cwd="/")
    assert out.returncode == 0, out.stderr
    found = entries(out.stdout)
    assert list(found) == list(QUERIES), out.stdout  # every query, once, in the catalogue's order
    for name, query in QUERIES.items():
        line = found[name]
        assert line.startswith(query.summary), (name, line)
        reads = line[len(query.summary):]
        assert set(re.findall(r"--[a-z-]+", reads)) == {OPTIONS[p] for p in query.params}, (name, line)
        for param in query.ints:
            assert f"{OPTIONS[param.name]} ({param.minimum}-{param.maximum}, default {param.default})" in reads
