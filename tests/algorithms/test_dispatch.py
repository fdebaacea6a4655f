"""Small graphs take the plain numpy path, large ones the kernels; both give the same answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.algorithms import dispatch as engine
from explorer.core import settings
from explorer.core.errors import InvalidParameter

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, sys
import numpy as np
from explorer.solved import build
s = build(sys.argv[1])
g = s.graph
edges = list(zip(g.edge_sources().tolist(), g.succ_indices.tolist(), g.edge_label.tolist(), s.solution.optimal.tolist()))
print(json.dumps({"numba": "numba" in sys.modules, "codes": g.codes.tolist(), "value": s.solution.value.tolist(),
                  "remoteness": s.solution.remoteness.tolist(), "edges": edges, "on_cycle": s.on_cycle.tolist(),
                  "components": sorted(sorted(np.flatnonzero(s.scc == c).tolist()) for c in np.unique(s.scc))}))
"""


def run(spec: str, kernels_from: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "GAMEGRAPH_KERNELS_FROM"}
    if kernels_from is not None:
        env["GAMEGRAPH_KERNELS_FROM"] = kernels_from
    done = subprocess.run([sys.executable, "-c", SCRIPT, spec], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("spec", ["chopsticks", "chopsticks:magic-fingers", "chopsticks:rollover"])
def test_small_graphs_skip_numba_and_agree_with_the_kernels(spec):
    """The same graph edge for edge, in the same order (a load's fingerprints hash the order: the plain
    generator wrote each position's moves by target, the kernel move by move, and a reload of a game built
    the other way was a needless replacement)."""
    plain, compiled = run(spec, None), run(spec, "0")
    assert not plain["numba"], "a small graph must not load numba"
    assert compiled["numba"]
    for key in ("codes", "value", "remoteness", "edges", "on_cycle", "components"):
        assert plain[key] == compiled[key], key


def test_kernels_from(monkeypatch):
    # The suite runs every size compiled in its own process (tests/conftest.py); this is the setting itself.
    monkeypatch.setattr(engine, "kernels_from", settings.kernels_from)
    monkeypatch.delenv("GAMEGRAPH_KERNELS_FROM", raising=False)
    assert engine.kernels_from() == engine.KERNELS_FROM
    assert not engine.use_kernels(engine.KERNELS_FROM - 1) and engine.use_kernels(engine.KERNELS_FROM)
    monkeypatch.setenv("GAMEGRAPH_KERNELS_FROM", "0")
    assert engine.use_kernels(0)
    for bad in ("many", "-3", "1.5"):
        monkeypatch.setenv("GAMEGRAPH_KERNELS_FROM", bad)
        with pytest.raises(InvalidParameter, match=f"GAMEGRAPH_KERNELS_FROM='{bad}'"):
            engine.kernels_from()
