// components: the strongly connected components that contain a cycle, largest first.
//
// Answers "which groups of positions can all reach one another?". Stock Neo4j
// Community has no strongly-connected-components algorithm without plugins
// (GDS or APOC), so this query does not compute them: it groups positions by
// the `scc` id the solver stored (scipy's Pearce algorithm, O(V + E)).
// Positions on no cycle are each a component of their own and are left out.
//
// Parameters:
//   $game    the Game id (Position.game)
//   $limit   the most components returned
//
// Example:
//   :param game => 'chopsticks(fingers=5,overflow=cutoff,attack_dead=false,split=transfer,suicide=false,swaps=false)'
//   :param limit => 100
//
// Returns one row per component: its scc id, size, how many of its positions
// are wins, losses, ties and draws, and its smallest key as an example,
// ordered by size (largest first), then by that key.
MATCH (p:Position {game: $game})
WHERE p.on_cycle
WITH p.scc AS scc, count(*) AS size,
     count(CASE WHEN p.value = 'win' THEN 1 END) AS win,
     count(CASE WHEN p.value = 'loss' THEN 1 END) AS loss,
     count(CASE WHEN p.value = 'tie' THEN 1 END) AS tie,
     count(CASE WHEN p.value = 'draw' THEN 1 END) AS draw,
     min(p.key) AS example
RETURN scc, size, win, loss, tie, draw, example
ORDER BY size DESC, example
LIMIT $limit
