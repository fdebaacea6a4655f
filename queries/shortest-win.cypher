// shortest-win: the principal variation from a position, down to the end of the game.
//
// Answers "how does optimal play go from here?". This is NOT a plain shortest
// path: at each position the player to move plays an optimal move that
// follows the remoteness exactly (the next position's remoteness is one less),
// so the winner takes the fastest win and the loser the longest defence (a
// tie is steered to its nearest end). Among several such moves the smallest
// label wins, then the smallest key, so the line is deterministic.
//
// How: first the optimal moves reachable from the position are collected
// (one pruned breadth-first search, no path enumeration), sorted by label;
// then `reduce` walks the line, taking at each step the first such move out of
// the current position. A draw has no remoteness (no forced end): the line is
// the position alone.
//
// Parameters:
//   $game   the Game id (Position.game)
//   $key    the position's canonical key
//
// Example:
//   :param game => 'tictactoe'
//   :param key => 'X../.O./...'
//
// Returns one row per ply: the position (key, value, remoteness) and the move
// played from it (label, to, optimal); the last row is the end of the game.
MATCH (p:Position {game: $game, key: $key})
CALL (p) {
  MATCH (p)-[:MOVE*0.. {optimal: true}]->(n)
  WITH DISTINCT n
  MATCH (n)-[m:MOVE {optimal: true}]->(c)
  WHERE c.remoteness = n.remoteness - 1
  WITH n, m, c
  ORDER BY n.key, m.label, c.key
  RETURN collect({from: n.key, to: c.key}) AS moves
}
WITH p, reduce(line = [p.key], ply IN range(1, coalesce(p.remoteness, 0)) |
               line + [head([m IN moves WHERE m.from = last(line)]).to]) AS line
UNWIND range(0, size(line) - 1) AS ply
MATCH (n:Position {game: $game, key: line[ply]})
OPTIONAL MATCH (n)-[m:MOVE]->(next:Position {game: $game, key: line[ply + 1]})
RETURN ply, n.key AS key, n.value AS value, n.remoteness AS remoteness, m.label AS label, next.key AS to,
       m.optimal AS optimal
ORDER BY ply
