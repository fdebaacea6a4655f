// draw-kinds: the draws of a game split into safe draws (no move loses) and sharp ones (some move loses).
//
// A draw's mover can keep the draw and cannot do better, so each of its moves
// either keeps the draw or reaches a position the opponent wins. Two tables:
//   summary    {kind, positions}: how many safe and sharp draws
//   sharpest   {key, losing_moves, fastest_loss}: the sharp draws with the most
//              losing moves (fastest_loss: plies to the mover's loss after the
//              quickest of them)
//
// Parameters:
//   $game    the Game id (Game.id and Position.game)
//   $limit   the most rows of `sharpest`
//
// Example:
//   :param game => 'chopsticks(fingers=5,overflow=cutoff,attack_dead=false,split=transfer,suicide=false,swaps=false)'
//   :param limit => 10
MATCH (p:Position {game: $game, value: 'draw'})
OPTIONAL MATCH (p)-[:MOVE]->(q:Position {value: 'win'})
WITH p, count(q) AS losing_moves, min(q.remoteness) + 1 AS fastest_loss
WITH collect({key: p.key, losing_moves: losing_moves, fastest_loss: fastest_loss}) AS draws
CALL (draws) {
  UNWIND draws AS d
  WITH CASE WHEN d.losing_moves > 0 THEN 'sharp' ELSE 'safe' END AS kind, count(*) AS positions
  ORDER BY kind
  RETURN collect({kind: kind, positions: positions}) AS summary
}
CALL (draws) {
  UNWIND draws AS d
  WITH d WHERE d.losing_moves > 0
  ORDER BY d.losing_moves DESC, d.key
  LIMIT $limit
  RETURN collect(d) AS sharpest
}
RETURN summary, sharpest
