"""Named queries over a solved game graph, on Neo4j (Cypher files) or on the networkx mirror.

`queries.api` is the entry point; each query's Cypher lives in ``queries/<name>.cypher``.
"""
