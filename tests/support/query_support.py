"""Shared set-up for query tests: games loaded into the real Neo4j under unique ids, next to their mirrors."""

from __future__ import annotations

import uuid
from contextlib import contextmanager

from loaders.mirror import to_networkx
from queries.api import Neo4jBackend, NetworkxBackend


@contextmanager
def loaded_backends(solved: dict, neo4j_server, prefix: str):
    """{spec: (networkx backend, Neo4j backend)}; the Neo4j copies are deleted afterwards."""
    from loaders import neo4j_loader
    from loaders.settings import open_driver

    run = uuid.uuid4().hex[:10]
    ids = {spec: f"{prefix}-{run}:{spec}" for spec in solved}
    with open_driver(neo4j_server) as driver:
        try:
            for spec, s in solved.items():
                neo4j_loader.load(s, driver, neo4j_server.database, graph_id=ids[spec])
            yield {spec: (NetworkxBackend(to_networkx(s)),
                          Neo4jBackend(driver, neo4j_server.database, ids[spec], timeout_s=60))
                   for spec, s in solved.items()}
        finally:
            with driver.session(database=neo4j_server.database) as session:
                for game_id in ids.values():
                    neo4j_loader.delete_game(session, game_id)
