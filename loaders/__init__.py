"""Getting game graphs into Neo4j, and running the Neo4j server they go into."""
