// cgt-equal: the positions whose combinatorial value equals a given value.
//
// Answers "where in this game does ↑ (or *2, or ±1…) occur?". Values are stored in
// canonical form as ASCII text (Position.cgt), so equal values have equal text and
// the look-up is an exact match; the caller turns any spelling (`{0|*}`, `↑`) into
// that canonical text first.
//   key       the position
//   value     win/loss for the player to move there
//   to_move   0 Left, 1 Right
//   cgt       the canonical value (ASCII)
//
// Parameters:
//   $game    the Game id (Game.id and Position.game)
//   $cgt     the value in canonical ASCII notation, e.g. '^' or '+-1'
//   $limit   the most rows
//
// Example:
//   :param game => 'toads-and-frogs(board=TT..FF,first=toads)'
//   :param cgt => '*'
//   :param limit => 100
MATCH (p:Position {game: $game})
WHERE p.cgt = $cgt
RETURN p.key AS key, p.value AS value, p.to_move AS to_move, p.cgt AS cgt
ORDER BY key
LIMIT $limit
