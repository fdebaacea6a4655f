"""Regenerate tests/support/golden/counts.json from the current code — deliberately, never from a test.

    cd /work/main && python -m tests.support.golden.regenerate

Golden counts in the python-chess "perft" style: for each game, with and
without symmetry reduction, the number of positions and moves, the positions
of each value, the start's value and remoteness. Refresh only after a rule or
solver change that is meant to change them, and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from explorer.games import parse_spec  # noqa: E402
from explorer.games.chopsticks.rules import Chopsticks  # noqa: E402
from explorer.solved import build  # noqa: E402
from explorer.core.values import Value  # noqa: E402

PATH = Path(__file__).with_name("counts.json")
SPECS = [f"chopsticks:{preset}" for preset in Chopsticks.presets] + [
    "tictactoe", "nim:small", "nim:marienbad", "mutorere", "mutorere:free-putahi", "ponghauki",
    "toads-and-frogs", "toads-and-frogs:winning-ways", "domineering", "domineering:4x4",
    "dodgem:3x3", "dodgem:4x4"]


def record(spec: str, symmetry: bool) -> dict:
    """The golden facts of one game graph."""
    solved = build(parse_spec(spec), symmetry=symmetry)
    graph, solution = solved.graph, solved.solution
    return {
        "positions": graph.num_positions,
        "moves": graph.num_moves,
        "values": solution.counts(),
        "terminal": int((graph.terminal >= 0).sum()),
        "on_cycle": int(solved.on_cycle.sum()),
        "max_remoteness": int(solution.remoteness.max()),
        "start": {"key": graph.key(0), "value": str(Value(int(solution.value[0]))),
                  "remoteness": solved.remoteness(0)},
    }


def golden() -> dict:
    return {spec: {"id": parse_spec(spec).id,
                   "symmetry": record(spec, True),
                   "no_symmetry": record(spec, False)} for spec in SPECS}


def main() -> None:
    PATH.write_text(json.dumps(golden(), indent=2) + "\n")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
