"""The memory an implicit solve asks for before it starts (explorer.implicit.check_memory) and watches while it runs.

Two questions (explorer.core.limits.short_of_room). What the solve keeps in memory: a game may declare the bytes an
index its solve holds, measured with a margin (Offers.solve_bytes: Dōbutsu shōgi's 3, against the worst case's 6),
asked of the memory available; the solve watches its cells and queue between the loop's steps
(implicit._MemoryWatch). What it maps: its cells and its whole queue (6 bytes an index, touched or not) and the
runtime's maps, asked of the address space left under ``ulimit -v``, which counts a map whole when it is made.
The rooms left are faked through explorer.core.limits.resident_room and address_space_room, the readings every check
makes; the measured peaks are real (the cells and the queue's pages in memory: mincore), and so are the address-space
limits of the subprocess tests (RLIMIT_AS), which run the CLI.
"""

from __future__ import annotations

import dataclasses
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

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


def _rooms(monkeypatch, resident: int | None = None, address_space: int | None = None) -> None:
    """The memory available now and the address space left, as the checks read them (None: unknown, no limit)."""
    monkeypatch.setattr(limits, "resident_room", lambda: None if resident is None else
                        limits.Room(resident, limits.AVAILABLE_NOW))
    monkeypatch.setattr(limits, "address_space_room", lambda: None if address_space is None else
                        limits.Room(address_space, limits.ADDRESS_SPACE_LEAVES))


def test_the_check_asks_for_the_declared_figure_and_refuses_one_byte_short(monkeypatch):
    """Dōbutsu shōgi declares 3 bytes an index: 4.4 GB, which an 8 GB machine has; the worst case asked 8.8."""
    game = parse_spec("dobutsu:standard")
    size = game.implicit_size()
    need, per_index, declared = implicit.solving_memory(game)
    assert declared and per_index == game.offers.solve_bytes == 3
    assert need == 3 * size + implicit.SOLVE_BUFFERS
    assert need < 5 * 2 ** 30 < implicit.BYTES_PER_INDEX_SOLVING * size  # fits 8 GB, which the worst case did not
    _rooms(monkeypatch, resident=need)
    implicit.check_memory(game)  # exactly enough: accepted
    _rooms(monkeypatch, resident=need - 1)
    said = _refusal(game)
    assert "\n" not in said
    assert said.startswith(f"solving dobutsu:standard takes up to {limits.human_bytes(need)} of memory "
                           f"({size:,} indices, 3 bytes each as measured, with a margin), more than the "
                           f"{limits.human_bytes(need - 1)} this machine has available now"), said
    _rooms(monkeypatch)  # unknown: nothing to refuse on
    implicit.check_memory(game)


def test_a_game_that_declares_nothing_is_checked_at_the_worst_case(monkeypatch):
    game = parse_spec("dodgem:5x5")
    assert game.offers.solve_bytes is None
    size = game.implicit_size()
    need, per_index, declared = implicit.solving_memory(game)
    assert (need, per_index, declared) == (6 * size + implicit.SOLVE_BUFFERS, 6, False)
    _rooms(monkeypatch, resident=need)
    implicit.check_memory(game)
    _rooms(monkeypatch, resident=need - 1)
    assert f"({size:,} indices, 6 bytes each at worst)" in _refusal(game)


def test_the_address_space_is_asked_for_the_whole_queue_and_named_when_it_refuses(monkeypatch):
    """Under `ulimit -v` the solve maps its whole queue (4 bytes an index) beside its 2-byte cells, however little of
    the queue fills: an address space between the declared resident figure and that passed the check that asked
    one figure of the least room, then failed mapping the queue (ENOMEM, an internal error, exit 70)."""
    monkeypatch.setenv("NUMBA_NUM_THREADS", "2")
    game = parse_spec("dobutsu:standard")
    size = game.implicit_size()
    need, _, _ = implicit.solving_memory(game)
    mapped = implicit.mapped_memory(game)
    assert mapped == (6 * size + implicit.SOLVE_BUFFERS + implicit.SOLVE_RUNTIME_MAPS + implicit.THREAD_MAPS)
    assert implicit.mapped_memory(game, threads=4) - implicit.mapped_memory(game, threads=1) == 3 * implicit.THREAD_MAPS
    between = need + (mapped - need) // 2
    human = limits.human_bytes
    _rooms(monkeypatch, resident=2 ** 40, address_space=between)
    said = _refusal(game)
    assert "\n" not in said
    assert said == (f"solving dobutsu:standard maps {human(mapped)} ({size:,} indices, 6 bytes each: a 2-byte cell "
                    "and a 4-byte queue entry, the queue mapped whole though only its live part fills; and "
                    f"{human(mapped - 6 * size)} for buffers, compiled code and 2 threads), more than the "
                    f"{human(between)} the address-space limit (ulimit -v) leaves; raise it by "
                    f"{human(mapped - between)} or solve it on a larger machine"), said
    _rooms(monkeypatch, resident=2 ** 40, address_space=mapped - 1)
    assert "the address-space limit (ulimit -v) leaves" in _refusal(game)
    _rooms(monkeypatch, resident=need, address_space=mapped)  # both exactly enough: accepted
    implicit.check_memory(game)
    _rooms(monkeypatch, resident=need - 1, address_space=mapped)  # the memory short, the address space not
    assert "this machine has available now" in _refusal(game)
    _rooms(monkeypatch, resident=need - 1, address_space=between)  # both short: the one that fails at once
    assert "the address-space limit (ulimit -v) leaves" in _refusal(game)


def test_the_memory_available_is_the_least_of_the_machines_and_a_containers(monkeypatch):
    monkeypatch.setattr(limits, "meminfo_available", lambda: 8 * 2 ** 30)
    monkeypatch.setattr(limits, "_cgroup_room", lambda: 2 ** 30)
    assert limits.resident_room() == limits.Room(2 ** 30, limits.CGROUP_LEAVES)
    monkeypatch.setattr(limits, "_cgroup_room", lambda: None)
    assert limits.resident_room() == limits.Room(8 * 2 ** 30, limits.AVAILABLE_NOW)
    monkeypatch.setattr(limits, "_address_space_left", lambda: 2 ** 30)
    assert limits.available_memory() == 2 ** 30  # the graph builder's one question: the least of both
    assert limits.short_of_room(resident=4 * 2 ** 30, mapped=2 ** 30) is None
    assert limits.short_of_room(resident=2 ** 30, mapped=2 ** 30 + 1) == \
        (limits.Room(2 ** 30, limits.ADDRESS_SPACE_LEAVES), 2 ** 30 + 1)


def test_the_queue_maps_its_whole_size_at_once():
    """What mapped_memory counts for the queue, read from the system (VmSize), none of it touched."""
    entries = 1 << 24  # 64 MiB
    before = _vm_size()
    queue = implicit._Queue(entries)
    try:
        assert _vm_size() - before >= implicit.QUEUE_ENTRY_BYTES * entries
        assert queue.resident() == 0
    finally:
        queue.close()


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    pytest.skip("no /proc/self/status here")


def test_the_cli_refuses_a_solve_short_of_memory_in_one_line_before_any_work(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path))
    _rooms(monkeypatch, resident=2 ** 30)
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
    monkeypatch.setattr(limits, "resident_room", lambda: limits.Room(next(readings, available), limits.AVAILABLE_NOW))
    monkeypatch.setattr(limits, "address_space_room", lambda: None)
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


# The CLI in a child under an address-space limit (RLIMIT_AS, `ulimit -v`), Dōbutsu shōgi whole: its figures are large
# beside the interpreter's and numba's own maps (a few hundred MB), and neither child below allocates its cells or
# queue, so each costs its start-up only. `PATCH` replaces the child's memory check for a run.
CHILD = """
import sys
from pathlib import Path
from explorer import implicit
{patch}
from explorer.cli import main
raise SystemExit(main(sys.argv[1:]))
"""
STOP_AT_THE_CHECK = """
def check_memory(game):  # prints what the process maps when the solve checks, and stops there
    print(next(int(line.split()[1]) * 1024 for line in Path("/proc/self/status").read_text().splitlines()
               if line.startswith("VmSize:")))
    raise SystemExit(0)
implicit.check_memory = check_memory
"""
NO_CHECK = "implicit.check_memory = lambda game: None  # a check whose figures fell short of the system's"


def _child(home: Path, patch: str | None, cap: int | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, resource.getrlimit(resource.RLIMIT_AS)[1]))

    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if cap is not None and hard != resource.RLIM_INFINITY and cap > hard:
        pytest.skip(f"this process's hard address-space limit ({hard:,} bytes) is below the cap the test sets")
    command = ["-m", "explorer.cli"] if patch is None else ["-c", CHILD.format(patch=patch)]
    return subprocess.run([sys.executable, *command, "solve", "dobutsu:standard", "--implicit"],
                          capture_output=True, text=True, timeout=300, preexec_fn=None if cap is None else limit,
                          env={**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"})


def _mapped_at_the_check(home: Path) -> int:
    out = _child(home, STOP_AT_THE_CHECK)
    assert out.returncode == 0, out.stderr
    return int(out.stdout)


def _nothing_written(home: Path) -> None:
    folder = home / implicit.CACHE_KIND
    assert not folder.exists() or not list(folder.iterdir()), list(folder.iterdir())  # no value file, no partial


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmSize")
def test_an_address_space_that_holds_the_declared_figure_but_not_the_queue_is_refused_in_one_line(tmp_path):
    """`ulimit -v 6000000` let Dōbutsu shōgi's solve past the check (4.4 GB declared, 5.7 GB left) into mapping its
    6.3 GB queue: `gamegraph: internal error: OSError: [Errno 12] Cannot allocate memory`, exit 70. Here the
    address space left at the check is halfway between the declared figure and the queue's map."""
    game = parse_spec("dobutsu:standard")
    need, _, _ = implicit.solving_memory(game)
    queue = implicit.QUEUE_ENTRY_BYTES * game.implicit_size()
    assert need < queue < implicit.mapped_memory(game)
    cap = _mapped_at_the_check(tmp_path) + (need + queue) // 2
    out = _child(tmp_path, None, cap)
    assert out.returncode == 2, out.stderr
    line, = out.stderr.strip().splitlines()
    assert line.startswith("gamegraph: error: solving dobutsu:standard maps "), line
    assert "more than the " in line and "the address-space limit (ulimit -v) leaves; raise it by" in line, line
    _nothing_written(tmp_path)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmSize")
@pytest.mark.parametrize("refused", ["queue", "cells"])
def test_a_map_the_system_refuses_after_the_check_is_one_line_and_leaves_nothing_written(tmp_path, refused):
    """Belt and braces: with the check out of the way, the queue's map refused (ENOMEM from mmap) or, the queue
    mapped, the cells' (numpy's MemoryError), each one line, exit 2, nothing left in the state folder."""
    game = parse_spec("dobutsu:standard")
    room = 3 * 2 ** 29  # 1.5 GiB for the compiled code, less than either map
    if refused == "cells":
        room += implicit.QUEUE_ENTRY_BYTES * game.implicit_size()
    out = _child(tmp_path, NO_CHECK, _mapped_at_the_check(tmp_path) + room)
    assert out.returncode == 2, out.stderr
    line, = out.stderr.strip().splitlines()
    assert line.startswith(f"gamegraph: error: solving dobutsu:standard: the system refused to map its {refused} "), line
    _nothing_written(tmp_path)


MEASURE_THE_MAPS = """
import atexit

def vm_size():
    return next(int(line.split()[1]) * 1024 for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith("VmSize:"))

seen = []
checked, ran = implicit.check_memory, implicit._run

def check_memory(game):
    seen.append(vm_size())
    return checked(game)

def run(*args, **kwargs):  # after each return of the loop: its cells, queue, threads and code all mapped
    status = ran(*args, **kwargs)
    seen.append(vm_size())
    return status

implicit.check_memory, implicit._run = check_memory, run
atexit.register(lambda: print(seen[0], max(seen[1:])))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmSize")
@pytest.mark.parametrize("threads", [1, 2])
def test_what_the_solve_maps_after_the_check_is_within_its_figure(tmp_path, threads):
    """mapped_memory's runtime part (SOLVE_RUNTIME_MAPS, THREAD_MAPS: numba's threads and the loaded code, mapped
    after the check) against the CLI's own solve of dobutsu:small, whose cells and queue are small beside it.
    The kernels compiled first, in this process: a first compile maps more, once."""
    game = parse_spec("dobutsu:small")
    implicit.solve(game, tmp_path / "warm")
    out = subprocess.run([sys.executable, "-c", CHILD.format(patch=MEASURE_THE_MAPS), "solve", "dobutsu:small",
                          "--implicit"], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "home"), "GAMEGRAPH_PROGRESS": "0",
                              "NUMBA_NUM_THREADS": str(threads)})
    assert out.returncode == 0, out.stderr
    at_check, most = map(int, out.stdout.split()[-2:])
    grown = most - at_check
    assert implicit.BYTES_MAPPED_PER_INDEX * game.implicit_size() < grown <= implicit.mapped_memory(game, threads), \
        (threads, grown / 2 ** 20)
