// cycles: every simple cycle through a position of at most {{max_length}} moves.
//
// Answers "in which ways can play come back to this position?". A simple
// cycle visits no position twice except the one it starts and ends at. A cycle
// never leaves its strongly connected component, so the expansion only follows
// moves into positions with the same `scc` id as the start (the solver stored
// it), which prunes the search. The work still grows exponentially with
// {{max_length}}, which is why it is bounded (and the API adds a timeout).
//
// Parameters:
//   $game            the Game id (Position.game)
//   $key             the position's canonical key
//   $limit           the most cycles returned, shortest first
//   {{max_length}}   the longest cycle listed, in moves. Cypher cannot take a
//                    path-length bound as a parameter, so queries/api.py
//                    substitutes a range-checked small integer; by hand,
//                    replace it with a number such as 8.
//
// Example (with {{max_length}} replaced by 8):
//   :param game => 'chopsticks(fingers=5,overflow=cutoff,attack_dead=false,split=transfer,suicide=false,swaps=false)'
//   :param key => 'A|1-1|1-1'
//   :param limit => 100
//
// Returns one row per cycle: its length in moves, the keys visited (starting
// and ending at the position) and the labels of the moves, ordered by length,
// then by keys.
MATCH (p:Position {game: $game, key: $key})
MATCH path = (p)((a)-[:MOVE]->(b) WHERE b.scc = p.scc){1,{{max_length}}}(p)
WITH path, nodes(path) AS visited
WHERE all(i IN range(1, size(visited) - 2) WHERE NOT visited[i] IN visited[i + 1..])
WITH length(path) AS length, [n IN visited | n.key] AS keys, [m IN relationships(path) | m.label] AS labels
RETURN length, keys, labels
ORDER BY length, keys
LIMIT $limit
