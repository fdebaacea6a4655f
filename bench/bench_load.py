"""Neo4j load throughput: the batched loader (loaders.neo4j_loader), its previous version, a naive
loader, the three reload paths and deletes, and Neo4j's offline importer (the `load --bulk` path).

    python -m bench.bench_load                 # small, medium, large; bulk import of huge and giant
    python -m bench.bench_load --sizes --bulk-sizes huge giant --bolt-sizes huge   # issue 23's run
    python -m bench.bench_load --sizes small medium --bulk-sizes large --no-write

Games are Chopsticks with more fingers: about 10k, 100k, 1.1M (and 6.7M and
19.9M for the importer) moves. The batched loader writes the whole game (schema, lock,
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
own (never the server's store), on the same files twice: with the settings of
before issue 23 (string ids, its default threads, 1g off-heap) and with
today's (loaders.neo4j_import.machine_arguments); the CSV writing of before
(`legacy_files`, kept here as the baseline) and of today, the importer's own
time ("IMPORT DONE in"), its whole process and its CPU time are given apart,
and `--bolt-sizes` loads the same game over Bolt beside it (move phase, whole
load, client and server CPU). The machine is shared: every row records the
load average at its end, and CPU times say how much of the wall time was work. Needs a running
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
import resource
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
from loaders.defaults import DEFAULT_WORKERS  # noqa: E402
from loaders.settings import Neo4jSettings, open_driver  # noqa: E402

SIZES = {"small": "chopsticks(fingers=8)", "medium": "chopsticks(fingers=13)", "large": "chopsticks(fingers=22)",
         "huge": "chopsticks(fingers=32)", "giant": "chopsticks(fingers=40)"}
# The importer's settings before issue 23: string ids, its default threads (the cores), 1g off-heap, 1g heap.
OLD_IMPORT_SETTINGS = ("before: string ids, default threads, off-heap 1g, G1", ["--max-off-heap-memory=1g"])
OLD_COLLECTOR = "-XX:+UseG1GC"  # the admin tool's collector before issue 23 (the server's)
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


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds a running process (the Neo4j server) has used so far; None if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, TypeError):
        return None


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def legacy_files(solved: SolvedGraph, directory: Path) -> None:
    """The CSV files as written before issue 23 (row by row in Python, string Game id, a label or type on
    every row), kept as the baseline of the writing time; the files are not imported."""
    import csv

    from loaders.neo4j_import import _cell, _column_type, _type_suffix
    from loaders.neo4j_loader import CONTENT, STRUCTURE, encode_labels, fingerprints

    # The per-position columns, as they were then (mirror.position_columns is column-wise since).
    columns, moves = mirror.position_columns_per_position(solved), mirror.move_columns(solved)
    game = mirror.game_properties(solved)
    graph_id = game["id"]
    game[STRUCTURE], game[CONTENT] = fingerprints(columns, moves, *encode_labels(moves["label"]), game)
    with open(directory / "game.csv", "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([":ID(Game)"] + [f"{n}{_type_suffix(v)}" for n, v in game.items()] + [":LABEL"])
        writer.writerow([graph_id, *(_cell(v) for v in game.values()), "Game"])
    with open(directory / "positions.csv", "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([":ID(Position)", "game"] + [f"{n}{_column_type(columns[n])}" for n in columns] + [":LABEL"])
        writer.writerows([node, graph_id, *(_cell(v) for v in row), "Position"]
                         for node, row in enumerate(zip(*columns.values())))
    sources, targets, flags = moves["source"].tolist(), moves["target"].tolist(), ("false", "true")
    with open(directory / "moves.csv", "w", newline="") as handle:
        handle.write(":START_ID(Position),:END_ID(Position),label,optimal:boolean,:TYPE\n")
        for start in range(0, len(sources), 1 << 16):
            stop = start + (1 << 16)
            handle.write("".join(f"{a},{b},{label},{flags[o]},MOVE\n" for a, b, label, o in
                                 zip(sources[start:stop], targets[start:stop], moves["label"][start:stop],
                                     moves["optimal"][start:stop])))


def timed_files(write, *args) -> dict[str, float]:
    began, cpu = time.perf_counter(), time.process_time()
    write(*args)
    return {"wall": time.perf_counter() - began, "cpu": time.process_time() - cpu, "load": os.getloadavg()[0]}


def run_importer(files: dict[str, Path], scratch: Path, arguments: list[str],
                 collector: str | None = None) -> dict[str, float]:
    """Neo4j's importer on the files into a fresh scratch home: its whole run, its own 'IMPORT DONE in'
    time and the CPU time of its process, with the load average at its end. `collector` replaces the
    admin tool's garbage collector option (the "before" row runs with the one of before)."""
    from loaders import neo4j_admin

    home = scratch / "home"
    shutil.rmtree(home, ignore_errors=True)
    command, env = neo4j_admin.argv(arguments, home=home)
    if collector:
        command = [collector if option == neo4j_admin.ADMIN_COLLECTOR else option for option in command]
    cpu, began = children_cpu(), time.perf_counter()
    done = subprocess.run(command, env=env, cwd=scratch, capture_output=True, text=True)  # import.report
    run_s = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"the importer failed: {(done.stdout + done.stderr)[-2000:]}")
    reported = re.search(r"IMPORT DONE in (?:(\d+)m )?(\d+)s (\d+)ms", done.stdout)
    own = (int(reported[1] or 0) * 60 + int(reported[2]) + int(reported[3]) / 1000) if reported else run_s
    shutil.rmtree(home, ignore_errors=True)
    return {"run": run_s, "import": own, "cpu": children_cpu() - cpu, "load": os.getloadavg()[0]}


def bulk_import(solved: SolvedGraph, legacy_writer: bool = True) -> list[tuple[str, dict[str, float]]]:
    """Neo4j's importer (as `load --bulk` runs it) on one game, into a scratch home, with the settings of
    before issue 23 and with today's (loaders.neo4j_import), on the same files. Each row: the CSV
    writing (today's writer; and the writer of before on the "before" row, unless `legacy_writer` is
    False) and the importer's run."""
    from loaders import neo4j_admin, neo4j_import

    scratch = Path(tempfile.mkdtemp(prefix="bench-bulk-"))
    try:
        written_before = None
        if legacy_writer:
            (scratch / "legacy").mkdir()
            written_before = timed_files(legacy_files, solved, scratch / "legacy")
            shutil.rmtree(scratch / "legacy")
        (scratch / "files").mkdir()
        files: dict[str, Path] = {}
        written = timed_files(lambda: files.update(neo4j_import.write_game_files(solved, scratch / "files")))
        today = neo4j_import.import_arguments([files], "neo4j")
        old_name, old_extra = OLD_IMPORT_SETTINGS
        old = [a for a in today if a != "--id-type=integer"] + old_extra
        new = today + neo4j_import.machine_arguments()
        new_name = "now: integer ids, " + ", ".join(a[2:].replace("=", " ") for a in neo4j_import.machine_arguments())
        new_name += ", " + neo4j_admin.ADMIN_COLLECTOR.removeprefix("-XX:+Use")
        return [(old_name, {**run_importer(files, scratch, old, collector=OLD_COLLECTOR), "files": written_before}),
                (new_name, {**run_importer(files, scratch, new), "files": written})]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def bolt_load(solved: SolvedGraph, driver, database: str, graph_id: str, server_pid: int | None) -> dict[str, float]:
    """One Bolt load (loaders.neo4j_loader, default batches and workers) into an empty copy, left for the
    caller to report and then delete: its move phase, the whole load, this process's CPU and the server's."""
    delete(driver, database, graph_id)
    cpu, server = time.process_time(), cpu_seconds(server_pid)
    report = neo4j_loader.load(solved, driver, database, graph_id=graph_id)
    server_after = cpu_seconds(server_pid)
    result = {"moves": report.phases["moves"], "prepare": report.phases["prepare"], "whole": report.seconds,
              "client_cpu": time.process_time() - cpu, "load": os.getloadavg()[0],
              "server_cpu": None if server is None or server_after is None else server_after - server}
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


def run(sizes: list[str], naive_seconds: float, batch_size: int, workers: list[int], bulk_sizes: list[str],
        bolt_sizes: list[str] = (), legacy_writer: bool = True) -> tuple[list[list[str]], list[list[str]], str]:
    settings = Neo4jSettings.from_env()
    driver = open_driver(settings)
    db = settings.database
    rows_out: list[list[str]] = []
    bulk_out: list[list[str]] = []
    from loaders import neo4j_server

    status = neo4j_server.status()  # the embedded server's pid, for its CPU time (None for another server)
    server_pid = status.pid if status.running and status.uri.rsplit(":", 1)[-1] == settings.uri.rsplit(":", 1)[-1] else None
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
        for size in bulk_sizes:
            spec = SIZES[size]
            solved = build(spec)
            V, E = solved.graph.num_positions, solved.graph.num_moves
            for name, t in bulk_import(solved, legacy_writer):
                files = t["files"]
                written = f"{files['wall']:.1f} ({files['cpu']:.1f} CPU)" if files else ""
                print(f"{spec}, importer {name}: files {written or '-'} s, run {t['run']:.1f} s (its own "
                      f"{t['import']:.1f} s, CPU {t['cpu']:.1f} s), {E / t['import']:,.0f} moves/s of its own time; "
                      f"load average {t['load']:.1f}", flush=True)
                bulk_out.append([spec, f"{E:,}", name, "importer", written, f"{t['import']:.1f}", f"{t['run']:.1f}",
                                 f"{t['cpu']:.1f}", f"{E / t['import']:,.0f}", f"{E / t['run']:,.0f}",
                                 f"{files['wall'] + t['run']:.1f}" if files else "", f"{t['load']:.1f}"])
        # The Bolt loads after every importer row: deleting a Bolt-loaded game keeps the server busy for
        # a minute or more, which would run beside the next importer.
        for size in [size for size in bulk_sizes if size in bolt_sizes]:
            spec = SIZES[size]
            solved = build(spec)
            E = solved.graph.num_moves
            b = bolt_load(solved, driver, db, f"bench-load:{solved.graph.graph_id}", server_pid)
            server = "" if b["server_cpu"] is None else f"{b['server_cpu']:.1f}"
            print(f"{spec}, Bolt: moves {b['moves']:.1f} s ({E / b['moves']:,.0f}/s), whole load {b['whole']:.1f} s, "
                  f"client CPU {b['client_cpu']:.1f} s, server CPU {server or '?'} s; load average {b['load']:.1f}",
                  flush=True)
            bulk_out.append([spec, f"{E:,}", f"Bolt (batched, {DEFAULT_WORKERS} workers)", "Bolt",
                             f"(rows and fingerprints {b['prepare']:.1f})",
                             f"moves {b['moves']:.1f}", f"{b['whole']:.1f}",
                             f"{b['client_cpu']:.1f} client + {server or '?'} server",
                             f"{E / b['moves']:,.0f}", f"{E / b['whole']:,.0f}", f"{b['whole']:.1f}",
                             f"{b['load']:.1f}"])
            delete(driver, db, f"bench-load:{solved.graph.graph_id}")  # after the report: slow at this size
    finally:
        driver.close()
    return rows_out, bulk_out, info


def table(rows: list[list[str]], bulk: list[list[str]], info: str, naive_seconds: float) -> str:
    """The section's markdown, without a heading (write_section adds HEADING)."""
    header = ["game", "positions", "moves", "loader", "positions/s", "relationships/s", "load s", "rows/s",
              "reload unchanged s", "reload changed properties s", "replace s", "delete s"]
    lines = [f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
             f"load average {os.getloadavg()[0]:.1f} at the end; {info}."]
    if rows:
        lines += ["", "| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
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
        bulk_header = ["game", "moves", "settings", "path", "CSV files s (CPU s)", "importer's own s",
                       "whole importer process s", "CPU s", "relationships/s (own time)",
                       "relationships/s (whole process)", "files + process s", "load average"]
        lines += ["", "Neo4j's offline importer (`neo4j-admin database import full`, as `gamegraph load --bulk` "
                      "runs it, heap 1g), into a scratch home, with the settings of before issue 23 and today's on "
                      "the same files; the Bolt loader's load of the same game beside it:", "",
                  "| " + " | ".join(bulk_header) + " |", "|" + "|".join("---" for _ in bulk_header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in bulk]
        lines += ["", "The importer's own s is its 'IMPORT DONE in' line; the whole process adds the JVM's start "
                      "and stop; its CPU s is the process's user + system time (2 cores: at most twice the wall "
                      "time). CSV files s on the \"before\" row is the writer of before (kept in this benchmark), "
                      "on the \"now\" row loaders.neo4j_import. For Bolt: the move phase, the whole load "
                      "(prepare, positions, moves, checks), and the CPU of this process and of the server. "
                      "The load average is the 1-minute one at the end of each run (other jobs included). "
                      "`load --bulk` adds a server restart to the importer (the database swap)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="*", choices=tuple(SIZES), default=["small", "medium", "large"])
    parser.add_argument("--naive-seconds", type=float, default=30.0, help="cap per naive phase (0 skips it)")
    parser.add_argument("--batch-size", type=int, default=neo4j_loader.DEFAULT_BATCH_SIZE)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, neo4j_loader.DEFAULT_WORKERS],
                        help="writer threads of the batched loader; one row per value")
    parser.add_argument("--bulk-sizes", nargs="*", choices=tuple(SIZES), default=["huge", "giant"],
                        help="games to run Neo4j's offline importer on, old settings and new (none: skip it)")
    parser.add_argument("--bolt-sizes", nargs="*", choices=tuple(SIZES), default=["huge"],
                        help="of the bulk sizes, those also loaded over Bolt beside the importer")
    parser.add_argument("--no-legacy-writer", action="store_true",
                        help="skip timing the CSV writer of before issue 23")
    parser.add_argument("--no-write", action="store_true", help="print the table instead of writing bench/README.md")
    args = parser.parse_args(argv)
    rows, bulk, info = run(args.sizes, args.naive_seconds, args.batch_size, args.workers, args.bulk_sizes,
                           args.bolt_sizes, not args.no_legacy_writer)
    text = table(rows, bulk, info, args.naive_seconds)
    publish("bench_load", HEADING, text, write=not args.no_write)


if __name__ == "__main__":
    main()
