"""`check-game` echoes the canonical spec of the game it checked, not only its short name: a stranger asked for
`dodgem(size=4)` and read back `dodgem`, which could as well have been another size."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from explorer.games import parse_spec


def check_game(*args: str, home) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"}
    return subprocess.run([sys.executable, "-m", "explorer.cli", "check-game", *args],
                          capture_output=True, text=True, env=env, timeout=300)


def test_the_text_report_names_the_full_canonical_spec(tmp_path):
    asked = "chopsticks(fingers=3)"
    canonical = parse_spec(asked).id
    assert canonical != asked  # the other parameters are spelled out only in the canonical spec
    out = check_game(asked, home=tmp_path)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert f"[{canonical}]" in first, first


def test_a_preset_is_echoed_with_its_parameters(tmp_path):
    out = check_game("dodgem:3x3", "--format", "json", home=tmp_path)
    assert out.returncode == 0, out.stderr
    [report] = json.loads(out.stdout)
    assert report["spec"] == "dodgem(size=3)" and report["game"] == "dodgem:3x3"
