// dangerous-moves: the moves that turn a drawn position into a loss for its mover.
//
// One row per losing move, fastest loss first:
//   label      the move
//   to         the position it reaches (a win for the opponent)
//   loses_in   plies until the mover has lost after it, with best play by both
// Empty when the position is not a draw or is a safe draw.
//
// Parameters:
//   $game    the Game id (Game.id and Position.game)
//   $key     the position's key
//
// Example:
//   :param game => 'chopsticks(fingers=5,overflow=cutoff,attack_dead=false,split=transfer,suicide=false,swaps=false)'
//   :param key => 'A|1-1|1-1'
MATCH (p:Position {game: $game, key: $key, value: 'draw'})-[m:MOVE]->(q:Position {value: 'win'})
RETURN m.label AS label, q.key AS to, q.remoteness + 1 AS loses_in
ORDER BY loses_in, label, to
