// stats: a game's positions counted by value and by remoteness, its longest wins and its busiest positions.
//
// Answers "what does this game look like as a whole?". One row with four
// lists:
//   by_value       {value, positions} for each value present (win, loss, tie, draw)
//   by_remoteness  {value, remoteness, positions}: how far from the end each
//                  decided position is (draws have no remoteness)
//   longest_win    {key, remoteness}: the wins that take the most moves to force
//   most_moves     {key, moves, value}: the positions with the most distinct moves
//
// Parameters:
//   $game    the Game id (Game.id and Position.game)
//   $limit   the most entries in longest_win and in most_moves
//
// Example:
//   :param game => 'tictactoe'
//   :param limit => 10
MATCH (g:Game {id: $game})
CALL (g) {
  MATCH (p:Position {game: g.id})
  WITH p.value AS value, count(*) AS positions
  ORDER BY CASE value WHEN 'win' THEN 0 WHEN 'loss' THEN 1 WHEN 'tie' THEN 2 ELSE 3 END
  RETURN collect({value: value, positions: positions}) AS by_value
}
CALL (g) {
  MATCH (p:Position {game: g.id})
  WHERE p.remoteness IS NOT NULL
  WITH p.value AS value, p.remoteness AS remoteness, count(*) AS positions
  ORDER BY CASE value WHEN 'win' THEN 0 WHEN 'loss' THEN 1 WHEN 'tie' THEN 2 ELSE 3 END, remoteness
  RETURN collect({value: value, remoteness: remoteness, positions: positions}) AS by_remoteness
}
CALL (g) {
  MATCH (p:Position {game: g.id, value: 'win'})
  WITH max(p.remoteness) AS longest
  MATCH (p:Position {game: g.id, value: 'win'})
  WHERE p.remoteness = longest
  WITH p
  ORDER BY p.key
  LIMIT $limit
  RETURN collect({key: p.key, remoteness: p.remoteness}) AS longest_win
}
CALL (g) {
  MATCH (p:Position {game: g.id})
  WITH p, COUNT { (p)-[:MOVE]->() } AS moves
  ORDER BY moves DESC, p.key
  LIMIT $limit
  RETURN collect({key: p.key, moves: moves, value: p.value}) AS most_moves
}
RETURN by_value, by_remoteness, longest_win, most_moves
