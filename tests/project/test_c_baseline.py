"""bench/c/dodgem_retrograde.c, the C yardstick of issue 20: built with the system gcc, it must
agree with gamegraph's implicit solve at every index of Dodgem 3x3 and 4x4 (values and
remoteness), and the bench's comparison must notice a single differing index."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from bench import bench_c_baseline as bench
from explorer import implicit
from explorer.games import parse_spec

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None,
                                reason="no gcc on PATH: the C baseline in bench/c cannot be built")


@pytest.fixture(scope="module")
def executable(tmp_path_factory):
    return bench.compile_baseline(tmp_path_factory.mktemp("c-baseline"))


@pytest.fixture(scope="module")
def solved(executable, tmp_path_factory):
    """Both sides' outputs for 3x3 and 4x4 in one folder, as the bench lays them out."""
    outputs = tmp_path_factory.mktemp("outputs")
    for n in (3, 4):
        bench.run_c(executable, n, outputs)
        implicit.solve(parse_spec(f"dodgem:{n}x{n}"), folder=bench.gamegraph_folder(outputs, n))
    return outputs


@pytest.mark.parametrize("n", [3, 4])
def test_the_c_baseline_equals_gamegraph_at_every_index(solved, n):
    comparison = bench.compare(n, solved)
    assert comparison["indices"] == parse_spec(f"dodgem:{n}x{n}").index_space()
    assert comparison["agree"], comparison
    assert (comparison["value_mismatches"], comparison["remoteness_mismatches"]) == (0, 0)


def test_the_comparison_finds_one_changed_index(solved, tmp_path):
    """Copy 4x4's outputs, change one remoteness and one value of the C side: both are counted."""
    for path in bench.c_paths(solved, 4):
        shutil.copy(path, tmp_path / path.name)
    shutil.copytree(bench.gamegraph_folder(solved, 4), bench.gamegraph_folder(tmp_path, 4))
    values_path, remoteness_path = bench.c_paths(tmp_path, 4)
    remoteness = np.memmap(remoteness_path, dtype=np.int16, mode="r+")
    changed = int(np.flatnonzero(remoteness > 0)[-1])  # a decided position near the end
    remoteness[changed] += 1
    remoteness.flush()
    values = np.memmap(values_path, dtype=np.int8, mode="r+")
    values[7] = 2 if values[7] != 2 else 3  # a tie: no Dodgem position is one
    values.flush()
    del remoteness, values
    comparison = bench.compare(4, tmp_path)
    assert not comparison["agree"]
    assert (comparison["value_mismatches"], comparison["remoteness_mismatches"]) == (1, 1)
    assert [example["index"] for example in comparison["first"]] == [7, changed]


@pytest.mark.parametrize("n", [3, 4])
def test_the_c_ranking_and_moves_check_themselves(executable, n):
    """--selfcheck: the fast ranking equals the port of kernels.py's at every index, the enumeration
    is in index order, and the un-moves are the moves reversed."""
    done = subprocess.run([str(executable), "--selfcheck", str(n)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert '"failures": 0' in done.stdout


def test_the_c_baseline_rejects_a_bad_size_in_one_line(executable, tmp_path):
    done = subprocess.run([str(executable), "9", str(tmp_path / "v"), str(tmp_path / "r")],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "2 to 5" in done.stderr


def test_no_gcc_is_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    with pytest.raises(bench.BenchError, match="no gcc"):
        bench.compile_baseline(tmp_path)


def test_the_table_gives_the_ratio_and_flags_a_difference():
    side = {"indices": 1000, "wall_seconds": 1.0, "peak_rss_bytes": 4600, "when": "2026-01-01 00:00 UTC", "load": 0.5}
    rows = {"5": {"c": {**side, "cpu_seconds": 10.0}, "gamegraph": {**side, "cpu_seconds": 25.0},
                  "comparison": {"agree": False, "indices": 1000, "value_mismatches": 3, "remoteness_mismatches": 4}},
            "4": {"c": {**side, "cpu_seconds": 0.01}, "gamegraph": {**side, "cpu_seconds": 1.0},
                  "comparison": {"agree": True, "indices": 1000}}}
    lines = bench.table(rows).splitlines()
    four, five = (next(line for line in lines if line.startswith(f"| {n}×{n} ")) for n in (4, 5))
    assert lines.index(four) < lines.index(five)  # by size
    assert "| 2.50× | 1.00× |" in five and "**differ**: 3 values, 4 remoteness" in five and "| 4.60 |" in five
    assert "| – |" in four and "equal at all 1,000 indices" in four  # 0.01 s of C is too coarse for a ratio


def test_the_table_has_a_row_per_thread_count_beside_the_same_c_run():
    """--threads: each gamegraph run (gamegraph@1, gamegraph@2) a row of its own with its CPU and wall
    ratios to the one C run, its bytes at rest, its `show` latency and its own comparison."""
    side = {"indices": 1000, "peak_rss_bytes": 4600, "when": "2026-01-01 00:00 UTC", "load": 0.5}
    one = {**side, "cpu_seconds": 30.0, "wall_seconds": 30.0, "bytes_at_rest": 250,
           "show": {"median_ms": 0.4, "p99_ms": 1.2}, "comparison": {"agree": True, "indices": 1000}}
    two = {**one, "cpu_seconds": 32.0, "wall_seconds": 12.0,
           "comparison": {"agree": False, "indices": 1000, "value_mismatches": 1, "remoteness_mismatches": 0}}
    rows = {"5": {"c": {**side, "cpu_seconds": 20.0, "wall_seconds": 20.0}, "gamegraph@1": one, "gamegraph@2": two}}
    lines = [line for line in bench.table(rows).splitlines() if line.startswith("| 5×5 ")]
    assert len(lines) == 2
    assert "| gamegraph, 1 thread |" in lines[0] and "| 1.50× | 1.50× | 0.250 | 0.40 / 1.20 |" in lines[0]
    assert "equal at all 1,000 indices" in lines[0]
    assert "| gamegraph, 2 threads |" in lines[1] and "| 1.60× | 0.60× |" in lines[1]
    assert "**differ**: 1 values, 0 remoteness" in lines[1]


def test_the_committed_readme_has_the_section_once_under_its_heading():
    from bench import readme

    text = readme.README.read_text()
    start, end = "<!-- bench_c_baseline:start -->", "<!-- bench_c_baseline:end -->"
    assert text.count(f"## {bench.HEADING}") == 1 and text.count(start) == 1 and text.count(end) == 1
    assert text.index(f"## {bench.HEADING}") < text.index(start) < text.index(end)
    assert "## " not in text[text.index(start):text.index(end)]
