// cycle-stats: how many positions of each value lie on cycles.
//
// Answers "where can play go round in circles?". A position is on a cycle when
// its strongly connected component (the `scc` id the solver stored) has more
// than one position or it has a move to itself (`on_cycle`). `components`
// counts the distinct cyclic components those positions belong to. Draws are
// always on or above a cycle; in a game without cycles every count is 0.
//
// Parameters:
//   $game   the Game id (Position.game)
//
// Example:
//   :param game => 'chopsticks(fingers=5,overflow=cutoff,attack_dead=false,split=transfer,suicide=false,swaps=false)'
//
// Returns one row per value present (win, loss, tie, draw in that order):
// positions, on_cycle, off_cycle, components.
MATCH (p:Position {game: $game})
WITH p.value AS value, count(*) AS positions, count(CASE WHEN p.on_cycle THEN 1 END) AS on_cycle,
     count(DISTINCT CASE WHEN p.on_cycle THEN p.scc END) AS components
RETURN value, positions, on_cycle, positions - on_cycle AS off_cycle, components
ORDER BY CASE value WHEN 'win' THEN 0 WHEN 'loss' THEN 1 WHEN 'tie' THEN 2 ELSE 3 END
