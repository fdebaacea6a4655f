"""The layered layout's band of draws not connected to the page's position (canvas/layout.py band_of, UNCONNECTED;
issue 35): a stranger saw a band named "draws, not connected" for draws that were connected, after an expansion,
until the canvas was laid out again. An expansion's draw one move beyond the farthest band (or brought by a decided
position, whose distance the expansion did not know) was given that band. Now, after every expansion, a band is named
"draws, not connected" only when it holds a draw with no path to the focus on the canvas, and every draw is in the
band of its distance as the canvas's moves give it, or a further one (a draw placed before a shorter way to it came)."""

from __future__ import annotations

import json

import pytest

from explorer.solved import load_or_build
from explorer.ui import canvas
from explorer.ui.backend import Backend
from explorer.ui.canvas.layout import UNCONNECTED, _hops


@pytest.mark.parametrize("spec, k", [("dobutsu:small", 1), ("chopsticks:standard", 2), ("chopsticks", 1)])
def test_a_band_of_connected_draws_is_never_named_not_connected(spec, k):
    solved = load_or_build(spec)
    focus = solved.graph.key(0)
    backend = Backend("arrays", "the solved arrays")
    grown = canvas.start(solved.game, solved, backend, focus, k, "both", False, ("s",), 0)
    grown.layout = canvas.layout_for("layered", grown, focus)
    draws_brought = 0
    done: list[str] = []
    for _ in range(6):   # expansions of the nodes drawn, in key order, until six added something
        for key in sorted(grown.nodes):
            if key == focus or key in done:
                continue
            done.append(key)
            new = canvas.expand(grown, solved.game, solved, backend, key, "both", False, focus)
            if new:
                break
        else:
            break
        canvas.grow_layout(grown, key, new)
        draws_brought += sum(grown.nodes[n]["data"].get("remoteness") is None for n in new)
        hops = _hops(grown.nodes, grown.edges, focus)
        rows = json.loads(grown.nodes[focus]["data"]["_rows"])
        unconnected = [n for n, band in grown.bands.items() if band == UNCONNECTED]
        assert all(n not in hops for n in unconnected), (key, [n for n in unconnected if n in hops])
        assert ("draws, not connected" in {r["text"] for r in rows}) == bool(unconnected), (key, rows)
        for n, band in grown.bands.items():
            if band[0] == 1:
                assert band[1] >= hops[n], (key, n, band, hops[n])
    assert draws_brought, spec   # (the expansions brought draws: the check had something to check)
