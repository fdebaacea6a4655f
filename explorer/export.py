"""Writing a solved graph as JSON lines or CSV: one record per position, or per move."""

from __future__ import annotations

import csv
import json
from typing import IO, Iterator

from explorer.core.records import POSITION_FIELDS
from explorer.solved import SolvedGraph

# The record of explorer.core.records (docs/model.md); a CSV adds the game's fields after these.
POSITION_COLUMNS = list(POSITION_FIELDS)
MOVE_COLUMNS = ["from", "to", "label", "optimal"]


def position_records(solved: SolvedGraph) -> Iterator[dict[str, object]]:
    for node in range(solved.graph.num_positions):
        yield solved.record(node)


def move_records(solved: SolvedGraph) -> Iterator[dict[str, object]]:
    graph = solved.graph
    keys = graph.keys()
    sources = graph.edge_sources()
    for edge in range(graph.num_moves):
        yield {"from": keys[sources[edge]], "to": keys[graph.succ_indices[edge]],
               "label": graph.label(edge), "optimal": bool(solved.solution.optimal[edge])}


def write(records: Iterator[dict[str, object]], out: IO[str], fmt: str, columns: list[str]) -> int:
    """Write records as jsonl or csv (nested values as JSON text); returns the count."""
    count = 0
    if fmt == "jsonl":
        for record in records:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            count += 1
        return count
    writer = None
    for record in records:
        if writer is None:
            extra = [name for name in record if name not in columns]
            writer = csv.DictWriter(out, fieldnames=columns + extra, lineterminator="\n")
            writer.writeheader()
        writer.writerow({k: json.dumps(v) if isinstance(v, (list, dict)) else
                         ("" if v is None else str(v).lower() if isinstance(v, bool) else v) for k, v in record.items()})
        count += 1
    return count
