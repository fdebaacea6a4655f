"""Neo4j load throughput: the batched loader (loaders.neo4j_loader) next to a naive one.

    cd /work/main && python -m bench.bench_load                 # small, medium, large
    python -m bench.bench_load --sizes small medium --no-write

Games are Chopsticks with more fingers: about 10k, 100k and 1M+ moves. The
batched loader writes the whole game (schema, positions, moves, count check,
Game node). The naive loader sends one auto-committed MERGE per row (positions,
then moves matched by (game, key)); it runs on the small and medium games only,
each phase capped at --naive-seconds, and its rate is rows done / time spent.
Both load under a `bench-load:` graph id that is deleted afterwards, so real
games in the database are never touched. Needs a running server (NEO4J_URI etc.,
or `gamegraph neo4j start`). Writes a markdown table into bench/README.md
between the `bench_load` markers; other sections are left untouched.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("GAMEGRAPH_PROGRESS", "0")
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.readme import publish  # noqa: E402
from explorer.solved import SolvedGraph, build  # noqa: E402
from loaders import mirror, neo4j_loader  # noqa: E402
from loaders.settings import Neo4jSettings, open_driver  # noqa: E402

SIZES = {"small": "chopsticks(fingers=8)", "medium": "chopsticks(fingers=13)", "large": "chopsticks(fingers=22)"}
NAIVE_SIZES = ("small", "medium")
HEADING = "Loading into Neo4j (`bench_load.py`)"  # written by write_section, outside the markers


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


def run(sizes: list[str], naive_seconds: float, batch_size: int, workers: list[int]) -> tuple[list[list[str]], str]:
    settings = Neo4jSettings.from_env()
    driver = open_driver(settings)
    db = settings.database
    rows_out: list[list[str]] = []
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
            for threads in workers:
                report = neo4j_loader.load(solved, driver, db, batch_size=batch_size, graph_id=graph_id, workers=threads)
                p = report.phases
                print(f"{spec}, {threads} workers: {report}; phases {', '.join(f'{k} {v:.2f} s' for k, v in p.items())}",
                      flush=True)
                removal = delete(driver, db, graph_id)
                print(f"  delete of the loaded game: {removal:.2f} s", flush=True)
                rows_out.append([spec, f"{V:,}", f"{E:,}", f"batched ({batch_size:,} rows/tx, {threads} workers)",
                                 f"{V / p['positions']:,.0f}", f"{E / p['moves']:,.0f}",
                                 f"{report.seconds:.1f}", f"{report.rows_per_second:,.0f}", f"{removal:.1f}"])
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
                                 f"{'≈' if capped else ''}{estimate:.1f}", f"{(V + E) / estimate:,.0f}", ""])
    finally:
        driver.close()
    return rows_out, info


def table(rows: list[list[str]], info: str, naive_seconds: float) -> str:
    """The section's markdown, without a heading (write_section adds HEADING)."""
    header = ["game", "positions", "moves", "loader", "positions/s", "relationships/s", "total s", "rows/s",
              "delete s"]
    lines = [f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
             f"load average {os.getloadavg()[0]:.1f} at the end; {info}.", "",
             "| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines += ["", "relationships/s is the move phase alone; total s and rows/s cover the whole load "
                  "(schema, positions, moves, count check, Game node); delete s is `delete_game` of the loaded game, "
                  "the first step of a reload.",
              f"\\* capped: the naive loader ran {naive_seconds:.0f} s per phase; its total is extrapolated from its rates."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", choices=tuple(SIZES), default=list(SIZES))
    parser.add_argument("--naive-seconds", type=float, default=30.0, help="cap per naive phase (0 skips it)")
    parser.add_argument("--batch-size", type=int, default=neo4j_loader.DEFAULT_BATCH_SIZE)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, neo4j_loader.DEFAULT_WORKERS],
                        help="writer threads of the batched loader; one row per value")
    parser.add_argument("--no-write", action="store_true", help="print the table instead of writing bench/README.md")
    args = parser.parse_args(argv)
    rows, info = run(args.sizes, args.naive_seconds, args.batch_size, args.workers)
    text = table(rows, info, args.naive_seconds)
    publish("bench_load", HEADING, text, write=not args.no_write)


if __name__ == "__main__":
    main()
