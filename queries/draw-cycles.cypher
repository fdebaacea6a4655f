// draw-cycles: the simple cycles through a drawn position made only of draw positions.
//
// Answers "how is this draw held?". From a draw, a move to another draw is
// optimal for the mover, so each cycle listed is a way both sides can keep
// playing well forever; the game never ends. A position that is not a draw
// has no such cycle (no rows). Only moves into draw positions are followed,
// which prunes the search; it still grows exponentially with {{max_length}}.
//
// Parameters:
//   $game            the Game id (Position.game)
//   $key             the position's canonical key (a draw)
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
MATCH (p:Position {game: $game, key: $key, value: 'draw'})
MATCH path = (p)((a)-[:MOVE]->(b) WHERE b.value = 'draw'){1,{{max_length}}}(p)
WITH path, nodes(path) AS visited
WHERE all(i IN range(1, size(visited) - 2) WHERE NOT visited[i] IN visited[i + 1..])
WITH length(path) AS length, [n IN visited | n.key] AS keys, [m IN relationships(path) | m.label] AS labels
RETURN length, keys, labels
ORDER BY length, keys
LIMIT $limit
