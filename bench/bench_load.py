"""Neo4j load throughput: the batched loader (loaders.neo4j_loader), its previous version, a naive
loader, the three reload paths and deletes, and Neo4j's offline importer (the `load --bulk` path).

    python -m bench.bench_load                 # small, medium, large; bulk import of large and huge
    python -m bench.bench_load --sizes small medium --bulk-sizes large --no-write

Games are Chopsticks with more fingers: about 10k, 100k, 1.1M (and 8M+ for the
importer) moves. The batched loader writes the whole game (schema, lock,
positions, moves, count check, Game node); after each load the game is reloaded
three ways: unchanged (the same graph again: counts checked, nothing written),
with changed properties (the same graph with 10% of its values, remoteness and
optimal flags changed, as a solver change would: an update in place) and with
`replace=True` (delete + load, the path a structural change takes); then it is
deleted. "before" is the
loader as it was before the parallel-array change (rows of element-id strings,
10k rows a transaction, nodes deleted with their relationships), kept here as
the baseline and run in the same process on the same server. The naive loader
sends one auto-committed MERGE per row (positions, then moves matched by
(game, key)); it runs on the small and medium games only, each phase capped at
--naive-seconds, and its rate is rows done / time spent. Everything loads under
a `bench-load:` graph id that is deleted afterwards, so real games in the
database are never touched. The importer runs into a scratch Neo4j home of its
own (never the server's store): the time of writing its CSV files and of the
importer's whole run (JVM start included) are given apart. Needs a running
server (NEO4J_URI etc., or `gamegraph neo4j start`). Writes markdown tables
into bench/README.md between the `bench_load` markers; other sections are left
untouched.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.readme import publish  # noqa: E402
from explorer.solved import SolvedGraph, build  # noqa: E402
from explorer.solver import Solution  # noqa: E402
from loaders import mirror, neo4j_loader  # noqa: E402
from loaders.settings import Neo4jSettings, open_driver  # noqa: E402

SIZES = {"small": "chopsticks(fingers=8)", "medium": "chopsticks(fingers=13)", "large": "chopsticks(fingers=22)",
         "huge": "chopsticks(fingers=32)"}
NAIVE_SIZES = ("small", "medium")
LEGACY_SIZES = ("medium", "large")
HEADING = "Loading into Neo4j (`bench_load.py`)"  # written by write_section, outside the markers


def perturbed(solved: SolvedGraph, share: float = 0.1, seed: int = 1) -> SolvedGraph:
    """The same graph with `share` of its values, remoteness and optimal flags changed (a solver change)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    solution = solved.solution
    value, remoteness, optimal = solution.value.copy(), solution.remoteness.copy(), solution.optimal.copy()
    nodes = rng.choice(len(value), max(1, int(len(value) * share)), replace=False)
    value[nodes] = (value[nodes] + 1) % 4
    remoteness[nodes] += 1
    moves = rng.choice(len(optimal), max(1, int(len(optimal) * share)), replace=False)
    optimal[moves] = ~optimal[moves]
    return dataclasses.replace(solved, solution=Solution(value, remoteness, optimal))


def naive_load(solved: SolvedGraph, driver, database: str, graph_id: str, budget: float) -> dict[str, float]:
    """One MERGE per row in its own transaction, as a first attempt would do; each phase stops after `budget` s.

    Returns rows done and seconds per phase. Positions the position phase did not
    reach are then created with the batched query (untimed) so that the move
    phase always finds both ends.
    """
    columns = mirror.position_columns(solved)
    names = list(columns)
    rows = list(zip(*columns.values()))
    moves = mirror.move_columns(solved)
    keys = columns["key"]
    result: dict[str, float] = {}
    with driver.session(database=database) as session:
        began, done = time.perf_counter(), 0
        for row in rows:
            session.run("MERGE (p:Position {game: $game, key: $key}) SET p += $props",
                        game=graph_id, key=row[0], props=dict(zip(names[1:], row[1:]))).consume()
            done += 1
            if time.perf_counter() - began > budget:
                break
        result["positions"], result["positions_s"] = done, time.perf_counter() - began
        if done < len(rows):
            properties = ", ".join(f"`{n}`: r[{i}]" for i, n in enumerate(names))
            for start in range(done, len(rows), 10_000):
                session.run(f"UNWIND $rows AS r CREATE (:Position {{game: $game, {properties}}})",
                            rows=rows[start:start + 10_000], game=graph_id).consume()
        began, done = time.perf_counter(), 0
        for s, t, label, optimal in zip(moves["source"].tolist(), moves["target"].tolist(), moves["label"], moves["optimal"]):
            session.run("MATCH (a:Position {game: $game, key: $a}) MATCH (b:Position {game: $game, key: $b}) "
                        "MERGE (a)-[m:MOVE]->(b) SET m.label = $label, m.optimal = $optimal",
                        game=graph_id, a=keys[s], b=keys[t], label=label, optimal=optimal).consume()
            done += 1
            if time.perf_counter() - began > budget:
                break
        result["moves"], result["moves_s"] = done, time.perf_counter() - began
    return result


def legacy_load(solved: SolvedGraph, driver, database: str, graph_id: str, batch_size: int = 10_000,
                workers: int = 2) -> dict[str, float]:
    """The Bolt loader before this change, positions and moves only: rows of lists, element-id strings
    returned by the position batches and sought by the move batches. Seconds per phase."""
    columns = mirror.position_columns(solved)
    moves = mirror.move_columns(solved)
    names = list(columns)
    properties = ", ".join(f"`{name}`: r[{i}]" for i, name in enumerate(names))
    rows = list(zip(*columns.values()))
    with driver.session(database=database) as session:
        neo4j_loader.ensure_schema(session)
    began = time.perf_counter()
    query = f"UNWIND $rows AS r CREATE (p:Position {{game: $game, {properties}}}) RETURN elementId(p)"
    element_ids: list[str] = []
    batches = ((query, {"game": graph_id, "rows": rows[start:start + batch_size]}, True)
               for start in range(0, len(rows), batch_size))
    for _, ids in neo4j_loader._write_batches(driver, database, batches, workers):
        element_ids.extend(ids)
    positions = time.perf_counter() - began
    sources, targets = moves["source"].tolist(), moves["target"].tolist()
    labels, optimal = moves["label"], moves["optimal"]
    old_moves = ("UNWIND $rows AS r MATCH (a) WHERE elementId(a) = r[0] MATCH (b) WHERE elementId(b) = r[1] "
                 "CREATE (a)-[:MOVE {label: r[2], optimal: r[3]}]->(b)")

    def move_batches():
        for start in range(0, len(sources), batch_size):
            stop = min(start + batch_size, len(sources))
            yield old_moves, {"rows": [[element_ids[sources[i]], element_ids[targets[i]], labels[i], optimal[i]]
                                       for i in range(start, stop)]}, False

    began = time.perf_counter()
    for _ in neo4j_loader._write_batches(driver, database, move_batches(), workers):
        pass
    return {"positions": positions, "moves": time.perf_counter() - began}


def legacy_delete(driver, database: str, graph_id: str) -> float:
    """The delete before this change: each position with all its relationships, 10,000 positions a transaction."""
    began = time.perf_counter()
    with driver.session(database=database) as session:
        session.run("MATCH (g:Game {id: $game}) DETACH DELETE g", game=graph_id).consume()
        session.run("MATCH (p:Position) WHERE p.game = $game AND p.key IS NOT NULL "
                    "CALL (p) { DETACH DELETE p } IN TRANSACTIONS OF 10000 ROWS", game=graph_id).consume()
    return time.perf_counter() - began


def bulk_import(solved: SolvedGraph) -> dict[str, float]:
    """Neo4j's importer (as `load --bulk` runs it) on one game, into a scratch home: seconds for the files
    and for the importer's whole run, and the importer's own 'IMPORT DONE in' time."""
    from loaders import neo4j_admin, neo4j_import

    scratch = Path(tempfile.mkdtemp(prefix="bench-bulk-"))
    try:
        began = time.perf_counter()
        (scratch / "files").mkdir()
        files = neo4j_import.write_game_files(solved, scratch / "files")
        written = time.perf_counter() - began
        memory = os.environ.get("GAMEGRAPH_NEO4J_IMPORT_MEMORY") or "1g"
        command, env = neo4j_admin.argv(neo4j_import.import_arguments([files], "neo4j")
                                        + [f"--max-off-heap-memory={memory}"], home=scratch / "home")
        began = time.perf_counter()
        done = subprocess.run(command, env=env, cwd=scratch, capture_output=True, text=True)  # import.report
        run_s = time.perf_counter() - began
        if done.returncode != 0:
            raise SystemExit(f"the importer failed: {(done.stdout + done.stderr)[-2000:]}")
        reported = re.search(r"IMPORT DONE in (?:(\d+)m )?(\d+)s (\d+)ms", done.stdout)
        own = (int(reported[1] or 0) * 60 + int(reported[2]) + int(reported[3]) / 1000) if reported else run_s
        return {"files": written, "run": run_s, "import": own}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def delete(driver, database: str, graph_id: str) -> float:
    began = time.perf_counter()
    with driver.session(database=database) as session:
        neo4j_loader.delete_game(session, graph_id)
    return time.perf_counter() - began


def server_info(driver, database: str) -> str:
    records, _, _ = driver.execute_query(
        "CALL dbms.listConfig() YIELD name, value WHERE name IN ['server.memory.heap.max_size', "
        "'server.memory.pagecache.size'] RETURN name, value", database_=database)
    config = {r["name"].split(".")[-1]: r["value"] for r in records}
    records, _, _ = driver.execute_query(
        "CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes "
        "RETURN attributes.HeapMemoryUsage.value.properties.max AS heap", database_=database)
    heap = records[0]["heap"] if records else None
    records, _, _ = driver.execute_query("CALL dbms.components() YIELD versions, edition RETURN versions[0] AS v, edition")
    heap_text = f"{heap / 2 ** 30:.1f}GiB" if heap else "?"
    return f"Neo4j {records[0]['v']} {records[0]['edition']}, page cache {config.get('size', '?')}, heap {heap_text}"


def run(sizes: list[str], naive_seconds: float, batch_size: int, workers: list[int],
        bulk_sizes: list[str]) -> tuple[list[list[str]], list[list[str]], str]:
    settings = Neo4jSettings.from_env()
    driver = open_driver(settings)
    db = settings.database
    rows_out: list[list[str]] = []
    bulk_out: list[list[str]] = []
    try:
        info = server_info(driver, db)
        # Warm the server (JIT, query cache) so the first size is not charged for it.
        warm = build("chopsticks(fingers=6)")
        neo4j_loader.load(warm, driver, db, batch_size=batch_size, graph_id="bench-load:warm-up")
        delete(driver, db, "bench-load:warm-up")
        for size in sizes:
            spec = SIZES[size]
            solved = build(spec)
            graph_id = f"bench-load:{solved.graph.graph_id}"
            V, E = solved.graph.num_positions, solved.graph.num_moves
            delete(driver, db, graph_id)
            if size in LEGACY_SIZES:
                began = time.perf_counter()
                p = legacy_load(solved, driver, db, graph_id)
                total = time.perf_counter() - began
                removal = legacy_delete(driver, db, graph_id)
                print(f"{spec}, before: {V / p['positions']:,.0f} positions/s, {E / p['moves']:,.0f} moves/s; "
                      f"delete {removal:.2f} s", flush=True)
                rows_out.append([spec, f"{V:,}", f"{E:,}", "before (element-id rows, 10,000 rows/tx, 2 workers)",
                                 f"{V / p['positions']:,.0f}", f"{E / p['moves']:,.0f}", f"{total:.1f}",
                                 f"{(V + E) / total:,.0f}", "", "", "", f"{removal:.1f}"])
            for threads in workers:
                report = neo4j_loader.load(solved, driver, db, batch_size=batch_size, graph_id=graph_id, workers=threads)
                p = report.phases
                print(f"{spec}, {threads} workers: {report}; phases {', '.join(f'{k} {v:.2f} s' for k, v in p.items())}",
                      flush=True)
                reloads = {}
                for name, graph, replace, path in (("unchanged", solved, False, "unchanged"),
                                                   ("changed", perturbed(solved), False, "updated"),
                                                   ("replace", solved, True, "replaced")):
                    again = neo4j_loader.load(graph, driver, db, batch_size=batch_size, graph_id=graph_id,
                                              workers=threads, replace=replace)
                    if again.path != path:
                        raise SystemExit(f"the {name} reload of {spec} took the {again.path} path, not {path}")
                    reloads[name] = again.seconds
                    print(f"  reload, {name}: {again}; phases "
                          f"{', '.join(f'{k} {v:.2f} s' for k, v in again.phases.items())}", flush=True)
                removal = delete(driver, db, graph_id)
                print(f"  delete of the loaded game: {removal:.2f} s", flush=True)
                rows_out.append([spec, f"{V:,}", f"{E:,}", f"batched ({batch_size:,} rows/tx, {threads} workers)",
                                 f"{V / p['positions']:,.0f}", f"{E / p['moves']:,.0f}",
                                 f"{report.seconds:.1f}", f"{report.rows_per_second:,.0f}",
                                 f"{reloads['unchanged']:.1f}", f"{reloads['changed']:.1f}",
                                 f"{reloads['replace']:.1f}", f"{removal:.1f}"])
            if size in NAIVE_SIZES and naive_seconds > 0:
                naive = naive_load(solved, driver, db, graph_id, naive_seconds)
                delete(driver, db, graph_id)
                pos_rate = naive["positions"] / naive["positions_s"]
                move_rate = naive["moves"] / naive["moves_s"]
                capped = naive["positions"] < V or naive["moves"] < E
                estimate = V / pos_rate + E / move_rate
                print(f"  naive: {pos_rate:,.0f} positions/s, {move_rate:,.0f} moves/s"
                      f"{' (capped)' if capped else ''}", flush=True)
                rows_out.append([spec, f"{V:,}", f"{E:,}", "naive (MERGE per row)" + (" *" if capped else ""),
                                 f"{pos_rate:,.0f}", f"{move_rate:,.0f}",
                                 f"{'≈' if capped else ''}{estimate:.1f}", f"{(V + E) / estimate:,.0f}", "", "", "",
                                 ""])
    finally:
        driver.close()
    for size in bulk_sizes:
        spec = SIZES[size]
        solved = build(spec)
        V, E = solved.graph.num_positions, solved.graph.num_moves
        t = bulk_import(solved)
        print(f"{spec}, importer: files {t['files']:.1f} s, run {t['run']:.1f} s (its own {t['import']:.1f} s), "
              f"{E / t['run']:,.0f} moves/s", flush=True)
        bulk_out.append([spec, f"{V:,}", f"{E:,}", f"{t['files']:.1f}", f"{t['run']:.1f}", f"{t['import']:.1f}",
                         f"{E / t['run']:,.0f}", f"{(V + E) / (t['files'] + t['run']):,.0f}"])
    return rows_out, bulk_out, info


def table(rows: list[list[str]], bulk: list[list[str]], info: str, naive_seconds: float) -> str:
    """The section's markdown, without a heading (write_section adds HEADING)."""
    header = ["game", "positions", "moves", "loader", "positions/s", "relationships/s", "load s", "rows/s",
              "reload unchanged s", "reload changed properties s", "replace s", "delete s"]
    lines = [f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
             f"load average {os.getloadavg()[0]:.1f} at the end; {info}.", "",
             "| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines += ["", "relationships/s is the move phase alone; load s and rows/s cover the whole load "
                  "(schema, lock, positions, moves, count check, Game node) into an empty database; the reloads "
                  "run over the complete copy: unchanged is the same graph again (counts checked, nothing "
                  "written), changed properties the same graph with 10% of its values, remoteness and optimal "
                  "flags changed (an update in place), replace `load --replace` (delete + load, the path a "
                  "structural change takes); delete s is `delete_game` of the loaded game. Each includes "
                  "preparing the rows and fingerprints in Python."]
    if any(row[3].startswith("naive") for row in rows):
        lines.append(f"\\* capped: the naive loader ran {naive_seconds:.0f} s per phase; its total is extrapolated "
                     "from its rates.")
    if bulk:
        bulk_header = ["game", "positions", "moves", "CSV files s", "importer s", "importer's own s",
                       "relationships/s (importer run)", "rows/s (files + importer)"]
        lines += ["", "Neo4j's offline importer (`neo4j-admin database import full`, as `gamegraph load --bulk` "
                      "runs it; heap 1g, off-heap 1g), into a scratch home:", "",
                  "| " + " | ".join(bulk_header) + " |", "|" + "|".join("---" for _ in bulk_header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in bulk]
        lines += ["", "importer s is the whole run of the tool (JVM start included); its own s is its "
                      "'IMPORT DONE in' line. `load --bulk` adds a server restart to this (the database swap)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", choices=tuple(SIZES), default=["small", "medium", "large"])
    parser.add_argument("--naive-seconds", type=float, default=30.0, help="cap per naive phase (0 skips it)")
    parser.add_argument("--batch-size", type=int, default=neo4j_loader.DEFAULT_BATCH_SIZE)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, neo4j_loader.DEFAULT_WORKERS],
                        help="writer threads of the batched loader; one row per value")
    parser.add_argument("--bulk-sizes", nargs="*", choices=tuple(SIZES), default=["large", "huge"],
                        help="games to run Neo4j's offline importer on (none: skip it)")
    parser.add_argument("--no-write", action="store_true", help="print the table instead of writing bench/README.md")
    args = parser.parse_args(argv)
    rows, bulk, info = run(args.sizes, args.naive_seconds, args.batch_size, args.workers, args.bulk_sizes)
    text = table(rows, bulk, info, args.naive_seconds)
    publish("bench_load", HEADING, text, write=not args.no_write)


if __name__ == "__main__":
    main()
