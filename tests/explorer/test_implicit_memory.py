"""The memory an implicit solve asks for before it starts (explorer.implicit.check_memory) and watches while it runs.

A game may declare the bytes an index its solve holds, measured with a margin (Offers.solve_bytes: Dōbutsu shōgi's
3, against the worst case's 6); the check asks for that, and the solve watches its cells and queue between the
loop's steps (implicit._MemoryWatch). The available memory is faked through explorer.core.limits.available_memory,
the one reading every check makes; the measured peaks are real: the cells and the queue's pages in memory (mincore).
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from explorer import implicit
from explorer.cli import main
from explorer.core import limits
from explorer.core.errors import GraphTooLarge
from explorer.games import parse_spec
from explorer.games.base import GENERIC
from explorer.games.dobutsu.rules import Dobutsu

# Reduced Dōbutsu games that a test can solve: 29,436 indices and 4,547,268 (a lion, a giraffe and an elephant
# each, 8 s); the declaration is one figure for every parameter set of the game. Measured at 2.97 and 2.68 bytes an
# index (the two with a chick, 15,991,668 indices, 2.64 and 2.74; 20 s each, not run here).
REDUCED_DOBUTSU = ["dobutsu:small", "dobutsu(giraffes=1,elephants=1,chicks=0)"]


def _refusal(game) -> str:
    with pytest.raises(GraphTooLarge) as refused:
        implicit.check_memory(game)
    return str(refused.value)


def test_the_check_asks_for_the_declared_figure_and_refuses_one_byte_short(monkeypatch):
    """Dōbutsu shōgi declares 3 bytes an index: 4.4 GB, which an 8 GB machine has; the worst case asked 8.8."""
    game = parse_spec("dobutsu:standard")
    size = game.implicit_size()
    need, per_index, declared = implicit.solving_memory(game)
    assert declared and per_index == game.offers.solve_bytes == 3
    assert need == 3 * size + implicit.SOLVE_BUFFERS
    assert need < 5 * 2 ** 30 < implicit.BYTES_PER_INDEX_SOLVING * size  # fits 8 GB, which the worst case did not
    monkeypatch.setattr(limits, "available_memory", lambda: need)
    implicit.check_memory(game)  # exactly enough: accepted
    monkeypatch.setattr(limits, "available_memory", lambda: need - 1)
    said = _refusal(game)
    assert "\n" not in said
    assert said.startswith(f"solving dobutsu:standard takes up to {limits.human_bytes(need)} of memory "
                           f"({size:,} indices, 3 bytes each as measured, with a margin), more than the "
                           f"{limits.human_bytes(need - 1)} this machine has available now"), said
    monkeypatch.setattr(limits, "available_memory", lambda: None)  # unknown: nothing to refuse on
    implicit.check_memory(game)


def test_a_game_that_declares_nothing_is_checked_at_the_worst_case(monkeypatch):
    game = parse_spec("dodgem:5x5")
    assert game.offers.solve_bytes is None
    size = game.implicit_size()
    need, per_index, declared = implicit.solving_memory(game)
    assert (need, per_index, declared) == (6 * size + implicit.SOLVE_BUFFERS, 6, False)
    monkeypatch.setattr(limits, "available_memory", lambda: need)
    implicit.check_memory(game)
    monkeypatch.setattr(limits, "available_memory", lambda: need - 1)
    assert f"({size:,} indices, 6 bytes each at worst)" in _refusal(game)


def test_the_cli_refuses_a_solve_short_of_memory_in_one_line_before_any_work(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path))
    monkeypatch.setattr(limits, "available_memory", lambda: 2 ** 30)
    code = main(["solve", "dobutsu:standard", "--implicit"])
    err = capsys.readouterr().err.strip()
    assert code != 0 and "\n" not in err and "Traceback" not in err, err
    assert "1,567,925,964 indices, 3 bytes each as measured" in err and "1.0 GB" in err, err
    assert not (tmp_path / implicit.CACHE_KIND).exists()  # refused before the state folder's value files


@pytest.mark.parametrize("declared", [0, -1.0, float("nan"), float("inf"), "3", True])
def test_a_declaration_that_is_not_a_positive_number_of_bytes_is_refused(declared):
    offers = dataclasses.replace(Dobutsu.offers, solve_bytes=declared)
    said = offers.missing(Dobutsu)
    assert said == f"declares solve_bytes={declared!r}: a positive number of bytes an index is needed"


def test_a_declaration_needs_the_implicit_mode():
    class NoKernels:  # a stand-in class: the check reads only the declaration here
        pass

    offers = dataclasses.replace(GENERIC, solve_bytes=3.0)
    assert offers.missing(NoKernels) == "declares solve_bytes=True without implicit_kernels=True"


@pytest.mark.parametrize("spec", REDUCED_DOBUTSU)
def test_the_declared_figure_holds_the_measured_peak_of_the_cells_and_queue(spec, tmp_path):
    """The solve's own peak (its cells and the queue's pages in memory, the level sort's scratch included, at the
    end of each step, before pages are given back: meta.json's `memory`) within the game's declaration."""
    import mmap

    game = parse_spec(spec)
    size = game.implicit_size()
    implicit.solve(game, tmp_path / "v")
    memory = json.loads((tmp_path / "v" / "meta.json").read_text())["memory"]
    peak = memory["cells_and_queue_peak"]
    assert memory["declared"] == int(game.offers.solve_bytes * size)
    # Whole pages of queue: its first and last may be partly used (the check's SOLVE_BUFFERS covers the rounding).
    assert peak <= memory["declared"] + 2 * mmap.PAGESIZE, (spec, peak / size)
    assert peak > 2 * size  # the queue counted too, not the cells alone


def test_the_queue_counts_the_pages_it_holds_and_not_those_given_back():
    queue = implicit._Queue(1 << 20)  # 4 MiB of entries, none touched yet
    try:
        assert queue.resident() == 0
        queue.array[: 1 << 18] = 1  # 1 MiB written
        assert queue.resident() == 1 << 20
        queue.give_back(1 << 17)  # the first half-MiB behind the head
        assert queue.resident() == 1 << 19
    finally:
        queue.close()


def _outgrowing(monkeypatch, available):
    """dobutsu:small declared at a tenth of a byte an index (less than its cells: the first step outgrows it),
    in steps of 64 queue entries, with `available` the memory after the check before the solve (which sees plenty)."""
    offers = dataclasses.replace(Dobutsu.offers, solve_bytes=0.1)
    monkeypatch.setattr(Dobutsu, "offers", offers)
    monkeypatch.setattr(implicit, "QUEUE_STEP", 64)
    readings = iter([2 ** 40])
    monkeypatch.setattr(limits, "available_memory", lambda: next(readings, available))
    return parse_spec("dobutsu:small")


def test_a_solve_that_outgrows_its_declaration_stops_in_one_line_when_the_worst_case_does_not_fit(
        monkeypatch, tmp_path):
    game = _outgrowing(monkeypatch, available=1000)
    with pytest.raises(GraphTooLarge) as refused:
        implicit.solve(game, tmp_path / "v")
    said = str(refused.value)
    assert "\n" not in said
    assert said.startswith("solving dobutsu:small stopped: its cells and queue hold "), said
    assert f"more than the {limits.human_bytes(int(0.1 * game.implicit_size()))} its game declares" in said, said
    assert "more than the 1,000 bytes this machine has available now" in said, said
    assert not (tmp_path / "v").exists()  # nothing written: the value file is written whole or not at all


def test_a_solve_that_outgrows_its_declaration_goes_on_when_the_worst_case_fits(monkeypatch, tmp_path):
    plain = implicit.solve(parse_spec("dobutsu:small"), tmp_path / "plain")
    game = _outgrowing(monkeypatch, available=2 ** 40)
    watched = implicit.solve(game, tmp_path / "watched")
    assert (tmp_path / "watched" / implicit.CODES_FILE).read_bytes() == \
        (tmp_path / "plain" / implicit.CODES_FILE).read_bytes()
    assert watched.meta["memory"]["cells_and_queue_peak"] > watched.meta["memory"]["declared"]
    assert plain.meta["counts"] == watched.meta["counts"]


def test_a_game_that_declares_nothing_has_its_peak_measured_to_declare_from(tmp_path):
    """What a game's author reads to declare a figure (docs/your-own-game.md): the same measurement, no check."""
    game = parse_spec("dodgem:4x4")
    size = game.implicit_size()
    values = implicit.solve(game, tmp_path / "v")
    memory = values.meta["memory"]
    assert memory["declared"] is None
    assert 2 * size < memory["cells_and_queue_peak"] < implicit.BYTES_PER_INDEX_SOLVING * size
