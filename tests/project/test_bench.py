"""bench/README.md: each benchmark's section has one heading, written by bench.readme.write_section alone."""

from __future__ import annotations

import re

from bench import bench_kernels, bench_load, bench_solve, bench_startup, readme

SECTIONS = {"bench_solve": bench_solve.HEADING, "bench_load": bench_load.HEADING,
            "bench_startup": bench_startup.HEADING, "bench_kernels": bench_kernels.HEADING}


def between_markers(text: str, name: str) -> str:
    return re.search(rf"<!-- {name}:start -->(.*?)<!-- {name}:end -->", text, re.S)[1]


def test_a_fresh_readme_gets_one_heading_per_section(tmp_path, monkeypatch):
    monkeypatch.setattr(readme, "README", tmp_path / "README.md")
    load_text = bench_load.table([["nim", "1", "2", "batched", "3", "4", "0.1", "5", "0.1", "0.1", "0.1", "0.1"]],
                                 [["nim", "1", "2", "0.1", "0.2", "0.1", "10", "20"]], "Neo4j x", 30)
    solve_text = bench_solve.table([], [])
    for _ in range(2):  # writing again replaces the section, heading untouched
        readme.write_section("bench_load", bench_load.HEADING, load_text)
        readme.write_section("bench_solve", bench_solve.HEADING, solve_text)
    text = readme.README.read_text()
    assert re.findall(r"^## .*$", text, re.M) == [f"## {bench_load.HEADING}", f"## {bench_solve.HEADING}"]
    assert "## " not in between_markers(text, "bench_load") and "## " not in between_markers(text, "bench_solve")


def test_the_committed_readme_has_each_heading_once_outside_its_markers():
    text = readme.README.read_text()
    for name, heading in SECTIONS.items():
        assert text.count(f"## {heading}") == 1, name
        assert "## " not in between_markers(text, name), name
        assert text.index(f"## {heading}") < text.index(f"<!-- {name}:start -->"), name
