// cgt-hot: the hottest positions of a partizan game, by the temperature of their combinatorial value.
//
// Answers "where is the most at stake for the player to move?". The temperature says how much
// moving first is worth (Winning Ways' thermographs; docs/cgt.md): numbers are below 0 (−1 an
// integer, −1/2^k a number m/2^k), infinitesimals 0, a switch ±x has temperature x.
//   key          the position
//   cgt          its canonical value (ASCII)
//   mean         the mean value (the mast of its thermograph)
//   temperature  the temperature
// Hottest first; equal temperatures by key. Positions without a value are left out.
//
// Parameters:
//   $game    the Game id (Game.id and Position.game)
//   $limit   the most rows
//
// Example:
//   :param game => 'domineering(rows=3,cols=3,first=vertical)'
//   :param limit => 20
MATCH (p:Position {game: $game})
WHERE p.temperature IS NOT NULL
RETURN p.key AS key, p.cgt AS cgt, p.mean AS mean, p.temperature AS temperature
ORDER BY temperature DESC, key
LIMIT $limit
