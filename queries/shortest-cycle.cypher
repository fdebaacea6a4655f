// shortest-cycle: the shortest cycle of moves that leaves a position and comes back to it.
//
// Answers "how fast can play return here?". Among equally short cycles the one
// whose sequence of position keys is smallest is chosen, so the answer is
// deterministic. ALL SHORTEST runs a breadth-first search, then only the
// shortest cycles are compared. No rows: the position lies on no cycle of at
// most {{max_length}} moves.
//
// Parameters:
//   $game            the Game id (Position.game)
//   $key             the position's canonical key
//   {{max_length}}   the longest cycle searched, in moves. Cypher cannot take a
//                    path-length bound as a parameter, so queries/api.py
//                    substitutes a range-checked small integer; by hand,
//                    replace it with a number such as 30.
//
// Example (with {{max_length}} replaced by 30):
//   :param game => 'chopsticks(fingers=5,overflow=cutoff,attack_dead=false,split=transfer,suicide=false,swaps=false)'
//   :param key => 'A|1-1|1-1'
//
// Returns one row per move of the cycle: step, the position (key, value,
// remoteness), the move played from it (label, optimal) and where it leads (to);
// the last row's `to` is the position itself.
MATCH (p:Position {game: $game, key: $key})
MATCH path = ALL SHORTEST (p)-[:MOVE]->{1,{{max_length}}}(p)
WITH path
ORDER BY [n IN nodes(path) | n.key]
LIMIT 1
UNWIND range(0, length(path) - 1) AS step
WITH step, nodes(path)[step] AS n, relationships(path)[step] AS m, nodes(path)[step + 1] AS next
RETURN step, n.key AS key, n.value AS value, n.remoteness AS remoteness, m.label AS label, next.key AS to,
       m.optimal AS optimal
ORDER BY step
