// cgt-kinds: a partizan game's positions counted by the kind of their combinatorial value.
//
// Answers "what kinds of values does this game produce?". One row per kind:
//   kind             number, nimber (a number plus *n), infinitesimal (↑, ↑*, tinies…),
//                    switch ({a|b}, numbers a > b) or other
//   positions        how many positions have a value of that kind
//   distinct_values  how many different values of that kind occur
//   example          the smallest key among them
// Positions of games without combinatorial values have no cgt_kind and are not counted.
//
// Parameters:
//   $game    the Game id (Game.id and Position.game)
//
// Example:
//   :param game => 'toads-and-frogs(board=TT..FF,first=toads)'
MATCH (p:Position {game: $game})
WHERE p.cgt_kind IS NOT NULL
WITH p.cgt_kind AS kind, count(*) AS positions, count(DISTINCT p.cgt) AS distinct_values, min(p.key) AS example
RETURN kind, positions, distinct_values, example
ORDER BY kind
