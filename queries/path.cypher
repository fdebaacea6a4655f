// path: a shortest sequence of moves from one position to another.
//
// Answers "can play get from here to there, and in how few moves?". This is a
// plain shortest path over every move, good or bad (for optimal play see
// shortest-win). Among equally short paths the one whose sequence of keys is
// smallest is chosen, so the answer is deterministic. No rows: the target
// cannot be reached.
//
// Parameters:
//   $game   the Game id (Position.game)
//   $key    the canonical key of the position to start from
//   $to     the canonical key of the position to reach
//
// Example:
//   :param game => 'nim(heaps=1-2-3)'
//   :param key => 'A|1-2-3'
//   :param to => 'B|0-0-0'
//
// Returns one row per position on the path: step, key, value, remoteness and
// the move played from it (label, to, optimal); the last row is the target.
MATCH (a:Position {game: $game, key: $key}), (b:Position {game: $game, key: $to})
MATCH path = ALL SHORTEST (a)-[:MOVE]->*(b)
WITH path
ORDER BY [n IN nodes(path) | n.key]
LIMIT 1
UNWIND range(0, length(path)) AS step
WITH step, nodes(path)[step] AS n, relationships(path)[step] AS m, nodes(path)[step + 1] AS next
RETURN step, n.key AS key, n.value AS value, n.remoteness AS remoteness, m.label AS label, next.key AS to,
       m.optimal AS optimal
ORDER BY step
